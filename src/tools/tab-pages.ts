/**
 * Find on the pages of tabs not shown. A notebook (GTK's page tabs, any toolkit whose tab holds its page) shows one
 * page; the others are in the tree, not showing, and a driver reads each as one hidden node without its children.
 * The snapshot leaves them out, and a find of a check box on another page answered "0 matches … in [w1]" as if it
 * were not there. Here those pages are read (bounded) and each match names the tab to click first; a tab whose page
 * the driver gives no node for, and a page beyond the bound, is said not searched, never a silent 0.
 */
import { quoteText } from '../engine/escape.js';
import { walk, type RawNode } from '../engine/node.js';
import { redactTree } from '../engine/redact.js';
import { isUnchecked } from '../engine/render.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import type { SnapshotResult } from '../protocol/methods.js';
import type { Session } from '../session/session.js';

/** Pages one find reads at most (each read is a call to the app). */
const MAX_READS = 8;
/** Nodes one page read takes at most. */
const MAX_NODES_PER_READ = 400;
/** Tabs named in a "not searched" note at most. */
const MAX_NAMED = 5;

/** What a find over the pages of tabs not shown gives. */
export interface TabPages {
  /** Match lines, then a note on pages beyond the read bound. */
  lines: string[];
  found: number;
  /** Said when nothing matched anywhere: the tabs whose page the driver gives no node for were not searched. */
  unsearched: string[];
}

/** A page not shown: the tab that shows it, the page's hidden node, the ids above it (nearest first). */
interface Page { tab: RawNode; node: RawNode; parents: string[] }

/** Matches of `text` (of `role`, when given) on the pages of tabs not shown, each with the tab to click first. */
export async function tabPageMatches(
  session: Session,
  raw: SnapshotResult,
  elements: readonly SnapshotLine[],
  query: { text: string; role?: string | undefined; limit: number; skip?: ReadonlySet<string> },
  signal?: AbortSignal,
): Promise<TabPages> {
  const lineOf = (id: string): SnapshotLine | undefined => {
    const ref = session.refs.refOfHandle(raw.window.id, id);
    return ref === undefined ? undefined : elements.find((l) => l.ref === ref);
  };
  const { pages, bare } = pagesNotShown(raw.root);
  const unread = pages.filter((p) => (p.node.childCount ?? 0) > (p.node.children?.length ?? 0));
  const read = new Map<RawNode, RawNode>();
  await Promise.all(unread.slice(0, MAX_READS).map(async (p) => {
    if (signal?.aborted) return;
    const r = await session.readPart(raw, { scope: p.node.id, maxNodes: MAX_NODES_PER_READ }, signal)
      .catch(() => undefined);
    if (r) read.set(p.node, r.root);
  }));
  const needle = query.text.toLowerCase();
  const lines: string[] = [];
  let found = 0;
  for (const p of pages) {
    if (!read.has(p.node) && unread.includes(p)) continue;
    const matches: string[] = [];
    // Matched as a snapshot would print it: a secret-looking value is masked, never an oracle for a guess.
    walk(redactTree(read.get(p.node) ?? p.node), (n, anc) => {
      // A closed menu's items (a combo box's choices) are the combo box's value, not elements to act on here.
      if (n.role === 'menu') return 'skip';
      if (anc.length === 0 || query.skip?.has(n.id) || !holds(n, needle) || titleOf(n, anc)) return undefined;
      if (query.role !== undefined && n.role !== query.role) return undefined;
      found++;
      if (lines.length + matches.length >= query.limit) return undefined;
      const parent = anc[anc.length - 1];
      const index = parent ? (parent.children ?? []).indexOf(n) : 0;
      const ref = session.refs.adopt(raw.window, n, [...anc.map((a) => a.id).reverse(), ...p.parents], index);
      matches.push(elementText(ref, n));
      return undefined;
    });
    lines.push(...pageLines(matches, p.tab, lineOf(p.tab.id)));
  }
  const skipped = unread.filter((p) => !read.has(p.node)).map((p) => p.tab);
  if (skipped.length) lines.push(`(${notSearched(skipped, lineOf)} searched: click the tab and find again)`);
  const unsearched = bare.length ? [`(${notSearched(bare, lineOf)} searched: click the tab and find again)`] : [];
  return { lines, found, unsearched };
}

