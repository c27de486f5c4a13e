/**
 * `apps.resolveLaunch` on Linux (docs/policy.md, "One app, one allow entry"): which program a launch will really run,
 * resolved on
 * the machine it runs on. A name proves nothing: a symlink `notes` → keepassxc, a copy of it under another name,
 * `sh -c "exec keep""assxc"`, `env`, `nohup`, `setsid`, an interpreter's `os.execv`, or `gio launch x.desktop`
 * all start the same password manager. So the command is resolved through PATH to its realpath, wrappers are
 * seen through, .desktop files are read, and the resulting file's content is compared with the programs on
 * PATH (identity.ts `contentOf`). Every name met on the way is reported: the policy may deny by any of them.
 * Where the target cannot be proven (code strings, unknown wrappers, a default handler), the result says why.
 * This module reports facts only; the host's policy decides.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import type { Launcher, ResolveLaunchParams, ResolveLaunchResult } from '../../../protocol/identity.js';
import { contentOf } from '../../common/content.js';
import { launcherFacts } from './commands.js';
import { packageOf } from './packages.js';
import { terminalRunsNoCommand } from './terminal-options.js';

/** What a launch resolves to. */
export interface LaunchResolution {
  /** Realpath of the program that will run, when proven (for a script: its interpreter). */
  executable?: string;
  /** The argument vector from that program on (for an interpreter: which script it runs). */
  argv: string[];
  /** Every name met on the way: commands, paths, realpaths, .desktop Name=, argument words. Each may deny. */
  names: string[];
  /** Why the program that will run cannot be proven. */
  unproven?: string;
  /** The program runs another program named in its arguments (a terminal's -e/-x, an exec wrapper). */
  runsCommand?: boolean;
  /** Launcher scripts met on the way (realpaths, in order): Debian's /usr/bin/chromium, LibreOffice's soffice. */
  scripts: string[];
}

/** Where and how to resolve. */
export interface LaunchContext {
  /** The PATH the launch will search (default this process's). */
  path?: string;
  /** Working directory for relative paths (default this process's). */
  cwd?: string;
  /** Directories holding `applications/*.desktop` (default XDG_DATA_HOME and XDG_DATA_DIRS). */
  dataDirs?: string[];
  /** Collects the launcher scripts met (resolveLaunch fills it). */
  scripts?: string[];
}

const MAX_DEPTH = 8;
const SHELLS = /^(sh|bash|dash|zsh|ksh|mksh|ash|posh|yash)$/;
/** Interpreters whose code may come from the command line; with a script file they run that file. */
const INTERPRETERS =
  /^(python[0-9.]*m?|pypy[0-9.]*|perl[0-9.]*|node|nodejs|bun|deno|ruby[0-9.]*|php[0-9.]*|lua[0-9.]*|luajit|gjs|tclsh[0-9.]*|wish[0-9.]*|osascript|guile[0-9.]*|awk|gawk|mawk|nawk|java)$/;
/** Interpreter options that put code (not a file) on the command line, or run a module found elsewhere. */
const CODE_OPTIONS =
  /^(-c|-e|-E|-m|-p|-r|-x|--eval|--print|--require|--import|--command|--exec)$|^--(eval|print|require|import)=|^-[a-zA-Z]*[ceE]$/;
/** Interpreter options that take the next word as their value (so it is not the script). */
const VALUE_OPTIONS = /^(-X|-W|-I|-M|-C|--loader|--cp|-cp|-classpath|--classpath|-jar)$/;
/** Terminal emulators: with no command in their arguments they run the user's shell, a program the user knows. */
const TERMINALS =
  /^(xterm|uxterm|rxvt-unicode|stterm|x-terminal-emulator|gnome-terminal|konsole|xfce4-terminal|lxterminal|mate-terminal|terminator|tilix|kitty|alacritty|foot|wezterm|urxvt|rxvt|st)$/;
/**
 * A terminal under another name: Debian's `xfce4-terminal.wrapper` (x-terminal-emulator's target, a perl script
 * that hands its -e to the terminal), or any program of a terminal's package (xterm's lxterm and koi8rxterm).
 * Judged by name only, it was a packaged script its terminal's allow entry covers (launch-terminal.test.ts).
 */
