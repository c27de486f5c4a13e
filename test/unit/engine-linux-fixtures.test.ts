/**
 * The snapshot engine on trees recorded from real Linux apps (test/fixtures/record.ts). The aggregate
 * budget / unique-ref / password check over every recorded file lives in engine-snapshot.test.ts; here each
 * fixture gets its own checks: what a reader must see in it, ref stability under edits, and golden text.
 * Regenerate the golden files with `UPDATE_GOLDEN=1 node --test dist/test/unit/engine-linux-fixtures.test.js`.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot, type Snapshot, type SnapshotInput } from '../../src/engine/snapshot.js';

const DIR = new URL('../../../test/fixtures/linux/', import.meta.url);
const FIXTURES = ['gedit', 'gtk3-widget-factory', 'mousepad', 'gtk4-widget-factory', 'chromium-form'] as const;
const GOLDEN: readonly string[] = ['gedit', 'gtk3-widget-factory'];

function load(name: string): SnapshotInput {
  return JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8')) as SnapshotInput;
}

function nodes(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const visit = (n: RawNode): void => { out.push(n); n.children?.forEach(visit); };
  visit(root);
  return out;
}

/** The rendered line of the first element with this role (and name, when given). */
function line(s: Snapshot, role: string, name?: string): string {
  const hit = s.lines.find((l) => l.role === role && (name === undefined || l.name === name));
  assert.ok(hit, `no ${role}${name === undefined ? '' : ` "${name}"`} in:\n${s.text}`);
  return hit.text;
}

/** Checks every line: the header, element lines with unique refs, and footer/cut notes. */
function checkLines(name: string, s: Snapshot): void {
  const [header, ...rest] = s.text.split('\n');
  assert.match(header ?? '', /^app .* pid=4242 · window ".*"/, `${name}: header`);
  const refs: string[] = [];
  for (const l of rest) {
    const ref = /^\s*\[(e\d+)\] \S/.exec(l)?.[1];
    if (ref !== undefined) refs.push(ref);
    else assert.match(l, /^\s*(…|\()/, `${name}: a line without a ref that is no note: ${JSON.stringify(l)}`);
  }
  assert.equal(new Set(refs).size, refs.length, `${name}: duplicate refs`);
  assert.deepEqual(refs, s.lines.map((l) => l.ref), `${name}: rendered refs = snapshot lines`);
}

for (const name of FIXTURES) {
  test(`${name}: renders within the default 2000-token budget, one unique ref per element line`, () => {
    assert.ok(
      existsSync(new URL(`${name}.json`, DIR)),
      `missing fixture ${name}.json: run node dist/test/fixtures/record.js`,
    );
    const input = load(name);
    assert.equal(input.window.pid, 4242, 'the fixture is normalized');
    assert.equal(input.window.startToken, undefined);
    assert.ok(nodes(input.root).every((n) => n.id.startsWith(':app')), 'bus names are normalized');
    const s = buildSnapshot(input, new RefTable());
    assert.ok(s.tokens <= 2000, `${s.tokens} tokens`);
    assert.ok(s.lines.length >= 1);
    checkLines(name, s);
    assert.equal(s.stats.rawNodes, nodes(input.root).length);
  });

  test(`${name}: refs survive a re-snapshot after a value change and an inserted sibling`, () => {
    const input = load(name);
    const refs = new RefTable();
    const before = buildSnapshot(input, refs);
    const idOf = (ref: string): string => refs.lookup(ref)?.id ?? assert.fail(`unknown ref ${ref}`);
    const refsById = new Map(before.elements.map((e) => [idOf(e.ref), e.ref]));

    const copy = structuredClone(input);
    const all = nodes(copy.root);
    // Change the value of the first editable, non-password element (if the app has one).
    const editable = all.find((n) => n.states.includes('editable') && !n.states.includes('password'));
    if (editable) editable.value = 'changed by the fixture test';
    // Insert a new named button in front of the first shown button, shifting its siblings' indexes.
    const parent = all.find((n) => (n.children ?? []).some((c) => c.role === 'button' && c.name)) ?? copy.root;
    const at = Math.max(0, (parent.children ?? []).findIndex((c) => c.role === 'button' && c.name));
    const inserted: RawNode = { id: ':app/org/a11y/atspi/accessible/inserted-by-test', role: 'button', name: 'Inserted',
      states: ['focusable'], actions: ['click'] };
    (parent.children ??= []).splice(at, 0, inserted);

    const after = buildSnapshot(copy, refs);
    checkLines(name, after);
    const afterById = new Map(after.elements.map((e) => [idOf(e.ref), e.ref]));
    for (const [id, ref] of refsById) assert.equal(afterById.get(id), ref, `${name}: ${id} changed its ref`);
    const newRef = afterById.get(inserted.id);
    assert.ok(newRef, 'the inserted button has a ref');
    assert.ok(![...refsById.values()].includes(newRef), 'the inserted button got a new ref, not a reused one');
    assert.equal(after.elements.length, before.elements.length + 1);
    if (editable) {
      const ref = refsById.get(editable.id);
      assert.ok(ref, 'the edited element was shown');
      assert.equal(after.elements.find((e) => e.ref === ref)?.value, 'changed by the fixture test');
    }
    // Every old ref relocates to its element in the edited tree by native id.
    for (const [id, ref] of refsById) assert.deepEqual(refs.relocate(ref, copy.root, copy.window), { id });
  });
}

for (const name of GOLDEN) {
  test(`${name}: golden text (${name}.snapshot.txt)`, () => {
    const text = buildSnapshot(load(name), new RefTable()).text + '\n';
    const file = new URL(`${name}.snapshot.txt`, DIR);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, text);
    assert.ok(existsSync(file), `missing ${name}.snapshot.txt: run with UPDATE_GOLDEN=1`);
    assert.equal(text, readFileSync(file, 'utf8'), 'rendered text changed; if intended, run with UPDATE_GOLDEN=1');
  });
}

