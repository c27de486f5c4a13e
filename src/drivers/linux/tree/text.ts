/**
 * AT-SPI Text reading: a node's text by its real length (CharacterCount first, then GetText of exactly that
 * range: Gecko answers "" to a range past the end), caret and selection, bounded per node and per snapshot;
 * a range read (`text.read`) and a search over a node's whole text (`text.find`) that reports line and offset.
 * Password fields are never read: their text stays in the app.
 */
import { ComputerUseError } from '../../../protocol/errors.js';
import { redactText } from '../../../engine/redact.js';
import { searchText, type TextMatch } from '../../../engine/text.js';
import type { A11yBus, Target } from '../bus/bus.js';

export const TEXT = 'org.a11y.atspi.Text';
const ACC = 'org.a11y.atspi.Accessible';

/** Characters of a field, label or paragraph read into a snapshot. */
export const TEXT_NODE_CAP = 2000;
/** Characters of a document, terminal or page read into a snapshot (the rest by `text.read`). */
export const TEXT_BODY_CAP = 4000;
/** Characters one snapshot reads in all; past it each node gets only TEXT_MIN_CAP. */
export const TEXT_SNAPSHOT_BUDGET = 60_000;
/** What a node still gets once the snapshot budget is spent. */
export const TEXT_MIN_CAP = 200;
/** Most characters one `text.read` or `text.find` asks the app for in one GetText call. */
export const TEXT_CHUNK = 200_000;
/** Most characters `text.find` searches in one node (a terminal's scrollback, a long document). */
export const TEXT_SEARCH_MAX = 5_000_000;

/** Native roles whose text is a body: read longer, and (terminal) from the end. */
const BODY_ROLES = /^(terminal|document|page|text)$|^document /;

/** Native roles of live regions: what they say changes while the user works, and is meant to be read. */
const LIVE_ROLES = /^(status bar|info bar|alert|notification|log|marquee|timer|tool tip)$/;

/** The per-snapshot character budget, shared by the concurrent reads of one tree. */
export class TextBudget {
  constructor(private left = TEXT_SNAPSHOT_BUDGET) {}
  /** Characters not yet granted; at or below zero, the last nodes got only TEXT_MIN_CAP each. */
  get remaining(): number { return this.left; }
  /** Characters granted for a node wanting `want` (at least TEXT_MIN_CAP or `want` when smaller). */
  take(want: number): number {
    const got = Math.min(want, Math.max(this.left, TEXT_MIN_CAP));
    this.left -= got;
    return got;
  }
}

/** What the Text interface says of a node. */
export interface TextRead {
  text: string;
  /** Full length (CharacterCount). */
  length: number;
  /** Offset where `text` starts. */
  start: number;
  caret?: number;
  selection?: [number, number];
}

/** The facts readText needs about a node. */
export interface TextHost {
  target: Target;
  atspiRole: string;
  name: string;
  states: Set<string>;
  interfaces: Set<string>;
}

/**
 * Whether a node's text is worth reading: editable fields, the text bodies (documents, terminals, PDF pages,
 * paragraphs) whether named or not (a terminal is named "Terminal", its text is the content), and nameless
 * text-bearing nodes whose text is their only label.
 */
export function wantsText(info: TextHost): boolean {
  if (!info.interfaces.has(TEXT)) return false;
  if (info.states.has('editable') || info.atspiRole === 'password text') return true;
  if (BODY_ROLES.test(info.atspiRole) || /^(paragraph|block quote)$/.test(info.atspiRole)) return true;
  // A live region (a status line, an alert, a log) is seldom named: Gecko holds its text in its Text interface
  // only, with no text child, so "Deleted message #4321" printed as a bare `statusbar`.
  if (LIVE_ROLES.test(info.atspiRole)) return info.name === '';
  // Headings and static text are usually named by their text (Gecko, Chromium): read only when they are not.
  if (
    /^(entry|label|spin button|combo box|link|section|table cell|list item|heading|static|caption|icon)$/.test(
      info.atspiRole,
    )
  )
    return info.name === '';
  return false;
}

