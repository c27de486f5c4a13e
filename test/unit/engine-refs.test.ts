import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { distill, type DistilledNode } from '../../src/engine/distill.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import { byId, n, removeById, type Fixture } from '../fixtures/engine/build.js';
import { gedit } from '../fixtures/engine/gedit.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';

/** native id suffix → ref, for the whole distilled window. */
function refsOf(table: RefTable, f: Fixture): Map<string, string> {
  const d = distill(f.root).root;
  table.assign(d, f.window);
  const out = new Map<string, string>();
  const visit = (x: DistilledNode): void => {
    out.set(x.id.split('/').pop() ?? '', x.ref ?? '');
    x.children.forEach(visit);
  };
  visit(d);
  return out;
}

test('refs survive a value change and a sibling inserted before', () => {
  const t = new RefTable();
  const first = refsOf(t, gedit());
  const f = gedit();
  byId(f.root, 24).value = 'changed';
  byId(f.root, 29).name = 'Ln 1, Col 8';
  f.root.name = '*Untitled Document 1 - gedit';
  const header = byId(f.root, 3);
  header.children?.unshift(n(':1.42', 99, 'button', { name: 'Back', actions: ['click'] }));
  const second = refsOf(t, f);
  for (const [id, ref] of first) assert.equal(second.get(id), ref, `node ${id}`);
  assert.equal(second.get('99'), 'e16');
  assert.equal(byId(f.root, 24).id, t.lookup(first.get('24') ?? '')?.id);
  assert.equal(t.lookup(first.get('29') ?? '')?.fingerprint.name, 'Ln 1, Col 8');
});

test('a role change gets a new ref; a removed element\'s ref is never reused', () => {
  const t = new RefTable();
  const first = refsOf(t, gedit());
  const f = gedit();
  byId(f.root, 13).role = 'checkbox';
  removeById(f.root, 15); // "Close"
  const second = refsOf(t, f);
  assert.notEqual(second.get('13'), first.get('13'));
  assert.equal(second.get('13'), 'e16');
  assert.equal(second.get('15'), undefined);
  // The same native id coming back soon (a background tab shown again) is the same element: same ref.
  const third = refsOf(t, gedit());
  assert.equal(third.get('15'), first.get('15'));
  assert.equal(t.isCurrent(first.get('15') ?? ''), true);
  // Gone for more snapshots than the table remembers: forgotten, so it comes back with a new ref.
  for (let i = 0; i < 6; i++) refsOf(t, f);
  const later = refsOf(t, gedit());
  assert.notEqual(later.get('15'), first.get('15'));
  assert.equal(t.lookup(first.get('15') ?? ''), undefined);
  const all = [...first.values(), ...second.values(), ...third.values(), ...later.values()];
  assert.equal(new Set(all).size, 19); // 17 elements + the role-changed one + the forgotten one back
});

test('refs of two windows never collide; prune drops vanished windows', () => {
  const t = new RefTable();
  const a = refsOf(t, gedit());
  const b = refsOf(t, widgetFactory());
  const overlap = [...a.values()].filter((r) => [...b.values()].includes(r));
  assert.deepEqual(overlap, []);
  const gWin = gedit().window.id;
  assert.equal(t.prune([gWin]), b.size);
  assert.equal(t.lookup(b.get('22') ?? ''), undefined);
  assert.ok(t.lookup(a.get('24') ?? ''));
  const again = refsOf(t, widgetFactory());
  assert.ok([...again.values()].every((r) => Number(r.slice(1)) > a.size + b.size));
});

test('a restarted process (other pid) gets new refs for the same native ids', () => {
  const t = new RefTable();
  const a = refsOf(t, gedit());
  const f = gedit();
  f.window.pid = 4343;
  const b = refsOf(t, f);
  assert.notEqual(a.get('24'), b.get('24'));
});

test('toJSON / fromJSON keeps refs and the counter across processes', () => {
  const t = new RefTable();
  const a = refsOf(t, gedit());
  const json = JSON.parse(JSON.stringify(t.toJSON())) as ReturnType<RefTable['toJSON']>;
  const t2 = RefTable.fromJSON(json);
  const f = gedit();
  byId(f.root, 3).children?.push(n(':1.42', 98, 'button', { name: 'Extra', actions: ['click'] }));
  const b = refsOf(t2, f);
  for (const [id, ref] of a) assert.equal(b.get(id), ref);
  assert.equal(b.get('98'), 'e16');
  assert.equal(t2.lookup(a.get('24') ?? '')?.id, t.lookup(a.get('24') ?? '')?.id);
  assert.equal(t2.size, t.size + 1);
});

