/**
 * `computer-use apps | launch | observe | screenshot | find | act | wait | keys`: the tools from a shell, printing
 * exactly
 * what the model reads. Refs persist in a per-desktop state file, so `observe` in one process and `act` in
 * the next agree.
 */
import { jsonQuote } from '../../engine/escape.js';
import { createHash } from 'node:crypto';
import { createComputer, type KeptPolicy } from '../../index.js';
import { cuPath } from '../../paths.js';
import { cliOptionsFrom, isBooleanHostFlag } from '../options.js';
import { asksHelp, parseArgs } from './args.js';
import { permissionsForCall, readKeptFlags, writeKeptFlags } from './kept-flags.js';
import { loadSettings } from '../../policy/settings.js';
import { ttyConfirmer } from './policy-commands.js';
import { cliWording } from './wording.js';
import { markSubmitFlags, parseActList } from './act-list.js';
import { refDevice } from '../../session/devices.js';

const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
const opt = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } =>
  (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };

/** Builds the tool name and params for a CLI command. */
export function toolCall(command: string, args: string[]): { name: string; params: Record<string, unknown> } {
  // observe --full takes no value: `observe --full gedit` names the app.
  // act: each --submit stays among the action words, for the action it is written in (act-list.ts).
  const { pos, flags } = parseArgs(
    command === 'act' ? markSubmitFlags(args) : args,
    command === 'observe' ? ['full'] : [],
  );
  const call = toolCallOf(command, pos, flags);
  // Every tool takes --device NAME; refs like d2e5 name their device themselves.
  if (flags['device'] !== undefined) call.params['device'] = flags['device'];
  return call;
}

function toolCallOf(
  command: string,
  pos: string[],
  flags: Record<string, string>,
): { name: string; params: Record<string, unknown> } {
  const target = { ...opt('app', flags['app']), ...opt('window', flags['window']) };
  const settleMs = num(flags['settle-timeout']);
  const settle = settleMs === undefined ? {} : { settle: { timeoutMs: settleMs } };
  switch (command) {
    case 'apps': return { name: 'computer_apps', params: {} };
    case 'launch': {
      const [cmd, ...rest] = pos;
      if (!cmd) throw new Error('usage: computer-use launch <command> [args...]');
      return { name: 'computer_launch', params: { command: cmd, args: rest, ...opt('waitMs', num(flags['wait'])) } };
    }
    case 'observe':
      return {
        name: 'computer_observe',
        params: {
          ...target,
          ...opt('app', flags['app'] ?? pos[0]),
          ...opt('scope', flags['scope']),
          ...opt('from', num(flags['from'])),
          ...opt('query', flags['query']),
          ...opt('maxTokens', num(flags['max-tokens'])),
          ...(flags['full'] !== undefined ? { full: flags['full'] !== 'false' } : {}),
        },
      };
    case 'screenshot':
      return { name: 'computer_screenshot', params: { ...target, ...opt('app', flags['app'] ?? pos[0]), mode: 'ocr' } };
    case 'find':
      return {
        name: 'computer_find',
        params: {
          ...target,
          ...opt('text', pos[0] ?? flags['text']),
          ...opt('role', flags['role']),
          ...opt('limit', num(flags['limit'])),
          ...opt('from', num(flags['from'])),
        },
      };
    case 'act': {
      if (flags['json']) return { name: 'computer_act', params: { actions: JSON.parse(flags['json']), ...settle } };
      // act e5 click  |  act e5 set_value "text"  |  act e5 click , e6 toggle (act-list.ts)
      // --submit: the action it is written in (a set_value or type) presses Return in its field once its text is in.
      return { name: 'computer_act', params: { actions: parseActList(pos), ...settle } };
    }
    case 'wait': {
      const [until] = pos;
      if (!until)
        throw new Error(
          'usage: computer-use wait appears|disappears|value_changes|window_appears [--text T] [--role R] [--ref eN] [--timeout ms]',
        );
      return {
        name: 'computer_wait',
        params: {
          until,
          ...target,
          ...opt('text', flags['text'] ?? pos[1]),
          ...opt('role', flags['role']),
          ...opt('ref', flags['ref']),
          ...opt('timeoutMs', num(flags['timeout'])),
        },
      };
    }
    case 'keys': {
      if (!pos.length) throw new Error('usage: computer-use keys <chords...> [--app A | --window wN]');
      return { name: 'computer_keys', params: { keys: pos.join(' '), ...target, ...settle } };
    }
    case 'clipboard': {
      // clipboard read | write <text> | paste [text]: computer_input's clipboard actions.
      const [action, ...text] = pos;
      const usage = 'usage: computer-use clipboard read | write <text> | paste [text] [--app A | --window wN]';
      const value = text.length ? { text: text.join(' ') } : {};
      if (action === 'read' && !text.length)
        return { name: 'computer_input', params: { action: 'clipboard_read', ...target } };
      if (action === 'write' && text.length)
        return { name: 'computer_input', params: { action: 'clipboard_write', ...value, ...target } };
      if (action === 'paste') return { name: 'computer_input', params: { action: 'paste', ...value, ...target } };
      throw new Error(usage);
    }
    default: throw new Error(`unknown tool command ${command}`);
  }
}

