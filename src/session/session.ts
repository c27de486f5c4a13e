/**
 * A computer-use session: one device, its ref table, the window table and the last snapshot the model saw
 * of each window (what act diffs are computed against). It can be persisted so refs printed by one CLI
 * process work in the next.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AppInfo, WindowInfo } from '../engine/node.js';
import type { RefTableJSON } from '../engine/refs.js';
import { RefTable } from '../engine/refs.js';
import type { Snapshot, SnapshotOptions } from '../engine/snapshot.js';
import { buildSnapshot, isUnknownScopeError } from '../engine/snapshot.js';
import { Device, type DeviceOptions } from '../devices/manager.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { SnapshotResult } from '../protocol/methods.js';
import type { PolicyGate } from '../policy/gate.js';
import { guardDevice } from './pipeline.js';
import { allowAllGate } from '../policy/gate.js';
import type { VisualTableJSON } from './visual.js';
import { VisualTable } from './visual.js';
import type { WindowTableJSON } from './windows.js';
import { WindowTable } from './windows.js';

/** Settle defaults: quiet window after the last event, cap (seed §3.3). */
export interface SettleOptions { quietMs: number; timeoutMs: number }
/**
 * 60 ms of quiet after the app's last event once it answers pings (structural changes wait 250 ms for
 * closing animations); see EventWatcher.settle for why the ping makes a short window safe.
 */
export const DEFAULT_SETTLE: SettleOptions = { quietMs: 60, timeoutMs: 3000 };

/** Options of a session. */
export interface SessionOptions {
  device?: Device;
  deviceOptions?: DeviceOptions;
  /** File that keeps refs and last snapshots between processes (the CLI sets it). */
  statePath?: string;
  /** Default snapshot token budget. */
  maxTokens?: number;
  settle?: Partial<SettleOptions>;
  gate?: PolicyGate;
  /**
   * Screenshots as images for the model (issue 5 part 4): only when the settings allow them
   * (`allowScreenshots`) and the host says its model takes images (`imageInput`). OCR needs neither: its
   * image never leaves the machine.
   */
  screenshots?: { allowed: boolean; imageInput: boolean };
}

interface SavedState { version: 1; refs: RefTableJSON; windows: WindowTableJSON; last: [string, Snapshot][]; visual?: VisualTableJSON }

/** How a tool names a window. */
export interface WindowTarget { app?: string; window?: string }

export class Session {
  readonly device: Device;
  readonly gate: PolicyGate;
  readonly settleDefaults: SettleOptions;
  readonly maxTokens: number;
  refs = new RefTable();
  windows = new WindowTable();
  /** Captures (cN) and OCR pseudo-elements (oN). */
  visual = new VisualTable();
  /** Last full snapshot the model saw, per window id. */
  readonly last = new Map<string, Snapshot>();

  constructor(readonly options: SessionOptions = {}) {
    // Acting methods are refused on this device except through the acting pipeline (session/pipeline.ts).
    this.device = guardDevice(options.device ?? new Device(options.deviceOptions ?? {}));
    this.gate = options.gate ?? allowAllGate;
    this.settleDefaults = { ...DEFAULT_SETTLE, ...(options.settle ?? {}) };
    this.maxTokens = options.maxTokens ?? 2000;
    if (options.statePath) this.load(options.statePath);
  }

  private load(path: string): void {
    let state: SavedState;
    try { state = JSON.parse(readFileSync(path, 'utf8')) as SavedState; } catch { return; }
    if (state.version !== 1) return;
    this.refs = RefTable.fromJSON(state.refs);
    this.windows = WindowTable.fromJSON(state.windows);
    for (const [id, snap] of state.last) this.last.set(id, snap);
    if (state.visual) this.visual = VisualTable.fromJSON(state.visual);
  }

  /** Writes the state file (owner-only), atomically. */
  save(): void {
    const path = this.options.statePath;
    if (!path) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const state: SavedState = { version: 1, refs: this.refs.toJSON(), windows: this.windows.toJSON(), last: [...this.last], visual: this.visual.toJSON() };
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    renameSync(tmp, path);
  }

  async close(): Promise<void> {
    this.save();
    await this.device.close();
  }

