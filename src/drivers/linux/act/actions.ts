/**
 * Element operations through AT-SPI interfaces (Action, EditableText, Value, Selection, Component): no
 * pointer, no focus stealing. Each op re-reads what it needs and verifies what it can. The exceptions take
 * the keyboard and say so in their result: fields without EditableText, and edits an app accepted but did not
 * apply (Gecko, see edit.ts), are focused and typed into through XTest, proven to reach the element's process.
 */
import { quoteText } from '../../../engine/escape.js';
import { MAX_SCROLL_COUNT, parseScrollBy, parseScrollTo } from '../../../protocol/cells.js';
import type { ActParams, ActResult } from '../../../protocol/methods.js';
import { ComputerUseError, type Remedy } from '../../../protocol/errors.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import { actionName, lookupName, meansActivation } from './action-name.js';
import { comboItemNames } from '../tree/combo-items.js';
import { itemIndex, noItemError, pickItem } from '../../common/items.js';
import { checkExpect, elementGone } from '../../common/expect.js';
import type { ElementInfo } from '../tree/reader.js';
import { extentsOf, readElement, targetOf, toRawNode } from '../tree/reader.js';
import { processMismatch, startTokenOf } from '../apps/identity.js';
import type { AppInfo } from '../../../protocol/nodes.js';
import { center, type Expect, type LinuxInput } from '../input/input.js';
import { titleOf } from '../x11/match.js';
import { BACKSPACE, insertTextVerified, SELECT_ALL, setTextVerified, type TypingDeps } from './edit.js';
import { selectInListCombo, topLevelOf } from './combo.js';
import { selectInPopupCombo } from './popup-combo.js';
import { linuxProbe, showingReliableFor } from './actionable.js';
import { waitActionable } from '../../common/actionable.js';
import type { EventWatcher } from '../bus/events.js';
import { enterCell, resolveCellHandle, selectCell, selectRange } from '../tree/table.js';
import { scrollToRow } from './scrollto.js';
import { scrollSetBy } from '../tree/virtualset.js';
import { clickInside } from './inner-click.js';
import { insideAncestors, screenOffset } from './on-screen.js';
import { barNumber, scrollBarsOf } from './scrollbars.js';
import { scrollIntoView } from './into-view.js';
import { partInView, revealCellAt, revealColumn } from './sideways.js';
import { scrollByElements } from './scrollby.js';
import { activateRow } from './row-activate.js';
import { ATSPI_ROLES } from '../bus/atspi-constants.generated.js';
import { clickToCurrent, currentNote } from './current-item.js';
import { editItemCell } from './item-cell-edit.js';
import { closeWindow } from './close-window.js';

const ACTION = 'org.a11y.atspi.Action';
const ETEXT = 'org.a11y.atspi.EditableText';
const TEXT = 'org.a11y.atspi.Text';
const VALUE = 'org.a11y.atspi.Value';
const SEL = 'org.a11y.atspi.Selection';
const COMP = 'org.a11y.atspi.Component';
const TABLE = 'org.a11y.atspi.Table';
const ACC = 'org.a11y.atspi.Accessible';

/** Preferred action names per op, most specific first. */
const ACTION_NAMES: Record<string, string[]> = {
  click: ['click', 'press', 'activate', 'toggle', 'jump', 'open', 'select'],
  toggle: ['toggle', 'click', 'press', 'activate'],
  double_click: ['activate', 'open', 'click', 'press'],
  right_click: ['showcontextmenu', 'menu', 'popup', 'show menu'],
  expand: ['expand or contract', 'expand', 'open', 'press', 'click', 'activate'],
  collapse: ['expand or contract', 'collapse', 'close', 'press', 'click', 'activate'],
};

/**
 * Capability `act_identity`: why the element's process or window is not the one `expect` names (nothing may be
 * sent then), or undefined. The bus daemon says which process owns the element's connection, /proc proves it is
 * the one the host decided on; the window must be of that connection and still have the title the host saw.
 */
async function identityMismatch(
  bus: A11yBus,
  t: Target,
  expect: NonNullable<ActParams['expect']>,
  keyboard: LinuxInput,
): Promise<string | undefined> {
  if (expect.pid === undefined) return undefined;
  const win = expect.window === undefined ? undefined : targetOf(expect.window);
  if (win && win.dest !== t.dest) return 'the element is not in the window expected';
  // A window whose accessible name was empty last time has its bounds asked beside its name (xTitleOf needs them).
  const key = expect.window ?? '';
  const early = win && expect.title !== undefined && namelessWindows.has(key) ? extentsOf(bus, win) : undefined;
  const [pid, name] = await Promise.all([
    bus.pidOf(t.dest),
    win && expect.title !== undefined
      ? bus.getProp(win, ACC, 'Name').then(
          (n) => String(n ?? ''),
          () => undefined,
        )
      : Promise.resolve(expect.title),
  ]);
  // A window with no accessible name was reported by its window manager's title (driver.ts withXFacts): the same here.
  const nameless = win !== undefined && name !== undefined && titleOf(name, undefined) === '' && !!expect.title;
  noteNameless(key, nameless);
  const title = nameless ? titleOf(name, await xTitleOf(keyboard, early ?? extentsOf(bus, win), pid)) : name;
  const why = processMismatch(expect, pid);
  if (why) return why;
  if (title === undefined && expect.title !== undefined) return 'the window is gone';
  if (title !== expect.title) return 'the window\'s title changed';
  return undefined;
}

