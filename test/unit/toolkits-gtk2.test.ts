/**
 * GTK 2 has no accessibility bridge of its own: a launch gives a GTK 2 program (its ELF needs libgtk-x11-2.0) the
 * gail and atk-bridge modules, and nothing else gets them (GTK 3 and 4 have their bridge built in; an LXTask launch
 * timed out as "its toolkit does not speak AT-SPI, no switch makes it readable"). The app list and doctor know GTK 2.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { inaccessibleAdvice, mayStillRegister } from '../../src/drivers/linux/apps/advice.js';
import { detectToolkit } from '../../src/drivers/linux/apps/process.js';
import {
  appLaunchEnv, gtk2ModulesInstalled, isGtk2Program, toolkitLaunchEnv, withGtk2Modules,
} from '../../src/drivers/linux/apps/toolkits.js';

const dir = mkdtempSync(join(tmpdir(), 'cu-gtk2-'));
/** An ELF file whose dynamic string table names these libraries (enough for the check: it reads names, not code). */
function elf(name: string, needed: string[]): string {
  const file = join(dir, name);
  const head = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array<number>(56).fill(0)]);
  writeFileSync(file, Buffer.concat([head, Buffer.from(`\0${needed.join('\0')}\0`, 'latin1')]));
  return file;
}

test('a GTK 2 program is told by the libraries its ELF needs, not by its name', () => {
  assert.equal(isGtk2Program(elf('taskview', ['libc.so.6', 'libgtk-x11-2.0.so.0', 'libgdk-x11-2.0.so.0'])), true);
  assert.equal(isGtk2Program(elf('lxtask', ['libc.so.6', 'libgtk-3.so.0'])), false, 'GTK 3, whatever its name');
  assert.equal(isGtk2Program(elf('qtapp', ['libQt5Widgets.so.5'])), false);
  // A script that merely names the library is no GTK 2 program.
  const script = join(dir, 'run.sh');
  writeFileSync(script, '#!/bin/sh\n# needs libgtk-x11-2.0.so.0\0\nexec true\n');
  assert.equal(isGtk2Program(script), false);
  assert.equal(isGtk2Program(join(dir, 'missing')), false);
});

test('launch env: GTK 2 gets gail:atk-bridge (added to what is there); GTK 3, Qt and Java get no GTK_MODULES', () => {
  const machine = { gtk2Modules: true };
  assert.equal(toolkitLaunchEnv({}, machine, { gtk2: true })['GTK_MODULES'], 'gail:atk-bridge');
  assert.equal(toolkitLaunchEnv({ GTK_MODULES: 'canberra-gtk-module' }, machine, { gtk2: true })['GTK_MODULES'],
    'canberra-gtk-module:gail:atk-bridge');
  assert.equal(
    toolkitLaunchEnv({ GTK_MODULES: 'atk-bridge:gail' }, machine, { gtk2: true })['GTK_MODULES'],
    undefined,
    'already named',
  );
  assert.equal(toolkitLaunchEnv({}, machine, { gtk2: false })['GTK_MODULES'], undefined, 'not a GTK 2 program');
  assert.equal(toolkitLaunchEnv({}, machine)['GTK_MODULES'], undefined);
  assert.equal(
    toolkitLaunchEnv({}, {}, { gtk2: true })['GTK_MODULES'],
    undefined,
    'modules not installed: nothing to load',
  );
  assert.equal(appLaunchEnv({ PATH: '/bin' }, {}, machine, { gtk2: true })['GTK_MODULES'], 'gail:atk-bridge');
  assert.equal(
    appLaunchEnv({}, { GTK_MODULES: 'mine' }, machine, { gtk2: true })['GTK_MODULES'],
    'mine',
    "the caller's own wins",
  );
  assert.equal(withGtk2Modules('gail'), 'gail:atk-bridge');
});