test('relocate: live id, unique by fingerprint, ambiguous, missing', () => {
  const t = new RefTable();
  const f = widgetFactory();
  const s = buildSnapshot(f, t, { maxTokens: 100_000 });
  const ref = (name: string, nth = 0): string => s.elements.filter((l) => l.name === name)[nth]?.ref ?? '';
  const bold = ref('Bold');
  assert.deepEqual(t.relocate(bold, widgetFactory().root), { id: byId(f.root, 13).id });

  // Native ids all changed (e.g. the app rebuilt the widgets): unique role+name relocates.
  const rebuilt = widgetFactory();
  const rename = (x: typeof rebuilt.root): void => {
    x.id = `${x.id}-new`;
    x.children?.forEach(rename);
  };
  rename(rebuilt.root);
  assert.deepEqual(t.relocate(bold, rebuilt.root), { id: `${byId(f.root, 13).id}-new` });
  // Three "checkbutton"s with the same path: the index tells them apart.
  assert.deepEqual(t.relocate(ref('checkbutton', 1), rebuilt.root), { id: `${byId(f.root, 11).id}-new` });
  const dup = widgetFactory();
  byId(dup.root, 7).children?.push(n(':1.77', 9998, 'checkbox', { name: 'Bold', actions: ['toggle'] }),
    n(':1.77', 9997, 'checkbox', { name: 'Bold', actions: ['toggle'] }));
  rename(dup.root);
  const boldAgain = t.relocate(bold, dup.root);
  assert.deepEqual(boldAgain, { id: `${byId(f.root, 13).id}-new` }); // index 3 still singles out the original
  const dup2 = widgetFactory();
  byId(dup2.root, 7).children = [
    n(':1.77', 9996, 'checkbox', { name: 'Bold', actions: ['toggle'] }),
    n(':1.77', 9995, 'checkbox', { name: 'Bold', actions: ['toggle'] }),
  ];
  rename(dup2.root);
  assert.deepEqual(t.relocate(bold, dup2.root), { ambiguous: 2 });
  // Same role and name under another named parent (another tab's close button): never taken for it.
  const moved = widgetFactory();
  byId(moved.root, 7).children = (byId(moved.root, 7).children ?? []).filter((c) => c.name !== 'Bold');
  moved.root.children?.push(n(':1.77', 9994, 'group', { name: 'Other toolbar' }, [
    n(':1.77', 9993, 'checkbox', { name: 'Bold', actions: ['toggle'] })]));
  rename(moved.root);
  assert.deepEqual(t.relocate(bold, moved.root), { missing: true });
  // Renamed: the fingerprint no longer matches anything.
  const renamed = widgetFactory();
  byId(renamed.root, 13).name = 'Italic';
  assert.deepEqual(t.relocate(bold, renamed.root), { missing: true });
  assert.deepEqual(t.relocate('e9999', f.root), { missing: true });
  // Another process behind the same window id is never the same element.
  assert.deepEqual(t.relocate(bold, f.root, { ...f.window, pid: 1 }), { missing: true });
});

test('relocate compares redacted names, as the fingerprint stores them', () => {
  const t = new RefTable();
  const f = widgetFactory();
  byId(f.root, 13).name = 'Token sk-abcdefghijklmnopqrstuvwx';
  const s = buildSnapshot(f, t);
  const line = s.elements.find((l) => l.name?.startsWith('Token'));
  assert.equal(line?.name, 'Token ••••(secret)');
  const fresh = widgetFactory();
  byId(fresh.root, 13).name = 'Token sk-abcdefghijklmnopqrstuvwx';
  const moved = byId(fresh.root, 13);
  moved.id += '-moved';
  assert.deepEqual(t.relocate(line?.ref ?? '', fresh.root), { id: moved.id });
});

/** A list of rows, each a nameless list item holding a name label and an "Archive" button (GTK list box). */
function rows(names: string[], idBase = 10): Fixture {
  const row = (i: number, who: string) => n(':1.9', idBase + i * 10, 'listitem', { nativeRole: 'list item' }, [
    n(':1.9', idBase + i * 10 + 1, 'generic', { nativeRole: 'filler' }, [
      n(':1.9', idBase + i * 10 + 2, 'label', { nativeRole: 'label', name: who }),
      n(':1.9', idBase + i * 10 + 3, 'button', { nativeRole: 'push button', name: 'Archive', actions: ['click'] }),
    ]),
  ]);
  const root = n(':1.9', 1, 'window', { nativeRole: 'frame', name: 'Rows' }, [
    n(':1.9', 2, 'list', { nativeRole: 'list box' }, names.map((who, i) => row(i, who))),
  ]);
  return { window: { id: root.id, title: 'Rows', app: 'rows', pid: 6161, role: 'window', focused: true }, root };
}

