import type { State } from './node.js';
import { escapeText } from './escape.js';
import { compactCount, MAX_NAME_CHARS, MAX_VALUE_CHARS, quote } from './measure.js';
import type { SnapshotLine } from './line.js';
import type { Snapshot } from './snapshot.js';
import { refillBlocks } from './diff-refill.js';
import { RECEIPT_GRID_FOLD, rowOfAddressBox, type GridFold } from './grid.js';
import { COMBO_LIST_ROLES } from './fold.js';
import { pageSwitchLines } from './diff-pages.js';

/** Result of `diffSnapshots`. */
export interface SnapshotDiff {
  /** `+` / `-` / `~` lines, then `focus: eN` when focus moved. */
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
  /** Rows that came into a table print whole, each its line (a scroll by an amount: the model scrolled to read). */
  rowsWhole?: boolean;
  /**
   * Refs the model was shown of this window (on a line of a print, in a fold line's names, in a receipt): removals
   * name only these. A removed element it never saw (a fold's or a cut list's hidden members, a page it never
   * printed) reads as a count on the nearest container it saw that stays (`- [e116] pane: 8 items fewer`). Unset:
   * every element counts as seen.
   */
  seen?: ReadonlySet<string>;
}

/** Rows either side of the row a scroll went to that its receipt prints. */
const ROWS_NEAR = 1;

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
  added.forEach((l, i) => {
    const k = keyOf(l, i);
    if (k !== undefined) groups.set(k, [...(groups.get(k) ?? []), i]);
  });
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

/** Roles of a menu's entries: its items and its submenus. */
const MENU_ENTRY_ROLES: ReadonlySet<string> = new Set(['menuitem', 'menu']);
/** Added menu entries in a row from which they print as one line. */
const MENU_FOLD_MIN = 4;

/**
 * Added entries of an opened menu, MENU_FOLD_MIN or more in a row under one parent with nothing under them, as
 * one line in the fold line's shape, each entry by ref and name with its states and submenu mark: `+ [e14] …
 * [e28] 15 menuitems: e14 "Undo" disabled, e18 "Paste" selected, e19 menu "Paste Special", …` (mousepad's Edit
 * menu read 15 lines, ~170 tokens, each time it opened).
 */
function foldMenuItems(added: string[], now: ReadonlyMap<string, SnapshotLine>): string[] {
  const parse = (l: string): { pad: string; line: SnapshotLine; rest: string } | undefined => {
    const m = /^\+ ( *)\[([^\]]+)\] ([a-z]+) ("(?:[^"\\]|\\.)*".*)$/.exec(l);
    const line = m?.[2] !== undefined ? now.get(m[2]) : undefined;
    return m && line && MENU_ENTRY_ROLES.has(line.role) && m[3] === line.role
      ? { pad: m[1] ?? '', line, rest: m[4] ?? '' } : undefined;
  };
  const indent = (l: string | undefined): number => (l === undefined ? -1 : l.length - l.replace(/^\+ */, '').length);
  const out: string[] = [];
  for (let i = 0; i < added.length;) {
    const a = parse(added[i] ?? '');
    let j = i;
    const run: { line: SnapshotLine; rest: string }[] = [];
    while (a && j < added.length) {
      const e = parse(added[j] ?? '');
      // An entry with lines under it (an opened submenu) keeps its lines.
      if (!e || e.pad !== a.pad || e.line.parent !== a.line.parent || indent(added[j + 1]) > indent(added[j])) break;
      run.push(e);
      j++;
    }
    if (!a || run.length < MENU_FOLD_MIN) { out.push(added[i] ?? ''); i++; continue; }
    const role = run.filter((e) => e.line.role === 'menuitem').length * 2 >= run.length ? 'menuitem' : 'menu';
    const entries = run.map((e) => `${e.line.ref} ${e.line.role === role ? '' : `${e.line.role} `}${e.rest}`);
    const first = run[0]!.line.ref;
    const last = run[run.length - 1]!.line.ref;
    out.push(`+ ${a.pad}[${first}] … [${last}] ${run.length} ${role}s: ${entries.join(', ')}`);
    i = j;
  }
  return out;
}

/** States an added button keeps its own line for: what is on, focused or open. */
const OWN_LINE_STATES = /\b(?:focused|selected|checked|pressed|expanded|mixed|busy|invalid)\b/u;

/**
 * A run of FOLD_LIKE or more added buttons, each a leaf line of its own, side by side at one depth, as one line
 * like a first print's fold: `+ [e42] … [e67] 26 buttons: e42 "C", e43 "sin", …, e56 "A" disabled, …`.
 * galculator's scientific mode added 26 buttons, a line each. A button that is on, focused or open keeps its line.
 */
function foldAddedButtons(added: readonly string[]): string[] {
  const parse = (l: string | undefined): { pad: string; ref: string; rest: string } | undefined => {
    const m = /^(\+ *)\[([^\]]+)\] button( "(?:[^"\\]|\\.)*"(?: disabled)?)$/u.exec(l ?? '');
    return m && !OWN_LINE_STATES.test(m[3] ?? '') ? { pad: m[1] ?? '', ref: m[2] ?? '', rest: m[3] ?? '' } : undefined;
  };
  const out: string[] = [];
  for (let i = 0; i < added.length;) {
    const a = parse(added[i]);
    let j = i + 1;
    while (a && j < added.length && parse(added[j])?.pad === a.pad) j++;
    if (!a || j - i < FOLD_LIKE) { out.push(added[i] ?? ''); i++; continue; }
    const run = added.slice(i, j).map(parse) as { ref: string; rest: string }[];
    const names = run.map((r) => `${r.ref}${r.rest}`).join(", ");
    out.push(`${a.pad}[${a.ref}] … [${run[run.length - 1]?.ref ?? '?'}] ${run.length} buttons: ${names}`);
    i = j;
  }
  return out;
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
  const keptOthers = new Set(
    [
      ...otherIdx.filter((i) => changes[i]?.startsWith('~')),
      ...otherIdx.filter((i) => !changes[i]?.startsWith('~')),
    ].slice(0, forOthers),
  );
  const out: string[] = [];
  let a = 0;
  let lastAdded = -1;
  changes.forEach((l, i) => {
    if (isAdded(l)) {
      if (a++ < forAdded) {
        out.push(l);
        lastAdded = out.length;
      }
    } else if (keptOthers.has(i)) out.push(l);
  });
  if (added > forAdded) out.splice(lastAdded < 0 ? 0 : lastAdded, 0, `+ … ${added - forAdded} more added`);
  if (others > forOthers) out.push(`… ${others - forOthers} more changes`);
  return out;
}

