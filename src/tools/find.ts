import { escapeLine, quoteText } from '../engine/escape.js';
import { Type } from '@sinclair/typebox';
import { walk, type RawNode } from '../engine/node.js';
import { opaqueNote } from '../engine/opaque.js';
import { redactText } from '../engine/redact.js';
import type { ListFindResult, SnapshotResult } from '../protocol/methods.js';
import { ROLES } from '../engine/role.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import type { WindowInfo } from '../engine/node.js';
import { identityView } from '../policy/gate.js';
import { rememberFoundRow, rememberFoundRowRef } from '../session/found-rows.js';
import type { Session } from '../session/session.js';
import { deciderPick, tiedCandidates } from './disambiguate.js';
import { findInText, renderTextHit } from './text.js';
import { outOfViewMatches } from './out-of-view.js';
import { tabPageMatches } from './tab-pages.js';
import { isSheet, sheetFind } from './find-sheet.js';
import { CAPS, defineTool, DEVICE, ENUM_UNLISTED, PROP_UNLISTED, STRICT } from './tool.js';

export const findTool = defineTool({
  schema: {
    name: 'computer_find',
    title: 'Find elements',
    description: 'Find elements by text and/or role: their refs and where they sit.',
    inputSchema: Type.Object({
      device: DEVICE,
      text: Type.Optional(Type.String({ maxLength: CAPS.text })),
      role: Type.Optional(Type.Union(ROLES.map((r) => Type.Literal(r)), { [ENUM_UNLISTED]: true })),
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, [PROP_UNLISTED]: true })),
      /** Row (1-based) where the search of long lists goes on, as a time-limited find said. */
      from: Type.Optional(Type.Integer({ minimum: 1, [PROP_UNLISTED]: true })),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session, decider, signal }, p, response) {
    if (!p.text && !p.role) { response.error('invalid_params', 'Give text, role or both.'); return; }
    // A window read in the last call is reused while the driver's events say nothing changed (session/recent-reads.ts).
    const raw = await session.readRecent({
      ...(p.app !== undefined ? { app: p.app } : {}),
      ...(p.window !== undefined ? { window: p.window } : {}),
    });
    const { full } = session.snapshotOf(raw);
    const text = p.text?.toLowerCase();
    const byRef = new Map(full.elements.map((l) => [l.ref, l]));
    // Text content (documents, terminals, pages) is searched whole and reported by line and offset (tools/text.ts).
    const unsearched = { count: 0 };
    // Parts of scrolled areas out of view are searched first: each match gets the scroll that shows it, and the text
    // search leaves those elements out (one match, one line). What it did not match (a PDF's page 2, a hidden page of
    // its scroll area) the text search still finds.
    const outOfView = p.text
      ? await outOfViewMatches(session, raw, full.elements, p.text, p.limit ?? 20, signal)
      : { lines: [], found: 0 };
    const reported = new Set(outOfView.lines.map((l) => session.refs.lookup(/^\[([^\]]+)\]/.exec(l)?.[1] ?? '')?.id)
      .filter((id): id is string => id !== undefined));
    let textHits = p.text
      ? (await findInText(session, raw, full, p.text, unsearched, reported)).filter(
          (h) => !p.role || h.line.startsWith(`[${h.ref}] ${p.role}`),
        )
      : [];
    const inText = new Set(textHits.map((h) => h.ref));
    // A grid cell's name is its address: what it shows counts as its text (a list row "Apple" is found), and its
    // address matches only whole ("257" found cells A257 and C257 of a web table, whose text was "256" and "Refund").
    const nameHas = (l: SnapshotLine, t: string): boolean => {
      const name = (l.name ?? '').toLowerCase();
      return isCellAddressLine(l) ? name === t : name.includes(t);
    };
    let hits = full.elements.filter((l) => (!p.role || l.role === p.role) &&
      (!text || nameHas(l, text) || (l.shown ?? '').toLowerCase().includes(text)
        || (l.description ?? '').toLowerCase().includes(text) || (l.beside ?? '').toLowerCase().includes(text)
        || (!inText.has(l.ref) && !l.states.includes('password') && (l.value ?? '').toLowerCase().includes(text))));
    // An element found by its name whose printed value holds the text too is one match, not two
    // (combobox "Size" value="Choose a size").
    const listed = new Map(hits.map((l) => [l.ref, l]));
    if (text) textHits = textHits.filter((h) => !(listed.get(h.ref)?.value ?? '').toLowerCase().includes(text));
    const limit = p.limit ?? 20;
    // Sheets show only the cells on screen: an address is a coordinate, answered without reading; any other search
    // that could match a cell says which cells it searched (find-sheet.ts).
    const sheets = sheetFind(session, raw.root, full.elements, full, p.text, p.role);
    // Long lists show only the rows on screen: the rest is searched in the app (list.find) first, so the count
    // on the first line includes what it found ("0 matches" above a match found there misled a model).
    const offScreen = p.text
      ? await offScreenMatches(session, raw, full.elements, { text: p.text, role: p.role, limit, from: p.from }, signal)
      : { lines: [], found: 0 };
    // Pages of tabs not shown are searched too: each match names the tab to click first (tools/tab-pages.ts).
    const pages = p.text
      ? await tabPageMatches(session, raw, full.elements, { text: p.text, role: p.role, limit, skip: reported }, signal)
      : { lines: [], found: 0, unsearched: [] };
    const total = hits.length + textHits.length + sheets.hits.length + offScreen.found + outOfView.found
      + pages.found;
    const head =
      `${total} match${total === 1 ? '' : 'es'}${p.text ? ` for ${quoteText(p.text)}` : ''}` +
      `${p.role ? ` role=${p.role}` : ''} in [${session.windows.refOf(raw.window)}] ` +
      `${quoteText(redactText(raw.window.title))}`;
    // No hit, or a tie: the decider model (if configured) picks one among at most 20 candidates.
    let pick: SnapshotLine | undefined;
    const candidates =
      decider && p.text && textHits.length === 0
        ? tiedCandidates(
            p.text,
            hits,
            full.elements.filter((l) => (p.role ? l.role === p.role : !!l.name) && l.depth > 0),
          )
        : undefined;
    if (decider && p.text && candidates) {
      const query = `${p.text}${p.role ? ` (role ${p.role})` : ''}`;
      const i = await deciderPick(decider, query, candidates.map((l) => `${l.text}${breadcrumb(l, byRef)}`), signal);
      pick = i === undefined ? undefined : candidates[i];
    }
    if (pick && hits.length === 0) {
      response.add(
        `${head}; the decider model's pick among ${candidates!.length} ` +
          `${p.role ? `${p.role} elements` : 'named elements'}:`,
      );
      hits = candidates!;
    } else {
      response.add(head);
    }
    if (pick) hits = [pick, ...hits.filter((l) => l !== pick)];
    for (const l of sheets.hits) response.add(l);
    for (const l of hits.slice(0, limit))
      response.add(`${l.text}${breadcrumb(l, byRef)}${l === pick ? "  (decider's pick)" : ''}`);
    const room = Math.max(0, limit - hits.length);
    for (const h of textHits.slice(0, room)) response.add(renderTextHit(h));
    for (const line of outOfView.lines) response.add(line);
    for (const line of pages.lines) response.add(line);
    const inView = total - offScreen.found - outOfView.found - pages.found;
    if (inView > limit)
      response.add(`… ${inView - limit} more (narrow with role or a longer text, or raise limit, up to 100)`);
    if (unsearched.count)
      response.add(
        `(the text of ${unsearched.count} more elements was not searched; narrow with app/window, or read ` +
          `one with computer_observe scope=eN)`,
      );
    for (const l of sheets.notes) response.add(l);
    for (const line of offScreen.lines) response.add(line);
    if (total === 0)
      for (const line of [...virtualViewNotes(session, raw.root, full.elements), ...pages.unsearched])
        response.add(line);
    // A view that draws its items without exposing them (an icon view, a canvas): find cannot see into it. A sheet's
    // own line above says so each time; the note's short form would say it again.
    if (full.opaque?.length && !(sheets.notes.length && full.opaque.every((r) => session.opaqueToldOf(r)))) {
      response.add(
        `(` + `${opaqueNote(full.opaque, (ref) => session.opaqueToldOf(ref), full.opaqueKinds, full.opaqueFields)})`,
      );
      session.noteOpaqueTold(full.opaque);
    }
    // The refs this answer names are the model's to act on: a later receipt may name them when they go.
    session.noteSeen(raw.window.id, response.text);
    // One window is searched: a model that named the app expected all of them (gucharmap's status bar was in
    // its main window while its Find dialog had the focus).
    if (p.window === undefined) {
      const others = await otherWindowsOf(session, raw.window);
      if (others.length) {
        response.add(
          `(searched this window only; ` +
            `${others.length === 1 ? 'its app has 1 more window' : `its app has ${others.length} more windows`}: ` +
            `${others
              .slice(0, 5)
              .map((w) => `[${session.windows.refOf(w)}] ${quoteText(redactText(w.title))}`)
              .join(', ')}; window=wN searches one)`,
        );
      }
    }
  },
});

