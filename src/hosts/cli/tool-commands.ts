/**
 * `computer-use apps | launch | observe | screenshot | find | act | wait | keys`: the tools from a shell, printing exactly
 * what the model reads. Refs persist in a per-desktop state file, so `observe` in one process and `act` in
 * the next agree.
 */
import { createHash } from 'node:crypto';
import { createComputer } from '../../index.js';
import { cuPath } from '../../paths.js';
import type { OPS } from '../../engine/node.js';
import { cliOptionsFrom } from '../options.js';
import { parseArgs } from './args.js';
import { ttyConfirmer } from './policy-commands.js';

const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
const opt = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };

/** Builds the tool name and params for a CLI command. */
export function toolCall(command: string, args: string[]): { name: string; params: Record<string, unknown> } {
  const { pos, flags } = parseArgs(args);
  const call = toolCallOf(command, pos, flags);
  // Every tool takes --device NAME (issue 12); refs like d2e5 name their device themselves.
  if (flags['device'] !== undefined) call.params['device'] = flags['device'];
  return call;
}

function toolCallOf(command: string, pos: string[], flags: Record<string, string>): { name: string; params: Record<string, unknown> } {
  const target = { ...opt('app', flags['app']), ...opt('window', flags['window']) };
  switch (command) {
    case 'apps': return { name: 'computer_apps', params: {} };
    case 'launch': {
      const [cmd, ...rest] = pos;
      if (!cmd) throw new Error('usage: computer-use launch <command> [args...]');
      return { name: 'computer_launch', params: { command: cmd, args: rest, ...opt('waitMs', num(flags['wait'])) } };
    }
    case 'observe': return { name: 'computer_observe', params: { ...target, ...opt('app', flags['app'] ?? pos[0]), ...opt('scope', flags['scope']), ...opt('query', flags['query']), ...opt('maxTokens', num(flags['max-tokens'])) } };
    case 'screenshot': return { name: 'computer_screenshot', params: { ...target, ...opt('app', flags['app'] ?? pos[0]), mode: 'ocr' } };
    case 'find': return { name: 'computer_find', params: { ...target, ...opt('text', pos[0] ?? flags['text']), ...opt('role', flags['role']), ...opt('limit', num(flags['limit'])) } };
    case 'act': {
      if (flags['json']) return { name: 'computer_act', params: { actions: JSON.parse(flags['json']) } };
      // act e5 click  |  act e5 set_value "text"  |  act e5 click , e6 toggle
      const actions: { ref: string; op: (typeof OPS)[number]; value?: string }[] = [];
      const groups: string[][] = [[]];
      for (const a of pos) { if (a === ',') groups.push([]); else groups[groups.length - 1]!.push(a); }
      for (const group of groups) {
        const [ref, op, ...value] = group;
        if (!ref || !op) throw new Error('usage: computer-use act <ref> <op> [value] [, <ref> <op> [value] ...]');
        actions.push({ ref, op: op as (typeof OPS)[number], ...(value.length ? { value: value.join(' ') } : {}) });
      }
      return { name: 'computer_act', params: { actions } };
    }
    case 'wait': {
      const [until] = pos;
      if (!until) throw new Error('usage: computer-use wait appears|disappears|value_changes|window_appears [--text T] [--role R] [--ref eN] [--timeout ms]');
      return { name: 'computer_wait', params: { until, ...target, ...opt('text', flags['text'] ?? pos[1]), ...opt('role', flags['role']), ...opt('ref', flags['ref']), ...opt('timeoutMs', num(flags['timeout'])) } };
    }
    case 'keys': {
      if (!pos.length) throw new Error('usage: computer-use keys <chords...> [--app A | --window wN]');
      return { name: 'computer_keys', params: { keys: pos.join(' '), ...target } };
    }
    default: throw new Error(`unknown tool command ${command}`);
  }
}

/** The commands that run one tool; every command toolCall knows is dispatched (screenshot was parsed but not listed). */
export const TOOL_COMMANDS = ['apps', 'launch', 'observe', 'screenshot', 'find', 'act', 'wait', 'keys'];

/** Runs one tool command and prints its text; exit code 1 on a tool error. */
export async function runToolCommand(command: string, args: string[]): Promise<number> {
  let call: { name: string; params: Record<string, unknown> };
  let policy: ReturnType<typeof cliOptionsFrom>['options'];
  try {
    const taken = cliOptionsFrom(args);
    policy = taken.options;
    call = toolCall(command, taken.rest);
  } catch (e) { process.stderr.write(`${(e as Error).message}\n`); return 2; }
  // A human at the terminal is asked; without one, questions become confirmation_required errors.
  const computer = await createComputer({ desktop: 'auto', stopSandboxOnClose: false, statePath: sessionFileFor, confirmer: ttyConfirmer(), ...policy });
  for (const w of computer.policy.warnings) process.stderr.write(`computer-use: ${w}\n`);
  if (computer.desktop.started) process.stderr.write(`started sandbox desktop ${computer.desktop.sandbox?.display} (stop it with: computer-use sandbox down --all)\n`);
  try {
    const result = await computer.call(call.name, call.params);
    process.stdout.write(result.text + '\n');
    return result.isError ? 1 : 0;
  } finally {
    await computer.close();
  }
}

/** One state file per desktop: refs belong to the desktop they were read from. */
function sessionFileFor(desktop: { env: Record<string, string> }): string {
  const id = desktop.env['AT_SPI_BUS_ADDRESS'] ?? desktop.env['DISPLAY'] ?? process.env['AT_SPI_BUS_ADDRESS'] ?? process.env['DISPLAY'] ?? 'default';
  return cuPath('sessions', `${createHash('sha256').update(id).digest('hex').slice(0, 16)}.json`);
}