/** The commands that run one tool; every command toolCall knows is dispatched (screenshot was parsed but not listed). */
export const TOOL_COMMANDS = ['apps', 'launch', 'observe', 'screenshot', 'find', 'act', 'wait', 'keys', 'clipboard'];

/** Flags every tool command takes (docs/cli.md). */
const COMMON = '  --device NAME   the device (computer-use device list); refs like d2e5 name theirs\n'
  + '  --driver \'COMMAND\'   a driver of your own instead of this machine\'s (one process kept for the session; no sandbox)\n'
  + '  --mode M, --allow-app A, --allow-commands T, --deny-app A   permission flags: --deny-app and a mode that asks more hold at once;\n'
  + '      what lowers a question holds only after you confirm it on this terminal, and is kept for later commands on this\n'
  + '      desktop when you answer "this session" (computer-use session clear forgets them)';

/** Each tool command's help (`computer-use <command> --help`), printed without starting anything. */
/** The ops of the desktop's elements, as both usages list them (the phone's own are in `act --help` on a phone). */
export const OPS_LINE =
  'ops: click double_click right_click focus set_value type clear toggle select expand collapse scroll ' +
  'drag_to close';

export const TOOL_HELP: Readonly<Record<string, string>> = {
  apps: 'usage: computer-use apps [--device NAME]\n  the running apps and their windows (w1, w2, …)',
  launch:
    "usage: computer-use launch [--wait ms] [--] <command> [args...]\n  start an app and print its first snapshot; the app's own flags go after its name; a -- before the name hands every later word to the app, even one computer-use also takes (launch -- geany --help)",
  observe:
    "usage: computer-use observe [app] [--window wN] [--scope eN [--from K]] [--query text] [--max-tokens N] [--full]\n  a text snapshot of a window (one printed before: what changed since; --full prints all); --scope shows one element's subtree unfolded (a table's cell too: --scope e47:B7), --from reads its text from offset K",
  screenshot:
    'usage: computer-use screenshot [app] [--window wN]\n  OCR text elements [oN] of a window (degraded fallback; the image stays on this machine)',
  find: 'usage: computer-use find <text> [--role R] [--app A | --window wN] [--limit N] [--from N]\n  find elements without a full snapshot',
  act:
    'usage: computer-use act <ref> <op> [value] [, <ref> <op> [value] ...] [--submit] [--settle-timeout ms]\n       computer-use act --json \'[{"ref":"e5","op":"click"}]\'\n  ' +
    OPS_LINE +
    ("\n  close: closes the window holding the ref as its title bar's close button does (the app may ask " +
      'first)\n  e.g. act e5 set_value "hello" , e9 click   ·   act e12 scroll "to 40"   ·   act e3 drag_to e8 ' +
      '  ·   act e1 close'),
  wait: 'usage: computer-use wait <appears|disappears|value_changes|window_appears> [--text T] [--role R] [--ref eN] [--app A | --window wN] [--timeout ms]',
  keys: 'usage: computer-use keys <chords...> [--app A | --window wN] [--settle-timeout ms]\n  e.g. keys ctrl+s   ·   keys Tab Tab Enter',
  clipboard:
    "usage: computer-use clipboard read | write <text> | paste [text] [--app A | --window wN]\n  read or set the clipboard's text; paste puts text (if given) on it and pastes into the focused element of the app",
};

