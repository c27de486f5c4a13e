import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, isUnknownScopeError, type SnapshotInput } from '../../src/engine/snapshot.js';
import { byId } from '../fixtures/engine/build.js';
import { GEDIT_TEXT, gedit } from '../fixtures/engine/gedit.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

test('golden: gedit', () => {
  const s = buildSnapshot(gedit(), new RefTable());
  assert.equal(
    s.text,
    [
      'app gedit pid=4242 · window "Untitled Document 1 - gedit" [focused]',
      '[e1] window',
      '  [e2] button "Open"',
      '  [e3] button "New Tab"',
      '  [e4] label "Untitled Document 1"',
      '  [e5] button "Save"',
      '  [e6] button "Menu"',
      '  [e7] button "Close"',
      '  [e8] tablist',
      '    [e9] tab "Untitled Document 1" selected',
      '      [e10] button "Close Document"',
      `  [e11] document "Text view" value="${GEDIT_TEXT.slice(0, 600)}…" (text 0–600 of 1,500; more: ` +
        `scope=e11 from=600) editable focused`,
      '  [e12] statusbar',
      '    [e13] label "Ln 1, Col 12"',
      '    [e14] button "Tab Width: 8"',
      '    [e15] button "Plain Text"',
    ].join('\n'),
  );
  assert.equal(s.focusRef, 'e11');
  assert.deepEqual(s.stats, { rawNodes: 37, shownNodes: 15, folded: 8, omitted: 0 });
  assert.equal(s.lines[10]?.value, GEDIT_TEXT);
  assert.deepEqual(s.lines[10]?.states, ['editable', 'focused']);
});

test('golden: widget factory, with the list cut at 25', () => {
  const s = buildSnapshot(widgetFactory(), new RefTable());
  const rows = Array.from({ length: 25 }, (_, i) => `    [e${19 + i}] listitem "Row ${i + 1}"`);
  assert.equal(s.text, [
    'app gtk3-widget-factory pid=5151 · window "GTK+ Widget Factory" [focused]',
    '[e1] window',
    '  [e2] tablist',
    '    [e3] tab "Page 1" selected',
    '    [e4] tab "Page 2"',
    '  [e5] checkbox "checkbutton" checked',
    '  [e6] checkbox "checkbutton" unchecked',
    '  [e7] checkbox "checkbutton" mixed',
    '  [e8] checkbox "Bold" unchecked',
    '  [e9] button "togglebutton" pressed',
    '  [e10] group "Inputs"',
    '    [e11] slider "Volume" value="50" range=0..100',
    '    [e12] spinbutton "Count" value="2" range=0..10 editable',
    '    [e13] textbox "Name" value="Ada \\"the first\\" Lovelace" editable focused',
    '    [e14] textbox "Password" value="••••" editable password',
    '    [e15] textbox "Verification code" value="••••(secret)" editable',
    '    [e16] textbox "API key" value="••••(secret)" editable',
    '    [e17] combobox "Mode" ▸',
    '  [e18] list "Rows"',
    ...rows,
    '    … 15 more items (scope=e18)',
    '(15 list items cut)',
  ].join('\n'));
  assert.equal(s.elements.length, 58);
  assert.equal(s.stats.omitted, 15);
});

test('scope renders one subtree under the header, its own list uncut', () => {
  const t = new RefTable();
  buildSnapshot(widgetFactory(), t);
  const s = buildSnapshot(widgetFactory(), t, { scope: 'e18' });
  const lines = s.text.split('\n');
  assert.equal(lines[0], 'app gtk3-widget-factory pid=5151 · window "GTK+ Widget Factory" [focused]');
  assert.equal(lines[1], '[e18] list "Rows"');
  assert.equal(lines[41], '  [e58] listitem "Row 40"');
  // No footer: the window's folded count is not the scope's.
  assert.equal(lines.length, 42);
  assert.equal(s.focusRef, 'e13');
  const inputs = buildSnapshot(widgetFactory(), t, { scope: 'e10' });
  assert.equal(inputs.lines.length, 8);
  assert.throws(() => buildSnapshot(widgetFactory(), t, { scope: 'e999' }),
    (e: unknown) => isUnknownScopeError(e) && e.code === 'stale_ref'
      && e.message === 'Ref e999 not found in the current snapshot. Try capturing a new snapshot.');
});