/** Windows (by handle) whose accessible name was empty when last checked; bounded. */
const namelessWindows = new Set<string>();
function noteNameless(handle: string, nameless: boolean): void {
  if (!nameless) return void namelessWindows.delete(handle);
  if (namelessWindows.size >= 64) namelessWindows.delete(namelessWindows.values().next().value!);
  namelessWindows.add(handle);
}

/** The window manager's title of an AT-SPI window (matched by process and bounds), or undefined. */
async function xTitleOf(
  keyboard: LinuxInput,
  bounds: Promise<[number, number, number, number] | undefined>,
  pid: number,
): Promise<string | undefined> {
  const b = await bounds;
  return (await keyboard.windowFacts([{ pid, title: '', ...(b ? { bounds: b } : {}) }], { className: false }))[0]
    ?.title;
}

/** Runs one op; throws ComputerUseError with a code that says what to do. `listApps` serves `apps` (capability `act_windows`). */
/**
 * A number beyond a Value element's range is refused before anything is set: the toolkit would clamp it silently
 * and the act would read as done (protocol rule R-act-value). An element that reports no range (min = max) takes any.
 */
async function inRange(bus: A11yBus, t: Target, role: string, n: number): Promise<void> {
  let all: Record<string, unknown>;
  try { all = await bus.getAll(t, VALUE); } catch { return; }
  const min = Number(all['MinimumValue']);
  const max = Number(all['MaximumValue']);
  if (!Number.isFinite(min) || !Number.isFinite(max) || min >= max || (n >= min && n <= max)) return;
  throw new ComputerUseError(
    'invalid_params',
    `${n} is outside the ${role}'s range ${min} to ${max}; nothing was changed.`,
    { min, max },
  );
}

export async function act(
  bus: A11yBus,
  keyboard: LinuxInput,
  p: ActParams,
  signal?: AbortSignal,
  events?: EventWatcher,
  sending?: (target: Target) => void,
  listApps?: () => Promise<AppInfo[]>,
): Promise<ActResult> {
  // Grid hook (table.ts): a cell read by coordinate is found again by its coordinate.
  const t = await resolveCellHandle(bus, p.id).catch((e: unknown) => {
    if (isGone(e)) throw elementGone();
    throw e;
  }) ?? targetOf(p.id);
  const checks = p.actionable?.checks ?? [];
  const wantBounds = checks.includes('visible') || checks.includes('stable');
  const read = async (): Promise<ElementInfo> => {
    try {
      return await readElement(bus, t, { children: true, bounds: wantBounds });
    } catch (e) {
      if (isGone(e)) throw elementGone();
      throw e;
    }
  };
  const verify = (info: ElementInfo): void => {
    if (info.states.has('defunct'))
      throw new ComputerUseError('stale_ref', 'The element was destroyed.', { reason: 'defunct' });
    checkExpect(p.expect, toRawNode(info));
  };
  // The windows open before the input (capability act_windows), listed beside the checks: a window missing here and
  // listed after settling is the act's. Its failure is the act's only when the act goes on to dispatch.
  const appsBefore = p.apps && listApps ? listApps().then((a) => ({ a }), (e: unknown) => ({ e })) : undefined;
  // A click's action names are asked beside the element's read: the DoAction then follows at once.
  const actionsRead = EARLY_ACTION_OPS.has(p.op) ? actionList(bus, t) : undefined;
  let [info, reliable, mismatch] = await Promise.all([
    read().then((i) => {
      if (actionsRead) earlyActions.set(i, actionsRead);
      return i;
    }),
    checks.includes('visible') ? showingReliableFor(bus, t.dest) : Promise.resolve(true),
    p.expect ? identityMismatch(bus, t, p.expect, keyboard) : Promise.resolve(undefined),
  ]);
  if (mismatch)
    throw new ComputerUseError(
      'window_changed',
      `Not the window the act was decided for: ${mismatch}. Nothing was sent.`,
      { reason: 'identity', remedy: ['list_windows'] },
    );
  verify(info);
  // A cell in a column scrolled off to the side is scrolled to first, as a person scrolls right (sideways.ts).
  const sideways = checks.includes('visible') ? await revealColumn(bus, info, signal) : undefined;
  if (sideways) info = await read();
  let waitedMs = 0;
  if (p.actionable && checks.length > 0) {
    // Act only when the element can take it: wait (bounded, on the app's events) until it can take the input, else send
    // nothing.
    ({ info, waitedMs } = await waitActionable(
      info,
      checks,
      p.actionable.timeoutMs,
      linuxProbe(bus, events, t, reliable),
      { signal, verify },
    ));
  }
  // After a wait for actionability the list is taken again: a window opened meanwhile is not the act's.
  const listed = p.apps && waitedMs > 0 && listApps ? { a: await listApps() } : await appsBefore;
  if (listed && 'e' in listed) throw listed.e;
  const apps = listed?.a;
  // The state at dispatch: what the receipt compares against (the model's snapshot may be older).
  const before = toRawNode(info, reliable);
  delete before.bounds;
  sending?.(t);
  const result = await dispatch(bus, keyboard, info, p, signal, reliable);
  if (result.before?.children) before.children = result.before.children;
  const after = await readElement(bus, t, { children: false })
    .then((i) => toRawNode(i, reliable))
    .catch(() => undefined);
  return {
    ...result,
    ...(sideways ? { detail: `${sideways}; ${result.detail}` } : {}),
    before,
    ...(p.actionable ? { waitedMs } : {}),
    ...(after ? { after } : {}),
    ...(apps ? { apps } : {}),
  };
}