/** Whether a node is a text body (document, terminal, page): its text is content, read longer. */
export function isTextBody(info: Pick<TextHost, 'atspiRole' | 'interfaces'>): boolean {
  return info.interfaces.has(TEXT) && BODY_ROLES.test(info.atspiRole);
}

/** Whether a node is a terminal: its newest text is at the end, so a cut read keeps the tail. */
export function isTerminal(info: Pick<TextHost, 'atspiRole'>): boolean { return info.atspiRole === 'terminal'; }

/**
 * Reads a node's text for a snapshot: CharacterCount and CaretOffset in one Properties call, then GetText of
 * the granted range (head, or tail for a terminal) and, where a caret lives, the first selection. A body that
 * is not showing (an Evince page scrolled out) only has its length read: `text.find` searches it on demand.
 */
export async function readText(
  bus: A11yBus,
  info: TextHost,
  budget: TextBudget = new TextBudget(),
): Promise<TextRead | undefined> {
  // A password field says only whether it holds something (the engine shows ••••): its length, never its text.
  if (info.atspiRole === 'password text')
    return {
      text: '',
      length: Math.max(0, Number((await bus.getProp(info.target, TEXT, 'CharacterCount')) ?? 0)),
      start: 0,
    };
  const props = await bus.getAll(info.target, TEXT);
  const length = Math.max(0, Number(props['CharacterCount'] ?? 0));
  const caretRaw = Number(props['CaretOffset'] ?? -1);
  const body = BODY_ROLES.test(info.atspiRole);
  // GTK 4 never reports showing (its Save As name field: visible, editable, focused): an editable body is the
  // field being worked in, and a read-only one (a converter's result field) shows its value: read whatever
  // its showing state says.
  const field = info.states.has('editable') || info.states.has('read only');
  const hidden = body && info.states.has('visible') && !info.states.has('showing') && !field;
  const want = hidden ? 0 : Math.min(length, body ? TEXT_BODY_CAP : TEXT_NODE_CAP);
  const grant = want > 0 ? budget.take(want) : 0;
  const start = isTerminal(info) && grant < length ? length - grant : 0;
  const caretful =
    caretRaw >= 0 &&
    (info.states.has('editable') ||
      info.states.has('focusable') ||
      isTerminal(info) ||
      info.states.has('selectable text'));
  const [text, selection] = await Promise.all([
    grant > 0 ? getText(bus, info.target, start, start + grant) : Promise.resolve(''),
    caretful
      ? bus.call(info.target, TEXT, 'GetSelection', 'i', [0]).then(
          ([a, b]) => [Number(a), Number(b)] as [number, number],
          () => undefined,
        )
      : Promise.resolve(undefined),
  ]);
  // Text made only of embedded-object marks (a Gecko document or section whose content is its children) is no
  // text; where marks were dropped from a whole read, the length counts what is shown, so offsets stay honest.
  if (text.trim() === '' && grant > 0 && !info.states.has('editable')) return undefined;
  const out: TextRead = { text, length: start === 0 && grant >= length ? text.length : length, start };
  if (caretful) out.caret = Math.min(caretRaw, length);
  if (selection && selection[1] > selection[0] && selection[0] >= 0) out.selection = selection;
  return out;
}

/**
 * GetText of [start, end) clamped to what exists. U+FFFC marks where an embedded child object sits in its
 * parent's text (Gecko, Chromium): not text to show.
 */
async function getText(bus: A11yBus, t: Target, start: number, end: number): Promise<string> {
  if (end <= start) return '';
  const [text] = await bus.call(t, TEXT, 'GetText', 'ii', [start, end], 5000);
  return String(text ?? '').replace(/\uFFFC/g, '');
}

/** Refuses what must not be read: a password field, or a node without the Text interface. */
async function textNode(bus: A11yBus, t: Target): Promise<number> {
  const [[role], [ifaces]] = await Promise.all([bus.call(t, ACC, 'GetRoleName'), bus.call(t, ACC, 'GetInterfaces')]);
  if (role === 'password text')
    throw new ComputerUseError('permission_denied', "A password field's text is never read.");
  if (!(ifaces as string[]).includes(TEXT))
    throw new ComputerUseError('unsupported', 'This element has no text to read (no Text interface).');
  return Math.max(0, Number(await bus.getProp(t, TEXT, 'CharacterCount') ?? 0));
}

