/**
 * Combo boxes whose own node offers no Selection (Firefox/Gecko `<select>`): the items live in a list child
 * (role menu/list, with Selection), and the dropdown, once opened, is a separate popup under the top-level
 * window. Selecting goes through the popup's item, as a user's click would (the page gets its change event);
 * when no popup shows up, through the list's Selection. Either way the item's selected state is read back.
 */
import { quoteText } from '../../../engine/escape.js';
import { itemIndex } from '../../common/items.js';
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { decodeStates, readElement, type ElementInfo } from '../tree/reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const ACTION = 'org.a11y.atspi.Action';
const SEL = 'org.a11y.atspi.Selection';
/** How long the dropdown may take to appear, and the selection to show, after the combo is opened. */
const POPUP_MS = 2500;
const LIST_ROLES = /^(menu|list|list box|popup menu)$/;
const TOP_ROLES = /^(frame|window|dialog)$/;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One item of a combo's list; `grouped` when it sits in a group (an <optgroup>), not directly in the list. */
interface Item { target: Target; name: string; selected: boolean; grouped: boolean }

/** The items of a list, with the items of its groups (one level: HTML's <optgroup>) in document order. */
async function itemsOf(bus: A11yBus, list: Target, grouped = false): Promise<Item[]> {
  const info = await readElement(bus, list, { children: true });
  const rows = await Promise.all(info.children.map(async (c): Promise<Item[]> => {
    const [name, [words], [role], count] = await Promise.all([
      bus.getProp(c, ACC, 'Name').catch(() => ''),
      bus.call(c, ACC, 'GetState').catch(() => [[0, 0]]),
      bus.call(c, ACC, 'GetRoleName').catch(() => ['']),
      bus.getProp(c, ACC, 'ChildCount').catch(() => 0),
    ]);
    if (!grouped && Number(count) > 0 && !/item|option/.test(String(role))) return itemsOf(bus, c, true);
    return [
      { target: c, name: String(name ?? ''), selected: decodeStates(words as number[]).has('selected'), grouped },
    ];
  }));
  return rows.flat();
}

/** The top-level window (frame, dialog) an element is in, walking up its parents. */
export async function topLevelOf(bus: A11yBus, t: Target): Promise<ElementInfo | undefined> {
  let at = t;
  for (let depth = 0; depth < 64; depth++) {
    const [dest, path] = await bus.getProp(at, ACC, 'Parent') as [string, string];
    if (!path || path === '/org/a11y/atspi/null' || path === '/org/a11y/atspi/accessible/root') return undefined;
    const parent = { dest, path };
    const [role] = await bus.call(parent, ACC, 'GetRoleName');
    if (TOP_ROLES.test(String(role))) return readElement(bus, parent, { children: true, bounds: true });
    at = parent;
  }
  return undefined;
}

/** The open dropdown of a combo: a popup combo box (expanded) under the top-level window, with its items. */
async function popupItems(bus: A11yBus, top: ElementInfo): Promise<{ popup: Target; items: Item[] } | undefined> {
  for (const c of top.children) {
    const kid = await readElement(bus, c, { children: true }).catch(() => undefined);
    if (!kid || kid.atspiRole !== 'combo box' || !kid.states.has('expanded')) continue;
    for (const l of kid.children) {
      const [role] = await bus.call(l, ACC, 'GetRoleName').catch(() => ['']);
      if (LIST_ROLES.test(String(role))) return { popup: c, items: await itemsOf(bus, l) };
    }
  }
  return undefined;
}

/**
 * Selects `want` in a combo box that has no Selection of its own but a list child that has one. Returns null
 * when the combo is not of that kind (the caller goes on with its other paths).
 */
