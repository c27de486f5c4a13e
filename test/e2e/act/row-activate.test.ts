/**
 * A double click on a list row's cell activates that row, not the row that was selected before. GTK 3's cell
 * "activate" action activates the cell's row but leaves the selection where it was, and an app that opens its
 * selected row then opens another one (mousepad's Open dialog opened the file selected before, not the one
 * double-clicked); Qt's cells offer only Toggle, which selected the row and activated nothing. The test apps
 * print the row activated and the one they would open (the selected one).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

const APPS = join(import.meta.dirname, '..', '..', '..', '..', 'test', 'apps');
const GTK_APP = realpathSync(join(APPS, 'long-lists.py'));
const QT_APP = realpathSync(join(APPS, 'qt-rows.py'));
/** Debian's interpreter: the one with python3-gi and python3-pyqt6 (a python3 earlier on PATH may not have them). */
const PYTHON = realpathSync('/usr/bin/python3');
let computer: Computer;
const children: ChildProcess[] = [];

before(async () => {
  computer = await openComputer({
    allowApps: [...E2E_APPS, `${basename(PYTHON)} ${GTK_APP}`, `${basename(PYTHON)} ${QT_APP}`],
  });
});
after(async () => {
  await computer?.close();
  for (const c of children) if (c.pid) await killApp(c.pid);
});

/** Starts a test app (ending the one started before) and collects what it prints; resolves once it printed "ready". */
async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  // One app of a name at a time: an earlier test's copy would make its name ambiguous.
  for (const c of children.splice(0)) if (c.pid) await killApp(c.pid);
  const out: string[] = [];
  const child = spawn(PYTHON, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, ...env },
  });
  child.stdout?.on('data', (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean)));
  children.push(child);
  await printed(out, 'ready');
  return out;
}

/** Waits until the app printed `line`. */
async function printed(out: string[], line: string): Promise<void> {
  for (let i = 0; i < 200 && !out.includes(line); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(out.includes(line), `the app printed ${JSON.stringify(out.slice(-6))}, not ${JSON.stringify(line)}`);
}

/** The table's ref in a full observe of `app` (its cells are acted on as `eN:A5`). */
async function tableOf(app: string, name: RegExp): Promise<string> {
  for (let i = 0; i < 40; i++) {
    // An app just started may not be on the accessibility bus yet (app_not_found): asked again.
    const r = await computer.tools.observe({ app, full: true });
    if (!r.code && name.test(r.text)) return refOn(r.text, name);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${app} shows no table`);
}

test('GTK 3 TreeView: with item-1 selected, double_click ' +
    'on item-5\'s cell activates and opens item-5', { timeout: 60_000 }, async () => {
  const out = await start([GTK_APP, '30']);
  const table = await tableOf('long-lists', /table "Items"/);
  ok(await computer.tools.act({ actions: [{ ref: `${table}:A1`, op: 'click' }] }));
  out.length = 0;
  const receipt = ok(await computer.tools.act({ actions: [{ ref: `${table}:A5`, op: 'double_click' }] }));
  await printed(out, 'activated item-5');
  // An app that opens its selected row (GTK's file chooser) opens the row double-clicked.
  await printed(out, 'opened item-5');
  assert.ok(!out.includes('opened item-1'), `the row selected before was opened: ${JSON.stringify(out)}`);
  assert.match(receipt, /^ok double_click .*row selected \(read back\), then Action.DoAction/m, receipt);
  // Nothing in the window shows the activation (the app only prints it): the row's own selection confirms nothing.
  assert.match(receipt, /· unknown \(/, receipt);
});

test('Qt 6 tree: with item-1 current and selected, double_click ' +
    'on item-7\'s cell activates and opens item-7', { timeout: 60_000 }, async () => {
  // Qt finds the accessibility bus through the X root's AT_SPI_BUS property, as computer_launch starts it
  // (toolkits.ts).
  const out = await start([QT_APP], {
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    QT_ACCESSIBILITY: '1',
    AT_SPI_BUS_ADDRESS: undefined,
  });
  const table = await tableOf('qt-rows.py', /tree "Qt rows"|\] tree /);
  const receipt = ok(await computer.tools.act({ actions: [{ ref: `${table}:A7`, op: 'double_click' }] }));
  await printed(out, 'activated item-7');
  await printed(out, 'opened item-7');
  assert.match(receipt, /^ok double_click .*pointer double click/m, receipt);
});

/*
 * The current item and the selection are different things: Qt's and GTK's item views keep a current item (where
 * F2, Enter and the arrow keys act) apart from the selection. A click or focus on a row makes it the current item
 * as a person's click does, and keys say which item they went to (PCManFM-Qt's F2 renamed another file).
 */
test('Qt 6 tree: with item-1 current and item-3 selected, a ' +
    'click on item-5 makes it current, and F2 renames item-5', { timeout: 60_000 }, async () => {
  const out = await start([QT_APP, 'split'], {
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    QT_ACCESSIBILITY: '1',
    AT_SPI_BUS_ADDRESS: undefined,
  });
  const table = await tableOf('qt-rows.py', /tree "Qt rows"|\] tree /);
  const click = ok(await computer.tools.act({ actions: [{ ref: `${table}:A5`, op: 'click' }] }));
  assert.match(click, /^ok click .*it is the current item/m, click);
  await printed(out, 'current item-5');
  const f2 = ok(await computer.tools.keys({ keys: 'F2', app: 'qt-rows.py' }));
  assert.match(f2, /sent to the current item: cell "item-5"/, f2);
  ok(await computer.tools.keys({ keys: 'ctrl+a r e n a m e d Return', app: 'qt-rows.py' }));
  await printed(out, 'renamed item-5 → renamed');
  assert.ok(!out.some((l) => l.startsWith('renamed item-1')), JSON.stringify(out));
});

test('Qt 6 tree: focus on a row works (Qt\'s cells ' +
    'refuse GrabFocus) and makes it the current item', { timeout: 60_000 }, async () => {
  const out = await start([QT_APP, 'split'], {
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
    QT_ACCESSIBILITY: '1',
    AT_SPI_BUS_ADDRESS: undefined,
  });
  const table = await tableOf('qt-rows.py', /tree "Qt rows"|\] tree /);
  const focus = ok(await computer.tools.act({ actions: [{ ref: `${table}:A7`, op: 'focus' }] }));
  assert.match(focus, /^ok focus .* · confirmed \(.*it is the current item/m, focus);
  await printed(out, 'current item-7');
});

test('GTK 3 TreeView: a click on item-3 moves the cursor ' +
    '(the current item) there, not only the selection', { timeout: 60_000 }, async () => {
  await start([GTK_APP, '30']);
  const table = await tableOf('long-lists', /table "Items"/);
  const click = ok(await computer.tools.act({ actions: [{ ref: `${table}:A3`, op: 'click' }] }));
  assert.match(click, /it is the current item/, click);
  const after = await computer.tools.observe({ app: 'long-lists', full: true });
  assert.match(after.text, /table "Items".* cursor A3/, after.text);
});
