/**
 * Qt 6 (PyQt6 6.4, Debian's python3-pyqt6): computer_launch starts it without
 * AT_SPI_BUS_ADDRESS (with it, Qt 6.4 never registers), it registers, a read does not crash it, and a
 * set_value + click show in its label.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, launch, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'qt6-form.py');
// Debian's interpreter: the one that has python3-pyqt6 (a python3 earlier on PATH may not).
const PYTHON = '/usr/bin/python3';
let computer: Computer | undefined;
let pid = 0;

after(async () => {
  if (pid) await killApp(pid);
  await computer?.close();
});

test('Qt 6 app: launch, set a field, click, read the label', async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `python3 ${APP}`] });
  const started = await launch(computer, PYTHON, [APP]);
  pid = started.pid;
  const field = refOn(started.text, /textbox "Text"/);
  const go = refOn(started.text, /button "Go"/);
  const set = ok(await computer.tools.act({ actions: [{ ref: field, op: 'set_value', value: 'six' }] }));
  assert.match(set, /confirmed/, set);
  const clicked = ok(await computer.tools.act({ actions: [{ ref: go, op: 'click' }] }));
  assert.match(clicked, /got six/, clicked);
  process.kill(pid, 0);
});
