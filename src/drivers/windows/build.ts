/**
 * The Windows helper, compiled on first use and cached by hash (docs/platforms.md, "Windows"): the embedded C# sources
 * are
 * written to `<data dir>/drivers/<sha256>/` and compiled there with the .NET Framework's own `csc.exe`, which
 * every Windows 10/11 has (`%WINDIR%\Microsoft.NET\Framework64\v4.0.30319\csc.exe`, the compiler PowerShell's
 * Add-Type uses), so nothing is installed. The hash covers every source and the compiler's identity: a changed
 * source makes a new entry, an old entry is never overwritten. `COMPUTER_USE_DRIVER_WINDOWS` may name a
 * prebuilt helper instead. Platform-neutral: on Linux, Mono's `mcs` stands in for csc in the tests.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComputerUseError } from '../../protocol/errors.js';
import type { HelperSource } from './helper-sources.generated.js';

/** The helper's file name inside its cache entry. */
export const HELPER_EXE = 'cu-windows-helper.exe';

/** A C# 5 compiler and how to call it. */
export interface Compiler {
  /** Names the compiler in the cache hash and in messages ("csc (.NET Framework 4)", "mcs"). */
  readonly id: string;
  readonly command: string;
  /** The argv that compiles `sources` into `out`: C# 5, warnings as errors, mscorlib and System only. */
  args(out: string, sources: readonly string[]): string[];
}

/** Options both csc and mcs take (the `-` spelling works for both). */
const COMMON_ARGS = [
  '-nologo',
  '-noconfig',
  '-langversion:5',
  '-warnaserror+',
  '-target:exe',
  '-optimize+',
  '-r:System.dll',
];

/** The .NET Framework's csc.exe under `windir` (64-bit Framework first, as Add-Type picks it). */
export function frameworkCsc(windir: string, exists: (p: string) => boolean = existsSync): Compiler | undefined {
  for (const fw of ['Framework64', 'Framework']) {
    const command = `${windir}\\Microsoft.NET\\${fw}\\v4.0.30319\\csc.exe`;
    // -utf8output: csc writes its messages in the console's OEM code page otherwise, and a path under a home named
    // José would reach the user garbled.
    if (exists(command)) {
      return { id: `csc (.NET Framework 4, ${fw})`, command,
        args: (out, sources) => [...COMMON_ARGS, '-utf8output', '-platform:anycpu', `-out:${out}`, ...sources] };
    }
  }
  return undefined;
}

/** Mono's C# compiler, the stand-in for csc where there is no Windows (tests, CI on Linux). */
export function monoMcs(command = 'mcs'): Compiler {
  return { id: 'mcs', command, args: (out, sources) => [...COMMON_ARGS, `-out:${out}`, ...sources] };
}

/** The cache key: every source's name and bytes, and the compiler's identity. */
export function helperHash(sources: readonly HelperSource[], compiler: Compiler): string {
  const h = createHash('sha256');
  h.update(`compiler\0${compiler.id}\0`);
  for (const s of [...sources].sort((a, b) => (a.name < b.name ? -1 : 1)))
    h.update(`${s.name}\0${Buffer.byteLength(s.text)}\0${s.text}`);
  return h.digest('hex');
}

/** Where a helper came from, for hello's facts and doctor. */
export interface BuiltHelper {
  /** The helper executable. */
  path: string;
  /** 'prebuilt' (COMPUTER_USE_DRIVER_WINDOWS), 'cached' (built before) or 'compiled' (built now). */
  origin: 'prebuilt' | 'cached' | 'compiled';
  /** The cache entry's hash (absent for a prebuilt helper). */
  hash?: string;
}

/** Options of ensureHelper. */
export interface EnsureOptions {
  sources: readonly HelperSource[];
  /** `<data dir>/drivers`: one folder per hash below it. */
  driversDir: string;
  compiler: Compiler | undefined;
  /** `COMPUTER_USE_DRIVER_WINDOWS`, when set. */
  prebuilt?: string | undefined;
  /** Most ms a compile may take (csc cold start is a few seconds). */
  timeoutMs?: number;
}

/**
 * The helper to run: the prebuilt one, the cached build for these sources, or a new build. Two drivers building
 * at once each compile in their own folder and the first rename wins; the loser's build is discarded.
 */