/** The ref a row's line starts with (its lead element). */
const leadRef = (rowText: string): string | undefined => /^\[([^\]]+)\]/.exec(rowText)?.[1];

/** A row line without its states and row number: what it shows (rows that moved compare equal). */
const rowContent = (rowText: string): string =>
  rowText.replace(/^(\[[^\]]+\] \S+(?: "(?:[^"\\]|\\.)*")?)(?: [a-z]+)* — row [\d,]+/u, '$1 — row');

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
  const [a, b] =
    withoutBlankTail(rawA) === withoutBlankTail(rawB) ? [rawA, rawB] : [withoutBlankTail(rawA), withoutBlankTail(rawB)];
  if (a.length <= MAX_VALUE_CHARS && b.length <= MAX_VALUE_CHARS) {
    return sharedEndsCut(a, b) ?? [quote(a, MAX_VALUE_CHARS), quote(b, MAX_VALUE_CHARS), ''];
  }
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  const start = Math.max(0, p - 30);
  const show = (s: string, chars: number): string => {
    const head = start > 0 ? '…' : '';
    const part = s.slice(start, start + chars);
    const tail = start + chars < s.length ? `…(${compactCount(s.length)})` : '';
    return `"${head}${escapeText(part)}${tail}"`;
  };
  const cut =
    start + NEW_TEXT_CHARS < b.length
      ? ` (more: scope=${b0.ref} from=${(b0.valueStart ?? 0) + start + NEW_TEXT_CHARS})`
      : '';
  return [show(a, 60), show(b, NEW_TEXT_CHARS), cut];
}

/** Characters two values share at their start or end that a change leaves out, from this many on. */
const SHARED_MIN = 24;
/** Characters of a shared start a change keeps before the part that differs. */
const SHARED_CONTEXT = 8;

/**
 * A short value's change without what both sides share at their start or end, when that is SHARED_MIN characters
 * or more: galculator's display read `"5\n DEC  HEX  OCT  BIN …"` → `"51\n DEC …"`, its 60-character mode line
 * twice on every key, and a line added at the end repeated the text before it. A shared start reads as `…` and a
 * few of its characters; a shared end is said after the pair (`+ the same 66 characters after each`), so each side
 * reads as it begins.
 */
function sharedEndsCut(a: string, b: string): [string, string, string] | undefined {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  let from = p >= SHARED_MIN ? p - SHARED_CONTEXT : 0;
  let drop = q >= SHARED_MIN ? q : 0;
  // Never half of a character written as two code units (an emoji).
  const low = (i: number): boolean => (a.charCodeAt(i) & 0xfc00) === 0xdc00;
  if (from > 0 && low(from)) from--;
  if (drop > 0 && low(a.length - drop)) drop--;
  if (from + drop === 0) return undefined;
  const show = (x: string): string => `"${from > 0 ? '…' : ''}${escapeText(x.slice(from, x.length - drop))}"`;
  return [show(a), show(b), drop > 0 ? ` (+ the same ${drop} characters after each)` : ''];
}

/** Characters of a long name a change shows (either side); shorter names show whole. */
const NAME_CHANGE_CHARS = 60;
/** Characters kept on either side of the part of a long name that changed. */
const NAME_CONTEXT = 20;

/**
 * A long name's change as the part that differs, with a little context, on both sides: a title that gained its
 * modified mark repeated a 60-character path twice, a status bar's 120 characters read twice for one number. A
 * shorter one without the start or end both sides share, as a short value (`sharedEndsCut`): FeatherPad's status
 * label read its 50 characters twice for one word count. The window's title (`title`) shows whole when short.
 */
function namePair(a: string, b: string, title = false): string {
  if (a.length <= NAME_CHANGE_CHARS && b.length <= NAME_CHANGE_CHARS) {
    const cut = title ? undefined : sharedEndsCut(a, b);
    return cut ? `${cut[0]} → ${cut[1]}${cut[2]}` : `${quote(a, MAX_NAME_CHARS)} → ${quote(b, MAX_NAME_CHARS)}`;
  }
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  const from = Math.max(0, p - NAME_CONTEXT);
  const show = (x: string): string => {
    const end = Math.min(x.length, x.length - q + NAME_CONTEXT, from + MAX_NAME_CHARS);
    return `"${from > 0 ? '…' : ''}${escapeText(x.slice(from, end))}${end < x.length ? '…' : ''}"`;
  };
  return `${show(a)} → ${show(b)}`;
}

/** A window title shorter than this shows whole on the old side of its change. */
const TITLE_WHOLE_CHARS = 24;
/** Characters kept on either side of the part of an old title that changed (to the end of a word, up to 8 more). */
const TITLE_CONTEXT = 8;

/**
 * A window title's change, said once: the new title whole (the one the model names the window by from now on), the
 * old one only as the part that changed with a little context (`"*config.py…" → "config.py - /tmp/… - Geany"`). The
 * receipt's header no longer repeats the pair (a save's title printed twice in full, ~25 tokens each).
 */
