import type { State } from './node.js';
import { escapeText } from './escape.js';
import { compactCount, MAX_NAME_CHARS, MAX_VALUE_CHARS, quote, type SnapshotLine } from './render.js';
import type { Snapshot } from './snapshot.js';

/** Result of `diffSnapshots`. */
export interface SnapshotDiff {
  /** `+` / `-` / `~` lines, then `focus: eN` when focus moved (seed §3.3). */
  lines: string[];
  changed: boolean;
}

/** Options of `diffSnapshots`. */
export interface DiffOptions {
  /** Change lines before `… K more changes`; default 60. The focus line is always added. */
  maxLines?: number;
  /**
   * A scroll to row `row` of table `table`: of its rows that came into view only those within ROWS_NEAR of it are
   * printed, the rest as one line (a file chooser's scroll to row 173 listed 33 rows, 1,019 tokens).
   */
  near?: { table: string; row: number };
}

/** Rows either side of the row a scroll went to that its receipt prints. */
const ROWS_NEAR = 3;

/** How a state reads when it is absent. */
const OPPOSITE: Partial<Record<State, string>> = {
  focused: '(unfocused)', checked: 'unchecked', selected: 'unselected', disabled: 'enabled', expanded: 'collapsed',
  collapsed: 'expanded', pressed: 'unpressed', mixed: '(not mixed)', busy: '(not busy)', modal: '(not modal)',
};

/**
 * Elements of one role with one same change of value or states from which the diff prints one line for them all,
 * wherever they sit: gnumeric's edit line flipped ~40 toolbar buttons to enabled with each keystroke (~600 tokens
 * of diff), Calc's sheet turned hundreds of cells editable, and the change that mattered drowned.
 */
const FOLD_LIKE = 5;
/** Names a folded line lists one by one; more read as first … last. */
const FOLD_NAMES = 6;
/** Cells of a kept grid that came into or left view from which the diff prints the grid's rows instead of them. */
const GRID_MOVED = 10;
/** Tokens of grid rows an added grid shows in a diff (a new sheet: observe shows the rest). */
const DIFF_GRID_TOKENS = 400;

/**
 * Added lines that read alike but for their ref, FOLD_LIKE or more with nothing under them, as one line where the
 * first stood: `+ [e100] … [e163] 64× button "0"` (GNOME Calculator's Programming mode added 64 bit buttons, and
 * the diff was cut before the change that mattered).
 */
function foldAlikeAdded(added: string[]): string[] {
  const indent = (l: string): number => l.length - l.replace(/^\+ */, '').length;
  const keyOf = (l: string, i: number): string | undefined => {
    const m = /^(\+ *)\[[^\]]+\] (.*)$/.exec(l);
    const next = added[i + 1];
    // A line with lines under it (an added subtree) is no leaf: it keeps its lines.
    if (!m || (next !== undefined && indent(next) > indent(l))) return undefined;
    return `${m[1] ?? ''}\u0000${m[2] ?? ''}`;
  };
  const groups = new Map<string, number[]>();
  added.forEach((l, i) => { const k = keyOf(l, i); if (k !== undefined) groups.set(k, [...(groups.get(k) ?? []), i]); });
  const drop = new Set<number>();
  const out = [...added];
  for (const [k, at] of groups) {
    if (at.length < FOLD_LIKE) continue;
    const ref = (i: number): string => /\[([^\]]+)\]/.exec(added[i] ?? '')?.[1] ?? '?';
    const [pad, text] = k.split('\u0000') as [string, string];
    out[at[0]!] = `${pad}[${ref(at[0]!)}] … [${ref(at[at.length - 1]!)}] ${at.length}× ${text}`;
    for (const i of at.slice(1)) drop.add(i);
  }
  return out.filter((_, i) => !drop.has(i));
}

/**
 * At most `max` change lines: when cut, added lines take at most half of them, so a change (`~`) or a removal is
 * not pushed out by a new window's or a view's many added lines; each cut part says how much it left out.
 */
