/**
 * The web document a browser window holds, and whether it has loaded. A browser shows its window before its page:
 * the document is first missing, then empty or `busy` (Chromium and Firefox set the busy state on the document web
 * while it loads). A launch that answers before then prints an empty or half page; one that takes the first window
 * may name a helper window (Chromium opens small ones) instead of the one holding the page.
 */
import type { A11yBus, Target } from '../bus/bus.js';
import { decodeStates } from './reader.js';

const ACC = 'org.a11y.atspi.Accessible';
const DOCUMENT_ROLE = 'document web';
/** Most elements looked at on the way down to the document (a browser's own toolbars come first). */
const MAX_NODES = 800;
/** How deep the document may sit below its window (Chromium: about 8 levels). */
const MAX_DEPTH = 24;
/** How long one call may take (a loading page can keep the browser's main thread busy). */
const CALL_MS = 1500;

/** The document found in a window: its element, whether it is still loading, and how many children it has. */
export interface WebDocument { target: Target; busy: boolean; children: number }

/**
 * The first web document below `window` (breadth first, bounded), or undefined when there is none. A page's own
 * subtree is not searched for a nested document: the first one found is the window's page.
 */
export async function webDocumentOf(bus: A11yBus, window: Target): Promise<WebDocument | undefined> {
  let level: Target[] = [window];
  let seen = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length && seen < MAX_NODES; depth++) {
    const next: Target[] = [];
    for (const t of level) {
      if (++seen > MAX_NODES) break;
      const [[role], kids] = await Promise.all([
        bus.call(t, ACC, 'GetRoleName', '', [], CALL_MS).catch(() => ['']),
        bus.call(t, ACC, 'GetChildren', '', [], CALL_MS).then((r) => (r[0] ?? []) as [string, string][], () => []),
      ]);
      if (role === DOCUMENT_ROLE) {
        const [words] = await bus.call(t, ACC, 'GetState', '', [], CALL_MS).catch(() => [[0, 0]]);
        return { target: t, busy: decodeStates(words as number[]).has('busy'), children: kids.length };
      }
      for (const [dest, path] of kids) next.push({ dest, path });
    }
    level = next;
  }
  return undefined;
}

/** True when a document has loaded: present, not busy, with something in it. */
export function documentLoaded(doc: WebDocument | undefined): boolean {
  return doc !== undefined && !doc.busy && doc.children > 0;
}