async function dispatch(
  bus: A11yBus,
  keyboard: LinuxInput,
  info: ElementInfo,
  p: ActParams,
  signal?: AbortSignal,
  showingReliable = true,
): Promise<ActResult> {
  const t = info.target;
  const has = (i: string): boolean => info.interfaces.has(i);
  switch (p.op) {
    case 'click':
    case 'double_click':
    case 'right_click': {
      // A click on a row of an item view on screen: the pointer's, which makes it the current item (current-item.ts).
      const made =
        p.op === 'click'
          ? await clickToCurrent(bus, info, p.op, (why) => pointerClick(bus, keyboard, t, info, 'click', signal, why))
          : undefined;
      if (made) return made;
      // A single click on a TreeView row selects it; its Action "activate" is a double click.
      if (p.op === 'click' && (await isSelectableCell(bus, info)) && (await selectInParent(bus, t))) {
        return {
          method: 'pattern',
          detail:
            `row selected through the table (Table.AddRowSelection), read back as selected` +
            `${await currentNote(bus, info)}`,
        };
      }
      // A row's cell activates its own row, selected first: the cell's action alone activates another
      // (row-activate.ts).
      // Qt's tables offer no Selection and their cells only Toggle: the row is double-clicked with the pointer there.
      if (p.op === 'double_click' && (await cellTableIfaces(bus, info)).includes(TABLE)) {
        return activateRow(bus, info, {
          selectRow: (cell) => selectInParent(bus, cell),
          pointerDoubleClick: () =>
            pointerClick(bus, keyboard, t, info, 'double_click', signal, 'the row has no activate action'),
        });
      }
      const done = await doNamedAction(bus, info, ACTION_NAMES[p.op] ?? [], p.op !== 'right_click', p.op);
      if (done) return p.op === 'click' ? { ...done, detail: `${done.detail}${await currentNote(bus, info)}` } : done;
      if (p.op !== 'right_click' && (await selectInParent(bus, t)))
        return { method: 'pattern', detail: 'Selection.SelectChild on parent' };
      // No action of its own around clickable elements (GNOME Calculator's GtkMenuButton): inner-click.ts.
      if (p.op === 'click') {
        const inner = await clickInside(bus, info, showingReliable, (child) =>
          doNamedAction(bus, child, ACTION_NAMES['click'] ?? [], true, 'click'),
        );
        if (inner) return inner;
      }
      // No action (a web table's cell): a pointer click at its center, after proving the window on top there is
      // the element's own process (an element scrolled out of view or covered is refused, nothing sent).
      const clicked = await pointerClick(bus, keyboard, t, info, p.op, signal);
      if (clicked) return clicked;
      throw unsupported(p.op, info, '', ['keys']);
    }
    case 'toggle': {
      const before = info.states.has('checked') || info.states.has('pressed');
      const done = await doNamedAction(bus, info, ACTION_NAMES['toggle'] ?? [], true, p.op);
      if (!done) throw unsupported('toggle', info);
      const now = await readElement(bus, t, { children: false });
      if ((now.states.has('checked') || now.states.has('pressed')) === before) {
        return { ...done, detail: `${done.detail}; state did not flip yet` };
      }
      return done;
    }
    case 'expand':
    case 'collapse': {
      const expanded = info.states.has('expanded');
      if ((p.op === 'expand') === expanded && info.states.has('expandable'))
        return { method: 'pattern', detail: `already ${expanded ? 'expanded' : 'collapsed'}` };
      // A cell's first action may be its check box's Toggle: an expand never stands in for it by position.
      const done = await doNamedAction(bus, info, ACTION_NAMES[p.op] ?? [], info.atspiRole !== 'table cell', p.op);
      if (!done) throw unsupported(p.op, info);
      return done;
    }
    // A row takes the focus as the current item of its view (Qt's cells refuse GrabFocus): current-item.ts.
    case 'focus':
      return (
        (info.states.has('focused')
          ? undefined
          : await clickToCurrent(bus, info, p.op, (why) =>
              pointerClick(bus, keyboard, t, info, 'click', signal, why),
            )) ?? focus(bus, info)
      );
    case 'set_value':
    case 'clear': {
      const text = p.op === 'clear' ? '' : (p.value ?? '');
      // A cell of an item view without Selection (Qt's): clicked, its editor opened, typed, Return (item-cell-edit.ts).
      if (info.atspiRole === 'table cell' && !has(ETEXT) && keyboard.available) {
        const owner = await processOf(bus, t);
        const edited = await editItemCell(bus, info, text, {
          keys: async (k) => {
            await keyboard.keysTo(owner, k, signal);
          },
          // Read again: a cell scrolled into view just now shows only in a fresh read.
          pointer: async (op) =>
            pointerClick(
              bus,
              keyboard,
              t,
              await readElement(bus, t, { children: false }),
              op,
              signal,
              `a ${op} on the cell, as a person edits it`,
            ),
        });
        if (edited) return edited;
      }
      // Grid hook (table.ts): a spreadsheet cell without EditableText takes its entry typed, as a user does.
      if (info.atspiRole === 'table cell' && !has(ETEXT)) {
        const done = await enterCell(bus, keyboard, info, text, await processOf(bus, t), signal);
        if (done) return done;
      }
      // Spin buttons hold a number: set it through Value, so the text and the number agree.
      if (
        p.op === 'set_value' &&
        has(VALUE) &&
        info.atspiRole === 'spin button' &&
        Number.isFinite(Number(text)) &&
        text.trim() !== ''
      ) {
        await inRange(bus, t, info.atspiRole, Number(text));
        await bus.setProp(t, VALUE, 'CurrentValue', 'd', Number(text));
        return { method: 'pattern', detail: 'Value.CurrentValue' };
      }
      // Read back; an edit the app accepted but ignored (Gecko) is typed instead.
      if (has(ETEXT) && info.states.has('editable'))
        return setTextVerified(bus, info, text, typing(bus, keyboard, info, signal));
      if (has(VALUE) && p.op === 'set_value') {
        const n = Number(text);
        if (!Number.isFinite(n) || text.trim() === '')
          throw new ComputerUseError(
            'invalid_params',
            `set_value on a ${info.atspiRole} needs a number, got "${text.slice(0, 20)}".`,
          );
        await inRange(bus, t, info.atspiRole, n);
        await bus.setProp(t, VALUE, 'CurrentValue', 'd', n);
        return { method: 'pattern', detail: 'Value.CurrentValue' };
      }
      if (p.op === 'set_value' && has(SEL)) return selectByName(bus, info, text, signal);
      // A combo without Selection of its own (Gecko <select>) is chosen in, never typed into.
      if (p.op === 'set_value' && info.atspiRole === 'combo box') {
        const done =
          (await selectInListCombo(bus, info, text, signal)) ?? (await selectInPopupCombo(bus, info, text, signal));
        if (done) return done;
      }
      if (p.op === 'set_value' && keyboard.available && info.states.has('focusable')) {
        // Widgets without EditableText (Chromium inputs): focus, select all, type through the keyboard.
        await focus(bus, info);
        const owner = await processOf(bus, t);
        await keyboard.keysTo(owner, SELECT_ALL, signal);
        if (text) await keyboard.keysTo(owner, text, signal);
        else await keyboard.keysTo(owner, BACKSPACE, signal);
        return { method: 'synthetic', detail: 'focus + keyboard (no EditableText)' };
      }
      throw unsupported(p.op, info);
    }
    case 'type': {
      const text = p.value ?? '';
      // Insert, read back; an insert the app accepted but ignored (Gecko) is typed instead.
      if (has(ETEXT) && has(TEXT) && info.states.has('editable'))
        return insertTextVerified(bus, info, text, typing(bus, keyboard, info, signal));
      // A spreadsheet cell: typed keys open an entry that takes the next keys until Return, so a later action's
      // text went into this cell. Entered as set_value enters it (cursor proven, typed, Return, read back).
      if (info.atspiRole === 'table cell' && !has(ETEXT)) {
        const done = await enterCell(bus, keyboard, info, text, await processOf(bus, t), signal);
        if (done) return done;
      }
      if (keyboard.available) {
        await focus(bus, info);
        await keyboard.keysTo(await processOf(bus, t), text, signal);
        return { method: 'synthetic', detail: 'focus + keyboard' };
      }
      throw unsupported('type', info);
    }
    case 'select': {
      // Grid hook (table.ts): "B1:B3" on a table selects that cell range by coordinate.
      const range = p.value !== undefined ? await selectRange(bus, info, p.value) : undefined;
      if (range) return range;
      const made =
        p.value === undefined
          ? await clickToCurrent(bus, info, p.op, (why) => pointerClick(bus, keyboard, t, info, 'click', signal, why))
          : undefined;
      if (made) return made;
      const cell = p.value === undefined ? await selectCell(bus, info) : undefined;
      if (cell) return { ...cell, detail: `${cell.detail}${await currentNote(bus, info)}` };
      if (p.value !== undefined && has(SEL)) return selectByName(bus, info, p.value, signal);
      if (p.value !== undefined && info.atspiRole === 'combo box') {
        // A list child (a <select>), else a list the combo opens elsewhere in its page (an ARIA combobox).
        const done =
          (await selectInListCombo(bus, info, p.value, signal)) ??
          (await selectInPopupCombo(bus, info, p.value, signal));
        if (done) return done;
      }
      if (await selectInParent(bus, t)) return { method: 'pattern', detail: 'Selection.SelectChild on parent' };
      // A table cell whose table takes selection but did not select it: "activate" would open it, not select it.
      if (await isSelectableCell(bus, info))
        throw new ComputerUseError(
          'action_failed',
          'The table did not select this row (its selected state did not change).',
        );
      const done = await doNamedAction(bus, info, ['select', 'activate', 'click', 'press'], true, p.op);
      if (done) return done;
      throw unsupported('select', info);
    }
    case 'scroll':
      return scroll(bus, keyboard, info, p.value ?? 'into_view', signal);
    case 'drag_to': {
      // AT-SPI has no semantic drag: press, move and release the pointer (XTest) between the two centers.
      if (!p.value) throw new ComputerUseError('invalid_params', 'drag_to needs the target element as value.');
      const target = await readElement(bus, targetOf(p.value), { children: false, bounds: true }).catch(() => null);
      if (!target?.bounds) throw new ComputerUseError('stale_ref', 'The drop target is gone or has no position.');
      const from = await readElement(bus, t, { children: false, bounds: true });
      if (!from.bounds || from.bounds[2] <= 0 || target.bounds[2] <= 0)
        throw unsupported('drag_to', info, 'The element has no position on screen.');
      // Both ends must show the element's own app on top: a window of another process there takes nothing.
      await keyboard.drag(center(from.bounds), center(target.bounds), await processOf(bus, t), signal);
      return { method: 'synthetic', detail: 'pointer drag (XTest): no semantic drag in AT-SPI' };
    }
    // A phone's system actions (docs/protocol.md ops): a desktop window has none.
    case 'back':
    case 'home':
    case 'recents':
    case 'notifications':
      throw unsupported(p.op, info, 'The desktop has no system action of that name.');
    case 'close':
      return closeWindow(bus, keyboard, info);
  }
}

