/**
 * Reads AT-SPI elements into RawNodes. All of a node's calls are issued at once and each child is walked as
 * soon as it is known (not level by level): the notes measured this 4-5x faster than one call at a time.
 */
import { cleanName } from '../../common/names.js';
import type { Op, RawNode, Role, State } from '../../../protocol/nodes.js';
import { LIMITS } from '../../../protocol/methods.js';
import { roleFromAtspi } from './roles.js';
import { ATSPI_ROLES, ATSPI_STATES } from '../bus/atspi-constants.generated.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { isGone } from '../bus/bus.js';
import { showingHeard } from '../bus/showing-heard.js';
import { visibleSlice } from './visible.js';
import { readText as readTextFacts, TextBudget, wantsText } from './text.js';

const ACC = 'org.a11y.atspi.Accessible';
/** Children read per node; huge managed lists (tables, Chromium lists) are cut here and counted. */
export const MAX_CHILDREN = 200;
/**
 * A node reporting more children than this is never asked `GetChildren`: LibreOffice's sheet reports 2³¹−1,
 * and one such call wedges the app for minutes. Its first MAX_CHILDREN children are read by index instead.
 */
export const MAX_LIST_CHILDREN = 500;
/** AT-SPI's null reference (GetChildAtIndex past the end). */
const NULL_PATH = '/org/a11y/atspi/null';

/** Encodes a native handle as "<bus name><object path>". */
export function handleOf(t: Target): string { return t.dest + t.path; }
/** Decodes a handle made by handleOf. */
export function targetOf(handle: string): Target {
  const i = typeof handle === 'string' ? handle.indexOf('/') : -1;
  // A malformed handle names nothing that exists: the same answer as a handle of a closed element.
  if (i <= 0)
    throw Object.assign(new Error(`no element has the handle ${JSON.stringify(handle)}`), {
      type: 'org.freedesktop.DBus.Error.UnknownObject',
    });
  return { dest: handle.slice(0, i), path: handle.slice(i) };
}

/** Decodes AT-SPI's two 32-bit state words into names. */
export function decodeStates(words: number[]): Set<string> {
  const out = new Set<string>();
  words.forEach((w, wi) => {
    for (let bit = 0; bit < 32; bit++)
      if ((w >>> bit) & 1) out.add(ATSPI_STATES[wi * 32 + bit] ?? `state${wi * 32 + bit}`);
  });
  return out;
}

/** Facts read about one element, before mapping. */
export interface ElementInfo {
  target: Target;
  atspiRole: string;
  name: string;
  description: string;
  accessibleId: string;
  states: Set<string>;
  interfaces: Set<string>;
  children: Target[];
  childCount: number;
  /** Index of `children[0]` in the full child list when only a slice was read (a long list's rows on screen). */
  childStart?: number;
  /** True when `children` are the ones on screen (found from bounds), not just the first ones by index. */
  childVisible?: boolean;
  text?: string;
  textLength?: number;
  /** A non-editable combo box's chosen item (read from its list child's Selection: Gecko, Chromium). */
  choice?: string;
  /** A table cell drawn by a toggle renderer (its Action "toggle"): a check column's cell, checked or not. */
  toggles?: boolean;
  /** Offset where `text` starts in the full text (a terminal's tail). */
  textStart?: number;
  caret?: number;
  selection?: [number, number];
  value?: { current: number; min: number; max: number; step: number };
  bounds?: [number, number, number, number];
  /** A `frame` whose parent is not the application: no window of its own (Qt's QFrame, kcalc's display). */
  innerFrame?: boolean;
}

/** Options of a tree read. */
export interface ReadOptions {
  depth?: number;
  maxNodes?: number;
  /** Read screen bounds of each node (one more call per node). */
  bounds?: boolean;
  /** Prune subtrees the toolkit reports as not showing (when the parent is showing). */
  pruneHidden?: boolean;
  /**
   * The start is a node below the window's root (a scoped read). When it does not show, nothing under it does and
   * nothing is pruned as hidden: its subtree was asked for (find reads a tab page not shown, whose widgets GTK 3
   * sizes 0×0, so the size rule cut them all).
   */
  scoped?: boolean;
  /** The text budget of this read (one per snapshot); a fresh one when absent. */
  text?: TextBudget;
  /** Filled with the handles of the nodes read that do not show on screen (a later partial re-read prunes by it). */
  notShowing?: Set<string>;
}

