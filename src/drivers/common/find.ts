/** `tree.find` over a raw tree, shared by the drivers that search a tree they have read. */
import type { RawNode } from '../../protocol/nodes.js';
import { walk } from '../../engine/node.js';
import type { FindMatch, FindParams } from '../../protocol/methods.js';

/**
 * Matches by case-insensitive text (name, value, description; never a password's value) and role, up to
 * `limit` (20). Subtrees marked offscreen or invisible are skipped.
 */
export function findInTree(root: RawNode, p: Pick<FindParams, 'text' | 'role' | 'limit'>): FindMatch[] {
  const text = p.text?.toLowerCase();
  const matches: FindMatch[] = [];
  walk(root, (n, anc) => {
    if (matches.length >= (p.limit ?? 20)) return 'skip';
    if (n.states.includes('offscreen') || n.states.includes('invisible')) return 'skip';
    const hay =
      `${n.name ?? ''}\n${n.states.includes('password') ? '' : (n.value ?? '')}\n${n.description ?? ''}`.toLowerCase();
    if ((!text || hay.includes(text)) && (!p.role || n.role === p.role)) {
      const { children: _c, ...bare } = n;
      matches.push({ node: bare, path: anc.map((a) => a.id) });
    }
    return undefined;
  });
  return matches;
}
