/**
 * Folding of long runs of alike controls in a whole-window print: a toolbar's 32 buttons, a palette, a button
 * grid or a dock's long list print as one line (their count, their names in order up to a small budget, and the
 * scope that lists them with refs) instead of one line each. LibreOffice Calc's first print spent about a third
 * of its ~1,800 tokens on toolbar buttons a model rarely needs by ref before it asks. Folding works on a copy of
 * the distilled tree: refs, the elements a find or a diff reads and the nodes themselves are untouched, so a
 * folded control is still found and acted on by name. Pure.
 */
import type { DistilledNode } from './distill.js';
export type { FoldRun } from './distill.js';
import { isGrid } from './grid.js';
import type { Role } from './role.js';
import { sliceRows } from './rows.js';

/** Siblings that fold to one line: this many alike in a row, or more. */
export const FOLD_MIN = 8;

/** Roles a bar, a palette, a button grid or a dock's list repeats. Tabs (the structure) and form fields never fold. */
const FOLDABLE_ROLES: ReadonlySet<Role> = new Set<Role>(['button', 'link', 'menuitem', 'listitem', 'treeitem']);

/** States that make an element worth its own line: the model must see what is on, selected, focused or open. */
const SHOWN_STATES: ReadonlySet<string> = new Set([
  'focused',
  'selected',
  'checked',
  'mixed',
  'pressed',
  'expanded',
  'busy',
  'invalid',
]);

/** Options of `foldRuns`. */
export interface FoldOptions {
  /** Refs printed in full wherever they are (what the model just acted on). */
  whole?: ReadonlySet<string>;
}

/** The text a member shows in a fold line: its name, else the description a nameless control prints. */
export function foldLabel(n: DistilledNode): string | undefined {
  return n.name ?? n.description?.trim() ?? undefined;
}

/** True for an element a fold may hide: a leaf control with a label and nothing of its own the model must see. */
function foldable(n: DistilledNode, whole: ReadonlySet<string>): boolean {
  if (!FOLDABLE_ROLES.has(n.role) || n.children.length > 0 || n.totalChildren !== undefined) return false;
  if (!foldLabel(n) || (n.value !== undefined && n.value !== '' && n.value !== n.name)) return false;
  if (n.ref !== undefined && whole.has(n.ref)) return false;
  return !n.states.some((s) => SHOWN_STATES.has(s));
}

/** How many siblings from `i` on are foldable and of one role (1 when fewer than FOLD_MIN). */
function runLength(kids: readonly DistilledNode[], i: number, whole: ReadonlySet<string>): number {
  const a = kids[i];
  if (!a || !foldable(a, whole)) return 1;
  let j = i + 1;
  while (j < kids.length && (kids[j] as DistilledNode).role === a.role && foldable(kids[j] as DistilledNode, whole))
    j++;
  return j - i >= FOLD_MIN ? j - i : 1;
}

/** The result of `foldRuns`. */
export interface Folded {
  /** The tree to print: a copy where each run is one node carrying `folded`; the input when nothing folds. */
  root: DistilledNode;
  /** Runs folded, and the elements inside them. */
  runs: number;
  elements: number;
}

/**
 * A copy of `root` where every run of FOLD_MIN or more alike foldable siblings is one node: it keeps the first
 * member's ref and role and carries the run in `folded`. Tables printed as grids or rows keep their cells.
 */
export function foldRuns(root: DistilledNode, opts: FoldOptions = {}): Folded {
  const whole = opts.whole ?? new Set<string>();
  let runs = 0;
  let elements = 0;
  const visit = (node: DistilledNode): DistilledNode => {
    if (isGrid(node) || sliceRows(node)) return node;
    const kids: DistilledNode[] = [];
    let changed = false;
    for (let i = 0; i < node.children.length;) {
      const run = runLength(node.children, i, whole);
      if (run > 1) {
        const members = node.children.slice(i, i + run);
        const first = members[0] as DistilledNode;
        const { name: _n, description: _d, value: _v, ...rest } = first;
        kids.push({ ...rest, states: [], actions: [], children: [], folded: { members, scope: node.ref ?? '?' } });
        runs++;
        elements += run;
        changed = true;
        i += run;
        continue;
      }
      const child = node.children[i] as DistilledNode;
      const next = visit(child);
      if (next !== child) changed = true;
      kids.push(next);
      i++;
    }
    return changed ? { ...node, children: kids } : node;
  };
  const out = visit(root);
  return { root: out, runs, elements };
}
