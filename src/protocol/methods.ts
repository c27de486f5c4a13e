/**
 * The driver protocol: every method declared once, as a value carrying its literal name, its TypeBox
 * params and result schemas and its meaning (`doc`, and `description` on every field), plus whether it acts on
 * the device (`acting`), whether a driver may leave it out (`optional`) and the protocol version that
 * introduced it (`since`). The TypeScript types derive from the schemas (`Static<>`), the method table and
 * METHOD_NAMES derive from the list, the peer validates against the same values at run time, the read-only
 * device type the session holds takes only the methods declared `acting: false` (ReadMethodName), and
 * `npm run schema` publishes them as docs/protocol.schema.json and docs/protocol.md for drivers in other languages.
 *
 * Params are strict (unknown fields are errors: a typo or a hostile field must never be silently ignored) and
 * capped (string sizes, counts, timeouts). Results are checked for their declared fields and caps but may carry
 * extra fields, so a newer driver can add facts without breaking an older host (the engine ignores them).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { KEY_CHAR_PATTERN, MODIFIERS, NAMED_KEYS, type Modifier, type NamedKey } from './keys.js';
import {
  IdentifyParams,
  IdentifyResult,
  ResolveLaunchParams,
  ResolveLaunchResult,
  StartToken,
  TargetKind,
  TerminateParams,
  TerminateResult,
} from './identity.js';
import { AppInfo, Op, RawNode, Role, WindowInfo } from './nodes.js';
import {
  Count,
  doc,
  DocumentedLiterals,
  Id,
  LIMITS,
  Literals,
  Ms,
  Pid,
  Pixel,
  Rect,
  Str,
  Strict,
} from './primitives.js';

export { AppInfo, Op, RawNode, Role, State, WindowInfo } from './nodes.js';
export { LIMITS, Rect } from './primitives.js';

/** The protocol version this host and its drivers speak (semver: a different major version is refused). */
export const PROTOCOL_VERSION = '1.1.0';

/** What an act may wait for before it is sent (ActParams.actionable), and what each check means. */
const ACTIONABILITY_DOCS = {
  visible: 'Showing on screen: not `offscreen` or `invisible`, with a non-empty rectangle.',
  enabled: 'Not `disabled`.',
  editable: 'Takes the text it is given: an element that takes text must be `editable` and not `readonly`; an element that takes no text (a slider, a spin button set by value) passes.',
  stable: 'Its bounds stopped moving (two reads a frame apart agree).',
} as const;
/** What an act may wait for before it is sent (ActParams.actionable). */
export const ACTIONABILITY_CHECKS = Object.keys(ACTIONABILITY_DOCS) as readonly (keyof typeof ACTIONABILITY_DOCS)[];
/** One actionability check. */
export type ActionabilityCheck = (typeof ACTIONABILITY_CHECKS)[number];
/** Params with no fields. */
const NoParams = Type.Object({}, Strict);
const Ok = Type.Object({ ok: doc('Always true: the call did what it says (failures are errors).', Type.Boolean()) });

/** What a driver can do; the host adapts (e.g. polls for settle when `events` is missing). */
export const CAPABILITY_DOCS = {
  events: 'The driver sends `events.batch` notifications after events.subscribe; without it the host polls to settle.',
  background_input: 'Input reaches a window without raising it first (a page\'s own input dispatch).',
  keys: 'input.keys can send key events.',
  pointer: 'input.pointer and pointer drags can send pointer events.',
  ocr: 'screen.ocr can read text from pixels.',
  capture: 'screen.capture can return an image of a window.',
  cache: 'The driver keeps a tree cache fed by events, so snapshots after the first are cheap.',
  act_identity: 'node.act proves the process behind the element (`expect` pid, startToken, appId, window title) where the element lives and ' +
    'refuses with `window_changed`, sending nothing, when it is another: the host then needs no separate process.identify or window listing per act.',
  act_windows: 'node.act and ui.settle list the running applications with their windows when asked (`apps: true`), as apps.list does: ' +
    'the windows open just before the input was sent, and those open once settled, without two more requests.',
} as const;
/** One capability. */
export const Capability = DocumentedLiterals(CAPABILITY_DOCS, {
  description: 'Something the driver can do (see Capabilities).',
});
export type Capability = Static<typeof Capability>;

/** A semantic version "MAJOR.MINOR.PATCH". */
const SEMVER = '^(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})\\.(0|[1-9][0-9]{0,8})$';
/** A method or platform name on the wire. */
const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '^[$A-Za-z][A-Za-z0-9_.$/-]*$' });

export const HelloParams = Type.Object({
  client: Type.Optional(doc('Who is calling, for the driver\'s logs ("computer-use").', Str(LIMITS.id))),
}, Strict);
export const HelloResult = Type.Object({
  protocolVersion: doc(
    `The protocol version the driver speaks, semver "MAJOR.MINOR.PATCH" (this document: ${PROTOCOL_VERSION}). ` +
      'The host refuses a driver of another MAJOR version and never calls a method it did not list in `methods`.',
    Type.String({ pattern: SEMVER }),
  ),
  platform: doc(
    'What the driver drives, lower case: "linux", "windows", "macos", "android", "web" (a browser page), "fake" (tests), ' +
      'or another name. Diagnostics only: the host decides nothing by it.',
    Name,
  ),
  version: doc("The driver's own version, free text.", Str(LIMITS.id)),
  methods: doc(
    'The methods this driver implements, `hello` included. The host calls no other (it answers `unsupported` itself).',
    Type.Array(Name, { maxItems: 256, uniqueItems: true }),
  ),
  capabilities: doc('What the driver can do.', Type.Array(Capability, { maxItems: 32 })),
  permissions: doc(
    'Named prerequisites and whether they hold, e.g. {"accessibility": true, "synthetic_input": false}; doctor ' +
      'prints them. A driver-specific vocabulary; the host decides nothing by the names.',
    Type.Record(Type.String(), Type.Boolean()),
  ),
  session: Type.Optional(
    doc(
      'The kind of graphical session when it changes what works (the display server); diagnostics only.',
      Str(LIMITS.id),
    ),
  ),
  channel: Type.Optional(
    doc(
      'The channel when the driver does not read the platform\'s own accessibility tree (e.g. "cdp" for the ' +
        'Chromium DevTools channel, "ocr (degraded)"). Every tool result produced through it starts with `channel: <channel>`; absent ' +
        'for the native accessibility tree.',
      Str(LIMITS.id),
    ),
  ),
  facts: Type.Optional(
    doc('Extra facts for diagnostics (doctor): toolkit hints, environment.', Type.Record(Type.String(), Str())),
  ),
});
export type HelloResult = Static<typeof HelloResult>;

