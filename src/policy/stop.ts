/**
 * Emergency stop (docs/policy.md, "Stop and resume"). `computer-use stop`, the panel's button and the stop hotkey write
 * a
 * pause file under the home and signal every running computer-use process of that home (SIGUSR2, pids
 * registered under `<home>/run/`, checked against their start time so a reused pid is never signalled). Each
 * process also watches the home folder, so a lost signal is covered by the watch and the other way round. A
 * pause aborts the in-flight tool call through `StopController.signal`.
 *
 * The pause lives in each process's memory: the file only SETS it. Deleting the file lifts nothing (an agent
 * driving a terminal can delete files: `while :; do rm -f paused; done` must not keep it acting). Only a resume
 * record signed with the install key (`requestResume`, called by the panel and by `computer-use resume` after a
 * human answered on /dev/tty) lifts a pause, and only a pause older than the record.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  watch,
  writeFileSync,
  type FSWatcher,
} from 'node:fs';
import { join } from 'node:path';
import { cuHome } from '../paths.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { PolicyGate } from './gate.js';
import { procInfo } from '../common/proc.js';
import { installKey } from './audit.js';

const PAUSE_FILE = 'paused';
const RESUME_FILE = 'resumed';
const RUN_DIR = 'run';
const SIGNAL = 'SIGUSR2';

/** What the pause file holds. */
export interface PauseInfo { time: number; pid: number; reason?: string }

/** The error every acting tool returns while paused. */
export function pausedError(): ComputerUseError {
  return new ComputerUseError(
    'paused',
    'Computer use is paused: the user stopped it (computer-use stop). Nothing was sent. ' +
      'Tell the user; they can continue in the computer-use panel or with `computer-use resume` in a terminal of their own.',
  );
}

/** Reads the pause file of a home, or undefined when not paused. */
export function pauseInfo(home: string = cuHome()): PauseInfo | undefined {
  try { return JSON.parse(readFileSync(join(home, PAUSE_FILE), 'utf8')) as PauseInfo; } catch {
    return existsSync(join(home, PAUSE_FILE)) ? { time: 0, pid: 0 } : undefined;
  }
}

/** True while the home is paused: this process's own state when it watches the home, else the pause file. */
export function isPaused(home: string = cuHome()): boolean {
  return StopController.watching(home) ? StopController.pausedLocal(home) : pauseInfo(home) !== undefined;
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
    try {
      recorded = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { startTime?: number };
    } catch {
      /* half-written */
    }
    const live = procInfo(pid);
    // Without /proc the start time cannot be proven: rely on the folder watch instead of risking a signal to a
    // stranger.
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
  StopController.pauseLocal(home, info.time);
  return { signalled: signalAll(home), info };
}

/** A signed resume record: when a human resumed, and its HMAC under the home's install key. */
interface ResumeRecord { time: number; hmac: string }

const keyOf = (home: string): Buffer => installKey(join(home, 'plugin-data', 'computer-use', 'audit.key'));
const resumeMac = (home: string, time: number): string =>
  createHmac('sha256', keyOf(home)).update(`computer-use resume v1\0${home}\0${time}`).digest('hex');

/** The time of the home's valid resume record, or undefined (missing, forged, unreadable). */
function resumedAt(home: string): number | undefined {
  let r: ResumeRecord;
  try { r = JSON.parse(readFileSync(join(home, RESUME_FILE), 'utf8')) as ResumeRecord; } catch { return undefined; }
  if (typeof r.time !== 'number' || !Number.isFinite(r.time) || typeof r.hmac !== 'string') return undefined;
  let want: Buffer;
  try { want = Buffer.from(resumeMac(home, r.time), 'hex'); } catch { return undefined; }
  const got = Buffer.from(r.hmac, 'hex');
  return got.length === want.length && timingSafeEqual(got, want) ? r.time : undefined;
}

/**
 * Resumes every session of a home. Only human channels call this (the panel's button, `computer-use resume`
 * after its /dev/tty prompt, a host's own command typed by its user); it writes the signed resume record that
 * the other processes check, lifts this process's pause, and removes the pause file for processes started later.
 */
