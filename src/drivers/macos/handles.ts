/**
 * Opaque handles for AX elements (the ids the protocol carries). A handle names one retained AXUIElementRef
 * plus the identity it was issued for (pid, process start time, role, subrole, identifier), which the driver
 * re-checks before every act. The same element read again (CFEqual) keeps its handle, so an unchanged element
 * keeps its ref. Handles expire: one unused for `ttlMs`, and the least recently used beyond `max`, is released,
 * and an act on it is a stale ref. Handles carry a per-process session tag, so a handle from an earlier driver
 * process never resolves.
 */
import { randomBytes } from 'node:crypto';
import { sameRef } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';

/** What a handle was issued for. */
export interface HandleFacts {
  kind: 'window' | 'node';
  pid: number;
  /** Process start time (ms since the epoch), from libproc. */
  startTime: number;
  /** The window handle the element belongs to (nodes). */
  window?: string;
  role: string;
  subrole?: string;
  identifier?: string;
  /** A window's CGWindowID, when exactly one CG window of its process has its frame and title (capture.ts). */
  windowNumber?: number;
}

/** One live handle. */
export interface HandleEntry extends HandleFacts { id: string; ref: CFRef; hash: number; lastUsed: number }

/** Options of the table. */
export interface HandleTableOptions { ttlMs?: number; max?: number; now?: () => number }

export class HandleTable {
  private readonly byId = new Map<string, HandleEntry>();
  private readonly byHash = new Map<number, HandleEntry[]>();
  private readonly session = randomBytes(3).toString('hex');
  private counter = 0;
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(private readonly api: MacApi, opts: HandleTableOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 30 * 60_000;
    this.max = opts.max ?? 50_000;
    this.now = opts.now ?? Date.now;
  }

  /** Live handles. */
  get size(): number { return this.byId.size; }

  /** The handle of a (borrowed) element: its existing one when the same element was issued before, else a new one that retains it. */
  issue(ref: CFRef, facts: HandleFacts): string {
    const hash = this.api.CFHash(ref);
    const bucket = this.byHash.get(hash) ?? [];
    const same = bucket.find(
      (e) =>
        e.kind === facts.kind &&
        e.pid === facts.pid &&
        e.startTime === facts.startTime &&
        e.role === facts.role &&
        sameRef(this.api, e.ref, ref),
    );
    if (same) { same.lastUsed = this.now(); return same.id; }
    const id = `${facts.kind === 'window' ? 'w' : 'e'}${this.session}.${++this.counter}`;
    const entry: HandleEntry = { ...facts, id, ref: this.api.CFRetain(ref), hash, lastUsed: this.now() };
    this.byId.set(id, entry);
    bucket.push(entry);
    this.byHash.set(hash, bucket);
    if (this.byId.size > this.max) this.evictOldest(this.byId.size - this.max);
    return id;
  }

  /** The live entry of a handle; an expired one is released and reads as missing. */
  get(id: string): HandleEntry | undefined {
    const e = this.byId.get(id);
    if (!e) return undefined;
    if (this.now() - e.lastUsed > this.ttlMs) { this.drop(e); return undefined; }
    e.lastUsed = this.now();
    return e;
  }

  /** Releases every handle unused for longer than the TTL. */
  sweep(): void {
    const limit = this.now() - this.ttlMs;
    for (const e of [...this.byId.values()]) if (e.lastUsed < limit) this.drop(e);
  }

  /** Releases the handle (its element is gone or its process ended). */
  forget(id: string): void { const e = this.byId.get(id); if (e) this.drop(e); }

  /** Releases every handle of a process. */
  forgetPid(pid: number): void { for (const e of [...this.byId.values()]) if (e.pid === pid) this.drop(e); }

  /** Releases everything (driver shutdown). */
  clear(): void { for (const e of [...this.byId.values()]) this.drop(e); }

  private evictOldest(n: number): void {
    const oldest = [...this.byId.values()].sort((a, b) => a.lastUsed - b.lastUsed).slice(0, n);
    for (const e of oldest) this.drop(e);
  }

  private drop(e: HandleEntry): void {
    if (!this.byId.delete(e.id)) return;
    const bucket = this.byHash.get(e.hash) ?? [];
    const rest = bucket.filter((x) => x !== e);
    if (rest.length) this.byHash.set(e.hash, rest); else this.byHash.delete(e.hash);
    this.api.CFRelease(e.ref);
  }
}