/** A pointer click at a showing element's center (XTest) once the top window there is proven to be its process's; undefined when it has no place on screen. */
async function pointerClick(
  bus: A11yBus,
  keyboard: LinuxInput,
  t: Target,
  info: ElementInfo,
  op: 'click' | 'double_click' | 'right_click',
  signal?: AbortSignal,
  why = 'the element has no click action',
): Promise<ActResult | undefined> {
  if (!keyboard.available || !info.states.has('visible')) return undefined;
  // GTK 4.8 sets `showing` on windows only: there the bounds, and the window on top at the point, decide.
  const unsure = !info.states.has('showing');
  if (unsure && await showingReliableFor(bus, t.dest)) return undefined;
  const { bounds } = await readElement(bus, t, { children: false, bounds: true });
  if (!bounds || bounds[2] <= 0 || bounds[3] <= 0) return undefined;
  // A cell wider than its table's view (a command line) is clicked in the middle of its part in view.
  const [cx, cy] = center(info.atspiRole === 'table cell' ? await partInView(bus, t, bounds) : bounds);
  if (unsure && !await insideAncestors(bus, t, [cx, cy])) return undefined;
  const top = await topLevelOf(bus, t).catch(() => undefined);
  // A wide table's cell scrolled out sideways can still read showing: the point would land outside its window.
  if (outside([cx, cy], top?.bounds)) throw offWindow(info, [cx, cy], top?.bounds ?? [0, 0, 0, 0]);
  const owner = await processOf(bus, t);
  const [dx, dy] = await screenOffset(keyboard, top, owner.pid);
  const [x, y] = [cx + dx, cy + dy];
  const sent = await keyboard.pointer({ action: op, x, y }, owner, signal);
  return { method: 'synthetic', detail: `pointer ${sent} (XTest): ${why}; the window on top there is its app's` };
}