export const AppsListParams = Type.Object({
  withWindows: Type.Optional(doc('Also list each application\'s windows (default true).', Type.Boolean())),
}, Strict);
export const AppsListResult = Type.Object({
  apps: doc('The running applications the driver can see.', Type.Array(AppInfo, { maxItems: LIMITS.items })),
});

export const LaunchParams = Type.Object(
  {
    command: doc(
      'Executable or desktop command, e.g. "gedit" (or a bundle id, AUMID/URI, package per `kind`). Never run through a shell.',
      Type.String({ minLength: 1, maxLength: 4096 }),
    ),
    kind: Type.Optional(TargetKind),
    args: Type.Optional(
      doc(
        'Arguments, each passed as one argument (never split, never interpreted by a shell).',
        Type.Array(Str(4096), { maxItems: 256 }),
      ),
    ),
    env: Type.Optional(
      doc(
        'Extra environment for the app.',
        Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,255}$' }), Str(32_768), {
          additionalProperties: false,
        }),
      ),
    ),
    waitForWindowMs: Type.Optional(
      doc('Wait until a window of the app appears, up to this many ms (0 = do not wait).', Ms),
    ),
  },
  Strict,
);
export type LaunchParams = Static<typeof LaunchParams>;
export const LaunchResult = Type.Object({
  pid: doc('Process id of the started application on the device.', Pid),
  window: Type.Optional(doc('Its first window, when `waitForWindowMs` was given and one appeared.', WindowInfo)),
  startToken: Type.Optional(StartToken),
  startedHere: Type.Optional(
    doc(
      "True when `pid` (the window's process) is the started process or runs under it, as its parent chain " +
        'proved when the window appeared (a launcher that became another program: lowriter → soffice.bin); false when the start was handed to ' +
        'an instance already running. The host lets the entry that allowed the launch cover that process.',
      Type.Boolean(),
    ),
  ),
  argv: Type.Optional(
    doc(
      "The argument vector that ran (after the driver's resolution of the command).",
      Type.Array(Str(65_536), { maxItems: 4096 }),
    ),
  ),
  added: Type.Optional(
    doc(
      "What the driver added so the app is readable and unattended (a browser engine's accessibility and keyring flags), " +
        "recognised by what the program is: the flags put before the caller's arguments, the variables set, and one line that says so.",
      Type.Object({
        args: doc("Flags put before the caller's arguments.", Type.Array(Str(256), { maxItems: 32 })),
        env: doc('Names of the variables set.', Type.Array(Str(256), { maxItems: 32 })),
        note: doc('One line that says what was added and why.', Str(1024)),
      }),
    ),
  ),
  inaccessible: Type.Optional(
    doc(
      'Set when the window that appeared is on the display but its app is not on the accessibility service (a ' +
        'toolkit that does not speak it, or one started without its switch): the window has no tree; why, what ' +
        'makes it readable, and the remedies (read its pixels).',
      AppInfo.properties.inaccessible,
    ),
  ),
  exited: Type.Optional(
    doc(
      'Set when the started process exited before any window appeared: its exit code (or signal) and the tail of its stderr, so a ' +
        'program that failed or answered at once is reported as such, not as an accessibility problem.',
      Type.Object({
        code: Type.Optional(doc('Exit code.', Type.Integer({ minimum: -1, maximum: 65_535 }))),
        signal: Type.Optional(doc('The signal that ended it.', Str(32))),
        stderr: doc('The tail of its stderr.', Str(4096)),
      }),
    ),
  ),
});
export type LaunchResult = Static<typeof LaunchResult>;

export const WindowsListParams = Type.Object({
  app: Type.Optional(doc('Only windows of applications of this name (case-insensitive).', Str(LIMITS.id))),
  pid: Type.Optional(doc('Only windows of this process.', Pid)),
}, Strict);
export const WindowsListResult = Type.Object({
  windows: doc(
    'The top-level windows, front to back where the platform knows.',
    Type.Array(WindowInfo, { maxItems: LIMITS.items }),
  ),
});
export const WindowParams = Type.Object({ window: doc('Window handle from windows.list.', Id) }, Strict);

export const SnapshotParams = Type.Object(
  {
    window: doc('Window handle from windows.list.', Id),
    scope: Type.Optional(doc('Read only the subtree under this node handle.', Id)),
    depth: Type.Optional(
      doc(
        'Maximum depth below the start node (default unlimited); 0 reads the start node alone, without `children`.',
        Count(1000),
      ),
    ),
    maxNodes: Type.Optional(
      doc(
        'Stop reading after this many nodes (protects against runaway trees); `stats.truncated` says so.',
        Type.Integer({ minimum: 1, maximum: LIMITS.nodes }),
      ),
    ),
    bounds: Type.Optional(
      doc(
        "Also read each node's screen rectangle (one more call per node on some platforms): for Set-of-Mark labels.",
        Type.Boolean(),
      ),
    ),
    since: Type.Optional(
      doc(
        "The `mark` of this window's last whole read by this host: a driver that kept that read may answer it " +
          "re-read only where the app's events since say it changed (`stats.reread`), else it reads whole. " +
          'Only a plain whole-window read (no scope, depth, maxNodes, bounds or keyBindings) is patched.',
        Str(LIMITS.id),
      ),
    ),
    keyBindings: Type.Optional(
      doc(
        'Also read the access key of each command (button, link, menu item): `RawNode.keyBinding`. The policy ' +
          'needs it to tell what an Alt chord activates; one more call per command, so only the keys path asks for it.',
        Type.Boolean(),
      ),
    ),
  },
  Strict,
);
export type SnapshotParams = Static<typeof SnapshotParams>;
export const SnapshotResult = Type.Object({
  window: doc('The window as it is now.', WindowInfo),
  root: doc('The window\'s root node and its subtree (or the `scope` node\'s).', RawNode),
  stats: doc('Nodes read and the milliseconds the read took, for benchmarks and budget decisions.', Type.Object({
    nodes: doc('Nodes read.', Count()),
    ms: doc('Milliseconds the read took.', Type.Number({ minimum: 0 })),
    truncated: doc('True when `maxNodes` or `depth` cut the read.', Type.Boolean()),
    reread: Type.Optional(doc('Asked with `since` and answered from the kept read patched: the subtrees and nodes ' +
      'read again (absent: the window was read whole).', Count())),
  })),
  mark: Type.Optional(doc('Drivers with `tree.changed`: an opaque mark of the driver\'s event stream taken before the read began; ' +
    '`tree.changed` with it says whether the read may be out of date.', Str(LIMITS.id))),
});
export type SnapshotResult = Static<typeof SnapshotResult>;

