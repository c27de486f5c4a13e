/** Small statistics and formatting helpers for the benchmark. */

/** Median of a sample (NaN when empty). */
export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Percentile with linear interpolation between closest ranks (p in 0..100; NaN when empty). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = s[lo] ?? Number.NaN;
  const b = s[hi] ?? Number.NaN;
  return a + (b - a) * (rank - lo);
}

/** Rounds to one decimal place (keeps NaN). */
export function r1(n: number): number { return Math.round(n * 10) / 10; }

/** Summary of a sample of milliseconds. */
export interface Summary { n: number; p50: number; p95: number; min: number; max: number }

export function summarize(xs: readonly number[]): Summary {
  return {
    n: xs.length,
    p50: r1(median(xs)),
    p95: r1(percentile(xs, 95)),
    min: r1(Math.min(...xs)),
    max: r1(Math.max(...xs)),
  };
}

/** Plain aligned text table; numbers are right-aligned. */
export function table(headers: string[], rows: (string | number | undefined)[][]): string {
  const cells = rows.map((r) => headers.map((_, i) => fmt(r[i])));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const numeric = headers.map((_, i) =>
    rows.every((r) => r[i] === undefined || typeof r[i] === 'number' || /^[-\d.,×x%]+$/.test(String(r[i]))),
  );
  const line = (r: string[]): string =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

function fmt(v: string | number | undefined): string {
  if (v === undefined) return '-';
  if (typeof v === 'number') return Number.isNaN(v) ? '-' : String(v);
  return v;
}

/** "PASS" / "FAIL" / "n/a" for a target check. */
export function verdict(ok: boolean | undefined): string {
  return ok === undefined ? 'n/a' : ok ? 'PASS' : 'FAIL';
}