/** Runs one tool command and prints its text; exit code 1 on a tool error. */
export async function runToolCommand(command: string, args: string[]): Promise<number> {
  // A launched app's own flags are its own (`launch gedit --help`): launch prints its usage only when asked first.
  if (command === 'launch' ? asksHelp(args.slice(0, 1)) : asksHelp(args)) {
    process.stdout.write(`${TOOL_HELP[command] ?? ''}\n${COMMON}\n`);
    return 0;
  }
  let call: { name: string; params: Record<string, unknown> };
  let options: ReturnType<typeof cliOptionsFrom>['options'];
  try {
    // launch: the words from the app's command on are the app's own (`launch soffice --calc`), never ours.
    const [ours, app] = command === 'launch' ? splitLaunchArgs(args) : [args, []];
    const stray = command === 'launch' ? strayLaunchFlag(args) : undefined;
    if (stray) throw new Error(stray);
    // Flags and the permission environment variables alike: an agent at a shell sets either.
    const taken = cliOptionsFrom(ours);
    options = taken.options;
    call = toolCall(command, app.length ? [...taken.rest, '--', ...app] : taken.rest);
  } catch (e) { process.stderr.write(`${cliWording((e as Error).message)}\n`); return 2; }
  const { mode, allowApps, allowCommands, denyApps, ...rest } = options;
  const requested = {
    ...opt('mode', mode),
    ...opt('allowApps', allowApps),
    ...opt('allowCommands', allowCommands),
    ...opt('denyApps', denyApps),
  };
  // A human at the terminal is asked; without one, questions become confirmation_required errors.
  const confirmer = ttyConfirmer();
  // The permissions of this call: what narrows holds, what lowers a question only on a person's yes (kept-flags.ts).
  const permissions = async (desktop: { env: Record<string, string> }): Promise<KeptPolicy> => {
    const path = sessionFileFor(desktop);
    const kept = readKeptFlags(path);
    const { effective, keep, notices } = await permissionsForCall({
      kept,
      requested,
      settings: loadSettings().settings,
      confirmer,
    });
    if (keep) writeKeptFlags(path, keep);
    for (const n of notices) process.stderr.write(`computer-use: ${n}\n`);
    return effective;
  };
  // A driver of one's own, or a call for another device, drives no desktop of this machine: no sandbox starts for it.
  const elsewhere = rest.driverCommand !== undefined || namesOtherDevice(call.params);
  const statePath = rest.driverCommand ? commandSessionFile(rest.driverCommand) : sessionFileFor;
  const computer = await createComputer({
    desktop: elsewhere ? 'current' : 'auto',
    stopSandboxOnClose: false,
    statePath,
    desktopPolicy: permissions,
    confirmer,
    keepDrivers: true,
    deviceStatePath: (name) => cuPath('sessions', `device-${name}.json`),
    ...rest,
  });
  for (const w of computer.policy.warnings) process.stderr.write(`computer-use: ${w}\n`);
  if (computer.desktop.started)
    process.stderr.write(
      `started sandbox desktop ${computer.desktop.sandbox?.display} (stop it with: computer-use sandbox down --all)\n`,
    );
  try {
    const result = await computer.call(call.name, call.params);
    process.stdout.write(cliWording(result.text) + '\n');
    return result.isError ? 1 : 0;
  } finally {
    await computer.close();
  }
}