export function titlePair(a: string, b: string): string {
  if (a.length <= TITLE_WHOLE_CHARS) return `${quote(a, MAX_NAME_CHARS)} → ${quote(b, MAX_NAME_CHARS)}`;
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  let from = Math.max(0, p - TITLE_CONTEXT);
  let end = Math.min(a.length, a.length - q + TITLE_CONTEXT);
  // Whole words where they end soon: "*config.py…", not "*config.p…".
  const back = a.lastIndexOf(' ', from);
  if (from > 0 && back >= 0 && from - back <= TITLE_CONTEXT) from = back + 1;
  const on = a.indexOf(' ', end);
  if (end < a.length && on >= 0 && on - end <= TITLE_CONTEXT) end = on;
  if (from === 0 && end >= a.length - 1) return `${quote(a, MAX_NAME_CHARS)} → ${quote(b, MAX_NAME_CHARS)}`;
  const old = `"${from > 0 ? '…' : ''}${escapeText(a.slice(from, Math.min(end, from + MAX_NAME_CHARS)))}` +
    `${end < a.length ? '…' : ''}"`;
  return `${old} → ${quote(b, MAX_NAME_CHARS)}`;
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
  // The window's own line (depth 0) is its title: the new one whole, once (titlePair).
  if (a.name !== b.name) {
    const pair =
      b.depth === 0
        ? titlePair(a.name ?? '', b.name ?? '')
        : namePair(a.name ?? '', b.name ?? '', b.parent === undefined);
    parts.push(`name ${pair}`);
  }
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

/** The row of a sliced table an element sits in (engine/rows.ts). */
type Row = NonNullable<SnapshotLine['row']>;

/** What the passes of one diff share: both snapshots by ref, the rows the added pass printed, the moved grids. */
interface DiffPass {
  readonly before: Snapshot;
  readonly after: Snapshot;
  readonly old: ReadonlyMap<string, SnapshotLine>;
  readonly now: ReadonlyMap<string, SnapshotLine>;
  readonly near: DiffOptions['near'];
  readonly rowsWhole: boolean;
  /** Rows of sliced tables the added pass printed as their row line (their old line went with them). */
  readonly rowPrinted: Set<string>;
  /** Per kept grid, the lines of its cells that came or went: a grid block replaces them when they are many. */
  readonly movedGrids: Map<string, { grid: SnapshotLine; lines: string[] }>;
  /** Grids printed as a block of the cells they show now: their cells' own changes are in that block. */
  readonly shownGrids: Set<string>;
  /** DiffOptions `seen`. */
  readonly seen: ReadonlySet<string> | undefined;
  /** Added elements a page switch's lines stand for (diff-pages.ts): the added pass leaves them out. */
  readonly paged: ReadonlySet<string>;
}

/**
 * What changed between two snapshots of one window, by ref (refs are stable): added elements with their
 * added subtree indented under them, removed elements (only the top of a removed subtree, with `(+K inside)`),
 * changed names, values and states, and `focus: eN` when focus moved. At most `maxLines` change lines,
 * then `… K more changes`. Compares `elements`, so what the budget hid is not reported as removed.
 */
export function diffSnapshots(before: Snapshot, after: Snapshot, opts: DiffOptions = {}): SnapshotDiff {
  const page = pageSwitchLines(before, after);
  const pass: DiffPass = {
    before,
    after,
    old: new Map(before.elements.map((l) => [l.ref, l])),
    now: new Map(after.elements.map((l) => [l.ref, l])),
    near: opts.near,
    rowsWhole: opts.rowsWhole ?? false,
    rowPrinted: new Set(),
    movedGrids: new Map(),
    shownGrids: new Set(),
    seen: opts.seen,
    paged: page?.refs ?? new Set(),
  };
  // In this order: the added pass notes the rows it printed and the grid cells that came, which the removed pass reads.
  // The removed pass also prints the cells that came into a kept grid: their lines are looked up in both. The changed
  // pass then leaves out the cells of a grid printed as a block (Calc's sheet printed its rows three times over).
  const both = new Map([...pass.old, ...pass.now]);
  const addedAll = addedLines(pass);
  const removedAll = removedLines(pass);
  const { lines: changed, refilled } = changedLines(pass);
  const added = addedAll.filter((l) => !inRefilled(l, pass.now, refilled));
  const removed = removedAll.filter((l) => !inRefilled(l, both, refilled));
  // A page's lines are within a first print's budget already: the line cap leaves them whole.
  const lines = [...withinMax([...added, ...removed, ...changed], opts.maxLines ?? 60), ...(page?.lines ?? [])];
  if (before.focusRef !== after.focusRef) lines.push(`focus: ${after.focusRef ?? '(none)'}`);
  return { lines, changed: lines.length > 0 };
}

/** `[e4] "Undo"`: an element of a folded line, by ref and name. */
const label = (l: SnapshotLine): string => `[${l.ref}]${l.name ? ` ${quote(l.name, MAX_NAME_CHARS)}` : ''}`;

/** A sliced table's row an element sits in, as one key. */
const rowKey = (l: SnapshotLine): string | undefined => (l.row ? `${l.row.table}\u0000${l.row.n}` : undefined);

/** "[e3] table "Files"": how a table or grid is named on a line. */
const tableLabel = (t: SnapshotLine | undefined): string =>
  t ? ` ${t.role}${t.name ? ` ${quote(t.name, MAX_NAME_CHARS)}` : ''}` : '';

/** The grid a cell, a row or an element inside a cell (a web table's button) belongs to. */
function gridOf(
  l: SnapshotLine,
  within: ReadonlyMap<string, SnapshotLine>,
  now: ReadonlyMap<string, SnapshotLine>,
): SnapshotLine | undefined {
  let inCell = l.role === 'cell' || l.role === 'row';
  for (
    let p = l.parent !== undefined ? within.get(l.parent) : undefined, up = 0;
    p && up < 6;
    p = p.parent !== undefined ? within.get(p.parent) : undefined, up++
  ) {
    // A snapshot kept across calls (the CLI's, read back from disk) has lost its lines' grid renderers: the table
    // is a grid when it is one now.
    if (p.grid || now.get(p.ref)?.grid) return inCell ? p : undefined;
    if (p.role === 'cell') inCell = true;
  }
  return undefined;
}

/**
 * A grid that stays but shows other cells (Calc's sheet after Find Next scrolled it): one grid block, as in
 * observe, not a `+` line per cell that came into view and a `-` line per cell that left (842 tokens). The kept
 * grid an element belongs to, if any.
 */
function keptGrid(p: DiffPass, l: SnapshotLine, within: ReadonlyMap<string, SnapshotLine>): SnapshotLine | undefined {
  const g = gridOf(l, within, p.now);
  return g && p.old.has(g.ref) && p.now.get(g.ref)?.grid ? p.now.get(g.ref) : undefined;
}

/** Notes a line of a kept grid's cell that came or went (printed by the removed pass, as lines or as a block). */
function noteMoved(p: DiffPass, grid: SnapshotLine, line: string): void {
  const m = p.movedGrids.get(grid.ref) ?? { grid, lines: [] };
  m.lines.push(line);
  p.movedGrids.set(grid.ref, m);
}

/** Per ref, how many elements of `lines` sit directly under it. */
/**
 * For each list whose app keeps items off screen and that got added items here: how many of its items show, so the
 * items a receipt lists ("14 listitems") do not read as the whole list (a model counted a category's icons by them).
 */
function partListLines(p: DiffPass, kids: ReadonlyMap<string, number>): string[] {
  const out: string[] = [];
  for (const l of p.after.elements) {
    if (!l.offscreenItems) continue;
    const added = p.after.elements.some((c) => c.parent === l.ref && !p.old.has(c.ref) && !p.paged.has(c.ref));
    if (!added) continue;
    const shown = kids.get(l.ref) ?? 0;
    const all = shown + l.offscreenItems;
    out.push(
      `+ … ${shown.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} items of [${l.ref}] show; ` +
        `scroll or find for the rest`,
    );
  }
  return out;
}

function childCounts(lines: readonly SnapshotLine[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) if (l.parent !== undefined) out.set(l.parent, (out.get(l.parent) ?? 0) + 1);
  return out;
}

/**
 * True for the one item of a closed combo box's kept list that only repeats the choice the combo box shows (a web
 * page's `<select>` lists its selected option alone): a choice made read `+ [e38] menuitem "Large" selected` and
 * `- [e30] menuitem "Small" selected` over the combo box's own `value "Small" → "Large"`. A print leaves such a
 * list out (fold.ts comboWithoutEcho); so does a diff.
 */
function echoesCombo(p: DiffPass, l: SnapshotLine, within: ReadonlyMap<string, SnapshotLine>,
  kids: ReadonlyMap<string, number>): boolean {
  const list = l.parent !== undefined ? within.get(l.parent) : undefined;
  const combo = list?.parent !== undefined ? within.get(list.parent) : undefined;
  if (!list || !combo || combo.role !== 'combobox' || combo.states.includes('expanded')) return false;
  if (!COMBO_LIST_ROLES.has(list.role) || list.name || !p.old.has(list.ref) || !p.now.has(list.ref)) return false;
  const shown = l.name ?? l.value;
  return kids.get(list.ref) === 1 && !kids.has(l.ref) && !l.states.includes('focused') && shown !== undefined
    && (shown === combo.name || shown === combo.value);
}

/** What the added pass keeps while it walks: depths of added subtrees, new grids, sliced rows and how they moved. */
interface AddedWalk {
  readonly out: string[];
  readonly addedDepth: Map<string, number>;
  readonly inNewGrid: Set<string>;
  /** A row that lost elements it had (a file deleted above it: the rows moved up): its old line, by row key. */
  readonly rowsBefore: Map<string, string>;
  /** Each row's lead element's row, before: what a row that moved is recognized by. */
  readonly oldRowOf: Map<string, Row>;
  /** Rows whose line reads as a line printed before at another row number (rows that moved), per table. */
  readonly rowMoves: Map<string, { by: number; rows: number[] }>;
  /** Rows of the scrolled table that came into view and are not printed (see DiffOptions `near`). */
  readonly unprinted: Set<number>;
  /** Per table, the rows printed as `+` lines: where in `out`, their number, and whether one is selected or focused. */
  readonly printedRows: Map<string, { at: number; n: number; shown: boolean }[]>;
}

/** Rows that came into a table a diff prints before it folds the rest (a scroll's are ROWS_NEAR its row). */
const ADDED_ROWS = 3;
/** Rows that came into a table from which a diff prints ADDED_ROWS and one line for the others. */
const ADDED_ROWS_FOLD = 6;

/** A row line's states: `[e71] cell "q3-summary.txt" selected focused — row 1: …` → "selected focused". */
const rowLineStates = (rowText: string): string =>
  /^\[[^\]]+\] \S+(?: "(?:[^"\\]|\\.)*")?((?: [a-z]+)*) — row/u.exec(rowText)?.[1] ?? '';

