/**
 * Diff lines that only move a selection or the focus. A double click on a row selects it first (its first
 * click; drivers/linux/act/row-activate.ts does so on purpose), so such lines do not show that the row was
 * activated: a double_click is confirmed by what changed beyond them (e2e/act/row-activate.test.ts).
 */

/** One state change the diff prints: selected/unselected or focused/(unfocused), either way. */
const MOVE = /(?:un)?selected → (?:un)?selected|\(?(?:un)?focused\)? → \(?(?:un)?focused\)?/g;
/** A quoted string as the diff prints app text (its own quotes escaped inside). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** True when a changed line (one element or a folded run of alike ones) says only that selection or focus moved. */
export function onlySelectionMoved(line: string): boolean {
  if (!line.startsWith('~ ')) return false;
  // App text is left out first: a name holding an arrow is no change.
  const bare = line.replace(QUOTED, '""');
  const rest = bare.replace(MOVE, '');
  return rest !== bare && !rest.includes('→');
}