export const ChangedParams = Type.Object({
  window: doc('The window a read was taken of (its handle).', Id),
  since: doc('The `mark` of that read (tree.snapshot).', Str(LIMITS.id)),
}, Strict);
export type ChangedParams = Static<typeof ChangedParams>;
export const ChangedResult = Type.Object({
  changed: doc(
    "True unless the driver knows that the window's application sent no event that can change its tree since the mark " +
      '(a mark it did not make, a stream it lost or an app it cannot ask all answer true).',
    Type.Boolean(),
  ),
  windows: doc(
    'True unless the driver knows that no window opened, closed, was renamed or took the focus anywhere since the mark.',
    Type.Boolean(),
  ),
});
export type ChangedResult = Static<typeof ChangedResult>;

export const FindParams = Type.Object({
  window: doc('Window handle from windows.list.', Id),
  text: Type.Optional(doc('Case-insensitive substring of name, value or description.', Str(LIMITS.actValue))),
  role: Type.Optional(doc('Only nodes of this unified role.', Str(LIMITS.id))),
  limit: Type.Optional(doc('Most matches to return.', Type.Integer({ minimum: 1, maximum: LIMITS.items }))),
}, Strict);
export type FindParams = Static<typeof FindParams>;
export const FindMatch = Type.Object({
  node: doc('The matching node (without children).', RawNode),
  path: doc('Handles from the window root down to the node\'s parent.', Type.Array(Id, { maxItems: LIMITS.items })),
});
export type FindMatch = Static<typeof FindMatch>;
export const FindResult = Type.Object({
  matches: doc('The matches in reading order.', Type.Array(FindMatch, { maxItems: LIMITS.items })),
  scanned: doc('Nodes looked at.', Count()),
});
export type FindResult = Static<typeof FindResult>;

export const ListFindParams = Type.Object({
  container: doc('Handle of the list, tree or table.', Id),
  text: doc('Case-insensitive substring of a row\'s name (or its labels\' names).', Str(LIMITS.actValue)),
  limit: Type.Optional(doc('Most matches to return.', Type.Integer({ minimum: 1, maximum: LIMITS.items }))),
  from: Type.Optional(doc('First row (0-based) to look at: where an earlier search stopped at its deadline.', Count())),
  deadlineMs: Type.Optional(doc('Most milliseconds the search may take; it then answers with what it found and `complete: false`.',
    Type.Integer({ minimum: 1, maximum: 60_000 }))),
}, Strict);
export type ListFindParams = Static<typeof ListFindParams>;
export const ListFindResult = Type.Object({
  matches: doc('The matching rows.', Type.Array(Type.Object({
    node: doc('The row (or the list child).', RawNode),
    index: doc('Its 0-based child index in the container.', Count()),
    row: Type.Optional(doc('Its 0-based table row, where `rows` is true.', Count())),
  }), { maxItems: LIMITS.items })),
  total: doc('Rows (tables) or children (lists) the container has.', Count()),
  scanned: doc('How many of them were looked at.', Count()),
  next: doc('Where the search stopped (0-based, exclusive): pass it as `from` to go on.', Count()),
  complete: doc('False when the deadline ended the search before every row was looked at.', Type.Boolean()),
  method: doc('How the rows were searched.', DocumentedLiterals({
    native: 'The platform\'s own search of the container.',
    scan: 'Rows read one by one by index.',
    index: 'Every row came from a name index the driver keeps.',
  })),
  ms: doc('Milliseconds the search took.', Type.Number({ minimum: 0 })),
  rows: Type.Optional(doc('True when `total`, `index` positions and `row` count table rows.', Type.Boolean())),
});
export type ListFindResult = Static<typeof ListFindResult>;

/** What the host expects at the handle; the driver refuses to act if it no longer holds. */
export const NodeExpectation = Type.Object(
  {
    role: Type.Optional(doc('The unified role the element must still have.', Str(LIMITS.id))),
    name: Type.Optional(doc('The name the element must still have.', Str())),
    pid: Type.Optional(
      doc(
        'Capability `act_identity`: the process the element must still belong to; another (or none) is `window_changed`, nothing sent.',
        Pid,
      ),
    ),
    startToken: Type.Optional(
      doc("With `pid`: that process's start token, as in WindowInfo (a reused pid has another).", StartToken),
    ),
    appId: Type.Optional(
      doc(
        'With `pid`: the appId the process must still have, as in WindowInfo (a process that replaced its program has another).',
        Str(4096),
      ),
    ),
    window: Type.Optional(
      doc(
        'With `pid`: the handle of the top-level window the element is in, which must still be open and belong to `pid`.',
        Id,
      ),
    ),
    title: Type.Optional(
      doc('With `window`: the title that window must still have (the host decided on it).', Str()),
    ),
  },
  Strict,
);
export type NodeExpectation = Static<typeof NodeExpectation>;