/** The other windows of a window's process that the model may see (a denied app's are never named). */
async function otherWindowsOf(session: Session, window: WindowInfo): Promise<WindowInfo[]> {
  const app = (await session.apps()).find((a) => a.pid === window.pid && a.windows.some((w) => w.id === window.id));
  return app ? app.windows.filter((w) => w.id !== window.id && !session.hidden({ ...identityView(app), ...w })) : [];
}

/** Most cut lists one find searches beyond their rows on screen. */
const MAX_CUT_LISTS = 3;
/** How long one list is searched before the answer says where the search stopped. */
const LIST_FIND_MS = 10_000;

/**
 * Searches the lists whose snapshot holds only the rows on screen (`childRange`) through all their rows
 * (driver `list.find`), and lists the matches that are not on screen, with the scroll that brings each one
 * into view. Drivers without `list.find` (or a failed search) add a line that says so, never a silent 0.
 */
async function offScreenMatches(
  session: Parameters<typeof findTool.handle>[0]['session'],
  raw: SnapshotResult,
  elements: readonly SnapshotLine[],
  { text, role, limit, from }: { text: string; role: string | undefined; limit: number; from: number | undefined },
  signal?: AbortSignal,
): Promise<{ lines: string[]; found: number }> {
  const cut: RawNode[] = [];
  const parentsOf = new Map<RawNode, string[]>();
  walk(raw.root, (n, anc) => {
    if ((n.childRange || showsFewerRows(n) || readFewerChildren(n)) && !isSheet(n) && cut.length < MAX_CUT_LISTS) {
      cut.push(n);
      parentsOf.set(n, anc.map((a) => a.id).reverse());
    }
  });
  const out: string[] = [];
  let found = 0;
  for (const list of cut) {
    const ref = elements.find((l) => session.refs.lookup(l.ref)?.id === list.id);
    if (!ref) continue;
    // A virtualized list has no rows beyond the ones in view: nothing to search in the app, only a way to reach them.
    if (list.setSize !== undefined) { out.push(virtualSetNote(list, ref, text)); continue; }
    // Every element the snapshot read under the list counts as on screen (a web table's match is a cell in a row).
    const onScreen = new Set<string>();
    walk(list, (n) => { onScreen.add(n.id); return undefined; });
    const label = `${ref.role}${ref.name ? ` ${quoteText(redactText(ref.name).slice(0, 40))}` : ''} [${ref.ref}]`;
    let r: ListFindResult;
    try {
      // A complete search is kept with the read: a find on a read the driver says is unchanged searches no list again.
      r = await session.findInList(
        raw,
        { container: list.id, text, limit, deadlineMs: LIST_FIND_MS, ...(from ? { from: from - 1 } : {}) },
        LIST_FIND_MS + 5000,
        signal,
      );
    } catch (e) {
      out.push(
        `(the ${label} shows only its rows on screen and could not be searched further: ` +
          `${escapeLine((e as Error).message.slice(0, 120))})`,
      );
      continue;
    }
    const unit = r.rows ? 'row' : 'item';
    const total = r.total.toLocaleString('en-US');
    const off = r.matches.filter((m) => !onScreen.has(m.node.id));
    found += off.length;
    const owned: [string, string][] = [];
    for (const m of off) {
      const n = (m.row ?? m.index) + 1;
      // A live list moves its rows before the scroll below runs: the scroll finds the row again by this text.
      rememberFoundRow(session, list.id, n, m.node.name || text, r.total);
      const name = m.node.name ? ` ${quoteText(redactText(m.node.name).slice(0, 80))}` : '';
      const where = `${m.node.role}${name} — ${unit} ${n.toLocaleString('en-US')} of ${total} in ${label}, off-screen`;
      // A match of another role than the one asked (the cell holding a web table's button) is reached by the scroll:
      // a ref of its own would act on the cell, not on what the find was for.
      if (!m.node.name || (role !== undefined && m.node.role !== role)) {
        out.push(`${where}; bring it into view: computer_act ref=${ref.ref} op=scroll value="to ${n}"`);
        continue;
      }
      // A ref of its own: an act on it scrolls the list to it first, then finds it on screen by its name
      // (session/found-rows.ts). Its handle read by the search is not one an act can use while it is off screen.
      const own = session.refs.adopt(raw.window, m.node, [list.id, ...(parentsOf.get(list) ?? [])], m.index);
      rememberFoundRowRef(session, own, {
        listId: list.id,
        listRef: ref.ref,
        row: n,
        text: m.node.name,
        role: m.node.role,
      });
      owned.push([own, `[${own}] ${where}`]);
    }
    // One match says it on its line; several once after them.
    if (owned.length === 1) out.push(`${owned[0]![1]} (an act on ${owned[0]![0]} scrolls it into view first)`);
    else if (owned.length > 1)
      out.push(...owned.map(([, l]) => l), `(an act on one of these rows scrolls it into view first)`);
    if (!r.complete) {
      out.push(
        `(searched ${unit}s ${(r.next - r.scanned + 1).toLocaleString('en-US')}–` +
          `${r.next.toLocaleString('en-US')} of ${total} in ${label} within ${Math.round(r.ms / 1000)} s; ` +
          `the rest is not searched yet: go on with computer_find text=${quoteText(text)} from=${r.next + 1})`,
      );
    } else if (off.length === 0) {
      out.push(`(searched all ${total} ${unit}s of ${label}: no other match off-screen)`);
    }
  }
  return { lines: out, found };
}

