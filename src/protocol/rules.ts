/**
 * The protocol's behaviour, rule by rule: what a driver must do, beyond the shape of its messages (the schemas say
 * that). Each rule has a stable id (`R-act-stale`) that docs/protocol.md prints, that the conformance kit cites in
 * every message it writes, and that a driver author can search the spec for. An id never changes meaning: a rule
 * that changes gets a new id.
 */

/** Where a rule belongs in the spec. */
export type RuleArea = 'framing' | 'handshake' | 'params' | 'handles' | 'acts' | 'reads' | 'lifetime';

/** One behavioural rule. */
export interface Rule {
  area: RuleArea;
  /** The methods it is about (printed under each method in the spec); none for rules about every message. */
  methods?: readonly string[];
  /** What the driver must do, in words a driver author implements from. */
  text: string;
}

const NODE_HANDLE_METHODS = ['node.act', 'tree.snapshot', 'list.find', 'text.read', 'text.find'] as const;
const WINDOW_METHODS = [
  'tree.snapshot',
  'tree.find',
  'window.activate',
  'input.keys',
  'screen.capture',
  'screen.ocr',
] as const;

/** Every rule, by id, in the order the spec prints them. */
export const RULES = {
  'R-frame-line': {
    area: 'framing',
    text:
      'Every message the driver writes is one JSON object on one line of stdout, ended by `\\n`. Nothing else ' +
      'goes to stdout: no log line, no banner, no message spread over several lines (pretty-printed) or cut in two. Logs go to stderr ' +
      'or the `log` notification.',
  },
  'R-frame-whitespace': {
    area: 'framing',
    text:
      'A request line may hold insignificant JSON whitespace (spaces, tabs, a trailing `\\r`) and ' +
      'escapes (`\\u00e9`, surrogate pairs `\\ud83d\\ude00`) anywhere JSON allows them; it is served like the same request written compactly.',
  },
  'R-frame-junk': {
    area: 'framing',
    text:
      'A line that is not JSON, or a JSON value that is not an object, never ends the driver: it is skipped, ' +
      'or answered with `{"id": null, "error": {"code": -32700}}` (not JSON) or `-32600` (not an object); the next line is served.',
  },
  'R-frame-oversize': {
    area: 'framing',
    text:
      'A line longer than the cap (16777216 bytes) is dropped unparsed, and the driver goes on with the ' +
      'next line. The cap counts the UTF-8 bytes of the line before decoding, not characters: a line of 9 million `é` (18 million bytes) ' +
      'is over it (the kit sends a line of 8389705 characters, 16779337 bytes). The driver may report the drop as `{"id": null, "error": {"code": -32600, "message": "Line of N bytes exceeds the ' +
      'limit."}}`; it never answers the id written on that line.',
  },
  'R-jsonrpc': {
    area: 'framing',
    text:
      'Every message carries `"jsonrpc": "2.0"`, the driver\'s own included. A request without it (or with ' +
      "another value) is refused with code -32600 (Invalid Request) under the request's id, and its method is not run.",
  },
  'R-id': {
    area: 'framing',
    text:
      "Each request is answered exactly once, under its own id, with the id's JSON type kept (`1` is not " +
      '`"1"`; a string id comes back character for character, non-BMP characters included). The driver never answers an id it was not ' +
      'sent. Answers may come in any order; a slow request does not hold back a quick one.',
  },
  'R-hello': {
    area: 'handshake',
    methods: ['hello'],
    text:
      '`hello` answers at any time with `protocolVersion` (semver, MAJOR 1), ' +
      '`platform`, `methods` (every method the driver serves, `hello` included, and only names this spec declares) and `capabilities`.',
  },
  'R-method-unknown': {
    area: 'params',
    text:
      'A method the driver does not serve, and any name this spec does not declare (`toString`, ' +
      '`__proto__`, `constructor` included), is answered with -32601 and `data.code` `"unsupported"`.',
  },
  'R-params-strict': {
    area: 'params',
    text:
      "Params that do not match the method's schema (an unknown field, a wrong type, a value beyond " +
      'its cap, a handle that is not a string of 1 to 1024 characters) are refused with -32602 and `data.code` `"invalid_params"`; nothing is run.',
  },
  'R-result-schema': {
    area: 'params',
    text:
      "Every result matches its method's result schema (extra fields allowed); every snapshot's nodes " +
      'use only the roles, states and ops of the vocabulary (a state `"ticked"` is a breach, not an extension). Every application error ' +
      'is code -32000 with `data.code` one of the error codes.',
  },
  'R-handle-window': {
    area: 'handles',
    methods: WINDOW_METHODS,
    text:
      'A `window` param that names no open window (a handle the driver never ' +
      'made, of any syntax, or one whose window closed) fails with `window_not_found`, nothing sent.',
  },
  'R-handle-node': {
    area: 'handles',
    methods: NODE_HANDLE_METHODS,
    text:
      'A node handle (`id`, `scope`, `container`) that names no live ' +
      'element (never made, of any syntax, or its element gone, its window closed included) fails with `stale_ref`, nothing sent: never ' +
      '`window_not_found`, `invalid_params` or `internal`.',
  },
  'R-handle-stale': {
    area: 'handles',
    methods: ['node.act'],
    text:
      'A handle never comes to name another element: when its element was ' +
      'replaced (a rebuilt widget, a recycled row, a new screen reusing an index), acting through it fails with `stale_ref` and the element ' +
      'that took its place receives nothing.',
  },
  'R-act-expect': {
    area: 'acts',
    methods: ['node.act'],
    text:
      'node.act checks `expect.role` and `expect.name` against the element as it is ' +
      'at dispatch, with or without the `act_identity` capability: a mismatch fails with `stale_ref`, nothing sent. The identity fields ' +
      '(`pid`, `startToken`, `appId`, `window`, `title`) are sent only to a driver that lists `act_identity`; that driver refuses a mismatch ' +
      'with `window_changed`, nothing sent. A driver without the capability may ignore them.',
  },
  'R-act-op': {
    area: 'acts',
    methods: ['node.act'],
    text:
      'node.act with an op the element does not list in `actions` fails with ' +
      '`unsupported` (`data.op`), nothing sent.',
  },
  'R-act-value': {
    area: 'acts',
    methods: ['node.act'],
    text:
      "A value the element cannot take (set_value of a number outside a slider's or " +
      "spin button's `range`, or not a number; select of an item it does not hold) fails with the application error -32000 whose " +
      '`data.code` is `"invalid_params"` (not the -32602 of a request that breaks the schema: the params were well formed), and the ' +
      'element keeps its value: never clamped silently.',
  },
  'R-act-effect': {
    area: 'acts',
    methods: ['node.act'],
    text:
      'A node.act result means the op was carried out: click runs the command once ' +
      '(a counter counts one), set_value leaves exactly that value, toggle flips `checked` exactly once. An op that could not be carried ' +
      "out is an error, never a result. `activated: true` is a claim that the element's command ran: on a toggle, that `checked` flipped; " +
      'a driver that cannot tell leaves `activated` out.',
  },
  'R-act-disabled': {
    area: 'acts',
    methods: ['node.act'],
    text:
      'With `actionable`, an element that stays disabled for the whole wait fails ' +
      'with `element_disabled` (details: `states`, `waitedMs`); one that becomes enabled within the wait is acted on.',
  },
  'R-keys-focus': {
    area: 'acts',
    methods: ['input.keys'],
    text:
      'input.keys with `expect.pid` sends keys only when that process owns the ' +
      'focused top-level window (after activating the window); otherwise it fails with `window_not_focused` and types nothing. A driver with ' +
      'the `background_input` capability sends to the window itself and is exempt.',
  },
  'R-read-snapshot': {
    area: 'reads',
    methods: ['tree.snapshot'],
    text:
      "tree.snapshot of a listed window answers its tree: the root's `id` " +
      'is the window handle, every node a handle unique in the answer; a `password` node never carries its text in `value`, and ' +
      'text.read of it fails with `permission_denied`. Handles are strings (1 to 1024 characters) the host treats as opaque: never ' +
      'numbers, objects or null. `depth: 0` reads the start node alone (its `childCount`, no `children`). A window always has a ' +
      "positive `pid`: its app's process; a window with no process of its own (in memory, recorded) keeps the one it was made or " +
      "recorded with, or the driver's own.",
  },
  'R-read-find': {
    area: 'reads',
    methods: ['tree.find', 'list.find'],
    text:
      'tree.find and list.find answer only nodes whose name, value or ' +
      'description hold the text (case-insensitive); list.find searches every row of the container, those not on screen included, or says ' +
      '`complete: false`.',
  },
  'R-identity': {
    area: 'reads',
    methods: ['process.identify', 'apps.terminate', 'apps.resolveLaunch'],
    text:
      'Each identity method a ' +
      'driver lists answers for a process and a command that do not exist: process.identify `gone: true` (or `app_not_found`), ' +
      'apps.terminate `ended: false` (signalling no one), apps.resolveLaunch a resolution or `app_not_found` (starting nothing).',
  },
  'R-settle': {
    area: 'reads',
    methods: ['ui.settle'],
    text:
      "ui.settle answers once no event came for `quietMs` (absent: the driver's quiet time for the app), or at `timeoutMs` with " +
      '`settled: false`; never later than `timeoutMs` plus a read. The quiet period starts when the request arrives: a driver that ' +
      'sees no event at all (or has no events) answers `settled: true` after `quietMs` (with `events: 0`).',
  },
  'R-cancel': {
    area: 'lifetime',
    text:
      '`$/cancel {id}` makes a request still being served end soon: it is answered (any answer) or dropped, ' +
      'and the driver goes on serving others.',
  },
  'R-eof': {
    area: 'lifetime',
    text: 'When stdin ends, the driver exits (within a few seconds), whatever it was doing.',
  },
} as const satisfies Record<string, Rule>;

/** A rule id. */
export type RuleId = keyof typeof RULES;

/** Every rule id, in spec order. */
export const RULE_IDS = Object.keys(RULES) as RuleId[];

/** What the spec calls each area. */
export const AREA_TITLES: Readonly<Record<RuleArea, string>> = {
  framing: 'Framing',
  handshake: 'Handshake',
  params: 'Params and results',
  handles: 'Handles',
  acts: 'Acts',
  reads: 'Reads',
  lifetime: 'Lifetime',
};

/** The rules about one method, for its section of the spec. */
export function rulesOf(method: string): RuleId[] {
  return RULE_IDS.filter((id) => ((RULES[id] as Rule).methods ?? []).includes(method));
}
