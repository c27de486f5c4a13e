import type { Role } from '../../../protocol/vocabulary.js';

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
  'password text': 'textbox', 'editbar': 'textbox', 'terminal': 'terminal', 'document frame': 'document',
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
  'page': 'page',
  'input method window': 'window', 'audio': 'generic', 'video': 'generic',
  'definition': 'text', 'log': 'list', 'marquee': 'text', 'math fraction': 'text', 'math root': 'text',
  'subscript': 'text', 'superscript': 'text', 'description value': 'text',
};

/** Maps an AT-SPI role name to the unified role. */
export function roleFromAtspi(atspiRoleName: string): Role {
  return ATSPI_ROLE_MAP[atspiRoleName] ?? 'generic';
}