/** Whether a point lies outside a window's bounds (unknown or empty bounds: not outside). */
function outside([x, y]: [number, number], bounds: readonly number[] | undefined): boolean {
  const [wx = 0, wy = 0, w = 0, h = 0] = bounds ?? [];
  return w > 0 && h > 0 && (x < wx || y < wy || x >= wx + w || y >= wy + h);
}

/** The refusal of a pointer click whose point lies outside the element's window. */
function offWindow(info: ElementInfo, [x, y]: [number, number], [wx, wy, w, h]: readonly number[]): ComputerUseError {
  return new ComputerUseError(
    'not_visible',
    `The ${info.atspiRole || 'element'}'s centre (${Math.round(x)},${Math.round(y)}) lies outside its window ` +
      `(${w}×${h} at ${wx},${wy}): its view is scrolled so that it is out of sight; nothing was sent. Scroll the ` +
      'list or table that holds it (act on it with scroll "right", "left" or "to N") and try again.',
  );
}

/** An error's own text as ` (…)`, empty when it has none (a D-Bus error may carry only its name). */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message.trim() : '';
  const name = (e as { type?: unknown } | undefined)?.type;
  const said = text || (typeof name === 'string' ? name : '');
  return said ? ` (${said.slice(0, 120)})` : ' (with an error that gave no reason)';
}

