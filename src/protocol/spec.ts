/**
 * docs/protocol.md, the readable spec a driver author works from, generated from the same values as the JSON
 * Schema (schema.ts): the method declarations, the vocabulary, the error codes and the caps. The prose sections
 * below say what no schema can (framing, handshake, handles, coordinates, cancellation); every table is derived.
 * `npm run schema` writes it; a unit test fails when the committed file differs.
 */
import { CELL_ADDRESS_PATTERN, cellAddress } from './cells.js';
import { ERROR_CODES, REMEDIES } from './errors.js';
import { DEFAULT_MAX_LINE_BYTES } from './framing.js';
import { MODIFIERS, NAMED_KEYS } from './keys.js';
import { CAPABILITY_DOCS, LIMITS, METHODS, NOTIFICATIONS, PROTOCOL_VERSION } from './methods.js';
import { AppInfo, RawNode, WindowInfo } from './nodes.js';
import { AREA_TITLES, RULE_IDS, RULES, rulesOf, type Rule, type RuleArea } from './rules.js';
import { dialect2020 } from './dialect.js';
import { OP_DOCS, ROLE_DOCS, STATE_DOCS } from './vocabulary.js';

type Json = Record<string, unknown>;

/** Makes text safe inside a Markdown table cell. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A short type name for a JSON Schema node: `string ≤ 1024`, `integer 0..2147483648`, `RawNode[]`, `one of: a, b`. */
function typeOf(s: Json): string {
  if (typeof s['$ref'] === 'string' || s['$id'] === 'RawNode') return 'RawNode';
  if (Array.isArray(s['anyOf'])) {
    const options = s['anyOf'] as Json[];
    if (options.every((o) => o['const'] !== undefined)) {
      if (options.length > 12) return named(options);
      return options.map((o) => `"${String(o['const'])}"`).join(' | ');
    }
    return options.map(typeOf).join(' or ');
  }
  if (s['const'] !== undefined) return `"${String(s['const'])}"`;
  switch (s['type']) {
    case 'string': {
      const parts = ['string'];
      if (typeof s['pattern'] === 'string') parts.push(`matching \`${s['pattern']}\``);
      if (typeof s['maxLength'] === 'number') parts.push(`≤ ${s['maxLength']}`);
      return parts.join(' ');
    }
    case 'integer':
    case 'number': {
      const lo =
        s['minimum'] ?? (s['exclusiveMinimum'] !== undefined ? `>${String(s['exclusiveMinimum'])}` : undefined);
      const hi = s['maximum'];
      return (
        `${String(s['type'])}` +
        `${lo !== undefined || hi !== undefined ? ` ${String(lo ?? '')}..${String(hi ?? '')}` : ''}`
      );
    }
    case 'boolean': return 'boolean';
    case 'array': {
      if (Array.isArray(s['prefixItems'])) {
        const items = s['prefixItems'] as Json[];
        return `exactly ${items.length}: [${items.map(typeOf).join(', ')}]`;
      }
      const items = s['items'] as Json | undefined;
      const max = typeof s['maxItems'] === 'number' ? ` (≤ ${s['maxItems']})` : '';
      return `${items ? wrap(typeOf(items)) : 'any'}[]${max}`;
    }
    case 'object':
      if (s['properties']) return 'object';
      return s['patternProperties'] || s['additionalProperties']
        ? 'map of string → ' + typeOf((Object.values((s['patternProperties'] ?? {}) as Json)[0] as Json) ?? {})
        : 'object';
    default: return 'any';
  }
}
/** Which vocabulary a long literal union is (it is listed once, in its own section). */
function named(options: Json[]): string {
  const values = new Set(options.map((o) => String(o['const'])));
  if (values.has('checkbox')) return 'Role';
  if (values.has('focused')) return 'State';
  if (values.has('drag_to')) return 'Op';
  if (values.has('ArrowLeft')) return 'named key (see Keys)';
  return options.map((o) => `"${String(o['const'])}"`).join(' | ');
}
const wrap = (t: string): string => (t.includes(' ') ? `(${t})` : t);

