import { opaqueNote, opaqueViews, type OpaqueKind, type SheetFields } from './opaque.js';
import { renderWithinBudget } from './budget.js';
import { estimateTokens } from './measure.js';
import { distill, findByRef, walkDistilled, type DistilledNode } from './distill.js';
import { countNodes, walk, type RawNode, type WindowInfo } from './node.js';
import { redactTree } from './redact.js';
import type { RefTable } from './refs.js';
import { addressOfCell, cellLine, cellShown, isGrid, renderGrid, type GridFold } from './grid.js';
import { besideLabel, nameDescription, renderedStates, renderLine, rowLine, setStandIns } from './render.js';
import type { SnapshotLine } from './line.js';
import { columnsLine, rowElements, sliceRows } from './rows.js';
import { foldChrome } from './chrome.js';
import { foldRuns } from './fold.js';
import { dropWrappers } from './wrappers.js';

export type { SnapshotLine } from './line.js';

/** A driver's answer to `tree.snapshot`: the window and its root node. */
export interface SnapshotInput {
  window: WindowInfo;
  root: RawNode;
}

/** Options of `buildSnapshot`. */
export interface SnapshotOptions {
  /** Token budget of the text; default 2000. */
  maxTokens?: number;
  /** A ref: render only that element's subtree (lists inside it are not cut at its own level). */
  scope?: string;
  /**
   * Keep elements whose role, name or value contains this text (case-insensitive), their ancestors, and
   * their descendants up to 2 levels down.
   */
  query?: string;
  /** The caller prints the scoped element's text as a block under its line (observe's scope): the line carries none. */
  textBelow?: boolean;
  /** Opaque views the model was told about already, by ref: their note takes its short form (opaque.ts). */
  opaqueTold?: (ref: string) => boolean;
  /**
   * A whole-window print (no scope, no query) folds each long run of alike controls to one line (engine/fold.ts);
   * the elements (what find, diffs and acts read) keep every one. Off by default: the whole tree prints.
   */
  fold?: boolean;
  /** Refs a fold never hides (what the model just acted on). */
  whole?: ReadonlySet<string>;
  /**
   * The distilled trees of reads built before, by read: a read given again (the same object, never changed since)
   * is not distilled again. Only for reads nothing writes to (a driver's answers).
   */
  reads?: DistilledReads;
}

/** What a read distils to, before refs: its tree, with what the snapshot says of the raw tree. */
interface DistilledRead {
  /** The raw tree redacted (what was distilled). */
  redacted: RawNode;
  tree: DistilledNode;
  folded: number;
  rawNodes: number;
  chooser: { folder?: string } | undefined;
}

/**
 * The distilled trees of reads, by their raw root: an act's re-read is built once for its mid-work check and once
 * for its receipt, an observe's read for its whole window and its scope. Each build gets its own copy of the tree
 * (refs are set on the tree a snapshot prints from), as distilling the read again would give it.
 */
export class DistilledReads {
  private readonly byRoot = new WeakMap<RawNode, DistilledRead>();

  /** The read distilled: a copy of the kept tree when this read was distilled before. */
  of(root: RawNode): DistilledRead {
    const kept = this.byRoot.get(root);
    if (kept) return { ...kept, tree: unreffed(kept.tree), chooser: kept.chooser && { ...kept.chooser } };
    const made = distilledRead(root);
    this.byRoot.set(root, made);
    return made;
  }

  /**
   * The read redacted and distilled, to find an element in (`RefTable.relocate`, which only reads them): the kept
   * ones themselves when this read was distilled before.
   */
  toRead(root: RawNode): { redacted: RawNode; tree: DistilledNode } {
    let kept = this.byRoot.get(root);
    if (!kept) this.byRoot.set(root, (kept = distilledRead(root)));
    return kept;
  }
}

