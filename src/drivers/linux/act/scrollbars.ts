/**
 * The scroll bars beside a view, and moving one. A bar moves through its Value where the toolkit takes a value
 * (GTK). LibreOffice's bars do not: Calc 7.4's sheet bar accepts a CurrentValue set and reads its old value back,
 * the view unmoved (measured); it moves by its actions "incrementBlock"/"decrementBlock" (a page: 46 rows of a
 * 1280×1024 window) and "incrementLine"/"decrementLine" (a row), each about 5 ms when sent in a batch.
 */
import type { A11yBus, Target } from '../bus/bus.js';
import { readElement, type ElementInfo } from '../tree/reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const ACTION = 'org.a11y.atspi.Action';
/** Most children of an ancestor read while looking for its scroll bars (scroll panes have a handful; Calc's 10). */
const MAX_PANE_CHILDREN = 20;
/** Bar actions sent at once: one round trip per batch, and a cancelled act stops between batches. */
const STEP_BATCH = 50;

/**
 * The scroll bars that move an element: its own children, else the children of its first `levels` ancestors (the
 * scroll pane around a table or a list), the nearest level that has any.
 */
export async function scrollBarsOf(bus: A11yBus, info: ElementInfo, levels = 2): Promise<ElementInfo[]> {
  const barsAmong = async (kids: Target[]): Promise<ElementInfo[]> =>
    (
      await Promise.all(
        kids.slice(0, MAX_PANE_CHILDREN).map((c) => readElement(bus, c, { children: false }).catch(() => null)),
      )
    ).filter((c): c is ElementInfo => c?.atspiRole === 'scroll bar');
  const own = await barsAmong(info.children);
  if (own.length > 0) return own;
  let t = info.target;
  for (let up = 0; up < levels; up++) {
    const parent = (await bus.getProp(t, ACC, 'Parent').then(
      ([dest, path]: [string, string]) => ({ dest, path }),
      () => null,
    )) as Target | null;
    if (!parent || parent.path === '/org/a11y/atspi/null') return [];
    const pane = await readElement(bus, parent, { children: false }).catch(() => null);
    if (!pane || pane.childCount > MAX_PANE_CHILDREN) return [];
    const [kids] = await bus.call(parent, ACC, 'GetChildren');
    const bars = await barsAmong(((kids ?? []) as [string, string][]).map(([dest, path]) => ({ dest, path })));
    if (bars.length > 0) return bars;
    t = parent;
  }
  return [];
}

/**
 * The vertical one of the scroll bars of a list or table within three ancestors (a GTK ListBox's sits beside its
 * viewport; a bar that says neither vertical nor horizontal is taken when it shows), with its Value.
 */
export async function verticalBarOf(
  bus: A11yBus,
  info: ElementInfo,
): Promise<(ElementInfo & { value: NonNullable<ElementInfo['value']> }) | undefined> {
  return (await scrollBarsOf(bus, info, 3)).find((c): c is ElementInfo & { value: NonNullable<ElementInfo['value']> } =>
    c.value !== undefined && !c.states.has('horizontal') && (c.states.has('vertical') || c.states.has('showing')));
}

/** Indexes of a bar's stepping actions (LibreOffice's names), undefined when it has none. */
export interface BarSteps { pageUp: number; pageDown: number; lineUp: number; lineDown: number }

/** The bar's page and line actions, when it has all four. */
export async function barSteps(bus: A11yBus, bar: Target): Promise<BarSteps | undefined> {
  const [raw] = await bus.call(bar, ACTION, 'GetActions').catch(() => [[]]);
  const listed = ((raw ?? []) as [string, string, string][]).map(([n]) => n);
  // LibreOffice lists its bar's actions with empty names; GetName answers each one's name.
  const names = listed.some((n) => n !== '')
    ? listed
    : await Promise.all(
        listed.map((_, i) =>
          bus.call(bar, ACTION, 'GetName', 'i', [i]).then(
            ([n]) => String(n),
            () => '',
          ),
        ),
      );
  const at = (n: string): number => names.indexOf(n);
  const steps = {
    pageUp: at('decrementBlock'),
    pageDown: at('incrementBlock'),
    lineUp: at('decrementLine'),
    lineDown: at('incrementLine'),
  };
  return Object.values(steps).every((i) => i >= 0) ? steps : undefined;
}

/** Does the bar's action `index` `times` times, in batches sent at once; stops between batches when aborted. */
export async function stepBar(
  bus: A11yBus,
  bar: Target,
  index: number,
  times: number,
  signal?: AbortSignal,
): Promise<void> {
  for (let done = 0; done < times && !signal?.aborted; done += STEP_BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(STEP_BATCH, times - done) }, () => bus.call(bar, ACTION, 'DoAction', 'i', [index])),
    );
  }
}

/** A scroll bar's value as said in a detail: a step of a tenth of 509 read 50.900000000000006. */
export function barNumber(v: number): string {
  return String(Math.round(v * 100) / 100);
}
