/**
 * Combo boxes whose choices exist only while they are open (ARIA comboboxes built by a page's script: the
 * listbox is added to the page, or shown, when the combo expands, and is not the combo's child). Selecting goes
 * as a user's does: open the combo, click the named option in the list it controls (the page's own handler
 * runs), close the combo if it stayed open, and read back the value the combo now shows.
 */
import { quoteText } from '../../../engine/escape.js';
import { itemIndex } from '../../common/items.js';
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { decodeStates, readElement, shownText, type ElementInfo } from '../tree/reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const ACTION = 'org.a11y.atspi.Action';
/** AT-SPI's relation "controller for" (aria-controls in Chromium and Firefox). */
const CONTROLLER_FOR = 3;
/** How long the list may take to appear after the combo is opened, and the value to show after the click. */
const POPUP_MS = 2500;
/** Roles of the list a combo opens, and of its options. */
const LIST_ROLES = /^(list box|list|menu|tree)$/;
const OPTION_ROLES = /^(list item|option|menu item|tree item|radio menu item|check menu item)$/;
/** Most options read from one list (a combo's list, not a data set). */
const MAX_OPTIONS = 500;
/** Most elements looked at when the list is searched for below the page's document (no aria-controls). */
const MAX_SEARCHED = 3000;
const CALL_MS = 1500;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Option { target: Target; name: string }

/** The elements a combo's relation set names as controlled by it (aria-controls). */
async function controlled(bus: A11yBus, t: Target): Promise<Target[]> {
  const [set] = await bus.call(t, ACC, 'GetRelationSet', '', [], CALL_MS).catch(() => [[]]);
  return (set as [number, [string, string][]][]).filter(([type]) => type === CONTROLLER_FOR)
    .flatMap(([, targets]) => targets.map(([dest, path]) => ({ dest, path })));
}

async function roleOf(bus: A11yBus, t: Target): Promise<string> {
  return String((await bus.call(t, ACC, 'GetRoleName', '', [], CALL_MS).catch(() => ['']))[0]);
}

async function childrenOf(bus: A11yBus, t: Target): Promise<Target[]> {
  const [kids] = await bus.call(t, ACC, 'GetChildren', '', [], CALL_MS).catch(() => [[]]);
  return (kids as [string, string][]).map(([dest, path]) => ({ dest, path }));
}

/** The options of a list (one level of groups looked through), in order, bounded. */
async function optionsOf(bus: A11yBus, list: Target): Promise<Option[]> {
  const out: Option[] = [];
  for (const c of (await childrenOf(bus, list)).slice(0, MAX_OPTIONS)) {
    const role = await roleOf(bus, c);
    const inner = OPTION_ROLES.test(role) ? [c] : (await childrenOf(bus, c)).slice(0, MAX_OPTIONS);
    for (const o of inner) {
      if (out.length >= MAX_OPTIONS) return out;
      if (o !== c && !OPTION_ROLES.test(await roleOf(bus, o))) continue;
      out.push({ target: o, name: String(await bus.getProp(o, ACC, 'Name', CALL_MS).catch(() => '') ?? '') });
    }
  }
  return out;
}

/** True when `t` is a showing list with options (its role given when the caller read it). */
async function isShowingList(bus: A11yBus, t: Target, role?: string): Promise<boolean> {
  if (!LIST_ROLES.test(role ?? await roleOf(bus, t))) return false;
  const [words] = await bus.call(t, ACC, 'GetState', '', [], CALL_MS).catch(() => [[0, 0]]);
  return decodeStates(words as number[]).has('showing');
}

/** The page's document around `t` (the nearest ancestor of role document web), or undefined. */
async function documentOf(bus: A11yBus, t: Target): Promise<Target | undefined> {
  let at = t;
  for (let depth = 0; depth < 48; depth++) {
    const [dest, path] = await bus.getProp(at, ACC, 'Parent', CALL_MS).catch(() => ['', '']) as [string, string];
    if (!path || path.endsWith('/null') || path.endsWith('/accessible/root')) return undefined;
    at = { dest, path };
    if (await roleOf(bus, at) === 'document web') return at;
  }
  return undefined;
}

/**
 * The first showing list below `root` that belongs to no combo box (breadth first, bounded). A list inside a
 * combo is that combo's own: Gecko keeps a `<select>`'s list showing after it closed, and it read as ours.
 */