function distilledRead(root: RawNode): DistilledRead {
  const rawNodes = countNodes(root);
  const chooser = chooserOf(root);
  const redacted = redactTree(root);
  const distilled = distill(redacted);
  return { redacted, tree: distilled.root, folded: distilled.folded, rawNodes, chooser };
}

/** A copy of a distilled tree without the refs an assignment set on it (its nodes otherwise shared data). */
function unreffed(n: DistilledNode): DistilledNode {
  const { ref: _ref, ...copy } = n;
  copy.children = n.children.map(unreffed);
  return copy;
}

/** A rendered snapshot plus the data `diffSnapshots` compares. */
export interface Snapshot {
  /** Header, element lines and optional footer. */
  text: string;
  /** Token estimate of `text`. */
  tokens: number;
  /** The element lines shown in `text`. */
  lines: SnapshotLine[];
  /**
   * Every element of the (scoped / queried) distilled tree in document order, including those the budget
   * or list cutting left out of `text`; diffs compare these so an element cut by the budget is not
   * reported as removed.
   */
  elements: SnapshotLine[];
  /** Ref of the focused element of the window, wherever it is. */
  focusRef?: string;
  /** Refs of the views that draw their content without exposing items (engine/opaque.ts). */
  opaque?: string[];
  /**
   * Elements the model saw in this window's earlier snapshots that this one no longer shows (a tab page not shown),
   * by ref → their line as printed then (engine/diff-pages.ts awayAfter): a page that comes back as it was reads
   * as one line.
   */
  away?: Record<string, string>;
  /** The kinds among those views: what their note advises (engine/opaque.ts). */
  opaqueKinds?: OpaqueKind[];
  /** A sheet's cell-address box and edit line, by ref (opaque.ts). */
  opaqueFields?: SheetFields;
  /** The window holds a file chooser (the driver's `chooser` fact); `folder` is the folder it shows, when known. */
  chooser?: { folder?: string };
  /** The window as the driver described it. */
  window: WindowInfo;
  stats: {
    /** Nodes in the driver's tree. */
    rawNodes: number;
    /** Element lines in `text`. */
    shownNodes: number;
    /** Nameless containers folded by distilling. */
    folded: number;
    /** Elements left out of `text` by the budget or list cutting. */
    omitted: number;
  };
}

/** `scope` named a ref that is not in this window's current tree. */
export class UnknownScopeError extends Error {
  override name = 'UnknownScopeError' as const;
  /** Wire error code (protocol `ERROR_CODES`). */
  readonly code = 'stale_ref' as const;
  constructor(readonly ref: string) {
    super(`Ref ${ref} not found in the current snapshot. Try capturing a new snapshot.`);
  }
}

/** True for an UnknownScopeError. */
export function isUnknownScopeError(e: unknown): e is UnknownScopeError {
  return e instanceof UnknownScopeError;
}

/**
 * A query hit: by role, name, value, the description standing in for a name, or the label beside or linked to it
 * (`beside`, printed or not: a combo named after its choice is kept with the label that names it).
 */
function matches(n: DistilledNode, q: string): boolean {
  return (
    n.role.includes(q) ||
    (n.name?.toLowerCase().includes(q) ?? false) ||
    (nameDescription(n)?.toLowerCase().includes(q) ?? false) ||
    (n.beside?.toLowerCase().includes(q) ?? false) ||
    (n.value?.toLowerCase().includes(q) ?? false)
  );
}

/** A filtered copy for `query`; nodes are shallow copies sharing refs, `undefined` when nothing is kept. */
function filterQuery(node: DistilledNode, q: string, levelsLeft: number, isRoot: boolean): DistilledNode | undefined {
  const rows = isGrid(node) ? rowsOfHits(node, q) : undefined;
  if (rows) return rows;
  const hit = matches(node, q);
  const childLevels = hit ? 2 : Math.max(0, levelsLeft - 1);
  const kids: DistilledNode[] = [];
  for (const c of node.children) {
    const k = filterQuery(c, q, childLevels, false);
    if (k) kids.push(k);
  }
  if (!hit && levelsLeft === 0 && kids.length === 0 && !isRoot) return undefined;
  return { ...node, children: kids };
}

