/**
 * Builds the fake AX library of test/macos-fake (gcc; `asan: true` adds AddressSanitizer) into a cache keyed
 * by its sources, and binds its control calls (fake_*) for tests. koffi loads a path once per process, so
 * the driver under test and these calls share the fake's state.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'node:test';
import type * as Koffi from 'koffi';
import { MacDriver, type MacDriverOptions } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';

/** The fake's C sources. */
export const FAKE_SRC = fileURLToPath(new URL('../../../test/macos-fake/', import.meta.url));
/** The assembled fixtures. */
export const MACOS_FIXTURES = fileURLToPath(new URL('../../../test/fixtures/macos/', import.meta.url));

/** Compiles the fake (once per source version) and returns the .so path. */
export function buildFakeAx(opts: { asan?: boolean } = {}): string {
  const sources = readdirSync(FAKE_SRC).filter((f) => f.endsWith('.c') || f.endsWith('.h')).sort();
  const hash = createHash('sha256');
  for (const f of sources) hash.update(f).update(readFileSync(join(FAKE_SRC, f)));
  const dir = join(tmpdir(), 'computer-use-macos-fake');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `libfakeax-${hash.digest('hex').slice(0, 12)}${opts.asan ? '-asan' : ''}.so`);
  if (existsSync(out)) return out;
  const flags = ['-std=c11', '-D_POSIX_C_SOURCE=200809L', '-Wall', '-Wextra', '-Werror', '-fPIC', '-shared', '-g',
    ...(opts.asan ? ['-fsanitize=address', '-fno-omit-frame-pointer', '-O1'] : ['-O1'])];
  const tmp = `${out}.${process.pid}.tmp`;
  execFileSync('gcc', [...flags, '-o', tmp, ...sources.filter((f) => f.endsWith('.c')).map((f) => join(FAKE_SRC, f))], {
    stdio: 'pipe',
  });
  renameSync(tmp, out); // atomic: a parallel test never loads a half-written library
  return out;
}

/** The environment that runs a driver process under AddressSanitizer against the fake. */
export function asanEnv(lib: string, tree: string, extra: Record<string, string> = {}): Record<string, string> {
  const libasan = execFileSync('gcc', ['-print-file-name=libasan.so'], { encoding: 'utf8' }).trim();
  return {
    COMPUTER_USE_MACOS_AX_LIB: lib,
    FAKE_AX_TREE: tree,
    LD_PRELOAD: libasan,
    ASAN_OPTIONS: 'detect_leaks=0:abort_on_error=1',
    ...extra,
  };
}

/** The fake's control calls. */
export interface FakeAx {
  load(path: string): number;
  reset(): void;
  /** Caller references not released yet, and which. */
  outstanding(): { count: number; report: string };
  overreleases(): number;
  prompts(): number;
  setTrusted(on: boolean): void;
  /** AXPress answers success and does nothing (a background app's ghost click). */
  setGhostPress(on: boolean): void;
  /** The app the system reports as frontmost (0: the fixture's first). */
  setFrontmost(pid: number): void;
  setHang(pid: number, ms: number): void;
  timeoutS(pid: number): number;
  log(): string;
  clearLog(): void;
  appSetString(id: string, attr: string, value: string): void;
  destroy(id: string): void;
  reusePid(pid: number, startSec: number): void;
  failObservers(on: boolean): void;
  observerCount(): number;
  /** Brings an app's windows in front of the others (the system-wide hit test finds them first). */
  raise(pid: number): void;
  /** A process's KERN_PROCARGS2 bytes as given; null: sysctl refuses (another user's process). */
  setProcargs(pid: number, bytes: Uint8Array | null): void;
  /** The 1024 path bytes of its working directory as given (unterminated if so); null: proc_pidinfo refuses. */
  setCwd(pid: number, bytes: Uint8Array | null): void;
  /** kern.argmax: KERN_PROCARGS2 copies at most this many bytes. */
  setArgmax(n: number): void;
  /** Another app's copy: a flavor's bytes on item `item` (1 = the first); the driver no longer owns the pasteboard. */
  pasteboardPut(item: number, flavor: string, bytes: Uint8Array | string): void;
  /** Another app clears the pasteboard. */
  pasteboardClear(): void;
  /** The bytes of a flavor on the pasteboard (the first item that has it), or undefined. */
  pasteboardGet(flavor: string): Buffer | undefined;
  pasteboardItems(): number;
  /** Screen Recording granted or not (CGPreflightScreenCaptureAccess, window titles in the window list, images). */
  setScreenRecording(on: boolean): void;
  /** The window list's frames of one app's windows move dx points away from what AX reports. */
  cgShift(pid: number, dx: number): void;
}

/** Throws unless every reference a driver was given or made was released exactly once (no leak, no over-release). */
export function assertBalanced(fake: FakeAx): void {
  const left = fake.outstanding();
  if (left.count !== 0) throw new Error(`references the driver still owns (${left.count}): ${left.report}`);
  if (fake.overreleases() !== 0) throw new Error(`${fake.overreleases()} references were released more than once`);
}

