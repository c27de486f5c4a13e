import type { Role } from '../../protocol/vocabulary.js';

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
  'marquee': 'text', 'timer': 'text', 'tooltip': 'tooltip', 'img': 'image', 'image': 'image',
  'graphics-symbol': 'image',
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