/**
 * The pages of tabs not selected that the tree holds under their tab (hidden), and the tabs not selected that hold
 * no node at all (a toolkit that gives the page elsewhere, or none while it is not shown).
 */
function pagesNotShown(root: RawNode): { pages: Page[]; bare: RawNode[] } {
  const pages: Page[] = [];
  const bare: RawNode[] = [];
  walk(root, (n, anc) => {
    if (n.role !== 'tab' || n.states.includes('selected')) return undefined;
    const kids = n.children ?? [];
    if (kids.length === 0 && !(n.childCount ?? 0)) {
      if (anc.some((a) => a.role === 'tablist')) bare.push(n);
      return 'skip';
    }
    const parents = [n.id, ...anc.map((a) => a.id).reverse()];
    for (const c of kids) if (isHidden(c)) pages.push({ tab: n, node: c, parents });
    return 'skip';
  });
  return { pages, bare };
}

const isHidden = (n: RawNode): boolean => n.states.includes('offscreen') || n.states.includes('invisible');

/** Whether a node's own text (name, value, description) holds the needle; a password field's value never counts. */
function holds(n: RawNode, needle: string): boolean {
  const own = [n.name, n.description, n.states.includes('password') ? undefined : n.value];
  return own.some((t) => t !== undefined && t.toLowerCase().includes(needle));
}

/** `[e7] tab "Editor"`, or the tab's own name when the snapshot has no line for it. */
function tabLabel(tab: RawNode, line: SnapshotLine | undefined): string {
  const name = tab.name ? ` ${quoteText(tab.name.slice(0, 60))}` : '';
  return line ? `[${line.ref}] tab${name}` : `tab${name}`;
}

/** A label that only titles its group (the group matched already, by the same name). */
const titleOf = (n: RawNode, anc: readonly RawNode[]): boolean =>
  n.role === 'label' && n.name !== undefined && anc[anc.length - 1]?.name === n.name;

/** `[e41] checkbox "Show line numbers" unchecked`: whether a box is on is what a model looks for first. */
function elementText(ref: string, n: RawNode): string {
  const name = n.name ? ` ${quoteText(n.name.slice(0, 80))}` : '';
  const value = n.value && !n.states.includes('password') ? ` value=${quoteText(n.value.slice(0, 80))}` : '';
  const state = n.states.includes('checked') ? ' checked' : isUnchecked(n) ? ' unchecked' : '';
  return `[${ref}] ${n.role}${name}${value}${state}`;
}

/**
 * One match: `[e41] checkbox "Show line numbers" — on the page of [e3] tab "View", not shown: click the tab first
 * (…), then act on it`; several on one page: that said once, the matches indented under it.
 */
function pageLines(matches: readonly string[], tab: RawNode, line: SnapshotLine | undefined): string[] {
  if (matches.length === 0) return [];
  const click = line ? `click the tab first (computer_act ref=${line.ref} op=click)` : 'click that tab first';
  const where = `on the page of ${tabLabel(tab, line)}, not shown: ${click}`;
  return matches.length === 1
    ? [`${matches[0]!} — ${where}, then act on it`]
    : [`${where}, then act on these:`, ...matches.map((m) => `  ${m}`)];
}

/** "the page of [e7] tab "Editor" was not" / "the pages of 3 tabs not shown ([e7] …, …) were not". */
function notSearched(tabs: readonly RawNode[], lineOf: (id: string) => SnapshotLine | undefined): string {
  const named = tabs.slice(0, MAX_NAMED).map((t) => tabLabel(t, lineOf(t.id)));
  const more = tabs.length > MAX_NAMED ? `, … ${tabs.length - MAX_NAMED} more` : '';
  return tabs.length === 1
    ? `the page of ${named[0]!} was not`
    : `the pages of ${tabs.length} tabs not shown (${named.join(', ')}${more}) were not`;
}