function terminalLauncher(real: string): boolean {
  if (TERMINALS.test(basename(real).replace(/\.wrapper$/, ''))) return true;
  return terminalPackages(real).length > 0;
}

const terminalPackages = (real: string): string[] =>
  (packageOf(real) ?? '').split('/').filter((p) => TERMINALS.test(p));

/** Programs that run another program named somewhere in their arguments, in ways not modelled here. */
const EXEC_WRAPPERS =
  /^(script|watch|xargs|flock|firejail|bwrap|flatpak|flatpak-spawn|dbus-launch|dbus-run-session|systemd-run|strace|ltrace|gdb|valgrind|xvfb-run|time|chrt|taskset|unshare|nsenter|chroot|runuser|setpriv|capsh|prlimit|torsocks|proxychains4?|sg|newgrp|catchsegv|parallel|at|batch|tmux|screen|ssh|expect|start-stop-daemon|busybox|toybox|exec|command|builtin|eval|sudo|doas|su|pkexec|kde-open5?|kioclient5?|exo-open|gnome-open|mimeopen|see|run-mailcap|sensible-browser|sensible-editor|x-www-browser|www-browser|open|dex|gtk4-launch|ld-linux.*|ld\.so|rlwrap|emacs|vim?|nvim|make|npx|npm|pnpm|yarn|uv|pipx|cargo|go)$/;

/**
 * Resolves a launch's argument vector to the program that will run. Never throws: what cannot be proven is
 * reported in `unproven`.
 */
export function resolveLaunch(argv: readonly string[], ctx: LaunchContext = {}): LaunchResolution {
  const names: string[] = [];
  const scripts: string[] = [];
  const out = step([...argv], ctx.cwd ?? process.cwd(), { ...ctx, scripts }, names, 0);
  const res: LaunchResolution = { argv: out.argv, names: [...new Set(names.filter((n) => n.trim() !== ''))], scripts };
  if (out.executable) res.executable = out.executable;
  if (out.unproven) res.unproven = out.unproven;
  if (out.runsCommand) res.runsCommand = true;
  return res;
}

interface Step { executable?: string; argv: string[]; unproven?: string; runsCommand?: boolean }

function step(argv: string[], cwd: string, ctx: LaunchContext, names: string[], depth: number): Step {
  const [cmd, ...args] = argv;
  if (cmd === undefined || cmd === '') return { argv, unproven: 'the command is empty' };
  names.push(cmd, ...args.flatMap(wordsOf));
  if (depth > MAX_DEPTH) return { argv, unproven: 'too many nested wrappers' };
  const found = which(cmd, ctx.path, cwd);
  // Not found here: it cannot start here either (the driver has this environment), and a device elsewhere
  // proves its own programs; the name is all there is (names still deny, and the started window is checked).
  if (!found)
    return depth === 0 ? { argv } : { argv, unproven: `"${basename(cmd)}" (reached through a wrapper) was not found` };
  const real = realOr(found);
  names.push(found, real);
  // The name it is called by matters as well as the file (multi-call binaries look at argv[0]).
  const prog = basename(real);
  const called = basename(cmd);
  const is = (re: RegExp): boolean => re.test(prog) || re.test(called);
  const next = (rest: string[], dir = cwd): Step => step(rest, dir, ctx, names, depth + 1);

  if (is(/^env$/)) return envStep(args, cwd, ctx, names, depth, real);
  if (is(/^nohup$/))
    return args[0] === '--' ? next(args.slice(1)) : args.length ? next(args) : { executable: real, argv: [real] };
  if (is(/^setsid$/)) return skipOptions(args, /^(-c|-f|-w|--ctty|--fork|--wait)$/, undefined, real, next);
  if (is(/^nice$/)) return skipOptions(args, /^(-[0-9]+|--adjustment=.*)$/, /^(-n|--adjustment)$/, real, next);
  if (is(/^ionice$/)) return skipOptions(args, /^(-t|--ignore)$/, /^(-c|-n|--class|--classdata)$/, real, next);
  if (is(/^stdbuf$/)) return skipOptions(args, /^(-[ioe].+|--(input|output|error)=.*)$/, /^(-[ioe])$/, real, next);
  if (is(/^timeout$/)) {
    const rest = skipWords(
      args,
      /^(--preserve-status|--foreground|-v|--verbose|--kill-after=.*|--signal=.*|-k.+|-s.+)$/,
      /^(-k|-s)$/,
    );
    return rest === undefined || rest.length < 2
      ? { argv, unproven: 'timeout with options that cannot be read' }
      : next(rest.slice(1));
  }
  if (is(SHELLS)) return shellStep(args, cwd, real, names, next);
  if (is(/^(xdg-open|gio|gtk-launch|gtk4-launch)$/))
    return openerStep(prog === 'gio' || called === 'gio' ? 'gio' : called, args, cwd, ctx, names, real, next);
  if (is(INTERPRETERS)) return interpreterStep(args, cwd, real, names);
  if (is(TERMINALS) || terminalLauncher(real)) {
    // A terminal started as the user starts it (no command): the terminal itself runs (through its launcher
    // script, if it is one). With anything else in its arguments it may run a program named there (-e, -x,
    // --command, a tab's command): that is not proven.
    if (terminalRunsNoCommand([prog, called, ...terminalPackages(real)], args))
      return shebangStep(real, args, ctx, cwd, names);
    return {
      argv,
      unproven: `${called} with these arguments runs a command named in them, which cannot be proven here`,
      runsCommand: true,
    };
  }
  if (is(EXEC_WRAPPERS))
    return { argv, unproven: `${called} runs a program named in its arguments, which cannot be proven here` };
  return shebangStep(real, args, ctx, cwd, names);
}