/** The Archive button's ref in the row of `who`. */
function archiveOf(t: RefTable, f: Fixture, who: string): string {
  const s = buildSnapshot(f, t, { maxTokens: 100_000 });
  const label = s.elements.findIndex((l) => l.name === who);
  const line = s.elements.slice(label).find((l) => l.name === 'Archive');
  assert.ok(line, `no Archive after ${who}`);
  return line.ref;
}

test('relocate: a removed row\'s button is never relocated to the other row\'s look-alike', () => {
  const t = new RefTable();
  const f = rows(['alice', 'bob']);
  const bob = archiveOf(t, f, 'bob');
  const alice = archiveOf(t, f, 'alice');
  const gone = rows(['alice']);
  // One candidate left with the same role, name, path and index: still not bob's button.
  assert.deepEqual(t.relocate(bob, gone.root, gone.window), { missing: true });
  assert.deepEqual(t.relocate(alice, gone.root, gone.window), { id: byId(gone.root, 13).id });
  // bob's row re-created under new handles: found again by its row context.
  const rebuilt = rows(['alice', 'bob'], 110);
  assert.deepEqual(t.relocate(bob, rebuilt.root, rebuilt.window), { id: byId(rebuilt.root, 123).id });
  assert.deepEqual(t.relocate(alice, rebuilt.root, rebuilt.window), { id: byId(rebuilt.root, 113).id });
  // Two rows that both say "bob" now: ambiguous, never a guess.
  const twice = rows(['bob', 'bob'], 210);
  assert.deepEqual(t.relocate(bob, twice.root, twice.window), { ambiguous: 2 });
  // bob's row renamed (and rebuilt): its context changed, so it is not provably the same button.
  const renamed = rows(['alice', 'robert'], 310);
  assert.deepEqual(t.relocate(bob, renamed.root, renamed.window), { missing: true });
});

test('relocate: a list that re-creates all its rows with the same content keeps every ref', () => {
  const t = new RefTable();
  const names = ['ann', 'ben', 'cid', 'dee', 'eve'];
  const f = rows(names);
  const before = names.map((who) => archiveOf(t, f, who));
  const again = rows(names, 1000);
  names.forEach((who, i) => {
    assert.deepEqual(
      t.relocate(before[i]!, again.root, again.window),
      { id: byId(again.root, 1000 + i * 10 + 3).id },
      who,
    );
  });
});

test('assign: a live handle that now sits in another row gets a new ref (the diff never shows it unchanged)', () => {
  const t = new RefTable();
  const f = rows(['alice', 'bob']);
  const bob = archiveOf(t, f, 'bob');
  const alice = archiveOf(t, f, 'alice');
  // A recycling list: bob's row widgets now show carol; alice's row is untouched.
  const recycled = rows(['alice', 'bob']);
  byId(recycled.root, 22).name = 'carol';
  const carol = archiveOf(t, recycled, 'carol');
  assert.notEqual(carol, bob);
  assert.equal(t.lookup(bob)?.retired, true, 'bob\'s ref may no longer use the recycled handle');
  assert.equal(archiveOf(t, recycled, 'alice'), alice);
  assert.deepEqual(t.relocate(bob, recycled.root, recycled.window), { missing: true });
});

test('assign: a unique element keeps its ref when a label next to it changes', () => {
  const t = new RefTable();
  const first = refsOf(t, gedit());
  const f = gedit();
  byId(f.root, 29).name = 'Ln 9, Col 1';
  const second = refsOf(t, f);
  assert.equal(second.get('30'), first.get('30'));
  assert.equal(second.get('31'), first.get('31'));
});

test('assign: look-alikes in one row (two "Menu" buttons of a ' +
    'header bar) keep their refs when a label beside them changes', () => {
  // gedit's header bar: a title label and two buttons named "Menu" side by side. Typing puts a "*" before the
  // title; the buttons are the same elements and must not show as removed and added in the diff.
  const bar = (title: string): Fixture => {
    const root = n(':1.7', 1, 'window', { nativeRole: 'frame', name: `${title} - gedit` }, [
      n(':1.7', 2, 'pane', { nativeRole: 'panel' }, [
        n(':1.7', 3, 'button', { nativeRole: 'push button', name: 'Menu', actions: ['click'] }),
        n(':1.7', 4, 'label', { nativeRole: 'label', name: title }),
        n(':1.7', 5, 'button', { nativeRole: 'push button', name: 'Menu', actions: ['click'] }),
      ]),
    ]);
    return { window: { id: root.id, title, app: 'gedit', pid: 7171, role: 'window', focused: true }, root };
  };
  const t = new RefTable();
  const first = refsOf(t, bar('Untitled Document 1'));
  const second = refsOf(t, bar('*Untitled Document 1'));
  assert.equal(second.get('3'), first.get('3'));
  assert.equal(second.get('5'), first.get('5'));
});

