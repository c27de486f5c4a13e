/**
 * The unified vocabulary every driver maps its platform onto: roles, states and element operations,
 * each with the meaning a driver author needs. The lists below are the one source: the TypeScript unions, the
 * JSON Schema enums (each value with its `description`) and docs/protocol.md all derive from them. Nothing here
 * names a platform; each driver keeps its own native → unified maps (drivers/linux/tree/roles.ts,
 * drivers/cdp/roles.ts).
 */

/** Unified roles and what each means; a driver maps anything it cannot place to `generic`. */
export const ROLE_DOCS = {
  window: 'A top-level window of an application.',
  dialog: 'A top-level or modal window that asks for input (file chooser, message box, preferences).',
  alert: 'A message that demands attention (notification, alert dialog content).',
  application: 'The application root above its windows.',
  button: 'A command that runs when activated (push button, toggle button, menu button).',
  link: 'A hyperlink: activating it navigates.',
  checkbox: 'A two- or three-state toggle; its state is `checked` / `mixed`.',
  radio: 'One choice of a group of mutually exclusive choices; `checked` when chosen.',
  switch: 'An on/off toggle; `checked` when on.',
  textbox: 'A single- or multi-line text field (`multiline`, `editable`, `password` say which).',
  document: 'A document body: a web page or a rich or multi-line text.',
  terminal: 'A terminal\'s screen: `value` is its screen and scrollback (the driver may keep only the tail), `caret` is on the command ' +
    'line being edited, and a submitting key (Enter) runs that line.',
  page: 'One page of a paginated document (a PDF page): its text is the page\'s text, it is not a tab.',
  combobox: 'A field with a drop-down list of choices; `select` picks one by its text.',
  spinbutton: 'A number field with up/down steps; `range` gives its bounds.',
  slider: 'A value picked along a range; `range` gives its bounds.',
  scrollbar: 'A scroll bar; its value is the scroll position.',
  progressbar: 'Progress or a level meter; its value is the progress.',
  list: 'A list of items (list box, log).',
  listitem: 'One item of a list.',
  tree: 'A tree or tree table.',
  treeitem: 'One item of a tree.',
  table: 'A table or grid; `table` gives its size.',
  row: 'One row of a table.',
  cell: 'One cell of a table; `cell` gives its place.',
  columnheader: 'A header cell of a column.',
  rowheader: 'A header cell of a row.',
  tab: 'One tab of a tab list; `selected` when its panel shows.',
  tablist: 'A row of tabs.',
  tabpanel: 'The panel a tab shows.',
  menu: 'A menu (drop-down, popup, context menu).',
  menuitem: 'One item of a menu (check and radio menu items included: `checked` says their state).',
  menubar: 'A menu bar.',
  toolbar: 'A tool bar.',
  statusbar: 'A status bar or info bar.',
  tooltip: 'A tool tip.',
  image: 'An image, icon or chart.',
  text: 'Static text (a text run, a caption).',
  heading: 'A heading.',
  paragraph: 'A paragraph or block of text.',
  label: 'A label of another control.',
  separator: 'A visual separator or splitter.',
  group: 'A group of related controls (panel, landmark, fieldset).',
  pane: 'A pane of a split or layered container.',
  scrollarea: 'A scrollable viewport around other content.',
  canvas: 'A drawing surface with no accessible content of its own.',
  form: 'A form.',
  generic: 'A container with no specific meaning (also the role of anything a driver cannot map).',
  unknown: 'The platform said the role is unknown or invalid.',
} as const;

/** Every unified role. */
export const ROLES = Object.keys(ROLE_DOCS) as readonly Role[];
/** One of the unified roles. */
export type Role = keyof typeof ROLE_DOCS;

/** Commands: the roles a click, Enter, Space or an access key activates (the policy's activation and mnemonic rules). */
export const COMMAND_ROLES: ReadonlySet<string> = new Set<Role>(['button', 'link', 'menuitem']);
/** Roles that only carry text (a label, a paragraph); an empty one is decoration. */
export const TEXT_ROLES: ReadonlySet<string> = new Set<Role>(['label', 'text', 'paragraph', 'heading']);
/**
 * Roles of the elements that take text input (a field, a document body, an editable combo or spin box): the
 * actionability check `editable` applies to them; an element of another role (a slider) takes no text and passes it.
 */
