/**
 * `computer-use stop | resume | audit`, the policy flags of tool commands (`--mode`, `--allow-app`,
 * `--deny-app`) and the TTY confirmer the CLI asks through when a human sits at the terminal.
 */
import { createInterface } from 'node:readline';
import { AuditLog, defaultAuditPath, formatAudit } from '../../policy/audit.js';
import type { ConfirmChoice, Confirmer } from '../../policy/confirm.js';
import { parseMode, type Mode } from '../../policy/modes.js';
import { pauseInfo, requestResume, requestStop } from '../../policy/stop.js';
import { cuHome } from '../../paths.js';
import { parseArgs } from './tool-commands.js';

/** Policy flags taken out of a command line; `rest` is what the command itself parses. */
export interface PolicyFlags { mode?: Mode; allowApps: string[]; denyApps: string[]; rest: string[] }

/** Extracts `--mode M`, `--allow-app A` and `--deny-app A` (repeatable, or comma-separated). */
export function extractPolicyFlags(args: string[]): PolicyFlags {
  const out: PolicyFlags = { allowApps: [], denyApps: [], rest: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^--(mode|allow-app|deny-app)(?:=(.*))?$/.exec(a);
    if (!m) { out.rest.push(a); continue; }
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new Error(`${a} needs a value`);
    if (m[1] === 'mode') out.mode = parseMode(value);
    else (m[1] === 'allow-app' ? out.allowApps : out.denyApps).push(...value.split(',').map((s) => s.trim()).filter(Boolean));
  }
  return out;
}

const KEYS: Record<string, ConfirmChoice> = { o: 'allow_once', y: 'allow_once', s: 'allow_session', a: 'allow_always', d: 'deny', n: 'deny' };
const LABELS: Record<ConfirmChoice, string> = { allow_once: '[o]nce', allow_session: 'this [s]ession', allow_always: '[a]lways for this app', deny: '[d]eny' };

/** Asks on the terminal (stdin a TTY, the question on stderr so stdout stays the tool's output). */
export function ttyConfirmer(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Confirmer {
  return {
    interactive: Boolean(input.isTTY),
    confirm(request, signal) {
      return new Promise<ConfirmChoice>((resolve) => {
        if (signal?.aborted) { resolve('deny'); return; }
        const rl = createInterface({ input, output, terminal: true });
        const finish = (c: ConfirmChoice): void => { signal?.removeEventListener('abort', onAbort); rl.close(); resolve(c); };
        const onAbort = (): void => { output.write('\n(stopped)\n'); finish('deny'); };
        signal?.addEventListener('abort', onAbort, { once: true });
        rl.on('close', () => resolve('deny'));
        const ask = (): void => {
          rl.question(`\ncomputer-use: ${request.title}\n${request.message}\n  ${request.choices.map((c) => LABELS[c]).join('  ')} > `, (answer) => {
            const c = KEYS[answer.trim().toLowerCase().charAt(0)];
            if (c && request.choices.includes(c)) finish(c);
            else if (!answer.trim()) finish('deny');
            else ask();
          });
        };
        ask();
      });
    },
  };
}

/** `computer-use stop`: pauses every session of this home (COMPUTER_USE_HOME) and aborts their actions. */
export function runStop(): number {
  const home = cuHome();
  const { signalled } = requestStop(home, 'computer-use stop');
  process.stdout.write(`computer-use paused (${home}): ${signalled} running process(es) signalled; acting tools return "paused" until \`computer-use resume\`\n`);
  return 0;
}

/** `computer-use resume`. */
export function runResume(): number {
  const home = cuHome();
  const { wasPaused } = requestResume(home);
  process.stdout.write(wasPaused ? `computer-use resumed (${home})\n` : `computer-use was not paused (${home})\n`);
  return 0;
}

/** `computer-use audit [--json] [--tail N] [--path P]`. */
export function runAudit(args: string[]): number {
  const { flags } = parseArgs(args, ['json']);
  const path = flags['path'] ?? defaultAuditPath();
  const tail = flags['tail'] !== undefined ? Number(flags['tail']) : undefined;
  if (tail !== undefined && !(Number.isInteger(tail) && tail >= 0)) { process.stderr.write('--tail needs a whole number\n'); return 2; }
  const records = new AuditLog(path).read();
  if (flags['json'] === 'true') {
    // Raw records of the last N decisions, with their completions.
    const decided = records.filter((r) => r.phase === 'decided');
    const keep = new Set((tail === undefined ? decided : decided.slice(-tail)).map((r) => r.id));
    for (const r of records) if (keep.has(r.id)) process.stdout.write(JSON.stringify(r) + '\n');
    return 0;
  }
  const lines = formatAudit(records, tail);
  if (pauseInfo()) process.stdout.write('(paused: computer-use resume to continue)\n');
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : `no actions recorded in ${path}\n`);
  return 0;
}
