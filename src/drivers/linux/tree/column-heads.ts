/**
 * The column headers of a table slice read below its first row. A long table's children are its headers, then
 * its cells row by row; the slice on screen after a scroll starts past the headers, so its rows printed with no
 * column names (GNOME System Monitor's process list: which value is the PID?). They are read through the Table
 * interface and put before the slice's cells.
 */
import type { RawNode } from '../../../protocol/nodes.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { readElement, toRawNode } from './reader.js';
import { sliceRows } from './visible.js';

const TABLE = 'org.a11y.atspi.Table';
const NULL_PATH = '/org/a11y/atspi/null';
/** Columns whose header is read at most (a table wider than this names its first ones). */
const MAX_COLUMNS = 40;

/** Puts the table's column headers before a slice that holds none; nothing when the table has none. */
export async function addColumnHeads(bus: A11yBus, t: Target, node: RawNode, showingReliable: boolean): Promise<void> {
  const kids = node.children ?? [];
  // A web table's children are rows, its headers inside a row of their own: not this shape.
  if (
    !node.childRange ||
    node.childRange.start === 0 ||
    kids.some((k) => k.role === 'columnheader' || k.role === 'row')
  )
    return;
  const cols = Math.min(
    MAX_COLUMNS,
    Math.max(0, node.table?.cols ?? Number(await bus.getProp(t, TABLE, 'NColumns').catch(() => 0))),
  );
  const heads = await Promise.all(Array.from({ length: cols }, async (_, c) => {
    const [ref] = await bus.call(t, TABLE, 'GetColumnHeader', 'i', [c]).catch(() => [undefined]);
    const r = ref as [string, string] | undefined;
    if (!r || !r[1] || r[1] === NULL_PATH) return undefined;
    const info = await readElement(bus, { dest: r[0], path: r[1] }, { children: false }).catch(() => undefined);
    const head = info ? toRawNode(info, showingReliable) : undefined;
    return head?.role === 'columnheader' && head.name ? head : undefined;
  }));
  const named = heads.filter((h): h is RawNode => h !== undefined);
  // The slice's children are numbered from its start (their index in the table): the headers go just before it.
  if (named.length === 0 || named.length > node.childRange.start) return;
  node.children = [...named, ...kids];
  node.childRange = { start: node.childRange.start - named.length, end: node.childRange.end };
}

/** The table facts of a slice read of a long table (visible.ts sliceRows), then its column headers. */
export async function annotateTableSlice(
  bus: A11yBus,
  t: Target,
  node: RawNode,
  showingReliable: boolean,
): Promise<void> {
  await sliceRows(bus, t, node);
  // A slice read after a scroll starts past the header row: its rows still name their columns.
  await addColumnHeads(bus, t, node, showingReliable).catch(() => undefined);
}