/**
 * `launch [our flags] COMMAND [ITS ARGS…]`: splits at the app's command, the first word that is not one of our
 * flags or a flag's value. Everything from there on goes to the app untouched (`--calc` included).
 */
export function splitLaunchArgs(args: string[]): [string[], string[]] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return [args.slice(0, i), args.slice(i + 1)];
    if (!a.startsWith('--')) return [args.slice(0, i), args.slice(i)];
    if (!a.includes('=') && !isBooleanHostFlag('cli', a.slice(2))) i++;
  }
  return [args, []];
}

/** The CLI's own flags, as `--name` (a launched app gets every word after its command). */
const OWN_FLAGS = new Set(['--mode', '--allow-app', '--allow-commands', '--deny-app', '--action-timeout', '--device']);

/**
 * Why `launch ARGS` is refused before anything starts: one of the CLI's own flags stands after the app's command,
 * where it would be the app's argument and the policy would never see it. Words after `--` are the app's on purpose.
 */
export function strayLaunchFlag(args: string[]): string | undefined {
  const [ours, app] = splitLaunchArgs(args);
  if (args.includes('--') || app.length < 2) return undefined;
  const at = app.findIndex((a, i) => i > 0 && OWN_FLAGS.has(a.split('=')[0]!));
  if (at < 0) return undefined;
  const flag = app[at]!.split('=')[0]!;
  // Our flags from there on (with their values) move before the command; the app keeps the rest.
  const moved: string[] = [];
  const kept: string[] = [];
  for (let i = 1; i < app.length; i++) {
    const a = app[i]!;
    if (OWN_FLAGS.has(a.split('=')[0]!)) {
      moved.push(a);
      if (!a.includes('=') && i + 1 < app.length) moved.push(app[++i]!);
    } else kept.push(a);
  }
  const command = app[0]!;
  // The words are the caller's text: a plain word as it is, anything else as a JSON literal on one line.
  const word = (w: string): string => (/^[\w@%+=:,./-]+$/.test(w) ? w : jsonQuote(w));
  return (
    `${flag} after the app's command ${jsonQuote(command)} would go to the app as its own argument, so ` +
    `computer-use would not ` +
    (`take it; nothing was started. Put computer-use's flags before the command: launch ` +
      `${[...ours, ...moved, command, ...kept].map(word).join(' ')} `) +
    `(or, to give ${flag} to the app itself: launch -- ${word(command)} …).`
  );
}

/** True when a call is for a device other than this machine: `--device NAME`, or refs of device 2 on (`d2e5`). */
export function namesOtherDevice(params: Record<string, unknown>): boolean {
  const named = params['device'];
  if (typeof named === 'string') return !['local', 'd1'].includes(named.trim().toLowerCase());
  const refs: unknown[] = [params['ref'], params['scope'], params['window'],
    ...(Array.isArray(params['actions']) ? (params['actions'] as { ref?: unknown }[]).map((a) => a?.ref) : [])];
  return refs.some((r) => typeof r === 'string' && (refDevice(r) ?? 1) > 1);
}

/** The state file of a driver command's session: its refs belong to that driver (one per command line and directory). */
function commandSessionFile(argv: readonly string[]): string {
  return cuPath(
    'sessions',
    `driver-${createHash('sha256')
      .update(JSON.stringify([process.cwd(), ...argv]))
      .digest('hex')
      .slice(0, 16)}.json`,
  );
}

/** One state file per desktop: refs belong to the desktop they were read from. */
function sessionFileFor(desktop: { env: Record<string, string> }): string {
  const id =
    desktop.env['AT_SPI_BUS_ADDRESS'] ??
    desktop.env['DISPLAY'] ??
    process.env['AT_SPI_BUS_ADDRESS'] ??
    process.env['DISPLAY'] ??
    'default';
  return cuPath('sessions', `${createHash('sha256').update(id).digest('hex').slice(0, 16)}.json`);
}
