/** The libatspi baseline: bench/atspi_baseline.py walks the same window's whole tree with python3-gi. */
import { execFile } from 'node:child_process';
import { BASELINE_RUNS, BASELINE_SCRIPT } from './config.js';

export interface Baseline { nodes: number; medianMs: number; runs: number[] }

export function runBaseline(env: Record<string, string>, pid: number, title: string): Promise<Baseline> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [BASELINE_SCRIPT, '--pid', String(pid), '--title', title, '--runs', String(BASELINE_RUNS)],
      { env, timeout: 240_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        let parsed: { nodes?: number; median_ms?: number; runs_ms?: number[]; error?: string } | undefined;
        try { parsed = JSON.parse(line) as typeof parsed; } catch { /* below */ }
        if (parsed?.error) return reject(new Error(parsed.error));
        if (err || !parsed || parsed.nodes === undefined || parsed.median_ms === undefined) {
          return reject(
            new Error(`${err ? err.message : 'no output'} ${stderr.trim().split('\n').slice(-2).join(' ')}`.trim()),
          );
        }
        resolve({ nodes: parsed.nodes, medianMs: parsed.median_ms, runs: parsed.runs_ms ?? [] });
      });
  });
}
