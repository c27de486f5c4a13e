/**
 * AX roles and subroles as unified roles, and the states and ops of an element from the facts AX reports
 * (Apple's AXRoleConstants.h, AXAttributeConstants.h, AXActionConstants.h). Pure: tested on assembled AX
 * trees in test/fixtures/macos/.
 */
import type { Op, State } from '../../engine/node.js';
import type { Role } from '../../engine/role.js';

/** AXRole → unified role (a subrole may refine it: SUBROLE_MAP). Anything missing is generic. */
export const AX_ROLE_MAP: Readonly<Record<string, Role>> = {
  AXApplication: 'application',
  AXWindow: 'window',
  AXSheet: 'dialog',
  AXDrawer: 'pane',
  AXPopover: 'dialog',
  AXButton: 'button',
  AXMenuButton: 'button',
  AXDisclosureTriangle: 'button',
  AXColorWell: 'button',
  AXCheckBox: 'checkbox',
  AXRadioButton: 'radio',
  AXRadioGroup: 'group',
  AXTextField: 'textbox',
  AXTextArea: 'textbox',
  AXSearchField: 'textbox',
  AXDateField: 'textbox',
  AXTimeField: 'textbox',
  AXComboBox: 'combobox',
  AXPopUpButton: 'combobox',
  AXSlider: 'slider',
  AXIncrementor: 'spinbutton',
  AXStepper: 'spinbutton',
  AXScrollBar: 'scrollbar',
  AXScrollArea: 'scrollarea',
  AXSplitGroup: 'group',
  AXSplitter: 'separator',
  AXProgressIndicator: 'progressbar',
  AXBusyIndicator: 'progressbar',
  AXLevelIndicator: 'progressbar',
  AXRelevanceIndicator: 'progressbar',
  AXList: 'list',
  AXOutline: 'tree',
  AXBrowser: 'tree',
  AXTable: 'table',
  AXGrid: 'table',
  AXRow: 'row',
  AXCell: 'cell',
  AXColumn: 'group',
  AXSortButton: 'columnheader',
  AXTabGroup: 'tablist',
  AXToolbar: 'toolbar',
  AXMenuBar: 'menubar',
  AXMenuBarItem: 'menuitem',
  AXMenu: 'menu',
  AXMenuItem: 'menuitem',
  AXStaticText: 'text',
  AXHeading: 'heading',
  AXLink: 'link',
  AXImage: 'image',
  AXWebArea: 'document',
  AXGroup: 'group',
  AXLayoutArea: 'canvas',
  AXLayoutItem: 'generic',
  AXHelpTag: 'tooltip',
  AXValueIndicator: 'generic',
  AXListMarker: 'text',
  AXRuler: 'generic',
  AXRulerMarker: 'generic',
  AXGrowArea: 'generic',
  AXMatte: 'generic',
  AXUnknown: 'unknown',
};

/** `AXRole/AXSubrole` → unified role, where the subrole says more than the role. */
export const SUBROLE_MAP: Readonly<Record<string, Role>> = {
  'AXWindow/AXDialog': 'dialog',
  'AXWindow/AXSystemDialog': 'dialog',
  'AXWindow/AXFloatingWindow': 'window',
  'AXCheckBox/AXSwitch': 'switch',
  'AXCheckBox/AXToggle': 'switch',
  'AXButton/AXToggle': 'switch',
  'AXRadioButton/AXTabButton': 'tab',
  'AXRow/AXOutlineRow': 'treeitem',
  'AXRow/AXTableRow': 'row',
  'AXGroup/AXApplicationDialog': 'dialog',
  'AXGroup/AXApplicationAlertDialog': 'alert',
  'AXGroup/AXApplicationAlert': 'alert',
  'AXGroup/AXApplicationStatus': 'statusbar',
  'AXGroup/AXTabPanel': 'tabpanel',
  'AXGroup/AXDocument': 'document',
  'AXGroup/AXDocumentArticle': 'document',
  'AXGroup/AXLandmarkSearch': 'form',
  'AXGroup/AXContentList': 'list',
  'AXGroup/AXListItem': 'listitem',
  'AXGroup/AXDocumentNote': 'group',
  'AXGroup/AXUserInterfaceTooltip': 'tooltip',
  'AXStaticText/AXTextAttachment': 'image',
  'AXList/AXContentList': 'list',
  'AXList/AXDefinitionList': 'list',
  'AXCell/AXSortButton': 'columnheader',
};

/** The unified role of an element; a list's direct children read as list items. */
export function axRole(role: string, subrole: string | undefined, parentRole?: Role): Role {
  const refined = subrole ? SUBROLE_MAP[`${role}/${subrole}`] : undefined;
  if (refined) return refined;
  const mapped = AX_ROLE_MAP[role] ?? 'generic';
  if (parentRole === 'list' && (mapped === 'group' || mapped === 'generic' || mapped === 'text')) return 'listitem';
  return mapped;
}

/** The facts one element reports (the batch read of macos/read.ts). */
export interface AxFacts {
  role: string;
  subrole?: string;
  title?: string;
  description?: string;
  help?: string;
  placeholder?: string;
  identifier?: string;
  /** AXValue as read: text, a number (checkbox state, slider position) or a boolean. */
  value?: string | number | boolean;
  valueLength?: number;
  enabled?: boolean;
  focused?: boolean;
  selected?: boolean;
  expanded?: boolean;
  disclosing?: boolean;
  modal?: boolean;
  required?: boolean;
  hidden?: boolean;
  min?: number;
  max?: number;
  menuMark?: string;
  /** AXSelectedTextRange. */
  selection?: { location: number; length: number };
  bounds?: [number, number, number, number];
  actions: readonly string[];
  settable: ReadonlySet<string>;
}

