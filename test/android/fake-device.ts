/**
 * A fake phone whose shell is Debian's mksh (the shell Android runs `adb shell` commands with), with recording
 * stubs for the device programs (`input`, `am`, `uiautomator`, `dumpsys`, `getprop`, …). Each stub writes the
 * argv it received, NUL-separated, to its own file, so a test sees exactly the words the device's shell parsed
 * out of the command line the driver sent — quoting is proven on the real shell, not on our idea of it. What
 * a stub prints comes from files the test writes (`out/<program>`), so a screen is a file.
 */
import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult, FakeAdbDevice } from './fake-adb-server.js';

/** The device programs the stubs stand in for. */
export const DEVICE_PROGRAMS = [
  'input',
  'am',
  'uiautomator',
  'dumpsys',
  'getprop',
  'wm',
  'settings',
  'ime',
  'cmd',
  'pm',
  'monkey',
  'content',
  'pidof',
  'screencap',
] as const;

const STUB = `#!/bin/mksh
# Records its argv (NUL-separated) to its own file, prints out/<name>[.<first arg>] and exits with exit/<name>.
name=\${0##*/}
n=$(( $(cat "$FAKE_DEVICE/seq" 2>/dev/null || echo 0) + 1 ))
echo $n > "$FAKE_DEVICE/seq"
/usr/bin/printf '%s\\0' "$name" "$@" > "$FAKE_DEVICE/calls/$(/usr/bin/printf '%06d' $n)"
if [ -f "$FAKE_DEVICE/out/$name.$1" ]; then cat "$FAKE_DEVICE/out/$name.$1"; elif [ -f "$FAKE_DEVICE/out/$name" ]; \
then cat "$FAKE_DEVICE/out/$name"; fi
[ -f "$FAKE_DEVICE/err/$name" ] && cat "$FAKE_DEVICE/err/$name" >&2
exit $(cat "$FAKE_DEVICE/exit/$name" 2>/dev/null || echo 0)
`;

/**
 * `cat` on the phone: /proc/<pid>/<file> from the fake's own proc folder (the host's /proc is another machine's),
 * anything else the real cat. It calls /bin/cat by path, so the other stubs' own `cat` still works.
 */
const CAT = `#!/bin/mksh
case "$1" in /proc/*) f="$FAKE_DEVICE/proc/\${1#/proc/}"; [ -f "$f" ] && exec /bin/cat "$f"; echo "cat: $1: No such \
file or directory" >&2; exit 1;; esac
exec /bin/cat "$@"
`;

/** A fake phone for the fake adb server. */
export class MkshDevice implements FakeAdbDevice {
  readonly dir: string;
  state = 'device';
  features = ['shell_v2', 'cmd', 'stat_v2', 'ls_v2', 'fixed_push_mkdir', 'apex', 'abb', 'abb_exec'];
  facts: Record<string, string> = {
    product: 'sdk_gphone64_x86_64',
    model: 'sdk_gphone64_x86_64',
    device: 'emu64x',
    transport_id: '1',
  };
  /** Runs after each command, with the calls it made, so a test can change the screen (a tap opens a page). */
  onCommand?: (calls: string[][]) => void;

  constructor(readonly serial = 'emulator-5554') {
    this.dir = mkdtempSync(join(tmpdir(), 'cu-fake-phone-'));
    for (const d of ['bin', 'calls', 'out', 'err', 'exit', 'proc']) mkdirSync(join(this.dir, d));
    for (const p of DEVICE_PROGRAMS) {
      const f = join(this.dir, 'bin', p);
      writeFileSync(f, STUB);
      chmodSync(f, 0o755);
    }
    writeFileSync(join(this.dir, 'bin', 'cat'), CAT); chmodSync(join(this.dir, 'bin', 'cat'), 0o755);
  }

  /**
   * Sets what a program prints (`key` is `name` or `name.firstArg`). Written to a temp file and renamed, so a stub
   * running meanwhile (the host reads in parallel) sees the old screen or the new one, never a half-written file.
   */
  print(key: string, text: string | Buffer): void {
    const tmp = join(this.dir, 'out', `.${key}.${process.pid}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, 'out', key));
  }
  /** Sets what the phone's /proc/<pid> holds: its stat line, uid and process name. */
  proc(pid: number, processName: string, uid: number, startTicks = 123456): void {
    const dir = join(this.dir, 'proc', String(pid));
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'stat'),
      `${pid} (${processName.slice(-15)}) S 1 1 0 0 -1 1077936448 1 0 0 0 0 0 0 0 20 0 30 0 ${startTicks} ` +
        `100 10\n`,
    );
    writeFileSync(join(dir, 'status'), `Name:\t${processName.slice(-15)}\nUid:\t${uid}\t${uid}\t${uid}\t${uid}\n`);
    writeFileSync(join(dir, 'cmdline'), `${processName}\0`);
  }
  /** Sets a program's exit code and stderr. */
  failWith(name: string, code: number, stderr = ''): void {
    writeFileSync(join(this.dir, 'exit', name), String(code));
    writeFileSync(join(this.dir, 'err', name), stderr);
  }

  private history: string[][] = [];

  /** Every call since the last take, each its argv (program first), in order. */
  takeCalls(): string[][] { const h = this.history; this.history = []; return h; }

  /** Moves the stubs' call files into the history. */
  private collect(): string[][] {
    const dir = join(this.dir, 'calls');
    const calls = readdirSync(dir)
      .sort()
      .map((f) => {
        const raw = readFileSync(join(dir, f), 'utf8');
        rmSync(join(dir, f));
        return raw.split('\0').slice(0, -1);
      });
    this.history.push(...calls);
    return calls;
  }

  run(command: string): Promise<CommandResult> {
    return new Promise((resolve) => {
      execFile('mksh', ['-c', command], {
        env: { PATH: `${join(this.dir, 'bin')}:/usr/bin:/bin`, FAKE_DEVICE: this.dir, LANG: 'C.UTF-8' },
        encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 20_000,
      }, (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        const calls = this.collect();
        this.onCommand?.(calls);
        resolve({ stdout, stderr, exitCode: code });
      });
    });
  }

  dispose(): void { rmSync(this.dir, { recursive: true, force: true }); }
}