export const ActParams = Type.Object(
  {
    id: doc('Node handle.', Id),
    op: Op,
    value: Type.Optional(
      doc(
        'What the op takes (see Operations): text for set_value and type, an item or a cell range for select, ' +
          '"up", "down", "left", "right", "into_view", "to N" or "to B7" for scroll, the target\'s handle for drag_to.',
        Str(LIMITS.actValue),
      ),
    ),
    expect: Type.Optional(
      doc(
        'What the host expects at the handle: if it no longer holds, the driver fails with `stale_ref` and sends nothing.',
        NodeExpectation,
      ),
    ),
    actionable: Type.Optional(
      doc(
        'Actionability: before sending anything, wait up to `timeoutMs`, event-driven, until the element passes ' +
          'every check (`visible`: showing on screen; `enabled`; `editable`: takes text; `stable`: its bounds stopped moving). Otherwise ' +
          "fail with `element_disabled` or `not_visible` (details: the element's current states and what it waited for) and send " +
          'nothing. Drivers without it act at once.',
        Type.Object(
          {
            timeoutMs: doc('Longest wait.', Ms),
            checks: doc(
              'The checks that must all pass.',
              Type.Array(DocumentedLiterals(ACTIONABILITY_DOCS), { maxItems: ACTIONABILITY_CHECKS.length }),
            ),
          },
          Strict,
        ),
      ),
    ),
    apps: Type.Optional(
      doc(
        'Capability `act_windows`: also list the running applications with their windows (as apps.list) as they were just ' +
          'before the input was sent, in ActResult `apps`.',
        Type.Boolean(),
      ),
    ),
  },
  Strict,
);
export type ActParams = Static<typeof ActParams>;
/** An element inside the one an act named (ActResult `via`; `unsupported` details `inside`). */
export const Inner = Type.Object({
  id: doc('Its handle (see Handles).', Id),
  role: doc('Its unified role.', Role),
  name: Type.Optional(doc('Its name, cleaned as in snapshots.', Str())),
  description: Type.Optional(doc('Its description, when it has no name (as snapshots print it then).', Str())),
}, { ...Strict, description: 'An element inside the one an act named.' });
/** An element inside the one an act named. */
export type Inner = Static<typeof Inner>;
export const ActResult = Type.Object({
  method: doc(
    'How the act was carried out.',
    DocumentedLiterals({
      pattern: 'An accessibility action or pattern of the element (no synthetic input).',
      message: "A toolkit or page message (the application's own input dispatch).",
      synthetic: 'Synthetic pointer or key input aimed at the element.',
    }),
  ),
  activated: Type.Optional(
    doc(
      "True when the act ran the element's command (pressed a button, followed a link, picked a menu item: what " +
        "a click or Enter does to it), false when it only moved focus, selection or scroll. The policy's irreversible rules read it.",
      Type.Boolean(),
    ),
  ),
  detail: Type.Optional(
    doc('Human-readable note for logs, e.g. "Action.DoAction(0) \'click\'".', Str(LIMITS.actValue)),
  ),
  after: Type.Optional(doc('The node as re-read right after the act, when cheap.', RawNode)),
  before: Type.Optional(
    doc(
      'The node as read at dispatch, just before the input was sent (receipts compare against it, not against the ' +
        "model's last snapshot). For scroll, its `children` are the scroll bars that move it, with their values then.",
      RawNode,
    ),
  ),
  waitedMs: Type.Optional(
    doc('How long the actionability wait lasted before the input was sent (0: actionable at once).', Ms),
  ),
  apps: Type.Optional(
    doc(
      'When asked (`apps`): the running applications with their windows just before the input was sent.',
      Type.Array(AppInfo, { maxItems: LIMITS.items }),
    ),
  ),
  via: Type.Optional(
    doc(
      'The element the act really went to, when not the one named: a click on an element with no action of its own ' +
        "goes to its only clickable descendant that fills it (a GTK 4 menu button's inner button). The host names it in the receipt.",
      Inner,
    ),
  ),
});
export type ActResult = Static<typeof ActResult>;

export const SubscribeParams = Type.Object({
  window: Type.Optional(doc('Only events of the application owning this window; all applications when absent.', Id)),
}, Strict);

/** ui.settle's quiet window when the host names none and the driver knows no measured one for the app's toolkit. */
export const DEFAULT_QUIET_MS = 60;
export const SettleParams = Type.Object(
  {
    quietMs: Type.Optional(doc('Quiet window: settled when no event arrived for this long. Absent: the quiet ' +
      `time the driver measured for the app's toolkit, else ${DEFAULT_QUIET_MS} ms.`, Ms)),
    timeoutMs: doc('Give up after this long (`settled: false`).', Ms),
    window: Type.Optional(
      doc('Only count events of the app owning this window (or element) handle; all apps when absent.', Id),
    ),
    minMs: Type.Optional(
      doc(
        'Do not call it settled before this long after the last input: dependent state (a default button enabled ' +
          "by an app's timer after a text edit) shows within it.",
        Ms,
      ),
    ),
    apps: Type.Optional(
      doc(
        'Capability `act_windows`: also list the running applications with their windows (as apps.list) once settled, in `apps`.',
        Type.Boolean(),
      ),
    ),
  },
  Strict,
);
export type SettleParams = Static<typeof SettleParams>;
export const SettleResult = Type.Object({
  settled: doc('True when the quiet window passed before the timeout.', Type.Boolean()),
  events: doc('Events counted while waiting.', Count()),
  ms: doc('Milliseconds waited.', Type.Number({ minimum: 0 })),
  apps: Type.Optional(
    doc(
      'When asked (`apps`): the running applications with their windows once settled.',
      Type.Array(AppInfo, { maxItems: LIMITS.items }),
    ),
  ),
});
export type SettleResult = Static<typeof SettleResult>;

export const HighlightParams = Type.Object({
  on: doc('Show (true) or remove (false) the frame and the status.', Type.Boolean()),
  window: Type.Optional(doc('The window to frame (its handle).', Id)),
  status: Type.Optional(doc('The status title ("computer-use: acting in gedit").', Str(200))),
}, Strict);
export type HighlightParams = Static<typeof HighlightParams>;

/** What each modifier means on the wire. */
const MODIFIER_DOCS: Record<Modifier, string> = {
  Primary: 'The platform\'s shortcut modifier: Command on macOS, Control everywhere else.',
  Control: 'The Control key itself (on macOS too).',
  Alt: 'The Alt key (Option on macOS).',
  Shift: 'The Shift key.',
  Meta: 'The logo key: Windows, Super, or Command on macOS.',
};

