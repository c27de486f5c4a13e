/**
 * Empty structure left out of a whole-window print. Toolkits nest what a window shows in containers that carry
 * nothing of their own and that distilling keeps because they take the focus or a scroll: LibreOffice's menu bar
 * sits in two scroll panes and its formula bar's input line in a group and two more, GTK 3's file chooser puts its
 * path bar in a group "Browse Header Revealer", a group "Browse Header Stack" and a "PathBar Layer" and its Places
 * list in two scroll panes (~776 tokens of such lines in the eval's 41 tasks). In a folded print:
 * - a container of one child with no state, no value and no op a model would use prints as that child, at its
 *   place; a name that says what the region is passes to the child when the child has none (`list "Places"`);
 * - a container's name that is its widget's class (it ends in a layout word: Revealer, Stack, Layer, …) is no
 *   name to a user: it is left out, and the container is one of the above when it has one child;
 * - a leaf with nothing to print and nothing to do with it goes;
 * - a second menu bar that shows the same menus as one before it goes (its refs still act).
 * A scroll pane's scroll counts as an op only when what it holds cannot take it: the Linux driver scrolls an
 * element by the bars of its two nearest raw ancestors (drivers/linux/act/scrollbars.ts), so a pane one or two raw
 * levels above its content is reached by a scroll on the content's ref. Works on a copy, like engine/fold.ts: refs,
 * the elements a find or a diff reads and the nodes themselves are untouched, and `full=true` prints them. Pure.
 */
import type { DistilledNode } from './distill.js';
import { isGrid } from './grid.js';
import { isOpaqueView } from './opaque.js';
import { besideLabel, hasSubmenuMarker, isUnchecked, nameDescription, renderedStates } from './render.js';
import { CONTAINER_ROLES, type Role } from './role.js';
import { sliceRows } from './rows.js';
import { textPart } from './text.js';

/**
 * The last word of a name a toolkit gives a container after its widget's class (GTK's GtkRevealer, GtkStack, a
 * layer of an overlay): the kind of layout, not what the region shows.
 */
const CLASS_WORD = /(?:^|\s)(?:Revealer|Stack|Layer|Overlay|Box|Bin|Paned|Viewport|Container)$/u;

/** Raw levels above an element whose scroll bars a scroll on it moves (drivers/linux/act/scrollbars.ts). */
const SCROLL_LEVELS = 2;

/** True for a name that only says which layout widget holds the content. */
export function isClassName(name: string | undefined): boolean {
  return name !== undefined && CLASS_WORD.test(name.trim());
}

/** The name a container prints: none when it is its widget's class. */
function ownName(n: DistilledNode): string | undefined {
  return n.name && !isClassName(n.name) ? n.name : undefined;
}

/** True when `n`'s ops are none a model uses: the focus, and a scroll that `content` takes (within two raw levels). */
function noOps(n: DistilledNode, content: DistilledNode | undefined): boolean {
  return n.actions.every((op) => op === 'focus' || (op === 'scroll' && content !== undefined
    && (content.rawParents ?? []).slice(0, SCROLL_LEVELS).includes(n.id)));
}

/**
 * Roles whose click is no control's: toolkits give every widget an Action (Qt's groups and status bar cells,
 * Chromium's "showContextMenu" on every node). A model clicks what a container holds, not the container, and a
 * status line with nothing in it does nothing.
 */
const NO_CLICK_ROLES: ReadonlySet<Role> = new Set<Role>([...CONTAINER_ROLES, 'statusbar']);

/** The ops of `n` a model could use: a container's or a status line's click is none. */
function ownOps(n: DistilledNode): DistilledNode {
  return NO_CLICK_ROLES.has(n.role) ? { ...n, actions: n.actions.filter((op) => op !== 'click') } : n;
}

/** True for an element that prints only its role and holds and does nothing. */
function emptyLeaf(n: DistilledNode): boolean {
  return n.children.length === 0 && n.totalChildren === undefined && !n.name
    && !nameDescription(n) && !besideLabel(n) && !n.value && renderedStates(n).length === 0
    && noOps(ownOps(n), undefined)
    && !hasSubmenuMarker(n) && !isUnchecked(n) && !isOpaqueView(n) && textPart(n) === undefined;
}

/** True for a container that carries nothing of its own a model reads or uses, given its one child. */
function bare(n: DistilledNode, only: DistilledNode | undefined): boolean {
  return CONTAINER_ROLES.has(n.role) && !n.value && !nameDescription(n) && !besideLabel(n)
    && renderedStates(n).length === 0 && n.totalChildren === undefined && noOps(ownOps(n), only);
}

/**
 * True for an element a region's name may pass to: it prints no name of its own, and a name changes nothing else of
 * its line (a drawn view's "exposes no items" is said of a nameless one: the name stays on its wrapper's line).
 */
function takesName(n: DistilledNode): boolean {
  return !n.name && !nameDescription(n) && !besideLabel(n) && !isOpaqueView(n);
}

/** What a subtree shows, refs aside: its roles, names, values and printed states. */
function shows(n: DistilledNode): string {
  return JSON.stringify([n.role, n.name ?? '', n.value ?? '', renderedStates(n).join(' '), n.children.map(shows)]);
}

/** The result of `dropWrappers`. */
export interface Unwrapped {
  /** The tree to print: a copy without the empty structure; the input when there is none. */
  root: DistilledNode;
  /** Lines left out. */
  dropped: number;
}

/**
 * A copy of `root` without its wrappers and empty leaves (see the file comment); what `whole` names (just acted on)
 * and the root print as they are. Grids and a long list's rows are left whole: their cells print their own way.
 */
export function dropWrappers(root: DistilledNode, whole: ReadonlySet<string> = new Set()): Unwrapped {
  let dropped = 0;
  const menubars = new Set<string>();
  const visit = (node: DistilledNode, top: boolean): DistilledNode | undefined => {
    if (node.folded || isGrid(node) || sliceRows(node)) return node;
    if (node.role === 'menubar' && !top && !(node.ref !== undefined && whole.has(node.ref))) {
      // A window has one menu bar: a second that shows the same menus (LibreOffice's zero-height copy under its
      // document pane) is the first again, and a model acts on the first.
      const key = shows(node);
      if (menubars.has(key)) {
        dropped++;
        return undefined;
      }
      menubars.add(key);
    }
    const kids: DistilledNode[] = [];
    for (const c of node.children) {
      const k = visit(c, false);
      if (k) kids.push(k);
    }
    let self = kids.length === node.children.length && kids.every((k, i) => k === node.children[i])
      ? node : { ...node, children: kids };
    if (top || (node.ref !== undefined && whole.has(node.ref))) return self;
    if (emptyLeaf(self)) {
      dropped++;
      return undefined;
    }
    const only = kids.length === 1 ? kids[0] : undefined;
    if (!bare(self, only)) return self;
    const name = ownName(self);
    if (only && (!name || takesName(only))) {
      dropped++;
      return name ? { ...only, name } : only;
    }
    if (self.name && !name) {
      const { name: _class, ...rest } = self;
      self = rest;
    }
    return self;
  };
  const out = visit(root, true) ?? root;
  return { root: out, dropped };
}
