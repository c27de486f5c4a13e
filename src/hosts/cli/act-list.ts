/**
 * The CLI's action list: `act e5 click , e6 set_value "text"`. A shell hands the words over with the quotes gone, so
 * a comma typed against a quoted value (`scroll "to 40", e5:B40 click`) arrives glued to it ("to 40,"): a comma at
 * a word's edge is a separator when the words after it start the next action (a ref, then an op), and stays text
 * otherwise (`type "Dear Sir,"`). A list that is still malformed is refused with the form that works.
 */
import { OPS, type Op } from '../../engine/node.js';

/** One action as the CLI read it. */
export interface CliAction { ref: string; op: Op; value?: string; submit?: boolean }

/**
 * `--submit` as tool-commands.ts hands it over inside the action words: a NUL-led word, which no argv word can
 * hold, so typed text is never read as the flag.
 */
export const SUBMIT_WORD = '\u0000submit';

/**
 * The act words with each `--submit` (`--submit=true|false`, `--submit,`) kept in its place as SUBMIT_WORD, so the
 * flag belongs to the action it is written in (`type X --submit , e9:G1 type Y --submit`), not to the last one.
 * Words after `--` are left alone.
 */
export function markSubmitFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { out.push(...args.slice(i)); break; }
    const m = /^--submit(?:=(true|false))?(,?)$/.exec(a);
    if (!m) { out.push(a); continue; }
    if (m[1] !== 'false') out.push(SUBMIT_WORD);
    if (m[2]) out.push(',');
  }
  return out;
}

/** The form an action list takes, shown in every refusal. */
export const ACT_USAGE =
  'usage: computer-use act <ref> <op> [value] [, <ref> <op> [value] ...]  (e.g. act e5 scroll "to 40" , e5:B40 click)';

/**
 * A ref the model was given, in any form the tools print: an element e5, a device's d2e5, a cell e34:B7 or range
 * e34:A1:A20, an OCR text o9 (computer-use screenshot). The act tool checks the ref itself: this only tells an
 * action's first word from a value.
 */
const REF = /^(?:d\d+)?(?:e\d+(?::[A-Za-z]{1,3}\d+){0,2}|o\d+)$/;
const isOp = (w: string | undefined): w is Op => w !== undefined && (OPS as readonly string[]).includes(w);

/** Parses the words after `act` into actions; throws with ACT_USAGE when they do not form a list. */
export function parseActList(words: readonly string[]): CliAction[] {
  const groups: string[][] = [[]];
  const flat = splitGluedCommas(words);
  for (const w of flat) { if (w === ',') groups.push([]); else groups[groups.length - 1]!.push(w); }
  return groups.map((words, i) => {
    const group = words.filter((w) => w !== SUBMIT_WORD);
    const submit = group.length < words.length;
    const [ref, op, ...value] = group;
    const which = groups.length > 1 ? `action ${i + 1}: ` : '';
    if (!ref) throw new Error(`${which}an action is missing (two commas, or a comma at the end). ${ACT_USAGE}`);
    if (!REF.test(ref))
      throw new Error(
        `${which}${JSON.stringify(ref.slice(0, 40))} is not a ref (refs look like e5, e34:B7 or o9). ${ACT_USAGE}`,
      );
    if (!op) throw new Error(`${which}${ref} has no op (one of ${OPS.join(' ')}). ${ACT_USAGE}`);
    if (!isOp(op))
      throw new Error(
        `${which}${JSON.stringify(op.slice(0, 40))} is not an op (one of ${OPS.join(' ')}). ${ACT_USAGE}`,
      );
    return { ref, op, ...(value.length ? { value: value.join(' ') } : {}), ...(submit ? { submit } : {}) };
  });
}

/** Words with each comma at a word's edge split off, where what follows it starts an action (ref, then op). */
function splitGluedCommas(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === ',') { out.push(w); continue; }
    const next = words.slice(i + 1);
    // "to 40," then "e5:B40 click": the comma ends the value.
    if (w.endsWith(',') && startsAction(next)) { out.push(w.slice(0, -1).replace(/\s+$/, ''), ','); continue; }
    // ",e6 toggle" or "click,e6 toggle": the comma starts the next action inside the word.
    const at = w.lastIndexOf(',');
    if (at >= 0 && at < w.length - 1 && startsAction([w.slice(at + 1), ...next])) {
      const head = w.slice(0, at).replace(/\s+$/, '');
      if (head) out.push(head);
      out.push(',', w.slice(at + 1).trim());
      continue;
    }
    out.push(w);
  }
  return out;
}

// The next action's op may carry the comma of the action after it (`e185 click, e182 click`).
const startsAction = (words: readonly string[]): boolean =>
  REF.test(words[0]?.trim() ?? '') && isOp(words[1]?.replace(/,$/, ''));
