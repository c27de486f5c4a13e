/**
 * The driver protocol (seed §4): every method declared once, as a value carrying its literal name and its
 * TypeBox params and result schemas. The TypeScript types derive from the schemas (`Static<>`), the method
 * table and METHOD_NAMES derive from the list, the peer validates against the same values at run time, and
 * `npm run schema` publishes them as JSON Schema (docs/protocol.schema.json) for drivers in other languages.
 *
 * Params are strict (unknown fields are errors: a typo or a hostile field must never be silently ignored) and
 * capped (string sizes, counts, timeouts). Results are checked for their declared fields and caps but may carry
 * extra fields, so a newer driver can add facts without breaking an older host (the engine ignores them).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { OPS, STATES, type AppInfo as EngineAppInfo, type RawNode as EngineRawNode, type WindowInfo as EngineWindowInfo } from '../engine/node.js';
import { ROLES } from '../engine/role.js';
import { KEY_CHAR_PATTERN, MAX_CHORDS, MODIFIERS, NAMED_KEYS } from './keys.js';

/** The caps every schema below uses. */
export const LIMITS = {
  /** Native handles, window ids, short names (roles, app names in params). */
  id: 1024,
  /** Names, values and descriptions a driver reports (drivers cut long values and say so in valueLength). */
  text: 100_000,
  /** Text to type in one input.keys call. */
  keysText: 10_000,
  /** A value for set_value/type/select. */
  actValue: 10_000,
  /** Chords in one input.keys call. */
  chords: MAX_CHORDS,
  /** Children of one node, apps, windows, matches, OCR lines, marks. */
  items: 10_000,
  /** Nodes one snapshot may read. */
  nodes: 50_000,
  /** Any timeout or wait, in ms. */
  timeoutMs: 120_000,
  /** Screen pixels, either sign (multi-monitor layouts can be negative). */
  pixel: 1_000_000,
  /** A base64 PNG. */
  png: 64 * 1024 * 1024,
} as const;

const Id = Type.String({ minLength: 1, maxLength: LIMITS.id });
const Str = (maxLength: number = LIMITS.text) => Type.String({ maxLength });
const Pixel = Type.Integer({ minimum: -LIMITS.pixel, maximum: LIMITS.pixel });
const Count = (maximum: number) => Type.Integer({ minimum: 0, maximum });
/** A duration in ms (fractions allowed: callers pass what remains of a deadline). */
const Ms = Type.Number({ minimum: 0, maximum: LIMITS.timeoutMs });
const Pid = Type.Integer({ minimum: 0, maximum: 2 ** 31 });
/** Process start time (clock ticks since boot, or ms). */
const StartTime = Type.Number({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
/** What an act may wait for before it is sent (ActParams.actionable). */
export const ACTIONABILITY_CHECKS = ['visible', 'enabled', 'editable', 'stable'] as const;
/** One actionability check. */
export type ActionabilityCheck = (typeof ACTIONABILITY_CHECKS)[number];
/** A union of string literals typed as their union (TypeBox's own mapping would widen them to string). */
const Literals = <T extends readonly string[]>(values: T, options: object = {}) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));
const Strict = { additionalProperties: false } as const;
/** Params with no fields. */
const NoParams = Type.Object({}, Strict);
const Ok = Type.Object({ ok: Type.Boolean() });

/** A screen rectangle [x, y, width, height] in screen pixels. */
export const Rect = Type.Tuple([Pixel, Pixel, Pixel, Pixel]);
export type Rect = [number, number, number, number];

export const Role = Literals(ROLES);
export const State = Literals(STATES);
export const Op = Literals(OPS);