export async function selectInListCombo(
  bus: A11yBus,
  info: ElementInfo,
  want: string,
  signal?: AbortSignal,
): Promise<ActResult | null> {
  let list: Target | undefined;
  for (const c of info.children) {
    const [[role], [ifaces]] = await Promise.all([bus.call(c, ACC, 'GetRoleName'), bus.call(c, ACC, 'GetInterfaces')]);
    if (LIST_ROLES.test(String(role)) && (ifaces as string[]).includes(SEL)) { list = c; break; }
  }
  if (!list) return null;
  const items = await itemsOf(bus, list);
  const index = itemIndex(items.map((x) => x.name), want);
  const item = items[index]!;
  if (item.selected) return { method: 'pattern', detail: `${quoteText(item.name.slice(0, 40))} was already selected` };
  const selectedNow = async (): Promise<boolean> =>
    (await itemsOf(bus, list).catch(() => []))[index]?.selected === true;
  const untilSelected = async (): Promise<boolean> => {
    for (const end = performance.now() + POPUP_MS; performance.now() < end && !signal?.aborted; await sleep(25))
      if (await selectedNow()) return true;
    return selectedNow();
  };

  // The user's way: open the dropdown, activate the item in it.
  const top = info.interfaces.has(ACTION) ? await topLevelOf(bus, info.target).catch(() => undefined) : undefined;
  let opened = false;
  if (top) {
    await bus.call(info.target, ACTION, 'DoAction', 'i', [0]);
    opened = true;
    let popup: Awaited<ReturnType<typeof popupItems>>;
    for (const end = performance.now() + POPUP_MS; !popup && performance.now() < end && !signal?.aborted; ) {
      // Chromium expands the combo itself and shows its own list; Gecko opens a separate popup combo.
      const self = await readElement(bus, info.target, { children: false }).catch(() => undefined);
      if (self?.states.has('expanded')) { popup = { popup: info.target, items: await itemsOf(bus, list) }; break; }
      const now = await readElement(bus, top.target, { children: true }).catch(() => undefined);
      popup = now ? await popupItems(bus, now) : undefined;
      if (!popup) await sleep(25);
    }
    const hit =
      popup?.items[index]?.name === item.name ? popup.items[index] : popup?.items.find((x) => x.name === item.name);
    if (popup && hit) {
      await bus.call(hit.target, ACTION, 'DoAction', 'i', [0]);
      if (await untilSelected()) {
        await closePopup(bus, info, top);
        return {
          method: 'pattern',
          detail: `"${item.name.slice(0, 40)}" chosen in the opened dropdown (Action on its item)`,
        };
      }
    }
  }
  // No dropdown to choose in (or it did not take): the list's Selection. Pages get no change event this way.
  // An item in a group has no index of its own in the list's Selection: nothing to fall back on.
  if (item.grouped) {
    if (opened && top) await closePopup(bus, info, top);
    throw new ComputerUseError(
      'action_failed',
      `The dropdown did not offer "${item.name.slice(0, 40)}" to choose; nothing was selected. Observe the ` +
        `combo box and try again.`,
    );
  }
  const [ok] = await bus.call(list, SEL, 'SelectChild', 'i', [index]);
  if (opened && top) await closePopup(bus, info, top);
  if (ok === false || !(await untilSelected()))
    throw new ComputerUseError(
      'action_failed',
      `Selecting "${item.name.slice(0, 40)}" was accepted but the combo box does not show it selected.`,
    );
  return {
    method: 'pattern',
    detail:
      `Selection.SelectChild(${index}) on the combo's list (the dropdown did not ` +
      `${opened ? 'take it' : 'open'}; the page may not see a change event)`,
  };
}

/** Closes the combo's dropdown when it is still open (the combo's action toggles it). */
async function closePopup(bus: A11yBus, info: ElementInfo, top: ElementInfo): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const self = await readElement(bus, info.target, { children: false }).catch(() => undefined);
    const now = await readElement(bus, top.target, { children: true }).catch(() => undefined);
    if (!self?.states.has('expanded') && (!now || !(await popupItems(bus, now).catch(() => undefined)))) return;
    if (i === 0) await bus.call(info.target, ACTION, 'DoAction', 'i', [0]).catch(() => undefined);
    await sleep(50);
  }
}