export function requestResume(home: string = cuHome()): { wasPaused: boolean; signalled: number } {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const wasPaused = existsSync(join(home, PAUSE_FILE)) || StopController.pausedLocal(home);
  // Strictly after every pause this process knows of (two calls in the same millisecond stay ordered).
  const time = Math.max(Date.now(), StopController.lastPause(home) + 1);
  const record: ResumeRecord = { time, hmac: resumeMac(home, time) };
  const tmp = join(home, `${RESUME_FILE}.${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(record) + '\n', { mode: 0o600 });
  renameSync(tmp, join(home, RESUME_FILE));
  try { unlinkSync(join(home, PAUSE_FILE)); } catch { /* not there */ }
  StopController.refreshAll();
  return { wasPaused, signalled: signalAll(home) };
}

/** When the pause file of a home was written (its recorded time, else its mtime), or undefined without one. */
function pauseFileTime(home: string): number | undefined {
  const path = join(home, PAUSE_FILE);
  try {
    const t = (JSON.parse(readFileSync(path, 'utf8')) as PauseInfo).time;
    if (typeof t === 'number' && Number.isFinite(t) && t > 0) return t;
  } catch { /* not JSON: the file alone still pauses */ }
  try { return statSync(path).mtimeMs; } catch { return undefined; }
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
  /** When the pause in force (or the last one) began; a resume record must be newer to lift it. */
  private pausedSince = -Infinity;
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

  /** Pauses this process's controller of `home` at once (a stop made in this process). */
  static pauseLocal(home: string, time: number): void { StopController.byHome.get(home)?.pause(time); }

  /** True when this process has a controller of `home`. */
  static watching(home: string): boolean { return StopController.byHome.has(home); }

  /** True while this process holds `home` paused (re-read first). */
  static pausedLocal(home: string): boolean { return StopController.byHome.get(home)?.paused ?? false; }

  /** When this process last saw `home` paused (-Infinity: never). */
  static lastPause(home: string): number { return StopController.byHome.get(home)?.pausedSince ?? -Infinity; }

  /** True while the home is paused (re-reads the pause file: a pause is seen even when signals and watches were lost). */
  get paused(): boolean { this.refresh(); return this.pausedNow; }

  /** Aborts (with a `paused` ComputerUseError as reason) when a stop arrives. */
  get signal(): AbortSignal { this.refresh(); return this.controller.signal; }

  /** Throws `paused` while paused. */
  throwIfPaused(): void { if (this.paused) throw pausedError(); }

  /** Called on every pause/resume transition. */
  onChange(fn: (paused: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

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
        if (name === null || String(name) === PAUSE_FILE || String(name) === RESUME_FILE) this.refresh();
      });
      this.watcher.on('error', () => { this.watcher?.close(); this.watcher = undefined; });
    } catch { /* no watch on this file system: the signal and the per-action check remain */ }
    const startTime = procInfo(process.pid)?.startTime;
    writeFileSync(
      this.runFile,
      JSON.stringify({ pid: process.pid, ...(startTime !== undefined ? { startTime } : {}) }) + '\n',
      { mode: 0o600 },
    );
    this.refresh();
  }

  private pause(time: number): void {
    this.pausedSince = Math.max(this.pausedSince, time);
    if (this.pausedNow) return;
    this.pausedNow = true;
    this.controller.abort(pausedError());
    for (const fn of this.listeners) fn(true);
  }

  /**
   * A pause file newer than the last valid resume sets the pause; a valid resume record newer than the pause
   * lifts it. A missing pause file lifts nothing.
   */
  private refresh(): void {
    const resumed = resumedAt(this.home) ?? -Infinity;
    const file = pauseFileTime(this.home);
    if (file !== undefined && file > resumed) this.pause(file);
    if (this.pausedNow && resumed > this.pausedSince) {
      this.pausedNow = false;
      this.controller = new AbortController();
      for (const fn of this.listeners) fn(false);
    }
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
