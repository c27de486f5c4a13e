/**
 * Android views as protocol nodes: the class → unified role map, the states and the ops a node really takes,
 * and the handle that lets an act find the same node in the next dump. A dump has no native handles, so a
 * handle is the node's path of sibling indices plus what must still be true of the node there (its class and
 * resource id and what names it); an act that finds something else at that path is a stale ref, never a tap on
 * the new thing.
 */
import { createHash } from 'node:crypto';
import type { Op, RawNode, State } from '../../engine/node.js';
import type { Role } from '../../engine/role.js';
import type { UiNode } from './uixml.js';

/**
 * Simple class name (after the last `.` or `$`) → unified role. Material, AppCompat and AndroidX classes keep
 * the framework's simple names (`MaterialButton` aside), so one table covers them; anything missing is generic.
 */
export const ANDROID_ROLE_MAP: Readonly<Record<string, Role>> = {
  Button: 'button',
  MaterialButton: 'button',
  AppCompatButton: 'button',
  ImageButton: 'button',
  AppCompatImageButton: 'button',
  FloatingActionButton: 'button',
  ExtendedFloatingActionButton: 'button',
  Chip: 'button',
  EditText: 'textbox',
  AppCompatEditText: 'textbox',
  TextInputEditText: 'textbox',
  AutoCompleteTextView: 'textbox',
  MultiAutoCompleteTextView: 'textbox',
  SearchAutoComplete: 'textbox',
  TextView: 'text',
  AppCompatTextView: 'text',
  MaterialTextView: 'text',
  CheckBox: 'checkbox',
  AppCompatCheckBox: 'checkbox',
  MaterialCheckBox: 'checkbox',
  CheckedTextView: 'checkbox',
  Switch: 'switch',
  SwitchCompat: 'switch',
  SwitchMaterial: 'switch',
  MaterialSwitch: 'switch',
  ToggleButton: 'switch',
  RadioButton: 'radio',
  AppCompatRadioButton: 'radio',
  MaterialRadioButton: 'radio',
  RadioGroup: 'group',
  Spinner: 'combobox',
  AppCompatSpinner: 'combobox',
  SeekBar: 'slider',
  AppCompatSeekBar: 'slider',
  RatingBar: 'slider',
  Slider: 'slider',
  NumberPicker: 'spinbutton',
  ProgressBar: 'progressbar',
  LinearProgressIndicator: 'progressbar',
  CircularProgressIndicator: 'progressbar',
  RecyclerView: 'list',
  ListView: 'list',
  GridView: 'list',
  ExpandableListView: 'list',
  ScrollView: 'scrollarea',
  HorizontalScrollView: 'scrollarea',
  NestedScrollView: 'scrollarea',
  ViewPager: 'scrollarea',
  ViewPager2: 'scrollarea',
  WebView: 'document',
  ImageView: 'image',
  AppCompatImageView: 'image',
  ShapeableImageView: 'image',
  TabWidget: 'tablist',
  TabLayout: 'tablist',
  TabView: 'tab',
  Toolbar: 'toolbar',
  ActionBar: 'toolbar',
  ActionMenuView: 'toolbar',
  BottomNavigationView: 'tablist',
  NavigationBarView: 'tablist',
  BottomNavigationItemView: 'tab',
  NavigationBarItemView: 'tab',
  DrawerLayout: 'pane',
  SlidingPaneLayout: 'pane',
};

