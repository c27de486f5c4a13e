/**
 * `Accessibility.getFullAXTree` (a flat list of AX nodes) → the engine's RawNode tree. Pure, so the unit
 * tests run it on a recorded fixture.
 *
 * What Chromium's AX tree needs before the engine sees it:
 * - ignored nodes are replaced by their children (Chromium keeps ignored wrappers in the list);
 * - `InlineTextBox`, `ListMarker` and `LineBreak` repeat their parent's text or are layout: dropped;
 * - an `<input>`/`<textarea>` (editable "plaintext") exposes its inner editor as children: dropped, the value
 *   is on the textbox; a contenteditable ("richtext") keeps its children;
 * - password inputs (known by the DOM, or by Chromium's own bullet masking) read `••••` and carry `password`.
 */
import type { Op, RawNode, State } from '../../protocol/nodes.js';
import { roleFromCdp } from './roles.js';
import type { Role } from '../../protocol/vocabulary.js';

/** An AXValue as DevTools sends it. */
export interface AXValue { type: string; value?: unknown }
/** An AXProperty. */
export interface AXProperty { name: string; value: AXValue }
/** The fields of an AXNode the driver reads. */
export interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  chromeRole?: AXValue;
  name?: AXValue;
  description?: AXValue;
  value?: AXValue;
  properties?: AXProperty[];
  parentId?: string;
  childIds?: string[];
  backendDOMNodeId?: number;
  frameId?: string;
}

/** Options of the mapping. */
export interface AxMapOptions {
  /** The page's window handle (`cdp:<targetId>`); node handles are `<window>:<backendDOMNodeId>`. */
  window: string;
  /** The page title, the name of the synthetic window root. */
  title: string;
  /** backendDOMNodeIds of `<input type=password>` elements. */
  passwords?: ReadonlySet<number>;
  /** Stop after this many nodes (the read is then marked truncated). */
  maxNodes?: number;
}

/** Chromium roles that only repeat their parent's text or are line layout. */
const DROPPED = new Set(['InlineTextBox', 'ListMarker', 'LineBreak']);
/** Values longer than this are cut (the full length goes to `valueLength`), as the Linux driver does. */
const MAX_VALUE = 200;
/** What password values read as, whatever they hold. */
export const MASK = '••••';

/** Handle of an AX node: its DOM node when it has one (acts need it), else the AX node id. */
export function nodeHandle(window: string, n: Pick<AXNode, 'backendDOMNodeId' | 'nodeId'>): string {
  return n.backendDOMNodeId !== undefined ? `${window}:${n.backendDOMNodeId}` : `${window}:ax${n.nodeId}`;
}

/** Splits a node handle into its window handle and DOM backend node id (undefined for AX-only nodes). */
export function parseHandle(handle: string): { window: string; backendNodeId?: number } | undefined {
  const m = /^(cdp:[^:]+)(?::(ax)?(\d+|[^:]*))?$/.exec(handle);
  if (!m?.[1]) return undefined;
  if (m[3] === undefined || m[2] === 'ax') return { window: m[1] };
  const id = Number(m[3]);
  return Number.isInteger(id) && id > 0 ? { window: m[1], backendNodeId: id } : undefined;
}

function prop(n: AXNode, name: string): unknown {
  return n.properties?.find((p) => p.name === name)?.value.value;
}

function str(v: AXValue | undefined): string | undefined {
  if (!v || v.value === undefined || v.value === null) return undefined;
  return typeof v.value === 'string' ? v.value : String(v.value);
}

/** States of one AX node. */
export function statesOf(n: AXNode, role: Role): State[] {
  const s: State[] = [];
  if (prop(n, 'focused') === true) s.push('focused');
  if (prop(n, 'disabled') === true) s.push('disabled');
  const checked = prop(n, 'checked');
  if (checked === 'true' || checked === true) s.push('checked');
  if (checked === 'mixed') s.push('mixed');
  const pressed = prop(n, 'pressed');
  if (pressed === 'true' || pressed === true) s.push('pressed');
  if (pressed === 'mixed') s.push('mixed');
  if (prop(n, 'selected') === true) s.push('selected');
  const expanded = prop(n, 'expanded');
  // A <select> lists its options below it; "collapsed" would draw a submenu marker over visible items.
  const isSelect = role === 'combobox' && (n.childIds?.length ?? 0) > 0 && prop(n, 'editable') === undefined;
  if (expanded === true) s.push('expanded');
  else if (expanded === false && !isSelect) s.push('collapsed');
  const editable = prop(n, 'editable');
  if (editable !== undefined && prop(n, 'readonly') !== true) s.push('editable');
  if (prop(n, 'multiline') === true) s.push('multiline');
  if (prop(n, 'readonly') === true) s.push('readonly');
  if (prop(n, 'modal') === true) s.push('modal');
  if (prop(n, 'required') === true) s.push('required');
  const invalid = prop(n, 'invalid');
  if (invalid !== undefined && invalid !== 'false' && invalid !== false) s.push('invalid');
  if (prop(n, 'busy') === true) s.push('busy');
  if (prop(n, 'focusable') === true) s.push('focusable');
  return s;
}

