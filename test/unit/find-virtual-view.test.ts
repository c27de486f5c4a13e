/**
 * A view that keeps only the items in view in the tree (GTK 4's grid and list views: GNOME Fonts' font grid): find
 * said 0 matches with no hint. Its scroll bar says there is more than the items read; the 0-match answer now says
 * the view holds only those, and how to bring the rest (scroll, or the window's own search field).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-find-virtual-'));
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

const node = (id: string, role: string, extra: Partial<RawNode> = {}, children?: RawNode[]): RawNode =>
  ({ id, role, nativeRole: role, states: [], actions: [], ...extra, ...(children ? { children } : {}) }) as RawNode;

async function fonts(barValue: number, search: boolean): Promise<Computer> {
  const items = Array.from({ length: 12 }, (_, i) => node(`f${i}`, 'listitem', { name: `Font ${i + 1}` }));
  const root = node('w', 'window', { name: 'Fonts', states: ['active'] }, [
    ...(search
      ? [node('s', 'textbox', { name: 'Search', states: ['editable', 'focusable'], actions: ['set_value'] })]
      : []),
    node('sa', 'scrollarea', {}, [
      node('g', 'list', { actions: ['scroll'] }, items),
      node('sb', 'scrollbar', { value: String(barValue), range: { min: 0, max: 5000 } }),
    ]),
  ]);
  const fake = new FakeDriver([
    {
      info: {
        id: 'w',
        title: 'Fonts',
        app: 'fonts',
        pid: 4545,
        role: 'window',
        focused: true,
        bounds: [0, 0, 800, 600],
      },
      root,
    },
  ]);
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['fonts'],
    connect: () => fake.connect(),
    settingsPath: join(home, `s${open.length}.json`),
    auditPath: join(home, `a${open.length}.jsonl`),
  });
  open.push(c);
  return c;
}

test('0 matches in a view holding only its items in view says so, with the scroll and the search field', async () => {
  const c = await fonts(0, true);
  const r = await c.tools.find({ text: 'Noto Serif' });
  assert.match(r.text, /^0 matches/, r.text);
  assert.match(r.text, /list \[(e\d+)\] holds only the 12 items in view; its scroll bar says there is more/, r.text);
  assert.match(r.text, /op=scroll value="down 10 pages"/, r.text);
  assert.match(r.text, /the window's own search field \[e\d+\] textbox "Search"/, r.text);
});

test('a view scrolled to its end still says the rest is out of the tree; no search field named when none', async () => {
  const c = await fonts(5000, false);
  const r = await c.tools.find({ text: 'Noto Serif' });
  assert.match(r.text, /^0 matches/, r.text);
  assert.match(r.text, /holds only the 12 items in view/, r.text);
  assert.doesNotMatch(r.text, /search field/, r.text);
});
