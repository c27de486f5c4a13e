/**
 * The values a driver reports about what is on screen: nodes (`RawNode`), windows and applications. Declared
 * once as schemas with their meaning (`description`); the TypeScript types derive from them, and the engine,
 * the policy and every driver import them from here (the protocol owns the vocabulary, ARCHITECTURE.md).
 */
import { Type, type Static } from '@sinclair/typebox';
import { ClassName, IdentityFields } from './identity.js';
import { Count, DocumentedLiterals, doc, Id, LIMITS, Pid, Rect, Str, Strict } from './primitives.js';
import { OP_DOCS, OPS, ROLE_DOCS, STATE_DOCS, STATES } from './vocabulary.js';

export { OPS, ROLES, STATES } from './vocabulary.js';

/** A unified role (vocabulary.ts). */
export const Role = DocumentedLiterals(ROLE_DOCS, { description: 'A unified role (see Roles).' });
/** A unified role. */
export type Role = Static<typeof Role>;
/** A node state (vocabulary.ts). */
export const State = DocumentedLiterals(STATE_DOCS, { description: 'A node state (see States).' });
/** A node state. */
export type State = Static<typeof State>;
/** An element operation (vocabulary.ts). */
export const Op = DocumentedLiterals(OP_DOCS, { description: 'An element operation (see Operations).' });
/** An element operation. */
export type Op = Static<typeof Op>;

const Big = Count(Number.MAX_SAFE_INTEGER);

/** A node as a driver reports it: platform-neutral, not yet distilled, without refs; recursive through `children`. */
export const RawNode = Type.Recursive(
  (Self) =>
    Type.Object(
      {
        id: doc(
          "The driver's handle of the element (see Handles). Opaque to the host; valid while the element lives.",
          Id,
        ),
        role: Role,
        nativeRole: Type.Optional(
          doc(
            "The platform's own role name, for debugging and fixtures only: the host decides nothing by it.",
            Str(LIMITS.id),
          ),
        ),
        name: Type.Optional(doc('The accessible name (label) of the element.', Str())),
        value: Type.Optional(
          doc(
            'Current value or text content, possibly cut by the driver (see `valueLength`). `••••` or empty for a `password` node.',
            Str(),
          ),
        ),
        valueLength: Type.Optional(doc('Full length of the value (characters) when the driver cut `value`.', Big)),
        description: Type.Optional(doc('The accessible description (tooltip, help text).', Str())),
        beside: Type.Optional(
          doc(
            'On a field (text box, combo box, spin button) with no name or description of its own: the text of the label ' +
              'beside it, when the platform links none. The label is one of its siblings: on its row, to its left, with nothing between them; else its ' +
              'immediate previous sibling, left of it or above it, by screen bounds. A label two fields would take names neither. On a combo box with ' +
              "one entry, the entry carries it. Derived by the driver, not the field's own name: the host prints it apart from one. " +
              'A combo box named after its choice (not its label) may carry the text of the label the platform links to it: ' +
              'the host prints its name then, and a query for the label finds it.',
            Str(),
          ),
        ),
        stableId: Type.Optional(
          doc(
            'An identifier the toolkit keeps across runs (an automation id, a DOM id), when there is one.',
            Str(LIMITS.id),
          ),
        ),
        states: doc(
          "The element's states, unordered, each at most once.",
          Type.Array(State, { maxItems: STATES.length }),
        ),
        actions: doc(
          'The operations this element really supports (an op not listed is refused with `unsupported`).',
          Type.Array(Op, { maxItems: OPS.length }),
        ),
        bounds: Type.Optional(
          doc("The element's screen rectangle, when asked for (tree.snapshot `bounds`) or cheap.", Rect),
        ),
        range: Type.Optional(
          doc(
            'The numeric range of a slider, spin button, scroll bar or progress bar.',
            Type.Object({
              min: doc('Smallest value.', Type.Number()),
              max: doc('Largest value.', Type.Number()),
              step: Type.Optional(doc('Smallest step, when the platform reports one.', Type.Number())),
            }),
          ),
        ),
        children: Type.Optional(
          doc(
            'Child nodes in reading order (absent when not read: depth limit, see `childCount`).',
            Type.Array(Self, { maxItems: LIMITS.items }),
          ),
        ),
        childCount: Type.Optional(
          doc(
            'How many children the platform reports when `children` was not read, or holds only a slice (`childRange`).',
            Big,
          ),
        ),
        keyBinding: Type.Optional(
          doc(
            'The access key of a command, when asked for (tree.snapshot `keyBindings`) or when the driver dropped its marker ' +
              'from the name (`_Open` reported as `Open`), in W3C key names joined by `+` (`Alt+o`): the host compares its letter with an Alt chord.',
            Str(LIMITS.id),
          ),
        ),
        childRange: Type.Optional(
          doc(
            'Which slice of the full child list `children` holds when the driver read only part of it (huge or virtual ' +
              'containers): 0-based `start` inclusive, `end` exclusive; the full count is `childCount`.',
            Type.Object(
              {
                start: doc('First child index held (0-based).', Big),
                end: doc('One past the last child index held.', Big),
              },
              Strict,
            ),
          ),
        ),
        table: Type.Optional(
          doc(
            'On a table or grid node: its size.',
            Type.Object(
              {
                rows: doc('Rows of the whole table (not only the ones read).', Big),
                cols: doc('Columns of the whole table.', Big),
              },
              Strict,
            ),
          ),
        ),
        cell: Type.Optional(
          doc(
            'On a cell: its place in its table.',
            Type.Object(
              {
                row: doc('0-based row.', Big),
                col: doc('0-based column.', Big),
                address: Type.Optional(
                  doc(
                    'The application\'s own address of the cell when it shows one ("B7", see Cell addresses).',
                    Str(LIMITS.id),
                  ),
                ),
              },
              Strict,
            ),
          ),
        ),
        caret: Type.Optional(doc('Caret offset in the full text (characters); never on a `password` node.', Big)),
        selection: Type.Optional(
          doc(
            'Selected text range [start, end) in the full text (characters); never on a `password` node.',
            Type.Tuple([Big, Big]),
          ),
        ),
        valueStart: Type.Optional(
          doc(
            'Offset in the full text where `value` starts, when the driver read a range that does not start at 0.',
            Big,
          ),
        ),
        setSize: Type.Optional(
          doc(
            'On a list, table, grid or tree whose app keeps only part of its items in the tree (a virtualized web ' +
              'list: aria-rowcount, aria-setsize): how many items or rows the app says the whole set holds. The others do not exist as elements ' +
              "until the view scrolls to them, so no search of the tree finds them. A table's `table.rows` and its cells' `cell.row` then count " +
              'in the whole set too.',
            Count(2 ** 31 - 1),
          ),
        ),
        posInSet: Type.Optional(
          doc(
            'On an item or row of a container with `setSize`: its 1-based position in the whole set (aria-posinset, ' +
              'aria-rowindex).',
            Count(2 ** 31 - 1),
          ),
        ),
        chooser: Type.Optional(
          doc(
            "Set on a file chooser (the open or save dialog's chooser, or the dialog when the platform has no chooser " +
              'node): the host reads a relative file name typed into it against `folder`.',
            Type.Object(
              {
                folder: Type.Optional(
                  doc(
                    'The folder the chooser shows, an absolute path on the device; absent when the driver cannot read it whole ' +
                      '(a cut path bar): the host then treats the folder as unknown.',
                    Str(),
                  ),
                ),
              },
              Strict,
            ),
          ),
        ),
      },
      { description: 'An element as the driver reads it.' },
    ),
  { $id: 'RawNode' },
);
/** A node as a driver reports it. */
export type RawNode = Static<typeof RawNode>;

