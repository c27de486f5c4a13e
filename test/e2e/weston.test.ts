/**
 * A GTK app on Wayland, end to end: the test starts its own headless Weston sandbox (no X server; it runs
 * inside the Xvfb sandbox of `npm run test:e2e`, whose DISPLAY must not leak in), launches gtk3-widget-factory
 * there with GDK_BACKEND=wayland, and drives it through AT-SPI: observe, set_value, toggle, click, each
 * confirmed by a receipt and a fresh observe. Keys and pointer answer input_blocked with the reason and send
 * nothing; doctor reports a headless Wayland (Weston) session. Skips only when weston is not installed, and
 * never in CI (CI installs it: scripts/setup-debian.sh).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { runDoctor } from '../../src/doctor/doctor.js';
import { onPath } from '../../src/drivers/linux/checkup/prereq.js';
import { createComputer, type Computer } from '../../src/index.js';
import { E2E_APPS, killApp, launch, lineOf, ok, refOn } from './helpers.js';

const haveWeston = onPath('weston');
if (!haveWeston && process.env['CI'])
  throw new Error('weston is not installed, and CI must run the Wayland test (scripts/setup-debian.sh installs it)');
const skip = haveWeston ? false : 'weston is not installed (apt-get install weston): the Wayland sandbox cannot start';

let computer: Computer;
let pid = 0;
let snapshot = '';
const observe = async (): Promise<string> =>
  ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 }));

before(async () => {
  if (!haveWeston) return;
  computer = await createComputer({ desktop: 'sandbox', sandboxKind: 'weston', mode: 'bypass', allowApps: E2E_APPS });
  pid = (await launch(computer, 'gtk3-widget-factory')).pid;
  snapshot = await observe();
});
after(async () => {
  if (pid) await killApp(pid);
  await computer?.close();
});

test('the Weston sandbox is Wayland only, and the app runs on it', { skip }, async () => {
  const { desktop } = computer;
  assert.equal(desktop.sandbox?.kind, 'weston');
  assert.equal(desktop.sandbox?.pids.xvfb, undefined, 'no X server in a Weston sandbox');
  assert.equal(desktop.env['WAYLAND_DISPLAY'], 'wayland-cu');
  assert.equal(desktop.env['DISPLAY'], '', 'the outer Xvfb display must not leak in');
  assert.equal((await computer.session.device.hello()).session, 'wayland');
  // The app got the Wayland environment: with DISPLAY empty it could not have opened an X window.
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  assert.ok(
    environ.includes('GDK_BACKEND=wayland') &&
      environ.includes('DISPLAY=') &&
      environ.includes('WAYLAND_DISPLAY=wayland-cu'),
    environ.filter((e) => /DISPLAY|GDK/.test(e)).join(' '),
  );
  assert.match(snapshot, /\] checkbox "checkbutton" unchecked$/m);
});

test('set_value on an entry, a spin button and a slider: confirmed', { skip }, async () => {
  const entry = refOn(snapshot, /\] textbox value="entry" editable$/);
  const r1 = ok(await computer.tools.act({ actions: [{ ref: entry, op: 'set_value', value: 'hello wayland' }] }));
  assert.match(r1, new RegExp(`ok set_value ${entry} · confirmed`));
  assert.match(r1, new RegExp(`~ \\[${entry}\\] textbox value "entry" → "hello wayland"`));
  // Under Weston the label beside it names it (drivers/common/labels.ts); under X11 the bounds did not pair them.
  const spin = refOn(snapshot, /\] spinbutton (?:beside="label" )?value="50" range=1\.\.1000 editable$/);
  assert.match(ok(await computer.tools.act({ actions: [{ ref: spin, op: 'set_value', value: '77' }] })), /confirmed/);
  const slider = refOn(snapshot, /\] slider value="\d+" range=1\.\.100$/);
  assert.match(ok(await computer.tools.act({ actions: [{ ref: slider, op: 'set_value', value: '75' }] })), /confirmed/);
  const now = await observe();
  assert.match(lineOf(now, entry) ?? '', /value="hello wayland"/);
  assert.match(lineOf(now, spin) ?? '', /value="77"/);
  assert.match(lineOf(now, slider) ?? '', /value="75"/);
});

test('toggle a check button and back: confirmed both ways', { skip }, async () => {
  const ref = refOn(snapshot, /\] checkbox "checkbutton" unchecked$/);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'toggle' }] }));
  assert.match(res, new RegExp(`ok toggle ${ref} · confirmed`));
  assert.match(res, new RegExp(`~ \\[${ref}\\] checkbox "checkbutton" unchecked → checked`));
  assert.match(lineOf(await observe(), ref) ?? '', /\bchecked\b/);
  assert.match(ok(await computer.tools.act({ actions: [{ ref, op: 'toggle' }] })), /confirmed/);
  assert.match(lineOf(await observe(), ref) ?? '', /\bunchecked\b/);
});

test('keys and pointer: input_blocked naming the reason, and nothing arrives', { skip }, async () => {
  const entry = refOn(snapshot, /\] textbox value="entry" editable$/);
  const before = lineOf(await observe(), entry);
  const keys = await computer.tools.keys({ keys: 'ctrl+a BackSpace' });
  assert.equal(keys.isError, true, keys.text);
  assert.equal(keys.code, 'input_blocked', keys.text);
  assert.match(keys.text, /no X11 window proof/);
  assert.match(keys.text, /RemoteDesktop/);
  assert.match(keys.text, /uinput is never used/);
  assert.match(keys.text, /Use element actions/);
  const typed = await computer.tools.keys({ keys: 'x y z', app: 'gtk3-widget-factory' });
  assert.equal(typed.code, 'input_blocked', typed.text);
  const click = await computer.tools.input({ action: 'click', x: 20, y: 20 });
  assert.equal(click.isError, true, click.text);
  assert.equal(click.code, 'input_blocked', click.text);
  assert.match(click.text, /no X11 window proof/);
  assert.equal(lineOf(await observe(), entry), before, 'the entry kept its text: no key arrived');
});

test('click a radio button that switches the page: confirmed, and the new page is read', { skip }, async () => {
  const ref = refOn(snapshot, /\] radio "Page 2" unchecked$/);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'click' }] }));
  assert.match(res, new RegExp(`ok click ${ref} · confirmed`));
  const now = await observe();
  assert.match(lineOf(now, ref) ?? '', /radio "Page 2" checked/);
  assert.match(now, /slider "Volume"/, 'page 2 content is read after the switch');
});

test('what differs on Wayland: window bounds are ' +
    'window-relative and no window is proven active', { skip }, async (t) => {
  const { windows } = await computer.session.device.call('windows.list', { pid });
  const w = windows[0];
  assert.ok(w, 'the app has a window');
  // Identity comes from the accessibility bus (the connection's pid) and /proc, not from X11.
  assert.equal(w.pid, pid);
  assert.equal(w.executable, '/usr/bin/gtk3-widget-factory');
  t.diagnostic(
    `window: bounds ${JSON.stringify(w.bounds)}, focused ${String(w.focused)}, title ` + `${JSON.stringify(w.title)}`,
  );
});

test('doctor on the Weston sandbox: a headless Wayland session, element actions only', { skip }, async () => {
  const report = await runDoctor({ env: computer.desktop.env });
  assert.equal(report.session, 'wayland');
  assert.equal(report.sessionInfo?.headless, 'weston');
  const session = report.checks.find((c) => c.id === 'session');
  assert.match(
    session?.summary ?? '',
    /^wayland, headless \(Weston sandbox :\d+\) · XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-cu DISPLAY=\(empty\)\. Works: .*element actions.* Not here: keys and pointer: input_blocked/,
  );
  const input = report.checks.find((c) => c.id === 'wayland_input');
  assert.match(input?.summary ?? '', /^input_blocked: Wayland: .*no X11 window proof/);
  const bus = report.checks.find((c) => c.id === 'a11y_bus');
  assert.match(bus?.summary ?? '', /gtk3-widget-factory/);
});

test('the CLI: `sandbox exec --kind weston` starts a Weston sandbox (never ' +
    'the outer Xvfb one), stops it after, and reuses a running one', { skip }, async () => {
  const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
  const script =
    'printf "%s|%s|%s|%s|%s" "$WAYLAND_DISPLAY" "$DISPLAY" "$XDG_SESSION_TYPE" "$COMPUTER_USE_SANDBOX" ' +
    '"$XDG_RUNTIME_DIR"';
  const exec = (home?: string): Promise<{ stdout: string; stderr: string }> => new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'sandbox', 'exec', '--kind', 'weston', '--', 'sh', '-c', script],
      { timeout: 60_000, env: { ...process.env, ...(home !== undefined ? { COMPUTER_USE_HOME: home } : {}) } },
      (err, out, errOut) => {
        if (err) reject(new Error(`${err.message}\n${errOut}`));
        else resolve({ stdout: out, stderr: errOut });
      },
    );
  });
  // A home with no sandbox recorded: the outer Xvfb desktop (DISPLAY is set) does not count for --kind weston.
  const fresh = await mkdtemp(join(tmpdir(), 'cu-weston-cli-'));
  try {
    const { stdout, stderr } = await exec(fresh);
    const [wayland, display, type, name, runtimeDir] = stdout.split('|');
    assert.deepEqual([wayland, display, type], ['wayland-cu', '', 'wayland'], stderr);
    assert.match(stderr, new RegExp(`\\[sandbox\\] started ${name}`));
    assert.ok(
      runtimeDir?.startsWith(fresh) && !existsSync(runtimeDir),
      'the sandbox it started is stopped (runtime dir removed)',
    );
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
  // The test's own home, where this file's Weston sandbox runs (and the outer Xvfb one): that Weston one is reused.
  const { stdout, stderr } = await exec();
  assert.equal(stdout.split('|')[3], computer.desktop.sandbox?.display, stderr);
  assert.match(stderr, /\[sandbox\] running on sandbox :\d+/);
});
