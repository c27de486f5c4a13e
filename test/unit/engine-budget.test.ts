import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { estimateTokens } from '../../src/engine/measure.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { byId, n } from '../fixtures/engine/build.js';
import type { RawNode } from '../../src/engine/node.js';
import { gedit } from '../fixtures/engine/gedit.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

const SEED_CJK = [
  'app 记事本 pid=8812 · window "无标题 - 记事本" [focused]',
  '[e1] window "无标题 - 记事本"',
  '  [e2] menubar',
  '    [e3] menuitem "文件" ▸',
  '    [e4] menuitem "编辑" ▸',
  '  [e6] statusbar "第 1 行，第 12 列"',
  '(折叠 23 个无名容器 · 2 个列表项超出预算，用 scope=e9 展开)',
].join('\n');

test('estimateTokens is within ±20% of o200k_base on the fixtures, in total and per text', () => {
  const texts = [
    buildSnapshot(gedit(), new RefTable(), { maxTokens: 1e9 }).text,
    buildSnapshot(widgetFactory(), new RefTable(), { maxTokens: 1e9 }).text,
    buildSnapshot(widgetFactory(), new RefTable(), { maxTokens: 1e9, scope: 'e18' }).text,
    SEED_CJK,
  ];
  let est = 0;
  let real = 0;
  for (const t of texts) {
    const e = estimateTokens(t);
    const r = encode(t).length;
    assert.ok(Math.abs(e - r) / r <= 0.2, `estimate ${e} vs o200k ${r} for ${t.slice(0, 40)}`);
    est += e;
    real += r;
  }
  assert.ok(Math.abs(est - real) / real <= 0.2, `total estimate ${est} vs o200k ${real}`);
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('中文字'), 3);
});

test('a tiny budget keeps the focus path first and stays within budget', () => {
  for (const max of [60, 100, 150, 200, 300, 500]) {
    for (const fixture of [gedit, widgetFactory]) {
      const s = buildSnapshot(fixture(), new RefTable(), { maxTokens: max });
      assert.ok(s.tokens <= max, `${fixture.name} ${max}: ${s.tokens}`);
      assert.equal(s.tokens, estimateTokens(s.text));
      if (max >= 150) assert.ok(s.lines.some((l) => l.ref === s.focusRef), `${fixture.name} ${max} keeps focus`);
    }
  }
});

test('budget 150 on the widget factory: exact text', () => {
  const s = buildSnapshot(widgetFactory(), new RefTable(), { maxTokens: 150 });
  assert.equal(s.text, [
    'app gtk3-widget-factory pid=5151 · window "GTK+ Widget Factory" [focused]',
    '[e1] window',
    '  [e2] tablist',
    '    [e3] tab "Page 1" selected',
    '    [e4] tab "Page 2"',
    '  [e10] group "Inputs"',
    '    [e13] textbox "Name" value="Ada \\"the first\\" Lovelace" editable focused',
    '(37 elements over budget, expand with scope=e1, scope=e10)',
  ].join('\n'));
  assert.deepEqual(s.stats, { rawNodes: 102, shownNodes: 6, folded: 4, omitted: 52 });
});

test('priority: the tab bar, then interactive elements, before plain text before containers', () => {
  const f = gedit();
  byId(f.root, 24).states = ['editable']; // no focus: nothing on the focus path but the root
  const s = buildSnapshot(f, new RefTable(), { maxTokens: 130 });
  const roles = s.lines.map((l) => l.role);
  assert.ok(s.tokens <= 130);
  assert.ok(!roles.includes('label'), roles.join(','));
  assert.ok(roles.includes('tab'), roles.join(','));
  assert.ok(roles.filter((r) => r === 'button').length >= 2, roles.join(','));
  assert.match(s.text, /elements over budget, expand with scope=e1/);
});

test('the full render is returned untouched when it fits', () => {
  const s = buildSnapshot(gedit(), new RefTable());
  assert.equal(s.stats.omitted, 0);
  assert.ok(!s.text.includes('over budget'));
});