/** A top-level surface as drivers list it. */
export const WindowInfo = Type.Object(
  {
    id: doc("Handle of the window's root node (as `window` in other methods; see Handles).", Id),
    title: doc('The window title.', Str()),
    app: doc(
      'The name of the owning application as the platform reports it (data, never proof of identity).',
      Str(LIMITS.id),
    ),
    ...IdentityFields,
    className: Type.Optional(ClassName),
    role: doc('`window`, `dialog`, `alert` or another unified role of the root.', Role),
    focused: doc('True when this window holds the keyboard focus now.', Type.Boolean()),
    url: Type.Optional(
      doc(
        "A browser tab's address (a page driver): page text, used only to deny (a vault's URL, the panel's marker).",
        Str(),
      ),
    ),
    bounds: Type.Optional(doc("The window's screen rectangle.", Rect)),
  },
  { description: 'A top-level window.' },
);
/** A top-level window. */
export type WindowInfo = Static<typeof WindowInfo>;

/** A running application and its windows. */
export const AppInfo = Type.Object(
  {
    name: doc('The application name as the platform reports it (data, never proof of identity).', Str(LIMITS.id)),
    id: doc('Handle of the application root.', Id),
    ...IdentityFields,
    className: Type.Optional(ClassName),
    busy: Type.Optional(
      doc(
        'Registered with the accessibility service but not answering (stuck or busy): listed, with no windows.',
        Type.Boolean(),
      ),
    ),
    inaccessible: Type.Optional(
      doc(
        'A process with on-screen windows that is not readable through the accessibility service: listed so a model ' +
          'does not start a second copy; its windows can only be used through the fallback ladder.',
        Type.Object(
          {
            reason: doc('Why it cannot be read.', Str()),
            fix: Type.Optional(doc('What makes it readable (for the human, not the model).', Str())),
            remedy: Type.Optional(
              doc(
                'What the host can do about it: remedy names (see Error codes › remedies); the host words them.',
                Type.Array(Str(LIMITS.id), { maxItems: 8 }),
              ),
            ),
          },
          Strict,
        ),
      ),
    ),
    windowless: Type.Optional(
      doc(
        'A process apps.launch started that shows no window on the display and is not on the accessibility bus ' +
          '(still starting, waiting for something, or a program with no window): listed so a launch is never invisible.',
        Type.Object(
          {
            ageMs: doc('How long it has been running.', Type.Integer({ minimum: 0 })),
          },
          Strict,
        ),
      ),
    ),
    windows: doc(
      'Its top-level windows (empty unless asked for with apps.list `withWindows`).',
      Type.Array(WindowInfo, { maxItems: LIMITS.items }),
    ),
  },
  { description: 'A running application.' },
);
/** A running application and its windows. */
export type AppInfo = Static<typeof AppInfo>;