/** `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]… COMMAND…` */
function envStep(args: string[], cwd: string, ctx: LaunchContext, names: string[], depth: number, real: string): Step {
  let dir = cwd;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') return tail(args.slice(i + 1));
    if (/^(-i|-0|-v|--ignore-environment|--null|--debug|-)$/.test(a) || /^--unset=|^-u.+/.test(a)) continue;
    if (a === '-u' || a === '--unset') { i++; continue; }
    if (a === '-C' || a === '--chdir') { dir = resolve(dir, args[++i] ?? ''); continue; }
    if (a.startsWith('--chdir=')) { dir = resolve(dir, a.slice(8)); continue; }
    if (a === '-S' || a === '--split-string' || a.startsWith('--split-string=') || /^-S./.test(a)) {
      const s = a === '-S' || a === '--split-string' ? args[++i] ?? '' : a.startsWith('-S') ? a.slice(2) : a.slice(15);
      const words = shellWords(s);
      if (!words) return { argv: args, unproven: 'env -S with a string that cannot be read' };
      return tail([...words, ...args.slice(i + 1)]);
    }
    if (a.startsWith('-')) return { argv: args, unproven: `env option ${a} is not understood` };
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      // PATH=… changes where the command is looked up: resolve with it.
      if (a.startsWith('PATH=')) ctx = { ...ctx, path: a.slice(5) };
      continue;
    }
    return tail(args.slice(i));
  }
  return { executable: real, argv: [real] };
  function tail(rest: string[]): Step {
    return rest.length ? step(rest, dir, ctx, names, depth + 1) : { executable: real, argv: [real] };
  }
}

/** Skips a wrapper's own options, then resolves the command after them. */
function skipOptions(
  args: string[],
  flag: RegExp,
  withValue: RegExp | undefined,
  real: string,
  next: (rest: string[]) => Step,
): Step {
  const rest = skipWords(args, flag, withValue);
  if (rest === undefined) return { argv: args, unproven: `options of ${basename(real)} that cannot be read` };
  return rest.length ? next(rest) : { executable: real, argv: [real] };
}

function skipWords(args: string[], flag: RegExp, withValue: RegExp | undefined): string[] | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') return args.slice(i + 1);
    if (withValue?.test(a)) { i++; continue; }
    if (flag.test(a)) continue;
    if (a.startsWith('-') && a !== '-') return undefined;
    return args.slice(i);
  }
  return [];
}

