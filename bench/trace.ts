/** Driver call tracing: every device.call is timed, so a measurement can be broken down per method. */
import type { Device } from '../src/devices/manager.js';

export interface Trace { method: string; ms: number }
let trace: Trace[] | null = null;

/** Wraps `device.call` so that calls made inside `timed` are recorded. */
export function instrument(device: Device): void {
  const orig = device.call.bind(device);
  const wrapped: typeof device.call = async (method, params, timeoutMs) => {
    const t0 = performance.now();
    try {
      return await orig(method, params, timeoutMs);
    } finally {
      trace?.push({ method, ms: performance.now() - t0 });
    }
  };
  device.call = wrapped;
}

/** Runs `fn` and returns its wall time plus the time spent in each driver method. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; calls: Trace[] }> {
  trace = [];
  const t0 = performance.now();
  try {
    const value = await fn();
    return { value, ms: performance.now() - t0, calls: trace };
  } finally {
    trace = null;
  }
}

/** Total ms spent in one driver method. */
export const sumOf = (calls: Trace[], method: string): number =>
  calls.filter((c) => c.method === method).reduce((a, c) => a + c.ms, 0);