/**
 * Whether a frame sits inside another element rather than under its application. Qt reports a QFrame (kcalc's
 * result display) as role frame, and it printed as `window "0"` inside the calculator's window.
 */
async function isInnerFrame(bus: A11yBus, parent: unknown): Promise<boolean> {
  if (!Array.isArray(parent) || typeof parent[1] !== 'string' || parent[1] === '/org/a11y/atspi/null') return false;
  // An application's root is the same object for the app's whole life: its answer is kept (each read of a window's
  // root asks it).
  const key = String(parent[0]) + parent[1];
  if (parent[1] === APP_ROOT_PATH && appRoots.has(key)) return false;
  const [role] = await bus.call({ dest: String(parent[0]), path: parent[1] }, ACC, 'GetRole').catch(() => [undefined]);
  const app = role !== undefined && ATSPI_ROLES[Number(role)] === 'application';
  if (app && parent[1] === APP_ROOT_PATH) {
    if (appRoots.size >= MAX_APP_ROOTS) appRoots.delete(appRoots.values().next().value!);
    appRoots.add(key);
  }
  return role !== undefined && !app;
}
/** Where every application's root object sits on its bus name. */
const APP_ROOT_PATH = '/org/a11y/atspi/accessible/root';
/** Application roots that answered role application (bounded: apps come and go). */
const appRoots = new Set<string>();
const MAX_APP_ROOTS = 256;

/** Reads the core facts of one element with concurrent calls. */
export async function readElement(
  bus: A11yBus,
  t: Target,
  opts: {
    bounds?: boolean; children?: boolean; text?: TextBudget;
    /**
     * How many children a read of this element a moment ago saw (a patched re-read's kept tree): when that was a
     * short list, the list is asked beside the element's facts, and used when ChildCount still says a short list.
     */
    kidsHint?: number;
  } = {},
): Promise<ElementInfo> {
  const propsRead = bus.getAll(t, ACC);
  const ifacesRead = bus.call(t, ACC, 'GetInterfaces');
  const early = opts.children !== false && opts.kidsHint !== undefined && opts.kidsHint <= MAX_CHILDREN
    ? bus.call(t, ACC, 'GetChildren').then(([list]) => ((list ?? []) as [string, string][]), () => undefined)
    : undefined;
  // The child list is asked for only once ChildCount says it is bounded (huge tables: by coordinate, table.ts;
  // long lists: the rows on screen, visible.ts). It is read beside the facts that need the element's kind (enrich).
  const kidsRead = opts.children === false
    ? Promise.resolve({ children: [] as Target[], count: 0, start: 0, visible: false })
    : Promise.all([propsRead, ifacesRead]).then(async ([p, i]) => {
      const n = Number(p['ChildCount'] ?? 0);
      if (readByCoordinate(new Set(i[0] as string[]), n))
        return { children: [] as Target[], count: n, start: 0, visible: false };
      // Asked early, and the count says the same call would have been made: its answer stands.
      const list = n >= 0 && n <= MAX_CHILDREN ? await early : undefined;
      if (list) {
        const children = list.map(([dest, path]) => ({ dest, path }));
        return { children, count: Math.max(n, children.length), start: 0, visible: false };
      }
      return childrenOf(bus, t, n);
    });
  kidsRead.catch(() => undefined); // answered below, once the element's own facts are in
  const [role, props, stateWords, ifaces] = await Promise.all([
    bus.call(t, ACC, 'GetRole'),
    propsRead,
    bus.call(t, ACC, 'GetState'),
    ifacesRead,
  ]);
  const interfaces = new Set<string>(ifaces[0] as string[]);
  const states = decodeStates(stateWords[0] as number[]);
  const atspiRole = ATSPI_ROLES[Number(role[0])] ?? 'unknown';
  showingHeard.apply(handleOf(t), states, atspiRole);
  const info: ElementInfo = {
    target: t,
    atspiRole,
    // A page can name an element after 1 MB of its text (Chromium's static text): capped to what the protocol
    // carries, so the window stays readable.
    name: String(props['Name'] ?? '').slice(0, LIMITS.text),
    description: String(props['Description'] ?? '').slice(0, LIMITS.text),
    accessibleId: String(props['AccessibleId'] ?? '').slice(0, LIMITS.id),
    states, interfaces,
    children: [],
    childCount: Number(props['ChildCount'] ?? 0),
  };
  const filled = kidsRead.then((kids) => {
    info.children = kids.children;
    if (opts.children !== false) info.childCount = kids.count;
    if (kids.start > 0) info.childStart = kids.start;
    if (kids.visible) info.childVisible = true;
  });
  // A combo box's choice is read through its list child: its children first (readComboChoice).
  const enriched = info.atspiRole === 'combo box'
    ? filled.then(() => enrich(bus, info, opts.bounds ?? false, opts.text))
    : enrich(bus, info, opts.bounds ?? false, opts.text);
  await Promise.all([
    enriched,
    info.atspiRole === 'frame'
      ? isInnerFrame(bus, props['Parent']).then((inner) => {
          if (inner) info.innerFrame = true;
        })
      : undefined,
    filled,
  ]);
  return info;
}