  /** Lists apps and registers their windows; forgets refs of windows that closed. */
  async apps(): Promise<AppInfo[]> {
    const { apps } = await this.device.call('apps.list', { withWindows: true });
    const live: string[] = [];
    for (const a of apps) for (const w of a.windows) { this.windows.refOf(w); live.push(w.id); }
    this.refs.prune(live);
    for (const id of [...this.last.keys()]) if (!live.includes(id)) this.last.delete(id);
    return apps;
  }

  /**
   * Finds the window a tool means: a `wN` ref, a title, or an app's focused (else last) window. A known `wN`
   * and an app name are resolved without listing every app's windows (observe stays cheap); a window that
   * closed meanwhile fails later with window_not_found.
   */
  async resolveWindow(target: WindowTarget): Promise<WindowInfo> {
    if (target.window && /^w\d+$/.test(target.window)) {
      const known = this.windows.get(target.window);
      if (known) return known;
    }
    if (target.app && !target.window) {
      const { apps } = await this.device.call('apps.list', { withWindows: false });
      const want = target.app.toLowerCase();
      const app = apps.find((a) => a.name.toLowerCase() === want) ?? apps.find((a) => a.name.toLowerCase().includes(want))
        ?? apps.find((a) => a.executable?.toLowerCase().endsWith(`/${want}`));
      if (!app) throw new ComputerUseError('app_not_found', `No running app matches "${target.app}". Running: ${apps.map((a) => a.name).join(', ') || 'none'}. Start it with computer_launch.`);
      const { windows } = await this.device.call('windows.list', { pid: app.pid });
      for (const w of windows) this.windows.refOf(w);
      const w = windows.find((x) => x.focused) ?? windows[windows.length - 1];
      if (!w) throw new ComputerUseError('window_not_found', `${app.name} has no open window.`);
      return w;
    }
    const apps = await this.apps();
    const all = apps.flatMap((a) => a.windows);
    if (target.window) {
      const byRef = /^w\d+$/.test(target.window) ? this.windows.get(target.window) : undefined;
      const w = byRef ? all.find((x) => x.id === byRef.id) : all.find((x) => x.title === target.window) ??
        all.find((x) => x.title.toLowerCase().includes(target.window!.toLowerCase()));
      if (!w) throw new ComputerUseError('window_not_found', `No open window matches "${target.window}". Open windows: ${describeWindows(all, this.windows)}.`);
      return w;
    }
    const focused = all.find((x) => x.focused) ?? all[all.length - 1];
    if (!focused) throw new ComputerUseError('window_not_found', 'No window is open. Start an app with computer_launch.');
    return focused;
  }

  /** Reads a window's raw tree from the driver. */
  async readWindow(window: WindowInfo, opts: { bounds?: boolean } = {}): Promise<SnapshotResult> {
    return this.device.call('tree.snapshot', { window: window.id, ...(opts.bounds ? { bounds: true } : {}) });
  }

  /**
   * Builds the snapshot the model reads. The full-window snapshot is always built (refs are assigned on the
   * whole window and act diffs compare against it); scope/query only change what is rendered.
   */
  snapshotOf(raw: SnapshotResult, opts: SnapshotOptions = {}): { full: Snapshot; shown: Snapshot } {
    const input = { window: raw.window, root: raw.root };
    const full = buildSnapshot(input, this.refs, { maxTokens: opts.maxTokens ?? this.maxTokens });
    this.last.set(raw.window.id, full);
    if (opts.scope === undefined && opts.query === undefined) return { full, shown: full };
    try {
      return { full, shown: buildSnapshot(input, this.refs, { maxTokens: opts.maxTokens ?? this.maxTokens, ...opts }) };
    } catch (e) {
      if (isUnknownScopeError(e)) throw new ComputerUseError('stale_ref', e.message);
      throw e;
    }
  }

  /** Observes a window: driver read + engine pipeline. */
  async observe(target: WindowTarget, opts: SnapshotOptions = {}): Promise<{ window: WindowInfo; snapshot: Snapshot; full: Snapshot; raw: SnapshotResult }> {
    const window = await this.resolveWindow(target);
    const raw = await this.readWindow(window);
    const { full, shown } = this.snapshotOf(raw, opts);
    return { window: raw.window, snapshot: shown, full, raw };
  }
}

/** "w1 "Title" (app)" list for error messages. */
export function describeWindows(all: WindowInfo[], table: WindowTable): string {
  return all.map((w) => `${table.refOf(w)} "${w.title}" (${w.app})`).join(', ') || 'none';
}