/** The simple name of a view class. */
export function simpleClass(className: string): string {
  return className.slice(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
}

/** The unified role of a view; list rows (a list's direct children) read as list items. */
export function androidRole(node: UiNode, parentRole: Role | undefined): Role {
  const mapped = ANDROID_ROLE_MAP[simpleClass(node.className)];
  if (mapped) return mapped;
  if (parentRole === 'list') return 'listitem';
  return 'generic';
}

const TEXT_ROLES: ReadonlySet<Role> = new Set<Role>(['textbox']);

/** The ops a node takes, from the facts uiautomator reports. */
export function androidOps(node: UiNode, role: Role): Op[] {
  const ops: Op[] = [];
  if (node.clickable || role === 'button' || role === 'tab' || role === 'listitem' && node.clickable) ops.push('click');
  if (node.longClickable) ops.push('right_click'); // a long press is Android's context action
  if (node.checkable) ops.push('toggle');
  if (TEXT_ROLES.has(role)) ops.push('focus', 'set_value', 'type', 'clear');
  if (node.scrollable) ops.push('scroll');
  if (role === 'combobox') ops.push('expand', 'select');
  return [...new Set(ops)];
}

/** The states of a node. */
export function androidStates(
  node: UiNode,
  role: Role,
  screen: { width: number; height: number } | undefined,
): State[] {
  const s: State[] = [];
  if (node.focused) s.push('focused');
  if (!node.enabled) s.push('disabled');
  if (node.checkable && node.checked) s.push('checked');
  if (node.selected) s.push('selected');
  if (node.password) s.push('password');
  if (node.focusable) s.push('focusable');
  if (TEXT_ROLES.has(role) && node.enabled) s.push('editable');
  const [l, t, r, b] = node.bounds;
  if (r <= l || b <= t || (screen && (r <= 0 || b <= 0 || l >= screen.width || t >= screen.height)))
    s.push('offscreen');
  return s;
}

const isEditable = (n: UiNode): boolean => /EditText|AutoCompleteTextView/.test(n.className);

/**
 * What names a node for its handle: its own text (never an editable field's, which the user changes), else the
 * first text in its parent's subtree (a switch's row title). A recycled row scrolled into the same place has
 * another title, so its handle differs and an old ref fails as stale instead of following the row.
 */
export function anchorOf(node: UiNode, parent: UiNode | undefined): string {
  if (!isEditable(node) && (node.text || node.contentDesc)) return node.text || node.contentDesc;
  const stack = parent ? [...parent.children].reverse() : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n !== node && !isEditable(n) && (n.text || n.contentDesc)) return n.text || n.contentDesc;
    stack.push(...[...n.children].reverse());
  }
  return '';
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * A handle: `window|path|class|resource-id|anchor hash`, every part escaped so no text can forge another part.
 * The window (package/activity) is in it so a ref of one screen never acts on the same place of another.
 */
export function handleOf(window: string, path: readonly number[], node: UiNode, parent: UiNode | undefined): string {
  return [
    encodeURIComponent(window),
    path.join('.'),
    encodeURIComponent(node.className),
    encodeURIComponent(node.resourceId),
    shortHash(anchorOf(node, parent)),
  ].join('|');
}

/** The parts of a handle; undefined when it is not one of ours. */
export function parseHandle(
  handle: string,
): { window: string; path: number[]; className: string; resourceId: string; anchor: string } | undefined {
  const parts = handle.split('|');
  if (parts.length !== 5 || !/^\d+(\.\d+)*$/.test(parts[1]!)) return undefined;
  try {
    return {
      window: decodeURIComponent(parts[0]!),
      path: parts[1]!.split('.').map(Number),
      className: decodeURIComponent(parts[2]!),
      resourceId: decodeURIComponent(parts[3]!),
      anchor: parts[4]!,
    };
  } catch { return undefined; }
}

/** The node a handle names in `roots`, if the same node is still there (same class, id and anchor). */
export function resolveHandle(roots: readonly UiNode[], handle: string): UiNode | undefined {
  const h = parseHandle(handle);
  if (!h) return undefined;
  let level: readonly UiNode[] = roots;
  let node: UiNode | undefined;
  let parent: UiNode | undefined;
  for (const i of h.path) { parent = node; node = level[i]; if (!node) return undefined; level = node.children; }
  if (!node || node.className !== h.className || node.resourceId !== h.resourceId) return undefined;
  return shortHash(anchorOf(node, parent)) === h.anchor ? node : undefined;
}

/** Converts a dump subtree into protocol nodes. Password text never leaves: it reads as bullets. */
export function toRawNode(
  window: string,
  node: UiNode,
  path: number[],
  parent: { node: UiNode; role: Role } | undefined,
  screen?: { width: number; height: number },
): RawNode {
  const role = androidRole(node, parent?.role);
  const raw: RawNode = {
    id: handleOf(window, path, node, parent?.node),
    role,
    nativeRole: node.className,
    states: androidStates(node, role, screen),
    actions: androidOps(node, role),
  };
  const [l, t, r, b] = node.bounds;
  raw.bounds = [l, t, Math.max(0, r - l), Math.max(0, b - t)];
  if (node.resourceId) raw.stableId = node.resourceId;
  if (TEXT_ROLES.has(role)) {
    // An EditText's text is its value; its name is what labels it (content-desc, else the hint).
    const name = node.contentDesc || node.hint;
    if (name) raw.name = name;
    raw.value = node.password ? (node.text ? '••••' : '') : node.text;
  } else {
    const name = node.text || node.contentDesc;
    if (name) raw.name = name;
    if (node.text && node.contentDesc && node.contentDesc !== node.text) raw.description = node.contentDesc;
  }
  if (node.children.length)
    raw.children = node.children.map((c, i) => toRawNode(window, c, [...path, i], { node, role }, screen));
  return raw;
}
