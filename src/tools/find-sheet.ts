/**
 * Find on a window with a sheet. A sheet holds far more cells than it shows and find never reads them all: Calc's
 * table reads only the cells in view of its 2³¹−1, gnumeric's sheet is a drawn panel that exposes none. A model
 * that found one match on screen believed it had found all, so every find answer on such a window says in one line
 * what was searched and how to reach the rest (the app's own Find & Replace, the cell-address box to jump), unless
 * the sheet's scroll bars say the whole used area is on screen. A cell address off screen is a coordinate, answered
 * with the acts that bring it into view.
 */
import { quoteText } from '../engine/escape.js';
import { cellAddress, parseAddress } from '../engine/grid.js';
import { walk, type RawNode } from '../engine/node.js';
import type { OpaqueKind, SheetFields } from '../engine/opaque.js';
import { redactText } from '../engine/redact.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import { goToCellHint } from '../session/cells.js';
import type { Session } from '../session/session.js';

/**
 * Tables read by coordinate (a sheet: the driver reads only the cells on screen, `childCount` in the
 * millions; Calc says 2³¹−1). Their rows are not searched one by one (list.find would walk a million rows).
 */
export function isSheet(n: RawNode): boolean {
  return n.table !== undefined && (n.childCount ?? 0) >= 1_000_000;
}

/** What the snapshot knows of the window's opaque views (engine/opaque.ts): their refs, kinds and sheet fields. */
export interface OpaqueFacts { opaque?: string[]; opaqueKinds?: OpaqueKind[]; opaqueFields?: SheetFields }

/** Hits (an off-screen cell address) and the one line per sheet about the cells find did not search. */
export interface SheetFind { hits: string[]; notes: string[] }

/**
 * Find on the sheets of a window: a cell address off screen ("T480") is a hit with the acts that bring it into
 * view; for any other search that could match a cell (no role, or role cell), one line per sheet that says which
 * cells were searched and how to reach the others.
 */
export function sheetFind(
  session: Session,
  root: RawNode,
  elements: readonly SnapshotLine[],
  snap: OpaqueFacts,
  text: string | undefined,
  role: string | undefined,
): SheetFind {
  const out: SheetFind = { hits: [], notes: [] };
  if (role !== undefined && role !== 'cell') return out;
  const at = text === undefined ? undefined : parseAddress(text.trim());
  const reach = howToReach(elements, snap.opaqueFields);
  walk(root, (n, ancestors) => {
    if (!isSheet(n)) return;
    const line = elements.find((l) => session.refs.lookup(l.ref)?.id === n.id);
    if (!line) return;
    const cells = (n.children ?? []).flatMap((c) => (c.cell ? [c.cell] : []));
    const shown = cells.length
      ? `${cellAddress(Math.min(...cells.map((c) => c.row)), Math.min(...cells.map((c) => c.col)))}:` +
        `${cellAddress(Math.max(...cells.map((c) => c.row)), Math.max(...cells.map((c) => c.col)))}`
      : undefined;
    const label = `table${line.name ? ` ${quoteText(redactText(line.name).slice(0, 40))}` : ''} [${line.ref}]`;
    const onScreen = at && cells.some((c) => c.row === at.row && c.col === at.col);
    if (at && !onScreen && n.table && at.row < n.table.rows && at.col < n.table.cols) {
      const address = cellAddress(at.row, at.col);
      out.hits.push(
        `cell "${address}" of ${label}, off-screen${shown ? ` (the snapshot shows ${shown})` : ''}; bring ` +
          `it into view: ` +
          `${goToCellHint(elements, address)}, then computer_observe (and act on it as ref=${line.ref}:${address})`,
      );
    } else if (!at && !wholeUsedAreaShown(n, ancestors)) {
      out.notes.push(
        `(${label}: only its cells on screen${shown ? ` (${shown})` : ''} were searched; for the rest: ` + `${reach})`,
      );
    }
  });
  // A sheet drawn without cells (gnumeric): nothing of it was searched, whatever the text.
  const drawn = snap.opaqueKinds?.includes('sheet') ? snap.opaque ?? [] : [];
  for (const ref of drawn.slice(0, 1))
    out.notes.push(`(sheet [${ref}] draws its cells without exposing them: none was searched; for them: ${reach})`);
  return out;
}

/** The ways to the cells find did not search: the app's Find & Replace, and the jump through the address box. */
function howToReach(elements: readonly SnapshotLine[], fields: SheetFields | undefined): string {
  const box = fields?.address ?? elements.find((l) =>
    l.role === 'textbox' && l.states.includes('editable') && parseAddress((l.value ?? '').trim()) !== undefined)?.ref;
  return 'computer_keys keys="ctrl+h" (the app\'s Find & Replace)' +
    (box ? `, or the cell-address box [${box}]: focus, set_value, Return` : '');
}

/**
 * Whether the scroll bars beside a sheet (under its parent or the parent's parent, a few levels down) are all
 * there and all without room to move: the whole used area is on screen. Any bar with room, or none found: not known.
 */
function wholeUsedAreaShown(sheet: RawNode, ancestors: readonly RawNode[]): boolean {
  const around = ancestors[ancestors.length - 2] ?? ancestors[ancestors.length - 1];
  if (!around) return false;
  const bars: RawNode[] = [];
  walk(around, (n, anc) => {
    if (n === sheet || anc.length > 3) return 'skip';
    if (n.role === 'scrollbar') bars.push(n);
    return undefined;
  });
  return bars.length > 0 && bars.every((b) => !b.range || b.range.max <= b.range.min);
}
