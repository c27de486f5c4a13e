/**
 * UI Automation → the protocol's vocabulary: control types to unified roles, element facts to states, and the
 * patterns an element offers to the ops it really supports (click → Invoke / SelectionItem.Select /
 * Toggle / LegacyIAccessible.DoDefaultAction; set_value → Value; expand → ExpandCollapse; scroll → Scroll /
 * ScrollItem). Control type ids are the Windows SDK's (UIA_ButtonControlTypeId = 50000 …), checked against Wine's
 * uiautomationclient.idl in test/unit/windows-roles.test.ts.
 */
import type { Op, State } from '../../engine/node.js';
import type { Role } from '../../engine/role.js';

/** Every UIA control type: its SDK name (UIA_<Name>ControlTypeId) and the unified role it maps to. */
export const UIA_CONTROL_TYPES: Readonly<Record<number, { name: string; role: Role }>> = {
  50000: { name: 'Button', role: 'button' },
  50001: { name: 'Calendar', role: 'table' },
  50002: { name: 'CheckBox', role: 'checkbox' },
  50003: { name: 'ComboBox', role: 'combobox' },
  50004: { name: 'Edit', role: 'textbox' },
  50005: { name: 'Hyperlink', role: 'link' },
  50006: { name: 'Image', role: 'image' },
  50007: { name: 'ListItem', role: 'listitem' },
  50008: { name: 'List', role: 'list' },
  50009: { name: 'Menu', role: 'menu' },
  50010: { name: 'MenuBar', role: 'menubar' },
  50011: { name: 'MenuItem', role: 'menuitem' },
  50012: { name: 'ProgressBar', role: 'progressbar' },
  50013: { name: 'RadioButton', role: 'radio' },
  50014: { name: 'ScrollBar', role: 'scrollbar' },
  50015: { name: 'Slider', role: 'slider' },
  50016: { name: 'Spinner', role: 'spinbutton' },
  50017: { name: 'StatusBar', role: 'statusbar' },
  50018: { name: 'Tab', role: 'tablist' },
  50019: { name: 'TabItem', role: 'tab' },
  50020: { name: 'Text', role: 'text' },
  50021: { name: 'ToolBar', role: 'toolbar' },
  50022: { name: 'ToolTip', role: 'tooltip' },
  50023: { name: 'Tree', role: 'tree' },
  50024: { name: 'TreeItem', role: 'treeitem' },
  50025: { name: 'Custom', role: 'generic' },
  50026: { name: 'Group', role: 'group' },
  50027: { name: 'Thumb', role: 'generic' },
  50028: { name: 'DataGrid', role: 'table' },
  50029: { name: 'DataItem', role: 'row' },
  50030: { name: 'Document', role: 'document' },
  50031: { name: 'SplitButton', role: 'button' },
  50032: { name: 'Window', role: 'window' },
  50033: { name: 'Pane', role: 'pane' },
  50034: { name: 'Header', role: 'row' },
  50035: { name: 'HeaderItem', role: 'columnheader' },
  50036: { name: 'Table', role: 'table' },
  50037: { name: 'TitleBar', role: 'generic' },
  50038: { name: 'Separator', role: 'separator' },
  50039: { name: 'SemanticZoom', role: 'list' },
  50040: { name: 'AppBar', role: 'toolbar' },
};

/** The patterns the helper reports an element offers (helper/UiaBackend.cs Node). */
export type UiaPattern = 'invoke' | 'toggle' | 'selectionItem' | 'selection' | 'expandCollapse' | 'value' | 'rangeValue'
  | 'scroll' | 'scrollItem' | 'text' | 'window' | 'legacy';

/** One element as the helper reports it. */
export interface UiaElement {
  /** Runtime id, dotted ("42.1902.4.7"). */
  rid: string;
  /** UIA ControlType id. */
  ct?: number;
  pid?: number;
  name?: string;
  /** AutomationId. */
  aid?: string;
  /** ClassName (Win32 window class or the framework's control class, "ToggleSwitch", "Chrome_RenderWidgetHostHWND"). */
  cls?: string;
  /** FrameworkId ("Win32", "WPF", "XAML", "Chrome", "DirectUI"). */
  fw?: string;
  help?: string;
  accessKey?: string;
  aria?: string;
  /** HeadingLevel property (80050 none, 80051 … 80059 levels 1–9). */
  heading?: number;
  enabled?: boolean;
  offscreen?: boolean;
  focused?: boolean;
  focusable?: boolean;
  password?: boolean;
  /** A password field holds something (its value itself never leaves the helper). */
  filled?: boolean;
  required?: boolean;
  modal?: boolean;
  rect?: [number, number, number, number];
  patterns?: UiaPattern[];
  value?: string;
  readOnly?: boolean;
  /** ToggleState: 0 off, 1 on, 2 indeterminate. */
  toggle?: number;
  /** ExpandCollapseState: 0 collapsed, 1 expanded, 2 partially expanded, 3 leaf. */
  expand?: number;
  selected?: boolean;
  range?: { value?: number; min?: number; max?: number; step?: number; readOnly?: boolean };
  /** LegacyIAccessible (MSAA) role, state bits and default action. */
  msaaRole?: number;
  msaaState?: number;
  defaultAction?: string;
  childCount?: number;
  children?: UiaElement[];
}

