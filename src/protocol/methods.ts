/**
 * The driver protocol (seed §4): every method declared once, with its literal name and typed params and
 * result, used by both the host and the drivers.
 */
import type { AppInfo, Op, RawNode, WindowInfo } from '../engine/node.js';

/** Declares one request type. */
interface Method<P, R> { params: P; result: R }

/** What the driver can do; the host adapts (e.g. polls for settle when `events` is missing). */
export type Capability = 'events' | 'background_input' | 'keys' | 'pointer' | 'ocr' | 'capture' | 'cache';

export interface HelloResult {
  platform: 'linux' | 'windows' | 'macos' | 'android' | 'cdp' | 'fake';
  version: string;
  capabilities: Capability[];
  /** Named prerequisites and whether they hold, e.g. {a11y_bus: true, synthetic_input: false}. */
  permissions: Record<string, boolean>;
  /** Display server when it matters: 'x11' | 'wayland'. */
  session?: string;
  /**
   * The channel when the driver does not read the platform's own accessibility tree (e.g. 'cdp' for the
   * Chromium DevTools channel, 'ocr (degraded)'). Every tool result produced through it starts with
   * `channel: <channel>`; absent for the native accessibility tree.
   */
  channel?: string;
  /** Extra facts for diagnostics (doctor): toolkit hints, environment. */
  facts?: Record<string, string>;
}

export interface LaunchParams {
  /** Executable or desktop command, e.g. "gedit". */
  command: string;
  args?: string[];
  /** Extra environment for the app. */
  env?: Record<string, string>;
  /** Wait until a window of the app appears, up to this many ms (0 = do not wait). */
  waitForWindowMs?: number;
}
export interface LaunchResult { pid: number; window?: WindowInfo }

export interface SnapshotParams {
  /** Window handle from windows.list. */
  window: string;
  /** Read only the subtree under this node handle. */
  scope?: string;
  /** Maximum depth below the start node (default unlimited). */
  depth?: number;
  /** Stop reading after this many nodes (protects against runaway trees). */
  maxNodes?: number;
  /** Also read each node's screen rectangle (one more call per node): for Set-of-Mark labels. */
  bounds?: boolean;
}
export interface SnapshotResult {
  window: WindowInfo;
  root: RawNode;
  /** Nodes read and the milliseconds the read took, for benchmarks and budget decisions. */
  stats: { nodes: number; ms: number; truncated: boolean };
}

export interface FindParams {
  window: string;
  /** Case-insensitive substring of name, value or description. */
  text?: string;
  role?: string;
  limit?: number;
}
export interface FindMatch {
  node: RawNode;
  /** Handles from the window root down to the node's parent. */
  path: string[];
}
export interface FindResult { matches: FindMatch[]; scanned: number }

/** What the host expects at the handle; the driver refuses to act if it no longer holds. */
export interface NodeExpectation { role?: string; name?: string }

export interface ActParams {
  /** Node handle. */
  id: string;
  op: Op;
  /** Text for set_value/type, direction for scroll ("up"|"down"|"left"|"right"|"into_view"), target handle for drag_to, item for select. */
  value?: string;
  expect?: NodeExpectation;
}
export interface ActResult {
  /** How the act was carried out: an accessibility pattern, a toolkit message, or synthetic input. */
  method: 'pattern' | 'message' | 'synthetic';
  /** Human-readable note, e.g. "Action.DoAction(0) 'click'". */
  detail?: string;
  /** The node as re-read right after the act, when cheap. */
  after?: RawNode;
}

export interface SettleParams {
  /** Quiet window: settled when no event arrived for this long. */
  quietMs: number;
  /** Give up after this long. */
  timeoutMs: number;
  /** Only count events of the app owning this window (or element) handle; all apps when missing. */
  window?: string;
}
export interface SettleResult { settled: boolean; events: number; ms: number }

export interface KeysParams {
  /** Chord list like "ctrl+s", "Return", or text when `text` is true. */
  keys: string;
  /** Treat `keys` as literal text to type. */
  text?: boolean;
  /** Window to focus first when input needs focus. */
  window?: string;
}
export interface KeysResult { method: 'synthetic' | 'message'; focusedFirst: boolean }

/** A screen rectangle [x, y, width, height] in screen pixels. */
export type Rect = [number, number, number, number];

/**
 * What a capture was taken of, recorded with it so a pixel of the image maps back to the screen:
 * screen = origin + image / scale. A visual act maps through this, never through numbers a model supplies.
 */
