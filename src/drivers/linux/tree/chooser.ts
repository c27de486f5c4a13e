/**
 * A GTK file chooser's current folder, read from its path bar: the protocol's `chooser` fact on the chooser node
 * (protocol/nodes.ts), so the host judges a typed file name against the folder without knowing GTK. The bar's
 * buttons run from the current folder up to the root ("File System Root") or the home folder; when the bar is cut
 * (its slider buttons are enabled) the folder is unknown.
 */
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { RawNode } from '../../../protocol/nodes.js';

const SLIDERS = new Set(['Up Path', 'Down Path']);
/** GTK's name of the path bar's container (GtkPathBar's accessible). */
const BAR = 'PathBar Layer';

/** The folder a GTK path bar's buttons show, or undefined when the bar is cut or unreadable. */
export function folderOfBar(kids: readonly Pick<RawNode, 'name' | 'states'>[], home = homedir()): string | undefined {
  if (kids.some((k) => SLIDERS.has(k.name ?? '') && !k.states.includes('disabled'))) return undefined;
  // GTK lists the folder buttons deepest first; the checked one is the current folder.
  const folders = kids.filter((k) => !SLIDERS.has(k.name ?? '') && k.name !== 'Create Folder').reverse();
  const current = folders.findIndex((k) => k.states.includes('checked') || k.states.includes('pressed'));
  if (current < 0) return undefined;
  const [root, ...rest] = folders.slice(0, current + 1).map((k) => k.name ?? '');
  const base = root === 'File System Root' ? '/' : root === basename(home) || root === 'Home' ? home : undefined;
  return base === undefined || rest.some((n) => !n || n.includes('/')) ? undefined : join(base, ...rest);
}

/** The buttons under a node, depth first (GTK 3 puts the folder buttons in a nameless panel inside the bar). */
function buttonsUnder(n: RawNode, out: RawNode[] = []): RawNode[] {
  for (const k of n.children ?? []) {
    if (k.role === 'button') out.push(k);
    buttonsUnder(k, out);
  }
  return out;
}

/**
 * Marks each file chooser of a window tree with the `chooser` fact: a node AT-SPI calls "file chooser", or,
 * when a path bar lies outside any (seen in dialogs that embed the bar themselves), the bar's parent. The
 * folder is the first whole path bar inside it.
 */
export function markChoosers(root: RawNode, home = homedir()): void {
  const visit = (n: RawNode, chooser: RawNode | undefined, parent: RawNode | undefined): void => {
    // A cached tree hands back node objects read before: a fact from an earlier pass is dropped first.
    delete n.chooser;
    const here = n.nativeRole === 'file chooser' ? n : chooser;
    if (n === here) n.chooser = {};
    if (n.name === BAR) {
      const owner = here ?? parent ?? n;
      owner.chooser ??= {};
      const folder = folderOfBar(buttonsUnder(n), home);
      if (folder !== undefined && owner.chooser.folder === undefined) owner.chooser.folder = folder;
    }
    for (const k of n.children ?? []) visit(k, here, n);
  };
  visit(root, undefined, undefined);
}
