/**
 * A receipt's removals name only what the model was shown of the window (diffSnapshots `seen`): elements a print
 * folded out of sight or never printed are not listed one by one when they go, only counted on the container the
 * model saw; a removed element it saw is still listed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { Policy } from '../../src/policy/policy.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, refsNamed, type Snapshot } from '../../src/engine/snapshot.js';
import { n, removeById, type Fixture } from '../fixtures/engine/build.js';

const B = ':1.55';
const window = { id: `${B}/w`, title: 'Files', app: 'files', pid: 55, role: 'window' as const, focused: true };

/** A window with a close button and a pane of 30 buttons, of which a print's fold line names only the first few. */
function palette(count = 30): Fixture {
  const buttons: RawNode[] = [];
  for (let i = 0; i < count; i++) buttons.push(n(B, 100 + i, 'button', { name: `Palette colour number ${i + 1}` }));
  return {
    window,
    root: n(B, 1, 'window', { name: 'Files' }, [
      n(B, 2, 'button', { name: 'Close' }),
      n(B, 3, 'pane', { name: 'Colours' }, buttons),
    ]),
  };
}

const build = (f: Fixture, t: RefTable): Snapshot => buildSnapshot(f, t, { fold: true, maxTokens: 4000 });

test('a fold\'s hidden members that go are counted on the pane, never named', () => {
  const t = new RefTable();
  const a = build(palette(), t);
  const seen = new Set(refsNamed(a.text));
  assert.match(a.text, /30 buttons: .*\+\d+ more/, a.text);
  const hidden = a.elements.filter((l) => l.role === 'button' && l.name !== 'Close' && !seen.has(l.ref));
  assert.ok(hidden.length >= 19, a.text);
  const after = palette(10);
  const b = build(after, t);
  const lines = diffSnapshots(a, b, { seen }).lines;
  const pane = a.elements.find((l) => l.role === 'pane')!.ref;
  // The fold line's head names its last member by ref (`[e4] … [e33]`): that one the model saw.
  const last = a.elements.find((l) => l.name === 'Palette colour number 30')!.ref;
  assert.deepEqual(lines, [
    `- [${last}] button "Palette colour number 30"`,
    `- [${pane}] pane "Colours": 19 items fewer`,
  ]);
  for (const l of hidden) assert.ok(!lines.some((x) => x.includes(`${l.ref}]`)), lines.join('\n'));
  // Without `seen` every element counts as seen, as before.
  assert.match(diffSnapshots(a, b).lines.join('\n'), /^- 20 elements of \[e\d+\] pane "Colours" \(\[e\d+\]/m);
});

test('a removed element the print showed is still listed; named fold members too', () => {
  const t = new RefTable();
  const a = build(palette(), t);
  const seen = new Set(refsNamed(a.text));
  const after = palette();
  removeById(after.root, 2);
  removeById(after.root, 100);
  const lines = diffSnapshots(a, build(after, t), { seen }).lines;
  const close = a.elements.find((l) => l.name === 'Close')!.ref;
  const first = a.elements.find((l) => l.name === 'Palette colour number 1')!.ref;
  assert.deepEqual(lines, [`- [${close}] button "Close"`, `- [${first}] button "Palette colour number 1"`]);
});

/** A settings dialog of two tabs; `page` is the one shown (its content is under its tab, the other's is not read). */
function settings(page: 'display' | 'behavior'): Fixture {
  const content = (tab: 'display' | 'behavior'): RawNode[] =>
    page !== tab ? [] : tab === 'display'
      ? [n(B, 20, 'checkbox', { name: 'Show hidden files', states: ['checked'] })]
      : [n(B, 30, 'group', { name: 'Navigation' }, [
        n(B, 31, 'checkbox', { name: 'Single click to activate' }),
        n(B, 32, 'checkbox', { name: 'Open folders in new tabs' }),
        n(B, 33, 'combobox', { name: 'Middle click' }),
      ])];
  return {
    window: { ...window, title: 'Preferences', role: 'dialog' },
    root: n(B, 1, 'dialog', { name: 'Preferences' }, [
      n(B, 10, 'tablist', {}, [
        n(B, 11, 'tab', { name: 'Display', states: page === 'display' ? ['selected'] : [] }, content('display')),
        n(B, 12, 'tab', { name: 'Behavior', states: page === 'behavior' ? ['selected'] : [] }, content('behavior')),
      ]),
      n(B, 2, 'button', { name: 'Close' }),
    ]),
  };
}

test('an out-of-sight tab page\'s content the model never saw that goes reads as a count on its tab', () => {
  const t = new RefTable();
  // The model's print: the Display page.
  const printed = build(settings('display'), t);
  const seen = new Set(refsNamed(printed.text));
  // A read it was not shown (a receipt cut its added lines): the Behavior page in sight.
  const unseen = build(settings('behavior'), t);
  const back = build(settings('display'), t);
  const lines = diffSnapshots(unseen, back, { seen }).lines;
  const behavior = printed.elements.find((l) => l.name === 'Behavior')!.ref;
  const group = unseen.elements.find((l) => l.name === 'Navigation')!.ref;
  assert.ok(!lines.some((l) => l.includes(`[${group}]`)), lines.join('\n'));
  assert.ok(lines.includes(`- [${behavior}] tab "Behavior": 4 items fewer`), lines.join('\n'));
  // Seen, the same page's going is listed as before.
  const all = diffSnapshots(unseen, back, { seen: new Set([...seen, ...refsNamed(unseen.text)]) }).lines;
  assert.ok(all.includes(`- [${group}] group "Navigation" (+3 inside)`), all.join('\n'));
});

test('a seen element under a removed wrapper the print left out is listed; the wrapper is not counted', () => {
  const t = new RefTable();
  const make = (withBox: boolean): Fixture => ({
    window,
    root: n(B, 1, 'window', { name: 'Files' }, [
      n(B, 2, 'button', { name: 'Close' }),
      ...(withBox ? [n(B, 40, 'group', {}, [n(B, 41, 'label', { name: 'Status: 3 files copied' }),
        n(B, 42, 'button', { name: 'Dismiss' })])] : []),
    ]),
  });
  const a = build(make(true), t);
  const seen = new Set(refsNamed(a.text));
  const lines = diffSnapshots(a, build(make(false), t), { seen }).lines;
  assert.ok(lines.length > 0);
  assert.ok(!lines.some((l) => / fewer$/.test(l)), lines.join('\n'));
  assert.ok(lines.some((l) => /Status: 3 files copied|Dismiss/.test(l)), lines.join('\n'));
});

test('through the session: a receipt after a folded print counts the hidden members that went', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-diff-seen-'));
  const policy = new Policy({
    mode: 'default', allowApps: ['files'], processInfo: () => undefined, hostPids: [],
    audit: join(dir, 'audit.jsonl'), settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const f = palette();
  f.root.children![0]!.actions = ['click'];
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  // The Close button empties the pane but for its first ten buttons.
  fake.onAct = () => { f.root.children![1]!.children!.splice(10); };
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) => runTool(TOOLS.find((x) => x.schema.name === name)!, { session },
    params);
  const shown = (await call('computer_observe', {})).text;
  assert.match(shown, /30 buttons: .*\+\d+ more/, shown);
  const close = /\[(e\d+)\] button "Close"/.exec(shown)![1]!;
  const res = await call('computer_act', { actions: [{ ref: close, op: 'click' }] });
  assert.equal(res.isError, false, res.text);
  assert.match(res.text, /^- \[e\d+\] pane "Colours": 19 items fewer$/m, res.text);
  assert.doesNotMatch(res.text, /elements of/, res.text);
  await session.close();
});

test('a fold whose seen and hidden members all go reads as the one line it read before, by its seen ends', () => {
  const t = new RefTable();
  const a = build(palette(), t);
  const seen = new Set(refsNamed(a.text));
  const b = build(palette(0), t);
  assert.deepEqual(diffSnapshots(a, b, { seen }).lines, diffSnapshots(a, b).lines);
  assert.match(diffSnapshots(a, b, { seen }).lines.join('\n'), /^- 30 elements of \[e\d+\] pane "Colours" \(\[e4\]/);
});
