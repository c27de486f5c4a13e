/**
 * Side-by-side text panes in screen order (drivers/common/order.ts): the bounds of the panes are read only for
 * parents with two or more of them, one GetExtents per pane (GTK 3 reads no bounds in a snapshot otherwise).
 */
import type { RawNode } from '../../protocol/nodes.js';
import { contentPanes, orderPanes, parentsOfPanes } from '../common/order.js';
import type { A11yBus } from './bus.js';
import { targetOf } from './reader.js';

/** Most parents whose panes are ordered in one snapshot. */
const MAX_PARENTS = 8;

/** The bounds of a node: as read, else asked for (undefined when the node has none). */
async function boundsOf(bus: A11yBus, n: RawNode): Promise<[number, number, number, number] | undefined> {
  if (n.bounds) return n.bounds;
  const ext = await bus.call(targetOf(n.id), 'org.a11y.atspi.Component', 'GetExtents', 'u', [0]).catch(() => undefined);
  const [x, y, w, h] = (ext?.[0] ?? []) as number[];
  return w && h ? [x ?? 0, y ?? 0, w, h] : undefined;
}

/** Orders the text panes of each parent that has several by where they show. */
export async function orderContentPanes(bus: A11yBus, root: RawNode): Promise<void> {
  await Promise.all(parentsOfPanes(root).slice(0, MAX_PARENTS).map(async (parent) => {
    const panes = contentPanes(parent);
    orderPanes(parent, panes, await Promise.all(panes.map((p) => boundsOf(bus, p))));
  }));
}