/** Binds the control calls of the fake at `lib`. */
export function fakeAx(lib: string): FakeAx {
  const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
  const l = koffi.load(lib);
  const f = {
    load: l.func('int fake_load(const char *path)'),
    reset: l.func('void fake_reset()'),
    outstanding: l.func('long fake_outstanding(_Out_ uint8_t *report, int len)'),
    overreleases: l.func('long fake_overreleases()'),
    prompts: l.func('long fake_prompts()'),
    setTrusted: l.func('void fake_set_trusted(int trusted)'),
    setGhostPress: l.func('void fake_set_ghost_press(int on)'),
    setFrontmost: l.func('void fake_set_frontmost(int pid)'),
    setHang: l.func('int fake_set_hang(int pid, int ms)'),
    timeoutS: l.func('double fake_timeout_s(int pid)'),
    log: l.func('long fake_log(_Out_ uint8_t *buf, int len)'),
    clearLog: l.func('void fake_clear_log()'),
    appSetString: l.func('int fake_app_set_string(const char *id, const char *attr, const char *value)'),
    destroy: l.func('int fake_destroy(const char *id)'),
    reusePid: l.func('int fake_reuse_pid(int pid, long start)'),
    failObservers: l.func('void fake_fail_observers(int fail)'),
    observerCount: l.func('int fake_observer_count()'),
    raise: l.func('int fake_raise(int pid)'),
    setProcargs: l.func('int fake_set_procargs(int pid, const uint8_t *bytes, int len)'),
    setCwd: l.func('int fake_set_cwd(int pid, const uint8_t *bytes, int len)'),
    setArgmax: l.func('void fake_set_argmax(int n)'),
    pasteboardPut: l.func('int fake_pasteboard_put(int item, const char *flavor, const uint8_t *bytes, int len)'),
    pasteboardClear: l.func('void fake_pasteboard_clear()'),
    pasteboardGet: l.func('int fake_pasteboard_get(const char *flavor, _Out_ uint8_t *buf, int len)'),
    pasteboardItems: l.func('int fake_pasteboard_items()'),
    setScreenRecording: l.func('void fake_set_screen_recording(int on)'),
    cgShift: l.func('void fake_cg_shift(int pid, double dx)'),
  };
  const text = (buf: Uint8Array): string => Buffer.from(buf).toString('utf8').replace(/\0[\s\S]*$/, '');
  return {
    load: (path) => {
      const n = f.load(path) as number;
      if (n < 0) throw new Error(`fake_load ${path} failed`);
      return n;
    },
    reset: () => f.reset(),
    outstanding: () => {
      const buf = new Uint8Array(4096);
      const count = f.outstanding(buf, buf.length) as number;
      return { count, report: text(buf) };
    },
    overreleases: () => f.overreleases() as number,
    prompts: () => f.prompts() as number,
    setTrusted: (on) => f.setTrusted(on ? 1 : 0),
    setGhostPress: (on) => f.setGhostPress(on ? 1 : 0),
    setFrontmost: (pid) => f.setFrontmost(pid),
    setHang: (pid, ms) => {
      f.setHang(pid, ms);
    },
    timeoutS: (pid) => f.timeoutS(pid) as number,
    log: () => {
      const n = f.log(null, 0) as number;
      const buf = new Uint8Array(n + 1);
      f.log(buf, buf.length);
      return text(buf);
    },
    clearLog: () => f.clearLog(),
    appSetString: (id, attr, value) => {
      if (f.appSetString(id, attr, value) !== 0) throw new Error(`no fake element ${id}`);
    },
    destroy: (id) => {
      if (f.destroy(id) !== 0) throw new Error(`no fake element ${id}`);
    },
    reusePid: (pid, start) => {
      f.reusePid(pid, start);
    },
    failObservers: (on) => f.failObservers(on ? 1 : 0),
    observerCount: () => f.observerCount() as number,
    raise: (pid) => {
      if (f.raise(pid) !== 0) throw new Error(`no fake app ${pid}`);
    },
    setProcargs: (pid, bytes) => {
      if (f.setProcargs(pid, bytes ?? new Uint8Array(1), bytes ? bytes.length : -1) !== 0)
        throw new Error(`no fake app ${pid}`);
    },
    setCwd: (pid, bytes) => {
      if (f.setCwd(pid, bytes ?? new Uint8Array(1), bytes ? bytes.length : -1) !== 0)
        throw new Error(`no fake app ${pid}`);
    },
    setArgmax: (n) => f.setArgmax(n),
    pasteboardPut: (item, flavor, bytes) => {
      const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
      if (f.pasteboardPut(item, flavor, b, b.length) !== 0) throw new Error('fake_pasteboard_put');
    },
    pasteboardClear: () => f.pasteboardClear(),
    pasteboardGet: (flavor) => {
      const n = f.pasteboardGet(flavor, null, 0) as number;
      if (n < 0) return undefined;
      const buf = new Uint8Array(Math.max(n, 1));
      f.pasteboardGet(flavor, buf, n);
      return Buffer.from(buf.subarray(0, n));
    },
    pasteboardItems: () => f.pasteboardItems() as number,
    setScreenRecording: (on) => f.setScreenRecording(on ? 1 : 0),
    cgShift: (pid, dx) => f.cgShift(pid, dx),
  };
}

/**
 * The usual test setup: the fake built and loaded with `fixture` before each test, a driver started on it by
 * `start()`, and after each test the driver closed and every reference proven released once.
 */
export function fakeDriverTests(
  fixture: string,
  defaults: MacDriverOptions = {},
): { fake: FakeAx; start: (opts?: MacDriverOptions) => MacDriver } {
  const lib = buildFakeAx();
  const fake = fakeAx(lib);
  let driver: MacDriver | undefined;
  beforeEach(() => { fake.load(join(MACOS_FIXTURES, fixture)); });
  afterEach(() => {
    driver?.close();
    driver = undefined;
    assertBalanced(fake);
  });
  return {
    fake,
    start: (opts = {}) =>
      (driver = new MacDriver({ libraries: oneLibrary(lib), messagingTimeoutS: 0.3, ...defaults, ...opts })),
  };
}
