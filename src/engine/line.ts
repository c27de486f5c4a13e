/** The line type a snapshot is made of: what the renderer writes and the diff, find and receipts read. */
import type { State } from './node.js';
import type { Role } from './role.js';
import type { GridFold } from './grid-fold.js';

/** One rendered element line. */
export interface SnapshotLine {
  ref: string;
  /** Indentation level (0 = the rendered root). */
  depth: number;
  /** Ref of the nearest rendered ancestor. */
  parent?: string;
  role: Role;
  name?: string;
  /** A nameless element's description as printed (`nameDescription`): find matches it like a name. */
  description?: string;
  /** The label beside a nameless field as printed (`besideLabel`): find matches it like a name. */
  beside?: string;
  value?: string;
  /** Offset in the element's whole text where `value` starts (a terminal read from its tail): a diff's `from`. */
  valueStart?: number;
  /** States as rendered (see RENDERED_STATES). */
  states: State[];
  /** A text field of more than one line (`multiline` is never rendered): a line break there is text, not a submit. */
  multiline?: true;
  /** The line as rendered, without indentation. */
  text: string;
  /** A spreadsheet cell's formula (its value is the computed result), see grid.ts. */
  formula?: string;
  /**
   * A table shown as a grid: its summary and rows within a token allowance, as observe prints them (a diff
   * prints a new grid this way). Not enumerable: a saved snapshot keeps only data.
   */
  readonly grid?: (tokens: number, fold?: GridFold) => { summary: string; rows: string[] };
  /** What a grid cell shows (`cellShown`: its text, or its box in a check column); its name is its address. */
  shown?: string;
  /**
   * The row of a sliced table this element sits in (engine/rows.ts): its table's ref, its row number and the
   * row's line as printed, so a diff prints a row that came into view as that one line.
   */
  row?: { table: string; n: number; text: string };
  /** Inside a part a whole-window print folded around its page (engine/chrome.ts): a diff leaves out its changes. */
  around?: true;
  /** A list's items the app keeps off screen (DistilledNode `offscreenItems`): a receipt says how many show. */
  offscreenItems?: number;
}