/** A node as a driver reports it (see engine/node.ts RawNode); recursive through `children`. */
export const RawNode = Type.Recursive((Self) => Type.Object({
  id: Id,
  role: Role,
  nativeRole: Type.Optional(Str(LIMITS.id)),
  name: Type.Optional(Str()),
  value: Type.Optional(Str()),
  valueLength: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  description: Type.Optional(Str()),
  stableId: Type.Optional(Str(LIMITS.id)),
  states: Type.Array(State, { maxItems: STATES.length }),
  actions: Type.Array(Op, { maxItems: OPS.length }),
  bounds: Type.Optional(Rect),
  range: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Number(), step: Type.Optional(Type.Number()) })),
  children: Type.Optional(Type.Array(Self, { maxItems: LIMITS.items })),
  childCount: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  keyBinding: Type.Optional(Str(LIMITS.id)),
  childRange: Type.Optional(Type.Object({ start: Count(Number.MAX_SAFE_INTEGER), end: Count(Number.MAX_SAFE_INTEGER) }, Strict)),
  table: Type.Optional(Type.Object({ rows: Count(Number.MAX_SAFE_INTEGER), cols: Count(Number.MAX_SAFE_INTEGER) }, Strict)),
  cell: Type.Optional(Type.Object({ row: Count(Number.MAX_SAFE_INTEGER), col: Count(Number.MAX_SAFE_INTEGER), address: Type.Optional(Str(LIMITS.id)) }, Strict)),
  caret: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  selection: Type.Optional(Type.Tuple([Count(Number.MAX_SAFE_INTEGER), Count(Number.MAX_SAFE_INTEGER)])),
  valueStart: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
}), { $id: 'RawNode' });
export type RawNode = EngineRawNode;

/** Identity facts the driver proves for a process (contract: executable realpath, start time, uid). */
const Identity = {
  pid: Pid,
  startTime: Type.Optional(StartTime),
  executable: Type.Optional(Str(4096)),
  uid: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 32 })),
};

export const WindowInfo = Type.Object({
  id: Id,
  title: Str(),
  app: Str(LIMITS.id),
  ...Identity,
  wmClass: Type.Optional(Str(LIMITS.id)),
  role: Role,
  focused: Type.Boolean(),
  url: Type.Optional(Str()),
  bounds: Type.Optional(Rect),
});
export type WindowInfo = EngineWindowInfo;

export const AppInfo = Type.Object({
  name: Str(LIMITS.id),
  id: Id,
  ...Identity,
  wmClass: Type.Optional(Str(LIMITS.id)),
  busy: Type.Optional(Type.Boolean()),
  inaccessible: Type.Optional(Type.Object({ reason: Str(), fix: Type.Optional(Str()) }, Strict)),
  windows: Type.Array(WindowInfo, { maxItems: LIMITS.items }),
});
export type AppInfo = EngineAppInfo;

/** What the driver can do; the host adapts (e.g. polls for settle when `events` is missing). */
export const Capability = Literals(['events', 'background_input', 'keys', 'pointer', 'ocr', 'capture', 'cache'] as const);
export type Capability = Static<typeof Capability>;

/** The protocol version this code speaks (semver): a host refuses a driver of another major version. */
export const PROTOCOL_VERSION = '1.0.0';

