/**
 * Views that expose nothing, and answers that say so: an icon view (Thunar: an empty focusable group beside its
 * scroll bars) or a canvas (abiword's page, gnumeric's sheet: a focused drawing area or panel) holds items the
 * tree does not show, so observe and find say so and what works; a find whose matches came from the list's own
 * search (list.find) counts them on its first line. Trees assembled here in the measured shapes; through
 * createComputer and the fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';

const home = mkdtempSync(join(tmpdir(), 'cu-opaque-'));
process.env['COMPUTER_USE_HOME'] = home;
const open: Computer[] = [];
after(async () => { await Promise.all(open.map((c) => c.close())); });

async function computerOf(root: RawNode, title: string, fake = new FakeDriver()): Promise<Computer> {
  fake.windows.push({
    info: { id: 'w', title, app: 'thunar', pid: 4343, role: 'window', focused: true, bounds: [0, 0, 800, 600] },
    root,
  });
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(c);
  return c;
}

test('Thunar\'s icon view: observe marks the empty view and ' +
    'says what works; find does not answer a bare 0 matches', async () => {
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'files - Thunar',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'loc',
        role: 'textbox',
        nativeRole: 'text',
        value: '/tmp/files/',
        states: ['editable'],
        actions: ['set_value'],
      },
      {
        id: 'pane',
        role: 'pane',
        nativeRole: 'directory pane',
        name: 'Icon view',
        description: 'Icon based directory listing',
        states: [],
        actions: ['focus'],
        children: [
          { id: 'icons', role: 'group', nativeRole: 'panel', states: ['focused'], actions: ['focus'] },
          {
            id: 'sb',
            role: 'scrollbar',
            nativeRole: 'scroll bar',
            states: ['offscreen'],
            actions: ['set_value'],
            childCount: 0,
          },
        ],
      },
      // An empty panel that takes no focus is decoration, not a view.
      { id: 'deco', role: 'group', nativeRole: 'panel', states: [], actions: [] },
    ],
  };
  const c = await computerOf(root, 'files - Thunar');
  const o = await c.tools.observe({});
  assert.match(o.text, /\[e\d+\] group focused \(exposes no items\)/, o.text);
  assert.equal(o.text.match(/exposes no items/g)?.length, 1, o.text);
  // An item view (no cell-address box in its window): what reaches its items, and nothing about writing into it.
  assert.match(
    o.text,
    /\(e\d+ draws its content without exposing items: if loading, observe again; else the app's list view, its Find, or computer_screenshot \(OCR\)[ )]/,
    o.text,
  );
  assert.doesNotMatch(o.text, /Thunar: ctrl|cell-address box|clipboard/, o.text);
  const f = await c.tools.find({ text: 'zenity' });
  assert.match(f.text, /^0 matches for "zenity"/, f.text);
  // Said in full once per view and conversation (observe said it just before), then in short.
  assert.match(f.text, /without exposing items \(as said before: /, f.text);
});

test('the long note on an opaque view is printed once per view and conversation, then its short form', async () => {
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'doc.pdf',
    states: ['active'],
    actions: [],
    children: [
      { id: 'page', role: 'canvas', nativeRole: 'drawing area', states: ['focused'], actions: ['focus'] },
      { id: 'btn', role: 'button', nativeRole: 'push button', name: 'Next', states: [], actions: ['click'] },
    ],
  };
  const statePath = join(home, 'opaque-state.json');
  const fake = new FakeDriver();
  fake.windows.push({
    info: {
      id: 'w',
      title: 'doc.pdf',
      app: 'viewer',
      pid: 4344,
      role: 'window',
      focused: true,
      bounds: [0, 0, 800, 600],
    },
    root,
  });
  const make = async (): Promise<Computer> => {
    const c = await createComputer({
      desktop: 'current',
      connect: () => fake.connect(),
      statePath,
      settingsPath: join(home, 'settings.json'),
      auditPath: join(home, 'audit.jsonl'),
    });
    open.push(c);
    return c;
  };
  const c = await make();
  const long = /without exposing items: /;
  const first = await c.tools.observe({});
  assert.match(first.text, long, first.text);
  const again = await c.tools.observe({ full: true });
  assert.doesNotMatch(again.text, long, again.text);
  assert.match(again.text, /e\d+ draws its content without exposing items \(as said before: /, again.text);
  const f = await c.tools.find({ text: 'zenity' });
  assert.doesNotMatch(f.text, long, f.text);
  // The CLI's next process continues the conversation through the state file.
  await c.close();
  const next = await (await make()).tools.observe({ full: true });
  assert.doesNotMatch(next.text, long, next.text);
  // A new conversation hears it in full again.
  const fresh = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
  });
  open.push(fresh);
  assert.match((await fresh.tools.observe({})).text, long);
});

test('abiword\'s page: a focused drawing area is an opaque view; a ruler (no focus) is not marked', async () => {
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'Untitled1 - AbiWord',
    states: ['active'],
    actions: [],
    children: [
      { id: 'page', role: 'canvas', nativeRole: 'drawing area', states: ['focused'], actions: ['focus'] },
      { id: 'ruler', role: 'canvas', nativeRole: 'drawing area', states: [], actions: [] },
      // A view still loading (busy) may expose its items yet: not marked.
      { id: 'loading', role: 'generic', nativeRole: 'section', states: ['busy', 'focusable'], actions: ['focus'] },
    ],
  };
  const c = await computerOf(root, 'Untitled1 - AbiWord');
  const o = await c.tools.observe({});
  assert.match(o.text, /canvas focused \(exposes no items\)/, o.text);
  assert.equal(o.text.match(/\(exposes no items\)/g)?.length, 1, o.text);
});

test('the note on an opaque view gives the advice of its kind, in about a third of the old note\'s words', async () => {
  // The old note (~130 tokens) said every piece of advice to every view: a page was told about list views and a
  // spreadsheet's address box, an icon view about the clipboard.
  const page: RawNode = {
    id: 'w', role: 'window', nativeRole: 'frame', name: 'Untitled1', states: ['active'], actions: [],
    children: [{ id: 'page', role: 'canvas', nativeRole: 'drawing area', states: ['focused'], actions: ['focus'] }],
  };
  const p = await (await computerOf(page, 'Untitled1')).tools.observe({});
  const pageNote = /\((e\d+ draws its content without exposing items: [^\n]*?)( · full=true[^\n]*)?\)$/m.exec(
    p.text,
  )?.[1];
  assert.equal(
    pageNote?.replace(/^e\d+/, 'eN'),
    'eN draws its content without exposing items: type while it has the focus; read back by ' +
      'ctrl+a, ctrl+c, then the clipboard (asks the user) or computer_screenshot (OCR)',
    p.text,
  );
  // gnumeric's sheet: a focused empty panel in a window whose cell-address box reads "A1".
  const sheet: RawNode = {
    id: 'w', role: 'window', nativeRole: 'frame', name: 'Book1.gnumeric', states: ['active'], actions: [],
    children: [
      { id: 'box', role: 'textbox', nativeRole: 'text', value: 'A1', states: ['editable'], actions: ['set_value'] },
      { id: 'edit', role: 'textbox', nativeRole: 'text', states: ['editable'], actions: ['set_value'] },
      { id: 'cells', role: 'group', nativeRole: 'panel', states: ['focused'], actions: ['focus'] },
    ],
  };
  const s = await (await computerOf(sheet, 'Book1.gnumeric')).tools.observe({});
  assert.match(
    s.text,
    /e\d+ draws its content without exposing items: type while it has the focus, or set_value the cell-address box \(e\d+\) then the edit line \(e\d+\), each then Enter; read by computer_screenshot \(OCR\)[ )]/,
    s.text,
  );
  // The note names the two nameless text boxes by ref (a model guessed which was which from their values).
  const box = /\[(e\d+)\] textbox value="A1"/.exec(s.text)?.[1];
  const edit = /\[(e\d+)\] textbox editable/.exec(s.text)?.[1];
  assert.ok(box && edit, s.text);
  assert.ok(s.text.includes(`cell-address box (${box}) then the edit line (${edit})`), s.text);
  assert.doesNotMatch(s.text, /list view|clipboard/, s.text);
});

test('a drawn area inside an editable document or text box is its viewport: no mark, no note (Qt, GTK 4)', async () => {
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'Untitled',
    states: ['active'],
    actions: [],
    children: [
      // featherpad's editor: the document exposes its text, the focused viewport inside it nothing.
      {
        id: 'doc',
        role: 'document',
        nativeRole: 'text',
        value: '',
        states: ['editable', 'focused'],
        actions: ['set_value', 'focus'],
        children: [{ id: 'vp', role: 'generic', nativeRole: 'filler', states: ['focused'], actions: ['focus'] }],
      },
      // gnome-text-editor's Save As name entry: a scroller and a drawn area inside the text box.
      {
        id: 'name',
        role: 'textbox',
        nativeRole: 'text',
        name: 'Name:',
        value: 'a.txt',
        states: ['editable'],
        actions: ['set_value'],
        children: [{
          id: 'sa',
          role: 'scrollarea',
          nativeRole: 'scroll pane',
          states: [],
          actions: [],
          children: [{ id: 'area', role: 'generic', nativeRole: 'panel', states: [], actions: ['focus'] }],
        }],
      },
    ],
  };
  const c = await computerOf(root, 'Untitled');
  const o = await c.tools.observe({ full: true });
  assert.doesNotMatch(o.text, /exposes no items|without exposing items/, o.text);
});

test('a find whose only match is off-screen, found by the ' +
    'list\'s own search, does not open with "0 matches"', async () => {
  const rows = Array.from({ length: 3 }, (_, i): RawNode => ({
    id: `r${i}`,
    role: 'listitem',
    nativeRole: 'list item',
    name: `file-${i}`,
    states: [],
    actions: ['select'],
  }));
  const root: RawNode = {
    id: 'w',
    role: 'window',
    nativeRole: 'frame',
    name: 'big',
    states: ['active'],
    actions: [],
    children: [
      {
        id: 'list',
        role: 'list',
        nativeRole: 'list',
        name: 'Files',
        states: [],
        actions: [],
        children: rows,
        childCount: 3000,
        childRange: { start: 0, end: 3 },
      },
    ],
  };
  const fake = new FakeDriver();
  fake.extra['list.find'] = () => ({
    matches: [
      {
        node: {
          id: 'r2659',
          role: 'listitem',
          nativeRole: 'list item',
          name: 'file-2659',
          states: [],
          actions: ['select'],
        },
        index: 2659,
      },
    ],
    total: 3000,
    scanned: 3000,
    next: 3000,
    complete: true,
    method: 'index',
    ms: 3,
  });
  const c = await computerOf(root, 'big', fake);
  const f = await c.tools.find({ text: 'file-2659' });
  assert.match(f.text, /^1 match for "file-2659"/, f.text);
  assert.match(f.text, /listitem "file-2659" — item 2,660 of 3,000 in list "Files" \[e\d+\], off-screen/, f.text);
});
