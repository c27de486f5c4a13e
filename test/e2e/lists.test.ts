/**
 * Long lists on real apps: Thunar showing a folder of 3,000 files, and a GTK3 window with a
 * TreeView and a ListBox of 5,000 rows (test/apps/long-lists.py). The snapshot says which rows are on screen,
 * find reaches rows beyond them, "scroll to N" brings one on screen and select selects it, read back.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../src/index.js';
import { E2E_APPS, killApp, lineOf, ok, openComputer, refOn } from './helpers.js';

const APP_SCRIPT = realpathSync(join(import.meta.dirname, '..', '..', '..', 'test', 'apps', 'long-lists.py'));
/** The interpreter's real path: the policy knows a script app by it and the script ("python3.11 …/long-lists.py"). */
const PYTHON = realpathSync('/usr/bin/python3');
let computer: Computer;
const children: ChildProcess[] = [];
const dirs: string[] = [];
/** Processes found by their window (Thunar hands a second start to its running instance). */
const pids: number[] = [];

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'thunar', `${basename(PYTHON)} ${APP_SCRIPT}`] });
});
after(async () => {
  await computer?.close();
  for (const c of children) if (c.pid) await killApp(c.pid);
  for (const pid of pids) await killApp(pid);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts a process detached and waits until `app` lists a window. */
async function start(
  command: string,
  args: string[],
  app: string,
  out?: string[],
  ownPid = false,
): Promise<ChildProcess> {
  const child = spawn(command, args, { detached: true, stdio: ['ignore', out ? 'pipe' : 'ignore', 'ignore'] });
  if (out) child.stdout?.on('data', (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean)));
  children.push(child);
  for (let i = 0; i < 60; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const m = new RegExp(`^${app} pid=(${ownPid ? String(child.pid) : '\\d+'})\\n  `, 'm').exec(
      ok(await computer.tools.apps({})),
    );
    if (m?.[1]) { pids.push(Number(m[1])); return child; }
  }
  throw new Error(`${app} never showed a window`);
}

/**
 * The "row N" of a find's off-screen line for `name`: the list's ref and the scroll that shows the row, and the row's
 * own ref (an act on it scrolls the list to it first).
 */
function offScreen(text: string, name: string): { row: number; ref: string; value: string; own?: string } {
  const line = text.split('\n').find((l) => l.includes(`"${name}"`) && l.includes('off-screen'));
  assert.ok(line, text);
  const m = /^(?:\[(e\d+)\] )?.*— (?:row|item) ([\d,]+) of [\d,]+ in .*\[(e\d+)\], off-screen/.exec(line);
  assert.ok(m?.[2] && m[3], line);
  const row = Number(m[2].replace(/,/g, ''));
  return { row, ref: m[3], value: `to ${row}`, ...(m[1] ? { own: m[1] } : {}) };
}

/** Waits until some line printed by the app matches. */
async function printed(out: string[], line: string): Promise<void> {
  for (let i = 0; i < 200 && !out.includes(line); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(out.includes(line), `the app printed ${JSON.stringify(out.slice(-5))}, not ${JSON.stringify(line)}`);
}

test('Thunar, a folder of 3,000 files: the view says which rows it shows, ' +
    'find reaches a file far off-screen, scroll to it and select it', { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-files-'));
  dirs.push(dir);
  for (let i = 1; i <= 3000; i++) writeFileSync(join(dir, `file-${i}.txt`), '');
  // Thunar's icon view exposes no items; its details view is a table of rows (the view Thunar opens with).
  spawnSync('xfconf-query', ['-c', 'thunar', '-p', '/last-view', '-n', '-t', 'string', '-s', 'ThunarDetailsView']);
  await start('thunar', [dir], 'thunar');
  // Thunar fills its view of 3,000 files over a few seconds, and while it loads it may put its cursor on a file
  // that arrived early and scroll to it (a CI run saw the view open at file-2659, selected, with no action of
  // ours): wait, bounded, for the view to hold all 3,000 rows and show the same rows twice, wherever it stands.
  let first = '';
  let shown: [number, number] | undefined;
  for (let i = 0, last = ''; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 500));
    first = ok(await computer.tools.observe({ app: 'thunar', full: true }));
    const m = /… rows ([\d,]+)–([\d,]+) of 3,000 on screen/.exec(first);
    if (m?.[1] && m[2] && m[0] === last) {
      shown = [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))];
      break;
    }
    last = m?.[0] ?? '';
  }
  assert.ok(shown, first);
  // The file to reach lies far from the rows Thunar shows.
  const target = shown[0] > 1500 ? 345 : 2345;
  const name = `file-${target}.txt`;
  assert.ok(!first.includes(`"${name}"`), first);

  const found = ok(await computer.tools.find({ app: 'thunar', text: name }));
  const hit = offScreen(found, name);
  assert.equal(hit.row, target, found);
  const scrolled = ok(await computer.tools.act({ actions: [{ ref: hit.ref, op: 'scroll', value: hit.value }] }));
  assert.match(scrolled, new RegExp(`row ${hit.row} on screen`), scrolled);
  const now = ok(await computer.tools.observe({ app: 'thunar', full: true }));
  assert.match(now, new RegExp(`… rows [\\d,]+–[\\d,]+ of 3,000 on screen`), now);
  assert.doesNotMatch(now, new RegExp(`… rows ${shown[0].toLocaleString('en-US')}–`), now);
  const cell = refOn(now, new RegExp(`cell "file-${target}\\.txt"`));
  const sel = ok(await computer.tools.act({ actions: [{ ref: cell, op: 'select' }] }));
  assert.doesNotMatch(sel, /activate/, sel);
  // Verified: the row reads as selected, and Thunar's status bar names the selected file.
  const after = ok(await computer.tools.observe({ app: 'thunar', full: true }));
  assert.match(
    after,
    new RegExp(`statusbar "[^\\n]*file-${target}\\.txt[^\\n]*selected|statusbar "\\\\"file-${target}\\.txt\\\\"`),
    after,
  );

  // A click on another row selects that row alone, as a mouse click does: Thunar's list takes several rows,
  // and adding the row to the selection would make a Delete pressed next take both files.
  const next = refOn(after, new RegExp(`cell "file-${target + 1}\\.txt"`));
  ok(await computer.tools.act({ actions: [{ ref: next, op: 'click' }] }));
  const one = ok(await computer.tools.observe({ app: 'thunar', full: true }));
  assert.match(one, new RegExp(`statusbar "\\\\"file-${target + 1}\\.txt\\\\"`), one);
  assert.doesNotMatch(one, /Selection: \d+ files/, one);
});