export async function ensureHelper(o: EnsureOptions): Promise<BuiltHelper> {
  if (o.prebuilt) {
    if (!existsSync(o.prebuilt))
      throw new ComputerUseError(
        'internal',
        `COMPUTER_USE_DRIVER_WINDOWS names ${o.prebuilt}, which does not exist; unset it to compile the helper ` +
          `from the package`,
      );
    return { path: o.prebuilt, origin: 'prebuilt' };
  }
  if (!o.compiler) {
    throw new ComputerUseError(
      'internal',
      'no C# compiler found: the Windows helper is compiled with the .NET Framework 4 csc.exe ' +
        '(%WINDIR%\\Microsoft.NET\\Framework64\\v4.0.30319\\csc.exe), which every Windows 10/11 has; run ' +
        '`computer-use doctor`, or set COMPUTER_USE_DRIVER_WINDOWS to a prebuilt helper',
    );
  }
  const hash = helperHash(o.sources, o.compiler);
  const entry = join(o.driversDir, hash);
  const exe = join(entry, HELPER_EXE);
  if (existsSync(exe)) return { path: exe, origin: 'cached', hash };
  mkdirSync(o.driversDir, { recursive: true });
  const work = join(o.driversDir, `${hash}.building-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(work, { recursive: true });
  try {
    const files = o.sources.map((s) => {
      if (!/^[A-Za-z0-9_]+\.cs$/.test(s.name))
        throw new ComputerUseError('internal', `helper source name ${JSON.stringify(s.name)} is not a plain .cs name`);
      const p = join(work, s.name);
      writeFileSync(p, s.text);
      return p;
    });
    const out = join(work, HELPER_EXE);
    const r = await run(o.compiler.command, o.compiler.args(out, files), o.timeoutMs ?? 120_000);
    if (r.code !== 0 || !existsSync(out)) {
      const said = compilerSaid(`${r.stdout}\n${r.stderr}`, work);
      throw new ComputerUseError(
        'internal',
        `the Windows helper did not compile with ${o.compiler.id} (exit ${r.code ?? r.signal}):\n` +
          `${said}\nRun \`computer-use doctor\`; or set COMPUTER_USE_DRIVER_WINDOWS to a prebuilt helper.`,
      );
    }
    try { renameSync(work, entry); } catch (e) {
      if (!existsSync(exe)) throw e; // another driver finished the same build first: use its entry
    }
    return { path: existsSync(exe) ? exe : join(work, HELPER_EXE), origin: 'compiled', hash };
  } finally {
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}

/** Lines of compiler output a failed build shows: at most this many. */
const SAID_LINES = 40;

/**
 * What the compiler said, as its own lines: its diagnostics (`file(line,col): error CSnnnn: ...`) first, so a long
 * list of other output cannot push the error out of the message, with the build folder (under the user's home)
 * cut from each path so a line reads `Program.cs(12,5): error CS1002: ; expected`.
 */
export function compilerSaid(output: string, workDir: string): string {
  const cut = (l: string): string => l.split(`${workDir}\\`).join('').split(`${workDir}/`).join('').trimEnd();
  const lines = output.split(/\r?\n/).map(cut).filter((l) => l.trim() !== '');
  const diagnostic = (l: string): boolean => /\b(error|warning) CS\d{4}\b/.test(l);
  const error = (l: string): boolean => diagnostic(l) && /\berror CS/.test(l);
  const warning = (l: string): boolean => diagnostic(l) && !error(l);
  const ordered = [...lines.filter(error), ...lines.filter(warning), ...lines.filter((l) => !diagnostic(l))];
  const shown = ordered.slice(0, SAID_LINES);
  const more = ordered.length - shown.length;
  return more > 0 ? `${shown.join('\n')}\n(${more} more lines)` : shown.join('\n');
}

/** Runs a compiler with argv (no shell), collecting its output, bounded in time. */
function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    // LIB is a search path for references: csc warns (CS1668, an error under -warnaserror) for each folder in it that
    // does not exist, which a Visual Studio install left behind is enough for. The helper references nothing from it.
    const env = { ...process.env };
    delete env['LIB'];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, env });
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (c: string) => { if (stdout.length < 65_536) stdout += c; });
    child.stderr.setEncoding('utf8').on('data', (c: string) => { if (stderr.length < 65_536) stderr += c; });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, stdout, stderr: `${stderr}${e.message}` });
    });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }); });
  });
}
