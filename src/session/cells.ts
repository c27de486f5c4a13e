/**
 * Cell addressing for acts: `<table ref>:<address>` ("e34:B7") names a cell of a table shown as a grid
 * (engine/grid.ts). It resolves to that cell's own ref in the window's last snapshot, so the one acting
 * pipeline (identity re-check, policy, audit, receipt) runs on the cell exactly as on any element.
 */
import { parseAddress, cellAddress } from '../engine/grid.js';
import { buildSnapshot, type Snapshot, type SnapshotLine } from '../engine/snapshot.js';
import { parseRange, parseScrollTo } from '../protocol/cells.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { Session } from './session.js';

/** `e34:B7` → { table: 'e34', address: 'B7' }; undefined for a plain ref. */
export function splitCellRef(ref: string): { table: string; address: string } | undefined {
  const m = /^((?:d[0-9]{1,3})?[a-z][0-9]{1,14}):([A-Za-z]{1,3}[0-9]{1,7})$/.exec(ref);
  return m?.[1] && m[2] ? { table: m[1], address: m[2] } : undefined;
}

/**
 * The ref of the cell a cell ref names, from the last snapshot of the table's window (or `snap`, a newer
 * read of it). A plain ref is returned as is. Throws invalid_params for a bad address, and not_visible-style
 * guidance (invalid_params, with the range shown) when the cell is not among the cells read (off screen).
 */
export function resolveCellRef(session: Session, ref: string, snap?: Snapshot): string {
  const split = splitCellRef(ref);
  if (!split) return ref;
  const entry = session.refs.lookup(split.table);
  if (!entry) return ref;
  const at = parseAddress(split.address);
  if (!at) throw new ComputerUseError('invalid_params', `"${split.address}" is not a cell address (like B7).`);
  const address = cellAddress(at.row, at.col);
  snap ??= session.last.get(entry.fingerprint.window);
  const table = snap?.elements.find((l) => l.ref === split.table);
  if (!snap || !table)
    throw new ComputerUseError(
      'stale_ref',
      `Ref ${split.table} is not in the last snapshot of its window. Call computer_observe, then act again.`,
    );
  if (!showsGrid(snap, split.table, table.role)) {
    throw new ComputerUseError(
      'invalid_params',
      `${split.table} is a ${table.role}, not a table: a cell ref names a table's ref and a cell address ` +
        `(like e12:B7).`,
    );
  }
  const hit = cellsOf(snap, split.table).find((l) => l.name === address);
  if (hit) return onlyControlIn(snap, hit.ref)?.ref ?? hit.ref;
  const range = /cells (\S+) of/.exec(snap.lines.find((l) => l.ref === split.table)?.text ?? '')?.[1];
  throw new OffScreenCell(
    `Cell ${address} of ${split.table} is not on screen${range ? ` (the snapshot shows ${range})` : ''}. ` +
      `Bring it into view first: scroll ${split.table} value="${scrollToValue(at, snap, split.table)}" ` +
      '(in this call, before this action).',
  );
}

/**
 * The scroll value that brings a cell on screen, in the form find names a row by: "to N" (row N), the same for a
 * list, a table and a sheet; "to B7" only when the cell's column is not among the columns read either (a wide sheet
 * scrolled left), where the row alone would not show it. Both forms are taken by every scroll.
 */
export function scrollToValue(at: { row: number; col: number }, snap: Snapshot, table: string): string {
  const cols = new Set(cellsOf(snap, table).map((l) => (l.name !== undefined ? parseAddress(l.name)?.col : undefined)));
  return cols.has(at.col) ? `to ${at.row + 1}` : `to ${cellAddress(at.row, at.col)}`;
}

/**
 * The acts that bring a sheet's cell into view through its Name Box (Calc: an editable textbox holding the
 * cursor's address), which moves the cursor there and scrolls the view; Selection.SelectChild and GrabFocus on
 * the cell do not scroll it (measured, Calc 7.4). Said in words when the snapshot shows no Name Box.
 */