export interface CaptureGeometry {
  /** The captured area: the window's screen rectangle when it was captured, clipped to the screen. */
  screen: Rect;
  /** The window's own bounds at capture time: a later act re-checks them (window_changed). */
  window: Rect;
  /** Size of the image returned. */
  width: number;
  height: number;
  /** Image pixels per screen pixel (≤ 1: images are only scaled down). */
  scale: number;
}

/** A Set-of-Mark label to draw: the element's ref at its screen rectangle. */
export interface MarkSpec { label: string; bounds: Rect }

export interface CaptureParams {
  window: string;
  /** Scale the image down so that its long edge is at most this many pixels (default 1280). */
  maxEdge?: number;
  /** Labels to draw over the image. */
  marks?: MarkSpec[];
}
export interface CaptureResult {
  /** PNG, base64. */
  png: string;
  geometry: CaptureGeometry;
  /** Where each drawn mark ended up, in image pixels: the element's box and the label's box. */
  marks: { label: string; box: Rect; labelBox: Rect }[];
  /** SHA-256 of the PNG bytes. */
  sha256: string;
  ms: number;
}

/** One line of recognized text; `bounds` in screen pixels. */
export interface OcrLine { text: string; bounds: Rect; confidence: number }
export interface OcrParams { window: string }
export interface OcrResult {
  lines: OcrLine[];
  /** The capture the text was read from (scale 1: screen pixels); the image itself never leaves the driver. */
  geometry: CaptureGeometry;
  ms: { capture: number; ocr: number };
}

/** Pointer input at screen coordinates, bound to a window whose position is checked first. */
export interface PointerParams {
  action: 'move' | 'click' | 'double_click' | 'right_click' | 'middle_click' | 'drag' | 'scroll';
  /** Screen pixels. */
  x: number;
  y: number;
  /** drag: where to release (screen pixels). */
  to?: [number, number];
  /** scroll: direction and number of wheel steps (default 3). */
  direction?: 'up' | 'down' | 'left' | 'right';
  amount?: number;
  /** The window that must receive the input: the point (and `to`) must lie inside its current bounds. */
  window: string;
  /** The window's bounds as the caller last saw them; if they differ now, the driver fails with window_changed and sends nothing. */
  expectBounds?: Rect;
}
export interface PointerResult { method: 'synthetic'; detail: string }

export interface ClipboardParams { action: 'read' | 'write'; text?: string }
/**
 * `owner` (read): the process owning the CLIPBOARD selection, and `secret` when it offers the
 * x-kde-passwordManagerHint target (password managers set it on copied passwords).
 */
export interface ClipboardResult { text?: string; method: string; owner?: { pid?: number; secret?: boolean } }

export interface DisplayInfo { name: string; bounds: Rect; primary: boolean }

export interface EventBatch { events: { type: string; source: string; detail?: string }[] }

/** The method table. */
export interface Methods {
  'hello': Method<{ client?: string }, HelloResult>;
  'apps.list': Method<{ withWindows?: boolean }, { apps: AppInfo[] }>;
  'apps.launch': Method<LaunchParams, LaunchResult>;
  'windows.list': Method<{ app?: string; pid?: number }, { windows: WindowInfo[] }>;
  'window.activate': Method<{ window: string }, { ok: boolean }>;
  'tree.snapshot': Method<SnapshotParams, SnapshotResult>;
  'tree.find': Method<FindParams, FindResult>;
  'node.act': Method<ActParams, ActResult>;
  'events.subscribe': Method<{ window?: string }, { ok: boolean }>;
  'ui.settle': Method<SettleParams, SettleResult>;
  'input.keys': Method<KeysParams, KeysResult>;
  'input.pointer': Method<PointerParams, PointerResult>;
  'input.clipboard': Method<ClipboardParams, ClipboardResult>;
  'screen.ocr': Method<OcrParams, OcrResult>;
  'screen.capture': Method<CaptureParams, CaptureResult>;
  'screen.displays': Method<Record<string, never>, { displays: DisplayInfo[] }>;
  'shutdown': Method<Record<string, never>, { ok: boolean }>;
}

/** A method name. */
export type MethodName = keyof Methods;
/** Params of a method. */
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
/** Result of a method. */
export type ResultOf<M extends MethodName> = Methods[M]['result'];

/** Notifications a driver sends. */
export interface Notifications { 'events.batch': EventBatch; 'log': { level: string; message: string } }

/** Every method name, for validation of incoming requests. */
export const METHOD_NAMES: readonly MethodName[] = [
  'hello', 'apps.list', 'apps.launch', 'windows.list', 'window.activate', 'tree.snapshot', 'tree.find',
  'node.act', 'events.subscribe', 'ui.settle', 'input.keys', 'input.pointer', 'input.clipboard', 'screen.ocr', 'screen.capture',
  'screen.displays', 'shutdown',
];
