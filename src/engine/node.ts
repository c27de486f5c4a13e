/**
 * The node vocabulary the engine works on. It is the protocol's (protocol/nodes.ts: the wire schemas with their
 * meaning); the engine imports it from there, never the reverse. Here: the engine's own helpers on raw trees.
 */
import type { RawNode } from '../protocol/nodes.js';

export { OPS, STATES, type AppInfo, type Op, type RawNode, type State, type WindowInfo } from '../protocol/nodes.js';

/** Counts nodes in a raw tree. */
export function countNodes(node: RawNode): number {
  let n = 1;
  for (const c of node.children ?? []) n += countNodes(c);
  return n;
}

/** Depth-first visit of a raw tree with the ancestor chain. */
export function walk(node: RawNode, visit: (node: RawNode, ancestors: readonly RawNode[]) => void | 'skip',
  ancestors: RawNode[] = []): void {
  if (visit(node, ancestors) === 'skip') return;
  ancestors.push(node);
  for (const c of node.children ?? []) walk(c, visit, ancestors);
  ancestors.pop();
}