/**
 * True when a table's child list must not be asked for at all (not even its first children by index): it is
 * read by coordinate through readGrid instead.
 */
export function readByCoordinate(interfaces: ReadonlySet<string>, childCount: number): boolean {
  return interfaces.has('org.a11y.atspi.Table') && childCount >= COORDINATE_MIN_CHILDREN;
}

/**
 * Tables with at least this many children are spreadsheet-sized (Calc reports 2³¹−1) and read by coordinate;
 * smaller long tables (a TreeView of 20,000 rows) are read as the rows on screen by child index (visible.ts).
 */
export const COORDINATE_MIN_CHILDREN = 1_000_000;

/**
 * The children of a node that reports `count` children (negative: unknown, read live). Up to MAX_CHILDREN
 * they come from one `GetChildren`. Above, the ones on screen (visibleSlice: bounds, by index), or where the
 * geometry says nothing, the first MAX_CHILDREN by index; `start` says where the slice begins. Above
 * MAX_LIST_CHILDREN no call ever asks an app for the whole list.
 */
export async function childrenOf(
  bus: A11yBus,
  t: Target,
  count: number,
): Promise<{ children: Target[]; count: number; start: number; visible?: boolean }> {
  if (!(count >= 0)) count = Number(await bus.getProp(t, ACC, 'ChildCount') ?? 0);
  if (count > MAX_CHILDREN) {
    const slice = await visibleSlice(bus, t, count, MAX_CHILDREN).catch(() => undefined);
    if (slice) return { children: slice.children, count, start: slice.start, visible: true };
  }
  if (count <= MAX_LIST_CHILDREN) {
    const [list] = await bus.call(t, ACC, 'GetChildren');
    const children = ((list ?? []) as [string, string][]).map(([dest, path]) => ({ dest, path }));
    return { children, count: Math.max(count, children.length), start: 0 };
  }
  const refs = await Promise.all(Array.from({ length: Math.min(count, MAX_CHILDREN) }, (_, i) =>
    bus.call(t, ACC, 'GetChildAtIndex', 'i', [i]).then(([ref]) => ref as [string, string] | undefined, (e: unknown) => {
      if (isGone(e)) return undefined;
      throw e;
    })));
  const children = refs
    .filter((r): r is [string, string] => !!r && r[1] !== NULL_PATH)
    .map(([dest, path]) => ({ dest, path }));
  return { children, count, start: 0 };
}