function withinMax(changes: string[], max: number): string[] {
  if (changes.length <= max) return changes;
  const isAdded = (l: string): boolean => l.startsWith('+ ');
  const added = changes.filter(isAdded).length;
  const others = changes.length - added;
  const forOthers = Math.min(others, Math.max(max - added, Math.floor(max / 2)));
  const forAdded = Math.min(added, max - forOthers);
  // Of the other lines, changes (`~`) are kept before removals.
  const otherIdx = changes.map((l, i) => i).filter((i) => !isAdded(changes[i] ?? ''));
  const keptOthers = new Set([...otherIdx.filter((i) => changes[i]?.startsWith('~')), ...otherIdx.filter((i) => !changes[i]?.startsWith('~'))].slice(0, forOthers));
  const out: string[] = [];
  let a = 0;
  let lastAdded = -1;
  changes.forEach((l, i) => {
    if (isAdded(l)) { if (a++ < forAdded) { out.push(l); lastAdded = out.length; } } else if (keptOthers.has(i)) out.push(l);
  });
  if (added > forAdded) out.splice(lastAdded < 0 ? 0 : lastAdded, 0, `+ … ${added - forAdded} more added`);
  if (others > forOthers) out.push(`… ${others - forOthers} more changes`);
  return out;
}

/** The ref a row's line starts with (its lead element). */
const leadRef = (rowText: string): string | undefined => /^\[([^\]]+)\]/.exec(rowText)?.[1];

/** A row line without its states and row number: what it shows (rows that moved compare equal). */
const rowContent = (rowText: string): string => rowText.replace(/^(\[[^\]]+\] \S+(?: "(?:[^"\\]|\\.)*")?)(?: [a-z]+)* — row [\d,]+/u, '$1 — row');

/** "rows 1–12", "rows 3, 7–9", "row 4": row numbers as spans (row 0 is the column headers' line). */
function rowSpans(rows: number[]): string {
  const heads = rows.includes(0) ? 'the column headers and ' : '';
  const sorted = [...new Set(rows)].filter((r) => r > 0).sort((a, b) => a - b);
  if (sorted.length === 0) return 'the column headers';
  const spans: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] ?? 0) + 1) j++;
    const a = (sorted[i] ?? 0).toLocaleString('en-US');
    const b = (sorted[j] ?? 0).toLocaleString('en-US');
    spans.push(i === j ? a : `${a}–${b}`);
    i = j + 1;
  }
  return `${heads}${sorted.length === 1 ? 'row' : 'rows'} ${spans.join(', ')}`;
}

const opposite = (s: State): string => OPPOSITE[s] ?? `(not ${s})`;

/** Characters of the new value a long change shows from its first difference on (a terminal's new output). */
const NEW_TEXT_CHARS = 240;

/** A value without the blank lines that end it (a terminal's screen reads 20+ empty rows after its prompt). */
const withoutBlankTail = (s: string): string => s.replace(/\s*\n\s*$/u, '');

/**
 * Shows where two long values differ: the context around the first difference, the old side cut short and the
 * new side longer (what appeared: a command's output). Trailing blank lines are left out of both, unless they
 * are the whole change (a line break typed at the end). A new side cut short ends with the read that goes on
 * where it stops (`(more: scope=e12 from=270)`): xfce4-terminal's output read `…(605)` and no way on.
 */
function valuePair(rawA: string, rawB: string, b0: SnapshotLine): [string, string, string] {
  const [a, b] = withoutBlankTail(rawA) === withoutBlankTail(rawB) ? [rawA, rawB] : [withoutBlankTail(rawA), withoutBlankTail(rawB)];
  if (a.length <= MAX_VALUE_CHARS && b.length <= MAX_VALUE_CHARS) return [quote(a, MAX_VALUE_CHARS), quote(b, MAX_VALUE_CHARS), ''];
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  const start = Math.max(0, p - 30);
  const show = (s: string, chars: number): string => {
    const head = start > 0 ? '…' : '';
    const part = s.slice(start, start + chars);
    const tail = start + chars < s.length ? `…(${compactCount(s.length)})` : '';
    return `"${head}${escapeText(part)}${tail}"`;
  };
  const cut = start + NEW_TEXT_CHARS < b.length ? ` (more: scope=${b0.ref} from=${(b0.valueStart ?? 0) + start + NEW_TEXT_CHARS})` : '';
  return [show(a, 60), show(b, NEW_TEXT_CHARS), cut];
}

function stateChanges(before: readonly State[], after: readonly State[]): string[] {
  const gained = after.filter((s) => !before.includes(s));
  const lost = before.filter((s) => !after.includes(s));
  const out: string[] = [];
  const skip = new Set<State>();
  for (const s of gained) {
    const o = lost.find((l) => OPPOSITE[s] === l);
    if (o) {
      skip.add(o);
      out.push(`${o} → ${s}`);
    } else out.push(`${opposite(s)} → ${s}`);
  }
  for (const s of lost) if (!skip.has(s)) out.push(`${s} → ${opposite(s)}`);
  return out;
}

/** One element's change: its line, and what changed without naming the element when like elements could share it. */
interface Change { line: string; what?: string }