/**
 * Rows that came into a table, ADDED_ROWS_FOLD or more, as the rows within ROWS_NEAR of those selected or focused
 * (as a scroll's and a grid's receipt print the rows around their target), else their first ADDED_ROWS, and one
 * line for the rest where the first left out stood: Thunar's switch to its list view, and its return to the top
 * after a rename, each printed the 12 rows on screen (~270 tokens), which find and scope reach.
 */
function foldAddedRows(walk: AddedWalk): string[] {
  const put = new Map<number, string>();
  for (const [table, rows] of walk.printedRows) {
    if (rows.length < ADDED_ROWS_FOLD) continue;
    const marked = rows.filter((r) => r.shown).map((r) => r.n);
    const kept = (r: { n: number }, i: number): boolean =>
      marked.length ? marked.some((n) => Math.abs(n - r.n) <= ROWS_NEAR) : i < ADDED_ROWS;
    const left = rows.filter((r, i) => !kept(r, i));
    left.forEach((r, i) =>
      put.set(
        r.at,
        i === 0
          ? `+ … ${left.length} more rows (${rowSpans(rows.map((x) => x.n))} came into view; ` +
              `computer_observe scope=${table} lists them)`
          : '',
      ),
    );
  }
  return put.size === 0
    ? walk.out
    : walk.out.flatMap((l, i) => {
        const x = put.get(i);
        return x === undefined ? [l] : x ? [x] : [];
      });
}