/** What each named key other than a function key is, in words a driver author maps from. */
const KEY_WORDS: Record<Exclude<NamedKey, `F${number}`>, string> = {
  Enter: 'Enter (Return).',
  Tab: 'Tab.',
  Backspace: 'Backspace (deletes backwards).',
  Delete: 'Delete (forward delete).',
  Insert: 'Insert.',
  Escape: 'Escape.',
  ArrowUp: 'Up arrow.',
  ArrowDown: 'Down arrow.',
  ArrowLeft: 'Left arrow.',
  ArrowRight: 'Right arrow.',
  Home: 'Home.',
  End: 'End.',
  PageUp: 'Page Up.',
  PageDown: 'Page Down.',
  Control: 'The Control key pressed on its own.',
  Alt: 'The Alt key pressed on its own.',
  Shift: 'The Shift key pressed on its own.',
  Meta: 'The logo key pressed on its own.',
  CapsLock: 'Caps Lock.',
  NumLock: 'Num Lock.',
  ScrollLock: 'Scroll Lock.',
  ContextMenu: 'The context-menu (Menu) key.',
  PrintScreen: 'Print Screen.',
  Pause: 'Pause (Break).',
  MediaPlayPause: 'Media play/pause.',
  MediaStop: 'Media stop.',
  MediaTrackNext: 'Media next track.',
  MediaTrackPrevious: 'Media previous track.',
  AudioVolumeUp: 'Volume up.',
  AudioVolumeDown: 'Volume down.',
  AudioVolumeMute: 'Mute.',
};
/** Every named key (W3C UI Events KeyboardEvent.key values) with its meaning, in NAMED_KEYS order. */
const NAMED_KEY_DOCS = Object.fromEntries(
  NAMED_KEYS.map((k) => [k, (KEY_WORDS as Record<string, string>)[k] ?? `Function key ${k}.`]),
) as Record<NamedKey, string>;

/**
 * One chord (protocol/keys.ts): modifiers plus one key, W3C/DOM names. `Primary` is Command on macOS and
 * Control elsewhere; the key is a named key or the one character it types (" " is the space bar).
 */
export const Chord = Type.Object(
  {
    mods: doc(
      'Modifiers held while the key is pressed, each at most once: Control, Alt, Shift, Meta, and Primary (Command on macOS, Control elsewhere).',
      Type.Array(DocumentedLiterals(MODIFIER_DOCS), { maxItems: MODIFIERS.length, uniqueItems: true }),
    ),
    key: doc(
      'A W3C KeyboardEvent.key name (Enter, Tab, ArrowLeft, PageDown, F5, MediaPlayPause, …; see Keys) or the one character the key types ("a", "A", "+", " ").',
      Type.Union([
        DocumentedLiterals(NAMED_KEY_DOCS),
        Type.String({ minLength: 1, maxLength: 2, pattern: KEY_CHAR_PATTERN }),
      ]),
    ),
  },
  Strict,
);

export const KeysParams = Type.Object(
  {
    window: doc('The window that must hold the keyboard focus; it is activated first.', Id),
    chords: Type.Optional(
      doc(
        'Wire chords (parsed by the host) to press in order. Exactly one of `chords` and `text`.',
        Type.Array(Chord, { minItems: 1, maxItems: LIMITS.chords }),
      ),
    ),
    text: Type.Optional(
      doc(
        'Literal text to type, character by character (any Unicode).',
        Type.String({ minLength: 1, maxLength: LIMITS.keysText }),
      ),
    ),
    expect: Type.Optional(
      doc(
        'The process that must own the focused top-level window, else `window_not_focused` and nothing is sent.',
        Type.Object(
          {
            pid: doc('Process id.', Pid),
            startToken: Type.Optional(doc('Its start token, as in WindowInfo.', StartToken)),
          },
          Strict,
        ),
      ),
    ),
  },
  Strict,
);
export type KeysParams = Static<typeof KeysParams>;
export const KeysResult = Type.Object({
  method: doc('How the keys were sent.', DocumentedLiterals({
    synthetic: 'Synthetic key events through the platform\'s input injection.',
    message: 'The toolkit\'s or page\'s own input dispatch.',
  })),
  focusedFirst: doc('True when the window had to be activated first.', Type.Boolean()),
  sent: doc('Key events sent (fewer than asked when cancelled).', Count()),
});
export type KeysResult = Static<typeof KeysResult>;

export const CaptureGeometry = Type.Object(
  {
    screen: doc(
      "The captured area: the window's screen rectangle when it was captured, clipped to the screen.",
      Rect,
    ),
    window: doc("The window's own bounds at capture time: a later act re-checks them (`window_changed`).", Rect),
    width: doc('Width of the image returned, in image pixels.', Count(LIMITS.pixel)),
    height: doc('Height of the image returned, in image pixels.', Count(LIMITS.pixel)),
    scale: doc(
      'Image pixels per screen unit: below 1 when the image was scaled down, above 1 on a display of more pixels than ' +
        'screen units (2 on a Retina display). screen = origin + image / scale.',
      Type.Number({ exclusiveMinimum: 0, maximum: 16 }),
    ),
  },
  {
    description:
      'What a capture was taken of, recorded with it so a pixel of the image maps back to the screen: ' +
      'screen = origin + image / scale. A visual act maps through this, never through numbers a model supplies.',
  },
);
export type CaptureGeometry = Static<typeof CaptureGeometry>;

/** A Set-of-Mark label to draw: the element's ref at its screen rectangle. */
export const MarkSpec = Type.Object({
  label: doc('The label text (a ref, "e12").', Str(16)),
  bounds: doc('The element\'s screen rectangle.', Rect),
}, Strict);
export type MarkSpec = Static<typeof MarkSpec>;

export const CaptureParams = Type.Object(
  {
    window: doc('Window handle.', Id),
    maxEdge: Type.Optional(
      doc(
        'Scale the image down so that its long edge is at most this many pixels (default 1280).',
        Type.Integer({ minimum: 16, maximum: 8192 }),
      ),
    ),
    marks: Type.Optional(doc('Labels to draw over the image.', Type.Array(MarkSpec, { maxItems: 1000 }))),
  },
  Strict,
);
export type CaptureParams = Static<typeof CaptureParams>;

