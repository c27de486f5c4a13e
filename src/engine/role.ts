/**
 * Unified roles: the ~40 kinds of element every platform's tree is mapped onto (seed §4).
 * Drivers map native roles through the per-platform tables below; the engine only sees `Role`.
 */
export const ROLES = [
  'window', 'dialog', 'alert', 'application',
  'button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'document', 'combobox', 'spinbutton', 'slider',
  'scrollbar', 'progressbar', 'list', 'listitem', 'tree', 'treeitem', 'table', 'row', 'cell', 'columnheader',
  'rowheader', 'tab', 'tablist', 'tabpanel', 'menu', 'menuitem', 'menubar', 'toolbar', 'statusbar', 'tooltip',
  'image', 'text', 'heading', 'paragraph', 'label', 'separator', 'group', 'pane', 'scrollarea', 'canvas', 'form',
  'generic', 'unknown',
] as const;

/** One of the unified roles. */
export type Role = (typeof ROLES)[number];

/** Roles a user can act on directly; they win the token budget over plain containers. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>([
  'button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'document', 'combobox', 'spinbutton', 'slider',
  'scrollbar', 'listitem', 'treeitem', 'cell', 'columnheader', 'rowheader', 'tab', 'menuitem',
]);

/** Roles that group others and carry little meaning of their own when nameless. */
export const CONTAINER_ROLES: ReadonlySet<Role> = new Set<Role>([
  'generic', 'group', 'pane', 'scrollarea', 'unknown', 'form', 'tabpanel', 'application',
]);

/** Roles whose elements are top-level surfaces: a new one after an act gets its own snapshot. */
export const SURFACE_ROLES: ReadonlySet<Role> = new Set<Role>(['window', 'dialog', 'alert', 'menu']);

/**
 * AT-SPI2 role names (as in at-spi2-core's `atspi-constants.h`, lower case with spaces, the form
 * `GetRoleName` returns) → unified role. Anything missing maps to `generic`.
 */
export const ATSPI_ROLE_MAP: Readonly<Record<string, Role>> = {
  'frame': 'window', 'window': 'window', 'dialog': 'dialog', 'file chooser': 'dialog', 'color chooser': 'dialog',
  'font chooser': 'dialog', 'alert': 'alert', 'notification': 'alert', 'application': 'application',
  'push button': 'button', 'button': 'button', 'toggle button': 'button', 'push button menu': 'button',
  'link': 'link', 'check box': 'checkbox', 'check menu item': 'menuitem', 'radio button': 'radio',
  'radio menu item': 'menuitem', 'switch': 'switch', 'text': 'textbox', 'entry': 'textbox',
  'password text': 'textbox', 'editbar': 'textbox', 'terminal': 'document', 'document frame': 'document',
  'document text': 'document', 'document web': 'document', 'document email': 'document',
  'document presentation': 'document', 'document spreadsheet': 'document', 'combo box': 'combobox',
  'spin button': 'spinbutton', 'slider': 'slider', 'dial': 'slider', 'scroll bar': 'scrollbar',
  'progress bar': 'progressbar', 'level bar': 'progressbar', 'list': 'list', 'list box': 'list',
  'description list': 'list', 'list item': 'listitem', 'description term': 'listitem', 'tree': 'tree',
  'tree table': 'tree', 'tree item': 'treeitem', 'table': 'table', 'table row': 'row', 'table cell': 'cell',
  'column header': 'columnheader', 'table column header': 'columnheader', 'row header': 'rowheader',
  'table row header': 'rowheader', 'page tab': 'tab', 'page tab list': 'tablist', 'menu': 'menu',
  'popup menu': 'menu', 'menu item': 'menuitem', 'tearoff menu item': 'menuitem', 'menu bar': 'menubar',
  'tool bar': 'toolbar', 'status bar': 'statusbar', 'tool tip': 'tooltip', 'image': 'image', 'icon': 'image',
  'image map': 'image', 'animation': 'image', 'label': 'label', 'static': 'text', 'caption': 'text',
  'heading': 'heading', 'paragraph': 'paragraph', 'section': 'generic', 'block quote': 'paragraph',
  'separator': 'separator', 'panel': 'group', 'filler': 'generic', 'grouping': 'group', 'group': 'group',
  'landmark': 'group', 'article': 'group', 'form': 'form', 'header': 'group', 'footer': 'group',
  'split pane': 'pane', 'layered pane': 'pane', 'glass pane': 'pane', 'root pane': 'pane', 'option pane': 'pane',
  'internal frame': 'pane', 'desktop frame': 'pane', 'viewport': 'scrollarea', 'scroll pane': 'scrollarea',
  'canvas': 'canvas', 'drawing area': 'canvas', 'embedded': 'generic', 'html container': 'generic',
  'redundant object': 'generic', 'invalid': 'unknown', 'unknown': 'unknown', 'extended': 'generic',
  'info bar': 'statusbar', 'date editor': 'group', 'calendar': 'table', 'accelerator label': 'label',
  'autocomplete': 'combobox', 'rating': 'slider', 'timer': 'text', 'chart': 'image', 'math': 'text',
  'comment': 'group', 'content deletion': 'text', 'content insertion': 'text', 'mark': 'text',
  'suggestion': 'text', 'footnote': 'text', 'ruler': 'generic', 'directory pane': 'pane',
  // ATSPI_ROLE_PAGE is a page of a document (Evince's PDF pages carry their text); notebook pages are "page tab".
  'page': 'document',
'input method window': 'window', 'audio': 'generic', 'video': 'generic',
  'definition': 'text', 'log': 'list', 'marquee': 'text', 'math fraction': 'text', 'math root': 'text',
  'subscript': 'text', 'superscript': 'text', 'description value': 'text',
};

