/**
 * Rows of a long list's slice (engine/rows.ts), on a tree of the shape the GTK file chooser and Thunar's details
 * view showed in the eval (assembled here: four columns, the name column a nameless cell around an icon cell and a
 * text cell, the time column reading its text twice): one line per row in observe and in a scroll's diff, the rows
 * that left the view as one line, and runs of nameless alike siblings (Chromium's 28 toolbar buttons) as one line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffSnapshots } from '../../src/engine/diff.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';

const window = { id: ':1.9/w', title: 'Attach a report', app: 'zenity', pid: 42, role: 'dialog' as const, focused: true };
const node = (id: string, role: RawNode['role'], extra: Partial<RawNode> = {}): RawNode => ({ id, role, states: [], actions: [], ...extra });

/** The cells of rows `first`..`first+n-1` (1-based) as a TreeView slice: only the first and last carry coordinates. */
function slice(first: number, n: number, headers: boolean): RawNode {
  const kids: RawNode[] = headers ? ['Name', 'Size', 'Type', 'Modified'].map((h, i) => node(`:1.9/h${i}`, 'columnheader', { name: h })) : [];
  for (let r = first; r < first + n; r++) {
    const id = (c: string): string => `:1.9/r${r}${c}`;
    kids.push(
      node(id('a'), 'cell', { children: [node(id('i'), 'cell', { actions: ['click'] }), node(id('t'), 'cell', { name: `report-${r}.txt` })] }),
      node(id('b'), 'cell', { name: `${r} bytes` }),
      node(id('c'), 'cell', { name: 'Text' }),
      node(id('d'), 'cell', { children: [node(id('d1'), 'cell', { name: '07∶10' }), node(id('d2'), 'cell', { name: '07∶10' })] }),
    );
  }
  const cells = kids.filter((k) => k.role === 'cell');
  const firstCell = cells[0];
  const lastCell = cells[cells.length - 1];
  if (firstCell) firstCell.cell = { row: first - 1, col: 0 };
  if (lastCell) lastCell.cell = { row: first + n - 2, col: 3 };
  const start = headers ? 0 : 4 + (first - 1) * 4;
  return node(':1.9/t', 'table', { name: 'Files', children: kids, childCount: 804, childRange: { start, end: start + kids.length }, table: { rows: 200, cols: 4 } });
}

const root = (table: RawNode): RawNode => node(':1.9/w', 'dialog', { name: 'Attach a report', children: [table, node(':1.9/ok', 'button', { name: 'OK', actions: ['click'] })] });

test('a sliced table prints one line per row: the name cell as an element line, the other columns after it', () => {
  const s = buildSnapshot({ window, root: root(slice(1, 20, true)) }, new RefTable());
  assert.match(s.text, /\n {4}columns: Name \| Size \| Type \| Modified\n/, s.text);
  const line = s.text.split('\n').find((l) => l.includes('report-7.txt')) ?? '';
  assert.match(line, /^ {4}\[e\d+\] cell "report-7\.txt" — row 7: 7 bytes \| Text \| 07∶10$/, s.text);
  // The nameless wrapper and icon cells print no line of their own; the time reads once.
  assert.doesNotMatch(s.text, /^\s*\[e\d+\] cell$/m, s.text);
  assert.match(s.text, /… rows 1–20 of 200 on screen/, s.text);
  // Every cell keeps its ref in the elements (for diffs, receipts and acts).
  assert.equal(s.elements.filter((l) => l.role === 'cell').length, 20 * 8);
  assert.ok(s.tokens < 800, `${s.tokens} tokens for 20 rows`);
});

test('a scroll diff prints the rows that came into view as row lines and the rows that left as one line', () => {
  const refs = new RefTable();
  const before = buildSnapshot({ window, root: root(slice(1, 20, true)) }, refs);
  const after = buildSnapshot({ window, root: root(slice(157, 20, false)) }, refs);
  const d = diffSnapshots(before, after);
  const text = d.lines.join('\n');
  assert.match(text, /^\+ \[e\d+\] cell "report-173\.txt" — row 173: 173 bytes \| Text \| 07∶10$/m, text);
  assert.match(text, /^- the column headers and rows 1–20 of \[e\d+\] table "Files"$/m, text);
  assert.equal(d.lines.filter((l) => l.startsWith('+ ')).length, 20, text);
  assert.equal(d.lines.filter((l) => l.startsWith('- ')).length, 1, text);
  assert.doesNotMatch(text, /more changes/, text);
});

test('a row whose cells were re-created (a file deleted above it) reads as its old line and its new one', () => {
  const refs = new RefTable();
  const before = buildSnapshot({ window, root: root(slice(1, 5, true)) }, refs);
  const t = slice(1, 5, true);
  // Row 3 now holds other elements (the toolkit re-created them): new ids, new names.
  for (const c of t.children ?? []) {
    if (!c.id.startsWith(':1.9/r3')) continue;
    c.id += '-new';
    if (c.name) c.name = `new ${c.name}`;
    for (const k of c.children ?? []) { k.id += '-new'; if (k.name) k.name = `new ${k.name}`; }
  }
  const d = diffSnapshots(before, buildSnapshot({ window, root: root(t) }, refs));
  const text = d.lines.join('\n');
  assert.match(text, /^- \[e\d+\] cell "report-3\.txt" — row 3: 3 bytes \| Text \| 07∶10$/m, text);
  assert.match(text, /^\+ \[e\d+\] cell "new report-3\.txt" — row 3: new 3 bytes \| new Text \| new 07∶10$/m, text);
  assert.equal(d.lines.length, 2, text);
});

test('cells that do not add up to the first and last cell\'s coordinates print as element lines', () => {
  const t = slice(1, 5, true);
  t.children?.splice(6, 1);
  const s = buildSnapshot({ window, root: root(t) }, new RefTable());
  assert.doesNotMatch(s.text, /— row /, s.text);
  assert.match(s.text, /\[e\d+\] cell "report-1\.txt"/, s.text);
});

test('four or more nameless alike siblings print as one line; every ref stays in the elements', () => {
  const buttons = Array.from({ length: 28 }, (_, i) => node(`:1.9/b${i}`, 'button', { actions: ['click'] }));
  const bar = node(':1.9/bar', 'toolbar', { children: [node(':1.9/back', 'button', { name: 'Back', actions: ['click'] }), ...buttons, node(':1.9/you', 'button', { name: 'You', actions: ['click'] })] });
  const s = buildSnapshot({ window, root: node(':1.9/w', 'dialog', { name: 'Tickets', children: [bar] }) }, new RefTable());
  assert.match(s.text, /\n {4}\[(e\d+)\] … \[(e\d+)\] 28 buttons without a name\n/, s.text);
  assert.match(s.text, /button "Back"[^]*28 buttons[^]*button "You"/, s.text);
  assert.equal(s.elements.filter((l) => l.role === 'button').length, 30);
  // Three alike stay lines of their own (nothing is gained).
  const three = node(':1.9/bar', 'toolbar', { children: buttons.slice(0, 3) });
  const s3 = buildSnapshot({ window, root: node(':1.9/w', 'dialog', { name: 'Tickets', children: [three] }) }, new RefTable());
  assert.equal(s3.text.split('\n').filter((l) => /^\s*\[e\d+\] button$/.test(l)).length, 3, s3.text);
});