/**
 * A grid the query hits in some cells: the whole rows of those cells, with its column heads (a process list queried
 * for a name is read for that row's other columns; the cells alone printed as a one-column range that called the
 * others out of view). Undefined when no cell of it matches (the query then filters it as any node).
 */
function rowsOfHits(grid: DistilledNode, q: string): DistilledNode | undefined {
  const hitRows = new Set<number>();
  const any = (n: DistilledNode): boolean => matches(n, q) || n.children.some(any);
  for (const c of grid.children) {
    if (c.cell && any(c)) hitRows.add(c.cell.row);
    else if (c.role === 'row' && any(c)) for (const k of c.children) if (k.cell) hitRows.add(k.cell.row);
  }
  if (hitRows.size === 0) return undefined;
  const kept = (c: DistilledNode): boolean =>
    c.role === 'columnheader' ||
    (c.cell !== undefined && hitRows.has(c.cell.row)) ||
    (c.role === 'row' && c.children.some((k) => k.role === 'columnheader' || (k.cell && hitRows.has(k.cell.row))));
  return { ...grid, children: grid.children.filter(kept) };
}

function elementLines(root: DistilledNode): SnapshotLine[] {
  const out: SnapshotLine[] = [];
  const parents: string[] = [];
  // Rows hook (rows.ts): each element of a sliced table's row knows the row's line, for diffs.
  const rowOf = new Map<DistilledNode, NonNullable<SnapshotLine['row']>>();
  const visit = (n: DistilledNode, depth: number, inGrid: boolean): void => {
    const rows = sliceRows(n);
    for (const r of rows ?? []) {
      const row = { table: n.ref ?? '?', n: r.row, text: rowLine(r) };
      for (const e of rowElements(r)) rowOf.set(e, row);
    }
    // Its column headers are its line 0: a scroll that moves them out reads as one line with the rows.
    const cols = rows ? columnsLine(n) : undefined;
    const heads = { table: n.ref ?? '?', n: 0, text: cols ?? '' };
    if (cols !== undefined) {
      for (const h of n.children) {
        if (h.role === 'columnheader') rowOf.set(h, heads);
        // A web table's header row and its header cells (rows.ts isHeaderRow).
        else if (
          h.role === 'row' &&
          h.children.length > 0 &&
          h.children.every((c) => c.role === 'columnheader' || c.role === 'rowheader')
        ) {
          rowOf.set(h, heads);
          for (const c of h.children) rowOf.set(c, heads);
        }
      }
    }
    // Grid hook (grid.ts): a grid cell's line names it by address, with its formula, for diffs and receipts. Only
    // in a grid: a long list's slice marks its first and last cells with coordinates too, but prints them as
    // lines (a file chooser's row is not "A157").
    const cell = inGrid && n.cell ? n as Parameters<typeof cellLine>[0] : undefined;
    const line = { ref: n.ref ?? '?', depth, role: n.role, states: renderedStates(n) } as SnapshotLine;
    // Rendered when first read: a receipt's diff reads the lines of the few elements that changed, not all.
    let text: string | undefined;
    Object.defineProperty(line, 'text', {
      get: () => (text ??= cell ? cellLine(cell) : renderLine(n)),
      set: (v: string) => { text = v; },
      enumerable: true,
      configurable: true,
    });
    if (n.states.includes('multiline')) line.multiline = true;
    const parent = parents[parents.length - 1];
    if (parent !== undefined) line.parent = parent;
    if (cell) {
      line.name = addressOfCell(cell);
      const shown = cellShown(cell);
      if (shown) line.shown = shown;
    } else if (n.name !== undefined) line.name = n.name;
    if (!cell) setStandIns(line, n);
    if (cell?.description) line.formula = cell.description;
    if (n.value !== undefined) line.value = n.value;
    if (n.valueStart !== undefined) line.valueStart = n.valueStart;
    if (n.offscreenItems) line.offscreenItems = n.offscreenItems;
    const row = rowOf.get(n);
    if (row) line.row = row;
    const isAGrid = isGrid(n);
    if (isAGrid) {
      const grid = (tokens: number, fold?: GridFold): { summary: string; rows: string[] } => {
        const g = renderGrid(n, estimateTokens, tokens, undefined, fold);
        return { summary: g.summary, rows: g.rows };
      };
      Object.defineProperty(line, 'grid', { value: grid, enumerable: false });
    }
    out.push(line);
    parents.push(line.ref);
    // Cells are a grid's children, or its rows' children (web tables).
    for (const c of n.children) visit(c, depth + 1, isAGrid || (inGrid && n.role === 'row'));
    parents.pop();
  };
  visit(root, 0, false);
  return out;
}

