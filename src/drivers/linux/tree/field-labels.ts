/**
 * Nameless fields named by the label beside them (drivers/common/labels.ts): the bounds of a parent's children
 * are read only where a nameless field and a label are siblings, one GetExtents each (GTK 3 reads no bounds in a
 * snapshot otherwise). A combo box GTK 3 names after its choice ("Last Active View") takes the label its app links
 * to it (labelled-by), one GetRelationSet each where a label is its sibling.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { nameFieldsByLabels, pairingChildren, parentsOfFields } from '../../common/labels.js';
import type { A11yBus } from '../bus/bus.js';
import { boundsOfNode, handleOf, targetOf, type BoundsAsked } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const CALL_MS = 1500;
/** Most bounds read for this in one snapshot (a form of a few dozen fields; beyond that, fields stay unnamed). */
const MAX_READS = 160;

/** AT-SPI's relation "labelled by". */
const LABELLED_BY = 2;
/** Most relation sets read for this in one snapshot. */
const MAX_RELATION_READS = 40;

/**
 * Sets `beside` on the nameless fields of the tree that sit beside a label, and on combos named after a choice.
 * `asked`: bounds asked ahead.
 */
export async function nameFieldsBeside(bus: A11yBus, root: RawNode, asked?: BoundsAsked): Promise<void> {
  await Promise.all([besideByPlace(bus, root, asked), labelChoiceCombos(bus, root)]);
}

/** The parents whose children's bounds `besideByPlace` reads (at most MAX_READS bounds). */
function pairingParents(root: RawNode): RawNode[] {
  let reads = 0;
  return parentsOfFields(root).filter((p) => (reads += pairingChildren(p).length) <= MAX_READS);
}

/** The nodes whose bounds `nameFieldsBeside` reads. */
export function fieldBoundsWanted(root: RawNode): RawNode[] {
  return pairingParents(root).flatMap((parent) => pairingChildren(parent));
}

async function besideByPlace(bus: A11yBus, root: RawNode, asked?: BoundsAsked): Promise<void> {
  const parents = pairingParents(root);
  await Promise.all(parents.map(async (parent) => {
    const kids = pairingChildren(parent);
    const rects = await Promise.all(kids.map((k) => boundsOfNode(bus, k, asked)));
    nameFieldsByLabels(parent, new Map(kids.map((k, i) => [k, rects[i]])));
  }));
}

const labelText = (n: RawNode): string | undefined => (n.role === 'label' ? n.name?.trim() || undefined : undefined);

/**
 * A combo box with a name (GTK 3's is its choice: Thunar's "View new folders using:" combo reads "Last Active View")
 * and a label among its siblings: the label its relation set names as labelling it, as `beside`. A query for the
 * label's words then keeps the combo it names (engine/snapshot.ts); the print is as before (a name is printed, not
 * `beside`).
 */
async function labelChoiceCombos(bus: A11yBus, root: RawNode): Promise<void> {
  const combos: { combo: RawNode; labels: Map<string, string> }[] = [];
  const visit = (n: RawNode): void => {
    const kids = n.children ?? [];
    const labels = new Map(kids.flatMap((k) => { const t = labelText(k); return t ? [[k.id, t] as const] : []; }));
    for (const k of kids) {
      if (labels.size && k.role === 'combobox' && k.name?.trim() && !k.beside && combos.length < MAX_RELATION_READS)
        combos.push({ combo: k, labels });
      visit(k);
    }
  };
  visit(root);
  await Promise.all(combos.map(async ({ combo, labels }) => {
    const [set] = await bus.call(targetOf(combo.id), ACC, 'GetRelationSet', '', [], CALL_MS).catch(() => [[]]);
    const by = (set as [number, [string, string][]][]).filter(([type]) => type === LABELLED_BY)
      .flatMap(([, targets]) => targets.map(([dest, path]) => labels.get(handleOf({ dest, path }))))
      .filter((t): t is string => t !== undefined);
    if (by.length === 1 && by[0] !== combo.name?.trim()) combo.beside = by[0]!;
  }));
}