test('GTK3 TreeView and ListBox of 5,000 rows: row 4,321 found off-screen, scrolled ' +
    'to and selected (the app sees it); three scroll-downs show later rows', { timeout: 240_000 }, async () => {
  const out: string[] = [];
  await start(PYTHON, [APP_SCRIPT, '5000'], 'long-lists', out, true);
  await printed(out, 'ready');
  const first = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  assert.match(first, /… rows 1–\d+ of 5,000 on screen/, first);
  assert.match(first, /"entry-1"/, first);

  // TreeView: find, scroll to, select; GTK's own selection says so (not "activated").
  const inTree = offScreen(ok(await computer.tools.find({ app: 'long-lists', text: 'item-4321' })), 'item-4321');
  assert.equal(inTree.row, 4321);
  // The row's own ref: the select scrolls the list to it first, as an action with its own receipt.
  const row = inTree.own;
  assert.ok(row, 'the row has a ref of its own');
  const sel = ok(await computer.tools.act({ actions: [{ ref: row, op: 'select' }] }));
  assert.match(sel, new RegExp(`^ok scroll ${inTree.ref} · confirmed`, 'm'), sel);
  assert.match(sel, new RegExp(`^ok select ${row} · confirmed`, 'm'), sel);
  await printed(out, 'selected item-4321');
  assert.ok(!out.includes('activated item-4321'), 'select activated the row');
  let snap = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  assert.match(lineOf(snap, row) ?? '', /selected/, snap);

  // ListBox: the same through its rows (labels inside nameless rows).
  // A time-limited search says where to go on (a loaded machine reads about a thousand rows a second).
  let search = ok(await computer.tools.find({ app: 'long-lists', text: 'entry-4321' }));
  for (let i = 0; i < 4 && !search.includes('"entry-4321" —'); i++) {
    const from = /from=(\d+)/.exec(search)?.[1];
    assert.ok(from, search);
    search = ok(await computer.tools.find({ app: 'long-lists', text: 'entry-4321', from: Number(from) }));
  }
  const inList = offScreen(search, 'entry-4321');
  assert.equal(inList.row, 4321);
  ok(await computer.tools.act({ actions: [{ ref: inList.ref, op: 'scroll', value: inList.value }] }));
  snap = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  const label = refOn(snap, /label "entry-4321"/);
  const item = snap.split('\n').find((l) => l.includes(`[${label}]`))
    ? /\[(e\d+)\] listitem\n\s+\[e\d+\] label "entry-4321"/.exec(snap)?.[1]
    : undefined;
  assert.ok(item, snap);
  ok(await computer.tools.act({ actions: [{ ref: item, op: 'select' }] }));
  await printed(out, 'row-selected entry-4321');
  const pid = children[children.length - 1]?.pid;
  if (pid) await killApp(pid);
});