/**
 * The added pass: an element whose parent is also new is printed under it, indented relative to the added top.
 * A new grid (a sheet, a web table) reads as a grid block, as in observe: its cells are not lines of their own
 * (a click on Calc's "Calc Spreadsheet" gave ~470 `+ cell` lines). Rows hook (rows.ts): a sliced table's row with
 * new elements (it came into view) prints as its one row line; rows that moved read as one line per table.
 */
function addedLines(p: DiffPass): string[] {
  const walk: AddedWalk = {
    out: [],
    addedDepth: new Map(),
    inNewGrid: new Set(),
    rowsBefore: new Map(),
    oldRowOf: new Map(),
    rowMoves: new Map(),
    unprinted: new Set(),
    printedRows: new Map(),
  };
  for (const l of p.before.elements) {
    const k = rowKey(l);
    if (k !== undefined && l.row && !p.now.has(l.ref)) walk.rowsBefore.set(k, l.row.text);
    if (l.row && leadRef(l.row.text) === l.ref) walk.oldRowOf.set(l.ref, l.row);
  }
  const kids = childCounts(p.after.elements);
  for (const l of p.after.elements) {
    if (p.old.has(l.ref) || p.paged.has(l.ref)) continue;
    const grid = keptGrid(p, l, p.now);
    if (grid) { noteMoved(p, grid, `+ ${l.text}`); continue; }
    if (rowKey(l) !== undefined && l.row) { addedRow(p, walk, l.row); continue; }
    if (echoesCombo(p, l, p.now, kids)) continue;
    if (l.parent !== undefined && walk.inNewGrid.has(l.parent)) { walk.inNewGrid.add(l.ref); continue; }
    const parentRel = l.parent !== undefined ? walk.addedDepth.get(l.parent) : undefined;
    const rel = parentRel === undefined ? 0 : parentRel + 1;
    walk.addedDepth.set(l.ref, rel);
    if (l.grid) {
      walk.inNewGrid.add(l.ref);
      const g = l.grid(DIFF_GRID_TOKENS);
      walk.out.push(
        `+ ${'  '.repeat(rel)}${l.text} ${g.summary}`,
        ...g.rows.map((r) => `+ ${'  '.repeat(rel + 1)}${r}`),
      );
      continue;
    }
    walk.out.push(`+ ${'  '.repeat(rel)}${l.text}`);
  }
  const out = foldMenuItems(foldAddedButtons(foldAlikeAdded(foldAddedRows(walk))), p.now);
  out.push(...partListLines(p, kids));
  for (const [table, m] of walk.rowMoves) {
    const n = m.rows.length;
    out.push(
      `~ ${n} row${n === 1 ? '' : 's'} of [${table}]${tableLabel(p.now.get(table))} moved ` +
        `${m.by < 0 ? 'up' : 'down'} ${Math.abs(m.by)}, each showing what it showed before (now ` +
        `${rowSpans(m.rows)})`,
    );
  }
  const near = p.near;
  if (near && walk.unprinted.size > 0) {
    const all = [
      ...walk.unprinted,
      ...p.after.elements
        .filter((l) => l.row?.table === near.table && p.rowPrinted.has(rowKey(l) ?? ''))
        .map((l) => l.row!.n),
    ];
    out.push(
      `+ … ${walk.unprinted.size} more row${walk.unprinted.size === 1 ? '' : 's'} in view (` +
        `${rowSpans(all)} on screen; computer_observe scope=${near.table} lists them)`,
    );
  }
  return out;
}

/** Part of the added pass: a sliced table's row with new elements, printed once as its row line (or as moved, or far). */
function addedRow(p: DiffPass, walk: AddedWalk, row: Row): void {
  const k = `${row.table}\u0000${row.n}`;
  if (p.rowPrinted.has(k)) return;
  p.rowPrinted.add(k);
  if (p.near !== undefined && row.table === p.near.table && Math.abs(row.n - p.near.row) > ROWS_NEAR) {
    walk.unprinted.add(row.n);
    return;
  }
  const was = walk.rowsBefore.get(k);
  // The row's line names an element that stays: its old line left only if that element is gone.
  const wasLead = was === undefined ? undefined : leadRef(was);
  const wasGone = was !== undefined && was !== row.text && (wasLead === undefined || !p.now.has(wasLead));
  const lead = leadRef(row.text);
  const prior = lead === undefined ? undefined : walk.oldRowOf.get(lead);
  const moved =
    prior && prior.table === row.table && prior.n !== row.n && rowContent(prior.text) === rowContent(row.text)
      ? prior.n
      : undefined;
  if (moved !== undefined) {
    // The same row one or more places up or down (a file deleted above it): one line for all such rows.
    const m = walk.rowMoves.get(row.table) ?? { by: row.n - moved, rows: [] };
    if (m.by === row.n - moved) {
      m.rows.push(row.n);
      walk.rowMoves.set(row.table, m);
      if (wasGone) walk.out.push(`- ${was}`);
      return;
    }
  }
  if (wasGone) walk.out.push(`- ${was}`);
  if (p.near?.table !== row.table && !p.rowsWhole) {
    const printed = walk.printedRows.get(row.table) ?? [];
    printed.push({ at: walk.out.length, n: row.n, shown: /\b(?:selected|focused)\b/.test(rowLineStates(row.text)) });
    walk.printedRows.set(row.table, printed);
  }
  walk.out.push(`+ ${row.text}`);
}

/**
 * The removed pass: only tops of removed subtrees, with the number of removed descendants. Rows of a sliced table
 * that left it (a scroll moved them out of view) read as one line per table: which rows, not every cell. Then the
 * kept grids whose cells came or went, as a grid block when they are many.
 */
