/**
 * Emergency stop (issue 3 part 8). `computer-use stop` writes a pause file under the home and signals every
 * running computer-use process of that home (SIGUSR2, pids registered under `<home>/run/`, checked against
 * their start time so a reused pid is never signalled). Each process also watches the home folder, so a lost
 * signal is covered by the watch and the other way round; and the gate reads the pause file before every
 * action, so nothing is dispatched while paused even if both were lost. A pause aborts the in-flight tool
 * call through `StopController.signal`; `resume` removes the file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { cuHome } from '../paths.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { PolicyGate } from './gate.js';
import { procInfo } from '../common/proc.js';

const PAUSE_FILE = 'paused';
const RUN_DIR = 'run';
const SIGNAL = 'SIGUSR2';

/** What the pause file holds. */
export interface PauseInfo { time: number; pid: number; reason?: string }

/** The error every acting tool returns while paused. */
export function pausedError(): ComputerUseError {
  return new ComputerUseError('paused', 'Computer use is paused: the user stopped it (computer-use stop). Nothing was sent. ' +
    'Tell the user; they can continue with `computer-use resume`.');
}

/** Reads the pause file of a home, or undefined when not paused. */
export function pauseInfo(home: string = cuHome()): PauseInfo | undefined {
  try { return JSON.parse(readFileSync(join(home, PAUSE_FILE), 'utf8')) as PauseInfo; } catch {
    return existsSync(join(home, PAUSE_FILE)) ? { time: 0, pid: 0 } : undefined;
  }
}

/** Signals the registered processes of a home; removes registrations of processes that are gone. */
function signalAll(home: string): number {
  const dir = join(home, RUN_DIR);
  let n = 0;
  let names: string[] = [];
  try { names = readdirSync(dir); } catch { return 0; }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    let recorded: { startTime?: number } = {};
    try { recorded = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { startTime?: number }; } catch { /* half-written */ }
    const live = procInfo(pid);
    // Without /proc the start time cannot be proven: rely on the folder watch instead of risking a signal to a stranger.
    if (!live || live.startTime === undefined || live.startTime !== recorded.startTime) {
      if (process.platform === 'linux' && !live) rmSync(join(dir, name), { force: true });
      continue;
    }
    if (pid === process.pid) { StopController.refreshAll(); n++; continue; }
    try { process.kill(pid, SIGNAL); n++; } catch { rmSync(join(dir, name), { force: true }); }
  }
  return n;
}

/** Pauses every session of a home; returns how many running processes were signalled. */
export function requestStop(home: string = cuHome(), reason?: string): { signalled: number; info: PauseInfo } {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const info: PauseInfo = { time: Date.now(), pid: process.pid, ...(reason ? { reason } : {}) };
  writeFileSync(join(home, PAUSE_FILE), JSON.stringify(info) + '\n', { mode: 0o600 });
  return { signalled: signalAll(home), info };
}

/** Resumes every session of a home. */
export function requestResume(home: string = cuHome()): { wasPaused: boolean; signalled: number } {
  let wasPaused = true;
  try { unlinkSync(join(home, PAUSE_FILE)); } catch { wasPaused = false; }
  return { wasPaused, signalled: signalAll(home) };
}

/**
 * The pause state of one home in this process, shared by every computer of that home (refcounted with
 * `acquire`/`release`). `signal` aborts when a stop arrives; after resume a fresh signal is handed out.
 */
export class StopController {
  private static readonly byHome = new Map<string, StopController>();
  private static signalHandler: (() => void) | undefined;

  private refs = 0;
  private watcher: FSWatcher | undefined;
  private controller = new AbortController();
  private pausedNow = false;
  private readonly runFile: string;
  private readonly listeners = new Set<(paused: boolean) => void>();

  private constructor(readonly home: string) {
    this.runFile = join(home, RUN_DIR, String(process.pid));
  }

  /** The controller of a home, started (watch, signal handler, registration) on first acquire. */
  static acquire(home: string = cuHome()): StopController {
    let c = StopController.byHome.get(home);
    if (!c) { c = new StopController(home); StopController.byHome.set(home, c); }
    if (c.refs++ === 0) c.start();
    return c;
  }

  /** Re-reads the pause file of every home this process watches. */
  static refreshAll(): void { for (const c of StopController.byHome.values()) c.refresh(); }

  /** True while the home is paused (reads the pause file: the truth even when signals and watches were lost). */
  get paused(): boolean { this.refresh(); return this.pausedNow; }

  /** Aborts (with a `paused` ComputerUseError as reason) when a stop arrives. */
  get signal(): AbortSignal { this.refresh(); return this.controller.signal; }

  /** Throws `paused` while paused. */
  throwIfPaused(): void { if (this.paused) throw pausedError(); }

  /** Called on every pause/resume transition. */
  onChange(fn: (paused: boolean) => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  /** Drops one user; the last one stops watching and unregisters the process. */
  release(): void {
    if (this.refs === 0 || --this.refs > 0) return;
    this.watcher?.close();
    this.watcher = undefined;
    rmSync(this.runFile, { force: true });
    StopController.byHome.delete(this.home);
    if (StopController.byHome.size === 0 && StopController.signalHandler) {
      process.off(SIGNAL, StopController.signalHandler);
      process.off('exit', StopController.onExit);
      StopController.signalHandler = undefined;
    }
  }

  private static onExit(): void {
    for (const c of StopController.byHome.values()) rmSync(c.runFile, { force: true });
  }

  private start(): void {
    mkdirSync(join(this.home, RUN_DIR), { recursive: true, mode: 0o700 });
    // The handler is installed before the pid is registered: an unhandled SIGUSR2 would end the process.
    if (!StopController.signalHandler) {
      StopController.signalHandler = () => StopController.refreshAll();
      process.on(SIGNAL, StopController.signalHandler);
      process.on('exit', StopController.onExit);
    }
    try {
      this.watcher = watch(this.home, { persistent: false }, (_event, name) => {
        if (name === null || String(name) === PAUSE_FILE) this.refresh();
      });
      this.watcher.on('error', () => { this.watcher?.close(); this.watcher = undefined; });
    } catch { /* no watch on this file system: the signal and the per-action check remain */ }
    const startTime = procInfo(process.pid)?.startTime;
    writeFileSync(this.runFile, JSON.stringify({ pid: process.pid, ...(startTime !== undefined ? { startTime } : {}) }) + '\n', { mode: 0o600 });
    this.refresh();
  }

  private refresh(): void {
    const now = existsSync(join(this.home, PAUSE_FILE));
    if (now === this.pausedNow) return;
    this.pausedNow = now;
    if (now) this.controller.abort(pausedError());
    else this.controller = new AbortController();
    for (const fn of this.listeners) fn(now);
  }
}

/** Puts the pause check in front of any gate (for callers that bring their own gate). */
export function withStop(gate: PolicyGate, stop: StopController): PolicyGate {
  return {
    check: async (req) => {
      stop.throwIfPaused();
      const d = await gate.check(req);
      if (stop.paused) { d.done('rejected', 'paused'); throw pausedError(); }
      return d;
    },
    visible: (app) => gate.visible(app),
  };
}