/** Reads the interface-specific facts (text, value, bounds) the core read does not cover. */
export async function enrich(bus: A11yBus, info: ElementInfo, bounds: boolean, text?: TextBudget): Promise<void> {
  const extra: Promise<void>[] = [];
  if (wantsText(info)) extra.push(readText(bus, info, text));
  if (info.interfaces.has('org.a11y.atspi.Value')) extra.push(readValue(bus, info));
  const combo = info.atspiRole === 'combo box' && !info.states.has('editable') && info.childCount <= 1;
  if (combo) extra.push(readComboChoice(bus, info));
  if (bounds && info.interfaces.has('org.a11y.atspi.Component')) extra.push(readBounds(bus, info));
  if (mayToggle(info)) extra.push(readToggles(bus, info));
  await Promise.all(extra);
}

/**
 * A nameless table cell with actions and no text: a toggle (a checklist's check column) or a picture. Only
 * its action names tell; an unchecked toggle cell otherwise reads as an empty cell (zenity --checklist printed
 * its fruit column only, and which boxes were checked never appeared).
 */
function mayToggle(info: ElementInfo): boolean {
  return (
    info.atspiRole === 'table cell' &&
    !info.name &&
    info.interfaces.has('org.a11y.atspi.Action') &&
    !info.interfaces.has('org.a11y.atspi.Text')
  );
}

async function readToggles(bus: A11yBus, info: ElementInfo): Promise<void> {
  try {
    const [actions] = await bus.call(info.target, 'org.a11y.atspi.Action', 'GetActions');
    if ((actions as [string, string, string][]).some(([n]) => n.toLowerCase() === 'toggle')) info.toggles = true;
  } catch { /* no action names: an ordinary cell */ }
}

/** Text interface facts (text.ts), bounded by the snapshot's budget. */
async function readText(bus: A11yBus, info: ElementInfo, budget?: TextBudget): Promise<void> {
  try {
    const r = await readTextFacts(bus, info, budget);
    if (!r) return;
    // Only embedded objects and spaces (a form paragraph holding a label and a field): no text of its own.
    if (r.text.trim() === '' && r.length <= r.text.length && !info.states.has('editable')) return;
    info.text = r.text;
    info.textLength = r.length;
    if (r.start > 0) info.textStart = r.start;
    if (r.caret !== undefined) info.caret = r.caret;
    if (r.selection) info.selection = r.selection;
  } catch { /* some widgets list Text but fail it; the name still describes them */ }
}

/** Characters of a combo's chosen item kept (an item name, not a document). */
const CHOICE_READ_LIMIT = 400;

/**
 * The chosen item of a combo box whose list child has a Selection (Firefox and Chromium `<select>`): their
 * combo's own name is the label and its list is hidden while closed, so the choice is read here.
 */
async function readComboChoice(bus: A11yBus, info: ElementInfo): Promise<void> {
  try {
    // Gecko folds an ARIA combobox's text into the combo itself: no child, the choice is its text.
    if (info.childCount === 0) {
      if (!info.interfaces.has('org.a11y.atspi.Text')) return;
      const shown = await shownText(bus, info.target, CHOICE_READ_LIMIT);
      if (shown) info.choice = shown;
      return;
    }
    const known: Target | undefined = info.children[0];
    const list: Target =
      known ??
      (await bus
        .call(info.target, ACC, 'GetChildAtIndex', 'i', [0])
        .then(([r]) => ({ dest: (r as [string, string])[0], path: (r as [string, string])[1] })));
    const [ifaces] = await bus.call(list, ACC, 'GetInterfaces');
    let name = (ifaces as string[]).includes(SELECTION) ? await selectedName(bus, list) : '';
    // An ARIA combobox built from an element holding its choice as text: that text is what it shows.
    if (!name && !(ifaces as string[]).includes(SELECTION)) {
      const [role] = await bus.call(list, ACC, 'GetRoleName');
      if (TEXT_LEAF_ROLES.test(String(role))) name = String(await bus.getProp(list, ACC, 'Name') ?? '').trim();
    }
    // GTK 3: the menu child selects only while open; the combo's own Selection holds the active item. Its name
    // is the choice unless the app named the combo (then the choice was nowhere in the snapshot).
    if (!name && info.interfaces.has(SELECTION)) name = await selectedName(bus, info.target);
    if (name) info.choice = name.slice(0, CHOICE_READ_LIMIT);
  } catch { /* no list or no selection: the combo shows its name only */ }
}