function removedLines(p: DiffPass): string[] {
  const out: string[] = [];
  const removedTop = new Map<string, { line: SnapshotLine; inside: number }>();
  const topOf = new Map<string, string>();
  const rowsLeft = new Map<string, Set<number>>();
  const rowsStay = new Set(p.after.elements.map(rowKey).filter((k): k is string => k !== undefined));
  const kids = childCounts(p.before.elements);
  const unseen = unseenRemovals(p);
  for (const l of p.before.elements) {
    if (p.now.has(l.ref) || echoesCombo(p, l, p.old, kids)) continue;
    const grid = keptGrid(p, l, p.old);
    if (grid) { noteMoved(p, grid, `- ${l.text}`); topOf.set(l.ref, l.ref); continue; }
    const k = rowKey(l);
    // A row still there whose new elements were printed above came with its old line.
    if (k !== undefined && l.row && (!rowsStay.has(k) || p.rowPrinted.has(k))) {
      topOf.set(l.ref, l.ref);
      if (rowsStay.has(k)) continue;
      const set = rowsLeft.get(l.row.table) ?? new Set<number>();
      set.add(l.row.n);
      rowsLeft.set(l.row.table, set);
      continue;
    }
    const top = l.parent !== undefined ? topOf.get(l.parent) : undefined;
    // A seen element under a removed one the model never saw (a wrapper its print left out) is a top of its own.
    if (top !== undefined && !(unseen.counts.has(top) && unseen.isSeen(l.ref))) {
      topOf.set(l.ref, top);
      const t = removedTop.get(top);
      if (t) t.inside++;
      else if (unseen.counts.has(top)) unseen.count(top, l);
    } else if (unseen.isSeen(l.ref)) {
      topOf.set(l.ref, l.ref);
      removedTop.set(l.ref, { line: l, inside: 0 });
    } else topOf.set(l.ref, unseen.count(undefined, l));
  }
  out.push(...removedTops([...removedTop.values()], p.now, unseen), ...unseen.lines());
  for (const { grid: g, lines: moved } of p.movedGrids.values()) {
    // A scroll to a row of this grid asked for that row: room for the rows down to it (a trial's 'to 151' was
    // cut at row 135, before the row and its button).
    const shown =
      moved.length >= GRID_MOVED
        ? (p.near?.table === g.ref ? g.grid?.(DIFF_GRID_TOKENS * 3) : g.grid?.(DIFF_GRID_TOKENS, receiptFold(p, g.ref)))
        : undefined;
    if (!shown) { out.push(...moved); continue; }
    out.push(`~ [${g.ref}]${tableLabel(g)} shows other cells: ${shown.summary}`, ...shown.rows.map((r) => `+   ${r}`));
    p.shownGrids.add(g.ref);
  }
  for (const [table, set] of rowsLeft)
    out.push(`- ${rowSpans([...set])} of [${table}]${tableLabel(p.now.get(table) ?? p.old.get(table))}`);
  return out;
}

/** What the removed pass keeps of removed elements the model never saw (DiffOptions `seen`). */
interface UnseenRemovals {
  isSeen(ref: string): boolean;
  /** Per container key (`\u0000` and the container's ref), the removed elements counted under it. */
  readonly counts: Map<string, number>;
  /** Counts `l` under `key`, or under the container it belongs to when no key is given; returns the key. */
  count(key: string | undefined, l: SnapshotLine): string;
  /** How many are counted under a container, by its ref. */
  under(container: string): number;
  /** The count under a container, which its own line then says: no line of its own follows. */
  take(container: string): number;
  lines(): string[];
}

/**
 * Removed elements the model never saw, counted per container it saw that stays (the nearest such ancestor), never
 * named: a print that folded an icon view's items or left a page out did not show their refs, and a receipt that
 * named them (`- 8 elements of [e116] pane ([e117] … [e124])`) told of losing what the model never had. A removed
 * element that holds one the model saw (a wrapper a print leaves out) is not counted: the seen one is listed.
 */
function unseenRemovals(p: DiffPass): UnseenRemovals {
  const seen = p.seen;
  const isSeen = (ref: string): boolean => seen === undefined || seen.has(ref);
  const holds = new Set<string>();
  if (seen !== undefined) {
    for (let i = p.before.elements.length - 1; i >= 0; i--) {
      const l = p.before.elements[i]!;
      if (l.parent !== undefined && (seen.has(l.ref) || holds.has(l.ref))) holds.add(l.parent);
    }
  }
  const counts = new Map<string, number>();
  const containerOf = (l: SnapshotLine): string | undefined => {
    for (let up = l.parent, n = 0; up !== undefined && n < 64; n++) {
      if (p.now.has(up) && isSeen(up)) return up;
      up = (p.old.get(up) ?? p.now.get(up))?.parent;
    }
    return undefined;
  };
  return {
    isSeen,
    counts,
    count(key, l) {
      const k = key ?? `\u0000${containerOf(l) ?? ''}`;
      counts.set(k, (counts.get(k) ?? 0) + (holds.has(l.ref) ? 0 : 1));
      return k;
    },
    under: (container) => counts.get(`\u0000${container}`) ?? 0,
    take(container) {
      const n = counts.get(`\u0000${container}`) ?? 0;
      counts.delete(`\u0000${container}`);
      return n;
    },
    lines() {
      const out: string[] = [];
      for (const [k, n] of counts) {
        const ref = k.slice(1);
        if (ref === '' || n === 0) continue;
        out.push(`- [${ref}]${tableLabel(p.now.get(ref))}: ${n} ${n === 1 ? 'item' : 'items'} fewer`);
      }
      return out;
    },
  };
}

/**
 * How a receipt folds a kept grid that shows other cells: around its cursor, else around the row its window's
 * cell-address box names (a Find Next from a dialog leaves no cell focused: 25 rows, 609 tokens, printed whole).
 */
function receiptFold(p: DiffPass, grid: string): GridFold {
  const at = rowOfAddressBox(grid, p.after.elements);
  return at === undefined ? RECEIPT_GRID_FOLD : { ...RECEIPT_GRID_FOLD, at };
}