/** Operations an element supports through the DOM. */
export function actionsOf(role: Role, states: readonly State[], hasDom: boolean): Op[] {
  if (!hasDom) return [];
  const a: Op[] = [];
  const clickable: ReadonlySet<Role> = new Set<Role>([
    'button',
    'link',
    'menuitem',
    'tab',
    'treeitem',
    'checkbox',
    'radio',
    'switch',
    'combobox',
    'cell',
    'columnheader',
  ]);
  if (clickable.has(role)) a.push('click', 'double_click', 'right_click');
  if (role === 'checkbox' || role === 'radio' || role === 'switch') a.push('toggle');
  if (states.includes('editable')) a.push('click', 'set_value', 'type', 'clear');
  if (role === 'combobox' || role === 'list') a.push('select');
  if (role === 'listitem' && states.includes('focusable')) a.push('click', 'select');
  if (role === 'slider' || role === 'spinbutton') a.push('set_value');
  if (states.includes('expanded') || states.includes('collapsed')) a.push('expand', 'collapse');
  if (states.includes('focusable')) a.push('focus');
  if (role === 'document') a.push('scroll');
  return [...new Set(a)];
}

/** Maps a full AX tree to a RawNode tree under a synthetic window root. */
export function axTreeToRaw(
  nodes: readonly AXNode[],
  opts: AxMapOptions,
): { root: RawNode; nodes: number; truncated: boolean } {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const top = nodes.find((n) => n.parentId === undefined || !byId.has(n.parentId));
  const root: RawNode = {
    id: opts.window,
    role: 'window',
    nativeRole: 'page',
    name: opts.title,
    states: [],
    actions: [],
    children: [],
  };
  const max = opts.maxNodes ?? 5000;
  let count = 1;
  let truncated = false;

  /** The RawNodes for one AX node: itself, or its children when it is ignored, or nothing. */
  const convert = (n: AXNode): RawNode[] => {
    const native = str(n.role) ?? 'Unknown';
    if (DROPPED.has(native)) return [];
    if (n.ignored || native === 'none' && !str(n.name)) return kids(n);
    if (count >= max) { truncated = true; return []; }
    count++;
    const role = roleFromCdp(native);
    const states = statesOf(n, role);
    const raw: RawNode = {
      id: nodeHandle(opts.window, n),
      role,
      nativeRole: native,
      states,
      actions: actionsOf(role, states, n.backendDOMNodeId !== undefined),
    };
    const name = str(n.name);
    if (name) raw.name = name;
    const description = str(n.description);
    if (description && description !== name) raw.description = description;
    let value = str(n.value);
    const password = (n.backendDOMNodeId !== undefined && opts.passwords?.has(n.backendDOMNodeId)) ||
      (role === 'textbox' && value !== undefined && value.length > 0 && /^•+$/.test(value));
    if (password) {
      states.push('password');
      if (value) value = MASK;
    }
    if (value !== undefined && value !== '') {
      if (value.length > MAX_VALUE) { raw.valueLength = value.length; value = value.slice(0, MAX_VALUE); }
      raw.value = value;
    } else if (role === 'textbox') {
      raw.value = '';
    }
    const min = prop(n, 'valuemin');
    const maxv = prop(n, 'valuemax');
    if (typeof min === 'number' && typeof maxv === 'number') raw.range = { min, max: maxv };
    // An <input>/<textarea> shows its inner editor (and a password's bullets) as children: the value says it.
    const plainEditor =
      prop(n, 'editable') === 'plaintext' && (role === 'textbox' || role === 'combobox' || role === 'spinbutton');
    if (!plainEditor && !password) {
      const c = kids(n);
      if (c.length) raw.children = c;
    }
    return [raw];
  };
  const kids = (n: AXNode): RawNode[] => {
    const out: RawNode[] = [];
    for (const id of n.childIds ?? []) {
      const c = byId.get(id);
      if (c) out.push(...convert(c));
    }
    return out;
  };
  if (top) root.children = convert(top);
  return { root, nodes: count, truncated };
}