export const HelloParams = Type.Object({ client: Type.Optional(Str(LIMITS.id)) }, Strict);
export const HelloResult = Type.Object({
  /** The protocol version the driver speaks (semver, e.g. "1.0.0"). */
  protocolVersion: Type.Optional(Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+([-+][0-9A-Za-z.-]+)?$', maxLength: 64 })),
  /** The methods the driver implements; the host calls no other. */
  methods: Type.Optional(Type.Array(Str(LIMITS.id), { maxItems: 256 })),
  platform: Literals(['linux', 'windows', 'macos', 'android', 'cdp', 'fake'] as const),
  version: Str(LIMITS.id),
  capabilities: Type.Array(Capability, { maxItems: 32 }),
  /** Named prerequisites and whether they hold, e.g. {a11y_bus: true, synthetic_input: false}. */
  permissions: Type.Record(Type.String(), Type.Boolean()),
  /** Display server when it matters: 'x11' | 'wayland'. */
  session: Type.Optional(Str(LIMITS.id)),
  /**
   * The channel when the driver does not read the platform's own accessibility tree (e.g. 'cdp' for the
   * Chromium DevTools channel, 'ocr (degraded)'). Every tool result produced through it starts with
   * `channel: <channel>`; absent for the native accessibility tree.
   */
  channel: Type.Optional(Str(LIMITS.id)),
  /** Extra facts for diagnostics (doctor): toolkit hints, environment. */
  facts: Type.Optional(Type.Record(Type.String(), Str())),
});
export type HelloResult = Static<typeof HelloResult>;

export const AppsListParams = Type.Object({ withWindows: Type.Optional(Type.Boolean()) }, Strict);
export const AppsListResult = Type.Object({ apps: Type.Array(AppInfo, { maxItems: LIMITS.items }) });

export const LaunchParams = Type.Object({
  /** Executable or desktop command, e.g. "gedit". Never run through a shell. */
  command: Type.String({ minLength: 1, maxLength: 4096 }),
  args: Type.Optional(Type.Array(Str(4096), { maxItems: 256 })),
  /** Extra environment for the app. */
  env: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,255}$' }), Str(32_768), { additionalProperties: false })),
  /** Wait until a window of the app appears, up to this many ms (0 = do not wait). */
  waitForWindowMs: Type.Optional(Ms),
}, Strict);
export type LaunchParams = Static<typeof LaunchParams>;
export const LaunchResult = Type.Object({ pid: Pid, window: Type.Optional(WindowInfo) });
export type LaunchResult = Static<typeof LaunchResult>;

export const WindowsListParams = Type.Object({ app: Type.Optional(Str(LIMITS.id)), pid: Type.Optional(Pid) }, Strict);
export const WindowsListResult = Type.Object({ windows: Type.Array(WindowInfo, { maxItems: LIMITS.items }) });
export const WindowParams = Type.Object({ window: Id }, Strict);

export const SnapshotParams = Type.Object({
  /** Window handle from windows.list. */
  window: Id,
  /** Read only the subtree under this node handle. */
  scope: Type.Optional(Id),
  /** Maximum depth below the start node (default unlimited). */
  depth: Type.Optional(Count(1000)),
  /** Stop reading after this many nodes (protects against runaway trees). */
  maxNodes: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.nodes })),
  /** Also read each node's screen rectangle (one more call per node): for Set-of-Mark labels. */
  bounds: Type.Optional(Type.Boolean()),
  /**
   * Also read the access key of each command (button, link, menu item): `RawNode.keyBinding`. The policy needs
   * it to tell what `alt+<letter>` activates; one more call per command, so only the keys path asks for it.
   */
  keyBindings: Type.Optional(Type.Boolean()),
}, Strict);
export type SnapshotParams = Static<typeof SnapshotParams>;
export const SnapshotResult = Type.Object({
  window: WindowInfo,
  root: RawNode,
  /** Nodes read and the milliseconds the read took, for benchmarks and budget decisions. */
  stats: Type.Object({ nodes: Count(Number.MAX_SAFE_INTEGER), ms: Type.Number({ minimum: 0 }), truncated: Type.Boolean() }),
});
export type SnapshotResult = Static<typeof SnapshotResult>;

export const FindParams = Type.Object({
  window: Id,
  /** Case-insensitive substring of name, value or description. */
  text: Type.Optional(Str(LIMITS.actValue)),
  role: Type.Optional(Str(LIMITS.id)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.items })),
}, Strict);
export type FindParams = Static<typeof FindParams>;
export const FindMatch = Type.Object({
  node: RawNode,
  /** Handles from the window root down to the node's parent. */
  path: Type.Array(Id, { maxItems: LIMITS.items }),
});
export type FindMatch = Static<typeof FindMatch>;
export const FindResult = Type.Object({ matches: Type.Array(FindMatch, { maxItems: LIMITS.items }), scanned: Count(Number.MAX_SAFE_INTEGER) });
export type FindResult = Static<typeof FindResult>;