/** Number of line breaks in [0, offset): the line a range starts on (1-based is this plus one). */
async function linesBefore(bus: A11yBus, t: Target, offset: number): Promise<number> {
  let count = 0;
  for (let at = 0; at < offset; at += TEXT_CHUNK) {
    const chunk = await getText(bus, t, at, Math.min(offset, at + TEXT_CHUNK));
    for (let i = chunk.indexOf('\n'); i !== -1; i = chunk.indexOf('\n', i + 1)) count++;
  }
  return count;
}

/**
 * `text.read`: characters [start, end) of a node's text (end clamped to its length, at most TEXT_CHUNK), its
 * full length, the line the range starts on, and the caret and selection.
 */
export async function readRange(
  bus: A11yBus,
  t: Target,
  start: number,
  end: number,
): Promise<TextRead & { startLine: number }> {
  const length = await textNode(bus, t);
  const from = Math.min(Math.max(0, start), length);
  const to = Math.min(length, Math.max(from, end), from + TEXT_CHUNK);
  const [text, before, caret, selection] = await Promise.all([
    getText(bus, t, from, to),
    from > 0 && from <= TEXT_SEARCH_MAX ? linesBefore(bus, t, from) : Promise.resolve(0),
    bus.getProp(t, TEXT, 'CaretOffset').then(Number, () => -1),
    bus.call(t, TEXT, 'GetSelection', 'i', [0]).then(
      ([a, b]) => [Number(a), Number(b)] as [number, number],
      () => undefined,
    ),
  ]);
  const out: TextRead & { startLine: number } = { text, length, start: from, startLine: before + 1 };
  if (caret >= 0) out.caret = Math.min(caret, length);
  if (selection && selection[1] > selection[0] && selection[0] >= 0) out.selection = selection;
  return out;
}

/**
 * `text.find`: case-insensitive matches of `query` in a node's whole text (up to TEXT_SEARCH_MAX characters),
 * read in chunks that overlap so a match across a chunk edge is found once, with its whole line.
 */
export async function findText(
  bus: A11yBus,
  t: Target,
  query: string,
  limit: number,
): Promise<{ matches: TextMatch[]; length: number; searched: number }> {
  const length = await textNode(bus, t);
  const end = Math.min(length, TEXT_SEARCH_MAX);
  const matches: TextMatch[] = [];
  let line = 1;
  // Each chunk is read with some text either side, so a match's line is whole in its snippet even at an edge;
  // a match is kept by the chunk its offset falls in.
  const context = 200;
  for (let at = 0; at < end && matches.length < limit; at += TEXT_CHUNK) {
    const pre = Math.min(at, context);
    const chunk = await getText(bus, t, at - pre, Math.min(end, at + TEXT_CHUNK + query.length + context));
    let preLines = 0;
    for (let i = chunk.indexOf('\n'); i !== -1 && i < pre; i = chunk.indexOf('\n', i + 1)) preLines++;
    for (const m of searchText(chunk, query, {
      base: at - pre,
      baseLine: line - preLines,
      limit: limit - matches.length + context,
    })) {
      if (m.offset < at || m.offset >= at + TEXT_CHUNK || matches.length >= limit) continue;
      // A match inside a secret (a key, a token) is no match: otherwise find would be an oracle that spells out
      // what the snapshot masks, a character at a time.
      const i = m.offset - (at - pre);
      const ls = chunk.lastIndexOf('\n', i - 1) + 1;
      const le = chunk.indexOf('\n', i);
      if (
        !redactText(chunk.slice(ls, le === -1 ? undefined : le))
          .toLowerCase()
          .includes(query.toLowerCase())
      )
        continue;
      matches.push(m);
    }
    const own = chunk.slice(pre, pre + TEXT_CHUNK);
    for (let i = own.indexOf('\n'); i !== -1; i = own.indexOf('\n', i + 1)) line++;
  }
  return { matches, length, searched: end };
}