/**
 * The change line of one element. `what` (the value and state changes alone) is set when the element kept its
 * name and its value is not cut to a part (a cut names its own ref): like elements fold on it.
 */
function changeOf(a: SnapshotLine, b: SnapshotLine): Change | undefined {
  const parts: string[] = [];
  let head = `[${b.ref}] ${b.role}`;
  if (a.name !== b.name) parts.push(`name ${quote(a.name ?? '', MAX_NAME_CHARS)} → ${quote(b.name ?? '', MAX_NAME_CHARS)}`);
  else if (b.name) head += ` ${quote(b.name, MAX_NAME_CHARS)}`;
  let whole = true;
  if ((a.value ?? '') !== (b.value ?? '')) {
    const [x, y, more] = valuePair(a.value ?? '', b.value ?? '', b);
    parts.push(`value ${x} → ${y}${more}`);
    whole = more === '';
  }
  parts.push(...stateChanges(a.states, b.states));
  if (parts.length === 0) return undefined;
  const line = `~ ${head} ${parts.join(', ')}`;
  return a.name === b.name && whole ? { line, what: parts.join(', ') } : { line };
}

/**
 * What changed between two snapshots of one window, by ref (refs are stable): added elements with their
 * added subtree indented under them, removed elements (only the top of a removed subtree, with `(+K inside)`),
 * changed names, values and states, and `focus: eN` when focus moved. At most `maxLines` change lines,
 * then `… K more changes`. Compares `elements`, so what the budget hid is not reported as removed.
 */
