/**
 * Runs one task: a fresh temp dir, setup, the solver through a Recorder, the checker, then cleanup of every app
 * process the task started (so tasks do not see each other's windows).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Computer, ConfirmRequest } from '../../src/index.js';
import { Recorder, type EvalStep } from './recorder.js';
import type { SolverOutcome } from './scripted.js';
import type { CheckResult, EvalTask, TaskContext } from './task.js';
import { transcriptOf, writeTranscript } from './transcript.js';

/** A solver: gets the task, the setup's vars and the recorder it must call tools through. */
export type Solver = (task: EvalTask, vars: Record<string, string>, rec: Recorder) => Promise<SolverOutcome>;

/** The outcome of one task. */
export interface TaskResult {
  id: string;
  app: string;
  goal: string;
  hard?: string;
  solver: string;
  success: boolean;
  /** The checker's words, or why the solver stopped. */
  detail: string;
  /** Tool calls. */
  steps: number;
  /** o200k tokens of every tool result the model read. */
  tokens: number;
  /** One screenshot of the app's windows per step (w×h/750 each). */
  screenshotTokens: number;
  /**
   * The screenshot MCP peer's cost for the same steps (one of its screenshots per step), or why it was not
   * measured.
   */
  peerTokens?: number;
  peerNote?: string;
  /** Wall time of the solver, accounting excluded. */
  ms: number;
  /** Tool time alone. */
  toolMs: number;
  trace: Omit<EvalStep, 'text'>[] | EvalStep[];
  /** The transcript file written for a model solver's task. */
  transcript?: string;
}

async function sleep(ms: number): Promise<void> { await new Promise((r) => setTimeout(r, ms)); }

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

/** Stops the processes the task's apps run as (new since `before`): TERM, then KILL after a grace. */
async function stopNewApps(computer: Computer, before: ReadonlySet<number>, names: readonly string[]): Promise<void> {
  const apps = await computer.session.apps().catch(() => []);
  const pids = apps
    .filter((a) => !before.has(a.pid) && (names.includes(a.name) || a.windows.length > 0))
    .map((a) => a.pid);
  for (const pid of pids) { try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } }
  for (let i = 0; i < 30 && pids.some(alive); i++) await sleep(100);
  for (const pid of pids.filter(alive)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
}

export interface RunOptions {
  solverName: string;
  solver: Solver;
  /** Keep each step's text in the trace. */
  keepText?: boolean;
  /** Whole-task deadline (default 120 s). */
  timeoutMs?: number;
  maxSteps?: number;
  /** Where to write the task's transcript (transcript.ts) when the solver held a conversation with a model. */
  transcriptDir?: string;
  /** Every question the policy asked so far (the runner hands each task the ones asked during it). */
  asked?: readonly ConfirmRequest[];
  /** Looks through the peer once after the solver (its screenshot of the task's end state). */
  peer?: { look(): Promise<{ tokens: number }> };
}

export async function runTask(computer: Computer, task: EvalTask, opts: RunOptions): Promise<TaskResult> {
  const dir = await mkdtemp(join(tmpdir(), `cu-eval-${task.id}-`));
  const asked = opts.asked ?? [];
  const askedBefore = asked.length;
  const ctx: TaskContext = { dir, env: computer.desktop.env, computer, asked: () => asked.slice(askedBefore) };
  const before = new Set((await computer.session.apps().catch(() => [])).map((a) => a.pid));
  const names = [task.appName, ...(task.allowApps ?? [])];
  const rec = new Recorder(computer, names, opts.maxSteps ?? 40);
  let teardown: (() => Promise<void>) | undefined;
  let check: CheckResult = { ok: false, detail: 'not checked' };
  const t0 = performance.now();
  let wall = 0;
  let peerTokens: number | undefined;
  let peerNote: string | undefined;
  try {
    const setup = await task.setup(ctx);
    teardown = setup.teardown;
    // Each task is a conversation of its own, as a model meets it: refs from e1, no window printed before.
    computer.session.newConversation();
    const start = performance.now();
    const deadline = opts.timeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      opts.solver(task, setup.vars, rec),
      new Promise<never>((_r, reject) => {
        timer = setTimeout(() => reject(new Error(`task deadline of ${deadline} ms passed`)), deadline);
      }),
      // A solver still running past its deadline is cut off from the tools (eval unit 'a solver that outlives').
    ]).finally(() => {
      clearTimeout(timer);
      rec.end('the task ended');
    });
    wall = performance.now() - start - rec.accountingMs;
    if (opts.peer) {
      await opts.peer.look().then(
        (l) => {
          peerTokens = l.tokens * rec.steps.length;
        },
        (e: unknown) => {
          peerNote = `peer: ${(e as Error).message}`;
        },
      );
    }
    check = outcome.finished
      ? await task.check(ctx, setup.vars, outcome.answers)
      : { ok: false, detail: `solver stopped: ${outcome.reason ?? '?'}` };
  } catch (e) {
    wall = performance.now() - t0 - rec.accountingMs;
    check = { ok: false, detail: `error: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await teardown?.().catch(() => undefined);
    await stopNewApps(computer, before, names);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
  const steps = rec.steps;
  const result: TaskResult = {
    id: task.id, app: task.app, goal: task.goal, ...(task.hard ? { hard: task.hard } : {}), solver: opts.solverName,
    success: check.ok, detail: check.detail,
    steps: steps.length,
    tokens: steps.reduce((a, s) => a + s.tokens, 0),
    screenshotTokens: steps.reduce((a, s) => a + s.screenshotTokens, 0),
    ...(peerTokens !== undefined ? { peerTokens } : {}), ...(peerNote ? { peerNote } : {}),
    ms: Math.round(wall),
    toolMs: steps.reduce((a, s) => a + s.ms, 0),
    trace: opts.keepText ? steps : steps.map(({ text: _t, ...s }) => s),
  };
  if (opts.transcriptDir && rec.conversation.messages.length > 0) {
    result.transcript = await writeTranscript(
      opts.transcriptDir,
      transcriptOf(new Date(), result, steps, rec.conversation),
    );
  }
  return result;
}
