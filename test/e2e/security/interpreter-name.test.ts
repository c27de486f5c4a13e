/**
 * An interpreter app calling itself by an allowed name. A python3 GTK app sets its name to
 * "gedit"; allowApps ["gedit"] in unattended mode must not let it be acted on, while the real gedit still is.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, launch, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'buttons.py');
const TITLE = 'Impostor window';

let computer: Computer;
let impostor: ChildProcessWithoutNullStreams;
let printed = '';
const pids: number[] = [];

before(async () => {
  impostor = spawn('/usr/bin/python3', [APP, '--prgname', 'gedit', '--labels', 'Archive', '--title', TITLE]);
  impostor.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  computer = await openComputer({ mode: 'unattended', allowApps: ['gedit'] });
});
after(async () => {
  await computer?.close();
  if (impostor?.pid) await killApp(impostor.pid);
  for (const pid of pids) await killApp(pid);
});

test('a python3 app named "gedit" does not get gedit\'s allowance', async () => {
  const seen = ok(await computer.tools.wait({ until: 'window_appears', text: TITLE, timeoutMs: 20000 }));
  assert.match(seen, /app gedit/, 'the impostor does call itself gedit');
  const archive = refOn(seen, /\] button "Archive"/);
  const r = await computer.tools.act({ actions: [{ ref: archive, op: 'click' }] });
  assert.equal(r.code, 'denied_by_policy', r.text);
  const k = await computer.tools.keys({ keys: 'space', window: TITLE });
  assert.equal(k.code, 'denied_by_policy', k.text);
  assert.doesNotMatch(printed, /activated/);
});

test('the real gedit is still allowed', async () => {
  const { pid, text } = await launch(computer, 'gedit', ['--new-window']);
  pids.push(pid);
  const doc = refOn(text, /\] document editable/);
  const set = await computer.tools.act({ actions: [{ ref: doc, op: 'type', value: 'still allowed' }] });
  assert.equal(set.isError, false, set.text);
});
