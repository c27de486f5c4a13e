import type { Role } from './role.js';

/** States a node can carry; the renderer prints them after the name (seed §4 CUNode). */
export const STATES = [
  'focused', 'disabled', 'checked', 'mixed', 'selected', 'expanded', 'collapsed', 'editable', 'password',
  'offscreen', 'invisible', 'multiline', 'readonly', 'modal', 'pressed', 'required', 'invalid', 'busy',
  'focusable', 'active',
] as const;
/** One node state. */
export type State = (typeof STATES)[number];

/** Operations an agent can ask for on an element (seed §3, unified across platforms). */
export const OPS = [
  'click', 'double_click', 'right_click', 'focus', 'set_value', 'type', 'clear', 'toggle', 'select',
  'expand', 'collapse', 'scroll', 'drag_to',
] as const;
/** One element operation. */
export type Op = (typeof OPS)[number];

/**
 * A node as a driver reports it: platform-neutral, not yet distilled, without refs.
 * `id` is the driver's native handle (AT-SPI: bus name + object path); it is only valid while the
 * element lives, which is why the engine pairs it with a fingerprint.
 */
export interface RawNode {
  /** Native handle, opaque to the engine. */
  id: string;
  /** Unified role. */
  role: Role;
  /** The platform's own role name, for debugging and fixtures. */
  nativeRole?: string;
  name?: string;
  /** Current value or text content, possibly cut by the driver; see `valueLength`. */
  value?: string;
  /** Full length of the value when the driver cut it. */
  valueLength?: number;
  description?: string;
  /** Toolkit-provided stable identifier (AT-SPI accessible id, UIA AutomationId, AX identifier). */
  stableId?: string;
  states: State[];
  /** Operations this element really supports. */
  actions: Op[];
  /** Screen rectangle [x, y, w, h]; only for fallbacks and distilling, never rendered. */
  bounds?: [number, number, number, number];
  /** Numeric range for sliders and spin buttons. */
  range?: { min: number; max: number; step?: number };
  children?: RawNode[];
  /** Number of children the platform reports when `children` was not read (depth limit). */
  childCount?: number;
  /**
   * The toolkit's access key of a command, when asked for (`tree.snapshot` keyBindings): AT-SPI's
   * Action.GetKeyBinding(0), e.g. "<Alt>d" for a GTK3 button "_Delete all" whose name reads "Delete all".
   */
  keyBinding?: string;
  /**
   * Which slice of the full child list `children` holds when the driver read only part of it (huge or
   * virtual containers): 0-based `start` inclusive, `end` exclusive; the full count is `childCount`.
   */
  childRange?: { start: number; end: number };
  /** Table or grid facts (AT-SPI Table, UIA Grid): its size, on the table node itself. */
  table?: { rows: number; cols: number };
  /** A cell's place in its table: 0-based row and column, and the app's own address where it has one ("B7"). */
  cell?: { row: number; col: number; address?: string };
  /** Text interface facts: caret offset and selected range (offsets into the full text, characters). */
  caret?: number;
  selection?: [number, number];
  /** Offset in the full text where `value` starts, when the driver read a range that does not start at 0. */
  valueStart?: number;
}

/** Window (top-level surface) as drivers list it. */
export interface WindowInfo {
  /** Native handle of the window's root node. */
  id: string;
  title: string;
  app: string;
  pid: number;
  /** Process start time (platform clock ticks or ms), to tell a reused pid apart. */
  startTime?: number;
  /** Realpath of the process's executable, when the driver can prove it. */
  executable?: string;
  /** Owner uid of the process. */
  uid?: number;
  /** X11 WM_CLASS of the window, where there is one. */
  wmClass?: string;
  role: Role;
  focused: boolean;
  /** A browser tab's address (the DevTools channel): page text, used only to deny (a vault's URL, the panel's marker). */
  url?: string;
  bounds?: [number, number, number, number];
}

/** A running application and its windows. */
export interface AppInfo {
  name: string;
  pid: number;
  /** Native handle of the application root. */
  id: string;
  /** Process start time, as for WindowInfo. */
  startTime?: number;
  /** Executable path when the platform can prove it. */
  executable?: string;
  /** Owner uid of the process. */
  uid?: number;
  /** X11 WM_CLASS of its windows, where there is one. */
  wmClass?: string;
  /** Registered on the accessibility bus but not answering (stuck or busy): listed, with no windows. */
  busy?: boolean;
  /**
   * A process with on-screen windows that is not on the accessibility bus: why, and what makes it readable.
   * Listed so a model does not start a second copy; its windows can only be used through the fallback ladder.
   */
  inaccessible?: { reason: string; fix?: string };
  windows: WindowInfo[];
}

/** Counts nodes in a raw tree. */
export function countNodes(node: RawNode): number {
  let n = 1;
  for (const c of node.children ?? []) n += countNodes(c);
  return n;
}

/** Depth-first visit of a raw tree with the ancestor chain. */
export function walk(node: RawNode, visit: (node: RawNode, ancestors: readonly RawNode[]) => void | 'skip',
  ancestors: RawNode[] = []): void {
  if (visit(node, ancestors) === 'skip') return;
  ancestors.push(node);
  for (const c of node.children ?? []) walk(c, visit, ancestors);
  ancestors.pop();
}