function unsupported(op: string, info: ElementInfo, hint = '', remedy: Remedy[] = []): ComputerUseError {
  return new ComputerUseError(
    'unsupported',
    (
      `${op} is not supported by this ${info.atspiRole}${info.name ? ` "${info.name.slice(0, 40)}"` : ''}. ` + `${hint}`
    ).trim(),
    remedy.length ? { remedy } : {},
  );
}

/** Runs the first action whose name matches one of `names`; falls back to action 0 when allowed. `op` names it when its own name does not (action-name.ts). */
/** Ops whose dispatch most often asks the element's action names (doNamedAction). */
const EARLY_ACTION_OPS = new Set(['click', 'double_click', 'right_click', 'toggle', 'expand', 'collapse']);
/** Action names asked beside the read of the element they belong to (by that read's info). */
const earlyActions = new WeakMap<ElementInfo, Promise<[string, string, string][] | undefined>>();

/** An element's actions (name, description, key binding); undefined when it has none or the call failed. */
function actionList(bus: A11yBus, t: Target): Promise<[string, string, string][] | undefined> {
  return bus.call(t, ACTION, 'GetActions').then(([raw]) => raw as [string, string, string][], () => undefined);
}

export async function doNamedAction(
  bus: A11yBus,
  info: ElementInfo,
  names: string[],
  allowFirst: boolean,
  op: string,
): Promise<ActResult | null> {
  if (!info.interfaces.has(ACTION)) return null;
  const early = await earlyActions.get(info);
  const actions = early ?? ((await bus.call(info.target, ACTION, 'GetActions'))[0] as [string, string, string][]);
  const list = actions.map(([n]) => lookupName(n));
  let index = -1;
  for (const want of names) { index = list.indexOf(want); if (index >= 0) break; }
  // The first action stands in only when it means a press: a label's `clipboard.copy` is no click.
  if (index < 0 && allowFirst && list.length > 0 && meansActivation(actions[0])) index = 0;
  if (index < 0) return null;
  const [ok] = await bus.call(info.target, ACTION, 'DoAction', 'i', [index]);
  if (ok === false)
    throw new ComputerUseError('action_failed', `The toolkit refused action "${actionName(actions[index], op)}".`);
  return { method: 'pattern', detail: `Action.DoAction(${index}) "${actionName(actions[index], op)}"` };
}

/**
 * Selects this element through its parent's Selection interface. A table cell (GTK TreeView row) selects its
 * row: GTK3 takes the index given to SelectChild as a row number, so the cell's row is asked of the Table
 * first; the row's selected state is read back, since "activate" is not selection.
 */
async function selectInParent(bus: A11yBus, t0: Target): Promise<boolean> {
  try {
    // A cell inside a cell (Thunar's name column: icon and text in one cell) selects through the outer one.
    const t = await outerCell(bus, t0);
    const [[pdest, ppath], idx] = await Promise.all([
      bus.getProp(t, ACC, 'Parent') as Promise<[string, string]>,
      bus.call(t, ACC, 'GetIndexInParent').then((r) => Number(r[0])),
    ]);
    const parent = { dest: pdest, path: ppath };
    const [ifaces] = await bus.call(parent, ACC, 'GetInterfaces');
    if (!(ifaces as string[]).includes(SEL)) return false;
    if ((ifaces as string[]).includes(TABLE)) {
      const [row] = await bus.call(parent, TABLE, 'GetRowAtIndex', 'i', [idx]);
      if (Number(row) < 0) return false;
      // This row alone, as a click selects it: a table that takes several rows (Thunar) adds the row to what
      // was selected, and a Delete pressed next would take them all.
      await bus.call(parent, SEL, 'ClearSelection').catch(() => undefined);
      const [ok] = await bus
        .call(parent, TABLE, 'AddRowSelection', 'i', [Number(row)])
        .catch(() => bus.call(parent, SEL, 'SelectChild', 'i', [Number(row)]));
      return ok !== false && await becomesSelected(bus, t0 === t ? [t] : [t, t0]);
    }
    const [ok] = await bus.call(parent, SEL, 'SelectChild', 'i', [idx]);
    return ok !== false;
  } catch { return false; }
}

/** The outermost table cell around a cell (itself when its parent is no cell). */
async function outerCell(bus: A11yBus, t: Target): Promise<Target> {
  let cur = t;
  for (let i = 0; i < 3; i++) {
    const [dest, path] = await bus.getProp(cur, ACC, 'Parent') as [string, string];
    const parent = { dest, path };
    const [role] = await bus.call(parent, ACC, 'GetRole');
    if (ATSPI_ROLES[Number(role)] !== 'table cell') return cur;
    cur = parent;
  }
  return cur;
}