const HEADING_NONE = 80050;
/** WinUI's toggle switch is a Button with Toggle; its class name says it is a switch. */
const SWITCH_CLASSES = new Set(['ToggleSwitch']);

/** The unified role of an element. */
export function roleOf(e: UiaElement): Role {
  const base = e.ct !== undefined ? UIA_CONTROL_TYPES[e.ct]?.role ?? 'unknown' : 'unknown';
  if (base === 'button' && e.cls && SWITCH_CLASSES.has(e.cls)) return 'switch';
  if (base === 'text' && e.heading !== undefined && e.heading > HEADING_NONE && e.heading <= HEADING_NONE + 9)
    return 'heading';
  if (base === 'window' && e.modal) return 'dialog';
  return base;
}

/** Roles roleOf derives from another control type's base role (a switch is a Button, a heading Text, a dialog a Window). */
const DERIVED_FROM: Partial<Record<Role, number>> = { switch: 50000, heading: 50020, dialog: 50032 };

/**
 * tree.find's condition for `role`: the control types whose elements can have it, and whether the control type
 * alone proves it (else roleOf decides on each match: a Button may be a switch, Text a heading, a Window a dialog).
 */
export function controlTypesOf(role: Role): { cts: number[]; exact: boolean } {
  const cts = Object.entries(UIA_CONTROL_TYPES).filter(([, v]) => v.role === role).map(([k]) => Number(k));
  const derived = DERIVED_FROM[role];
  const bases = new Set(Object.values(DERIVED_FROM));
  return derived === undefined
    ? { cts, exact: !cts.some((ct) => bases.has(ct)) }
    : { cts: [...cts, derived], exact: false };
}

const has = (e: UiaElement, p: UiaPattern): boolean => e.patterns?.includes(p) ?? false;
const TEXT_ROLES = new Set<Role>(['textbox', 'document', 'combobox', 'spinbutton']);

/** The states of an element. */
export function statesOf(e: UiaElement, role: Role = roleOf(e)): State[] {
  const s: State[] = [];
  if (e.focused) s.push('focused');
  if (e.enabled === false) s.push('disabled');
  if (has(e, 'toggle') && e.toggle !== undefined) {
    if (role === 'button') { if (e.toggle === 1) s.push('pressed'); }
    else if (e.toggle === 1) s.push('checked');
    else if (e.toggle === 2) s.push('mixed');
  }
  if (has(e, 'selectionItem') && e.selected) s.push(role === 'radio' ? 'checked' : 'selected');
  if (has(e, 'expandCollapse') && e.expand !== undefined && e.expand !== 3)
    s.push(e.expand === 0 ? 'collapsed' : 'expanded');
  if (has(e, 'value') && TEXT_ROLES.has(role)) s.push(e.readOnly ? 'readonly' : 'editable');
  if (role === 'document' && has(e, 'text')) s.push('multiline');
  if (e.password) s.push('password');
  if (e.offscreen) s.push('offscreen');
  if (e.modal) s.push('modal');
  if (e.required) s.push('required');
  if (e.focusable) s.push('focusable');
  return [...new Set(s)];
}

/** The ops an element really supports, from the patterns it offers. */
export function opsOf(e: UiaElement, role: Role = roleOf(e)): Op[] {
  const ops = new Set<Op>();
  const writable = has(e, 'value') && !e.readOnly;
  if (
    has(e, 'invoke') ||
    has(e, 'toggle') ||
    has(e, 'selectionItem') ||
    (has(e, 'legacy') && (e.defaultAction ?? '') !== '')
  )
    ops.add('click');
  if (has(e, 'toggle')) ops.add('toggle');
  if (has(e, 'selectionItem')) ops.add('select');
  if ((role === 'combobox' || role === 'list') && (has(e, 'expandCollapse') || has(e, 'selection'))) ops.add('select');
  if (has(e, 'expandCollapse') && e.expand !== 3) { ops.add('expand'); ops.add('collapse'); }
  if (writable) { ops.add('set_value'); ops.add('clear'); }
  if (has(e, 'rangeValue') && !e.range?.readOnly) ops.add('set_value');
  if (writable || (has(e, 'text') && role === 'document' && !e.readOnly)) ops.add('type');
  if (has(e, 'scroll') || has(e, 'scrollItem')) ops.add('scroll');
  if (e.focusable) ops.add('focus');
  // A top-level window's WindowPattern.Close is its title bar's close button.
  if (has(e, 'window')) ops.add('close');
  return [...ops];
}