const TEXT_ROLES = new Set(['AXTextField', 'AXTextArea', 'AXSearchField', 'AXComboBox', 'AXDateField', 'AXTimeField']);
const TOGGLES = new Set(['AXCheckBox', 'AXRadioButton']);

/** True for the password field of AppKit and the web (AXSecureTextField). */
export function isSecure(f: Pick<AxFacts, 'subrole'>): boolean { return f.subrole === 'AXSecureTextField'; }

/** Whether the driver asks AX which attributes of this element are settable (one call each). */
export function settableAttributesToRead(role: string): readonly string[] {
  if (TEXT_ROLES.has(role)) return ['AXValue', 'AXFocused', 'AXSelectedText'];
  if (role === 'AXSlider' || role === 'AXIncrementor') return ['AXValue', 'AXFocused'];
  if (role === 'AXRow' || role === 'AXCell' || role === 'AXRadioButton' || role === 'AXMenuItem')
    return ['AXSelected', 'AXDisclosing'];
  if (role === 'AXButton' || role === 'AXCheckBox' || role === 'AXPopUpButton' || role === 'AXLink')
    return ['AXFocused'];
  return [];
}

/** The states of an element. */
export function axStates(f: AxFacts, role: Role): State[] {
  const s: State[] = [];
  if (f.focused) s.push('focused');
  if (f.enabled === false) s.push('disabled');
  if (TOGGLES.has(f.role) && typeof f.value === 'number') {
    if (f.value === 1) s.push('checked');
    else if (f.value === 2) s.push('mixed');
  }
  if (f.role === 'AXMenuItem' && f.menuMark) s.push('checked');
  if (f.selected) s.push('selected');
  const open = f.expanded ?? f.disclosing;
  if (open === true) s.push('expanded');
  else if (
    open === false &&
    (role === 'treeitem' || role === 'combobox' || f.role === 'AXDisclosureTriangle' || f.expanded === false)
  )
    s.push('collapsed');
  if (isSecure(f)) s.push('password');
  if (TEXT_ROLES.has(f.role)) s.push(f.settable.has('AXValue') && f.enabled !== false ? 'editable' : 'readonly');
  if (f.role === 'AXTextArea') s.push('multiline');
  if (f.modal) s.push('modal');
  if (f.required) s.push('required');
  if (f.settable.has('AXFocused')) s.push('focusable');
  if (f.hidden) s.push('invisible');
  if (f.bounds && (f.bounds[2] <= 0 || f.bounds[3] <= 0)) s.push('offscreen');
  return s;
}

/** The ops an element takes: from its actions and settable attributes, never from its name. */
export function axOps(f: AxFacts, role: Role): Op[] {
  const ops: Op[] = [];
  const has = (a: string): boolean => f.actions.includes(a);
  if (has('AXPress')) ops.push(TOGGLES.has(f.role) || role === 'switch' ? 'toggle' : 'click');
  if (has('AXPress') && (role === 'switch' || TOGGLES.has(f.role))) ops.push('click');
  if (!has('AXPress') && f.settable.has('AXSelected')) ops.push('click', 'select');
  if (has('AXShowMenu')) ops.push('right_click');
  if (f.settable.has('AXFocused')) ops.push('focus');
  if (f.settable.has('AXValue') && !TOGGLES.has(f.role)) ops.push('set_value');
  if (TEXT_ROLES.has(f.role) && f.settable.has('AXValue')) ops.push('type', 'clear');
  if (
    f.settable.has('AXDisclosing') ||
    f.role === 'AXPopUpButton' ||
    f.role === 'AXComboBox' ||
    f.role === 'AXMenuButton' ||
    f.role === 'AXMenuBarItem'
  ) {
    if (f.settable.has('AXDisclosing') || has('AXShowMenu') || has('AXPress')) ops.push('expand', 'collapse');
  }
  if (has('AXScrollToVisible') || f.role === 'AXScrollArea') ops.push('scroll');
  if (has('AXOpen')) ops.push('double_click');
  if (has('AXIncrement') && !ops.includes('set_value')) ops.push('set_value');
  // A window closes by its title bar's close button (AXCloseButton); one without it answers unsupported.
  if (f.role === 'AXWindow') ops.push('close');
  return [...new Set(ops)];
}

/** The name, value and description of an element, the way each role carries them. */
export function axText(f: AxFacts): { name?: string; value?: string; description?: string } {
  const out: { name?: string; value?: string; description?: string } = {};
  const label = f.title || f.description || (TEXT_ROLES.has(f.role) ? f.placeholder : undefined);
  if (f.role === 'AXStaticText' || f.role === 'AXHeading' && !label) {
    if (typeof f.value === 'string' && f.value) out.name = f.value;
    else if (label) out.name = label;
  } else {
    if (label) out.name = label;
    if (typeof f.value === 'string') out.value = isSecure(f) ? (f.value ? '••••' : '') : f.value;
    else if (typeof f.value === 'number' && !TOGGLES.has(f.role)) out.value = String(f.value);
  }
  if (f.help && f.help !== out.name) out.description = f.help;
  else if (f.title && f.description && f.description !== f.title) out.description = f.description;
  return out;
}