export function goToCellHint(elements: readonly SnapshotLine[], address: string): string {
  const box = elements.find(
    (l) =>
      l.role === 'textbox' &&
      l.states.includes('editable') &&
      /^[A-Z]{1,3}[1-9]\d*(:[A-Z]{1,3}[1-9]\d*)?$/.test(l.value ?? ''),
  );
  return box
    ? `computer_act actions=[{ref:"${box.ref}",op:"focus"},{ref:"${box.ref}",op:"set_value",value:"` +
        `${address}"}] (the Name Box), computer_keys keys="Return"`
    : `set the sheet's Name Box to ${address} and press Return`;
}

/**
 * Whether a snapshot element takes cell refs: a table or tree, or any view the snapshot printed as a grid with
 * cells (Qt's list views are lists with a table's cells), so that its own hint `act on a cell: ref=eN:B7` works.
 */
function showsGrid(snap: Snapshot, ref: string, role: string): boolean {
  return role === 'table' || role === 'tree' || cellsOf(snap, ref).some((l) => l.role === 'cell');
}

/**
 * The cell of the same row that expands or collapses it, for an expand or collapse asked of another cell of a tree
 * row: a GTK tree view expands a row only through its expander column's cell (the one that reads collapsed or
 * expanded); the "expand or contract" action of any other cell does nothing. `ref` itself when it is that cell,
 * when no cell of its row can expand (a leaf), or when it is no cell of the last snapshot.
 */
export function rowExpander(session: Session, ref: string): string {
  const snap = session.last.get(session.refs.lookup(ref)?.fingerprint.window ?? '');
  const cell = snap?.elements.find((l) => l.ref === ref);
  const expands = (l: SnapshotLine): boolean => l.states.includes('collapsed') || l.states.includes('expanded');
  if (!snap || !cell || cell.role !== 'cell' || expands(cell) || cell.name === undefined) return ref;
  const at = parseAddress(cell.name);
  const row = snap.elements.find((l) => l.ref === cell.parent);
  const table = row?.role === 'row' ? row.parent : cell.parent;
  if (!at || table === undefined) return ref;
  const mate = cellsOf(snap, table).find(
    (l) => l.role === 'cell' && expands(l) && parseAddress(l.name ?? '')?.row === at.row,
  );
  return mate?.ref ?? ref;
}

/** Roles of the controls a cell may hold. */
const CONTROL_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'combobox',
  'textbox',
  'spinbutton',
  'slider',
  'menuitem',
]);

/**
 * The one control inside a cell (a row's Delete button): an act on the cell goes to it, as a person's click on
 * the cell would. A web grid cell's own click action does nothing (Chromium: the click reached the cell, not its
 * button). Undefined when the cell holds none or several.
 */
function onlyControlIn(snap: Snapshot, cell: string): SnapshotLine | undefined {
  const byRef = new Map(snap.elements.map((l) => [l.ref, l]));
  const under = (l: SnapshotLine): boolean => {
    for (let p = l.parent, up = 0; p !== undefined && up < 4; p = byRef.get(p)?.parent, up++)
      if (p === cell) return true;
    return false;
  };
  const inside = snap.elements.filter((l) => CONTROL_ROLES.has(l.role) && under(l));
  return inside.length === 1 ? inside[0] : undefined;
}

/** The cell lines of a table in a snapshot: the table's children, or its rows' children (web tables). */
function cellsOf(snap: Snapshot, table: string): SnapshotLine[] {
  const rows = new Set(snap.elements.filter((l) => l.parent === table && l.role === 'row').map((l) => l.ref));
  return snap.elements.filter(
    (l) =>
      (l.parent === table || (l.parent !== undefined && rows.has(l.parent))) &&
      (l.role === 'cell' || l.role === 'columnheader'),
  );
}