export function diffSnapshots(before: Snapshot, after: Snapshot, opts: DiffOptions = {}): SnapshotDiff {
  const max = opts.maxLines ?? 60;
  const old = new Map(before.elements.map((l) => [l.ref, l]));
  const now = new Map(after.elements.map((l) => [l.ref, l]));
  const changes: string[] = [];

  // Added: an element whose parent is also new is printed under it, indented relative to the added top.
  // A new grid (a sheet, a web table) reads as a grid block, as in observe: its cells are not lines of their own
  // (a click on Calc's "Calc Spreadsheet" gave ~470 `+ cell` lines).
  const addedDepth = new Map<string, number>();
  const inNewGrid = new Set<string>();
  // Rows hook (rows.ts): a sliced table's row with new elements (it came into view) prints as its one row line.
  const rowKey = (l: SnapshotLine): string | undefined => (l.row ? `${l.row.table}\u0000${l.row.n}` : undefined);
  // A row that lost elements it had (a file deleted above it: the rows moved up) prints its old line removed.
  const rowsBefore = new Map<string, string>();
  for (const l of before.elements) {
    const k = rowKey(l);
    if (k !== undefined && l.row && !now.has(l.ref)) rowsBefore.set(k, l.row.text);
  }
  const rowPrinted = new Set<string>();
  // Rows whose line reads as a line printed before at another row number (rows that moved), per table.
  const rowMoves = new Map<string, { by: number; rows: number[] }>();
  const oldRowOf = new Map<string, NonNullable<SnapshotLine['row']>>();
  for (const l of before.elements) if (l.row && leadRef(l.row.text) === l.ref) oldRowOf.set(l.ref, l.row);
  const movedFrom = (r: NonNullable<SnapshotLine['row']>): number | undefined => {
    const lead = leadRef(r.text);
    const was = lead === undefined ? undefined : oldRowOf.get(lead);
    return was && was.table === r.table && was.n !== r.n && rowContent(was.text) === rowContent(r.text) ? was.n : undefined;
  };
  const near = opts.near;
  const far = (r: NonNullable<SnapshotLine['row']>): boolean => near !== undefined && r.table === near.table && Math.abs(r.n - near.row) > ROWS_NEAR;
  // Rows of the scrolled table that came into view and are not printed (see `near`).
  const unprinted = new Set<number>();
  // A grid that stays but shows other cells (Calc's sheet after Find Next scrolled it): one grid block, as in
  // observe, not a `+` line per cell that came into view and a `-` line per cell that left (842 tokens).
  // The grid a cell, a row or an element inside a cell (a web table's button) belongs to.
  const gridOf = (l: SnapshotLine, within: ReadonlyMap<string, SnapshotLine>): SnapshotLine | undefined => {
    let inCell = l.role === 'cell' || l.role === 'row';
    for (let p = l.parent !== undefined ? within.get(l.parent) : undefined, up = 0; p && up < 6; p = p.parent !== undefined ? within.get(p.parent) : undefined, up++) {
      // A snapshot kept across calls (the CLI's, read back from disk) has lost its lines' grid renderers: the table
      // is a grid when it is one now.
      if (p.grid || now.get(p.ref)?.grid) return inCell ? p : undefined;
      if (p.role === 'cell') inCell = true;
    }
    return undefined;
  };
  const keptGrid = (l: SnapshotLine, within: ReadonlyMap<string, SnapshotLine>): SnapshotLine | undefined => {
    const g = gridOf(l, within);
    return g && old.has(g.ref) && now.get(g.ref)?.grid ? now.get(g.ref) : undefined;
  };
  // Per kept grid, the lines of its cells that came or went: a grid block replaces them when they are many.
  const movedGrids = new Map<string, { grid: SnapshotLine; lines: string[] }>();
  const noteMoved = (grid: SnapshotLine, line: string): void => {
    const m = movedGrids.get(grid.ref) ?? { grid, lines: [] };
    m.lines.push(line);
    movedGrids.set(grid.ref, m);
  };
  const addedFrom = changes.length;
  for (const l of after.elements) {
    if (old.has(l.ref)) continue;
    const grid = keptGrid(l, now);
    if (grid) { noteMoved(grid, `+ ${l.text}`); continue; }
    const k = rowKey(l);
    if (k !== undefined && l.row) {
      if (!rowPrinted.has(k)) {
        rowPrinted.add(k);
        if (far(l.row)) { unprinted.add(l.row.n); continue; }
        const was = rowsBefore.get(k);
        // The row's line names an element that stays: its old line left only if that element is gone.
        const wasLead = was === undefined ? undefined : leadRef(was);
        const wasGone = was !== undefined && was !== l.row.text && (wasLead === undefined || !now.has(wasLead));
        const moved = movedFrom(l.row);
        if (moved !== undefined) {
          // The same row one or more places up or down (a file deleted above it): one line for all such rows.
          const m = rowMoves.get(l.row.table) ?? { by: l.row.n - moved, rows: [] };
          if (m.by === l.row.n - moved) { m.rows.push(l.row.n); rowMoves.set(l.row.table, m); if (wasGone) changes.push(`- ${was}`); continue; }
        }
        if (wasGone) changes.push(`- ${was}`);
        changes.push(`+ ${l.row.text}`);
      }
      continue;
    }
    if (l.parent !== undefined && inNewGrid.has(l.parent)) { inNewGrid.add(l.ref); continue; }
    const parentRel = l.parent !== undefined ? addedDepth.get(l.parent) : undefined;
    const rel = parentRel === undefined ? 0 : parentRel + 1;
    addedDepth.set(l.ref, rel);
    if (l.grid) {
      inNewGrid.add(l.ref);
      const g = l.grid(DIFF_GRID_TOKENS);
      changes.push(`+ ${'  '.repeat(rel)}${l.text} ${g.summary}`, ...g.rows.map((r) => `+ ${'  '.repeat(rel + 1)}${r}`));
      continue;
    }
    changes.push(`+ ${'  '.repeat(rel)}${l.text}`);
  }
  changes.splice(addedFrom, changes.length - addedFrom, ...foldAlikeAdded(changes.slice(addedFrom)));

  for (const [table, m] of rowMoves) {
    const t = now.get(table);
    const n = m.rows.length;
    changes.push(`~ ${n} row${n === 1 ? '' : 's'} of [${table}]${t ? ` ${t.role}${t.name ? ` ${quote(t.name, MAX_NAME_CHARS)}` : ''}` : ''} moved ${m.by < 0 ? 'up' : 'down'} ${Math.abs(m.by)}, each showing what it showed before (now ${rowSpans(m.rows)})`);
  }
  if (near && unprinted.size > 0) {
    const all = [...unprinted, ...after.elements.filter((l) => l.row?.table === near.table && rowPrinted.has(rowKey(l) ?? '')).map((l) => l.row!.n)];
    changes.push(`+ … ${unprinted.size} more row${unprinted.size === 1 ? '' : 's'} in view (${rowSpans(all)} on screen; computer_observe scope=${near.table} lists them)`);
  }

  // Removed: only tops of removed subtrees, with the number of removed descendants. Rows of a sliced table that
  // left it (a scroll moved them out of view) read as one line per table: which rows, not every cell.
  const removedTop = new Map<string, { line: SnapshotLine; inside: number }>();
  const topOf = new Map<string, string>();
  const rowsLeft = new Map<string, Set<number>>();
  const rowsStay = new Set(after.elements.map(rowKey).filter((k): k is string => k !== undefined));
  for (const l of before.elements) {
    if (now.has(l.ref)) continue;
    const grid = keptGrid(l, old);
    if (grid) { noteMoved(grid, `- ${l.text}`); topOf.set(l.ref, l.ref); continue; }
    const k = rowKey(l);
    // A row still there whose new elements were printed above came with its old line.
    if (k !== undefined && l.row && (!rowsStay.has(k) || rowPrinted.has(k))) {
      topOf.set(l.ref, l.ref);
      if (rowsStay.has(k)) continue;
      const set = rowsLeft.get(l.row.table) ?? new Set<number>();
      set.add(l.row.n);
      rowsLeft.set(l.row.table, set);
      continue;
    }
    const top = l.parent !== undefined ? topOf.get(l.parent) : undefined;
    if (top !== undefined) {
      topOf.set(l.ref, top);
      const t = removedTop.get(top);
      if (t) t.inside++;
    } else {
      topOf.set(l.ref, l.ref);
      removedTop.set(l.ref, { line: l, inside: 0 });
    }
  }
  for (const { line, inside } of removedTop.values()) {
    changes.push(`- ${line.text}${inside > 0 ? ` (+${inside} inside)` : ''}`);
  }
  for (const { grid: g, lines: moved } of movedGrids.values()) {
    // A scroll to a row of this grid asked for that row: room for the rows down to it (a trial's 'to 151' was
    // cut at row 135, before the row and its button).
    const shown = moved.length >= GRID_MOVED ? g.grid?.(near?.table === g.ref ? DIFF_GRID_TOKENS * 3 : DIFF_GRID_TOKENS) : undefined;
    if (!shown) { changes.push(...moved); continue; }
    changes.push(`~ [${g.ref}] ${g.role}${g.name ? ` ${quote(g.name, MAX_NAME_CHARS)}` : ''} shows other cells: ${shown.summary}`, ...shown.rows.map((r) => `+   ${r}`));
  }
  for (const [table, set] of rowsLeft) {
    const t = now.get(table) ?? old.get(table);
    changes.push(`- ${rowSpans([...set])} of [${table}]${t ? ` ${t.role}${t.name ? ` ${quote(t.name, MAX_NAME_CHARS)}` : ''}` : ''}`);
  }

  // Changed. Many elements of one role with one same change (a sheet's cells all turning editable when the sheet
  // loses focus: hundreds of lines; Calc's alt+Return filling A1:A20 with "5": twenty value lines) read as one
  // line; otherwise they fill the line budget and hide the change that matters (a field's new value, a button).
  const changed: { line: string; b: SnapshotLine; key?: string; what?: string }[] = [];
  const groups = new Map<string, SnapshotLine[]>();
  for (const b of after.elements) {
    const a = old.get(b.ref);
    if (!a) continue;
    const c = changeOf(a, b);
    if (!c) continue;
    if (c.what === undefined) { changed.push({ line: c.line, b }); continue; }
    const key = `${b.role}\u0000${c.what}`;
    changed.push({ line: c.line, b, key, what: c.what });
    const g = groups.get(key);
    if (g) g.push(b); else groups.set(key, [b]);
  }
  const label = (l: SnapshotLine): string => `[${l.ref}]${l.name ? ` ${quote(l.name, MAX_NAME_CHARS)}` : ''}`;
  for (const c of changed) {
    const group = c.key !== undefined ? groups.get(c.key) : undefined;
    if (!group || group.length < FOLD_LIKE) { changes.push(c.line); continue; }
    if (group[0] !== c.b) continue;
    // Calc's cells all turn editable when the sheet takes the focus and back when it loses it: a line on nearly
    // every receipt (a trial called it noise), and no cell became any more or less writable for the model.
    if (c.b.role === 'cell' && /^(?:editable → \(not editable\)|\(not editable\) → editable)$/.test(c.what ?? '')) continue;
    // "of [e3] table" when they share a parent; their names one by one when few, else the first and the last.
    const parent = group.every((g) => g.parent === c.b.parent) && c.b.parent !== undefined ? now.get(c.b.parent) : undefined;
    const last = group[group.length - 1] ?? c.b;
    const of = parent ? ` of [${parent.ref}] ${parent.role}${parent.name ? ` ${quote(parent.name, MAX_NAME_CHARS)}` : ''}` : '';
    const names = group.length <= FOLD_NAMES ? group.map(label).join(', ') : `${label(c.b)} … ${label(last)}`;
    changes.push(`~ ${group.length} ${c.b.role}s${of} (${names}) ${c.what ?? ''}`);
  }

  const lines = withinMax(changes, max);
  if (before.focusRef !== after.focusRef) lines.push(`focus: ${after.focusRef ?? '(none)'}`);
  return { lines, changed: lines.length > 0 };
}
