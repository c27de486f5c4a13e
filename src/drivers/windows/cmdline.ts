/**
 * How the Windows driver starts a program: a Windows process receives one command-line string, which its C runtime
 * (and CommandLineToArgvW) splits back into argv. The driver builds that string from the protocol's argv by those
 * rules and hands it to CreateProcessW with the program's resolved path, never to cmd.exe, so no argument is
 * split, joined or interpreted (docs/policy.md: input is data). test/unit/windows-cmdline.test.ts checks the
 * table from Microsoft's documented parsing rules and, where Wine runs, the round trip through a real
 * CreateProcessW, CommandLineToArgvW and the C runtime.
 */
import { existsSync } from 'node:fs';
import { ComputerUseError } from '../../protocol/errors.js';

/** The longest command line CreateProcessW takes, in UTF-16 units with its terminating NUL. */
export const MAX_COMMAND_LINE = 32_767;

/**
 * One argument as the C runtime reads it back: bare when it has no space, tab, newline, vertical tab or quote;
 * else quoted, with each run of backslashes doubled when a quote (or the closing quote) follows it and a quote
 * written as `\"`; backslashes before anything else stay as they are. The empty argument is `""`.
 */
export function quoteArg(arg: string): string {
  if (arg.length > 0 && !/[ \t\n\v"]/.test(arg)) return arg;
  let out = '"';
  let slashes = 0;
  for (const c of arg) {
    if (c === '\\') { slashes++; continue; }
    if (c === '"') out += '\\'.repeat(slashes * 2 + 1) + '"';
    else out += '\\'.repeat(slashes) + c;
    slashes = 0;
  }
  return `${out}${'\\'.repeat(slashes * 2)}"`;
}

/**
 * The command line for `program` and `args`. The program name is parsed by other rules (up to the next quote,
 * no escapes), so it is always quoted and may hold no quote, which no Windows file name can anyway.
 */
export function commandLine(program: string, args: readonly string[]): string {
  if (/["\0]/.test(program))
    throw new ComputerUseError('invalid_params', 'a Windows program path holds no quote or NUL; nothing was started');
  if (args.some((a) => a.includes('\0')))
    throw new ComputerUseError('invalid_params', 'a Windows argument cannot hold a NUL character; nothing was started');
  const line = [`"${program}"`, ...args.map(quoteArg)].join(' ');
  if (line.length >= MAX_COMMAND_LINE)
    throw new ComputerUseError(
      'invalid_params',
      `the command line would be ${line.length} characters; Windows takes at most ${MAX_COMMAND_LINE - 1}. ` +
        `Nothing was started.`,
    );
  return line;
}

/**
 * The environment block's entries (`NAME=value`) for `extra` over `base`: names compare without regard to case,
 * as Windows does (`Path` and `PATH` are one variable; the new value keeps the name it had), and the entries are
 * sorted by upper-cased name, the order CreateProcessW documents for a block.
 */
export function environmentBlock(
  base: Readonly<Record<string, string | undefined>>,
  extra: Readonly<Record<string, string>>,
): string[] {
  const vars = new Map<string, [string, string]>();
  for (const [k, v] of Object.entries(base))
    if (v !== undefined && isEnvName(k) && !v.includes('\0')) vars.set(k.toUpperCase(), [k, v]);
  for (const [k, v] of Object.entries(extra)) {
    if (!isEnvName(k) || k.startsWith('='))
      throw new ComputerUseError(
        'invalid_params',
        `${JSON.stringify(k)} is not an environment variable name; nothing was started`,
      );
    if (v.includes('\0'))
      throw new ComputerUseError('invalid_params', `the value of ${k} holds a NUL character; nothing was started`);
    vars.set(k.toUpperCase(), [vars.get(k.toUpperCase())?.[0] ?? k, v]);
  }
  return [...vars.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, [k, v]]) => `${k}=${v}`);
}

/** A name Windows keeps as a variable: no `=` after its first character (`=C:` is the drive's current directory), no NUL. */
const isEnvName = (k: string): boolean => k.length > 0 && !k.slice(1).includes('=') && !k.includes('\0');

/** Where resolveProgram looks, and how it asks whether a file exists (tests give both). */
export interface ResolveOptions {
  windir: string;
  /** The PATH value (entries separated by `;`). */
  path: string;
  exists?: (p: string) => boolean;
}

/**
 * The program's full path. An absolute path is taken as it is; a bare name (`notepad`, `code.exe`) is looked up
 * in System32, the Windows folder, then the absolute entries of PATH, with `.exe` added when it has no extension:
 * never in the current directory, where CreateProcessW's own search would look first.
 */
export function resolveProgram(command: string, o: ResolveOptions): string {
  const exists = o.exists ?? existsSync;
  if (/[\0"<>|*?\r\n]/.test(command))
    throw new ComputerUseError('invalid_params', 'that is not a Windows program name or path; nothing was started');
  // CreateProcessW starts a .bat or .cmd through cmd.exe, which reparses the whole command line by its own rules
  // (& | % still act inside C-runtime quotes): no quoting keeps an argument data there, so such files never start.
  // Windows drops trailing dots and spaces from a file name, and `::$DATA` names the file's own stream.
  if (/\.(bat|cmd)[. ]*$/i.test(command) || command.slice(2).includes(':'))
    throw new ComputerUseError(
      'invalid_params',
      'a batch file runs through cmd.exe, which reinterprets its arguments as commands; start the program it ' +
        'runs instead. Nothing was started.',
    );
  const absolute = /^[A-Za-z]:\\/.test(command) || command.startsWith('\\\\');
  if (absolute) {
    if (!exists(command)) throw new ComputerUseError('app_not_found', 'no program at that path; nothing was started');
    return command;
  }
  if (/[\\/:]/.test(command))
    throw new ComputerUseError(
      'invalid_params',
      'give a program name (notepad) or an absolute path (C:\\…\\app.exe), not a relative path; nothing was ' +
        'started',
    );
  const file = /\.[A-Za-z0-9]{1,8}$/.test(command) ? command : `${command}.exe`;
  const dirs = [`${o.windir}\\System32`, o.windir, ...o.path.split(';').map((d) => d.trim().replace(/^"(.*)"$/, '$1'))]
    .filter((d) => /^[A-Za-z]:\\/.test(d) || d.startsWith('\\\\'));
  for (const d of dirs) {
    const p = `${d.replace(/\\+$/, '')}\\${file}`;
    if (exists(p)) return p;
  }
  throw new ComputerUseError(
    'app_not_found',
    `no program ${JSON.stringify(file)} in System32, the Windows folder or PATH; give its full path. Nothing ` +
      `was started.`,
  );
}
