/**
 * Each sandbox runs its apps with a HOME of its own, empty at its start and removed at its stop: a setting an app
 * writes in one sandbox (here a GSettings key, through dconf on the sandbox's own session bus) is not there in the
 * next. The command `sandbox exec` runs gets that HOME too, and keeps this computer-use home.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
const KEY = ['org.gnome.gedit.preferences.editor', 'tabs-size'];

/** `computer-use sandbox exec -- sh -c SCRIPT` in a fresh sandbox (never the desktop this test runs in). */
function execInNewSandbox(cuHome: string, script: string, extra: Record<string, string> = {}): Promise<string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // Without them the CLI finds no desktop to reuse and starts a sandbox for the command.
  for (const k of ['DISPLAY', 'WAYLAND_DISPLAY', 'AT_SPI_BUS_ADDRESS', 'DBUS_SESSION_BUS_ADDRESS',
    'COMPUTER_USE_SANDBOX', 'COMPUTER_USE_SANDBOX_HOME']) delete env[k];
  Object.assign(env, { COMPUTER_USE_HOME: cuHome }, extra);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [cli, 'sandbox', 'exec', '--', 'sh', '-c', script], { env, timeout: 60_000 },
      (err, stdout, stderr) => err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout));
  });
}

test('a GSettings key set in one sandbox reads as its default in the next; the home goes with the sandbox',
  { timeout: 180_000 }, async () => {
    const cuHome = mkdtempSync(join(tmpdir(), 'cu-e2e-home-'));
    try {
      const first = await execInNewSandbox(
        cuHome,
        `gsettings set ${KEY.join(' ')} 7 && gsettings get ${KEY.join(' ')}` +
          ' && printf "%s\\n%s\\n%s\\n" "$HOME" "$XDG_CONFIG_HOME" "$COMPUTER_USE_HOME" && ls "$XDG_CONFIG_HOME/dconf"',
      );
      const [value, home, config, toolHome, dconf] = first.trim().split('\n');
      assert.equal(value, 'uint32 7', 'the write took, in the first sandbox');
      assert.match(home ?? '', new RegExp(`^${cuHome}/sandboxes/display-\\d+/home$`));
      assert.equal(config, `${home}/.config`);
      assert.equal(toolHome, cuHome, 'computer-use inside the sandbox keeps its home');
      assert.equal(dconf, 'user', 'dconf wrote its database under the sandbox home');
      assert.equal(existsSync(home!), false, 'the home is removed with the sandbox');

      const second = await execInNewSandbox(cuHome, `gsettings get ${KEY.join(' ')}`);
      assert.equal(second.trim(), 'uint32 8', 'the next sandbox reads the default');
    } finally {
      // Were the homes shared, this puts the shared value back.
      await execInNewSandbox(cuHome, `gsettings reset ${KEY.join(' ')}`).catch(() => undefined);
      rmSync(cuHome, { recursive: true, force: true });
    }
  });

test('COMPUTER_USE_SANDBOX_HOME=own: the sandbox runs its command with the caller\'s HOME', { timeout: 60_000 },
  async () => {
    const cuHome = mkdtempSync(join(tmpdir(), 'cu-e2e-home-'));
    try {
      const out = await execInNewSandbox(cuHome, 'printf "%s" "$HOME"', { COMPUTER_USE_SANDBOX_HOME: 'own' });
      assert.equal(out, process.env['HOME']);
    } finally {
      rmSync(cuHome, { recursive: true, force: true });
    }
  });