/** Maps an AT-SPI role name to the unified role. */
export function roleFromAtspi(atspiRoleName: string): Role {
  return ATSPI_ROLE_MAP[atspiRoleName] ?? 'generic';
}

/**
 * Chromium DevTools (`Accessibility.getFullAXTree`) role names → unified role: the ARIA roles plus
 * Chromium's internal ones (`RootWebArea`, `StaticText`, `LabelText`, `MenuListPopup`, …). Anything missing
 * maps to `generic`. `InlineTextBox`, `ListMarker` and `LineBreak` never reach this table: the CDP driver
 * drops them (they repeat their parent's text).
 */
export const CDP_ROLE_MAP: Readonly<Record<string, Role>> = {
  'RootWebArea': 'document', 'WebArea': 'document', 'document': 'document', 'Iframe': 'document',
  'IframePresentational': 'generic', 'application': 'application',
  'dialog': 'dialog', 'alertdialog': 'dialog', 'alert': 'alert',
  'button': 'button', 'PopUpButton': 'button', 'ToggleButton': 'button', 'DisclosureTriangle': 'button',
  'link': 'link', 'checkbox': 'checkbox', 'menuitemcheckbox': 'menuitem', 'radio': 'radio',
  'menuitemradio': 'menuitem', 'switch': 'switch', 'textbox': 'textbox', 'searchbox': 'textbox',
  'TextField': 'textbox', 'combobox': 'combobox', 'ComboBoxMenuButton': 'combobox', 'ComboBoxSelect': 'combobox',
  'spinbutton': 'spinbutton', 'slider': 'slider', 'scrollbar': 'scrollbar', 'progressbar': 'progressbar',
  'meter': 'progressbar', 'list': 'list', 'listbox': 'list', 'DescriptionList': 'list', 'directory': 'list',
  'feed': 'list', 'MenuListPopup': 'list', 'listitem': 'listitem', 'option': 'listitem', 'MenuListOption': 'listitem',
  'DescriptionListTerm': 'listitem', 'term': 'listitem', 'tree': 'tree', 'treegrid': 'tree', 'treeitem': 'treeitem',
  'table': 'table', 'grid': 'table', 'LayoutTable': 'table', 'row': 'row', 'LayoutTableRow': 'row',
  'cell': 'cell', 'gridcell': 'cell', 'LayoutTableCell': 'cell', 'columnheader': 'columnheader',
  'rowheader': 'rowheader', 'tab': 'tab', 'tablist': 'tablist', 'tabpanel': 'tabpanel', 'menu': 'menu',
  'menuitem': 'menuitem', 'menubar': 'menubar', 'toolbar': 'toolbar', 'status': 'statusbar', 'log': 'list',
  'marquee': 'text', 'timer': 'text', 'tooltip': 'tooltip', 'img': 'image', 'image': 'image', 'graphics-symbol': 'image',
  'SvgRoot': 'image', 'Canvas': 'canvas', 'Video': 'generic', 'Audio': 'generic', 'StaticText': 'text',
  'LabelText': 'label', 'Legend': 'label', 'Caption': 'text', 'Figcaption': 'text', 'DescriptionListDetail': 'text',
  'definition': 'text', 'heading': 'heading', 'paragraph': 'paragraph', 'blockquote': 'paragraph', 'Pre': 'paragraph',
  'separator': 'separator', 'Splitter': 'separator', 'group': 'group', 'radiogroup': 'group', 'Details': 'group',
  'figure': 'group', 'article': 'group', 'region': 'group', 'banner': 'group', 'contentinfo': 'group',
  'navigation': 'group', 'main': 'group', 'complementary': 'group', 'search': 'group', 'form': 'form',
  'note': 'group', 'math': 'text', 'Abbr': 'text', 'Mark': 'text', 'Time': 'text', 'code': 'text',
  'emphasis': 'text', 'strong': 'text', 'subscript': 'text', 'superscript': 'text', 'insertion': 'text',
  'deletion': 'text', 'generic': 'generic', 'Section': 'generic', 'none': 'generic', 'presentation': 'generic',
  'Ruby': 'text', 'Embed': 'generic', 'PluginObject': 'generic', 'Unknown': 'unknown',
};

/** Maps a DevTools AX role name to the unified role. */
export function roleFromCdp(cdpRole: string): Role {
  return CDP_ROLE_MAP[cdpRole] ?? 'generic';
}
