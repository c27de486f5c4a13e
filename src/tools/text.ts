/**
 * Text content for the tools: `computer_observe scope=eN from=K` shows a range of an element's text as numbered
 * lines (read from the driver by `text.read`, sized by the token budget), and `computer_find` reports matches
 * inside text content with their line and offset (`text.find` for text a snapshot only read in part).
 */
import type { RawNode } from '../engine/node.js';
import { walk } from '../engine/node.js';
import { redactText, redactTree } from '../engine/redact.js';
import { renderMatch, renderTextBlock, searchText, type TextMatch } from '../engine/text.js';
import type { Snapshot } from '../engine/snapshot.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { SnapshotResult } from '../protocol/methods.js';
import type { Session } from '../session/session.js';

/** Most elements whose unread text one find asks the driver to search. */
const MAX_TEXT_SEARCHES = 300;
/** Most text matches one find lists per element. */
const MATCHES_PER_ELEMENT = 5;

/** The raw node with this native id, or undefined. */
function rawById(root: RawNode, id: string): RawNode | undefined {
  let hit: RawNode | undefined;
  walk(root, (nd) => { if (nd.id === id) { hit = nd; return 'skip'; } return hit ? 'skip' : undefined; });
  return hit;
}

/** True when the driver read only part of this node's text. */
function partial(nd: RawNode): boolean {
  return (nd.valueStart ?? 0) > 0 || (nd.valueLength !== undefined && nd.valueLength > (nd.value?.length ?? 0));
}

/** True when `scope=ref` (with `from`) adds a text block: `from` is given, or the driver read the element's text in part. */
export function hasTextBlock(session: Session, raw: SnapshotResult, ref: string, from: number | undefined): boolean {
  const nd = rawOfRef(session, raw, ref);
  return nd !== undefined && (from !== undefined || partial(nd));
}

/** The raw node a ref names in this read, or undefined. */
function rawOfRef(session: Session, raw: SnapshotResult, ref: string): RawNode | undefined {
  const id = session.refs.lookup(ref)?.id;
  return id === undefined ? undefined : rawById(raw.root, id);
}

/**
 * The text block `scope=ref from=K` adds under the scoped element, or undefined when there is nothing to add
 * (no `from`, and the element's text was read whole). `chars` is the room the token budget leaves.
 */
export async function textBlock(
  session: Session,
  raw: SnapshotResult,
  ref: string,
  from: number | undefined,
  chars: number,
): Promise<string[] | undefined> {
  const nd = rawOfRef(session, raw, ref);
  if (!nd) return undefined;
  if (from === undefined && !partial(nd)) return undefined;
  // The engine's own check first: a password field's text is never asked for, whatever the driver would do.
  if (nd.states.includes('password'))
    throw new ComputerUseError('permission_denied', "A password field's text is never read.");
  // A grid has no one text to page: its rows come into view by scrolling (a model asked a sheet for from=80).
  if (nd.table !== undefined) {
    const row = Math.min(Math.max(1, from ?? 1), nd.table.rows || 1);
    throw new ComputerUseError(
      'invalid_params',
      `${ref} is a table: from pages an element's text, not its rows. To see row ${row}: ` +
        `scroll ${ref} value="to ${row}" (brings the row into view), then observe with scope=${ref}.`,
    );
  }
  const start = from ?? 0;
  const r = await session.device.call('text.read', { id: nd.id, start, end: start + chars });
  const text = redactText(r.text);
  return renderTextBlock({ ref, text, start: r.start, length: r.length, startLine: r.startLine }, '  ');
}

/** One text hit of a find: the element's ref, the element's line, and the match. */
export interface TextHit { ref: string; line: string; match: TextMatch; offscreen?: string }

/**
 * Matches of `query` inside text content: elements whose text was read whole are searched here, the others by
 * the driver (`text.find`, at most MAX_TEXT_SEARCHES elements; `unsearched.count` says how many more there were). An
 * element that distilling left out (an Evince
 * page scrolled out of view) is reported on its nearest shown ancestor, with which child it is ("page 2 of 50").
 */
export async function findInText(
  session: Session,
  raw: SnapshotResult,
  full: Snapshot,
  query: string,
  unsearched = { count: 0 },
  skip: ReadonlySet<string> = new Set(),
): Promise<TextHit[]> {
  const refById = new Map<string, { ref: string; line: string }>();
  for (const l of full.elements) {
    const id = session.refs.lookup(l.ref)?.id;
    if (id !== undefined) refById.set(id, { ref: l.ref, line: l.text });
  }
  const root = redactTree(raw.root);
  const jobs: { nd: RawNode; at: { ref: string; line: string }; offscreen?: string }[] = [];
  walk(root, (nd, anc) => {
    if (skip.has(nd.id)) return 'skip';
    if (nd.states.includes('password') || (nd.value === undefined && nd.valueLength === undefined)) return undefined;
    const own = refById.get(nd.id);
    let at = own;
    let offscreen: string | undefined;
    // Which of its kind it is ("page 2 of 50"): a PDF page's number is what a user goes by.
    const parent = anc[anc.length - 1];
    const same = (parent?.children ?? []).filter((c) => c.role === nd.role);
    const which = `${nd.role}${same.length > 1 ? ` ${same.indexOf(nd) + 1} of ${same.length}` : ''}`;
    if (!at) {
      for (let i = anc.length - 1; i >= 0 && !at; i--) at = refById.get(anc[i]!.id);
      offscreen = `${which} (not shown)`;
    } else if (nd.role === 'page') {
      offscreen = which;
    }
    if (at) jobs.push({ nd, at, ...(offscreen ? { offscreen } : {}) });
    return undefined;
  });
  const hits: TextHit[] = [];
  const remote = jobs.filter((j) => partial(j.nd));
  // The driver searches in parallel, a few at a time (one app answers one call at a time anyway).
  const found = new Map<RawNode, TextMatch[]>();
  const queue = remote.slice(0, MAX_TEXT_SEARCHES);
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let j = queue.shift(); j; j = queue.shift()) {
      const r = await session.device
        .call('text.find', { id: j.nd.id, text: query, limit: MATCHES_PER_ELEMENT })
        .catch(() => undefined);
      found.set(j.nd, (r?.matches ?? []).map((m) => ({ ...m, snippet: redactText(m.snippet) })));
    }
  }));
  for (const j of jobs) {
    const matches = partial(j.nd)
      ? (found.get(j.nd) ?? [])
      : searchText(j.nd.value ?? '', query, { limit: MATCHES_PER_ELEMENT });
    for (const m of matches)
      hits.push({ ref: j.at.ref, line: j.at.line, match: m, ...(j.offscreen ? { offscreen: j.offscreen } : {}) });
  }
  unsearched.count = Math.max(0, remote.length - MAX_TEXT_SEARCHES);
  return hits;
}

/** `[e7] terminal "Terminal" line 3, offset 214: "…match…"` (the element line without its value). */
export function renderTextHit(h: TextHit): string {
  // Only the element's ref, role and name: its value and states would repeat what the match shows.
  const head = /^\[[a-z]\d+\] \S+(?: "(?:[^"\\]|\\.)*")?/.exec(h.line)?.[0] ?? h.line;
  return `${head}${h.offscreen ? ` › ${h.offscreen}` : ''} ${renderMatch(h.match)}`;
}