test('the modules count as installed only when both are there', () => {
  const mods = join(dir, 'lib', 'gtk-2.0', 'modules');
  mkdirSync(mods, { recursive: true });
  writeFileSync(join(mods, 'libgail.so'), '');
  assert.equal(gtk2ModulesInstalled([mods]), false);
  writeFileSync(join(mods, 'libatk-bridge.so'), '');
  assert.equal(gtk2ModulesInstalled([join(dir, 'none'), mods]), true);
});

test('a running GTK 2 app is GTK 2 (its maps); the advice: the reason, and the fix (start it through launch)', () => {
  assert.equal(
    detectToolkit('/usr/bin/lxtask', [], '7f00 r-xp /usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33'),
    'gtk2',
  );
  assert.equal(detectToolkit('/usr/bin/gedit', [], '/usr/lib/x86_64-linux-gnu/libgtk-3.so.0'), 'gtk3');
  const off = inaccessibleAdvice({ toolkit: 'gtk2', env: {}, gtk2ModulesInstalled: true });
  assert.match(off.reason, /GTK 2 app started without the gail and atk-bridge modules/);
  assert.match(off.fix ?? '', /through launch.*GTK_MODULES=gail:atk-bridge/);
  assert.deepEqual(off.remedy, ['relaunch', 'read_pixels']);
  assert.doesNotMatch(off.reason, /does not speak AT-SPI/);
  const missing = inaccessibleAdvice({ toolkit: 'gtk2', env: {}, gtk2ModulesInstalled: false });
  assert.match(missing.fix ?? '', /apt-get install libgail-common libatk-adaptor/);
  const loaded = inaccessibleAdvice({
    toolkit: 'gtk2',
    env: { GTK_MODULES: 'gail:atk-bridge' },
    gtk2ModulesInstalled: true,
  });
  assert.match(loaded.reason, /modules did not register/);
});

test('whether an app off the bus may still register decides how long a launch waits for its tree', () => {
  assert.equal(mayStillRegister({ toolkit: 'unknown', env: {} }), false, 'no toolkit that speaks AT-SPI');
  assert.equal(mayStillRegister({ toolkit: 'gtk2', env: {} }), false, 'GTK 2 without its modules');
  assert.equal(mayStillRegister({ toolkit: 'gtk2', env: { GTK_MODULES: 'gail:atk-bridge' } }), true);
  assert.equal(mayStillRegister({ toolkit: 'gtk3', env: { NO_AT_BRIDGE: '1' } }), false);
  assert.equal(mayStillRegister({ toolkit: 'gtk3', env: {} }), true);
  assert.equal(mayStillRegister({ toolkit: 'qt', env: {} }), true);
});

test('a launched process with an X window off the bus is found however young (the app list waits for it)', async () => {
  const { spawn } = await import('node:child_process');
  const { launchedOffBus } = await import('../../src/drivers/linux/apps/x11apps.js');
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
  try {
    const pid = child.pid!;
    const xw = {
      clients: async () => [{ id: 0x400001, pid: 1 }, { id: 0x500001, pid }],
      rootString: async () => undefined,
      pidOf: async (x: number) => (x === 0x500001 ? pid : 1), title: async () => 'Notice',
      geometry: async () => ({ rect: [0, 0, 100, 100] }), wmClass: async () => undefined,
    } as unknown as Parameters<typeof launchedOffBus>[0];
    const off = await launchedOffBus(xw, (p) => p === pid, new Set());
    assert.equal(off?.app.pid, pid);
    assert.equal(off?.app.windows[0]?.id, 'x11:5242881');
    assert.equal(off?.mayRegister, false, 'node loads no UI toolkit');
    assert.match(off?.app.inaccessible?.reason ?? '', /does not speak AT-SPI/);
    assert.equal(await launchedOffBus(xw, (p) => p === pid, new Set([pid])), undefined, 'on the bus: not off it');
  } finally { child.kill(); }
});