/**
 * `list.find`: search one long list, tree or table (a container whose snapshot shows only the rows on screen)
 * through all its rows, with a deadline. Matches carry their index (child index; table row where `rows`).
 */
export const ListFindParams = Type.Object({
  container: Id,
  /** Case-insensitive substring of a row's name (or its labels' names). */
  text: Str(LIMITS.actValue),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.items })),
  /** First row (0-based) to look at: where an earlier search stopped at its deadline. */
  from: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  /** Most milliseconds the search may take; it then answers with what it found and `complete: false`. */
  deadlineMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 60_000 })),
}, Strict);
export type ListFindParams = Static<typeof ListFindParams>;
export const ListFindResult = Type.Object({
  matches: Type.Array(Type.Object({ node: RawNode, index: Count(Number.MAX_SAFE_INTEGER), row: Type.Optional(Count(Number.MAX_SAFE_INTEGER)) }), { maxItems: LIMITS.items }),
  /** Rows (tables) or children (lists) the container has. */
  total: Count(Number.MAX_SAFE_INTEGER),
  /** How many of them were looked at. */
  scanned: Count(Number.MAX_SAFE_INTEGER),
  /** Where the search stopped (0-based, exclusive): pass it as `from` to go on. */
  next: Count(Number.MAX_SAFE_INTEGER),
  /** False when the deadline ended the search before every row was looked at. */
  complete: Type.Boolean(),
  /** collection: the app's Collection; scan: rows read by index; index: every row came from the kept name index. */
  method: Literals(['collection', 'scan', 'index'] as const),
  ms: Type.Number({ minimum: 0 }),
  /** True when `total` and `row` count table rows. */
  rows: Type.Optional(Type.Boolean()),
});
export type ListFindResult = Static<typeof ListFindResult>;

/** What the host expects at the handle; the driver refuses to act if it no longer holds. */
export const NodeExpectation = Type.Object({ role: Type.Optional(Str(LIMITS.id)), name: Type.Optional(Str()) }, Strict);
export type NodeExpectation = Static<typeof NodeExpectation>;

export const ActParams = Type.Object({
  /** Node handle. */
  id: Id,
  op: Op,
  /** Text for set_value/type, direction for scroll ("up"|"down"|"left"|"right"|"into_view"), target handle for drag_to, item for select. */
  value: Type.Optional(Str(LIMITS.actValue)),
  expect: Type.Optional(NodeExpectation),
  /**
   * Actionability (Invariant 11): before sending anything, wait up to `timeoutMs`, event-driven, until the
   * element passes every check (`visible`: showing on screen; `enabled`; `editable`: takes text; `stable`: its
   * bounds stopped moving). Otherwise fail with `element_disabled` or `not_visible` (details: the element's
   * current states and what it waited for) and send nothing. Drivers without it act at once.
   */
  actionable: Type.Optional(Type.Object({
    timeoutMs: Ms,
    checks: Type.Array(Literals(ACTIONABILITY_CHECKS), { maxItems: ACTIONABILITY_CHECKS.length }),
  }, Strict)),
}, Strict);
export type ActParams = Static<typeof ActParams>;
export const ActResult = Type.Object({
  /** How the act was carried out: an accessibility pattern, a toolkit message, or synthetic input. */
  method: Literals(['pattern', 'message', 'synthetic'] as const),
  /** Human-readable note, e.g. "Action.DoAction(0) 'click'". */
  detail: Type.Optional(Str(LIMITS.actValue)),
  /** The node as re-read right after the act, when cheap. */
  after: Type.Optional(RawNode),
  /**
   * The node as read at dispatch, just before the input was sent (receipts compare against it, not against the
   * model's last snapshot). For scroll, its `children` are the scroll bars that move it, with their values then.
   */
  before: Type.Optional(RawNode),
  /** How long the actionability wait lasted before the input was sent (0: actionable at once). */
  waitedMs: Type.Optional(Ms),
});
export type ActResult = Static<typeof ActResult>;