/** `sh -c 'exec prog args'`: the string's words when it is a plain command; a script file otherwise. */
function shellStep(args: string[], cwd: string, real: string, names: string[], next: (rest: string[]) => Step): Step {
  let code = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--' || a === '-') {
      const s = args[i + 1];
      return s === undefined ? { executable: real, argv: [real] } : scriptStep(real, s, cwd, args.slice(i + 1));
    }
    if (/^[-+]o$/.test(a) || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') { i++; continue; }
    if (/^[-+][a-zA-Z]+$/.test(a)) { if (a.includes('c')) code = true; continue; }
    if (a.startsWith('--')) continue;
    if (!code) return scriptStep(real, a, cwd, args.slice(i));
    names.push(...wordsOf(a));
    const words = shellWords(a);
    if (!words)
      return {
        argv: args,
        unproven: 'shell code that is more than one plain command (variables, pipes, lists, globs, substitutions)',
      };
    // Leading assignments, `exec` and `command` leave the same program to run.
    let w = words;
    while (w.length) {
      const h = w[0] ?? '';
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(h)) {
        if (h.startsWith('PATH=')) return { argv: args, unproven: 'shell code that changes PATH' };
        w = w.slice(1);
      } else if (/^(exec|command|nohup|builtin)$/.test(h)) {
        w = w.slice(1);
        // `exec -a NAME prog` sets argv[0]: NAME is not the program.
        while (w.length > 1 && /^-[a-zA-Z]+$/.test(w[0] ?? '')) w = w.slice(w[0] === '-a' ? 2 : 1);
      } else break;
    }
    return w.length ? next(w) : { executable: real, argv: [real] };
  }
  return { executable: real, argv: [real] };
}

/** A script file run by an interpreter: the interpreter is the executable, the script names the app. */
function scriptStep(interp: string, script: string, cwd: string, rest: string[]): Step {
  const path = realOr(isAbsolute(script) ? script : resolve(cwd, script));
  if (!existsSync(path)) return { argv: [interp, ...rest], unproven: `the script ${basename(script)} was not found` };
  return { executable: interp, argv: [interp, path, ...rest.slice(1)] };
}

/** python3 app.py (a script: proven as interpreter + script) or python3 -c CODE (code: cannot be proven). */
function interpreterStep(args: string[], cwd: string, real: string, names: string[]): Step {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (CODE_OPTIONS.test(a)) {
      names.push(...args.slice(i + 1).flatMap(wordsOf));
      return {
        argv: [real, ...args],
        unproven:
          `${basename(real)} ${a.split('=')[0] ?? a} runs code given on the command line; what it starts ` +
          `cannot be proven`,
      };
    }
    if (a === '--') {
      const s = args[i + 1];
      return s === undefined ? { executable: real, argv: [real] } : scriptStep(real, s, cwd, args.slice(i + 1));
    }
    if (VALUE_OPTIONS.test(a)) { i++; continue; }
    if (a.startsWith('-') && a !== '-') continue;
    if (a === '-')
      return { argv: [real, ...args], unproven: `${basename(real)} reads its program from standard input` };
    return scriptStep(real, a, cwd, args.slice(i));
  }
  return { executable: real, argv: [real] };
}

/** `xdg-open x.desktop`, `gio launch x.desktop`, `gio open x`, `gtk-launch app-id`: the .desktop file's Exec=. */
function openerStep(
  tool: string,
  args: string[],
  cwd: string,
  ctx: LaunchContext,
  names: string[],
  real: string,
  next: (rest: string[]) => Step,
): Step {
  const words = args.filter((a) => !a.startsWith('-'));
  let target: string | undefined;
  let extra: string[] = [];
  if (tool === 'gio') {
    const sub = words[0];
    if (sub !== 'launch' && sub !== 'open') return { executable: real, argv: [real, ...args] };
    target = words[1];
    extra = words.slice(2);
    if (sub === 'open' && target !== undefined && !target.endsWith('.desktop'))
      return {
        argv: args,
        unproven: `gio open hands "${basename(target)}" to its default application, which cannot be proven`,
      };
  } else if (/^gtk4?-launch$/.test(tool)) {
    target = words[0];
    extra = words.slice(1);
    if (target !== undefined && !target.includes('/')) target = findDesktopFile(target, ctx) ?? target;
  } else {
    target = words[0];
    if (target !== undefined && !target.endsWith('.desktop'))
      return {
        argv: args,
        unproven: `xdg-open hands "${basename(target)}" to its default application, which cannot be proven`,
      };
  }
  if (target === undefined) return { executable: real, argv: [real, ...args] };
  const file = resolve(cwd, target);
  const entry = readDesktopEntry(file);
  if (!entry) return { argv: args, unproven: `the desktop file ${basename(target)} cannot be read` };
  names.push(...entry.names);
  if (entry.tryExec)
    names.push(
      entry.tryExec,
      ...(which(entry.tryExec, ctx.path, cwd) ? [realOr(which(entry.tryExec, ctx.path, cwd) ?? '')] : []),
    );
  if (entry.dbus)
    return {
      argv: args,
      unproven: `${basename(target)} is started over D-Bus (DBusActivatable), which cannot be proven`,
    };
  if (!entry.exec)
    return { argv: args, unproven: `the desktop file ${basename(target)} has no Exec= line that can be read` };
  return next([...entry.exec, ...extra]);
}

