/**
 * Android views as protocol nodes: the class → unified role map, the states and the ops a node really takes,
 * and the handle that lets an act find the same node in the next dump. A dump has no native handles, so a
 * handle is the node's path of sibling indices plus what must still be true of the node there (its class and
 * resource id); an act that finds something else at that path is a stale ref, never a tap on the new thing.
 */
import type { Op, RawNode, State } from '../../engine/node.js';
import type { Role } from '../../engine/role.js';
import type { UiNode } from './uixml.js';

/**
 * Simple class name (after the last `.` or `$`) → unified role. Material, AppCompat and AndroidX classes keep
 * the framework's simple names (`MaterialButton` aside), so one table covers them; anything missing is generic.
 */
export const ANDROID_ROLE_MAP: Readonly<Record<string, Role>> = {
  Button: 'button', MaterialButton: 'button', AppCompatButton: 'button', ImageButton: 'button', AppCompatImageButton: 'button',
  FloatingActionButton: 'button', ExtendedFloatingActionButton: 'button', Chip: 'button',
  EditText: 'textbox', AppCompatEditText: 'textbox', TextInputEditText: 'textbox', AutoCompleteTextView: 'textbox',
  MultiAutoCompleteTextView: 'textbox', SearchAutoComplete: 'textbox',
  TextView: 'text', AppCompatTextView: 'text', MaterialTextView: 'text',
  CheckBox: 'checkbox', AppCompatCheckBox: 'checkbox', MaterialCheckBox: 'checkbox', CheckedTextView: 'checkbox',
  Switch: 'switch', SwitchCompat: 'switch', SwitchMaterial: 'switch', MaterialSwitch: 'switch', ToggleButton: 'switch',
  RadioButton: 'radio', AppCompatRadioButton: 'radio', MaterialRadioButton: 'radio', RadioGroup: 'group',
  Spinner: 'combobox', AppCompatSpinner: 'combobox',
  SeekBar: 'slider', AppCompatSeekBar: 'slider', RatingBar: 'slider', Slider: 'slider', NumberPicker: 'spinbutton',
  ProgressBar: 'progressbar', LinearProgressIndicator: 'progressbar', CircularProgressIndicator: 'progressbar',
  RecyclerView: 'list', ListView: 'list', GridView: 'list', ExpandableListView: 'list',
  ScrollView: 'scrollarea', HorizontalScrollView: 'scrollarea', NestedScrollView: 'scrollarea', ViewPager: 'scrollarea',
  ViewPager2: 'scrollarea',
  WebView: 'document',
  ImageView: 'image', AppCompatImageView: 'image', ShapeableImageView: 'image',
  TabWidget: 'tablist', TabLayout: 'tablist', TabView: 'tab',
  Toolbar: 'toolbar', ActionBar: 'toolbar', ActionMenuView: 'toolbar', BottomNavigationView: 'tablist',
  NavigationBarView: 'tablist', BottomNavigationItemView: 'tab', NavigationBarItemView: 'tab',
  DrawerLayout: 'pane', SlidingPaneLayout: 'pane',
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
export function androidStates(node: UiNode, role: Role, screen: { width: number; height: number } | undefined): State[] {
  const s: State[] = [];
  if (node.focused) s.push('focused');
  if (!node.enabled) s.push('disabled');
  if (node.checkable && node.checked) s.push('checked');
  if (node.selected) s.push('selected');
  if (node.password) s.push('password');
  if (node.focusable) s.push('focusable');
  if (TEXT_ROLES.has(role) && node.enabled) s.push('editable');
  const [l, t, r, b] = node.bounds;
  if (r <= l || b <= t || (screen && (r <= 0 || b <= 0 || l >= screen.width || t >= screen.height))) s.push('offscreen');
  return s;
}

/** A handle: `path|class|resource-id`, every part escaped so no text can forge another part. */
export function handleOf(path: readonly number[], node: UiNode): string {
  return [path.join('.'), encodeURIComponent(node.className), encodeURIComponent(node.resourceId)].join('|');
}

/** The parts of a handle; undefined when it is not one of ours. */
export function parseHandle(handle: string): { path: number[]; className: string; resourceId: string } | undefined {
  const parts = handle.split('|');
  if (parts.length !== 3 || !/^\d+(\.\d+)*$/.test(parts[0]!)) return undefined;
  try {
    return { path: parts[0]!.split('.').map(Number), className: decodeURIComponent(parts[1]!), resourceId: decodeURIComponent(parts[2]!) };
  } catch { return undefined; }
}

/** The node a handle names in `roots`, if it is still the same kind of node there. */
export function resolveHandle(roots: readonly UiNode[], handle: string): UiNode | undefined {
  const h = parseHandle(handle);
  if (!h) return undefined;
  let level: readonly UiNode[] = roots;
  let node: UiNode | undefined;
  for (const i of h.path) { node = level[i]; if (!node) return undefined; level = node.children; }
  return node && node.className === h.className && node.resourceId === h.resourceId ? node : undefined;
}

/** Converts a dump subtree into protocol nodes. Password text never leaves: it reads as bullets. */
export function toRawNode(node: UiNode, path: number[], parentRole: Role | undefined, screen?: { width: number; height: number }): RawNode {
  const role = androidRole(node, parentRole);
  const raw: RawNode = { id: handleOf(path, node), role, nativeRole: node.className, states: androidStates(node, role, screen), actions: androidOps(node, role) };
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
  if (node.children.length) raw.children = node.children.map((c, i) => toRawNode(c, [...path, i], role, screen));
  return raw;
}