/** True when a change names no value: states only (`enabled → disabled`), which reads alike on any role. */
const statesOnly = (what: string): boolean => !what.startsWith('value ');

/**
 * The removed tops as lines: FOLD_LIKE or more under one parent that stays read as one line (a menu that closed
 * after its item was clicked printed its 15 items one by one, each of which the model had just seen).
 */
function removedTops(
  tops: readonly { line: SnapshotLine; inside: number }[],
  now: ReadonlyMap<string, SnapshotLine>,
  unseen?: UnseenRemovals,
): string[] {
  const byParent = new Map<string, { line: SnapshotLine; inside: number }[]>();
  for (const t of tops) {
    const parent = t.line.parent;
    if (parent === undefined || !now.has(parent)) continue;
    byParent.set(parent, [...(byParent.get(parent) ?? []), t]);
  }
  const out: string[] = [];
  // Removed elements the model never saw under the same parent join the line of those it saw (a fold line's named
  // members and its last ref): one line, as before, naming only the seen ones.
  const extras = new Map<string, number>();
  for (const [parent, group] of byParent) if (group.length >= 2) extras.set(parent, unseen?.under(parent) ?? 0);
  for (const t of tops) {
    const group = t.line.parent !== undefined ? byParent.get(t.line.parent) : undefined;
    const extra = t.line.parent !== undefined ? extras.get(t.line.parent) ?? 0 : 0;
    const entries = group?.filter((g) => MENU_ENTRY_ROLES.has(g.line.role));
    if (entries && entries.length >= MENU_GONE_MIN && entries.length === group?.length) {
      if (group[0] === t) out.push(menuEntriesGone(group, now, unseen?.take(t.line.parent!) ?? 0));
      continue;
    }
    if (!group || group.length + extra < FOLD_LIKE) {
      out.push(`- ${t.line.text}${t.inside > 0 ? ` (+${t.inside} inside)` : ''}`);
      continue;
    }
    if (group[0] !== t) continue;
    const inside = group.reduce((n, g) => n + g.inside, 0);
    const last = group[group.length - 1]!.line;
    const count = group.length + (extra > 0 ? unseen?.take(t.line.parent!) ?? 0 : 0);
    out.push(`- ${count} elements of [${t.line.parent}]${tableLabel(now.get(t.line.parent!))} ` +
      `(${label(t.line)} … ${label(last)})${inside > 0 ? ` (+${inside} inside)` : ''}`);
  }
  return out;
}

/** Entries of a menu that closed from which they print as one line. */
const MENU_GONE_MIN = 2;

/**
 * The entries of a menu that closed as one line, by their refs: `- 3 entries of [e6] menu "Calculator" ([e68] …
 * [e70]) (+4 inside)`. The model saw them when the menu opened; galculator's Calculator menu printed its three
 * submenus a line each when it closed, while five menu items read as one line with their first and last names.
 */
function menuEntriesGone(
  group: readonly { line: SnapshotLine; inside: number }[],
  now: ReadonlyMap<string, SnapshotLine>,
  unseen = 0,
): string {
  const first = group[0]!.line;
  const last = group[group.length - 1]!.line;
  const inside = group.reduce((n, g) => n + g.inside, 0);
  return `- ${group.length + unseen} entries of [${first.parent ?? '?'}]${tableLabel(now.get(first.parent ?? ''))} ` +
    `([${first.ref}] … [${last.ref}])${inside > 0 ? ` (+${inside} inside)` : ''}`;
}

/** One element's change in the changed pass; `key` groups alike changes, `row` marks a row's line (foldRowCells). */
interface Changed { line: string; a: SnapshotLine; b: SnapshotLine; key?: string; what?: string; row?: true }

/**
 * The state changes of a sliced table's row as one line on its lead cell, when two or more of its cells changed
 * states only: a click that selected a file in Thunar read six `~ cell` lines, one per cell of its row (three of
 * them nameless), each `unselected → selected`. The line lists what any of them gained or lost (`~ [e181] cell
 * "report-2345.txt" (row 2,345, 6 cells) unselected → selected, …`).
 */
function foldRowCells(changed: readonly Changed[]): Changed[] {
  const byRow = new Map<string, Changed[]>();
  for (const c of changed) {
    const k = c.b.row && c.b.row.n > 0 && c.what !== undefined && statesOnly(c.what) ? rowKey(c.b) : undefined;
    if (k !== undefined) byRow.set(k, [...(byRow.get(k) ?? []), c]);
  }
  const out: Changed[] = [];
  for (const c of changed) {
    const k = c.what !== undefined && statesOnly(c.what) ? rowKey(c.b) : undefined;
    const cells = k !== undefined ? byRow.get(k) : undefined;
    if (!cells || cells.length < 2 || !c.b.row) { out.push(c); continue; }
    if (cells[0] !== c) continue;
    const lead = cells.find((x) => x.b.ref === leadRef(x.b.row?.text ?? '')) ?? c;
    const what = [...new Set([lead, ...cells].flatMap((x) => (x.what ?? '').split(', ')))].join(', ');
    const head = `[${lead.b.ref}] ${lead.b.role}${lead.b.name ? ` ${quote(lead.b.name, MAX_NAME_CHARS)}` : ''}`;
    const n = c.b.row.n.toLocaleString('en-US');
    // The row before the states: a line that ends in `→ focused` says where the focus went (diff-focus.ts).
    const line = `~ ${head} (row ${n}, ${cells.length} cells) ${what}`;
    out.push({ line, a: lead.a, b: lead.b, key: `\u0001${what}`, what, row: true });
  }
  return out;
}

/**
 * The changes without a container's rename that one of its children made alike: a tab list is named after its
 * selected tab, and a save read `~ [e14] tablist name "*Untitled" → "list.txt"` over `~ [e15] tab name "*Untitled"
 * → "list.txt"`. The child's line stays (it is what a model acts on); the container's, when its name is all that
 * changed, goes. The window's title (the tree's root) keeps its line.
 */