const SELECTION = 'org.a11y.atspi.Selection';

/**
 * The text an element shows, at most `limit` characters, without embedded-object characters. Gecko answers ""
 * to a GetText whose end lies past the text, so the end is the character count.
 */
export async function shownText(bus: A11yBus, t: Target, limit: number): Promise<string> {
  const count = Number(await bus.getProp(t, 'org.a11y.atspi.Text', 'CharacterCount').catch(() => 0) ?? 0);
  if (!(count > 0)) return '';
  const [text] = await bus.call(t, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, Math.min(count, limit)]);
  return String(text ?? '').replace(/\uFFFC/g, '').trim();
}
/** Roles of a text leaf (Chromium: static, Gecko: text leaf or label). */
const TEXT_LEAF_ROLES = /^(static|text|label)$/;

/** The name of the first selected child of a Selection, '' when none. */
async function selectedName(bus: A11yBus, t: Target): Promise<string> {
  const [[dest, path]] = await bus.call(t, SELECTION, 'GetSelectedChild', 'i', [0]) as [[string, string]];
  if (!path || path === NULL_PATH) return '';
  return String(await bus.getProp({ dest, path }, ACC, 'Name') ?? '');
}

async function readValue(bus: A11yBus, info: ElementInfo): Promise<void> {
  try {
    const all = await bus.getAll(info.target, 'org.a11y.atspi.Value');
    info.value = {
      current: Number(all['CurrentValue'] ?? 0), min: Number(all['MinimumValue'] ?? 0),
      max: Number(all['MaximumValue'] ?? 0), step: Number(all['MinimumIncrement'] ?? 0),
    };
  } catch { /* value-less Value implementations exist (GTK4 progress) */ }
}

/** The bounds of a read node: as read, else asked for (one GetExtents; GTK 3 snapshots read none); undefined when it has none. */
export async function boundsOfNode(
  bus: A11yBus,
  n: RawNode,
  asked?: BoundsAsked,
): Promise<[number, number, number, number] | undefined> {
  return n.bounds ?? asked?.get(n.id) ?? extentsOf(bus, targetOf(n.id));
}

/** Bounds asked ahead by handle (a patched re-read asks its decorations' bounds beside its own reads). */
export type BoundsAsked = ReadonlyMap<string, Promise<[number, number, number, number] | undefined>>;

/** Asks the bounds of `nodes` at once, by handle. */
export function askBounds(bus: A11yBus, nodes: readonly RawNode[]): BoundsAsked {
  return new Map(nodes.map((n) => [n.id, extentsOf(bus, targetOf(n.id))]));
}

/** An element's bounds on screen (one GetExtents); undefined when it has no area or cannot say. */
export async function extentsOf(bus: A11yBus, t: Target): Promise<[number, number, number, number] | undefined> {
  const ext = await bus.call(t, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0]).catch(() => undefined);
  const [x, y, w, h] = (ext?.[0] ?? []) as number[];
  return w && h ? [x ?? 0, y ?? 0, w, h] : undefined;
}

export async function readBounds(bus: A11yBus, info: ElementInfo): Promise<void> {
  try {
    const [ext] = await bus.call(info.target, 'org.a11y.atspi.Component', 'GetExtents', 'u', [0]);
    const [x = 0, y = 0, w = 0, h = 0] = ext as number[];
    // GTK 3 reports an unmapped window (a closed combo popup) at −2³¹: off any screen, so read as no area.
    const offScreen = [x, y, w, h].some((v) => Math.abs(v) > LIMITS.pixel);
    info.bounds = offScreen ? [0, 0, 0, 0] : [x, y, w, h];
  } catch { /* no geometry: leave unknown */ }
}

