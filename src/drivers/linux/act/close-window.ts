/**
 * The close op on Linux: a window's root node closed as its title bar's close button does, by a close request to
 * the X11 window manager for the X window of that AT-SPI window (same process, then bounds and title). Under
 * Wayland no client may ask the compositor to close another's window: the answer says so and names the way out.
 */
import { ComputerUseError } from '../../../protocol/errors.js';
import type { ActResult } from '../../../protocol/methods.js';
import type { A11yBus } from '../bus/bus.js';
import type { LinuxInput } from '../input/input.js';
import { readElement, type ElementInfo } from '../tree/reader.js';

const ACC = 'org.a11y.atspi.Accessible';
/** The parent of a top-level window on the bus: its application's root. */
const APP_ROOT = '/org/a11y/atspi/accessible/root';

/** What to do instead where no close request can be sent. */
const WAY_OUT =
  "Nothing was sent. Use the app's own Close or Quit command (its File menu), or keys its window binds " +
  '(ctrl+w, ctrl+q).';

/** Whether the element is a top-level window (its parent is its application). */
export async function isTopLevel(bus: A11yBus, info: ElementInfo): Promise<boolean> {
  const parent = await bus.getProp(info.target, ACC, 'Parent').catch(() => undefined) as [string, string] | undefined;
  return parent !== undefined && parent[1] === APP_ROOT;
}

/** Sends the close request for a top-level window's root node; fails with `unsupported` where none can be sent. */
export async function closeWindow(bus: A11yBus, keyboard: LinuxInput, info: ElementInfo): Promise<ActResult> {
  if (!(await isTopLevel(bus, info))) {
    throw new ComputerUseError(
      'unsupported',
      "close takes a window's root node (the first ref of its snapshot); nothing was sent.",
      { op: 'close' },
    );
  }
  if (!keyboard.available) {
    throw new ComputerUseError(
      'unsupported',
      'Closing a window asks the X11 window manager, and there is none to ask here ' +
        `(under Wayland no client may ask the compositor to close another app's window). ${WAY_OUT}`,
      { op: 'close' },
    );
  }
  const [pid, read] = await Promise.all([
    bus.pidOf(info.target.dest),
    readElement(bus, info.target, { children: false, bounds: true }),
  ]);
  const how = await keyboard.closeWindow({
    pid,
    title: read.name,
    ...(read.bounds ? { bounds: read.bounds } : {}),
    focused: false,
  });
  if (!how) {
    throw new ComputerUseError(
      'unsupported',
      'No X window of this window is on screen that takes a close request (no ' +
        `_NET_CLOSE_WINDOW from the window manager, no WM_DELETE_WINDOW of its own). ${WAY_OUT}`,
      { op: 'close' },
    );
  }
  return { method: 'pattern', detail: `close request sent (${how}), as the title bar's close button does` };
}
