/**
 * The Chromium DevTools channel and doctor on Debian's chromium inside the sandbox desktop:
 * - through createComputer({driver: 'cdp'}) the tools observe a local page, fill and submit its form (the
 *   diff shows the result), grow a live list, open and close a dialog; every result starts with `channel: cdp`
 *   and the password is never read;
 * - the same page read through AT-SPI (with --force-renderer-accessibility) for the latency/token comparison;
 * - doctor on a Chromium window started WITHOUT --force-renderer-accessibility judges its web content and gives
 *   the fix (flag or DevTools channel) when the content is missing (the always-empty case is in unit/doctor.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { createComputer } from '../../src/index.js';
import { allowAllGate } from '../../src/policy/gate.js';
import { runDoctor, TINY_TREE } from '../../src/doctor/doctor.js';
import { lineOf, ok, refOn } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = pathToFileURL(join(ROOT, 'test', 'fixtures', 'pages', 'cdp-app.html')).href;
const CLI = join(ROOT, 'dist', 'src', 'hosts', 'cli', 'main.js');
const FLAGS = [
  '--no-sandbox',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-gpu',
  '--password-store=basic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

interface Browser { proc: ChildProcess; profile: string; endpoint?: string }
const running: Browser[] = [];

/** Starts Debian's chromium on the page with a fresh profile; resolves once DevTools listens (when asked). */
async function startChromium(extra: string[], debugging: boolean, page = PAGE): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'cu-chromium-'));
  const args = [
    ...FLAGS,
    `--user-data-dir=${profile}`,
    ...extra,
    ...(debugging ? ['--remote-debugging-port=0'] : []),
    page,
  ];
  // Its own process group, so the browser and its helpers are stopped together.
  const proc = spawn('/usr/bin/chromium', args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const b: Browser = { proc, profile };
  running.push(b);
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-8000); });
  if (!debugging) return b;
  b.endpoint = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chromium did not open DevTools:\n${err}`)), 30_000);
    const check = (): void => {
      const m = /DevTools listening on ws:\/\/([\d.]+:\d+)\//.exec(err);
      if (m?.[1]) { clearTimeout(timer); resolve(`http://${m[1]}`); }
    };
    proc.stderr!.on('data', check);
    proc.once('exit', () => { clearTimeout(timer); reject(new Error(`chromium exited:\n${err}`)); });
  });
  return b;
}

