/**
 * The last whole read of each window the driver answered, kept so that the next read asked with its mark (an act's
 * receipt) is patched where the app's events say the window changed instead of read again whole (patch-read.ts).
 */
import type { KeptRead } from './patch-plan.js';

/** Windows whose last read is kept (the oldest is forgotten first). */
const MAX_KEPT = 8;

export class KeptReads {
  private readonly reads = new Map<string, KeptRead>();

  /** The kept read of `window` when it is the one answered with `mark`. */
  get(window: string, mark: string): KeptRead | undefined {
    const read = this.reads.get(window);
    return read?.mark === mark ? read : undefined;
  }

  keep(window: string, read: KeptRead): void {
    this.reads.delete(window);
    this.reads.set(window, read);
    if (this.reads.size > MAX_KEPT) this.reads.delete(this.reads.keys().next().value!);
  }

  forget(window: string): void { this.reads.delete(window); }
}