/** The fields of a .desktop file the resolution needs. */
interface DesktopEntry { exec?: string[]; tryExec?: string; names: string[]; dbus: boolean }

/** Reads the [Desktop Entry] group: Exec= (split into words, field codes removed), TryExec=, Name[…]=. */
export function readDesktopEntry(file: string): DesktopEntry | undefined {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { return undefined; }
  const entry: DesktopEntry = { names: [], dbus: false };
  let inGroup = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) { inGroup = line === '[Desktop Entry]'; continue; }
    if (!inGroup || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = unescapeDesktop(line.slice(eq + 1).trim());
    if (key === 'Exec') {
      const words = shellWords(value.replace(/%[fFuUdDnNickvm]/g, '').replace(/%%/g, '%'));
      if (words?.length) entry.exec = words;
    } else if (key === 'TryExec') entry.tryExec = value;
    else if (/^(Name|GenericName|X-GNOME-FullName|StartupWMClass|Icon)(\[.*\])?$/.test(key)) entry.names.push(value);
    else if (key === 'DBusActivatable') entry.dbus = /^true$/i.test(value);
  }
  return entry;
}

/** The .desktop string escapes (\s \n \t \r \\). */
function unescapeDesktop(s: string): string {
  return s.replace(
    /\\([sntr\\;])/g,
    (_m, c: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\\\', ';': ';' })[c] ?? c,
  );
}

/** A desktop id (`org.gnome.gedit`) → its file under the XDG data directories. */
function findDesktopFile(id: string, ctx: LaunchContext): string | undefined {
  const dirs = ctx.dataDirs ?? [process.env['XDG_DATA_HOME'] ?? join(process.env['HOME'] ?? '/', '.local/share'),
    ...(process.env['XDG_DATA_DIRS'] ?? '/usr/local/share:/usr/share').split(':')];
  for (const d of dirs) {
    const f = join(d, 'applications', id.endsWith('.desktop') ? id : `${id}.desktop`);
    if (existsSync(f)) return f;
  }
  return undefined;
}

/** A script with `#!`: the kernel runs its interpreter, with the script as the first argument. */
function shebangStep(real: string, args: string[], ctx: LaunchContext, cwd: string, names: string[]): Step {
  const line = firstLine(real);
  if (!line?.startsWith('#!')) return { executable: real, argv: [real, ...args] };
  names.push(line.slice(2).trim());
  ctx.scripts?.push(real);
  const words = line.slice(2).trim().split(/\s+/);
  let interp = words[0] ?? '';
  let rest = words.slice(1);
  if (basename(interp) === 'env') {
    rest = rest.filter((w) => !w.startsWith('-'));
    interp = which(rest[0] ?? '', ctx.path, cwd) ?? '';
    rest = rest.slice(1);
  }
  if (!interp || !existsSync(interp))
    return { argv: [real, ...args], unproven: `the interpreter of ${basename(real)} was not found` };
  return { executable: realOr(interp), argv: [realOr(interp), ...rest, real, ...args] };
}

export function firstLine(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, 256, 0);
    return buf.subarray(0, n).toString('latin1').split('\n')[0];
  } catch { return undefined; } finally { if (fd !== undefined) closeSync(fd); }
}

/**
 * Splits a plain command into words the way a POSIX shell would: blanks separate, '…' and "…" quote, a
 * backslash escapes. Undefined for anything else a shell would interpret (variables, substitutions, globs,
 * redirections, pipes, lists, comments, ~): that is code, not a command line.
 */
