/** The evaluation's table, JSON and SVG chart (tokens and time per task, ours against the screenshot baselines). */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SCREENSHOT_FORMULA } from '../../src/demo/tokens.js';
import type { TaskResult } from './runner.js';

/** What a run writes. */
export interface EvalRun {
  solver: string;
  durationMs: number;
  results: TaskResult[];
  /** The second baseline (computer-use-mcp from npm): how it was measured, or why it did not run. */
  peer?: { name: string; note: string; toolListTokens?: number };
  /** o200k tokens of our own tool list (the fixed cost per conversation). */
  toolListTokens?: number;
}

/** Totals and ratios of a run. */
export function summarize(results: readonly TaskResult[]): {
  passed: number;
  total: number;
  tokens: number;
  screenshotTokens: number;
  ratio: number;
  peerTokens?: number;
  peerRatio?: number;
  steps: number;
  ms: number;
} {
  const tokens = results.reduce((a, r) => a + r.tokens, 0);
  const screenshotTokens = results.reduce((a, r) => a + r.screenshotTokens, 0);
  const withPeer = results.filter((r) => r.peerTokens !== undefined);
  const peerTokens = withPeer.reduce((a, r) => a + (r.peerTokens ?? 0), 0);
  const peerOurs = withPeer.reduce((a, r) => a + r.tokens, 0);
  return {
    passed: results.filter((r) => r.success).length, total: results.length, tokens, screenshotTokens,
    ratio: tokens ? screenshotTokens / tokens : 0,
    ...(withPeer.length ? { peerTokens, peerRatio: peerOurs ? peerTokens / peerOurs : 0 } : {}),
    steps: results.reduce((a, r) => a + r.steps, 0), ms: results.reduce((a, r) => a + r.ms, 0),
  };
}

const pad = (s: string | number, n: number): string => String(s).padEnd(n);
const lpad = (s: string | number, n: number): string => String(s).padStart(n);

