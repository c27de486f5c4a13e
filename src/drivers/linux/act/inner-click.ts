/**
 * A click on an element with no action of its own that wraps clickable ones. GNOME Calculator 43 (GTK 4.8) makes
 * its mode button a GtkMenuButton whose accessible has no action, around one child button with "click"; a model's
 * click on the outer element answered `unsupported`. One clickable descendant that fills the element is what a
 * user's click on it hits, so it takes the click; several are never guessed between: the error lists them.
 */
import type { Target, A11yBus } from '../bus/bus.js';
import { fills } from '../../common/rects.js';
import type { ActResult, Inner } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import { mapActions, readElement, toRawNode, type ElementInfo } from '../tree/reader.js';

const ACTION = 'org.a11y.atspi.Action';
const EDITABLE_TEXT = 'org.a11y.atspi.EditableText';
/** Levels below the element searched (a GtkMenuButton's button is its child; a toolkit may wrap it once more). */
const MAX_DEPTH = 3;
/** Most descendants read (one read each): a control wraps a handful, a container that wraps more is no control. */
const MAX_READ = 24;
/** Most clickable descendants an error names. */
const MAX_NAMED = 8;


/** The element as the host reads it: unified role and cleaned name. */
function describe(info: ElementInfo, showingReliable: boolean): Inner {
  const node = toRawNode(info, showingReliable);
  return {
    id: node.id,
    role: node.role,
    ...(node.name ? { name: node.name } : node.description ? { description: node.description } : {}),
  };
}

/** True when the element takes a click of its own: an action, a role that is no container or text, enabled and showing. */
async function clickable(bus: A11yBus, info: ElementInfo, showingReliable: boolean): Promise<boolean> {
  if (!info.interfaces.has(ACTION) || info.interfaces.has(EDITABLE_TEXT) || !mapActions(info).includes('click'))
    return false;
  const states = toRawNode(info, showingReliable).states;
  if (states.includes('disabled') || states.includes('invisible') || states.includes('offscreen')) return false;
  if (!info.bounds || info.bounds[2] <= 0 || info.bounds[3] <= 0) return false;
  // GTK 4 gives every widget an Action interface, most with no action in it.
  const n = Number(await bus.getProp(info.target, ACTION, 'NActions').catch(() => 0));
  return n > 0;
}

/** The clickable descendants of `info`, breadth first; a clickable one's own inside is not searched. */
async function clickablesInside(bus: A11yBus, info: ElementInfo, showingReliable: boolean): Promise<ElementInfo[]> {
  const found: ElementInfo[] = [];
  let level: Target[] = info.children;
  let read = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0 && read < MAX_READ; depth++) {
    const batch = level.slice(0, MAX_READ - read);
    read += batch.length;
    const infos = (
      await Promise.all(batch.map((t) => readElement(bus, t, { children: true, bounds: true }).catch(() => undefined)))
    ).filter((i): i is ElementInfo => i !== undefined);
    const marks = await Promise.all(infos.map((i) => clickable(bus, i, showingReliable)));
    found.push(...infos.filter((_, k) => marks[k]));
    level = infos.filter((_, k) => !marks[k]).flatMap((i) => i.children);
  }
  return found;
}

/** A clickable descendant as an unsupported click names it: role and the start of its name, quoted. */
const innerLabel = (i: Inner): string =>
  i.role + ((i.name ?? i.description) ? ` "${(i.name ?? i.description ?? '').slice(0, 40)}"` : '');

/**
 * The click for an element that has no action of its own: its one clickable descendant when that fills it (run
 * by `press`, the result naming it in `via`); `unsupported` naming the clickable descendants when there are
 * several (details `inside`: their handles, roles and names); undefined when it holds none, or one that does
 * not fill it (a pointer click at the element's center may still be right: a table cell around a small link).
 */
export async function clickInside(bus: A11yBus, info: ElementInfo, showingReliable: boolean,
  press: (child: ElementInfo) => Promise<ActResult | null>): Promise<ActResult | undefined> {
  const inside = await clickablesInside(bus, info, showingReliable);
  if (inside.length > 1) {
    const own = toRawNode(info, showingReliable);
    const listed = inside.slice(0, MAX_NAMED).map((i) => describe(i, showingReliable));
    throw new ComputerUseError(
      'unsupported',
      `click is not supported by this ${own.role}${own.name ? ` "${own.name.slice(0, 40)}"` : ''}: it has no ` +
        `action ` +
        (`of its own, and ${inside.length} clickable elements inside it could take the click (` +
          `${listed.map(innerLabel).join(', ')}). `) +
        'Nothing was sent; click the one meant.',
      { op: 'click', inside: listed },
    );
  }
  const only = inside[0];
  const bounds =
    info.bounds ??
    (await readElement(bus, info.target, { children: false, bounds: true }).catch(() => undefined))?.bounds;
  if (!only?.bounds || !bounds || !fills(bounds, only.bounds)) return undefined;
  const done = await press(only);
  if (!done) return undefined;
  return { ...done, via: describe(only, showingReliable) };
}