/** Whether the element reads as selected within a short wait. */
async function becomesSelected(bus: A11yBus, ts: Target[]): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    const now = await Promise.all(ts.map((t) => readElement(bus, t, { children: false }).catch(() => undefined)));
    if (now.some((n) => n?.states.has('selected'))) return true;
    await new Promise((r) => setTimeout(r, 15));
  }
  return false;
}

/** The interfaces of the table around a table cell (the outermost cell's parent); empty for anything else. */
async function cellTableIfaces(bus: A11yBus, info: ElementInfo): Promise<string[]> {
  if (info.atspiRole !== 'table cell') return [];
  try {
    const [pdest, ppath] = await bus.getProp(await outerCell(bus, info.target), ACC, 'Parent') as [string, string];
    const [ifaces] = await bus.call({ dest: pdest, path: ppath }, ACC, 'GetInterfaces');
    return ifaces as string[];
  } catch { return []; }
}

/** True for a table cell whose table offers selection: a click on it selects its row, as a pointer click would. */
async function isSelectableCell(bus: A11yBus, info: ElementInfo): Promise<boolean> {
  const ifaces = await cellTableIfaces(bus, info);
  return ifaces.includes(SEL) && ifaces.includes(TABLE);
}

/** Selects the child whose name `name` names (drivers/common/items.ts: exact, a unique prefix or word). */
async function selectByName(bus: A11yBus, info: ElementInfo, name: string, signal?: AbortSignal): Promise<ActResult> {
  const kids = await Promise.all(
    info.children.map(async (c, i) => ({ i, name: String(await bus.getProp(c, ACC, 'Name').catch(() => '')) })),
  );
  const names = kids.map((k) => k.name);
  const pick = pickItem(names, name);
  // Swing and GTK 3 combos keep their items deeper (popup menu → … → list): select by the item's index (combo.ts).
  if ('none' in pick && info.atspiRole === 'combo box') return selectComboItem(bus, info, name, names, signal);
  const hit = kids[itemIndex(names, name)]!;
  const [ok] = await bus.call(info.target, SEL, 'SelectChild', 'i', [hit.i]);
  if (ok === false) throw new ComputerUseError('action_failed', `Selecting ${quoteText(hit.name)} was refused.`);
  return { method: 'pattern', detail: `Selection.SelectChild(${hit.i})` };
}

/** Selects a combo item found below the combo's popup (Java Swing), verified by the combo's name after. */
async function selectComboItem(bus: A11yBus, info: ElementInfo, name: string, direct: string[],
  signal?: AbortSignal): Promise<ActResult> {
  const items = await comboItemNames(bus, info.target).catch(() => undefined) ?? [];
  if (!items.length) {
    // Its children are what it shows, not its items (Chromium's ARIA combobox: a text leaf): the list it opens.
    const opened = await selectInPopupCombo(bus, info, name, signal);
    if (opened) return opened;
    // No list anywhere: the refusal names the combo's own children.
    throw noItemError(direct, name);
  }
  const i = itemIndex(items, name);
  const [ok] = await bus.call(info.target, SEL, 'SelectChild', 'i', [i]);
  if (ok === false) throw new ComputerUseError('action_failed', `Selecting ${quoteText(items[i] ?? '')} was refused.`);
  return { method: 'pattern', detail: `Selection.SelectChild(${i}) by item index (items under the popup)` };
}

/** How long a GrabFocus is given to show in the element's focused state. */
const FOCUS_WAIT_MS = 1500;

