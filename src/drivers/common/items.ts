/**
 * Which item of a list (a combo box's choices) a `select` value names, shared by every path that selects by
 * name. A model rarely types an item's whole name: abiword's file type combo offers "OpenDocument Text (.odt)",
 * and "ODT" or ".odt" must find it. Exact name first, then the same ignoring case, then a unique prefix, then a
 * unique whole word or run of words; several candidates are refused with their names, never guessed.
 */
import { quotedList, quoteText } from '../../engine/escape.js';
import { ComputerUseError } from '../../protocol/errors.js';

/** The index of the item `want` names, or the candidates when it names several or none. */
export type ItemPick = { index: number } | { ambiguous: number[] } | { none: true };

/** Words of a name: runs of letters and digits, lower case (".odt)" → "odt"). */
function words(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** True when `want`'s words appear in `name` as consecutive whole words. */
function hasWords(name: string, want: string[]): boolean {
  const have = words(name);
  for (let i = 0; i + want.length <= have.length; i++) if (want.every((w, k) => have[i + k] === w)) return true;
  return false;
}

/** The one index that `test` holds for, the candidates when several do, undefined when none. */
function unique(names: readonly string[], test: (n: string) => boolean): ItemPick | undefined {
  const hits = names.flatMap((n, i) => (n && test(n) ? [i] : []));
  if (hits.length === 1) return { index: hits[0]! };
  return hits.length > 1 ? { ambiguous: hits } : undefined;
}

/** The item `want` names among `names` (see the file comment for the order of the rules). */
export function pickItem(names: readonly string[], want: string): ItemPick {
  const exact = names.indexOf(want);
  if (exact >= 0) return { index: exact };
  const lower = want.trim().toLowerCase();
  if (lower === '') return { none: true };
  const folded = names.findIndex((n) => n.toLowerCase() === lower);
  if (folded >= 0) return { index: folded };
  const prefix = unique(names, (n) => n.toLowerCase().startsWith(lower));
  if (prefix && 'index' in prefix) return prefix;
  const w = words(want);
  const worded = w.length ? unique(names, (n) => hasWords(n, w)) : undefined;
  if (worded && 'index' in worded) return worded;
  return prefix ?? worded ?? { none: true };
}

/** Most item names a refusal lists; a combo's list rarely has more (abiword's file types: 28). */
const LISTED = 40;

/** The index `want` names, or invalid_params that lists the candidates (or every item) and says how to name one. */
export function itemIndex(names: readonly string[], want: string): number {
  const pick = pickItem(names, want);
  if ('index' in pick) return pick.index;
  const asked = quoteText(want.slice(0, 40));
  if ('ambiguous' in pick) {
    throw new ComputerUseError(
      'invalid_params',
      `${asked} names ${pick.ambiguous.length} items: ` +
        `${quotedList(
          pick.ambiguous.map((i) => names[i] ?? ''),
          LISTED,
        )}. Give more of the one you mean.`,
    );
  }
  throw noItemError(names, want);
}

/** invalid_params for a `select` value that names none of `names`, listing them. */
export function noItemError(names: readonly string[], want: string): ComputerUseError {
  return new ComputerUseError(
    'invalid_params',
    `No item named ${quoteText(want.slice(0, 40))}; items: ${quotedList(names, LISTED)}. An item is named by ` +
      `its name, a unique start of it or a unique word in it.`,
  );
}
