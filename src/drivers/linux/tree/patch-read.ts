/**
 * A window read again only where its app's events say it changed (patch-plan.ts): the planned subtrees are read
 * as a whole read would read them (readSubtree, with the parent's showing and the window's reliability the read
 * judged), the planned nodes' own facts read again with their children kept, and the result spliced into a copy of
 * the kept read. Whatever the re-read finds that the plan did not expect (a node gone, a child list that differs,
 * a showing state that flipped, the text budget spent, the node cap reached) gives up: the caller reads whole.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { A11yBus } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import {
  indexTree,
  planPatch,
  sizeOf,
  type KeptRead,
  type PatchPlan,
  type PlanEvent,
  type Placed,
} from './patch-plan.js';
import { readSubtree } from './read-tree.js';
import { MAX_CHILDREN, handleOf, readElement, showsOnScreen, targetOf, toRawNode, type ElementInfo } from './reader.js';
import { TEXT, TextBudget } from './text.js';

/** How far up an event's source is followed to find the read's node above it. */
const MAX_ANCESTRY = 40;
/** The null reference AT-SPI gives as the parent of an application. */
const NULL_PATH = '/org/a11y/atspi/null';

/** A patched read, or why the window must be read whole. */
export type Patched =
  | { root: RawNode; nodes: number; kept: KeptRead; reread: number }
  | { whole: string };

/** Gives up on a partial read: the caller reads the window whole. */
class WholeRead extends Error {}

/** Re-reads `kept` where `events` (its app's since its mark) say it changed; `mark` is the new read's mark. */
export async function patchRead(
  bus: A11yBus,
  kept: KeptRead,
  events: readonly PlanEvent[] | undefined,
  mark: string,
  maxNodes: number,
  /** The window root's own facts, when the caller reads them anyway (tree.snapshot's window facts): not read twice. */
  rootInfo?: Promise<ElementInfo>,
): Promise<Patched> {
  const plan: PatchPlan = await planPatch(kept, events, (source) => locate(bus, kept, source));
  if ('whole' in plan) return plan;
  const root = structuredClone(kept.root);
  const index = indexTree(root);
  const notShowing = new Set(kept.notShowing);
  const replaced = [...plan.subtrees, ...plan.refresh].map((id) => index.get(id)!.node);
  const text = new TextBudget(
    kept.textLeft + replaced.reduce((sum, n) => sum + textIn(n, plan.subtrees.includes(n.id)), 0),
  );
  let nodes = kept.nodes;
  try {
    await Promise.all([
      ...plan.subtrees.map(async (id) => {
        const at = index.get(id)!;
        const read = await readSubtree(
          bus,
          targetOf(id),
          { parentShowing: showing(at.parent, notShowing), reliable: kept.reliable },
          { text, notShowing, maxNodes },
        );
        if (!read.root || read.truncated) throw new WholeRead();
        nodes += read.nodes - sizeOf(at.node);
        forgetShowing(at.node, notShowing, read.root);
        splice(at, read.root);
      }),
      ...plan.refresh.map((id) =>
        refreshNode(bus, index.get(id)!, kept.reliable, text, notShowing, id === root.id ? rootInfo : undefined)),
      ...plan.carets.map(async (id) => {
        const at = index.get(id)!;
        if (!(await refreshCaret(bus, at.node))) await refreshNode(bus, at, kept.reliable, text, notShowing);
      }),
    ]);
  } catch (e) {
    if (e instanceof WholeRead || isGone(e)) return { whole: 'the re-read found more than the events said' };
    throw e;
  }
  if (text.remaining <= 0) return { whole: 'the text budget ran out' };
  if (nodes > maxNodes) return { whole: 'the node cap' };
  return {
    root, nodes, reread: plan.subtrees.length + plan.refresh.length + plan.carets.length,
    kept: { mark, root: structuredClone(root), nodes, notShowing, textLeft: text.remaining, reliable: kept.reliable },
  };
}

