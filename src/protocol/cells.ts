/**
 * The cell address grammar, defined once for the wire, the engine and every driver (docs/protocol.md, "Cell
 * addresses"): a column in spreadsheet letters (0 → A, 25 → Z, 26 → AA, 16383 → XFD, 1 to 3 letters, either
 * case) followed by a 1-based row number (1 to 7 digits, no leading zero): "B7" is row 6, column 1 (0-based).
 * A range is two addresses joined by ":" ("B1:B3"), corners in any order.
 */

/** The grammar as a regular expression (one address), for the docs and the schema. */
export const CELL_ADDRESS_PATTERN = '^[A-Za-z]{1,3}[1-9][0-9]{0,6}$';

/** Spreadsheet column letters of a 0-based column: 0 → A, 25 → Z, 26 → AA. */
export function columnName(col: number): string {
  let s = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** "B7" for 0-based (6, 1). */
export function cellAddress(row: number, col: number): string {
  return `${columnName(col)}${row + 1}`;
}

/** 0-based column of spreadsheet letters ("AA" → 26). */
function columnOf(letters: string): number {
  let col = 0;
  for (const ch of letters.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return col - 1;
}

/** Parses "B7" / "b7" / "AA10" into 0-based (row, col); undefined for anything else. */
export function parseAddress(address: string): { row: number; col: number } | undefined {
  const m = /^([A-Za-z]{1,3})([1-9][0-9]{0,6})$/.exec(address);
  if (!m?.[1] || !m[2]) return undefined;
  return { row: Number(m[2]) - 1, col: columnOf(m[1]) };
}

/** Parses "A1:C3" (or one address; spaces around allowed) into an inclusive 0-based [r0, c0, r1, c1]. */
export function parseRange(s: string): [number, number, number, number] | undefined {
  const [first, second, ...rest] = s.trim().split(':');
  if (first === undefined || rest.length > 0) return undefined;
  const a = parseAddress(first);
  const b = second === undefined ? a : parseAddress(second);
  if (!a || !b) return undefined;
  return [Math.min(a.row, b.row), Math.min(a.col, b.col), Math.max(a.row, b.row), Math.max(a.col, b.col)];
}

/**
 * A scroll's target value: "to N" (row N, 1-based; thousands separators allowed) or "to B7" (a cell) as 0-based
 * { row, col? }; undefined for anything else ("up", "into_view").
 */
export function parseScrollTo(value: string): { row: number; col?: number } | undefined {
  const m = /^to\s+(?:(\d[\d,]*)|([A-Za-z]{1,3}\d+))$/i.exec(value.trim());
  if (m?.[1]) return { row: Number(m[1].replace(/,/g, '')) - 1 };
  return m?.[2] ? parseAddress(m[2]) : undefined;
}

/** Most pages or rows one scroll moves (a bigger amount is refused, not cut: the caller meant something else). */
export const MAX_SCROLL_COUNT = 1000;

/**
 * A scroll by an amount: "down", "up 3", "down 10 pages", "up 5 rows" (also "lines", "items") as a direction,
 * a count (1 when absent) and a unit (pages when absent); undefined for anything else or a count over
 * MAX_SCROLL_COUNT.
 */
export function parseScrollBy(
  value: string,
): { direction: 'up' | 'down' | 'left' | 'right'; count: number; unit: 'page' | 'row' } | undefined {
  const m = /^(up|down|left|right)(?:\s+(\d{1,7})(?:\s*(pages?|rows?|lines?|items?))?)?$/i.exec(value.trim());
  if (!m?.[1]) return undefined;
  const count = m[2] === undefined ? 1 : Number(m[2]);
  if (count < 1 || count > MAX_SCROLL_COUNT) return undefined;
  return {
    direction: m[1].toLowerCase() as 'up' | 'down' | 'left' | 'right',
    count,
    unit: m[3] && !/^page/i.test(m[3]) ? 'row' : 'page',
  };
}
