/** How a tall grid's print is cut: below the grid renderer and the nodes and lines that carry a cut. */

/**
 * How a folded print cuts a tall grid: its first `head` rows (a sheet's column titles sit there), the `around`
 * rows either side of the cursor and the rows of `keep` (cells just acted on), and a line for each gap that says
 * how to list it. A first print of a 25-row sheet read ~300 tokens of rows, a Find Next's receipt ~600.
 */
export interface GridFold {
  head: number;
  around: number;
  /** Rows (0-based) shown whatever their place. */
  keep?: readonly number[];
  /**
   * The cursor's row (0-based) when no cell reads as focused: Calc behind its Find dialog, whose Find Next moved
   * the sheet, has no focused cell; its cell-address box names the one found.
   */
  at?: number;
}
/** Grids of more rows than this fold; shorter ones print whole (their gap line would cost about what it saves). */
export const GRID_FOLD_MIN = 16;
/**
 * A first print: the top of the view and the cursor's neighbourhood. Three rows show what the sheet holds (its
 * titles and two rows under them), as a list's first print does (fold.ts FOLDED_ROWS); ten read ~80 tokens more
 * and told a model nothing a scope read would not.
 */
export const FIRST_PRINT_GRID_FOLD: GridFold = { head: 3, around: 2 };
/**
 * A receipt's grid that shows other cells: where the cursor went, as a first print shows it, without the top of
 * the view (the model saw the sheet's titles in its first print; a list's scroll receipt prints its target's rows
 * only, diff.ts).
 */
export const RECEIPT_GRID_FOLD: GridFold = { head: 0, around: 2 };
