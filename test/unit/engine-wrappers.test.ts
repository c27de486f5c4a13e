/**
 * A whole-window print without empty structure (engine/wrappers.ts, render.ts, grid.ts): a chain of containers of
 * one child each that carry nothing a model uses prints as what they hold, a region's name passing to it and a name
 * the toolkit gave after its widget class left out; a leaf with nothing in it goes; a second copy of a menu bar
 * prints nothing; a small one-column table prints as one line. Every ref stays in the elements; `full` prints all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot } from '../../src/engine/snapshot.js';
import { byId, n, type Fixture } from '../fixtures/engine/build.js';
import { calcWindow, saveDialog, thunarWindow } from '../fixtures/engine/wrappers.js';

/** The save dialog's bus (test/fixtures/engine/wrappers.ts). */
const G2 = ':1.91';

const folded = (fx: Fixture, whole?: ReadonlySet<string>): { s: Snapshot; refs: RefTable } => {
  const refs = new RefTable();
  return { s: buildSnapshot(fx, refs, { fold: true, ...(whole ? { whole } : {}) }), refs };
};

/** The ref the snapshot gave the raw node with this id suffix. */
const refOf = (s: Snapshot, refs: RefTable, id: number): string => {
  const hit = s.elements.find((e) => refs.lookup(e.ref)?.id.endsWith(`/${id}`));
  return hit?.ref ?? assert.fail(`no element for node ${id}`);
};

/** The printed line of a ref, with its indentation. */
const lineOf = (s: Snapshot, ref: string): string | undefined =>
  s.text.split('\n').find((l) => l.trimStart().startsWith(`[${ref}] `));

const depth = (line: string | undefined): number => ((line ?? '').length - (line ?? '').trimStart().length) / 2;

test('a chain of bare scroll panes around the menu bar prints as the menu bar, one level under the window', () => {
  const { s, refs } = folded(calcWindow());
  for (const id of [3, 4]) assert.equal(lineOf(s, refOf(s, refs, id)), undefined, s.text);
  const bar = lineOf(s, refOf(s, refs, 5));
  assert.match(bar ?? '', /^ {2}\[e\d+\] menubar$/, s.text);
  // The wrappers keep their refs: an act or a scope still reaches them.
  for (const id of [3, 4]) assert.ok(s.elements.some((e) => e.ref === refOf(s, refs, id)));
});

test("a group and two scroll panes around the formula bar's input line print as the input line", () => {
  const { s, refs } = folded(calcWindow());
  const toolbar = lineOf(s, refOf(s, refs, 445));
  const input = lineOf(s, refOf(s, refs, 455));
  assert.match(input ?? '', /\[e\d+\] group "Input line"$/, s.text);
  assert.equal(depth(input), depth(toolbar) + 2, s.text);
  // The group held the line and a button: it keeps its line, as a group of two.
  assert.ok(lineOf(s, refOf(s, refs, 452)), s.text);
  assert.equal(lineOf(s, refOf(s, refs, 453)), undefined, s.text);
  assert.equal(lineOf(s, refOf(s, refs, 454)), undefined, s.text);
});

test('a second copy of the menu bar prints nothing; its refs stay in the elements', () => {
  const { s, refs } = folded(calcWindow());
  assert.doesNotMatch(s.text, /same as/, s.text);
  assert.equal(s.text.match(/\] menubar/g)?.length, 1, s.text);
  assert.ok(s.elements.some((e) => e.ref === refOf(s, refs, 18)));
});

test('a leaf with nothing in it and nothing to do with it goes; a status label stays', () => {
  const { s, refs } = folded(calcWindow());
  assert.equal(lineOf(s, refOf(s, refs, 534)), undefined, s.text);
  assert.match(s.text, /label value="Sheet 1 of 1"/);
});

test("the Places pane's scroll panes print as the list, named by the pane", () => {
  const { s, refs } = folded(saveDialog());
  const list = lineOf(s, refOf(s, refs, 25));
  assert.match(list ?? '', /\[e\d+\] list "Places"$/, s.text);
  assert.doesNotMatch(s.text, /scrollarea/, s.text);
  assert.match(s.text, /listitem "Home" selected/);
});