test('elements re-created under new handles with the same ' +
    'fingerprint keep their refs; alike ones pair by index', () => {
  const t = new RefTable();
  const f = widgetFactory();
  const first = buildSnapshot({ window: f.window, root: f.root }, t, { maxTokens: 100_000 });
  // The app rebuilt the list: every row and label is a new object with the same content (Swing tables do this
  // on every change), and one row really changed.
  const g = widgetFactory();
  const list = byId(g.root, 100);
  for (const row of list.children ?? []) {
    row.id += '-new';
    for (const c of row.children ?? []) c.id += '-new';
  }
  const was = list.children![3]!.name!;
  list.children![3]!.name = 'Row 3 renamed';
  list.children![3]!.children![0]!.name = 'Row 3 renamed';
  const second = buildSnapshot({ window: g.window, root: g.root }, t, { maxTokens: 100_000 });
  const lines = diffSnapshots(first, second).lines;
  assert.deepEqual(
    lines.filter((l) => !l.includes('"Row 3 renamed"') && !l.includes(`"${was}"`)),
    [],
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => /^\+ .*"Row 3 renamed"/.test(l)) &&
      lines.some((l) => l.startsWith('- ') && l.includes(`"${was}"`)),
    lines.join('\n'),
  );
  const ref = (s: typeof first, name: string): string | undefined =>
    s.elements.find((l) => l.name === name && l.role === 'listitem')?.ref;
  assert.equal(ref(second, 'Row 5'), ref(first, 'Row 5'));
  assert.equal(t.lookup(ref(second, 'Row 5')!)?.id.endsWith('-new'), true, 'the ref points at the new handle');
  // Two identical re-created check boxes ("checkbutton", same place) pair by index, never by guess.
  const h = widgetFactory();
  for (const id of [10, 11, 12]) byId(h.root, id).id += '-x';
  const third = buildSnapshot({ window: h.window, root: h.root }, t, { maxTokens: 100_000 });
  const boxes = (s: typeof first): string[] => s.elements.filter((l) => l.name === 'checkbutton').map((l) => l.ref);
  assert.deepEqual(boxes(third), boxes(first));
});

test('a new element that only looks like one still present gets a new ref', () => {
  const t = new RefTable();
  const f = widgetFactory();
  const first = buildSnapshot({ window: f.window, root: f.root }, t, { maxTokens: 100_000 });
  const g = widgetFactory();
  // A second "Row 5" added while the first stays: nothing vanished, so nothing is inherited.
  const list = byId(g.root, 100);
  list.children!.push(
    n(':1.42', 999, 'listitem', { name: 'Row 5', actions: ['select'] }, [n(':1.42', 998, 'label', { name: 'Row 5' })]),
  );
  const second = buildSnapshot({ window: g.window, root: g.root }, t, { maxTokens: 100_000 });
  const refs = second.elements.filter((l) => l.name === 'Row 5' && l.role === 'listitem').map((l) => l.ref);
  assert.equal(refs.length, 2);
  assert.equal(refs[0], first.elements.find((l) => l.name === 'Row 5' && l.role === 'listitem')?.ref);
  assert.notEqual(refs[1], refs[0]);
});

test('recorded GTK3 list rebuilt with identical rows (act-lab ' +
    'Rebuild): refs kept, the diff is the one real change', () => {
  // test/fixtures/act/act-lab-rebuild.json: the act-lab window read by the Linux driver before and after its
  // Rebuild button replaced the 30 rows of "Items" with new, identical ones (the tree view's rows trimmed).
  const f = JSON.parse(
    readFileSync(new URL('../../../test/fixtures/act/act-lab-rebuild.json', import.meta.url), 'utf8'),
  ) as { window: WindowInfo; before: RawNode; after: RawNode };
  const t = new RefTable();
  const first = buildSnapshot({ window: f.window, root: f.before }, t, { maxTokens: 100_000 });
  const second = buildSnapshot({ window: f.window, root: f.after }, t, { maxTokens: 100_000 });
  const lines = diffSnapshots(first, second).lines;
  assert.deepEqual(lines.filter((l) => !/"Rebuilt \d times"/.test(l) && !/^focus:/.test(l)), [], lines.join('\n'));
  assert.ok(lines.some((l) => /~ \[e\d+\] label name "Rebuilt 0 times" → "Rebuilt 1 times"/.test(l)), lines.join('\n'));
  const item = (s: typeof first): string | undefined => s.elements.find((l) => l.name === 'item 7')?.ref;
  assert.ok(item(first));
  assert.equal(item(second), item(first));
});