/** The rows of a field table for an object schema, nested objects flattened as `a.b`. */
function fieldRows(s: Json, prefix = ''): string[] {
  const props = (s['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((s['required'] ?? []) as string[]);
  const rows: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const path = `${prefix}${name}`;
    const req = required.has(name) ? 'yes' : '';
    rows.push(`| \`${path}\` | ${cell(typeOf(p))} | ${req} | ${cell(String(p['description'] ?? ''))} |`);
    const inner = p['type'] === 'array' ? (p['items'] as Json | undefined) : p;
    if (inner && inner['type'] === 'object' && inner['properties'] && inner['$id'] !== 'RawNode')
      rows.push(...fieldRows(inner, `${path}${p['type'] === 'array' ? '[]' : ''}.`));
  }
  return rows;
}

/** A field table, or a note when the object has no fields. */
function fieldTable(s: Json): string {
  const rows = fieldRows(s);
  if (rows.length === 0) return typeOf(s) === 'RawNode' ? 'A `RawNode`.\n' : 'No fields: `{}`.\n';
  return ['| Field | Type | Required | Meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

/** A two-column table of a vocabulary. */
function valueTable(head: string, docs: Record<string, string>): string {
  return (
    [`| ${head} | Meaning |`, '|---|---|', ...Object.entries(docs).map(([v, d]) => `| \`${v}\` | ${cell(d)} |`)].join(
      '\n',
    ) + '\n'
  );
}

/** A TypeBox schema as the published JSON Schema has it (draft 2020-12 tuples). */
const plain = (s: unknown): Json => dialect2020(JSON.parse(JSON.stringify(s))) as Json;

/** The whole document. */
export function protocolMarkdown(): string {
  const out: string[] = [];
  const h = (level: number, title: string): void => { out.push(`${'#'.repeat(level)} ${title}\n`); };
  const p = (text: string): void => { out.push(`${text}\n`); };

  h(1, `computer-use driver protocol ${PROTOCOL_VERSION}`);
  p('Generated from `src/protocol/` by `npm run schema` (with `docs/protocol.schema.json`, the same declarations as JSON ' +
    'Schema draft 2020-12); do not edit. A driver enumerates, reads and acts on one device\'s user interface and reports ' +
    'facts; it makes no policy decision and writes no advice for a model: the host does both. Nothing on the wire names ' +
    'a platform: each driver maps its platform onto the vocabulary below.');

  h(2, 'Framing');
  p(
    "JSON-RPC 2.0 over the driver process's stdin (host → driver) and stdout (driver → host), one JSON object per line, " +
      'UTF-8, each line ended by `\\n` (a trailing `\\r` is ignored). Every message carries `"jsonrpc": "2.0"`. No batches. ' +
      (`A line may be at most ${DEFAULT_MAX_LINE_BYTES} bytes of UTF-8 (counted before decoding, not in ` +
        `characters); a longer `) +
      'one is dropped unparsed and reported. A line that is not JSON is logged and ' +
      'skipped, never fatal; logs go to stderr (or the `log` notification), never to stdout. Requests carry `id` (integer ' +
      'or string), `method` and `params` (an object); answers may come in any order. When stdin ends, the driver exits. ' +
      'The rules below (Behaviour) say what each of these means exactly; the conformance kit cites their ids.',
  );
  p('- Params are strict: an unknown field, a wrong type or a value beyond its cap is refused with JSON-RPC code -32602 and ' +
    '`data.code` `"invalid_params"`; the handler is not run.\n' +
    '- A method the driver does not implement is answered with -32601 and `data.code` `"unsupported"`.\n' +
    '- Results must match their schema (extra fields are allowed, so a newer driver can add facts); a result that does ' +
    'not is treated by the host as an `internal` error and never used.\n' +
    '- Application errors use code -32000 with `data.code` one of the error codes below, plus facts in `data` (never ' +
    'secrets). `message` says what happened in plain words; the host writes the advice.\n' +
    '- Strings are Unicode; text from an application is data (newlines, control characters, any script) and is never ' +
    'interpreted by either side.');

  h(2, 'Handshake');
  p(
    "The host's first request is `hello`. The driver answers with `protocolVersion` (semver; this document is " +
      (`${PROTOCOL_VERSION}), \`platform\`, its own \`version\`, \`methods\` (every method it implements, ` +
        `\`hello\` included), `) +
      '`capabilities` and `permissions`. The host refuses a driver whose MAJOR version differs (error `protocol_mismatch`, ' +
      'nothing else is sent), and never calls a method the driver did not list: it answers `unsupported` itself. A MINOR ' +
      'version adds methods or optional fields only. Methods marked optional below may be left out; the others are the ' +
      'core every driver implements. `hello` is also the heartbeat of remote links (a driver answers it at any time).',
  );

  h(2, 'Identity');
  p('The three identity methods are optional: `process.identify` (what the platform proves about a process), ' +
    '`apps.resolveLaunch` (what a launch would run) and `apps.terminate` (end a process while its start token matches). A ' +
    'driver lists only those it implements; the conformance kit (rule `wire.identity`) passes a driver that lists none and ' +
    'holds one that lists them to a process and a command that do not exist: identify answers `gone: true`, terminate ' +
    '`ended: false`, resolve a resolution or `app_not_found`. Without them the host proves less, never more: without ' +
    '`process.identify` nothing proves what an app is, so no allow entry matches it and each act asks (or is refused where ' +
    'no one can be asked); without `apps.resolveLaunch` a launch is judged by its command words alone; without ' +
    '`apps.terminate` a started program the policy then denies is left running, and the model is told.');

  h(2, 'Handles');
  p(
    'Handles (`id` of a node, `window`, `container`, `scope`) are opaque strings of at most ' +
      (`${LIMITS.id} characters, made by the driver and only compared or passed back by the host. A handle ` +
        `names one element `) +
      'for as long as that element lives; it must never come to name another element (a recycled list row, a new screen ' +
      'reusing an index): when the element is gone or the handle no longer resolves to the same element, the driver ' +
      "fails with `stale_ref` and sends nothing. A window's handle is the handle of its root node. Handles need not " +
      'survive a driver restart. `expect` in node.act lets the host state the role and name it expects at a handle.',
  );
  p(
    'Which error for which handle: a `window` param that names no open window is `window_not_found` ([`R-handle-window`](#R-handle-window)); ' +
      'a node handle (`id`, `scope`, `container`) that names no live element is `stale_ref` ([`R-handle-node`](#R-handle-node)), whether the ' +
      'driver never made it, its element is gone or its window closed; a handle that is not a string of 1 to ' +
      String(LIMITS.id) +
      ' characters is malformed: -32602 `invalid_params` ([`R-params-strict`](#R-params-strict)). A string the driver could never have made ' +
      '(another syntax) is unknown, not malformed. `expect.role` and `expect.name` are checked by every driver, with or without the ' +
      '`act_identity` capability ([`R-act-expect`](#R-act-expect)).',
  );

  h(2, 'Coordinates');
  p('Every rectangle is `[x, y, width, height]` and every point `[x, y]`, in screen coordinates: the unit the platform\'s ' +
    'own input and window APIs use for the whole desktop, with the origin at the top left of the primary display; x grows ' +
    'right and y down; negative values are other displays left of or above it. That unit is device pixels on a Linux desktop and on ' +
    'per-monitor DPI-aware Windows processes, points on macOS, pixels on Android, CSS pixels of the viewport for a web ' +
    'page. screen.displays says per display how many device pixels one unit is (`scale`, 2 on a Retina display) and the ' +
    'DPI. A capture\'s `geometry.scale` is image pixels per screen unit (below 1 when scaled down, above 1 on a HiDPI ' +
    'display): screen = geometry.screen origin + image pixel / scale.');

  h(2, 'Cancellation and time');
  p('Either side may send the notification `$/cancel {id}` for a request it gave up on. The serving side aborts the ' +
    'handler: it stops sending input at once (between two key events, before a pointer release) and may still answer, ' +
    'which the caller drops. The host times every request out on its own (by default 15 s, longer for acts with an ' +
    'actionability wait) and then cancels it; a driver that stays stuck is restarted. Every wait the protocol names ' +
    `(\`timeoutMs\`, \`quietMs\`, \`deadlineMs\`) is in milliseconds, at most ${LIMITS.timeoutMs}.`);

  h(2, 'Behaviour');
  p('What a driver must do, rule by rule. The schemas say what a message looks like; these say what it must mean. ' +
    'Each rule has a stable id: `computer-use doctor --conformance` names it in every failure (docs/conformance.md), and ' +
    'each method below lists the rules about it.');
  for (const area of Object.keys(AREA_TITLES) as RuleArea[]) {
    const ids = RULE_IDS.filter((id) => (RULES[id] as Rule).area === area);
    if (ids.length === 0) continue;
    h(3, AREA_TITLES[area]);
    p(
      [
        '| Rule | What the driver must do |',
        '|---|---|',
        ...ids.map((id) => `| <a id="${id}"></a>\`${id}\` | ${cell(RULES[id].text)} |`),
      ].join('\n') + '\n',
    );
  }

  h(2, 'Caps');
  p(
    ['| Cap | Value |', '|---|---|', ...Object.entries(LIMITS).map(([k, v]) => `| \`${k}\` | ${v} |`)].join('\n') +
      '\n',
  );

  h(2, 'Cell addresses');
  p(
    'One grammar for every table address on the wire (`RawNode.cell.address`, select values): a column in spreadsheet ' +
      `letters (A … Z, AA … ZZ, AAA …, 1 to 3 letters, either case) followed by the 1-based row (1 to 7 digits, no leading ` +
      (`zero): \`${CELL_ADDRESS_PATTERN}\`. Column 0 is A, 25 is Z, 26 is AA, 16383 is ` +
        `${cellAddress(0, 16383).replace(/1$/, '')}; `) +
      (`0-based (row 6, column 1) is \`${cellAddress(6, 1)}\`. A range is two addresses joined by \`:\` ` +
        `(\`B1:B3\`), corners in `) +
      'any order; it covers the rectangle between them. `RawNode.cell` carries the 0-based row and column in every case; ' +
      '`address` only when the application shows that address itself (a spreadsheet).',
  );

  h(2, 'Keys');
  p(
    'input.keys chords name keys the W3C/DOM way (`KeyboardEvent.key`): a named key below, or the one character the key ' +
      'types (`a`, `A`, `1`, `+`, `é`, and `" "` for the space bar). Modifiers are ' +
      MODIFIERS.map((m) => `\`${m}\``).join(', ') +
      "; `Primary` is the platform's shortcut modifier: Command on macOS, Control everywhere else. The host parses what the " +
      'model writes (`ctrl+s`, `Return`) into these chords; each driver maps the names onto its own key codes and must map ' +
      'every one. Named keys: ' +
      NAMED_KEYS.map((k) => `\`${k}\``).join(', ') +
      '.',
  );

  h(2, 'Roles');
  p('Each node has one unified role. A driver maps its native roles onto these (each driver keeps its own map) and ' +
    'reports anything it cannot place as `generic`; `nativeRole` may carry the platform\'s name for debugging only.');
  p(valueTable('Role', ROLE_DOCS));

  h(2, 'States');
  p(valueTable('State', STATE_DOCS));

  h(2, 'Operations');
  p('`RawNode.actions` lists the operations an element really supports; node.act with another op fails with `unsupported`. ' +
    '`value` in node.act params means, per op:');
  p(valueTable('Op', OP_DOCS));

  h(2, 'Capabilities');
  p(valueTable('Capability', CAPABILITY_DOCS));

  h(2, 'Error codes');
  p('In `error.data.code`. "Host only" codes are what the host answers its own callers; a driver never sends them.');
  p(valueTable('Code', ERROR_CODES));
  p('`error.data.remedy` may list what the caller can do next (names below). A driver states facts and remedies; the ' +
    'host writes the advice in its own tools\' names, so a driver\'s message never names them.');
  p(valueTable('Remedy', REMEDIES));

  h(2, 'Types');
  for (const [name, schema] of [['RawNode', RawNode], ['WindowInfo', WindowInfo], ['AppInfo', AppInfo]] as const) {
    h(3, name);
    const s = plain(schema);
    p(String(s['description'] ?? ''));
    p(fieldTable(s));
  }

  h(2, 'Methods');
  p('`acting` methods change something on the device: the host sends them only after its policy allowed the step, and ' +
    'never resends one over a new link (it may have happened). Optional methods may be left out of `methods`.');
  for (const m of METHODS) {
    h(3, `\`${m.method}\``);
    p(`${m.doc}\n\n${m.acting ? 'Acting' : 'Read-only'} · ${m.optional ? 'optional' : 'core'} · since ${m.since}`);
    const rules = rulesOf(m.method);
    if (rules.length) p(`**Rules**: ${rules.map((id) => `[\`${id}\`](#${id})`).join(', ')}`);
    p('**Params**\n');
    p(fieldTable(plain(m.params)));
    p('**Result**\n');
    p(fieldTable(plain(m.result)));
  }

  h(2, 'Notifications');
  for (const [name, schema] of Object.entries(NOTIFICATIONS)) {
    h(3, `\`${name}\``);
    const s = plain(schema);
    p(String(s['description'] ?? ''));
    p(fieldTable(s));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
