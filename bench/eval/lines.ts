/**
 * Reading the tools' text the way a model does: element lines (`[e5] button "Save" value="…" focused`), the
 * window each one sits in (the last header or window line above it), and diff marks (`+`, `-`, `~`).
 */
import type { Target } from './task.js';

/** One element line of a tool's text. */
export interface ElementLine {
  ref: string;
  role: string;
  name?: string;
  value?: string;
  states: string[];
  /** Title of the window (or dialog) the line sits under in that text, when one was printed. */
  window?: string;
  /** A value or name cut short (`…`) in a diff line: read it whole with an observe. */
  cut?: boolean;
  /** `-` when the diff removed it. */
  mark?: '+' | '-' | '~';
  raw: string;
}

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const ELEMENT = new RegExp(`^\\s*([+~-])?\\s*\\[((?:d\\d+)?e\\d+(?::[A-Z]{1,3}\\d+)?)\\] ([a-z]+)(?: ${QUOTED})?(.*)$`);
const VALUE = new RegExp(`\\bvalue=${QUOTED}`);
/** A diff's change line: `~ [e5] textbox "Name" value "old" → "new"`, `~ [e5] label name "a" → "b"`. */
const CHANGED_VALUE = new RegExp(`\\bvalue ${QUOTED} → ${QUOTED}`);
const CHANGED_NAME = new RegExp(`^ name ${QUOTED} → ${QUOTED}`);
/**
 * A folded run (engine/fold.ts): `[e10] … [e36] 27 buttons: e10 "7", e11 "8", …`; its entries are elements. A
 * diff's opened menu reads so too, added (`+ [e14] … [e28] 15 menuitems: e14 "Undo", e19 menu "Move", …`): an
 * entry of another role than the run's names it.
 */
const FOLD_LINE = /^(\s*(?:[+~-] +)?)\[(?:d\d+)?e\d+\] … \[(?:d\d+)?e\d+\] \d+ ([a-z]+?)e?s: (.*)$/;
const FOLD_ENTRY = new RegExp(`((?:d\\d+)?e\\d+) (?:([a-z]+) )?${QUOTED}((?:(?!, (?:d\\d+)?e\\d+ ).)*)`, 'g');

/** One entry of a folded run's line. */
export interface FoldEntry {
  /** The line's indent and diff mark (`+ `), as printed. */
  lead: string;
  ref: string;
  /** The entry's own role when it names one, else the run's. */
  role: string;
  /** The name as printed between its quotes, still escaped. */
  quotedName: string;
  /** What the entry prints after its name (its states: ` disabled`), up to the next entry. */
  after: string;
}

/** The entries of a folded run's line, in order; undefined when the line is not one. */
export function foldEntries(line: string): FoldEntry[] | undefined {
  const fold = FOLD_LINE.exec(line);
  if (!fold) return undefined;
  const [, lead = '', runRole = '', list = ''] = fold;
  return [...list.matchAll(FOLD_ENTRY)].map((e) => ({
    lead,
    ref: e[1] ?? '',
    role: e[2] ?? runRole,
    quotedName: e[3] ?? '',
    after: e[4] ?? '',
  }));
}