test('a dialog\'s buttons outrank the rows of its long list: the rows ' +
    'are cut first (a file chooser\'s 30 rows cut Cancel and Save)', () => {
  // Assembled here in the shape of a GTK file chooser: a list of file rows, then the dialog's buttons.
  const rows = Array.from({ length: 30 }, (_, i) =>
    n(':1.9', 100 + i, 'listitem', { name: `report-${i}.txt 12 kB Text 10:0${i % 10}`, actions: ['select'] }),
  );
  const root = n(':1.9', 1, 'dialog', { name: 'Save File' }, [
    n(':1.9', 2, 'textbox', { name: 'Name', value: 'a.txt', states: ['editable', 'focused'] }),
    n(':1.9', 3, 'list', { name: 'Files' }, rows),
    n(':1.9', 4, 'button', { name: 'Cancel', actions: ['click'] }),
    n(':1.9', 5, 'button', { name: 'Save', actions: ['click'] }),
  ]);
  const s = buildSnapshot(
    { window: { id: 'w', title: 'Save File', app: 'geany', pid: 7, role: 'dialog', focused: true }, root },
    new RefTable(),
    { maxTokens: 220 },
  );
  assert.ok(s.tokens <= 220);
  assert.match(s.text, /button "Cancel"/);
  assert.match(s.text, /button "Save"/);
  assert.match(s.text, /listitem "report-0\.txt/, 'the first rows still show');
});

test('a scoped snapshot does not print the whole window\'s folded ' +
    'count (a model in the loop read it as the scope\'s)', () => {
  const b = ':1.90';
  const wrap = (id: number, kids: RawNode[]): RawNode => ({
    id: `${b}/${id}`,
    role: 'generic',
    states: [],
    actions: [],
    children: kids,
  });
  const root: RawNode = { id: `${b}/1`, role: 'window', name: 'W', states: [], actions: [], children: [
    wrap(2, [wrap(3, [wrap(4, [{ id: `${b}/5`, role: 'button', name: 'Deep', states: [], actions: ['click'] }])])]),
    {
      id: `${b}/6`,
      role: 'list',
      name: 'Items',
      states: [],
      actions: [],
      children: [{ id: `${b}/7`, role: 'listitem', name: 'One', states: [], actions: ['select'] }],
    },
  ], };
  const window = { id: `${b}/1`, title: 'W', app: 'x', pid: 1, role: 'window', focused: true } as const;
  const refs = new RefTable();
  const whole = buildSnapshot({ window, root }, refs);
  // The count of nameless containers distilling unwrapped is printed nowhere: it told a model nothing.
  assert.doesNotMatch(whole.text, /folded/, whole.text);
  const list = /\[(e\d+)\] list "Items"/.exec(whole.text)![1]!;
  const scoped = buildSnapshot({ window, root }, refs, { scope: list });
  assert.doesNotMatch(scoped.text, /folded/, scoped.text);
});

test('the budget cuts a closed combo box\'s item list before the tab bar after it', () => {
  const B = ':1.71';
  const root = n(B, 1, 'window', { name: 'Db', states: ['active'] }, [
    n(B, 2, 'combobox', { name: 'Mode', actions: ['select'] }, [
      n(
        B,
        3,
        'list',
        { actions: ['select'] },
        Array.from({ length: 20 }, (_, i) =>
          n(B, 300 + i, 'listitem', { name: `A rather long option name ${i}`, actions: ['select'] }),
        ),
      ),
    ]),
    n(
      B,
      4,
      'tablist',
      {},
      ['Structure', 'Browse Data', 'Edit Pragmas', 'Execute SQL'].map((t, i) =>
        n(B, 40 + i, 'tab', { name: t, actions: ['select'] }),
      ),
    ),
  ]);
  const s = buildSnapshot(
    {
      window: {
        id: `${B}/org/a11y/atspi/accessible/1`,
        title: 'Db',
        app: 'db',
        pid: 4344,
        role: 'window',
        focused: true,
      },
      root,
    },
    new RefTable(),
    { maxTokens: 120 },
  );
  assert.ok(s.tokens <= 120, s.text);
  for (const t of ['Structure', 'Browse Data', 'Edit Pragmas', 'Execute SQL'])
    assert.match(s.text, new RegExp(`tab "${t}"`), s.text);
  assert.match(s.text, /over budget/);
});