async function showingListBelow(bus: A11yBus, root: Target): Promise<Target | undefined> {
  let level = [root];
  let seen = 0;
  while (level.length && seen < MAX_SEARCHED) {
    const next: Target[] = [];
    for (const t of level) {
      if (++seen > MAX_SEARCHED) break;
      const role = t === root ? '' : await roleOf(bus, t);
      if (role === 'combo box') continue;
      if (t !== root && await isShowingList(bus, t, role)) return t;
      next.push(...await childrenOf(bus, t));
    }
    level = next;
  }
  return undefined;
}

/** The list the open combo shows: the one it controls, else a showing list in its page. */
async function openList(bus: A11yBus, combo: Target, page: Target | undefined): Promise<Target | undefined> {
  for (const t of await controlled(bus, combo)) {
    if (await isShowingList(bus, t)) return t;
    // aria-controls may name a wrapper around the list.
    for (const c of await childrenOf(bus, t)) if (await isShowingList(bus, c)) return c;
  }
  return page ? showingListBelow(bus, page) : undefined;
}

/** What the combo shows now: its text, else its only child's name. */
async function shownValue(bus: A11yBus, combo: Target): Promise<string> {
  const text = await shownText(bus, combo, 400).catch(() => '');
  if (text) return text;
  const kids = await childrenOf(bus, combo);
  if (kids.length !== 1) return '';
  return String(await bus.getProp(kids[0]!, ACC, 'Name', CALL_MS).catch(() => '') ?? '').trim();
}

async function isExpanded(bus: A11yBus, t: Target): Promise<boolean> {
  return (await readElement(bus, t, { children: false }).catch(() => undefined))?.states.has('expanded') === true;
}

/** Closes the combo when it is still open (its action toggles it); true when it is closed after. */
async function closeCombo(bus: A11yBus, combo: Target): Promise<boolean> {
  if (!(await isExpanded(bus, combo))) return true;
  await bus.call(combo, ACTION, 'DoAction', 'i', [0]).catch(() => undefined);
  await sleep(50);
  return !(await isExpanded(bus, combo));
}

/**
 * Selects `want` in a collapsed combo box that has no list of its own: opens it, chooses the option in the list
 * it opened, closes it and reads back what it shows. Null when the combo cannot be opened by an action or opens
 * no list (the caller goes on with its other paths).
 */
export async function selectInPopupCombo(bus: A11yBus, info: ElementInfo, want: string,
  signal?: AbortSignal): Promise<ActResult | null> {
  if (!info.interfaces.has(ACTION)) return null;
  const page = await documentOf(bus, info.target);
  const wasOpen = info.states.has('expanded');
  if (!wasOpen) await bus.call(info.target, ACTION, 'DoAction', 'i', [0]);
  let list: Target | undefined;
  for (const end = performance.now() + POPUP_MS; !list && performance.now() < end && !signal?.aborted;) {
    list = await openList(bus, info.target, page);
    if (!list) await sleep(50);
  }
  if (!list) {
    // Nothing opened: put the combo back as it was and let the other paths try.
    if (!wasOpen) await closeCombo(bus, info.target);
    return null;
  }
  const options = await optionsOf(bus, list);
  let index: number;
  try {
    index = itemIndex(options.map((o) => o.name), want);
  } catch (e) {
    await closeCombo(bus, info.target);
    throw e;
  }
  const option = options[index]!;
  const [ok] = await bus.call(option.target, ACTION, 'DoAction', 'i', [0]);
  const named = quoteText(option.name.slice(0, 40));
  if (ok === false) throw new ComputerUseError('action_failed', `The option ${named} refused its click.`);
  // The value the combo shows after the click, waited for (the page's handler may run a frame later).
  let shown = '';
  for (const end = performance.now() + POPUP_MS; performance.now() < end && !signal?.aborted; await sleep(50)) {
    shown = await shownValue(bus, info.target);
    if (shown === option.name.trim()) break;
  }
  const closed = await closeCombo(bus, info.target);
  const note = closed ? '' : '; the list is still open';
  if (shown !== option.name.trim()) {
    throw new ComputerUseError('action_failed', `${named} was clicked in the combo's list but the combo shows ` +
      `${quoteText(shown.slice(0, 40))}${note}.`);
  }
  return { method: 'pattern', detail: `opened the combo, clicked ${named} in its list; it now shows it${note}` };
}