/** Prints one row per task and the totals. */
export function printTable(results: readonly TaskResult[]): void {
  const idW = Math.max(4, ...results.map((r) => r.id.length));
  const x = (a: number, b: number): string => (b ? (a / b).toFixed(1) + '×' : '-');
  process.stdout.write(
    `\n${pad('task', idW)}  ok    steps  tokens  shot-tokens  ratio  peer-tokens  ratio   time ms\n`,
  );
  for (const r of results) {
    const peer = r.peerTokens !== undefined ? String(r.peerTokens) : '-';
    process.stdout.write(
      `${pad(r.id, idW)}  ${pad(r.success ? 'pass' : 'FAIL', 4)}  ${lpad(r.steps, 5)}  ${lpad(r.tokens, 6)}  ` +
        `${lpad(r.screenshotTokens, 11)}  ${lpad(x(r.screenshotTokens, r.tokens), 5)}  ${lpad(peer, 11)}  ` +
        `${lpad(r.peerTokens !== undefined ? x(r.peerTokens, r.tokens) : '-', 5)}  ${lpad(r.ms, 8)}\n`,
    );
  }
  const s = summarize(results);
  process.stdout.write(
    `${pad('total', idW)}  ${pad(`${s.passed}/${s.total}`, 4)}  ${lpad(s.steps, 5)}  ${lpad(s.tokens, 6)}  ` +
      `${lpad(s.screenshotTokens, 11)}  ${lpad(x(s.screenshotTokens, s.tokens), 5)}  ` +
      `${lpad(s.peerTokens ?? '-', 11)}  ` +
      `${lpad(s.peerRatio !== undefined ? s.peerRatio.toFixed(1) + '×' : '-', 5)}  ${lpad(s.ms, 8)}\n`,
  );
  process.stdout.write(
    `(tokens: o200k of every tool result the model reads; shot-tokens: one screenshot of the app's windows ` +
      `per step, ${SCREENSHOT_FORMULA}; peer-tokens: one computer-use-mcp screenshot result of this desktop ` +
      `per step, measured through its own MCP tool)\n`,
  );
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A horizontal bar chart: per task, tokens of ours, the screenshot baseline and the peer where measured (linear
 * scale, so the bars' lengths compare as the numbers do; ours is labelled), and time in seconds on the right.
 */
export function chartSvg(run: EvalRun): string {
  const rows = run.results;
  const peer = new Map(rows.filter((r) => r.peerTokens !== undefined).map((r) => [r.id, r.peerTokens ?? 0]));
  const labelW = 210;
  const barW = 420;
  const timeW = 170;
  const rowH = 30;
  const top = 48;
  const width = labelW + barW + timeW + 20;
  const height = top + rows.length * rowH + 40;
  const maxTok = Math.max(10, ...rows.map((r) => Math.max(r.tokens, r.screenshotTokens, peer.get(r.id) ?? 0)));
  const maxMs = Math.max(1, ...rows.map((r) => r.ms));
  const x = (v: number): number => (Math.max(0, v) / maxTok) * barW;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" ` +
      `font-size="11">`,
  );
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  const s = summarize(rows);
  out.push(
    `<text x="8" y="18" font-size="13" font-weight="bold">` +
      `${esc(`computer-use eval (${run.solver}): ${s.passed}/${s.total} passed, ${s.tokens} tokens vs ${s.screenshotTokens} for screenshots (${s.ratio.toFixed(1)}× fewer)${s.peerRatio !== undefined ? `, ${s.peerRatio.toFixed(1)}× fewer than ${run.peer?.name ?? 'the peer'}` : ''}`)}</text>`,
  );
  out.push(
    `<rect x="${labelW}" y="28" width="10" height="8" fill="#2b7de9"/><text x="${labelW + 14}" y="36">ours ` +
      `(text tokens)</text>`,
  );
  out.push(
    `<rect x="${labelW + 120}" y="28" width="10" height="8" fill="#e9812b"/><text x="${labelW + 134}" ` +
      `y="36">screenshot per step</text>`,
  );
  if (peer.size)
    out.push(
      `<rect x="${labelW + 260}" y="28" width="10" height="8" fill="#999"/><text x="${labelW + 274}" y="36">` +
        `${esc(run.peer?.name ?? 'peer')}</text>`,
    );
  out.push(`<text x="${labelW + barW + 10}" y="36">time (s)</text>`);
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    out.push(
      `<text x="${labelW - 6}" y="${y + 14}" text-anchor="end" fill="${r.success ? 'black' : '#c00'}">` +
        `${esc(r.id)}${r.success ? '' : ' ✗'}</text>`,
    );
    out.push(
      `<rect x="${labelW}" y="${y + 2}" width="${x(r.tokens).toFixed(1)}" height="7" fill="#2b7de9"><title>` +
        `${r.tokens} tokens</title></rect>`,
    );
    out.push(
      `<text x="${(labelW + x(r.tokens) + 3).toFixed(1)}" y="${y + 9}" font-size="9" fill="#2b7de9">` +
        `${r.tokens}</text>`,
    );
    out.push(
      `<rect x="${labelW}" y="${y + 10}" width="${x(r.screenshotTokens).toFixed(1)}" height="7" ` +
        `fill="#e9812b"><title>${r.screenshotTokens} tokens</title></rect>`,
    );
    const p = peer.get(r.id);
    if (p !== undefined)
      out.push(
        `<rect x="${labelW}" y="${y + 18}" width="${x(p).toFixed(1)}" height="7" fill="#999"><title>${p} ` +
          `tokens</title></rect>`,
      );
    const tw = (r.ms / maxMs) * (timeW - 50);
    out.push(
      `<rect x="${labelW + barW + 10}" y="${y + 6}" width="${tw.toFixed(1)}" height="10" fill="#5a5"/><text ` +
        `x="${labelW + barW + 14 + tw}" y="${y + 15}">${(r.ms / 1000).toFixed(1)}</text>`,
    );
  });
  const step = [1000, 2000, 5000, 10000, 20000, 50000].find((t) => maxTok / t <= 6) ?? 100000;
  const ticks = Array.from({ length: Math.floor(maxTok / step) + 1 }, (_, i) => i * step);
  for (const t of ticks) {
    const tx = labelW + x(t);
    out.push(
      `<line x1="${tx}" y1="${top - 4}" x2="${tx}" y2="${top + rows.length * rowH}" stroke="#ddd"/><text x="` +
        `${tx}" y="${top + rows.length * rowH + 14}" text-anchor="middle">${t}</text>`,
    );
  }
  out.push(`<text x="${labelW}" y="${height - 8}">tokens per task (o200k; screenshots w×h/750)</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** Writes eval-<stamp>.json, eval-latest.json and eval-latest.svg under `dir`; returns their paths. */
export async function writeResults(dir: string, run: EvalRun): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const json =
    JSON.stringify({ date: new Date().toISOString(), summary: summarize(run.results), ...run }, null, 2) + '\n';
  const files = [join(dir, `eval-${stamp}.json`), join(dir, 'eval-latest.json'), join(dir, 'eval-latest.svg')];
  await writeFile(files[0] ?? '', json);
  await writeFile(files[1] ?? '', json);
  await writeFile(files[2] ?? '', chartSvg(run));
  return files;
}