/**
 * The snapshot pipeline: redact → distill → assign refs (always on the whole window, so refs stay stable
 * whatever is shown) → scope / query → budgeted render. Pure apart from updating `refs`.
 * Throws UnknownScopeError when `opts.scope` is not a ref of this window's current tree.
 */
export function buildSnapshot(input: SnapshotInput, refs: RefTable, opts: SnapshotOptions = {}): Snapshot {
  const { tree, folded, rawNodes, chooser } = opts.reads?.of(input.root) ?? distilledRead(input.root);
  const distilled = { root: tree, folded };
  refs.assign(distilled.root, input.window, input.root);

  let focusRef: string | undefined;
  walkDistilled(distilled.root, (n) => {
    if (n.states.includes('focused')) focusRef = n.ref;
  });

  let root = distilled.root;
  if (opts.scope !== undefined) {
    const scoped = findByRef(distilled.root, opts.scope);
    if (!scoped) throw new UnknownScopeError(opts.scope);
    root = scoped;
  }
  const extra: string[] = [];
  const q = opts.query?.trim().toLowerCase();
  if (q) {
    root = filterQuery(root, q, 0, true) ?? root;
    let hits = 0;
    walkDistilled(root, (n) => {
      if (matches(n, q)) hits++;
    });
    extra.push(hits === 0 ? `no element matches query ${JSON.stringify(opts.query)}`
      : `${hits} match${hits === 1 ? '' : 'es'} for query ${JSON.stringify(opts.query)}`);
  }

  const elements = elementLines(root);
  const { refs: opaque, kinds: opaqueKinds, fields: opaqueFields } = opaqueViews(root);
  if (opaque.length) extra.push(opaqueNote(opaque, opts.opaqueTold, opaqueKinds, opaqueFields));
  const fold = opts.fold === true && opts.scope === undefined && !q;
  // The print is rendered when first read (a receipt prints only a diff): it reads the acted refs as they are now.
  const whole = opts.whole ? new Set(opts.whole) : undefined;
  // A page viewer's own controls around its page fold first (engine/chrome.ts); what they hold is marked on the
  // elements now, as a diff reads it. Without a page under the root nothing folds around one (nothing is marked).
  let chrome = fold && holdsPage(root) ? foldChrome(dropWrappers(root, whole).root, whole) : undefined;
  if (chrome) for (const l of elements) if (chrome.refs.has(l.ref)) l.around = true;
  const print = (): PrintFields => {
    let printed = root;
    const notes = [...extra];
    if (fold) {
      // Containers that carry nothing go first (engine/wrappers.ts): what they held folds as its own siblings.
      chrome ??= foldChrome(dropWrappers(root, whole).root, whole);
      // Then runs of alike controls.
      const folded = foldRuns(chrome.root, whole ? { whole } : {});
      printed = folded.root;
      if (folded.elements > 0 || chrome.elements > 0) notes.push(foldNote(folded.elements + chrome.elements));
    }
    const r = renderWithinBudget(printed, input.window, {
      ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
      ...(opts.scope !== undefined ? { uncapped: root } : {}),
      ...(opts.scope !== undefined && opts.textBelow ? { textBelow: root } : {}),
      // How many nameless containers distilling unwrapped is not printed: it told the model nothing it could use.
      notes: { extra: notes },
    });
    const stats = { rawNodes, shownNodes: r.lines.length, folded: distilled.folded,
      omitted: elements.length - r.lines.length };
    return { text: r.text, tokens: r.tokens, lines: r.lines, stats };
  };
  // The print's fields hold their places here (the order a copy or a JSON of the snapshot lists them in).
  const snap = {
    text: '',
    tokens: 0,
    lines: [],
    elements,
    window: input.window,
    stats: undefined,
  } as unknown as Snapshot;
  onFirstRead(snap, print);
  if (focusRef !== undefined) snap.focusRef = focusRef;
  if (opaque.length) {
    snap.opaque = opaque;
    snap.opaqueKinds = opaqueKinds;
    if (opaqueFields) snap.opaqueFields = opaqueFields;
  }
  if (chooser) snap.chooser = chooser;
  return snap;
}