export const TEXT_INPUT_ROLES: ReadonlySet<string> = new Set<Role>(['textbox', 'document', 'combobox', 'spinbutton']);

/** Node states and what each means (the renderer prints them after the name). */
export const STATE_DOCS = {
  focused: 'Holds the keyboard focus.',
  disabled: 'Cannot be used now (greyed out); acting on it fails with `element_disabled`.',
  checked: 'A checkbox, radio, switch or check menu item is on.',
  mixed: 'A three-state checkbox is partly on.',
  selected: 'Chosen in its list, tree, table or tab list.',
  expanded: 'An expandable node is open (its children show).',
  collapsed: 'An expandable node is closed.',
  editable: 'Takes text input.',
  password: 'A password or secret field: the driver reports its value as `••••` (or empty) and never its text, caret or selection.',
  offscreen: 'Exists but is not on screen now (scrolled away, on a hidden page).',
  invisible: 'Not shown at all (hidden by its app).',
  multiline: 'A text field of more than one line.',
  readonly: 'Shows text that cannot be edited.',
  modal: 'A dialog that blocks the rest of its application.',
  pressed: 'A toggle button is pressed in.',
  required: 'A form field that must be filled.',
  invalid: 'A field whose content the application rejects.',
  busy: 'Loading or updating; its content may still change.',
  focusable: 'Can take the keyboard focus.',
  active: 'The active window or the active descendant of a composite.',
} as const;

/** Every node state. */
export const STATES = Object.keys(STATE_DOCS) as readonly State[];
/** One node state. */
export type State = keyof typeof STATE_DOCS;

/** Element operations, what each does and what its `value` (node.act params) means. */
export const OP_DOCS = {
  click: 'Activates the element the way a primary click does (a button\'s action, a link, a row); no `value`.',
  double_click: 'Two primary clicks (opens a file, edits a cell); no `value`.',
  right_click: 'Opens the element\'s context menu; no `value`.',
  focus: 'Gives the element the keyboard focus; no `value`.',
  set_value: 'Replaces the whole value. `value`: the new text of a text field or table cell (a spreadsheet cell takes ' +
    'it as typed entry, formulas included), or a number for sliders and spin buttons.',
  type: 'Types `value` at the caret as keystrokes (the field\'s own handlers see each key).',
  clear: 'Empties a text field; no `value`.',
  toggle: 'Flips a checkbox, switch, toggle button or check menu item; no `value`.',
  select: 'Selects. Without `value`: the element itself (a row, a cell, a tab, an item). With `value` on a combobox ' +
    'or list: the item of that text. With `value` on a table: a cell range in the cell address grammar, `"B1:B3"` or ' +
    'one cell `"B7"` (see Cell addresses); the range replaces the table\'s selection.',
  expand: 'Opens an expandable node (tree item, combobox, menu); no `value`.',
  collapse: 'Closes an expandable node; no `value`.',
  scroll: 'Scrolls the element. `value`: `"up"`, `"down"`, `"left"` or `"right"` (one page), `"into_view"` (scrolls its ' +
    'containers until the element shows), or `"to N"` on a long list or table (N: 1-based row of a table, or child of a list; thousands separators ' +
    'allowed): the container scrolls until that row shows; on a spreadsheet also `"to B7"` (a cell address, see Cell addresses): ' +
    'its row and column (on a table wider than its view, the row, then the column across).',
  drag_to: 'Drags the element onto another. `value`: the target\'s node handle (as `id` in node.act), in the same window.',
  back: 'On a window (its root node): the system\'s Back, as a phone\'s back button or gesture (closes a dialog, leaves a screen); no `value`.',
  home: 'On a window (its root node): goes to the system\'s home screen; no `value`.',
  recents: 'On a window (its root node): opens the system\'s list of recent apps; no `value`.',
  notifications: 'On a window (its root node): opens the system\'s notification shade; no `value`.',
  close: 'Closes the top-level window that holds the element (its root node, or any element in it) the way its title ' +
    'bar\'s close button does: the window manager or OS asks the app to close it; no `value`. The app may ask first (a ' +
    '"Save changes?" dialog opens instead), or keep running with no window. A driver that cannot ask answers `unsupported`.',
} as const;

/** Every element operation. */
export const OPS = Object.keys(OP_DOCS) as readonly Op[];
/** One element operation. */
export type Op = keyof typeof OP_DOCS;