test('query keeps matches, their ancestors and two levels below', () => {
  const t = new RefTable();
  const s = buildSnapshot(widgetFactory(), t, { query: 'ROW 3' });
  assert.equal(s.text, [
    'app gtk3-widget-factory pid=5151 · window "GTK+ Widget Factory" [focused]',
    '[e1] window',
    '  [e18] list "Rows"',
    '    [e21] listitem "Row 3"',
    ...Array.from({ length: 10 }, (_, i) => `    [e${48 + i}] listitem "Row ${30 + i}"`),
    '(11 matches for query "ROW 3")',
  ].join('\n'));
  const byRole = buildSnapshot(widgetFactory(), t, { query: 'slider' });
  assert.deepEqual(byRole.lines.map((l) => l.ref), ['e1', 'e10', 'e11']);
  const g = gedit();
  byId(g.root, 19).name = 'Notes';
  const sub = buildSnapshot(g, new RefTable(), { query: 'tablist' });
  assert.deepEqual(sub.lines.map((l) => l.text), ['[e1] window', '[e8] tablist',
    '[e9] tab "Notes" selected', '[e10] label "Untitled Document 1"', '[e11] button "Close Document"'].map((x) => x));
  const none = buildSnapshot(widgetFactory(), t, { query: 'zebra' });
  assert.match(none.text, /no element matches query "zebra"\)$/);
  assert.equal(none.lines.length, 1);
});

const LINUX = new URL('../../../test/fixtures/linux/', import.meta.url);

function recorded(): string[] {
  try {
    return readdirSync(LINUX).filter((f) => f.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

test('recorded Linux fixtures render within budget with unique refs and no password text', (t) => {
  const files = recorded();
  if (files.length === 0) {
    t.skip('no recorded fixtures in test/fixtures/linux yet');
    return;
  }
  for (const file of files) {
    const input = JSON.parse(readFileSync(new URL(file, LINUX), 'utf8')) as SnapshotInput;
    const secrets: string[] = [];
    const visit = (n: SnapshotInput['root']): void => {
      if (n.states.includes('password') && n.value && n.value !== '••••') secrets.push(n.value);
      n.children?.forEach(visit);
    };
    visit(input.root);
    for (const maxTokens of [2000, 300]) {
      const s = buildSnapshot(input, new RefTable(), { maxTokens });
      assert.ok(s.tokens <= maxTokens, `${file}: ${s.tokens} > ${maxTokens}`);
      const refs = s.text.split('\n').map((l) => /^\s*\[(e\d+)\]/.exec(l)?.[1]).filter((r) => r !== undefined);
      assert.equal(new Set(refs).size, refs.length, `${file}: duplicate refs`);
      assert.equal(refs.length, s.lines.length, file);
      for (const secret of secrets) assert.ok(!s.text.includes(secret), `${file}: password text leaked`);
    }
  }
});

test('the engine does no I/O: no node: or driver imports in src/engine (only the protocol\'s vocabulary)', () => {
  const dir = new URL('../../../src/engine/', import.meta.url);
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts'))) {
    const src = readFileSync(new URL(f, dir), 'utf8');
    assert.doesNotMatch(src, /from '(node:|fs|child_process|\.\.\/(?!protocol\/))/, f);
  }
});

test('scope prints its own element\'s text whole: a label of 277 characters, cut `…(277)` in the window\'s print, ' +
    'bounded', () => {
  const long = `Terms: ${'the quick brown fox jumps over the lazy dog; '.repeat(6)}end.`.slice(0, 277);
  const huge = 'x'.repeat(9000);
  const input: SnapshotInput = {
    window: { id: ':1.4/1', title: 'Terms', app: 'terms', pid: 9, role: 'dialog', focused: true },
    root: { id: ':1.4/1', role: 'dialog', name: 'Terms', states: [], actions: [], children: [
      { id: ':1.4/2', role: 'label', name: long, states: [], actions: [] },
      { id: ':1.4/3', role: 'label', name: huge, states: [], actions: [] },
      { id: ':1.4/4', role: 'button', name: 'Agree', states: [], actions: ['click'] },
    ] },
  };
  const t = new RefTable();
  const whole = buildSnapshot(input, t);
  assert.match(whole.text, /…\(277\)/, whole.text);
  const ref = whole.elements.find((l) => l.role === 'label')!.ref;
  const scoped = buildSnapshot(input, t, { scope: ref, maxTokens: 2000 });
  assert.ok(scoped.text.includes(`"${long}"`), scoped.text);
  assert.doesNotMatch(scoped.text, /…\(277\)/, scoped.text);
  // Bounded: a name of 9,000 characters is cut at the scope's own bound, and says so.
  const big = buildSnapshot(input, t, {
    scope: whole.elements.filter((l) => l.role === 'label')[1]!.ref,
    maxTokens: 4000,
  });
  assert.match(big.text, /x…\(9k\)"/, big.text.slice(-200));
  assert.ok(big.text.length < 4400, String(big.text.length));
});