function withoutEchoedRenames(each: readonly Changed[]): Changed[] {
  const renamed = (c: Changed): string | undefined =>
    c.a.name !== c.b.name ? `${c.a.name ?? ''}\u0000${c.b.name ?? ''}` : undefined;
  const byChild = new Set(each.map((c) => (c.b.parent !== undefined && renamed(c) !== undefined
    ? `${c.b.parent}\u0000${renamed(c) ?? ''}` : '')));
  return each.filter((c) => {
    const k = renamed(c);
    const nameOnly = (c.a.value ?? '') === (c.b.value ?? '') && stateChanges(c.a.states, c.b.states).length === 0;
    // The window's own title stays (its line is the window's).
    return k === undefined || !nameOnly || c.b.parent === undefined || !byChild.has(`${c.b.ref}\u0000${k}`);
  });
}

/**
 * The changed pass. Many elements with one same change (a sheet's cells all turning editable when the sheet loses
 * focus: hundreds of lines; Calc's alt+Return filling A1:A20 with "5": twenty value lines; a Save that disables a
 * toolbar's buttons, toggles and menu items at once) read as one line, after the changes of their own; otherwise
 * they fill the line budget and come before the change that matters (a field's new value, a button). A table, list
 * or tree re-sorted or re-filled in place reads as one block of its rows (diff-refill.ts).
 */
function changedLines(p: DiffPass): { lines: string[]; refilled: ReadonlySet<string> } {
  const out: string[] = [];
  const folds: string[] = [];
  const each: Changed[] = [];
  for (const b of p.after.elements) {
    const a = p.old.get(b.ref);
    // Inside a part folded around the page in both prints (a browser's tab title gaining "Memory usage - 48 MB"):
    // the model was shown the part, not the element.
    if (!a || (a.around && b.around)) continue;
    const c = changeOf(a, b);
    if (!c) continue;
    // The focused cell's own change stays: it is what the act did.
    if (p.shownGrids.size > 0 && b.role === 'cell' && !b.states.includes('focused')
      && p.shownGrids.has(gridOf(b, p.now, p.now)?.ref ?? '')) continue;
    if (c.what === undefined) { each.push({ line: c.line, a, b }); continue; }
    // State flips fold across roles (a toolbar's buttons and toggles greyed out together); values within one.
    const key = statesOnly(c.what) ? `\u0000${c.what}` : `${b.role}\u0000${c.what}`;
    each.push({ line: c.line, a, b, key, what: c.what });
  }
  const changed = foldRowCells(withoutEchoedRenames(each));
  const groups = new Map<string, SnapshotLine[]>();
  for (const c of changed) {
    if (c.key === undefined) continue;
    const g = groups.get(c.key);
    if (g) g.push(c.b); else groups.set(c.key, [c.b]);
  }
  const alike = (c: { key?: string }): SnapshotLine[] | undefined => {
    const g = c.key !== undefined ? groups.get(c.key) : undefined;
    return g && g.length >= FOLD_LIKE ? g : undefined;
  };
  // Renames and new values that no alike line folds: a re-sorted table's cells, a re-filled list's items.
  const renamed = changed.filter(
    (c) => !alike(c) && (c.a.name !== c.b.name || (c.a.value ?? '') !== (c.b.value ?? '')),
  );
  const refill = refillBlocks(renamed, p.before.elements, p.after.elements, p.now);
  for (const c of changed) {
    const group = alike(c);
    if (!group) {
      const block = refill.lines.get(c.b.ref);
      if (block) out.push(...block);
      else if (!refill.folded.has(c.b.ref)) out.push(c.line);
      continue;
    }
    if (group[0] !== c.b) continue;
    // Calc's cells all turn editable when the sheet takes the focus and back when it loses it: a line on nearly
    // every receipt (a trial called it noise), and no cell became any more or less writable for the model.
    if (
      group.every((g) => g.role === 'cell') &&
      /^(?:editable → \(not editable\)|\(not editable\) → editable)$/.test(c.what ?? '')
    )
      continue;
    // "of [e3] table" when they share a parent; their names one by one when few, else the first and the last.
    const parent =
      group.every((g) => g.parent === c.b.parent) && c.b.parent !== undefined ? p.now.get(c.b.parent) : undefined;
    const last = group[group.length - 1] ?? c.b;
    const of = parent ? ` of [${parent.ref}]${tableLabel(parent)}` : '';
    const names = group.length <= FOLD_NAMES ? group.map(label).join(', ') : `${label(c.b)} … ${label(last)}`;
    const kind = c.row ? 'rows' : group.every((g) => g.role === c.b.role) ? `${c.b.role}s` : 'elements';
    (statesOnly(c.what ?? '') ? folds : out).push(`~ ${group.length} ${kind}${of} (${names}) ${c.what ?? ''}`);
  }
  return { lines: [...out, ...folds], refilled: refill.collections };
}

/**
 * Whether an added or removed line is an element inside a re-filled collection's block: a cell whose text another
 * row also holds gets a new ref when its row changes (refs.ts), and the block's rows already show it.
 */
function inRefilled(line: string, within: ReadonlyMap<string, SnapshotLine>, refilled: ReadonlySet<string>): boolean {
  if (refilled.size === 0) return false;
  const ref = /^[+-] *\[([^\]]+)\] /.exec(line)?.[1];
  const l = ref !== undefined ? within.get(ref) : undefined;
  if (!l || !ITEM_PARTS.has(l.role)) return false;
  for (
    let p = l.parent !== undefined ? within.get(l.parent) : undefined, up = 0;
    p && up < 6;
    p = p.parent !== undefined ? within.get(p.parent) : undefined, up++
  ) {
    if (refilled.has(p.ref)) return true;
  }
  return false;
}

/** Roles of what a collection's item is made of, which its block's item lines show. */
const ITEM_PARTS: ReadonlySet<string> = new Set(['cell', 'text', 'label', 'image', 'listitem', 'treeitem']);