export const SubscribeParams = Type.Object({ window: Type.Optional(Id) }, Strict);

export const SettleParams = Type.Object({
  /** Quiet window: settled when no event arrived for this long. */
  quietMs: Ms,
  /** Give up after this long. */
  timeoutMs: Ms,
  /** Only count events of the app owning this window (or element) handle; all apps when missing. */
  window: Type.Optional(Id),
  /**
   * Do not call it settled before this long after the last input: dependent state (a default button enabled
   * by an app's timer after a text edit) shows within it.
   */
  minMs: Type.Optional(Ms),
}, Strict);
export type SettleParams = Static<typeof SettleParams>;
export const SettleResult = Type.Object({ settled: Type.Boolean(), events: Count(Number.MAX_SAFE_INTEGER), ms: Type.Number({ minimum: 0 }) });
export type SettleResult = Static<typeof SettleResult>;

/**
 * `ui.highlight`: shows where the agent acts (issue 14 item 3), best effort. `on` with a window frames it and
 * shows `status`; `on` without a window shows only the status ("computer-use: paused"); `on: false` removes
 * both. Drivers that cannot draw answer `unsupported`; the acting pipeline ignores any failure.
 */
export const HighlightParams = Type.Object({
  on: Type.Boolean(),
  /** The window to frame (its handle). */
  window: Type.Optional(Id),
  /** The status title ("computer-use: acting in gedit"). */
  status: Type.Optional(Str(200)),
}, Strict);
export type HighlightParams = Static<typeof HighlightParams>;

/**
 * One chord (protocol/keys.ts): modifiers plus one key, W3C/DOM names. `Primary` is Command on macOS and
 * Control elsewhere; the key is a named key or the one character it types (" " is the space bar).
 */
export const Chord = Type.Object({
  mods: Type.Array(Literals(MODIFIERS), { maxItems: MODIFIERS.length, uniqueItems: true,
    description: 'Modifiers held while the key is pressed: Control, Alt, Shift, Meta, and Primary (Command on macOS, Control elsewhere).' }),
  key: Type.Union([Literals(NAMED_KEYS), Type.String({ minLength: 1, maxLength: 2, pattern: KEY_CHAR_PATTERN })], {
    description: 'A W3C KeyboardEvent.key name (Enter, Tab, ArrowLeft, PageDown, F5, MediaPlayPause, …) or the one character the key types ("a", "A", "+", " ").',
  }),
}, Strict);

export const KeysParams = Type.Object({
  /** The window that must hold the keyboard focus; it is activated first. */
  window: Id,
  /** Wire chords (protocol/keys.ts), parsed by the host. Exactly one of chords and text. */
  chords: Type.Optional(Type.Array(Chord, { minItems: 1, maxItems: LIMITS.chords })),
  /** Literal text to type. */
  text: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.keysText })),
  /** The process that must own the focused top-level window, else window_not_focused and nothing is sent. */
  expect: Type.Optional(Type.Object({ pid: Pid, startTime: Type.Optional(StartTime) }, Strict)),
}, Strict);
export type KeysParams = Static<typeof KeysParams>;
export const KeysResult = Type.Object({
  method: Literals(['synthetic', 'message'] as const),
  focusedFirst: Type.Boolean(),
  /** Key events sent (fewer than asked when cancelled). */
  sent: Count(Number.MAX_SAFE_INTEGER),
});
export type KeysResult = Static<typeof KeysResult>;

/**
 * What a capture was taken of, recorded with it so a pixel of the image maps back to the screen:
 * screen = origin + image / scale. A visual act maps through this, never through numbers a model supplies.
 */
