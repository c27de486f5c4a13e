/**
 * GTK 3's icon view (GtkIconView; Thunar's ExoIconView): a layered pane with a Selection whose items are icons that
 * hold their caption as text and no name (reader.ts reads them as a list of items named by their caption). An item
 * shows when its bounds meet the view's: GTK 3 sets an item's showing state when the item is made and again only
 * when the view scrolls, so the items of a model put in later (gtk3-icon-browser's category switch) all read as off
 * screen while the view shows them, and the print showed an empty list. One GetExtents per such item, and per view
 * once (its Parent, role and interfaces too when the item is read on its own, as a re-read subtree).
 */
import type { Rect } from '../../common/rects.js';
import type { A11yBus } from '../bus/bus.js';
import { extentsOf, isIconView, showsOnScreen, type ElementInfo } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';

/** Icon views' bounds by handle, read once per tree read. */
export type IconViews = Map<string, Promise<Rect | undefined>>;

/** The bounds of the icon view holding an item, when its parent is one. */
function viewAround(bus: A11yBus, info: ElementInfo, views: IconViews): Promise<Rect | undefined> {
  return (async () => {
    const [dest, path] = (await bus.getProp(info.target, ACC, 'Parent')) as [string, string];
    const parent = { dest, path };
    let view = views.get(dest + path);
    if (!view) {
      view = (async () => {
        const [[role], [ifaces]] = await Promise.all([
          bus.call(parent, ACC, 'GetRoleName'),
          bus.call(parent, ACC, 'GetInterfaces'),
        ]);
        const pane = { atspiRole: String(role), interfaces: new Set(ifaces as string[]) };
        return isIconView(pane) ? extentsOf(bus, parent) : undefined;
      })().catch(() => undefined);
      views.set(dest + path, view);
    }
    return view;
  })().catch(() => undefined);
}

/**
 * Marks an icon item GTK left off screen as showing when its bounds meet its view's (`view`: the view's bounds when
 * the caller read the view, else found from the item's parent).
 */
export async function judgeIconItem(
  bus: A11yBus,
  info: ElementInfo,
  view: Rect | undefined,
  views: IconViews,
): Promise<void> {
  if (info.atspiRole !== 'icon' || showsOnScreen(info) || !info.states.has('visible')) return;
  const v = view ?? await viewAround(bus, info, views);
  if (!v) return;
  const b = await extentsOf(bus, info.target).catch(() => undefined);
  if (b && b[0] < v[0] + v[2] && v[0] < b[0] + b[2] && b[1] < v[1] + v[3] && v[1] < b[1] + b[3])
    info.states.add('showing');
}

/** The bounds of a view read for its items, when it is an icon view. */
export async function iconViewBounds(bus: A11yBus, info: ElementInfo): Promise<Rect | undefined> {
  return isIconView(info) ? extentsOf(bus, info.target).catch(() => undefined) : undefined;
}