test('containers named after their widget class (revealer, stack, layer) print no line and no name', () => {
  const { s, refs } = folded(saveDialog());
  assert.doesNotMatch(s.text, /Revealer|Browse Header Stack|PathBar Layer/, s.text);
  const pane = lineOf(s, refOf(s, refs, 22));
  const layer = lineOf(s, refOf(s, refs, 37));
  // The layer holds four buttons: it stays as their group, without the class name.
  assert.match(layer ?? '', /^\s*\[e\d+\] generic$/, s.text);
  assert.equal(depth(layer), depth(pane) + 1, s.text);
  assert.match(s.text, /button "root" checked/);
  assert.match(s.text, /button "Down Path" disabled/);
});

test('the file table prints where its scroll pane was; full=true prints every wrapper', () => {
  const { s, refs } = folded(saveDialog());
  const pane = lineOf(s, refOf(s, refs, 22));
  assert.equal(depth(lineOf(s, refOf(s, refs, 43))), depth(pane) + 1, s.text);
  const whole = buildSnapshot(saveDialog(), new RefTable());
  assert.match(whole.text, /scrollarea "Places"/);
  assert.match(whole.text, /group "Browse Header Revealer"/);
});

test('a scroll pane its content cannot scroll through (more than two levels up) keeps its line', () => {
  const fx = saveDialog();
  // Two nameless fillers between the pane and its list: a scroll on the list finds no bar of this pane.
  const outer = byId(fx.root, 24);
  const list = outer.children?.[0] as RawNode;
  outer.children = [n(G2, 901, 'pane', {}, [n(G2, 902, 'pane', {}, [list])])];
  const { s, refs } = folded(fx);
  assert.ok(lineOf(s, refOf(s, refs, 24)), s.text);
});

test('a named pane over a named content keeps its line: the region keeps its name', () => {
  const fx = saveDialog();
  byId(fx.root, 25).name = 'Sidebar';
  const { s, refs } = folded(fx);
  assert.match(lineOf(s, refOf(s, refs, 23)) ?? '', /scrollarea "Places"$/, s.text);
  assert.match(lineOf(s, refOf(s, refs, 25)) ?? '', /list "Sidebar"$/, s.text);
});

test('a wrapper the model just acted on prints whole', () => {
  const first = folded(calcWindow());
  const ref = refOf(first.s, first.refs, 3);
  const { s } = folded(calcWindow(), new Set([ref]));
  assert.ok(lineOf(s, ref), s.text);
});

test("Thunar's side pane, a one-column table of four rows, prints as one line that names its cells", () => {
  const { s, refs } = folded(thunarWindow());
  const table = refOf(s, refs, 12);
  assert.equal(
    lineOf(s, table)?.trim(),
    `[${table}] table A1–A4: "Places", "root", "Devices", "File System" · act on a cell: ref=${table}:A1`,
    s.text,
  );
  assert.doesNotMatch(s.text, /\| A/);
  // Each cell is still an element line of the snapshot: diffs and receipts name it.
  assert.ok(s.lines.some((l) => l.role === 'cell' && l.name === 'A3' && l.ref === refOf(s, refs, 15)));
});

test("a group of one child whose one op is the toolkit's click on every widget prints as that child", () => {
  const fx = saveDialog();
  // Qt's file dialog: a nameless group that takes a click (its Action interface) around the file tree.
  const pane = byId(fx.root, 22);
  pane.children = [n(G2, 903, 'group', { actions: ['click'] }, pane.children ?? [])];
  byId(fx.root, 903).children = [byId(fx.root, 23)];
  const { s, refs } = folded(fx);
  assert.equal(lineOf(s, refOf(s, refs, 903)), undefined, s.text);
  assert.match(lineOf(s, refOf(s, refs, 25)) ?? '', /list "Places"$/, s.text);
});