/**
 * The refs a text shown to the model names: an element's line (`[e14]`), a fold line's members (`e15 "Open"`), a
 * grid cell (`e47:B4`), a device's (`d2e14`). App text in quotes that reads like a ref counts too: a ref counted
 * as seen that was not only keeps a removal named, as before the rule (diff.ts `seen`).
 */
export function refsNamed(text: string): string[] {
  return text.match(/\b(?:d\d+)?e\d+\b/g) ?? [];
}

/** What of a Snapshot the print makes: rendered on first read (`onFirstRead`). */
type PrintFields = Pick<Snapshot, 'text' | 'tokens' | 'lines' | 'stats'>;

/**
 * Makes the print's fields of `snap` (text, tokens, lines, stats) computed by `print` on the first read of any of
 * them, once; each then becomes a plain value (a write sets it so too). They stay enumerable and in their places,
 * so a copy or a JSON of the snapshot reads as one built eagerly.
 */
function onFirstRead(snap: Snapshot, print: () => PrintFields): void {
  let made: PrintFields | undefined;
  const plain = (key: keyof PrintFields, value: unknown): void => {
    Object.defineProperty(snap, key, { value, writable: true, enumerable: true, configurable: true });
  };
  for (const key of ['text', 'tokens', 'lines', 'stats'] as const) {
    Object.defineProperty(snap, key, {
      enumerable: true,
      configurable: true,
      get(): unknown {
        made ??= print();
        plain(key, made[key]);
        return made[key];
      },
      set(value: unknown): void {
        plain(key, value);
      },
    });
  }
}

/**
 * True when a page may stand under `root`: a document that holds elements and is not editable text, as
 * `foldChrome` looks for one. Its print's copy (dropWrappers) keeps roles and states and never adds children.
 */
function holdsPage(root: DistilledNode): boolean {
  const stack = [...root.children];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.role === 'document' && n.children.length > 0 && !n.states.includes('editable')) return true;
    stack.push(...n.children);
  }
  return false;
}

/** The footer's word on folded runs: how to print every line (each fold line says how to list its own rest). */
function foldNote(elements: number): string {
  return `full=true lists the ${elements} folded control${elements === 1 ? '' : 's'}`;
}

/** The first file chooser fact of a raw tree, with the first folder any chooser in it knows. */
function chooserOf(root: RawNode): { folder?: string } | undefined {
  let found: { folder?: string } | undefined;
  walk(root, (n) => {
    if (!n.chooser) return;
    found ??= {};
    if (found.folder === undefined && n.chooser.folder !== undefined) found.folder = n.chooser.folder;
  });
  return found;
}