/** What a capture blacked out: the same two fields on an image and on the text read from one. */
const BLACKED_OUT = {
  covered: Type.Optional(
    doc(
      "Screen rectangles of other windows (not proven to be the target's process) lying over the window, whose " +
        'pixels were blacked out before the image was read or sent; top first. Absent when nothing covered it.',
      Type.Array(Rect, { maxItems: LIMITS.items }),
    ),
  ),
  outside: Type.Optional(
    doc(
      "True when pixels of the capture outside the window's own rectangle (beside or under it) were blacked out.",
      Type.Boolean(),
    ),
  ),
};

export const CaptureResult = Type.Object({
  png: doc(
    'The image, PNG, base64. Whatever is not the target window (other windows over it) is blacked out.',
    Type.String({ maxLength: LIMITS.png }),
  ),
  geometry: CaptureGeometry,
  marks: doc(
    'Where each drawn mark ended up, in image pixels.',
    Type.Array(
      Type.Object({
        label: doc('The label.', Str(16)),
        box: doc("The element's box in image pixels.", Rect),
        labelBox: doc("The label's box in image pixels.", Rect),
      }),
      { maxItems: 1000 },
    ),
  ),
  sha256: doc('SHA-256 of the PNG bytes, lower-case hex.', Type.String({ pattern: '^[0-9a-f]{64}$' })),
  ...BLACKED_OUT,
  ms: doc('Milliseconds the capture took.', Type.Number({ minimum: 0 })),
  detail: Type.Optional(
    doc(
      'How the driver read the pixels, for logs and the user (free text naming the ' +
        "platform's way, e.g. the API that ran and the fallback it took).",
      Str(200),
    ),
  ),
});
export type CaptureResult = Static<typeof CaptureResult>;

/** One line of recognized text; `bounds` in screen pixels. */
export const OcrLine = Type.Object({
  text: doc('The text recognized.', Str(LIMITS.actValue)),
  bounds: doc('Where it is on screen.', Rect),
  confidence: doc('The recognizer\'s confidence, 0 to 100.', Type.Number()),
});
export type OcrLine = Static<typeof OcrLine>;
export const OcrParams = Type.Object({ window: doc('Window handle.', Id) }, Strict);
export type OcrParams = Static<typeof OcrParams>;
export const OcrResult = Type.Object({
  lines: doc('Lines of text, top to bottom.', Type.Array(OcrLine, { maxItems: LIMITS.items })),
  geometry: doc('The capture the text was read from; the image itself never leaves the driver.', CaptureGeometry),
  ...BLACKED_OUT,
  ms: doc(
    'Milliseconds taken.',
    Type.Object({
      capture: doc('Capturing.', Type.Number({ minimum: 0 })),
      ocr: doc('Recognizing.', Type.Number({ minimum: 0 })),
    }),
  ),
});
export type OcrResult = Static<typeof OcrResult>;

export const PointerParams = Type.Object({
  action: doc('What to do at (x, y).', DocumentedLiterals({
    move: 'Move the pointer there.', click: 'Primary button click.', double_click: 'Two primary clicks.',
    right_click: 'Secondary button click.', middle_click: 'Middle button click.',
    drag: 'Press there, move to `to`, release.', scroll: 'Turn the wheel there: `direction`, `amount` steps.',
  })),
  x: doc('Screen x (see Coordinates).', Pixel),
  y: doc('Screen y.', Pixel),
  to: Type.Optional(doc('drag: where to release (screen coordinates).', Type.Tuple([Pixel, Pixel]))),
  direction: Type.Optional(doc('scroll: the direction.', DocumentedLiterals({ up: 'Content moves down (towards its start).', down: 'Towards its end.',
    left: 'Towards its left edge.', right: 'Towards its right edge.' }))),
  amount: Type.Optional(doc('scroll: wheel steps (default 3).', Type.Integer({ minimum: 1, maximum: 100 }))),
  window: doc('The window that must receive the input: the point (and `to`) must lie inside its current bounds and show that window, ' +
    'else `window_changed` and nothing is sent.', Id),
  expectBounds: Type.Optional(doc('The window\'s bounds as the caller last saw them; if they differ now, the driver fails with ' +
    '`window_changed` and sends nothing.', Rect)),
}, Strict);
export type PointerParams = Static<typeof PointerParams>;
export const PointerResult = Type.Object({
  method: doc('Always "synthetic".', Type.Literal('synthetic')),
  detail: doc('Human-readable note for logs.', Str(LIMITS.actValue)),
});
export type PointerResult = Static<typeof PointerResult>;

export const ClipboardParams = Type.Object(
  {
    action: doc(
      'What to do.',
      DocumentedLiterals({
        read: "Read the clipboard's text.",
        write: "Replace the clipboard's content with `text`.",
      }),
    ),
    text: Type.Optional(doc('write: the text.', Str(LIMITS.actValue))),
  },
  Strict,
);
export type ClipboardParams = Static<typeof ClipboardParams>;
export const ClipboardResult = Type.Object({
  text: Type.Optional(doc('read: the clipboard\'s text (absent when it holds none, or a secret).', Str(1_000_000))),
  method: doc('How the clipboard was reached, for logs.', Str(LIMITS.id)),
  owner: Type.Optional(doc('Who owns the clipboard now: the live process the platform proves holds it (pid, start token).', Type.Object({
    pid: Type.Optional(doc('The owning process, when the platform proves it.', Pid)),
    startToken: Type.Optional(doc('Its start token, as in WindowInfo.', StartToken)),
    secret: Type.Optional(doc('True when the owner marked the content as secret (a password manager\'s copy): its text is never read.', Type.Boolean())),
    unproven: Type.Optional(doc('True when the clipboard has an owner but no live process can be proven to hold it (then no text is sent).', Type.Boolean())),
  }))),
});
export type ClipboardResult = Static<typeof ClipboardResult>;

