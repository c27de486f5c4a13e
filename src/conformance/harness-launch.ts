/**
 * Starting the kit's harnesses on the machine the kit runs on, for the platform the driver says it reads: the
 * page opened in that platform's browser, and the native harness built from its source under harness/ with
 * what the OS has (python3-gi, the .NET Framework's csc.exe, osascript, the service APK's activity over adb).
 * Every command is an argv of the kit's own making (the page's loopback address, the package's paths): nothing
 * from a driver or an app reaches one. What was started is stopped, and what was built removed, when the run ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tmpdir } from 'node:os';
import { frameworkCsc, type Compiler } from '../drivers/host.js';

/** One command the launch runs. */
export interface LaunchStep {
  /** What it does, for messages. */
  what: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Run to completion (a build, an adb call) before the next step; else left running until the run ends. */
  wait?: boolean;
}

/** What the machine offers a launch plan. */
export interface LaunchHost {
  /** The full path of a program on PATH, if any. */
  which(program: string): string | undefined;
  /** True when the kit runs as root (Chromium then starts only without its sandbox). */
  root: boolean;
  /** True when the file exists. */
  exists(path: string): boolean;
  /** A folder of the run's own (a browser profile, a build). */
  scratch: string;
  harnessDir: string;
  /** The C# compiler of the Windows helper, on Windows. */
  csc?: Compiler | undefined;
  /** The phone the driver reads (hello facts.serial), for adb's -s. */
  serial?: string | undefined;
}

/** The steps that open the page and start the native harness for `platform`, or why it cannot be done here. */
export interface LaunchPlan {
  page: LaunchStep[] | string;
  native: LaunchStep[] | string;
}

/** The Chromium family on Linux: it shows a page to AT-SPI only with --force-renderer-accessibility. */
const CHROMIUMS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];

/** The references the WinForms harness needs beyond the helper's. */
export const WINFORMS_REFERENCES = ['-r:System.Windows.Forms.dll', '-r:System.Drawing.dll'];

/** The Android harness activity, in the service APK. */
export const ANDROID_HARNESS_ACTIVITY = 'dev.computeruse/.android.HarnessActivity';

function linuxPage(url: string, h: LaunchHost): LaunchStep[] | string {
  const chromium = CHROMIUMS.map((c) => h.which(c)).find((p) => p !== undefined);
  if (chromium) {
    return [
      {
        what: 'open the page in Chromium',
        command: chromium,
        args: [
          ...(h.root ? ['--no-sandbox'] : []),
          '--force-renderer-accessibility',
          '--no-first-run',
          '--no-default-browser-check',
          '--password-store=basic',
          '--disable-background-networking',
          `--user-data-dir=${join(h.scratch, 'profile')}`,
          '--new-window',
          url,
        ],
      },
    ];
  }
  const firefox = h.which('firefox');
  // Firefox serves AT-SPI when it is told an assistive technology runs.
  if (firefox)
    return [
      {
        what: 'open the page in Firefox',
        command: firefox,
        args: ['--new-instance', '--profile', join(h.scratch, 'profile'), url],
        env: { GNOME_ACCESSIBILITY: '1' },
      },
    ];
  const open = h.which('xdg-open');
  if (open) return [{ what: 'open the page in the default browser', command: open, args: [url] }];
  return 'no browser found (chromium, google-chrome, firefox or xdg-open)';
}

