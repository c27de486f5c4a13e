/**
 * Keys are data, never argv. Words such as exec, search, windowactivate or --window in a keys
 * string were further xdotool commands; now they are unknown key names: an error, no file, no process.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { Device } from '../../../src/devices/manager.js';
import type { Computer } from '../../../src/index.js';
import { isComputerUseError } from '../../../src/protocol/errors.js';
import { killApp, launch, openComputer } from '../helpers.js';

let computer: Computer;
let geditPid = 0;
const tag = `cu-argv-${process.pid}-${Date.now()}`;

before(async () => {
  computer = await openComputer();
  geditPid = (await launch(computer, 'gedit', ['--new-window'])).pid;
});
after(async () => {
  await computer?.close();
  if (geditPid) await killApp(geditPid);
});

/** Command lines of all processes that mention `needle`. */
function processesWith(needle: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(needle) && Number(d) !== process.pid) out.push(cmd);
    } catch { /* exited */ }
  }
  return out;
}

test('xdotool command words in a keys string run nothing: error, no file, no process', async () => {
  const file = `/tmp/${tag}-touched`;
  const payloads = [
    `shift exec sh -c touch\${IFS}${file}`,
    `a exec --sync touch ${file}`,
    // A long-lived process would still be there to find if it had been started.
    `shift exec sleep 3600.${process.pid}`,
    'search --onlyvisible --name . windowactivate --sync',
    `--window 1 a exec touch ${file}`,
    'windowactivate 1',
  ];
  for (const keys of payloads) {
    const r = await computer.tools.keys({ keys, app: 'gedit' });
    assert.equal(r.isError, true, `${keys}: ${r.text}`);
    assert.equal(r.code, 'invalid_params', `${keys}: ${r.text}`);
  }
  assert.equal(existsSync(file), false, 'a shell command ran');
  assert.deepEqual(processesWith(`3600.${process.pid}`), [], 'a process was spawned');
});

test('the driver refuses a chord whose key is not a keysym (exec), sending nothing', async () => {
  const device = new Device({ platform: 'linux', timeoutMs: 20_000 });
  try {
    const { windows } = await device.call('windows.list', { pid: geditPid });
    const win = windows[0];
    assert.ok(win, 'gedit has a window');
    // The X window behind the AT-SPI window is found (same process): its WM_CLASS is reported.
    assert.equal(win.className, 'Gedit');
    for (const key of ['exec', '--window', 'sh -c touch /tmp/x', 'windowactivate']) {
      await assert.rejects(
        device.call('input.keys', { window: win.id, chords: [{ mods: [], key }], expect: { pid: win.pid } } as never),
        (e: unknown) => {
          assert.ok(isComputerUseError(e, 'invalid_params'), String(e));
          assert.match((e as Error).message, /keysym|Invalid params/i);
          return true;
        });
    }
  } finally {
    await device.close();
  }
});