/** A control a row line prints after its lead (rows.ts): `— row 2: Ticket 1 | [e52] button "Archive row 1"`. */
const ROW_CONTROL = new RegExp(`(?<!\\\\)\\[((?:d\\d+)?e\\d+)\\] ([a-z]+)(?: ${QUOTED})?`, 'g');
const WINDOW_HEADER = new RegExp(
  `(?:· window \\[[^\\]]*\\] (?:(?:dialog|alert|frame) )?|(?:· |new window \\[[^\\]]*\\] |^)(?:window|dialog|alert|frame) )` +
    QUOTED,
);

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** Every element line of a text, in order, with its window. */
export function parseLines(text: string): ElementLine[] {
  const out: ElementLine[] = [];
  let window: string | undefined;
  for (const raw of text.split('\n')) {
    const entries = foldEntries(raw);
    if (entries) {
      for (const e of entries)
        out.push({
          ref: e.ref,
          role: e.role,
          name: unescape(e.quotedName),
          states: [],
          raw,
          ...(window !== undefined ? { window } : {}),
        });
      continue;
    }
    const m = ELEMENT.exec(raw);
    if (!m) {
      const w = WINDOW_HEADER.exec(raw);
      if (w?.[1] !== undefined) window = unescape(w[1]);
      continue;
    }
    const [, mark, ref, role, quotedName, rest = ''] = m;
    let name = quotedName;
    if (!ref || !role) continue;
    // A top-level window or dialog line starts a new window context (a dialog nested inside one does not).
    const topLevel = raw.replace(/^[+~-] /, '').startsWith('[');
    if (topLevel && (role === 'window' || role === 'dialog' || role === 'alert') && name !== undefined)
      window = unescape(name);
    // A change line names the new value (or name) after the arrow.
    const cv = mark === '~' ? CHANGED_VALUE.exec(rest) : null;
    const cn = mark === '~' && name === undefined ? CHANGED_NAME.exec(rest) : null;
    if (cn?.[2] !== undefined) name = cn[2];
    const value = cv?.[2] ?? VALUE.exec(rest)?.[1];
    const cut = (cv?.[2] ?? cn?.[2] ?? '').includes('…');
    const states = mark === '~' ? [] : rest.replace(VALUE, '').trim().split(/\s+/).filter((s) => /^[a-z]+$/.test(s));
    out.push({
      ref, role, states, raw,
      ...(name !== undefined ? { name: unescape(name) } : {}),
      ...(value !== undefined ? { value: unescape(value) } : {}),
      ...(cut ? { cut } : {}),
      ...(window !== undefined ? { window } : {}),
      ...(mark === '+' || mark === '-' || mark === '~' ? { mark } : {}),
    });
    // A row line's other controls are elements too, each with its own ref (a model reads them as such).
    // (A cell's text never reads as a ref there: rows.ts escapes it.)
    const tail = rest.indexOf(' — row ');
    if (tail >= 0) {
      for (const c of rest.slice(tail).matchAll(ROW_CONTROL)) {
        if (c[1] === undefined || c[2] === undefined) continue;
        out.push({
          ref: c[1],
          role: c[2],
          states: [],
          raw,
          ...(c[3] !== undefined ? { name: unescape(c[3]) } : {}),
          ...(window !== undefined ? { window } : {}),
          ...(mark === '+' || mark === '-' || mark === '~' ? { mark } : {}),
        });
      }
    }
  }
  return out;
}

function nameMatches(line: ElementLine, name: Target['name']): 'exact' | 'partial' | false {
  if (name === undefined) return 'exact';
  if (typeof name !== 'string') return new RegExp(name.re).test(line.name ?? '') ? 'exact' : false;
  if (line.name === name) return 'exact';
  return line.name?.toLowerCase().includes(name.toLowerCase()) ? 'partial' : false;
}

/** The lines matching a target, exact name matches first, in text order; removed lines never match. */
export function matchTarget(lines: readonly ElementLine[], target: Target): ElementLine[] {
  const exact: ElementLine[] = [];
  const partial: ElementLine[] = [];
  for (const l of lines) {
    if (l.mark === '-') continue;
    if (target.role !== undefined && l.role !== target.role) continue;
    if (target.window !== undefined && !(l.window ?? '').includes(target.window)) continue;
    if (
      target.value !== undefined &&
      !(typeof target.value === 'string' ? l.value === target.value : new RegExp(target.value.re).test(l.value ?? ''))
    )
      continue;
    const m = nameMatches(l, target.name);
    if (m === 'exact') exact.push(l);
    else if (m === 'partial') partial.push(l);
  }
  return [...exact, ...partial];
}

/** A target as words for a log line. */
export function describeTarget(t: Target): string {
  const name = t.name === undefined ? '' : typeof t.name === 'string' ? ` "${t.name}"` : ` /${t.name.re}/`;
  const value =
    t.value === undefined ? '' : typeof t.value === 'string' ? ` value "${t.value}"` : ` value /${t.value.re}/`;
  return (
    `${t.role ?? 'element'}${name}${value}${t.cell ? ` cell ${t.cell}` : ''}` +
    `${t.window ? ` in "${t.window}"` : ''}${t.nth ? ` #${t.nth}` : ''}`
  );
}
