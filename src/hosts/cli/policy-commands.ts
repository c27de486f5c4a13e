/**
 * `computer-use stop | resume | audit | settings confirm`, and the TTY confirmer the CLI asks through when a human sits
 * at the terminal.
 */
import { randomInt } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import { createInterface } from 'node:readline';
import { AuditLog, defaultAuditPath, formatAudit } from '../../policy/audit.js';
import type { ConfirmChoice, Confirmer } from '../../policy/confirm.js';
import { isPaused, pauseInfo, requestResume, requestStop } from '../../policy/stop.js';
import {
  confirmedLowering,
  loweringOf,
  recordConfirmation,
  unsafeSettings,
  defaultSettingsPath,
} from '../../policy/settings.js';
import { cuHome } from '../../paths.js';
import { escapeLine } from '../../engine/escape.js';
import { parseArgs } from './args.js';

const LABELS: Record<ConfirmChoice, string> = {
  allow_once: '[o]nce',
  allow_session: 'this [s]ession',
  allow_always: '[a]lways for this app',
  deny: '[d]eny',
};
/** The answers each choice takes: its letter and its words, whole (case and surrounding spaces aside). */
const ANSWERS: Record<ConfirmChoice, readonly string[]> = {
  allow_once: ['o', 'once'],
  allow_session: ['s', 'session', 'this session'],
  allow_always: ['a', 'always', 'always for this app'],
  deny: ['d', 'deny'],
};
/** How many answers that are not offered are asked again before the question declines. */
const RETRIES = 1;
/** The longest title and message the terminal shows (an app's 10 KB label must not flood the question). */
const MAX_TITLE = 300;
const MAX_MESSAGE = 2000;

/**
 * The choice a typed answer names among those offered, 'deny' for an empty answer, undefined for anything else:
 * "y", "yes please" or "0" name nothing offered, so they never approve (the old prompt took any word's first letter).
 */
export function answerOf(answer: string, choices: readonly ConfirmChoice[]): ConfirmChoice | undefined {
  const a = answer.trim().toLowerCase();
  if (!a) return 'deny';
  return choices.find((c) => ANSWERS[c].includes(a));
}

