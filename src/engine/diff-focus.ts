/**
 * A diff's focus as a receipt prints it: where the focus went, once. Only one element has the keyboard focus, but
 * toolkits mark its ancestors too (Calc's sheet and its cell, a page's document), and the diff has a change line for
 * every element whose focus flipped, then `focus: eN` (the deepest focused element now) when that moved: the eval's
 * receipts read 62 focus-only lines (~750 tokens), each move said two to four times. The diff itself keeps them all
 * (a receipt's verdict and a submit's check read it); this is only its print.
 */

/** A quoted string as the diff prints app text (its own quotes escaped inside). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;
/** A focus change as one of a change line's comma-separated parts. */
const FOCUS_PART = /(, | )(focused → \(unfocused\)|\(unfocused\) → focused)(?=, |$)/;
const GAINED = '(unfocused) → focused';

/** The line with each quoted string's inside blanked, the same length: app text never reads as a change. */
const masked = (line: string): string => line.replace(QUOTED, (q) => `"${'x'.repeat(q.length - 2)}"`);

/** A change line's focus part: where it starts and ends (with its separator), and whether it gained the focus. */
function focusPart(line: string): { from: number; to: number; gained: boolean } | undefined {
  if (!line.startsWith('~ ')) return undefined;
  const m = FOCUS_PART.exec(masked(line));
  if (!m) return undefined;
  const sep = m[1] ?? '';
  const part = m[2] ?? '';
  const first = sep === ' ';
  const at = m.index + sep.length;
  // The first part takes the separator after it with it (`focused → (unfocused), checked → unchecked`).
  const followed = line.startsWith(', ', at + part.length);
  return first && followed
    ? { from: at, to: at + part.length + 2, gained: part === GAINED }
    : { from: m.index, to: at + part.length, gained: part === GAINED };
}

/** A change line without its focus part; undefined when that was its only change (the line goes). */
function withoutFocus(line: string): string | undefined {
  const p = focusPart(line);
  if (!p) return line;
  const rest = line.slice(0, p.from) + line.slice(p.to);
  return masked(rest).includes('→') ? rest : undefined;
}

/** The ref a change or added line is about (`~ [e4] …`, `+   [e4] …`). */
const refOf = (line: string): string | undefined => /^[~+] *\[([^\]]+)\] /.exec(line)?.[1];

/** Whether an added line shows `ref` focused: its own line, or its entry in a folded run (`e59 "New" focused, …`). */
function addedFocused(line: string, ref: string): boolean {
  if (!line.startsWith('+ ')) return false;
  const bare = masked(line);
  if (refOf(line) === ref && !/^\+ *\[[^\]]+\] … \[/.test(line) && / focused(?: |,|$)/.test(bare)) return true;
  const entry = new RegExp(`(?:: |, )${ref} (?:[^,]* )?focused(?:,| |$)`);
  return /^\+ *\[[^\]]+\] … \[[^\]]+\] \d+ [a-z]+: /.test(line) && entry.test(bare);
}

/** An added menu or menu item, alone or as a folded run (`+ [e14] … [e28] 15 menuitems: …`): a menu that opened. */
const MENU_ADDED = /^\+ *\[[^\]]+\] (?:… \[[^\]]+\] \d+ )?menu(?:item)?s?[: ]/;

/** What around a window's diff bears on its focus. */
export interface FocusContext {
  /** A window appeared with the act (a dialog, a popup menu): it took the focus the old window's elements lost. */
  newWindow?: boolean;
}

/**
 * The diff's lines as a receipt prints them, its focus said once:
 * - focus that moved to an element a line shows (its change line, or its added line): that line says it; the other
 *   lines lose their focus part (the elements that lost it, the ancestors that took it too) and go when that was
 *   all they said; a line that said nothing else reads `focus → [e4] textbox`; no `focus:` line;
 * - focus that moved to an element no line shows: the `focus: eN` line alone;
 * - a new window with the act, or a menu that opened, and no element here took the focus: that has it, nothing is
 *   said here of the elements that lost it;
 * - focus lost and nothing took it: the lines that lost it say so (the typing target lost it), as before.
 */
export function focusOnce(diff: readonly string[], ctx: FocusContext = {}): string[] {
  const focusLine = diff.filter((l) => l.startsWith('focus: ')).pop();
  const to = focusLine?.slice('focus: '.length);
  // A menu that opened holds the keyboard while it is open, as a new window does.
  const taken = ctx.newWindow === true || diff.some((l) => MENU_ADDED.test(l));
  if (to === undefined) {
    // The deepest focused element stayed: what lost the focus beside it did so to the new window or menu.
    return taken
      ? diff.map((l) => (focusPart(l)?.gained === false ? withoutFocus(l) : l)).filter((l) => l !== undefined)
      : [...diff];
  }
  const lines = diff.filter((l) => !l.startsWith('focus: '));
  const gainer = to === '(none)' ? -1 : lines.findIndex((l) => refOf(l) === to && focusPart(l)?.gained === true);
  const shown = gainer >= 0 || (to !== '(none)' && lines.some((l) => addedFocused(l, to)));
  if (!shown && to === '(none)' && !taken) {
    // Nothing took it: the lines that lost it say so; the focus line only when none does.
    return lines.some((l) => focusPart(l)?.gained === false) ? lines : [...lines, focusLine!];
  }
  const out: string[] = [];
  lines.forEach((l, i) => {
    const rest = withoutFocus(l);
    // The element that took it keeps its line; with nothing else on it, it reads as where the focus went.
    if (i === gainer) out.push(rest === undefined ? `focus → ${l.slice(2, focusPart(l)!.from)}` : l);
    else if (rest !== undefined) out.push(rest);
  });
  return shown || taken ? out : [...out, focusLine!];
}