test('gedit: header bar buttons, the tab and the focused editable document', () => {
  const s = buildSnapshot(load('gedit'), new RefTable());
  assert.match(s.text.split('\n')[0] ?? '', /^app gedit pid=4242 · window "Untitled Document 1 - gedit" \[focused\]$/);
  for (const b of ['Save', 'Open', 'New'])
    assert.match(line(s, 'button', b), new RegExp(`^\\[e\\d+\\] button "${b}"$`));
  assert.match(line(s, 'tab'), /selected/);
  const doc = line(s, 'document');
  assert.match(doc, /editable focused/);
  assert.equal(s.focusRef, s.lines.find((l) => l.role === 'document')?.ref);
});

test('gtk3-widget-factory: check boxes, sliders, the table and tabs keep their state', () => {
  const s = buildSnapshot(load('gtk3-widget-factory'), new RefTable());
  const checks = s.lines.filter((l) => l.role === 'checkbox');
  assert.equal(checks.length, 6);
  assert.deepEqual(checks.filter((l) => l.states.includes('mixed')).length, 2);
  assert.deepEqual(checks.filter((l) => l.states.includes('checked')).length, 2);
  assert.deepEqual(checks.filter((l) => l.states.includes('disabled')).length, 3);
  assert.match(line(s, 'slider'), /value="50" range=1\.\.100$/);
  assert.deepEqual(
    s.lines.filter((l) => l.role === 'columnheader').map((l) => l.name),
    ['Cool', 'Icon', 'Name', 'Nick'],
  );
  assert.equal(s.lines.filter((l) => l.role === 'tab' && l.states.includes('selected')).length, 4);
  assert.match(line(s, 'radio', 'Page 1'), /checked/);
  assert.equal(s.focusRef, s.lines.find((l) => l.role === 'textbox' && l.value === 'comboboxentry')?.ref);
});

test('mousepad: the menu bar and the focused document', () => {
  const s = buildSnapshot(load('mousepad'), new RefTable());
  assert.deepEqual(
    s.lines.filter((l) => l.role === 'menu').map((l) => l.name),
    ['File', 'Edit', 'Search', 'View', 'Document', 'Help'],
  );
  assert.match(line(s, 'document'), /editable focused/);
});

test('chromium-form: the web form reads like a form, and the password never left the driver', () => {
  const raw = readFileSync(new URL('chromium-form.json', DIR), 'utf8');
  assert.ok(!raw.includes('hunter2'), 'the recorded tree holds the password text');
  const s = buildSnapshot(load('chromium-form'), new RefTable());
  assert.match(s.text.split('\n')[0] ?? '', /^app Chromium pid=4242 · window "Fixture form - Chromium"/);
  assert.match(line(s, 'document', 'Fixture form'), /focused/);
  assert.match(line(s, 'heading', 'Contact us'), /heading "Contact us"/);
  assert.equal(
    line(s, 'textbox', 'Full name').replace(/^\s*\[e\d+\] /, ''),
    'textbox "Full name" value="Ada Lovelace" editable',
  );
  assert.equal(
    line(s, 'textbox', 'Password').replace(/^\s*\[e\d+\] /, ''),
    'textbox "Password" value="••••" editable password',
  );
  assert.match(line(s, 'checkbox', 'Subscribe to the newsletter'), / checked$/);
  assert.match(line(s, 'radio', 'High'), / checked$/);
  assert.match(line(s, 'radio', 'Low'), / unchecked$/);
  assert.match(line(s, 'textbox', 'Message'), /value="Hello from the fixture page\."/);
  line(s, 'button', 'Send');
  line(s, 'link', 'Help');
  line(s, 'combobox', 'Topic');
});

test('gtk4-widget-factory: a 948-node window is cut to the budget with scope hints, state intact', () => {
  const s = buildSnapshot(load('gtk4-widget-factory'), new RefTable());
  assert.ok(s.stats.rawNodes > 900, `${s.stats.rawNodes} raw nodes`);
  assert.ok(s.lines.length > 100, `only ${s.lines.length} element lines`);
  assert.ok(s.stats.omitted > 0);
  assert.match(s.text.split('\n').at(-1) ?? '', /elements over budget, expand with scope=e\d+/);
  const password = s.elements.find((l) => l.role === 'textbox' && l.states.includes('password'));
  assert.ok(password, 'the password entry is listed');
  assert.doesNotMatch(s.text, /Gtk[A-Z][a-zA-Z]+"/, 'GTK class names are not shown as names');
  assert.equal(s.focusRef, s.lines.find((l) => l.role === 'textbox' && l.value === 'comboboxentry')?.ref);
  const checks = s.lines.filter((l) => l.role === 'checkbox' && l.name === 'checkbutton');
  assert.deepEqual(
    checks.map((l) => l.states.filter((x) => x !== 'disabled').join(' ')),
    ['checked', '', 'mixed', 'checked', '', 'mixed'],
  );
  assert.match(line(s, 'slider'), /value="50" range=0\.\.100$/);
});