/** The launch plan of the page at `url` (its loopback `port`) and the native harness of `platform`. */
export function launchPlan(platform: string, url: string, port: number, h: LaunchHost): LaunchPlan {
  const dir = h.harnessDir;
  switch (platform) {
    case 'linux': {
      // The system's Python is the one with the distribution's python3-gi; a python3 earlier on PATH (a venv) may lack
      // it.
      const python = h.exists('/usr/bin/python3') ? '/usr/bin/python3' : h.which('python3');
      return {
        page: linuxPage(url, h),
        native: python
          ? [{ what: 'start the GTK harness', command: python, args: [join(dir, 'gtk.py')] }]
          : 'python3 is not on PATH',
      };
    }
    case 'windows': {
      const exe = join(h.scratch, 'computer-use-harness.exe');
      // explorer.exe hands an address to the default browser (Edge unless the user chose another).
      return {
        page: [{ what: 'open the page in the default browser', command: 'explorer.exe', args: [url] }],
        native: h.csc
          ? [
              {
                what: `compile harness/winforms.cs with ${h.csc.id}`,
                command: h.csc.command,
                args: [...h.csc.args(exe, [join(dir, 'winforms.cs')]), ...WINFORMS_REFERENCES],
                wait: true,
              },
              { what: 'start the WinForms harness', command: exe, args: [] },
            ]
          : 'no csc.exe under %WINDIR%\\Microsoft.NET (the compiler the Windows helper is built with)',
      };
    }
    case 'macos':
      return {
        page: [{ what: 'open the page in Safari', command: '/usr/bin/open', args: ['-a', 'Safari', url] }],
        native: [
          {
            what: 'start the AppKit harness',
            command: '/usr/bin/osascript',
            args: ['-l', 'JavaScript', join(dir, 'appkit.js')],
          },
        ],
      };
    case 'android': {
      const adb = h.which('adb');
      if (!adb) return { page: 'adb is not on PATH', native: 'adb is not on PATH' };
      // The serial comes from the driver: used only when it looks like one, so it cannot read as an adb option.
      const device = h.serial !== undefined && /^[A-Za-z0-9][\w.:-]{0,99}$/.test(h.serial) ? ['-s', h.serial] : [];
      // The phone reaches the kit's loopback port through adb reverse.
      return {
        page: [
          {
            what: "forward the page's port to the phone",
            command: adb,
            args: [...device, 'reverse', `tcp:${port}`, `tcp:${port}`],
            wait: true,
          },
          {
            what: "open the page in the phone's browser",
            command: adb,
            args: [...device, 'shell', 'am', 'start', '-a', 'android.intent.action.VIEW', '-d', url],
            wait: true,
          },
        ],
        native: [
          {
            what: 'start the harness activity of the service APK',
            command: adb,
            args: [...device, 'shell', 'am', 'start', '-n', ANDROID_HARNESS_ACTIVITY],
            wait: true,
          },
        ],
      };
    }
    default:
      return {
        page: `the kit opens no browser for platform ${JSON.stringify(platform)}`,
        native: `no native harness for platform ${JSON.stringify(platform)}`,
      };
  }
}

/** The first `program` on PATH (with Windows' executable extensions), like a shell's lookup. */
export function whichOnPath(
  program: string,
  path = process.env['PATH'] ?? '',
  exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''],
): string | undefined {
  for (const d of path.split(delimiter).filter(Boolean))
    for (const e of exts) if (existsSync(join(d, program + e))) return join(d, program + e);
  return undefined;
}

/** The harness processes of one run, and how to stop them. */
export class LaunchedHarnesses {
  private readonly children: { what: string; child: ChildProcess; said: () => string }[] = [];
  readonly scratch = mkdtempSync(join(tmpdir(), 'cu-harness-'));

  /** The machine as a launch plan sees it. */
  host(harnessDir: string, serial?: string): LaunchHost {
    return {
      serial,
      which: (p) => whichOnPath(p),
      exists: existsSync,
      root: process.getuid?.() === 0,
      scratch: this.scratch,
      harnessDir,
      csc: process.platform === 'win32' ? frameworkCsc(process.env['WINDIR'] ?? 'C:\\Windows') : undefined,
    };
  }

  /** Runs the steps in order; the problem of the first that failed, else undefined. */
  async run(steps: readonly LaunchStep[]): Promise<string | undefined> {
    for (const s of steps) {
      const child = spawn(s.command, s.args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: false,
        env: { ...process.env, ...s.env },
      });
      let said = '';
      const keep = (c: Buffer): void => {
        said = (said + c.toString('utf8')).slice(-4000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const failedToStart = new Promise<string>((resolve) =>
        child.once('error', (e) => resolve(`${s.what}: ${e.message}`)),
      );
      if (!s.wait) {
        this.children.push({ what: s.what, child, said: () => said });
        const early = await Promise.race([
          failedToStart,
          new Promise<undefined>((r) => setTimeout(() => r(undefined), 200)),
        ]);
        if (early) return early;
        continue;
      }
      const exited = new Promise<string | undefined>((resolve) =>
        child.once('close', (code) => resolve(code === 0 ? undefined : `${s.what}: exit ${code}\n${said.trim()}`)),
      );
      const timeout = new Promise<string>((resolve) =>
        setTimeout(() => {
          child.kill();
          resolve(`${s.what}: no answer within 120 s`);
        }, 120_000).unref(),
      );
      const problem = await Promise.race([failedToStart, exited, timeout]);
      if (problem) return problem;
    }
    return undefined;
  }

  /** The started processes that have exited, each with the last of what it said. */
  exited(): string[] {
    return this.children
      .filter(({ child: c }) => c.exitCode !== null || c.signalCode !== null)
      .map(
        (c) =>
          `${c.what}: exited (${c.child.exitCode ?? c.child.signalCode})` +
          `${c.said().trim() ? `: ${c.said().trim().slice(-600)}` : ''}`,
      );
  }

  /** Stops every process started (with its children) and removes the scratch folder. */
  stop(): void {
    for (const { child: c } of this.children) {
      if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) continue;
      try {
        if (process.platform === 'win32') c.kill();
        else process.kill(-c.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    // A browser may still hold its profile for a moment: removing what is left is best effort.
    try {
      rmSync(this.scratch, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 });
    } catch {
      /* left in tmp */
    }
  }
}
