#!/usr/bin/env node
/**
 * `npm run eval`: runs the evaluation tasks in a fresh sandbox desktop (`--desktop current|auto` to
 * use another) with the scripted solver or a model, prints a table and writes bench/results/eval-<date>.json,
 * eval-latest.json and an
 * SVG chart. Options: --tasks a,b · --solver scripted|model · --base-url URL --model NAME --api-key-env VAR ·
 * --keep-text (every tool text in the JSON) · --no-peer (skip the computer-use-mcp baseline) · --max-steps N (tool
 * calls per task, 40) · --task-timeout S (per task: 120 s scripted, 3600 s model) · --request-timeout S (per model
 * request, 1860 s: longer than the relay's 30 min wait, so a model answering by hand through relay.ts fits).
 * A model solver's tasks each leave a transcript in <out>/transcripts/ (transcript.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createComputer, type Confirmer, type ConfirmRequest } from '../../src/index.js';
import { textTokens } from '../../src/demo/tokens.js';
import { functionTools, modelSolver } from './model.js';
import { PEER_NAME, startPeer, type Peer } from './peer.js';
import { printTable, writeResults } from './report.js';
import { runTask, type Solver, type TaskResult } from './runner.js';
import { solveScripted } from './scripted.js';
import { selectTasks } from './tasks/index.js';

/** A fresh sandbox by default, so runs compare (same screen, no windows of the user's); `current` inside one. */
function desktopOf(v: string | undefined): 'sandbox' | 'current' | 'auto' {
  if (v === 'sandbox' || v === 'current' || v === 'auto') return v;
  throw new Error(`--desktop ${v}: sandbox (default), current or auto`);
}

/** o200k tokens of our tool list as a model receives it. */
function toolListTokens(): number {
  return textTokens(JSON.stringify(functionTools()));
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string', default: '' },
      solver: { type: 'string', default: 'scripted' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string', default: 'OPENAI_API_KEY' },
      'keep-text': { type: 'boolean', default: false },
      'no-peer': { type: 'boolean', default: false },
      out: { type: 'string', default: 'bench/results' },
      desktop: { type: 'string', default: 'sandbox' },
      'max-steps': { type: 'string', default: '40' },
      'task-timeout': { type: 'string' },
      'request-timeout': { type: 'string', default: '1860' },
    },
  });
  const seconds = (flag: string, v: string): number => {
    const n = Number(v);
    if (!(n > 0)) throw new Error(`--${flag} ${v}: a positive number of seconds`);
    return n * 1000;
  };
  const tasks = selectTasks((values.tasks ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  let solver: Solver;
  let solverName = values.solver ?? 'scripted';
  const byModel = solverName === 'model';
  if (solverName === 'scripted') solver = solveScripted;
  else if (solverName === 'model') {
    const baseUrl = values['base-url'];
    const model = values.model;
    if (!baseUrl || !model)
      throw new Error(
        '--solver model needs --base-url and --model (and the API key in the env var --api-key-env names)',
      );
    solver = modelSolver({
      baseUrl,
      model,
      apiKey: process.env[values['api-key-env'] ?? 'OPENAI_API_KEY'],
      requestTimeoutMs: seconds('request-timeout', values['request-timeout'] ?? '1860'),
    });
    solverName = `model:${model}`;
  } else throw new Error(`unknown solver ${solverName}: scripted or model`);
  const maxSteps = Number(values['max-steps']);
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new Error(`--max-steps ${values['max-steps']}: a positive whole number`);
  // A model (above all one answering by hand through the relay) takes minutes per task; the scripted solver seconds.
  const timeoutMs = seconds('task-timeout', values['task-timeout'] ?? (byModel ? '3600' : '120'));
  const outDir = values.out ?? 'bench/results';

  // The eval's own policy files: it allows its apps without touching the user's settings or audit log.
  const home = await mkdtemp(join(tmpdir(), 'cu-eval-home-'));
  // The apps' data folder of this run (GTK's recent files above all): a file chooser's "Recent" list held 28 rows
  // of whatever the machine's tests had opened, ~1,000 tokens that varied from machine to machine.
  process.env['XDG_DATA_HOME'] = join(home, 'data');
  const allowApps = [...new Set(tasks.flatMap((t) => [t.appName, ...(t.allowApps ?? [])]))];
  // The eval's human: approves every question the policy asks and keeps it, so a task can require that it was
  // asked (claws-mail's Send). accept-edits: allow-listed apps act without a question, irreversible acts still ask.
  const asked: ConfirmRequest[] = [];
  const human: Confirmer = {
    interactive: true,
    confirm: async (q) => {
      asked.push(q);
      return q.reason === 'app_first_use' ? 'allow_session' : 'allow_once';
    },
  };
  const computer = await createComputer({
    // The terminal tasks run commands: the eval's human (whoever starts it) allows them for the terminal.
    desktop: desktopOf(values.desktop),
    mode: 'accept-edits',
    confirmer: human,
    allowApps,
    allowCommands: ['xfce4-terminal'],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    statePath: join(home, 'state.json'),
    showActivity: false,
  });
  const results: TaskResult[] = [];
  const t0 = performance.now();
  let peer: Peer | undefined;
  let peerNote = 'skipped (--no-peer)';
  if (!values['no-peer']) {
    peer = await startPeer(computer.desktop.env).catch((e: unknown) => {
      peerNote = `cannot run here: ${(e as Error).message}`;
      return undefined;
    });
    if (peer)
      peerNote =
        'one of its screenshots of this desktop per step (it acts blind: click/type return {ok:true}), ' +
        'measured through its MCP tool after each task; it cannot solve tasks here (no vision model)';
  }
  try {
    for (const task of tasks) {
      const r = await runTask(computer, task, {
        solverName, solver, asked, keepText: values['keep-text'] ?? false, maxSteps, timeoutMs,
        ...(byModel ? { transcriptDir: join(outDir, 'transcripts') } : {}), ...(peer ? { peer } : {}),
      });
      results.push(r);
      process.stdout.write(
        `${r.success ? 'PASS' : 'FAIL'} ${r.id}: ${r.steps} steps, ${r.tokens} tokens (screenshots ` +
          `${r.screenshotTokens}), ${r.ms} ms — ${r.detail}` +
          `${r.transcript ? ` (transcript ${r.transcript})` : ''}\n`,
      );
    }
  } finally {
    await peer?.close().catch(() => undefined);
    await computer.close();
    await rm(home, { recursive: true, force: true });
  }
  printTable(results);
  const files = await writeResults(outDir, {
    solver: solverName, durationMs: Math.round(performance.now() - t0), results, toolListTokens: toolListTokens(),
    peer: { name: PEER_NAME, note: peerNote, ...(peer ? { toolListTokens: peer.toolListTokens } : {}) },
  });
  process.stdout.write(`\nwrote ${files.join(', ')}\n`);
  return results.every((r) => r.success) ? 0 : 1;
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`eval failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exitCode = 2;
});
