/**
 * Side-by-side text panes in screen order (drivers/common/order.ts): the bounds of the panes are read only for
 * parents with two or more of them, one GetExtents per pane (GTK 3 reads no bounds in a snapshot otherwise).
 */
import type { RawNode } from '../../../protocol/nodes.js';
import { contentPanes, orderPanes, parentsOfPanes } from '../../common/order.js';
import type { A11yBus } from '../bus/bus.js';
import { boundsOfNode, type BoundsAsked } from './reader.js';

/** Most parents whose panes are ordered in one snapshot. */
const MAX_PARENTS = 8;

/** Orders the text panes of each parent that has several by where they show. `asked`: bounds asked ahead. */
export async function orderContentPanes(bus: A11yBus, root: RawNode, asked?: BoundsAsked): Promise<void> {
  await Promise.all(parentsOfPanes(root).slice(0, MAX_PARENTS).map(async (parent) => {
    const panes = contentPanes(parent);
    orderPanes(parent, panes, await Promise.all(panes.map((p) => boundsOfNode(bus, p, asked))));
  }));
}

/** The nodes whose bounds `orderContentPanes` reads. */
export function paneBoundsWanted(root: RawNode): RawNode[] {
  return parentsOfPanes(root).slice(0, MAX_PARENTS).flatMap((parent) => contentPanes(parent));
}