/**
 * The cells of `table` in `snap` that a range value (`A1:A20`, `B7`) names, by their addresses; undefined when
 * the value is no range or the ref is no table (a select by an item's name).
 */
export function cellsInRange(snap: Snapshot, table: string, value: string): SnapshotLine[] | undefined {
  const r = parseRange(value);
  const line = snap.elements.find((l) => l.ref === table);
  if (!r || !line || !showsGrid(snap, table, line.role)) return undefined;
  return cellsOf(snap, table).filter((l) => {
    const at = l.name !== undefined ? parseAddress(l.name) : undefined;
    return at !== undefined && at.row >= r[0] && at.row <= r[2] && at.col >= r[1] && at.col <= r[3];
  });
}

/**
 * Whether a scroll's value "to N" (a row, 1-based) or "to B7" (a cell) shows among the cells of `table` read in
 * `snap` (a sheet's cells are named by address); false for any other value.
 */
export function scrolledTo(snap: Snapshot, table: string, value: string | undefined): boolean {
  const want = value === undefined ? undefined : parseScrollTo(value);
  return want !== undefined && cellsOf(snap, table).some((l) => {
    const at = l.name !== undefined ? parseAddress(l.name) : undefined;
    return at !== undefined && at.row === want.row && (want.col === undefined || at.col === want.col);
  });
}

/**
 * A driver's error that names a cell to bring into view (`details.goToCell`: a sheet's row too far to scroll to)
 * with the Name Box acts that go there, from the model's last snapshot of the element's window.
 */
export function withGoToCell(session: Session, ref: string, err: ComputerUseError): ComputerUseError {
  const address = err.details['goToCell'];
  const at = typeof address === 'string' ? parseAddress(address) : undefined;
  const snap = session.last.get(session.refs.lookup(ref)?.fingerprint.window ?? '');
  if (!at || !snap) return err;
  return new ComputerUseError(
    err.code,
    `${err.message} Bring it into view: ${goToCellHint(snap.elements, cellAddress(at.row, at.col))}.`,
    err.details,
  );
}

/** A cell ref whose cell is not among the cells read. */
class OffScreenCell extends ComputerUseError {
  constructor(message: string) { super('invalid_params', message); }
}

/**
 * `resolveCellRef` within a batch: a cell an earlier action of the same call brought into view ("scroll to
 * 257, then A257 select") is not in the snapshot the model saw, so when `reread` (an earlier action ran) the
 * window is read again and the address looked up there. That read assigns refs but does not replace the
 * last snapshot: the call's diff still compares with what the model saw.
 */
export async function resolveCellRefNow(session: Session, ref: string, reread: boolean): Promise<string> {
  try {
    return resolveCellRef(session, ref);
  } catch (e) {
    const split = splitCellRef(ref);
    const window = split && session.last.get(session.refs.lookup(split.table)?.fingerprint.window ?? '')?.window;
    if (!(e instanceof OffScreenCell) || !reread || !window) throw e;
    // A virtual list renders the scrolled-to rows a moment after the scroll settles (Chromium: rows came
    // in after the quiet time); read again for a bounded time before answering that the cell is not there.
    const deadline = Date.now() + CELL_RENDER_WAIT_MS;
    for (;;) {
      const raw = await session.readWindow(window);
      const snap = buildSnapshot({ window: raw.window, root: raw.root }, session.refs, {
        maxTokens: session.maxTokens,
      });
      try {
        return resolveCellRef(session, ref, snap);
      } catch (again) {
        if (!(again instanceof OffScreenCell) || Date.now() >= deadline) throw again;
      }
      await new Promise((r) => setTimeout(r, CELL_RENDER_POLL_MS));
    }
  }
}

/** How long a cell an earlier action scrolled to may take to appear in the tree, and the pause between reads. */
const CELL_RENDER_WAIT_MS = 1500;
const CELL_RENDER_POLL_MS = 100;
