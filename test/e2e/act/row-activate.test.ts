/**
 * A double click on a list row's cell activates that row, not the row that was selected before: GTK 3's cell
 * "activate" action activates the tree's cursor row (measured in mousepad's Open dialog, which opened the
 * selected file, not the one double-clicked). test/apps/long-lists.py prints what the tree activated.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

const APP_SCRIPT = realpathSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'apps', 'long-lists.py'));
const PYTHON = realpathSync('/usr/bin/python3');
let computer: Computer;
let child: ChildProcess | undefined;
const out: string[] = [];

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `${basename(PYTHON)} ${APP_SCRIPT}`] });
  child = spawn(PYTHON, [APP_SCRIPT, '30'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout?.on('data', (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean)));
  await printed('ready');
});
after(async () => {
  await computer?.close();
  if (child?.pid) await killApp(child.pid);
});

/** Waits until the app printed `line`. */
async function printed(line: string): Promise<void> {
  for (let i = 0; i < 200 && !out.includes(line); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(out.includes(line), `the app printed ${JSON.stringify(out.slice(-6))}, not ${JSON.stringify(line)}`);
}

test('GTK 3 TreeView: with item-1 selected, double_click on item-5\'s cell activates item-5 and says so', { timeout: 60_000 }, async () => {
  const snap = ok(await computer.tools.observe({ app: 'long-lists', full: true }));
  const table = refOn(snap, /table "Items"/);
  ok(await computer.tools.act({ actions: [{ ref: `${table}:A1`, op: 'click' }] }));
  out.length = 0;
  const receipt = ok(await computer.tools.act({ actions: [{ ref: `${table}:A5`, op: 'double_click' }] }));
  await printed('activated item-5');
  // An app that opens its selected row (GTK's file chooser) opens the row double-clicked.
  await printed('opened item-5');
  assert.ok(!out.includes('opened item-1'), `the row selected before was opened: ${JSON.stringify(out)}`);
  assert.match(receipt, /^ok double_click .*row selected \(read back\), then Action.DoAction/m, receipt);
  // Nothing in the window shows the activation (the app only prints it): the row's own selection confirms nothing.
  assert.match(receipt, /· unknown \(/, receipt);
});