/** Reads a node's own facts again and keeps its children; gives up when its children or its showing changed. */
async function refreshNode(
  bus: A11yBus,
  at: Placed,
  reliable: boolean,
  text: TextBudget,
  notShowing: Set<string>,
  given?: Promise<ElementInfo>,
): Promise<void> {
  const old = at.node;
  const kidsHint = Math.max(old.children?.length ?? 0, old.childCount ?? 0);
  const info = await (given ?? readElement(bus, targetOf(old.id), { text, kidsHint }));
  const kids = info.children.slice(0, MAX_CHILDREN).map(handleOf);
  const sameKids = old.children
    ? kids.length === old.children.length && kids.every((k, i) => k === old.children![i]!.id)
    : info.childCount === (old.childCount ?? 0);
  if (!sameKids || showsOnScreen(info) === notShowing.has(old.id)) throw new WholeRead();
  const fresh = toRawNode(info, reliable);
  // A read made for the window's facts carries bounds, which a read without them never prints.
  if (old.bounds === undefined) delete fresh.bounds;
  const { children, childCount } = old;
  for (const k of Object.keys(old) as (keyof RawNode)[]) delete old[k];
  Object.assign(old, fresh, children ? { children } : {}, childCount !== undefined ? { childCount } : {});
}

/**
 * Reads again where the user is in a node's text (caret, selection), in two calls beside each other; false when its
 * text's length is not the one read (marks a read leaves out, a change unheard): its own facts are read again whole.
 */
export async function refreshCaret(bus: A11yBus, node: RawNode): Promise<boolean> {
  const t = targetOf(node.id);
  const [props, selection] = await Promise.all([
    bus.getAll(t, TEXT),
    bus.call(t, TEXT, 'GetSelection', 'i', [0]).then(([a, b]) => [Number(a), Number(b)] as const, () => undefined),
  ]);
  const length = Number(props['CharacterCount'] ?? -1);
  if (node.value === undefined || length !== (node.valueLength ?? node.value.length)) return false;
  const caret = Number(props['CaretOffset'] ?? -1);
  if (caret >= 0) node.caret = Math.min(caret, length);
  else delete node.caret;
  if (selection && selection[1] > selection[0] && selection[0] >= 0) node.selection = [selection[0], selection[1]];
  else delete node.selection;
  return true;
}

/** Puts a re-read subtree in the place of the old one. */
function splice(at: Placed, fresh: RawNode): void {
  if (!at.parent?.children) throw new WholeRead();
  const i = at.parent.children.indexOf(at.node);
  if (i < 0) throw new WholeRead();
  at.parent.children[i] = fresh;
}

/** Whether a node shows on screen by the read (the window's root counts as showing: its children were read). */
const showing = (n: RawNode | undefined, notShowing: Set<string>): boolean => !n || !notShowing.has(n.id);

/** Drops the handles of a replaced subtree from the not-showing set (the new read added its own). */
function forgetShowing(old: RawNode, notShowing: Set<string>, fresh: RawNode): void {
  const keep = new Set<string>();
  const mark = (n: RawNode): void => {
    if (notShowing.has(n.id)) keep.add(n.id);
    for (const c of n.children ?? []) mark(c);
  };
  mark(fresh);
  const drop = (n: RawNode): void => {
    if (!keep.has(n.id)) notShowing.delete(n.id);
    for (const c of n.children ?? []) drop(c);
  };
  drop(old);
}

/** The text characters a node (and its subtree) took from the budget, given back before it is read again. */
function textIn(n: RawNode, deep: boolean): number {
  let sum = typeof n.value === 'string' ? n.value.length : 0;
  if (deep) for (const c of n.children ?? []) sum += textIn(c, true);
  return sum;
}

/**
 * Walks up from an event's source to the nearest node of the read (its handle), or to the application (another
 * window: `outside`); undefined when the walk fails or is too long.
 */
async function locate(bus: A11yBus, kept: KeptRead, source: string): Promise<string | 'outside' | undefined> {
  const index = indexTree(kept.root);
  let at = source;
  for (let i = 0; i < MAX_ANCESTRY; i++) {
    let parent: unknown;
    try {
      parent = await bus.getProp(targetOf(at), 'org.a11y.atspi.Accessible', 'Parent', 1000);
    } catch { return undefined; }
    if (!Array.isArray(parent) || typeof parent[0] !== 'string' || typeof parent[1] !== 'string') return undefined;
    if (parent[1] === NULL_PATH) return 'outside';
    const handle = parent[0] + parent[1];
    if (index.has(handle)) return handle;
    if (parent[1] === '/org/a11y/atspi/accessible/root') return 'outside';
    at = handle;
  }
  return undefined;
}
