/**
 * The items of a combo box whose own children are not its items. Measured on Java Swing (OpenJDK 17 +
 * java-atk-wrapper): a JComboBox has one child, a `popup menu`, and its items are `label`s inside
 * popup menu → scroll pane → viewport → list, present (not showing) while the popup is closed.
 * GTK 3 (measured on zenity --forms): combo box → menu → menu items, the menu as the combo's own child.
 * `Selection.SelectChild(i)` on the combo selects item i of that list (Swing and GTK 3 map the index to the
 * model's item, not to the combo's own children).
 */
import type { A11yBus, Target } from '../bus/bus.js';

const ACC = 'org.a11y.atspi.Accessible';
/** Roles passed through on the way down to the item list. */
const WRAPPERS = new Set(['popup menu', 'menu', 'scroll pane', 'viewport', 'panel', 'filler', 'window']);
/** How deep below the combo the list may sit. */
const MAX_DEPTH = 5;
/** Most items read. */
const MAX_ITEMS = 500;

/** The item names of the first list (or menu) below `combo` through wrapper nodes, or undefined. */
export async function comboItemNames(bus: A11yBus, combo: Target): Promise<string[] | undefined> {
  let level: Target[] = [combo];
  for (let depth = 0; depth < MAX_DEPTH && level.length; depth++) {
    const next: Target[] = [];
    for (const t of level) {
      const [kids] = await bus.call(t, ACC, 'GetChildren', '', [], 1500);
      for (const [dest, path] of (kids as [string, string][]).slice(0, 8)) {
        const child = { dest, path };
        const [role] = await bus.call(child, ACC, 'GetRoleName', '', [], 1500);
        if (role === 'list' || (role === 'menu' && depth > 0)) return itemNames(bus, child);
        // GTK 3: a GtkComboBox's one child is its menu, holding the items (named) directly.
        if (role === 'menu') {
          const names = await itemNames(bus, child);
          if (names.some(Boolean)) return names;
        }
        if (WRAPPERS.has(String(role))) next.push(child);
      }
    }
    level = next;
  }
  return undefined;
}

async function itemNames(bus: A11yBus, list: Target): Promise<string[]> {
  const count = Number(await bus.getProp(list, ACC, 'ChildCount', 1500) ?? 0);
  // A list this long is not a combo's popup: never ask for an unbounded child list.
  if (!(count > 0) || count > MAX_ITEMS) return [];
  const [kids] = await bus.call(list, ACC, 'GetChildren', '', [], 3000);
  return Promise.all((kids as [string, string][]).slice(0, MAX_ITEMS).map(([dest, path]) =>
    bus.getProp({ dest, path }, ACC, 'Name', 1500).then((n: unknown) => String(n ?? ''), () => '')));
}