/** Grabs focus and verifies it through the focused state (GrabFocus can return true without focusing). */
async function focus(bus: A11yBus, info: ElementInfo): Promise<ActResult> {
  if (info.states.has('focused')) return { method: 'pattern', detail: 'already focused' };
  if (!info.interfaces.has(COMP)) throw unsupported('focus', info);
  await bus.call(info.target, COMP, 'GrabFocus').catch((e: unknown) => {
    if (isGone(e) || e instanceof ComputerUseError) throw e;
    // GTK 4 answers GrabFocus on a list row with an error that has no text: say what failed and the way on.
    throw unsupported(
      'focus',
      info,
      `Its toolkit refused Component.GrabFocus${errorText(e)}. Nothing else was sent; click it ` +
        '(a row takes the focus with its selection), or move the focus with keys (Tab, the arrow keys).',
    );
  });
  // A window just made active takes a moment before its element can take focus (Firefox: 0.3–1 s after its
  // window was raised, measured in the eval); asked again once halfway, bounded.
  const start = performance.now();
  let asked = false;
  while (performance.now() - start < FOCUS_WAIT_MS) {
    const now = await readElement(bus, info.target, { children: false });
    if (now.states.has('focused')) return { method: 'pattern', detail: 'Component.GrabFocus' };
    if (!asked && performance.now() - start > FOCUS_WAIT_MS / 2) {
      asked = true;
      await bus.call(info.target, COMP, 'GrabFocus');
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new ComputerUseError(
    'action_failed',
    'GrabFocus was accepted but the element did not become focused (its window may be inactive).',
  );
}

async function scroll(
  bus: A11yBus,
  keyboard: LinuxInput,
  info: ElementInfo,
  direction: string,
  signal?: AbortSignal,
): Promise<ActResult> {
  if (direction === 'into_view') {
    if (!info.interfaces.has(COMP)) throw unsupported('scroll into_view', info);
    return scrollIntoView(bus, info, signal);
  }
  const to = parseScrollTo(direction);
  if (to) {
    const done = await scrollToRow(bus, info, to.row + 1, to.col, signal);
    // "to H200" on a table that is no sheet: row 200, then its column H across (sideways.ts).
    const across = to.col === undefined ? undefined : await revealCellAt(bus, info, to.row, to.col, signal);
    return across ? { ...done, detail: `${done.detail}; ${across}` } : done;
  }
  const by = parseScrollBy(direction);
  if (!by) {
    throw new ComputerUseError(
      'invalid_params',
      'scroll takes value "up", "down", "left", "right" (a page), an amount ("down 10 pages", "up 5 rows", ' +
        (`at most ${MAX_SCROLL_COUNT}), "into_view", "to N" (row N of a list or table) or "to B7" (a cell ` +
          `of a sheet or a wide table).`),
    );
  }
  const vertical = by.direction === 'up' || by.direction === 'down';
  // A virtualized list moves by its rows' spacing, and says which rows show after (virtualset.ts).
  const virtual = vertical ? await scrollSetBy(bus, info, by.direction === 'down', by.count, by.unit) : undefined;
  if (virtual) return virtual;
  // Move the matching scroll bar through its Value interface: the element's own, else the one of the scroll
  // pane holding it (a GTK TreeView's bars are its siblings). No focus taken, no selection moved.
  const bars = (await scrollBarsOf(bus, info)).filter(
    (b) => !(b.states.has('vertical') !== vertical && (b.states.has('vertical') || b.states.has('horizontal'))),
  );
  // Reported at dispatch: the session confirms the scroll by these bars' values after settling.
  const before = { ...toRawNode(info), children: bars.map((b) => toRawNode(b)) };
  const bar = bars.find((b) => b.value && b.interfaces.has(VALUE));
  const forward = by.direction === 'down' || by.direction === 'right';
  if (bar?.value) {
    // A page is a tenth of the range, whole when the range is large (AT-SPI's Value has no page size); a row is
    // the bar's step.
    const tenth = (bar.value.max - bar.value.min) / 10;
    const page = Math.max(tenth > 10 ? Math.round(tenth) : tenth, bar.value.step || 1);
    const unit = by.unit === 'page' ? page : bar.value.step || 1;
    const next = Math.min(
      bar.value.max,
      Math.max(bar.value.min, bar.value.current + (forward ? 1 : -1) * unit * by.count),
    );
    await bus.setProp(bar.target, VALUE, 'CurrentValue', 'd', next);
    return {
      method: 'pattern',
      detail: `scroll bar Value ${barNumber(bar.value.current)} → ${barNumber(next)}`,
      before,
    };
  }
  // No bar (a web page): the next page's first element is scrolled into the view, no key sent (scrollby.ts).
  const moved = await scrollByElements(bus, info.target, direction as 'up' | 'down' | 'left' | 'right');
  if (moved) return { method: 'pattern', detail: moved, before };
  if (keyboard.available) {
    await focus(bus, info).catch(() => undefined);
    const key =
      by.unit === 'page' && vertical
        ? forward
          ? 'PageDown'
          : 'PageUp'
        : { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' }[by.direction];
    await keyboard.keysTo(
      await processOf(bus, info.target),
      Array.from({ length: by.count }, () => ({ mods: [], key })),
      signal,
    );
    return { method: 'synthetic', detail: `${key} ×${by.count}`, before };
  }
  throw unsupported(`scroll ${direction}`, info);
}

/**
 * What the typing fallback needs: the element focused in its own window (made active first when another
 * window has the keyboard), and the element's process, which the keys are proven to reach.
 */
function typing(bus: A11yBus, keyboard: LinuxInput, info: ElementInfo, signal?: AbortSignal): TypingDeps {
  const owner = (): Promise<Expect> => processOf(bus, info.target);
  return {
    keyboard, owner, signal,
    focus: async () => {
      const expect = await owner();
      if (!(await keyboard.focusedIs(expect))) {
        const top = await topLevelOf(bus, info.target).catch(() => undefined);
        if (top)
          await keyboard.activate({
            pid: expect.pid,
            title: top.name,
            focused: top.states.has('active'),
            ...(top.bounds ? { bounds: top.bounds } : {}),
          });
      }
      const now = await readElement(bus, info.target, { children: false });
      await focus(bus, now);
    },
  };
}

/** The process of an element's app (pid from the bus, start time from /proc): where its input must go. */
async function processOf(bus: A11yBus, t: Target): Promise<Expect> {
  const pid = await bus.pidOf(t.dest);
  const startToken = startTokenOf(pid);
  return startToken !== undefined ? { pid, startToken } : { pid };
}