export const DisplayInfo = Type.Object({
  name: doc("The display's name as the platform reports it.", Str(LIMITS.id)),
  bounds: doc('Its rectangle in screen coordinates.', Rect),
  primary: doc('True for the primary display.', Type.Boolean()),
  scale: Type.Optional(
    doc(
      'Device pixels per screen unit (1 on most Linux and Windows setups where coordinates are pixels; 2 on a Retina ' +
        'display where they are points).',
      Type.Number({ exclusiveMinimum: 0, maximum: 16 }),
    ),
  ),
  dpi: Type.Optional(
    doc(
      "Dots per inch of the display's device pixels, when the platform reports it.",
      Type.Number({ exclusiveMinimum: 0, maximum: 10_000 }),
    ),
  ),
});
export type DisplayInfo = Static<typeof DisplayInfo>;
export const DisplaysResult = Type.Object({
  displays: doc('Every display.', Type.Array(DisplayInfo, { maxItems: 64 })),
});

export const EventBatch = Type.Object({
  events: doc('Events since the last batch.', Type.Array(Type.Object({
    type: doc('The kind of event (platform event name; the host counts events, it does not interpret them).', Str(LIMITS.id)),
    source: doc('Handle of the node or application the event came from.', Str(LIMITS.id)),
    detail: Type.Optional(doc('More about it, for logs.', Str())),
  }), { maxItems: LIMITS.items })),
});
export type EventBatch = Static<typeof EventBatch>;
export const LogParams = Type.Object({
  level: doc('"debug", "info", "warn" or "error".', Str(64)),
  message: doc('The message.', Str()),
});
export const CancelParams = Type.Object({
  id: doc('The id of the request to cancel.', Type.Union([Type.Integer(), Type.String({ maxLength: LIMITS.id })])),
}, Strict);

export const TextReadParams = Type.Object({
  id: doc('Node handle.', Id),
  start: Type.Optional(doc('First character (default 0).', Count())),
  end: Type.Optional(doc('One past the last character; the end of the text when absent.', Count())),
}, Strict);
export type TextReadParams = Static<typeof TextReadParams>;
export const TextReadResult = Type.Object({
  text: doc('The characters read.', Str(1_000_000)),
  start: doc('Offset of `text` in the full text.', Count()),
  length: doc('Full length of the text.', Count()),
  startLine: doc('1-based line on which `text` starts.', Count()),
  caret: Type.Optional(doc('Caret offset in the full text.', Count())),
  selection: Type.Optional(doc('Selected range [start, end) in the full text.', Type.Tuple([Count(), Count()]))),
});
export type TextReadResult = Static<typeof TextReadResult>;

export const TextFindParams = Type.Object({
  id: doc('Node handle.', Id),
  text: doc('What to look for (case-insensitive).', Type.String({ minLength: 1, maxLength: LIMITS.actValue })),
  limit: Type.Optional(doc('Most matches to return.', Type.Integer({ minimum: 1, maximum: 1000 }))),
}, Strict);
export type TextFindParams = Static<typeof TextFindParams>;
export const TextFindResult = Type.Object({
  matches: doc('The matches in text order.', Type.Array(Type.Object({
    offset: doc('Offset of the match in the full text.', Count()),
    line: doc('1-based line of the match.', Count()),
    snippet: doc('The match\'s line, cut around the match.', Str(1000)),
  }), { maxItems: 1000 })),
  length: doc('Full length of the text.', Count()),
  searched: doc('Characters searched (the driver stops at a cap on huge texts).', Count()),
});
export type TextFindResult = Static<typeof TextFindResult>;

/** What a declaration says about its method beyond its schemas. */
export interface MethodMeta {
  /** What the method does, for drivers in other languages (docs/protocol.md, the schema's `description`). */
  readonly doc: string;
  /**
   * True when the method changes something on the device (input, focus, the clipboard, a launch): the host sends it
   * only
   * through the acting pipeline (gate → audit → dispatch) and never resends it over a new link.
   */
  readonly acting: boolean;
  /** True when a driver may leave it out (it then does not list it in hello `methods`; the host answers `unsupported`). */
  readonly optional?: boolean;
  /** The protocol version that introduced it. */
  readonly since?: string;
}

/** One protocol method: its literal name, its params and result schemas and what it means. */
export interface MethodSpec<
  N extends string = string,
  P extends TSchema = TSchema,
  R extends TSchema = TSchema,
  A extends boolean = boolean,
> {
  readonly method: N;
  readonly params: P;
  readonly result: R;
  readonly doc: string;
  /** Kept as a literal type, so that ReadMethodName and ActingMethodName are derived from the declarations. */
  readonly acting: A;
  readonly optional: boolean;
  readonly since: string;
}

/** Declares one method as a value. */
export function defineMethod<N extends string, P extends TSchema, R extends TSchema, A extends boolean>(
  method: N,
  params: P,
  result: R,
  meta: MethodMeta & { readonly acting: A },
): MethodSpec<N, P, R, A> {
  return {
    method,
    params,
    result,
    doc: meta.doc,
    acting: meta.acting,
    optional: meta.optional ?? false,
    since: meta.since ?? '1.0.0',
  };
}

const READ = { acting: false } as const;
const ACTS = { acting: true } as const;
const OPTIONAL = { optional: true } as const;

