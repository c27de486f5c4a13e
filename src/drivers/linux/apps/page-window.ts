/**
 * The window of a launched browser that holds its page, once the page has loaded. A browser's first window can
 * be a small helper (Chromium opens one of 712×89) and its page window shows an empty document before the page
 * loads: a launch waits, bounded by its own deadline, for a window whose web document is loaded.
 */
import type { WindowInfo } from '../../../protocol/nodes.js';
import type { A11yBus } from '../bus/bus.js';
import { targetOf } from '../tree/reader.js';
import { documentLoaded, webDocumentOf } from '../tree/web-document.js';

/** How often the windows are looked at again while the page loads. */
const POLL_MS = 150;
/** How long a browser may show windows without any document before the wait ends (a profile or crash dialog). */
const NO_DOCUMENT_MS = 5000;

/** What the wait found: the page's window (loaded or not), and whether its page had loaded by the deadline. */
export interface PageWindow { window: WindowInfo; loaded: boolean }

/** Larger windows first: a page window is larger than a browser's helper windows. */
function area(w: WindowInfo): number { return w.bounds ? w.bounds[2] * w.bounds[3] : 0; }

/**
 * Waits until one of the windows `list` returns holds a loaded web document, or until `deadline`
 * (performance.now() time). Undefined when no window holds a document at all by then, or for NO_DOCUMENT_MS.
 */
export async function waitForPageWindow(bus: A11yBus, list: () => Promise<WindowInfo[]>,
  deadline: number): Promise<PageWindow | undefined> {
  let holding: WindowInfo | undefined;
  const givingUp = performance.now() + NO_DOCUMENT_MS;
  for (;;) {
    const windows = [...await list().catch(() => [])].sort((a, b) => area(b) - area(a));
    for (const w of windows) {
      const doc = await webDocumentOf(bus, targetOf(w.id)).catch(() => undefined);
      if (documentLoaded(doc)) return { window: w, loaded: true };
      if (doc) holding ??= w;
    }
    if (performance.now() >= deadline) return holding ? { window: holding, loaded: false } : undefined;
    if (!holding && performance.now() >= givingUp) return undefined;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