export const CaptureGeometry = Type.Object({
  /** The captured area: the window's screen rectangle when it was captured, clipped to the screen. */
  screen: Rect,
  /** The window's own bounds at capture time: a later act re-checks them (window_changed). */
  window: Rect,
  /** Size of the image returned. */
  width: Count(LIMITS.pixel),
  height: Count(LIMITS.pixel),
  /** Image pixels per screen pixel (≤ 1: images are only scaled down). */
  scale: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
});
export type CaptureGeometry = Static<typeof CaptureGeometry>;

/** A Set-of-Mark label to draw: the element's ref at its screen rectangle. */
export const MarkSpec = Type.Object({ label: Str(16), bounds: Rect }, Strict);
export type MarkSpec = Static<typeof MarkSpec>;

export const CaptureParams = Type.Object({
  window: Id,
  /** Scale the image down so that its long edge is at most this many pixels (default 1280). */
  maxEdge: Type.Optional(Type.Integer({ minimum: 16, maximum: 8192 })),
  /** Labels to draw over the image. */
  marks: Type.Optional(Type.Array(MarkSpec, { maxItems: 1000 })),
}, Strict);
export type CaptureParams = Static<typeof CaptureParams>;
export const CaptureResult = Type.Object({
  /** PNG, base64. */
  png: Type.String({ maxLength: LIMITS.png }),
  geometry: CaptureGeometry,
  /** Where each drawn mark ended up, in image pixels: the element's box and the label's box. */
  marks: Type.Array(Type.Object({ label: Str(16), box: Rect, labelBox: Rect }), { maxItems: 1000 }),
  /** SHA-256 of the PNG bytes. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /**
   * Screen rectangles of other windows (not proven to be the target's process) lying over the window, whose
   * pixels were blacked out before the image was read or sent; top first. Absent when nothing covered it.
   */
  covered: Type.Optional(Type.Array(Rect, { maxItems: LIMITS.items })),
  /** True when pixels of the capture outside the window's own rectangle (beside or under it) were blacked out. */
  outside: Type.Optional(Type.Boolean()),
  ms: Type.Number({ minimum: 0 }),
});
export type CaptureResult = Static<typeof CaptureResult>;

/** One line of recognized text; `bounds` in screen pixels. */
export const OcrLine = Type.Object({ text: Str(LIMITS.actValue), bounds: Rect, confidence: Type.Number() });
export type OcrLine = Static<typeof OcrLine>;
export const OcrParams = Type.Object({ window: Id }, Strict);
export type OcrParams = Static<typeof OcrParams>;
export const OcrResult = Type.Object({
  lines: Type.Array(OcrLine, { maxItems: LIMITS.items }),
  /** The capture the text was read from (scale 1: screen pixels); the image itself never leaves the driver. */
  geometry: CaptureGeometry,
  /**
   * Screen rectangles of other windows (not proven to be the target's process) lying over the window, whose
   * pixels were blacked out before the image was read or sent; top first. Absent when nothing covered it.
   */
  covered: Type.Optional(Type.Array(Rect, { maxItems: LIMITS.items })),
  /** True when pixels of the capture outside the window's own rectangle (beside or under it) were blacked out. */
  outside: Type.Optional(Type.Boolean()),
  ms: Type.Object({ capture: Type.Number({ minimum: 0 }), ocr: Type.Number({ minimum: 0 }) }),
});
export type OcrResult = Static<typeof OcrResult>;

/** Pointer input at screen coordinates, bound to a window whose position is checked first. */
export const PointerParams = Type.Object({
  action: Literals(['move', 'click', 'double_click', 'right_click', 'middle_click', 'drag', 'scroll'] as const),
  /** Screen pixels. */
  x: Pixel,
  y: Pixel,
  /** drag: where to release (screen pixels). */
  to: Type.Optional(Type.Tuple([Pixel, Pixel])),
  /** scroll: direction and number of wheel steps (default 3). */
  direction: Type.Optional(Literals(['up', 'down', 'left', 'right'] as const)),
  amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  /** The window that must receive the input: the point (and `to`) must lie inside its current bounds. */
  window: Id,
  /** The window's bounds as the caller last saw them; if they differ now, the driver fails with window_changed and sends nothing. */
  expectBounds: Type.Optional(Rect),
}, Strict);
export type PointerParams = Static<typeof PointerParams>;
export const PointerResult = Type.Object({ method: Type.Literal('synthetic'), detail: Str(LIMITS.actValue) });
export type PointerResult = Static<typeof PointerResult>;

