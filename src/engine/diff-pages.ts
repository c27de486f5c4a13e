/**
 * A receipt of a page switch: a click on a tab (a GtkNotebook's page tab, a Qt tab bar's, a web tablist's, a GTK
 * stack switcher's) hides one page and shows another. The diff printed the new page's every element as an added
 * line, past the folds a first print of the window applies (gtk3-widget-factory's "Page 2": 57 lines, ~930 tokens;
 * its "Page 1" shown again, which the model had read at launch, ~870 tokens). Here the page the model never saw
 * prints as the window's print shows it (the fold rules and the budget of a first print), and a page it saw that
 * came back as it was reads as one line. Pure.
 */
import { compactCount, quote, MAX_NAME_CHARS } from './measure.js';
import type { SnapshotLine } from './line.js';
import type { Snapshot } from './snapshot.js';

/** Lines of elements the model saw that left the window's view, kept per window at most (the newest first). */
export const MAX_AWAY = 1000;
/** Roles of what switches a page: a tab, and a stack switcher's radio buttons (GTK 3's). */
const SWITCH_ROLES: ReadonlySet<string> = new Set(['tab', 'radio']);
/** States a switch gains when its page shows. */
const ON_STATES: readonly string[] = ['selected', 'checked'];
/**
 * Elements a stack switcher's radio button shows and hides from which a diff reads it as a page switch (a radio
 * button of a form that shows a field of its own is not); a tab's one or more.
 */
const PAGE_MIN = 4;

/**
 * The elements of `before` (and those it kept as away) that `after` no longer shows, by ref → their line as printed:
 * what a later page switch compares a page that comes back with. The newest first, at most MAX_AWAY.
 */
export function awayAfter(before: Snapshot, after: Snapshot): Record<string, string> {
  const shown = new Set(after.elements.map((l) => l.ref));
  const out: Record<string, string> = {};
  let n = 0;
  for (const l of before.elements) {
    if (n >= MAX_AWAY) break;
    if (!shown.has(l.ref)) { out[l.ref] = l.text; n++; }
  }
  for (const [ref, text] of Object.entries(before.away ?? {})) {
    if (n >= MAX_AWAY) break;
    if (!shown.has(ref) && !(ref in out)) { out[ref] = text; n++; }
  }
  return out;
}

/** A line without what a page that comes back changes by itself: where the focus is. */
const asBefore = (text: string): string => text.replace(/ focused\b/u, '');

/** What a page switch's receipt prints in place of the added lines of the page, and the refs those lines stand for. */
export interface PageLines { lines: string[]; refs: ReadonlySet<string> }

/**
 * The page a switch showed, when `before` → `after` is one: a tab or a stack switcher's button became selected or
 * checked, and PAGE_MIN or more elements came and PAGE_MIN or more went. The page's parts the model saw and that came
 * back as they were read as one line; the others as the window's print shows them, with how to list all of it.
 */
export function pageSwitchLines(before: Snapshot, after: Snapshot): PageLines | undefined {
  const old = new Map(before.elements.map((l) => [l.ref, l]));
  const now = new Map(after.elements.map((l) => [l.ref, l]));
  const tab = after.elements.find((l) => {
    const a = old.get(l.ref);
    return (
      a &&
      SWITCH_ROLES.has(l.role) &&
      ON_STATES.some((s) => l.states.includes(s as never) && !a.states.includes(s as never))
    );
  });
  if (!tab) return undefined;
  const added = after.elements.filter((l) => !old.has(l.ref));
  const gone = before.elements.filter((l) => !now.has(l.ref)).length;
  const min = tab.role === 'tab' ? 1 : PAGE_MIN;
  if (added.length < min || gone < min) return undefined;
  // The page's parts: each added element whose parent stays, with what is added under it.
  const addedRefs = new Set(added.map((l) => l.ref));
  const tops = added.filter((l) => l.parent === undefined || !addedRefs.has(l.parent));
  const topOf = new Map<string, string>();
  for (const l of added)
    topOf.set(l.ref, l.parent !== undefined && addedRefs.has(l.parent) ? topOf.get(l.parent)! : l.ref);
  const away = before.away ?? {};
  const changedTops = new Set<string>();
  for (const l of added) {
    const was = away[l.ref];
    if (was === undefined || asBefore(was) !== asBefore(l.text)) changedTops.add(topOf.get(l.ref)!);
  }
  const again = tops.filter((t) => !changedTops.has(t.ref));
  const name = `${tab.role}${tab.name ? ` ${quote(tab.name, MAX_NAME_CHARS)}` : ''}`;
  const lines: string[] = [];
  if (again.length > 0) {
    const inside = added.filter((l) => !changedTops.has(topOf.get(l.ref)!)).length - again.length;
    const span = again.length === 1 ? `[${again[0]!.ref}]` : `[${again[0]!.ref}] … [${again[again.length - 1]!.ref}]`;
    const what = `${compactCount(again.length)} element${again.length === 1 ? '' : 's'}` +
      `${inside > 0 ? ` (+${compactCount(inside)} inside)` : ''}`;
    lines.push(again.length === tops.length
      ? `+ ${span} page of [${tab.ref}] ${name} shown again, as before: ${what}, refs as printed then`
      : `+ ${span} ${what} of the page shown again, as before`);
  }
  const unseen = tops.filter((t) => changedTops.has(t.ref));
  if (unseen.length > 0) {
    const parts = added.filter((l) => changedTops.has(topOf.get(l.ref)!));
    lines.push(...printedParts(after, new Set(unseen.map((t) => t.ref)), parts));
  }
  return { lines, refs: addedRefs };
}

/** A print line's own ref and indentation: `  [e12] button "OK"` → e12, 2. */
function leadOf(line: string): { ref?: string; indent: number } {
  const m = /^( *)\[([^\]]+)\]/u.exec(line);
  return m ? { ref: m[2] ?? '', indent: m[1]?.length ?? 0 } : { indent: line.length - line.trimStart().length };
}

/** Roles a grid's block prints in its rows, not by ref. */
const GRID_PARTS: ReadonlySet<string> = new Set(['cell', 'row', 'columnheader', 'rowheader']);

/**
 * The lines of the window's print (folded and within the budget, as a first print) that show the parts `tops`,
 * each re-indented under its top, and a last line on how to list all of the page when the print left some out.
 */
function printedParts(after: Snapshot, tops: ReadonlySet<string>, parts: readonly SnapshotLine[]): string[] {
  const out: string[] = [];
  const words = new Set<string>();
  let base: number | undefined;
  for (const line of after.text.split('\n')) {
    const lead = leadOf(line);
    if (lead.ref !== undefined && tops.has(lead.ref)) base = lead.indent;
    else if (base !== undefined && (lead.indent <= base || line.trim() === '')) base = undefined;
    if (base === undefined) continue;
    out.push(`+ ${line.slice(base)}`);
    for (const w of line.split(/[^\w]+/u)) words.add(w);
  }
  const left = parts.filter((l) => !GRID_PARTS.has(l.role) && !words.has(l.ref)).length;
  if (left > 0) out.push(`+ (${compactCount(left)} more of the page folded or cut as in a first print; ` +
    'computer_observe full=true lists all of it)');
  return out;
}