/**
 * AT-SPI states → unified states. `showingReliable` is false for toolkits that never set "showing" below the
 * window (GTK 4.8): there, a missing "showing" says nothing and must not hide the element.
 */
export function mapStates(info: ElementInfo, showingReliable = true): State[] {
  const s = info.states;
  const out: State[] = [];
  if (s.has('focused')) out.push('focused');
  if (s.has('focusable')) out.push('focusable');
  if (!s.has('enabled') && !s.has('sensitive') && (s.has('visible') || s.has('showing'))) out.push('disabled');
  if (s.has('checked')) out.push('checked');
  if (s.has('indeterminate') && (info.atspiRole === 'check box' || info.atspiRole.endsWith('menu item')))
    out.push('mixed');
  if (s.has('pressed')) out.push('pressed');
  if (s.has('selected') && !/^(text|entry)/.test(info.atspiRole)) out.push('selected');
  if (s.has('expandable')) out.push(s.has('expanded') ? 'expanded' : 'collapsed');
  if (s.has('editable')) out.push('editable');
  if (info.atspiRole === 'password text') out.push('password');
  if (s.has('multi line')) out.push('multiline');
  if (s.has('read only')) out.push('readonly');
  if (s.has('modal')) out.push('modal');
  if (s.has('required')) out.push('required');
  if (s.has('invalid entry')) out.push('invalid');
  if (s.has('busy')) out.push('busy');
  if (s.has('active')) out.push('active');
  // GTK3 clears "showing" on widgets that are not on screen (hidden pages, closed popovers).
  if (showingReliable && s.has('visible') && !showsOnScreen(info)) out.push('offscreen');
  if (showingReliable && !s.has('visible') && !s.has('showing') && info.states.size > 0 && !s.has('defunct'))
    out.push('invisible');
  return out;
}

/** Native roles that are never click targets of their own. */
const PASSIVE_ROLES =
  /^(panel|filler|label|static|section|grouping|scroll pane|viewport|paragraph|heading|separator|image|icon|redundant object|layered pane|glass pane|root pane|form|html container|block quote|article|landmark|header|footer|caption|description value|description term)$/;

/** Operations the element supports, inferred from its interfaces, role and states. */
export function mapActions(info: ElementInfo): Op[] {
  const ops = new Set<Op>();
  const i = info.interfaces;
  // GTK4 gives every widget an Action interface and Chromium every node "showContextMenu": on containers and
  // static text that is no reason to offer a click.
  // An icon view's item is no picture: its action activates it.
  const item = iconViewRole(info) === 'listitem';
  if (i.has('org.a11y.atspi.Action') && (!PASSIVE_ROLES.test(info.atspiRole) || item)) ops.add('click');
  if (info.states.has('focusable')) ops.add('focus');
  if (i.has('org.a11y.atspi.EditableText') && info.states.has('editable')) {
    ops.add('set_value');
    ops.add('type');
    ops.add('clear');
  }
  if (i.has('org.a11y.atspi.Value') && !/progress|level/.test(info.atspiRole)) ops.add('set_value');
  if (/check|toggle|radio|switch/.test(info.atspiRole) || info.toggles) ops.add('toggle');
  if (i.has('org.a11y.atspi.Selection')) ops.add('select');
  if (info.states.has('expandable')) { ops.add('expand'); ops.add('collapse'); }
  if (/scroll pane|viewport|list|tree|table|document/.test(info.atspiRole)) ops.add('scroll');
  return [...ops];
}

/** GTK 4's object paths end in a random UUID (`/org/gnome/TextEditor/a11y/9e651222_f984_…`); GTK 3's, Qt's and Gecko's
* do not. */
/** Class names GTK 4 and libadwaita report when a widget has no accessible name (`GtkBox`, `AdwTabBar`). */
const TOOLKIT_CLASS_NAME = /^(?:Gtk|Adw|Gsk|Gdk)[A-Z][A-Za-z0-9]*$/;