/**
 * Where the rest of a virtualized list is (its app keeps only the rows in view: a web list with aria-rowcount),
 * and how to reach it; a text that is a row number ("#4321", "4321") gets the scroll that shows that row.
 */
export function virtualSetNote(list: RawNode, ref: SnapshotLine, text: string): string {
  const size = list.setSize ?? 0;
  const n = (k: number): string => k.toLocaleString('en-US');
  // posInSet is 1-based, a cell's row 0-based: a row child without posInSet names its row by its cells.
  const pos = (list.children ?? [])
    .map((c) => c.posInSet ?? ((c.children ?? []).find((k) => k.cell)?.cell?.row ?? -2) + 1)
    .filter((p) => p > 0);
  const shown = pos.length ? `rows ${n(Math.min(...pos))}–${n(Math.max(...pos))}` : 'the rows in view';
  const label = `${ref.role}${ref.name ? ` ${quoteText(redactText(ref.name).slice(0, 40))}` : ''} [${ref.ref}]`;
  const num = /^\s*(?:#|no\.?\s*|row\s+)?(\d{1,10})\s*$/i.exec(text)?.[1];
  const row =
    num !== undefined && Number(num) >= 1 && Number(num) <= size && !pos.includes(Number(num))
      ? Number(num)
      : undefined;
  return (
    `(${label} holds only ${shown} of its ${n(size)} in the app: the others are not searched until they are shown. ` +
    (row !== undefined
      ? `Row ${n(row)}: computer_act ref=${ref.ref} op=scroll value="to ${row}", then find or act again`
      : `Bring others with computer_act ref=${ref.ref} op=scroll value="to N" or value="down 10 pages", then ` +
        `find again`) +
    ')'
  );
}

/**
 * A table whose read rows are fewer than it has, with no slice marked (a web table after a scroll read as a grid
 * of the rows on screen: a trial's find "Person 200" answered 0 matches on a 200-row table, unmarked as partial).
 */
function showsFewerRows(n: RawNode): boolean {
  if (!n.table || n.table.rows <= 1) return false;
  const rows = new Set<number>();
  for (const c of n.children ?? []) {
    if (c.role === 'row') rows.add(rows.size);
    else if (c.cell) rows.add(c.cell.row);
  }
  return rows.size > 0 && rows.size < n.table.rows;
}

/**
 * A table or list read as its first children, with no slice on screen known (a Qt table of 500 rows reports its
 * 3,006 cells and their places only for the columns drawn: the driver read the first 200 by index). Its other
 * rows are in the app: find searched a two-row combo list and said "searched all 2 rows", never the table.
 */
function readFewerChildren(n: RawNode): boolean {
  const read = n.children?.length ?? 0;
  return read > 0 && (n.childCount ?? 0) > read && (n.table !== undefined || /^(list|tree|grid)$/.test(n.role));
}

/** " ← in toolbar "Main" › group" from the nearest named ancestors. */
function breadcrumb(l: SnapshotLine, byRef: Map<string, SnapshotLine>): string {
  const chain: string[] = [];
  let p = l.parent ? byRef.get(l.parent) : undefined;
  while (p && chain.length < 3) {
    if (p.name || p.depth === 0)
      chain.push(`${p.role}${p.name ? ` ${quoteText(p.name.slice(0, 30))}` : ''} [${p.ref}]`);
    p = p.parent ? byRef.get(p.parent) : undefined;
  }
  return chain.length ? `  ← in ${chain.join(' › ')}` : '';
}

/** A grid cell's line, named by its address (engine/grid.ts cellLine): `[e12] cell "B7" …`. */
function isCellAddressLine(l: SnapshotLine): boolean {
  return (
    l.role === 'cell' && /^[A-Z]{1,3}\d+$/.test(l.name ?? '') && l.text.startsWith(`[${l.ref}] cell "${l.name ?? ''}"`)
  );
}


/**
 * Views that keep only the items in view in the tree (GTK 4's list and grid views) while their scroll bar says the
 * content goes on: every item read is on screen and the bar is not at both ends at once. Find searched only those
 * items; the note says so and how to bring the rest (scroll, or the window's own search field). Views already
 * marked as a slice (childRange, setSize) have their own note.
 */
function virtualViewNotes(session: Session, root: RawNode, elements: readonly SnapshotLine[]): string[] {
  const out: string[] = [];
  const lineOf = (n: RawNode): SnapshotLine | undefined =>
    elements.find((l) => session.refs.lookup(l.ref)?.id === n.id);
  const search = elements.find(
    (l) => l.role === 'textbox' && /search|filter|find/i.test(`${l.name ?? ''} ${l.description ?? ''}`),
  );
  const searchName = search?.name ? ` ${quoteText(redactText(search.name).slice(0, 40))}` : '';
  const searchField = search
    ? `, or type the text into the window's own search field [${search.ref}] textbox${searchName}`
    : '';
  walk(root, (n, ancestors) => {
    if (out.length >= MAX_CUT_LISTS || !/^(list|tree)$/.test(n.role) || n.childRange || n.setSize !== undefined) return;
    const items = n.children ?? [];
    if (!items.length || items.some((c) => c.states.includes('offscreen') || c.states.includes('invisible'))) return;
    if (!scrollsBeyond(n, ancestors)) return;
    const line = lineOf(n);
    if (!line) return;
    const label = `${line.role}${line.name ? ` ${quoteText(redactText(line.name).slice(0, 40))}` : ''} [${line.ref}]`;
    out.push(
      `(${label} holds only the ${items.length} items in view; its scroll bar says there is more, and those ` +
        `were not searched. Bring them: computer_act ref=${line.ref} op=scroll value="down 10 pages", then find again` +
        `${searchField})`,
    );
  });
  return out;
}

/** Whether a scroll bar beside the view (its own child, or a sibling of it or of its parent) has room to move. */
function scrollsBeyond(view: RawNode, ancestors: readonly RawNode[]): boolean {
  const near = [view, ...ancestors.slice(-2)].flatMap((a) => a.children ?? []);
  return near.some((b) => {
    if (b.role !== 'scrollbar' || !b.range) return false;
    return b.range.max > b.range.min;
  });
}
