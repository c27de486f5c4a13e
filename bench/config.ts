/** Benchmark settings (from the environment), targets, paths and two small helpers shared by its modules. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUNS = Math.max(1, Number(process.env['BENCH_RUNS'] ?? 10));
export const WARMUP = Math.max(0, Number(process.env['BENCH_WARMUP'] ?? 2));
export const BASELINE_RUNS = 5;
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BASELINE_SCRIPT = join(ROOT, 'bench', 'atspi_baseline.py');
export const PAGE = join(ROOT, 'bench', 'pages', 'form.html');
export const RESULTS = join(ROOT, 'bench', 'results');

/** The targets: printed as PASS/FAIL columns, never asserted (the machine is noisy). */
export const TARGETS = {
  gtk4ObserveP50Ms: 100,
  gtk4SpeedupVsLibatspi: 5,
  snapshotTokensMedian: 600,
  actResultTokens: 150,
  actSettleP50Ms: 250,
};

export const DUMP = process.env['BENCH_DUMP'] === '1';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** First line of an error, at most 160 characters, for a table cell. */
export const errText = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 160);