const GTK4_PATH = /\/a11y\/[0-9a-f]{8}(?:_[0-9a-f]{4}){3}_[0-9a-f]{12}$/;
/** Roles whose name GTK 4 takes from no content: a nameless one is named after its widget type. */
const TYPE_NAMED_ROLES =
  /^(filler|panel|scroll pane|viewport|section|grouping|drawing area|canvas|list|list box|tree table|table|tool bar)$/;

/**
 * The access key of a `_X` marker that name cleaning dropped ("_Retry Retry", GTK 4's "_Open"), in lower case: it
 * stays known as the element's key binding, where the policy reads what Alt+X would press (session/pipeline.ts
 * mnemonicsIn), as it read it from the marker before cleaning.
 */
function droppedMnemonic(raw: string, cleaned: string | undefined): string | undefined {
  const key = /(?:^|\s)_([\p{L}\p{N}])/u.exec(raw)?.[1];
  return key && cleaned !== undefined && !cleaned.includes(`_${key}`) ? key.toLowerCase() : undefined;
}

/** Controls whose GTK 4 name is a label that may keep its mnemonic underscore (never list items, cells or text: a file may be "_config"). */
const MNEMONIC_ROLES =
  /^(page tab|panel|push button|toggle button|menu item|check box|radio button|check menu item|radio menu item)$/;

/**
 * Whether the element's name, when it looks like a widget type, is one: gnome-text-editor (GTK 4.8) printed
 * `generic "EditorPage"` and `document "EditorSourceView"`. Only containers and multi-line text views of GTK 4:
 * a button's or a label's name is its text, and a window's its title.
 */
function typeNamed(info: ElementInfo): boolean {
  return (
    GTK4_PATH.test(info.target.path) &&
    (TYPE_NAMED_ROLES.test(info.atspiRole) || (info.atspiRole === 'text' && info.states.has('multi line')))
  );
}

/** Maps read facts to a RawNode (without children). Password text never leaves the driver. */
export function toRawNode(info: ElementInfo, showingReliable = true): RawNode {
  // A multi-line text view is a document to the user, as the seed's snapshot format shows it.
  const role = info.atspiRole === 'text' && info.states.has('multi line') ? 'document'
    // A frame inside a window is a box: a group, or the text it shows when it holds nothing (kcalc's display).
    : info.innerFrame ? (info.childCount > 0 ? 'group' : 'label')
    : iconViewRole(info) ?? roleFromAtspi(info.atspiRole);
  const node: RawNode = {
    id: handleOf(info.target),
    role,
    nativeRole: info.atspiRole,
    states: mapStates(info, showingReliable),
    actions: mapActions(info),
  };
  // GTK 4.8 names unlabelled widgets after their class ("GtkToggleButton"): that is no name to a user.
  // Rich text, toolkit class names and doubled labels are cleaned (drivers/common/names.ts); `expect` is checked
  // against this.
  const name = cleanName(info.name, {
    classNames: TOOLKIT_CLASS_NAME,
    typeNames: typeNamed(info),
    mnemonics: GTK4_PATH.test(info.target.path) && MNEMONIC_ROLES.test(info.atspiRole),
  });
  if (name) node.name = name;
  else if (role === 'listitem' && info.atspiRole === 'icon' && info.text?.trim()) node.name = info.text.trim();
  const key = droppedMnemonic(info.name, name);
  if (key) node.keyBinding = `Alt+${key}`;
  if (info.description && info.description !== info.name) node.description = info.description;
  if (info.accessibleId) node.stableId = info.accessibleId;
  const password = info.atspiRole === 'password text';
  if (
    info.text !== undefined &&
    node.name !== info.text.trim() &&
    (info.text !== '' || info.states.has('editable') || (info.textLength ?? 0) > 0)
  ) {
    node.value = password ? (info.textLength ? '••••' : '') : info.text;
    if (!password) {
      if (info.textLength !== undefined && info.textLength > info.text.length) node.valueLength = info.textLength;
      if (info.textStart) node.valueStart = info.textStart;
      // Caret and selection say where the user is in the text; in a password field they would tell its length.
      if (info.caret !== undefined) node.caret = info.caret;
      if (info.selection) node.selection = info.selection;
    }
  }
  // GTK3 names a combo after its choice; Gecko and Chromium name it after its label and hold the choice apart.
  if (info.choice !== undefined && node.value === undefined && info.choice !== info.name) node.value = info.choice;
  if (info.value && VALUE_ROLES.test(info.atspiRole)) {
    // A spin button's text is its number as typed; the Value interface holds the number itself.
    if (!info.text || info.atspiRole === 'spin button') node.value = formatNumber(info.value.current);
    if (info.value.max > info.value.min)
      node.range = {
        min: info.value.min,
        max: info.value.max,
        ...(info.value.step > 0 ? { step: info.value.step } : {}),
      };
  }
  if (info.bounds) node.bounds = info.bounds;
  return node;
}