export function shellWords(s: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return undefined;
      cur += s.slice(i + 1, end); i = end; inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) {
        const d = s[j] ?? '';
        if (d === '$' || d === '`') return undefined;
        if (d === '\\' && /["\\$`\n]/.test(s[j + 1] ?? '')) { cur += s[j + 1]; j++; } else cur += d;
      }
      if (j >= s.length) return undefined;
      i = j; inWord = true;
    } else if (c === '\\') {
      if (i + 1 >= s.length) return undefined;
      cur += s[++i]; inWord = true;
    } else if (/[ \t]/.test(c)) {
      if (inWord) { out.push(cur); cur = ''; inWord = false; }
    } else if (/[\n;&|<>()$`*?[\]{}!]/.test(c) || (c === '#' && !inWord) || (c === '~' && !inWord)) {
      return undefined;
    } else { cur += c; inWord = true; }
  }
  if (inWord) out.push(cur);
  return out;
}

/** Words of an argument that could name a program: the argument, its path parts and its code-like tokens. */
function wordsOf(arg: string): string[] {
  const parts = arg.split(/[\s'"`;|&()=,[\]{}<>+]+/).filter(Boolean);
  return [arg, ...parts, ...parts.map((p) => basename(p))].filter((w) => w.length > 1 && w.length < 512);
}

/** An executable's path: as given when it has a slash, else the first match on PATH. */
export function which(cmd: string, path: string | undefined, cwd: string): string | undefined {
  if (!cmd) return undefined;
  if (cmd.includes('/')) { const p = resolve(cwd, cmd); return isExecutableFile(p) ? p : undefined; }
  for (const dir of (path ?? process.env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(isAbsolute(dir) ? dir : resolve(cwd, dir), cmd);
    if (isExecutableFile(p)) return p;
  }
  return undefined;
}

export function isExecutableFile(p: string): boolean {
  try { const st = statSync(p); return st.isFile() && (st.mode & 0o111) !== 0; } catch { return false; }
}

export const realOr = (p: string): string => { try { return realpathSync(p); } catch { return p; } };

/**
 * The installed script an interpreter process runs (`process.identify`'s `launcher`): its argument vector read as
 * a launch of its own executable would be (`python3 /usr/bin/meld`, `sh /usr/lib/libreoffice/program/soffice`);
 * none for code (`-c`), a module (`-m`), a script no system command names, or a program that is no interpreter.
 */
export function scriptLauncher(executable: string, argv: readonly string[], cwd: string): Launcher | undefined {
  if (argv.length < 2 || !(SHELLS.test(basename(executable)) || INTERPRETERS.test(basename(executable))))
    return undefined;
  const r = resolveLaunch([executable, ...argv.slice(1)], { cwd });
  const script = r.argv[1];
  if (r.unproven || r.executable !== executable || script === undefined || !isAbsolute(script)) return undefined;
  const facts = launcherFacts(script);
  return facts.systemOwned && facts.commands?.length ? facts : undefined;
}

/** `apps.resolveLaunch`: the resolution plus the facts the policy needs (launchers, package, content). */
export function resolveLaunchFacts(p: ResolveLaunchParams): ResolveLaunchResult {
  if ((p.kind ?? 'command') !== 'command')
    return {
      argv: [p.command, ...(p.args ?? [])],
      names: [p.command],
      unproven: `launch targets of kind ${p.kind ?? ''} are not known on Linux`,
    };
  const r = resolveLaunch([p.command, ...(p.args ?? [])]);
  const out: ResolveLaunchResult = { argv: r.argv, names: r.names };
  if (r.executable) { out.executable = r.executable; out.appId = r.executable; }
  if (r.unproven) out.unproven = r.unproven;
  if (r.runsCommand) out.runsCommand = true;
  if (r.scripts.length) {
    out.launchers = r.scripts.map(launcherFacts);
  }
  // The package the user knows: of the program, or for an interpreter of the (system-owned) script it runs.
  const script = r.scripts[r.scripts.length - 1];
  const pkg =
    script !== undefined && r.argv.includes(script)
      ? packageOf(script)
      : r.executable
        ? packageOf(r.executable)
        : undefined;
  if (pkg) out.package = pkg;
  if (r.executable) {
    const c = contentOf(r.executable);
    if (c) out.content = c;
  }
  return out;
}
