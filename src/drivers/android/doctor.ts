/**
 * `computer-use doctor --device adb[:SERIAL]`: what an Android phone needs before the agent can use it, checked
 * in the order a user fixes it: an adb server, the phone attached and authorized, unlocked, a screen dump that
 * works, and the IME that types text beyond ASCII. Each failed check says what to do.
 */
import { spawnSync } from 'node:child_process';
import { AdbClient, chooseDevice, listDevices } from './adb/client.js';
import { isAdbError } from './adb/errors.js';
import { shellCommand } from './adb/quote.js';
import { dumpUi, readFacts } from './device.js';
import { ADB_KEYBOARD_IME } from './input.js';
import { parseUiDump } from './uixml.js';
import type { DeviceCheck } from '../common/checks.js';

/** Runs the checks; later ones are skipped once the phone cannot be reached. */
export async function doctorPhone(
  serial: string | undefined,
  client: AdbClient = new AdbClient(),
): Promise<DeviceCheck[]> {
  const checks: DeviceCheck[] = [];
  const where = `${client.address.host}:${client.address.port}`;
  let version: number | undefined;
  try { version = await client.version(); } catch (e) {
    if (!isAdbError(e, 'no_server')) throw e;
    // Start the server the way adb does; the binary is only needed for this.
    const started = spawnSync('adb', ['start-server'], { stdio: 'ignore', timeout: 20_000 });
    if (started.error || started.status !== 0) {
      checks.push({
        name: 'adb server',
        ok: false,
        detail: `no adb server at ${where}, and \`adb start-server\` ${started.error ? 'is not installed' : 'failed'}`,
        fix: 'install Android platform-tools (Debian/Ubuntu: apt-get install adb; macOS: brew install android-platform-tools; Windows: the SDK Platform-Tools zip), then run `adb start-server`',
      });
      return checks;
    }
    version = await client.version();
  }
  checks.push({ name: 'adb server', ok: true, detail: `adb server protocol ${version} at ${where}` });
  let chosen: string;
  const attached = await client.devices();
  if (attached.length > 1) checks.push({ name: 'devices', ok: true, detail: `adb lists ${listDevices(attached)}` });
  try {
    chosen = chooseDevice(attached, serial).serial;
  } catch (e) {
    if (!isAdbError(e)) throw e;
    checks.push({
      name: 'phone',
      ok: false,
      detail: e.message,
      fix:
        e.kind === 'unauthorized'
          ? 'unlock the phone and accept "Allow USB debugging?" (tick "Always allow from this computer")'
          : e.kind === 'ambiguous'
            ? 'name the phone: computer-use doctor --device adb:SERIAL'
            : 'turn on Developer options › USB debugging, connect the phone by USB (or `adb connect ' +
              'host:port`), and check `adb devices`',
    });
    return checks;
  }
  const facts = await readFacts(client, chosen);
  checks.push({
    name: 'phone',
    ok: true,
    detail:
      `${chosen}: ${facts.manufacturer} ${facts.model}, Android ${facts.release} (API ${facts.apiLevel}), ` +
      `${facts.screen.width}x${facts.screen.height} at ${facts.density} dpi`,
  });
  checks.push(
    facts.locked
      ? {
          name: 'screen',
          ok: false,
          detail: 'the phone is locked: nothing can be read or tapped',
          fix: 'unlock it (and keep it awake: Developer options › Stay awake)',
        }
      : {
          name: 'screen',
          ok: true,
          detail:
            `unlocked; in front: ` +
            `${facts.foreground ? `${facts.foreground.packageName}/${facts.foreground.activity}` : 'nothing'}`,
        },
  );
  try {
    const dump = await dumpUi(client, chosen);
    let nodes = 0;
    const count = (n: { children: unknown[] }): void => {
      nodes++;
      for (const c of n.children) count(c as { children: unknown[] });
    };
    for (const r of parseUiDump(dump.xml).roots) count(r);
    checks.push({ name: 'uiautomator', ok: true, detail: `a screen dump read ${nodes} views in ${dump.ms} ms` });
  } catch (e) {
    checks.push({
      name: 'uiautomator',
      ok: false,
      detail: (e as Error).message,
      fix: 'wait for the screen to stop animating, then run doctor again; if it keeps failing, reboot the phone',
    });
  }
  const ime = (await client.shell(chosen, shellCommand(['settings', 'get', 'secure', 'default_input_method']))).stdout
    .toString('utf8')
    .trim();
  checks.push(
    ime === ADB_KEYBOARD_IME
      ? {
          name: 'text input',
          ok: true,
          detail: 'ADB Keyboard is the input method: any text (Chinese, emoji) can be typed',
        }
      : {
          name: 'text input',
          ok: true,
          detail: `input method ${ime || 'unknown'}: ASCII text only (Chinese and emoji are refused, nothing sent)`,
          fix:
            `for any text, install ADB Keyboard, then: adb shell ime enable ${ADB_KEYBOARD_IME} && adb shell ` +
            `ime set ${ADB_KEYBOARD_IME}`,
        },
  );
  return checks;
}