async function stopChromium(b: Browser): Promise<void> {
  const i = running.indexOf(b);
  if (i >= 0) running.splice(i, 1);
  const pid = b.proc.pid;
  if (pid !== undefined && b.proc.exitCode === null && b.proc.signalCode === null) {
    const exited = new Promise<void>((r) => b.proc.once('exit', () => r()));
    try { process.kill(-pid, 'SIGTERM'); } catch { /* gone */ }
    const timer = setTimeout(() => { try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ } }, 3000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(b.profile, { recursive: true, force: true });
}

after(async () => { for (const b of [...running]) await stopChromium(b); });

const measured: Record<string, number> = {};

test('the DevTools channel observes, fills and submits a form, grows a list and handles a dialog', async (t) => {
  const browser = await startChromium(['--force-renderer-accessibility'], true);
  const computer = await createComputer({
    desktop: 'current',
    driver: 'cdp',
    cdpEndpoint: browser.endpoint!,
    gate: allowAllGate,
  });
  const outputs: string[] = [];
  try {
    // The page may still be loading: its title names the window once it is parsed.
    let apps = '';
    for (let i = 0; i < 100 && !/window "Order desk"/.test(apps); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      apps = ok(await computer.tools.apps());
    }
    assert.match(apps, /^channel: cdp\n/);
    assert.match(apps, /\[w\d+\] window "Order desk"/);
    const waited = ok(
      await computer.tools.wait({ until: 'appears', text: 'Delete all items', window: 'Order desk', timeoutMs: 15000 }),
    );
    outputs.push(waited);

    const t0 = performance.now();
    const r = await computer.tools.observe({ full: true, window: 'Order desk' });
    measured['cdp_observe_ms'] = Math.round(performance.now() - t0);
    const snap = ok(r);
    outputs.push(snap);
    const s = computer.session.last.values().next().value;
    measured['cdp_tokens'] = s?.tokens ?? -1;
    measured['cdp_raw_nodes'] = s?.stats.rawNodes ?? -1;
    assert.match(snap, /^channel: cdp\napp chromium pid=\d+ · window "Order desk"/);
    assert.match(snap, /textbox "PIN" value="••••" editable password/);
    const customer = refOn(snap, /textbox "Customer"/);
    const email = refOn(snap, /textbox "Email"/);
    const size = refOn(snap, /combobox "Size" value="Medium"/);
    const gift = refOn(snap, /checkbox "Gift wrap"/);
    const submit = refOn(snap, /button "Place order"/);
    const add = refOn(snap, /button "Add item"/);
    const open = refOn(snap, /button "Delete all items…"/);

    const filled = ok(await computer.tools.act({ actions: [
      { ref: customer, op: 'set_value', value: 'Grace Hopper' },
      { ref: email, op: 'type', value: 'grace@example.org' },
      { ref: size, op: 'select', value: 'Large' },
      { ref: gift, op: 'toggle' },
    ] }));
    outputs.push(filled);
    assert.match(filled, /^channel: cdp\n/);
    for (const ref of [customer, email, size, gift])
      assert.match(filled, new RegExp(`ok \\w+ ${ref} · confirmed`), filled);
    assert.match(filled, /~ \[e\d+\] combobox "Size" value "Medium" → "Large"/);

    const t1 = performance.now();
    const submitted = ok(await computer.tools.act({ actions: [{ ref: submit, op: 'click' }] }));
    measured['cdp_act_ms'] = Math.round(performance.now() - t1);
    outputs.push(submitted);
    // The page's own state came from the input events: the result proves the edits reached it.
    assert.match(
      submitted,
      /\+ \[e\d+\] text "Order placed for Grace Hopper <grace@example.org>: Large, gift wrapped"/,
      submitted,
    );

    const grown = ok(await computer.tools.act({ actions: [{ ref: add, op: 'click' }, { ref: add, op: 'click' }] }));
    outputs.push(grown);
    assert.match(grown, /\+\s+\[e\d+\] text "Item 2"/);
    assert.match(grown, /\+\s+\[e\d+\] text "Item 3"/);

    const dialog = ok(await computer.tools.act({ actions: [{ ref: open, op: 'click' }] }));
    outputs.push(dialog);
    assert.match(dialog, /\+ \[e\d+\] dialog "Delete all items\?" modal/);
    const cancel = refOn(dialog, /button "Cancel"/);
    const closed = ok(await computer.tools.act({ actions: [{ ref: cancel, op: 'click' }] }));
    outputs.push(closed);
    assert.match(closed, /- \[e\d+\] dialog "Delete all items\?"/);
    assert.ok(lineOf(closed, submit) ?? true);

    const keys = ok(await computer.tools.keys({ keys: 'Tab' }));
    assert.match(keys, /^channel: cdp\n/);
    const found = ok(await computer.tools.find({ text: 'Item 3' }));
    assert.match(found, /^channel: cdp\n1 match/);
    for (const text of outputs) assert.ok(!text.includes('4711'), `the password leaked:\n${text}`);

    // The same page through the accessibility tree, for the comparison (no channel line there).
    const native = await createComputer({ desktop: 'current', gate: allowAllGate });
    try {
      const w = ok(
        await native.tools.wait({ until: 'appears', text: 'Delete all items', app: 'Chromium', timeoutMs: 15000 }),
      );
      assert.ok(!w.startsWith('channel:'));
      const t2 = performance.now();
      const n = ok(await native.tools.observe({ full: true, app: 'Chromium' }));
      measured['atspi_observe_ms'] = Math.round(performance.now() - t2);
      assert.ok(!n.startsWith('channel:'), n);
      const ns = [...native.session.last.values()].find((x) => x.window.app.toLowerCase() === 'chromium');
      measured['atspi_tokens'] = ns?.tokens ?? -1;
      measured['atspi_raw_nodes'] = ns?.stats.rawNodes ?? -1;
    } finally {
      await native.close();
    }
    t.diagnostic(`measured ${JSON.stringify(measured)}`);
  } finally {
    await computer.close();
    await stopChromium(browser);
  }
});

test('doctor on a Chromium window started without --force-renderer-accessibility ' +
    'judges its web content, with the fix when it is missing', async (t) => {
  const browser = await startChromium([], false);
  try {
    // Wait until the window registered on the accessibility bus (the frame is there; the content is not).
    let report = await runDoctor({ app: 'chromium' });
    for (let i = 0; i < 60 && !(report.app?.onBus && report.app.windows.length > 0); i++) {
      await new Promise((r) => setTimeout(r, 500));
      report = await runDoctor({ app: 'chromium' });
    }
    const app = report.app!;
    t.diagnostic(`doctor: ${app.status} · ${app.summary} · windows ${JSON.stringify(app.windows)}`);
    assert.ok(app.onBus, JSON.stringify(report, null, 2));
    assert.equal(app.toolkit, 'chromium');
    // Doctor judges the web content, not the browser UI around it (~140 nodes either way). Chromium 156 in
    // this sandbox turns renderer accessibility on by itself once an AT-SPI client reads it (IsEnabled is
    // true), so the content is usually there by the time the window is read; when it is missing, doctor
    // re-reads after 1.5 s and reports a failure or a late-content warning, each with both fixes.
    const web = Math.max(...app.windows.map((w) => w.webNodes ?? 0));
    if (web < TINY_TREE || app.status !== 'ok') {
      assert.notEqual(app.status, 'ok', JSON.stringify(app));
      assert.match(
        app.summary,
        /web content (is not exposed|was missing from the first read).*started without --force-renderer-accessibility/,
      );
      assert.ok(
        app.fixes.some((f) => f.includes('Restart it with --force-renderer-accessibility')),
        app.fixes.join('\n'),
      );
      assert.ok(
        app.fixes.some((f) => f.includes('--remote-debugging-port') && f.includes("driver: 'cdp'")),
        app.fixes.join('\n'),
      );
    } else {
      assert.match(app.summary, /exposes \d+ web content nodes/);
    }
    assert.ok(report.checks.some((c) => c.id === 'a11y_bus' && c.status === 'ok'));
    assert.equal(report.hello?.permissions['toolkit_accessibility'], true);

    // The command line: human-readable and --json.
    const run = (args: string[]) => new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn(process.execPath, [CLI, 'doctor', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
      p.once('exit', (code) => resolve({ code, out }));
    });
    const human = await run(['--app', 'chromium']);
    assert.match(human.out, /^ok {3}a11y_bus: /m, human.out);
    assert.match(human.out, /app Chromium pid=\d+ \(chromium\): /);
    assert.match(human.out, /window "Order desk - Chromium": \d+ nodes, \d+ in web content/);
    const json = await run(['--app', 'chromium', '--json']);
    const parsed = JSON.parse(json.out) as { ok: boolean; app: { toolkit: string; windows: { webNodes: number }[] } };
    assert.equal(parsed.app.toolkit, 'chromium');
    assert.ok(parsed.app.windows.some((w) => w.webNodes >= TINY_TREE), 'read after doctor, the content is there');
  } finally {
    await stopChromium(browser);
  }
});

test('the DevTools channel selects in a collapsed ARIA combobox: opened, chosen, closed, read back', async () => {
  const checkout = pathToFileURL(join(ROOT, 'test', 'apps', 'checkout.html')).href;
  const browser = await startChromium([], true, checkout);
  const computer = await createComputer({ desktop: 'current', driver: 'cdp', cdpEndpoint: browser.endpoint!,
    gate: allowAllGate });
  try {
    let snap = '';
    for (let i = 0; i < 100 && !/combobox "Wrapping"/.test(snap); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      const r = await computer.tools.observe({});
      snap = r.isError ? '' : r.text;
    }
    const wrap = refOn(snap, /combobox "Wrapping"/);
    const chosen = ok(await computer.tools.act({ actions: [{ ref: wrap, op: 'select', value: 'Gift box' }] }));
    assert.match(chosen, new RegExp(`ok select ${wrap} · confirmed`), chosen);
    assert.match(chosen, /Wrapping changed to Gift box\./, chosen);
    const after = ok(await computer.tools.observe({}));
    assert.doesNotMatch(after, /listbox/, 'the list was left open');
  } finally {
    await computer.close();
    await stopChromium(browser);
  }
});