/** Outside text shown on the terminal: one line (engine/escape.ts, idempotent on the policy's escaped text), cut. */
const shown = (s: string, max: number): string => {
  const t = escapeLine(s);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/**
 * Asks on the terminal (stdin a TTY, the question on stderr so stdout stays the tool's output). Only the offered
 * letters and words answer; anything else asks again once, then declines; an empty answer or ESC declines.
 */
export function ttyConfirmer(
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Confirmer {
  return {
    interactive: Boolean(input.isTTY),
    confirm(request, signal) {
      return new Promise<ConfirmChoice>((resolve) => {
        if (signal?.aborted) { resolve('deny'); return; }
        const rl = createInterface({ input, output, terminal: true });
        // Resolve before closing: close() emits 'close' at once, whose handler would answer 'deny' first.
        const finish = (c: ConfirmChoice): void => {
          signal?.removeEventListener('abort', onAbort);
          input.removeListener('keypress', onKey);
          resolve(c);
          rl.close();
        };
        const onAbort = (): void => { output.write('\n(stopped)\n'); finish('deny'); };
        // ESC declines (readline emits keypress events on a terminal input).
        const onKey = (_s: unknown, key: { name?: string } | undefined): void => {
          if (key?.name === 'escape') {
            output.write('\n(declined)\n');
            finish('deny');
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        input.on('keypress', onKey);
        rl.on('close', () => resolve('deny'));
        const offered = request.choices.map((c) => LABELS[c]).join('  ');
        let retries = RETRIES;
        const ask = (again: boolean): void => {
          const head = again
            ? `  answer with one of: ${offered} (anything else declines)`
            : `\ncomputer-use: ${shown(request.title, MAX_TITLE)}\n${shown(request.message, MAX_MESSAGE)}\n  ` +
              `${offered}`;
          rl.question(`${head} > `, (answer) => {
            const c = answerOf(answer, request.choices);
            if (c) finish(c);
            else if (retries-- > 0) ask(true);
            else { output.write('(declined)\n'); finish('deny'); }
          });
        };
        ask(false);
      });
    },
  };
}

/** `computer-use stop`: pauses every session of this home (COMPUTER_USE_HOME) and aborts their actions. */
export function runStop(): number {
  const home = cuHome();
  const { signalled } = requestStop(home, 'computer-use stop');
  process.stdout.write(
    `computer-use paused (${home}): ${signalled} running process(es) signalled; acting tools return "paused" ` +
      `until you resume in the panel or with \`computer-use resume\`\n`,
  );
  return 0;
}

/**
 * `computer-use resume`: asks a human on the controlling terminal (/dev/tty, not stdin: `yes |` answers
 * nothing) to type a code it shows; without a terminal it refuses. The agent is paused while the prompt waits,
 * so it cannot type the code into a terminal it drives, and a `computer-use resume` it typed beforehand only
 * prints the prompt (docs/policy.md, "Stop and resume").
 */
export async function runResume(
  openTty: () => { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; close(): void } = controllingTty,
): Promise<number> {
  const home = cuHome();
  let tty: ReturnType<typeof openTty>;
  try { tty = openTty(); } catch {
    process.stderr.write('computer-use resume asks a human on a terminal and this process has none; nothing was resumed. Resume in the computer-use panel, or run `computer-use resume` in a terminal of your own.\n');
    return 1;
  }
  const code = randomInt(0, 36 ** 4).toString(36).padStart(4, '0').toUpperCase();
  const answer = await new Promise<string>((resolve) => {
    const rl = createInterface({ input: tty.input, output: tty.output, terminal: false });
    rl.once('close', () => resolve(''));
    const state = isPaused(home)
      ? 'computer-use is paused'
      : 'The pause file is gone, but running sessions may still be paused';
    tty.output.write(
      `${state} (${home}). To resume them, type ${code} and Enter (anything else keeps it paused): `,
    );
    rl.once('line', (l) => { resolve(l); rl.close(); });
  });
  tty.close();
  if (answer.trim().toUpperCase() !== code) {
    process.stdout.write('not resumed: computer-use stays paused\n');
    return 1;
  }
  requestResume(home);
  process.stdout.write(`computer-use resumed (${home})\n`);
  return 0;
}

/** The controlling terminal of this process, opened for one question; throws without one. */
function controllingTty(): { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; close(): void } {
  const fd = openSync('/dev/tty', 'r+');
  const input = new ReadStream(fd);
  const output = new WriteStream(fd);
  return { input, output, close: () => { input.destroy(); } };
}

/** `computer-use audit [--json] [--tail N] [--path P]`. */
export function runAudit(args: string[]): number {
  const { flags } = parseArgs(args, ['json']);
  const path = flags['path'] ?? defaultAuditPath();
  const tail = flags['tail'] !== undefined ? Number(flags['tail']) : undefined;
  if (tail !== undefined && !(Number.isInteger(tail) && tail >= 0)) {
    process.stderr.write('--tail needs a whole number\n');
    return 2;
  }
  const { records, torn } = new AuditLog(path).readAll();
  // Said on stderr, so --json output stays one record per line.
  if (torn)
    process.stderr.write(
      `(${torn} torn line${torn === 1 ? '' : 's'} skipped in ${path}: a write was interrupted, e.g. by a ` + `crash)\n`,
    );
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

/**
 * `computer-use settings confirm [--path P]`: a human confirms settings written outside computer-use (every
 * field but denyApps and strictFirstUse, which only add protection). Shows what
 * changed since the last confirmed state and asks on the terminal; without a terminal nothing is confirmed
 * (an agent running the command through a pipe cannot confirm its own change).
 */
export async function runSettings(
  args: string[],
  input: NodeJS.ReadStream = process.stdin,
  output: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  const { pos, flags } = parseArgs(args, []);
  if (pos[0] !== 'confirm') {
    process.stderr.write('usage: computer-use settings confirm [--path settings.json]\n');
    return 2;
  }
  const path = flags['path'] ?? defaultSettingsPath();
  const unsafe = unsafeSettings(path);
  if (unsafe) { process.stderr.write(`${path} ${unsafe}; fix that first, nothing was confirmed\n`); return 1; }
  let raw: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    raw = parsed as Record<string, unknown>;
  } catch (e) { process.stderr.write(`${path}: ${(e as Error).message}; nothing was confirmed\n`); return 1; }
  const now = loweringOf(raw);
  const before = confirmedLowering(path) ?? {};
  const changed = [...new Set([...Object.keys(before), ...Object.keys(now)])].filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]),
  );
  if (changed.length === 0) { process.stdout.write(`${path}: nothing to confirm\n`); return 0; }
  if (!input.isTTY) {
    process.stderr.write(
      'computer-use settings confirm asks a human on a terminal; stdin is not one, so nothing was confirmed\n',
    );
    return 1;
  }
  output.write(`${path} — settings changed outside computer-use (they count only once you confirm them):\n`);
  for (const k of changed) {
    output.write(
      `  ${k}:\n    - ${before[k] === undefined ? '(unset)' : JSON.stringify(before[k])}\n    + ` +
        `${now[k] === undefined ? '(unset)' : JSON.stringify(now[k])}\n`,
    );
  }
  const rl = createInterface({ input, output, terminal: Boolean(output.isTTY) });
  const answer = await new Promise<string>((resolve) => {
    rl.on('close', () => resolve(''));
    rl.question('Did you make this change, and should computer-use use it? [y/N] ', (a) => resolve(a));
  });
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) {
    process.stdout.write('not confirmed; the changed fields stay ignored\n');
    return 1;
  }
  recordConfirmation(path, raw);
  process.stdout.write(`confirmed: ${changed.join(', ')} now apply to new sessions\n`);
  return 0;
}