export const ClipboardParams = Type.Object({
  action: Literals(['read', 'write'] as const),
  text: Type.Optional(Str(LIMITS.actValue)),
}, Strict);
export type ClipboardParams = Static<typeof ClipboardParams>;
export const ClipboardResult = Type.Object({
  text: Type.Optional(Str(1_000_000)),
  method: Str(LIMITS.id),
  /**
   * Who owns the CLIPBOARD selection: the live process the platform proves holds it (pid, start time);
   * `secret` when it offers the password-manager hint; `unproven` when the selection has an owner but no live
   * process can be proven to hold it (then no text is sent).
   */
  owner: Type.Optional(Type.Object({ pid: Type.Optional(Pid), startTime: Type.Optional(Type.Integer({ minimum: 0 })), secret: Type.Optional(Type.Boolean()),
    unproven: Type.Optional(Type.Boolean()) })),
});
export type ClipboardResult = Static<typeof ClipboardResult>;

export const DisplayInfo = Type.Object({ name: Str(LIMITS.id), bounds: Rect, primary: Type.Boolean() });
export type DisplayInfo = Static<typeof DisplayInfo>;
export const DisplaysResult = Type.Object({ displays: Type.Array(DisplayInfo, { maxItems: 64 }) });

export const EventBatch = Type.Object({
  events: Type.Array(Type.Object({ type: Str(LIMITS.id), source: Str(LIMITS.id), detail: Type.Optional(Str()) }), { maxItems: LIMITS.items }),
});
export type EventBatch = Static<typeof EventBatch>;
export const LogParams = Type.Object({ level: Str(64), message: Str() });
/** `$/cancel {id}`: the caller gave up on request `id`; the serving side aborts its handler's signal. */
export const CancelParams = Type.Object({ id: Type.Union([Type.Integer(), Type.String({ maxLength: LIMITS.id })]) }, Strict);

/**
 * `text.read`: characters [start, end) of an element's text (Text interface), for text a snapshot cut. The
 * driver clamps the range to the text and to a chunk it can read at once, and refuses a password field.
 */
export const TextReadParams = Type.Object({
  id: Id,
  start: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  /** Exclusive; the end of the text when absent. */
  end: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
}, Strict);
export type TextReadParams = Static<typeof TextReadParams>;
export const TextReadResult = Type.Object({
  text: Str(1_000_000),
  /** Offset of `text` in the full text. */
  start: Count(Number.MAX_SAFE_INTEGER),
  /** Full length of the text. */
  length: Count(Number.MAX_SAFE_INTEGER),
  /** 1-based line on which `text` starts. */
  startLine: Count(Number.MAX_SAFE_INTEGER),
  caret: Type.Optional(Count(Number.MAX_SAFE_INTEGER)),
  selection: Type.Optional(Type.Tuple([Count(Number.MAX_SAFE_INTEGER), Count(Number.MAX_SAFE_INTEGER)])),
});
export type TextReadResult = Static<typeof TextReadResult>;

