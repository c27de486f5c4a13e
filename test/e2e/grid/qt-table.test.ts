/**
 * A Qt item view taller than its window (test/apps/qt-table.py: 500 rows, a hidden first column, cells edited in an
 * editor opened by a double click, F2 or typing), as DB Browser for SQLite's Browse Data grid is. Qt reports the
 * table's 3,006 children but no place for the hidden column's cells, so the slice on screen was never found: the
 * first 200 cells were read whatever was on screen, find searched only another list, and a cell's set_value failed
 * ("did not take the cursor": Qt's tables have no Selection and their cells refuse GrabFocus).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

const APP = realpathSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'apps', 'qt-table.py'));
/** Debian's interpreter: the one with python3-pyqt6. */
const PYTHON = realpathSync('/usr/bin/python3');
let computer: Computer;
let child: ChildProcess | undefined;
const out: string[] = [];

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `${basename(PYTHON)} ${APP}`] });
  // Qt finds the accessibility bus through the X root's AT_SPI_BUS property, as computer_launch starts it.
  child = spawn(PYTHON, [APP], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: {
      ...process.env,
      QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
      QT_ACCESSIBILITY: '1',
      AT_SPI_BUS_ADDRESS: undefined,
    },
  });
  child.stdout?.on('data', (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean)));
  await printed('ready');
});
after(async () => {
  await computer?.close();
  if (child?.pid) await killApp(child.pid);
});

async function printed(line: string): Promise<void> {
  for (let i = 0; i < 200 && !out.includes(line); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(out.includes(line), `the app printed ${JSON.stringify(out.slice(-6))}, not ${JSON.stringify(line)}`);
}

/** A full observe of the app, asked again while it is not on the accessibility bus yet. */
async function observe(): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const r = await computer.tools.observe({ app: 'qt-table.py', full: true });
    if (!r.isError && /\] table/.test(r.text)) return r.text;
    await new Promise((res) => setTimeout(res, 250));
  }
  throw new Error('qt-table.py shows no table');
}

/** The ref of the cell on the row whose line shows `name`, `k` cells after it (a row's cells follow its row header). */
function cellAfter(snap: string, name: string, k: number): string {
  const lines = snap.split('\n');
  const at = lines.findIndex((l) => l.includes(`cell "${name}"`));
  assert.ok(at >= 0, `no cell "${name}" in:\n${snap}`);
  return /\[(e\d+)\]/.exec(lines[at + k] ?? '')?.[1] ?? assert.fail(`no cell ${k} after "${name}"`);
}

test('set_value on a Qt table cell opens its ' +
    'editor, types, commits and reads it back', { timeout: 60_000 }, async () => {
  const price = cellAfter(await observe(), 'Widget 3', 1);
  out.length = 0;
  const r = ok(await computer.tools.act({ actions: [{ ref: price, op: 'set_value', value: '19.99' }] }));
  await printed('edited 3 4 19.99');
  assert.match(r, /read back: the cell shows "19\.99"/, r);
  // The cell's text is its name: the receipt confirms the value by it.
  assert.match(r, /^ok set_value e\d+ · confirmed \(/m, r);
  assert.doesNotMatch(r, /not the entry/, r);
});

test('find searches every row of a Qt table, those off screen included', { timeout: 60_000 }, async () => {
  await observe();
  const r = ok(await computer.tools.find({ text: 'Widget 427' }));
  assert.match(r, /^1 match for "Widget 427"/, r);
  assert.match(r, /cell "Widget 427" — row 427 of 500 in table \[e\d+\], off-screen/, r);
});

test('a scrolled Qt table reads the rows on screen and still names its columns', { timeout: 60_000 }, async () => {
  const snap = await observe();
  const table = refOn(snap, /\] table/);
  // Qt's table offers no scroll bar nor ScrollTo: pages are keys, which need its window in front (a click on a cell).
  ok(await computer.tools.act({ actions: [{ ref: cellAfter(snap, 'Widget 2', 0), op: 'click' }] }));
  ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'down 3 pages' }] }));
  const after = await observe();
  // The rows on screen, not the first 200 cells whatever was shown.
  assert.doesNotMatch(after, /cell "Widget 1"\n/, after);
  assert.match(after, /rows \d+–\d+ of 500 on screen/, after);
  // Which value is the price? The column headers are read though the header row is scrolled away.
  assert.match(after, /columnheader "Price"/, after);
});