/** Every method, once. */
export const METHODS = [
  defineMethod('hello', HelloParams, HelloResult, {
    ...READ,
    doc: "The handshake, the host's first call: the driver says which protocol version it speaks, what it is, which methods it implements and what it can do. Also the heartbeat of remote links.",
  }),
  defineMethod('apps.list', AppsListParams, AppsListResult, {
    ...READ,
    doc: 'Lists the running applications the driver can see, with their windows.',
  }),
  defineMethod('apps.launch', LaunchParams, LaunchResult, {
    ...ACTS,
    ...OPTIONAL,
    doc: 'Starts an application (never through a shell) and optionally waits for its first window.',
  }),
  defineMethod('process.identify', IdentifyParams, IdentifyResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'What the platform proves about a process where it runs (identity for reading, acting and the pid-reuse check); the policy decides from these facts alone.',
  }),
  defineMethod('apps.resolveLaunch', ResolveLaunchParams, ResolveLaunchResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'What a launch would run, resolved where it runs (symlinks, wrappers, launcher scripts, .desktop files, bundles, AUMIDs, packages), without starting anything.',
  }),
  defineMethod('apps.terminate', TerminateParams, TerminateResult, {
    ...ACTS,
    ...OPTIONAL,
    doc: 'Ends a process of the device, only while its start token still matches (another process that took the pid is never signalled).',
  }),
  defineMethod('windows.list', WindowsListParams, WindowsListResult, {
    ...READ,
    doc: 'Lists top-level windows, optionally of one application or process.',
  }),
  defineMethod('window.activate', WindowParams, Ok, {
    ...ACTS,
    ...OPTIONAL,
    doc: 'Raises a window and gives it the keyboard focus.',
  }),
  defineMethod('tree.snapshot', SnapshotParams, SnapshotResult, {
    ...READ,
    doc: "Reads a window's element tree (or a subtree), bounded by depth and node count.",
  }),
  defineMethod('tree.changed', ChangedParams, ChangedResult, {
    ...READ,
    ...OPTIONAL,
    doc: "Whether a window's tree may have changed since a read (its `mark`), by the events the driver received, after the app answered a round trip (events it sent before that arrived first). A host reuses a read that has not changed instead of reading again.",
  }),
  defineMethod('tree.find', FindParams, FindResult, {
    ...READ,
    ...OPTIONAL,
    doc: "Searches a window's tree for nodes by text and role, without returning the whole tree.",
  }),
  defineMethod('node.act', ActParams, ActResult, {
    ...ACTS,
    doc: 'Performs one operation on one element (see Operations), after the expectation and actionability checks; sends nothing when they fail.',
  }),
  defineMethod('events.subscribe', SubscribeParams, Ok, {
    ...READ,
    ...OPTIONAL,
    doc: 'Starts `events.batch` notifications (capability `events`).',
  }),
  defineMethod('ui.settle', SettleParams, SettleResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'Waits until the application stops changing (no event for `quietMs`), bounded by `timeoutMs`.',
  }),
  defineMethod('ui.highlight', HighlightParams, Ok, {
    ...READ,
    ...OPTIONAL,
    doc: "Shows where the agent acts, best effort: `on` with a window frames it and shows `status`; `on` without a window shows only the status; `on: false` removes both. Draws only the tool's own overlay (it changes nothing in any app); drivers that cannot draw answer `unsupported` and the host ignores any failure.",
  }),
  defineMethod('input.keys', KeysParams, KeysResult, {
    ...ACTS,
    ...OPTIONAL,
    doc: "Sends chords or types text into a window, which is activated first; the focused window's process is proven (`expect`) before anything is sent.",
  }),
  defineMethod('input.pointer', PointerParams, PointerResult, {
    ...ACTS,
    ...OPTIONAL,
    doc: 'Pointer input at screen coordinates, bound to a window whose position is checked first.',
  }),
  defineMethod('input.clipboard', ClipboardParams, ClipboardResult, {
    ...ACTS,
    ...OPTIONAL,
    doc: "Reads or writes the clipboard's text. A clipboard its owner marked secret is never read.",
  }),
  defineMethod('screen.ocr', OcrParams, OcrResult, {
    ...READ,
    ...OPTIONAL,
    doc: "Recognizes text in a window's pixels (capability `ocr`); the fallback when the tree says nothing.",
  }),
  defineMethod('screen.capture', CaptureParams, CaptureResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'Captures a window as a PNG (capability `capture`), other windows blacked out, optionally with Set-of-Mark labels.',
  }),
  defineMethod('screen.displays', NoParams, DisplaysResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'Lists the displays with their bounds, scale and DPI.',
  }),
  defineMethod('shutdown', NoParams, Ok, {
    ...READ,
    ...OPTIONAL,
    doc: 'Asks the driver to release what it holds and exit after answering.',
  }),
  defineMethod('list.find', ListFindParams, ListFindResult, {
    ...READ,
    ...OPTIONAL,
    doc: 'Searches one long list, tree or table (whose snapshot shows only the rows on screen) through all its rows, with a deadline; matches carry their index.',
  }),
  defineMethod('text.read', TextReadParams, TextReadResult, {
    ...READ,
    ...OPTIONAL,
    doc: "Reads characters [start, end) of an element's text, for text a snapshot cut. The driver clamps the range to the text and to a chunk it can read at once, and refuses a `password` node.",
  }),
  defineMethod('text.find', TextFindParams, TextFindResult, {
    ...READ,
    ...OPTIONAL,
    doc: "Finds case-insensitive matches of `text` in an element's whole text, with line and offset.",
  }),
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

/** The methods that only read the device (declared `acting: false`): all a read-only holder of a device may send. */
export type ReadMethodName = Extract<Spec, { acting: false }>['method'];
/** The methods that change the device (declared `acting: true`): only the acting pipeline sends them. */
export type ActingMethodName = Exclude<MethodName, ReadMethodName>;

/** Every method name, for validation of incoming requests. */
export const METHOD_NAMES: readonly MethodName[] = METHODS.map((m) => m.method);

/** Looks a method up by name (undefined for names not declared, including Object.prototype keys). */
export function methodSpec(name: string): MethodSpec | undefined {
  return METHOD_BY_NAME.get(name);
}
const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((m) => [m.method, m as MethodSpec]));

/**
 * True unless the method is declared with `acting: false`: an undeclared name counts as acting, so a dropped link
 * never resends it.
 */
export function isActing(name: string): boolean {
  return methodSpec(name)?.acting !== false;
}

/** Notifications either side sends, with their schemas and meaning. */
export const NOTIFICATIONS = {
  'events.batch': doc('Driver → host, after events.subscribe: what changed, batched.', EventBatch),
  'log': doc('Driver → host: a log line (the host logs it; it is never shown to a model).', LogParams),
  '$/cancel': doc('Either side: the caller gave up on request `id`; the serving side aborts its handler (stops sending input) and may ' +
    'still answer, which the caller drops.', CancelParams),
} as const;
/** Notifications a driver sends (and `$/cancel`, which the peer handles itself). */
export type Notifications = { [N in keyof typeof NOTIFICATIONS]: Static<(typeof NOTIFICATIONS)[N]> };
