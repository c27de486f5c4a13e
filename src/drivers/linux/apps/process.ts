/**
 * What /proc tells about an app process: its executable, command line, the environment it was started
 * with, and which UI toolkit it loaded. The Linux driver uses it for apps off the accessibility bus (x11apps.ts)
 * and doctor to explain an empty tree; it lives with the driver, since drivers import no doctor.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** UI toolkits doctor knows a fix for. */
export type Toolkit = 'chromium' | 'electron' | 'java' | 'qt' | 'gtk4' | 'gtk3' | 'gtk2' | 'unknown';

/** One process as /proc shows it. */
export interface ProcessFacts {
  pid: number;
  comm: string;
  executable?: string;
  argv: string[];
  /** The variables doctor cares about, from /proc/pid/environ. */
  env: Record<string, string>;
  toolkit: Toolkit;
}

const ENV_KEYS = [
  'QT_ACCESSIBILITY',
  'QT_LINUX_ACCESSIBILITY_ALWAYS_ON',
  'GSK_RENDERER',
  'NO_AT_BRIDGE',
  'GTK_MODULES',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'JAVA_TOOL_OPTIONS',
  'AT_SPI_BUS_ADDRESS',
];

function read(path: string): string | undefined {
  try { return readFileSync(path, 'utf8'); } catch { return undefined; }
}

/** Which toolkit a process runs, from its executable and the libraries it mapped. */
export function detectToolkit(exe: string | undefined, argv: readonly string[], maps: string): Toolkit {
  const name = basename(exe ?? argv[0] ?? '').toLowerCase();
  if (name === 'java' || /\/java$/.test(argv[0] ?? '') || /libjvm\.so/.test(maps)) return 'java';
  if (/^(chromium|chrome|google-chrome|brave|msedge)/.test(name)) return 'chromium';
  // Electron apps carry Chromium's resource packs next to their own executable.
  if (
    exe &&
    (existsSync(join(dirname(exe), 'chrome_100_percent.pak')) ||
      existsSync(join(dirname(exe), 'resources', 'app.asar')))
  )
    return 'electron';
  if (/libQt[56]Core|libQt6Gui|libQt5Gui/.test(maps)) return 'qt';
  if (/libgtk-4\.so/.test(maps)) return 'gtk4';
  if (/libgtk-3\.so/.test(maps)) return 'gtk3';
  // GTK 2's library is named for its X11 backend.
  if (/libgtk-x11-2\.0\.so/.test(maps)) return 'gtk2';
  return 'unknown';
}

/** Facts of one process, or undefined when it is gone or not ours to read. */
export function processFacts(pid: number): ProcessFacts | undefined {
  const comm = read(`/proc/${pid}/comm`)?.trim();
  if (comm === undefined) return undefined;
  let executable: string | undefined;
  try { executable = readlinkSync(`/proc/${pid}/exe`); } catch { /* not ours */ }
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  const env: Record<string, string> = {};
  for (const kv of (read(`/proc/${pid}/environ`) ?? '').split('\0')) {
    const i = kv.indexOf('=');
    const k = kv.slice(0, i);
    if (i > 0 && ENV_KEYS.includes(k)) env[k] = kv.slice(i + 1);
  }
  const facts: ProcessFacts = {
    pid,
    comm,
    argv,
    env,
    toolkit: detectToolkit(executable, argv, read(`/proc/${pid}/maps`) ?? ''),
  };
  if (executable) facts.executable = executable;
  return facts;
}

/** Processes whose name or executable matches `name` (main processes first: helpers with --type= last). */
export function findProcesses(name: string): ProcessFacts[] {
  const want = name.toLowerCase();
  const out: ProcessFacts[] = [];
  let pids: string[] = [];
  try { pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return out; }
  for (const d of pids) {
    const pid = Number(d);
    if (pid === process.pid) continue;
    const comm = read(`/proc/${pid}/comm`)?.trim().toLowerCase();
    if (comm === undefined) continue;
    let exe = '';
    try { exe = basename(readlinkSync(`/proc/${pid}/exe`)).toLowerCase(); } catch { /* not ours */ }
    const argv0 = basename((read(`/proc/${pid}/cmdline`) ?? '').split('\0')[0] ?? '').toLowerCase();
    if (
      comm === want ||
      exe === want ||
      argv0 === want ||
      (want.length >= 4 && (comm.includes(want) || exe.includes(want)))
    ) {
      const f = processFacts(pid);
      if (f) out.push(f);
    }
  }
  return out.sort(
    (a, b) =>
      Number(a.argv.some((x) => x.startsWith('--type='))) - Number(b.argv.some((x) => x.startsWith('--type='))) ||
      a.pid - b.pid,
  );
}

/** A command-line flag's value (`--name=value`), `true` for a bare `--name`, undefined when absent. */
export function flagOf(argv: readonly string[], name: string): string | true | undefined {
  for (const a of argv) {
    if (a === `--${name}`) return true;
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}