/**
 * GTK 3's icon view (GtkIconView, Thunar's ExoIconView): a layered pane with a Selection whose items are icons that
 * hold their caption as text and no name. They are a list of items to a user; read as nameless images they were
 * dropped from the print while their refs were counted (a diff removed "8 elements of [e116] pane" never shown).
 */
function iconViewRole(info: ElementInfo): Role | undefined {
  if (isIconView(info)) return 'list';
  if (info.atspiRole === 'icon' && !info.name.trim() && info.text?.trim()) return 'listitem';
  return undefined;
}

/** GTK 3's icon view: a layered pane with a Selection (its items are icons). */
export function isIconView(info: Pick<ElementInfo, 'atspiRole' | 'interfaces'>): boolean {
  return info.atspiRole === 'layered pane' && info.interfaces.has(SELECTION);
}

/** Roles whose Value is meaningful to a user (a split pane's divider position is not). */
const VALUE_ROLES = /^(slider|spin button|scroll bar|progress bar|level bar|dial|rating)$/;

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000);
}

/**
 * Whether this window's toolkit sets "showing" on what is on screen: the window shows and at least one of its
 * children does. GTK 4.8 marks only the window, so pruning by "showing" would cut everything.
 */
/**
 * Where "showing" says nothing (GTK 4.8), an unallocated widget is the hidden one: GTK4 gives hidden stack
 * pages and their whole subtree a 0×0 size.
 */
export function zeroSized(info: ElementInfo): boolean {
  return info.bounds !== undefined && (info.bounds[2] <= 0 || info.bounds[3] <= 0);
}

/**
 * Whether an element counts as on screen. GTK3 clears "showing" on a scrolled window's viewport once the
 * list in it is scrolled (the viewport's own window moves), while the list inside still shows: a viewport
 * is judged by its children, not by its own flag.
 */
export function showsOnScreen(info: Pick<ElementInfo, 'states' | 'atspiRole'>): boolean {
  return info.states.has('showing') || (info.atspiRole === 'viewport' && info.states.has('visible'));
}

export function showingIsReliable(root: ElementInfo, childStates: Set<string>[]): boolean {
  return root.states.has('showing') && (childStates.length === 0 || childStates.some((s) => s.has('showing')));
}

/** The options of a read from `start`: a scoped read of a node that does not show prunes nothing (`scoped`). */
export function optionsFrom(start: ElementInfo, opts: ReadOptions): ReadOptions {
  return opts.scoped && !showsOnScreen(start) ? { ...opts, pruneHidden: false } : opts;
}

/**
 * Records which slice of a long child list was read: `childRange` and the full `childCount`, so the snapshot
 * can say "rows 2,301–2,348 of 3,000" and find knows there is more to search.
 */
export function markSlice(node: RawNode, info: ElementInfo, read: number): void {
  const total = Math.max(info.childCount, info.children.length);
  if (read >= total) return;
  const start = info.childStart ?? 0;
  node.childCount = total;
  // The first children by index (no geometry to go by) are not "the rows on screen": only the count is said.
  if (info.childVisible) node.childRange = { start, end: start + read };
}
