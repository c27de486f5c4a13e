/**
 * The fallback ladder benchmark: tokens and latency of each rung against the accessibility path, on
 * the same window. Rungs: computer_observe (accessibility tree), computer_screenshot mode "ocr" (local capture
 * + tesseract; text only), computer_screenshot mode "image" (capture + scale + Set-of-Mark; text plus the
 * image, whose tokens are the published vision estimate of bench/screenshot.ts). Windows: gtk3-widget-factory
 * (a rich tree) and test/apps/drawn-buttons.py (no accessible children). Starts its own sandbox.
 * Prints a table and writes bench/results/ladder-latest.json. Env: LADDER_RUNS (default 5).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createComputer, type Computer, type ToolResult } from '../src/index.js';
import { screenshotTokens } from './screenshot.js';

const RUNS = Number(process.env['LADDER_RUNS'] ?? 5);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Rung {
  window: string;
  rung: string;
  tokens: number;
  textTokens: number;
  imageTokens: number;
  p50ms: number;
  minMs: number;
  runs: number[];
  elements: number;
  note?: string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(window: string, rung: string, call: () => Promise<ToolResult>): Promise<Rung> {
  const runs: number[] = [];
  let last: ToolResult | undefined;
  await call(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    last = await call();
    runs.push(Math.round(performance.now() - t0));
    if (last.isError) throw new Error(`${window} ${rung}: ${last.text}`);
  }
  const text = last!.text;
  const textTokens = encode(text).length;
  let imageTokens = 0;
  const png = last!.images?.[0];
  if (png) {
    const b = Buffer.from(png.data, 'base64');
    imageTokens = screenshotTokens(b.readUInt32BE(16), b.readUInt32BE(20));
  }
  const elements = (text.match(/^\s*\[[eo]\d+\]/gm) ?? []).length;
  return {
    window,
    rung,
    tokens: textTokens + imageTokens,
    textTokens,
    imageTokens,
    p50ms: median(runs),
    minMs: Math.min(...runs),
    runs,
    elements,
  };
}

async function waitFor(c: Computer, name: string): Promise<void> {
  for (let i = 0; i < 150; i++) { if ((await c.tools.apps()).text.includes(`${name} pid=`)) return; await sleep(100); }
  throw new Error(`${name} did not appear`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-ladder-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const c = await createComputer({
    desktop: 'sandbox',
    mode: 'bypass',
    allowApps: ['gtk3-widget-factory', 'drawn-buttons'],
    allowScreenshots: true,
    imageInput: true,
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const rows: Rung[] = [];
  const pids: number[] = [];
  try {
    const wf = await c.tools.launch({ command: 'gtk3-widget-factory', waitMs: 20000 });
    pids.push(Number(/pid=(\d+)/.exec(wf.text)?.[1]));
    const drawn = spawn('/usr/bin/python3', [join(root, 'test', 'apps', 'drawn-buttons.py')], {
      stdio: 'ignore',
      env: { ...process.env, ...c.desktop.env },
    });
    if (drawn.pid) pids.push(drawn.pid);
    await waitFor(c, 'drawn-buttons');
    await sleep(500);
    for (const app of ['gtk3-widget-factory', 'drawn-buttons']) {
      process.stdout.write(`${app}: `);
      rows.push(await measure(app, 'accessibility (observe)', () => c.tools.observe({ app, maxTokens: 20000 })));
      process.stdout.write('observe ');
      rows.push(await measure(app, 'ocr (screenshot mode ocr)', () => c.tools.screenshot({ app, mode: 'ocr' })));
      process.stdout.write('ocr ');
      rows.push(await measure(app, 'image + Set-of-Mark', () => c.tools.screenshot({ app, mode: 'image' })));
      process.stdout.write('image\n');
    }
    // One act per rung on the drawn app and the widget factory (dispatch + settle + re-read + diff).
    const snap = (await c.tools.observe({ app: 'gtk3-widget-factory', maxTokens: 20000 })).text;
    const check = /\[(e\d+)\] checkbox "checkbutton"/.exec(snap)?.[1];
    if (check)
      rows.push(
        await measure('gtk3-widget-factory', 'act: toggle by ref', () =>
          c.tools.act({ actions: [{ ref: check, op: 'toggle' }] }),
        ),
      );
    const ocr = (await c.tools.screenshot({ app: 'drawn-buttons' })).text;
    const ok = /\[(o\d+)\] text "OK"/.exec(ocr)?.[1];
    if (ok)
      rows.push(
        await measure('drawn-buttons', 'act: click OCR ref', () =>
          c.tools.act({ actions: [{ ref: ok, op: 'click' }] }),
        ),
      );
  } finally {
    for (const p of pids) { try { process.kill(p); } catch { /* gone */ } }
    await c.close();
  }
  const head = ['window', 'rung', 'tokens', 'text', 'image', 'p50 ms', 'min ms', 'elements'];
  const table = [
    head,
    ...rows.map((r) => [
      r.window,
      r.rung,
      String(r.tokens),
      String(r.textTokens),
      String(r.imageTokens),
      String(r.p50ms),
      String(r.minMs),
      String(r.elements),
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  console.log(
    `\nfallback ladder · ${RUNS} runs (+1 warm-up) · ${cpus().length} cores · tokens: o200k for text, ` +
      `ceil(w·h/750) for the image\n`,
  );
  for (const row of table)
    console.log(row.map((v, i) => (i < 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  '));
  const out = join(root, 'bench', 'results', 'ladder-latest.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify({ date: new Date().toISOString(), runs: RUNS, cores: cpus().length, rows }, null, 2) + '\n',
  );
  console.log(`\nwrote ${out}`);
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