/** `text.find`: case-insensitive matches of `text` in an element's whole text, with line and offset. */
export const TextFindParams = Type.Object({
  id: Id,
  text: Type.String({ minLength: 1, maxLength: LIMITS.actValue }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
}, Strict);
export type TextFindParams = Static<typeof TextFindParams>;
export const TextFindResult = Type.Object({
  matches: Type.Array(Type.Object({
    offset: Count(Number.MAX_SAFE_INTEGER),
    line: Count(Number.MAX_SAFE_INTEGER),
    /** The match's line, cut around the match. */
    snippet: Str(1000),
  }), { maxItems: 1000 }),
  length: Count(Number.MAX_SAFE_INTEGER),
  /** Characters searched (the driver stops at a cap on huge texts). */
  searched: Count(Number.MAX_SAFE_INTEGER),
});
export type TextFindResult = Static<typeof TextFindResult>;

/** One protocol method: its literal name and its params and result schemas. */
export interface MethodSpec<N extends string = string, P extends TSchema = TSchema, R extends TSchema = TSchema> {
  readonly method: N;
  readonly params: P;
  readonly result: R;
}

/** Declares one method as a value. */
export function defineMethod<N extends string, P extends TSchema, R extends TSchema>(method: N, params: P, result: R): MethodSpec<N, P, R> {
  return { method, params, result };
}

/** Every method, once. */
export const METHODS = [
  defineMethod('hello', HelloParams, HelloResult),
  defineMethod('apps.list', AppsListParams, AppsListResult),
  defineMethod('apps.launch', LaunchParams, LaunchResult),
  defineMethod('windows.list', WindowsListParams, WindowsListResult),
  defineMethod('window.activate', WindowParams, Ok),
  defineMethod('tree.snapshot', SnapshotParams, SnapshotResult),
  defineMethod('tree.find', FindParams, FindResult),
  defineMethod('node.act', ActParams, ActResult),
  defineMethod('events.subscribe', SubscribeParams, Ok),
  defineMethod('ui.settle', SettleParams, SettleResult),
  defineMethod('ui.highlight', HighlightParams, Ok),
  defineMethod('input.keys', KeysParams, KeysResult),
  defineMethod('input.pointer', PointerParams, PointerResult),
  defineMethod('input.clipboard', ClipboardParams, ClipboardResult),
  defineMethod('screen.ocr', OcrParams, OcrResult),
  defineMethod('screen.capture', CaptureParams, CaptureResult),
  defineMethod('screen.displays', NoParams, DisplaysResult),
  defineMethod('shutdown', NoParams, Ok),
  defineMethod('list.find', ListFindParams, ListFindResult),
  defineMethod('text.read', TextReadParams, TextReadResult),
  defineMethod('text.find', TextFindParams, TextFindResult),
] as const;

type Spec = (typeof METHODS)[number];
/** The method table: name → {params, result} types, derived from METHODS. */
export type Methods = { [S in Spec as S['method']]: { params: Static<S['params']>; result: Static<S['result']> } };
/** A method name. */
export type MethodName = Spec['method'];
/** Params of a method. */
export type ParamsOf<M extends MethodName> = Methods[M]['params'];
/** Result of a method. */
export type ResultOf<M extends MethodName> = Methods[M]['result'];

/** Every method name, for validation of incoming requests. */
export const METHOD_NAMES: readonly MethodName[] = METHODS.map((m) => m.method);

/** Looks a method up by name (undefined for names not declared, including Object.prototype keys). */
export function methodSpec(name: string): MethodSpec | undefined {
  return METHOD_BY_NAME.get(name);
}
const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((m) => [m.method, m as MethodSpec]));

/** Notifications either side sends, with their schemas. */
export const NOTIFICATIONS = { 'events.batch': EventBatch, 'log': LogParams, '$/cancel': CancelParams } as const;
/** Notifications a driver sends (and `$/cancel`, which the peer handles itself). */
export type Notifications = { [N in keyof typeof NOTIFICATIONS]: Static<(typeof NOTIFICATIONS)[N]> };

// The engine's node types and the wire schemas must describe the same values (checked at compile time).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [Same<Static<typeof WindowInfo>, EngineWindowInfo>, Same<Static<typeof AppInfo>, EngineAppInfo>, Same<Static<typeof RawNode>, EngineRawNode>] = [true, true, true];
void sameShapes;