test('GTK3 ListBox of 5,000 rows: after three scroll-downs ' +
    'the snapshot shows the rows now on screen', { timeout: 240_000 }, async () => {
  const out: string[] = [];
  const child = await start(PYTHON, [APP_SCRIPT, '5000'], 'long-lists', out, true);
  await printed(out, 'ready');
  const pid = child.pid!;
  const app = { app: 'long-lists' };
  const first = ok(await computer.tools.observe({ ...app, full: true }));
  // The newest window of that pid: its ListBox's scroll area is the second scrollarea.
  assert.match(first, new RegExp(`pid=${pid}|long-lists`));
  const panes = [...first.matchAll(/\[(e\d+)\] scrollarea\n\s+\[e\d+\] (?:scrollarea|list "Entries")/g)].map(
    (m) => m[1]!,
  );
  const pane = panes[panes.length - 1];
  assert.ok(pane, first);
  for (let i = 0; i < 3; i++) ok(await computer.tools.act({ actions: [{ ref: pane, op: 'scroll', value: 'down' }] }));
  const now = ok(await computer.tools.observe({ ...app, full: true }));
  const m = /label "entry-(\d+)"/.exec(now.slice(now.indexOf('list "Entries"')));
  assert.ok(m?.[1], now);
  assert.ok(Number(m[1]) > 100, `the first row shown after three scroll-downs is entry-${m[1]}`);
  assert.match(now, /… rows [\d,]+–[\d,]+ of 5,000 on screen/, now);
  await killApp(pid);
});

test('GTK3 TreeView of 240 rows (480 cells): "scroll to 217" then ' +
    'A217 select in one call; cells are named by their real row', { timeout: 240_000 }, async () => {
  const out: string[] = [];
  await start(PYTHON, [APP_SCRIPT, '240'], 'long-lists', out, true);
  await printed(out, 'ready');
  const first = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  const tree = refOn(first, /table .*cells A1:/);
  // One call: the cell ref of the second action names a cell the first one brought into view.
  const res = ok(
    await computer.tools.act({
      actions: [
        { ref: tree, op: 'scroll', value: 'to 217' },
        { ref: `${tree}:A217`, op: 'select' },
      ],
    }),
  );
  assert.match(res, /row 217 on screen/, res);
  assert.doesNotMatch(res, /is not on screen/, res);
  await printed(out, 'selected item-217');
  // Rows on screen keep their real index: item-217 is A217, never A2 (its place among the rows on screen).
  assert.doesNotMatch(res, /cell "A\d{1,2}" value="item-2[0-3]\d"/, res);
  const snap = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  assert.match(snap, /cells A\d+:B\d+ of 240 × 2/, snap);
  assert.doesNotMatch(snap, /cells A1:B\d+ of 240/, `after the scroll the grid still starts at A1:\n${snap}`);
});

test('GTK3 ListBox of 200 rows, all in the tree: the print says how many of its items show, ' +
    'and that scroll or find reach the rest', { timeout: 120_000 }, async () => {
  const out: string[] = [];
  const child = await start(PYTHON, [APP_SCRIPT, '200'], 'long-lists', out, true);
  await printed(out, 'ready');
  // By its title: the app's windows of the tests before may still be open.
  const first = ok(await computer.tools.observe({ window: 'Long lists 200', full: true }));
  const m = /… (?:[\d,]+ more items \(scope=e\d+\); )?(\d+) of 200 items shown; scroll or find for the rest/.exec(
    first,
  );
  assert.ok(m?.[1], first);
  assert.ok(Number(m[1]) > 0 && Number(m[1]) < 200, m[0]);
  await killApp(child.pid!);
});
