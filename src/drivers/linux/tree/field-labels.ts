/**
 * Nameless fields named by the label beside them (drivers/common/labels.ts): the bounds of a parent's children
 * are read only where a nameless field and a label are siblings, one GetExtents each (GTK 3 reads no bounds in a
 * snapshot otherwise).
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { nameFieldsByLabels, pairingChildren, parentsOfFields } from '../../common/labels.js';
import type { A11yBus } from '../bus/bus.js';
import { boundsOfNode } from './reader.js';

/** Most bounds read for this in one snapshot (a form of a few dozen fields; beyond that, fields stay unnamed). */
const MAX_READS = 160;

/** Sets `beside` on the nameless fields of the tree that sit beside a label. */
export async function nameFieldsBeside(bus: A11yBus, root: RawNode): Promise<void> {
  let reads = 0;
  const parents = parentsOfFields(root).filter((p) => (reads += pairingChildren(p).length) <= MAX_READS);
  await Promise.all(parents.map(async (parent) => {
    const kids = pairingChildren(parent);
    const rects = await Promise.all(kids.map((k) => boundsOfNode(bus, k)));
    nameFieldsByLabels(parent, new Map(kids.map((k, i) => [k, rects[i]])));
  }));
}
