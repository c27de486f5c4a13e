/**
 * Element disambiguation for computer_find: when a text search has no hit, or several hits tie for
 * the best match, the decider model (when one is configured) picks the element the caller most likely means
 * among at most 20 candidates. It only reorders what find returns; it never acts and never hides a candidate.
 *
 * What is a tie: hits are scored exact name (3) > name starts with the text (2) > name or value contains it (1);
 * two or more hits sharing the top score tie. With no hit at all, the candidates are the elements of the asked
 * role (or, without a role, the named elements) when there are at most 20 of them, else those among them that
 * share a word with the text. Candidate text is what find would print (role, name, states, breadcrumb),
 * redacted again before it leaves, and the decider quotes it as untrusted data.
 */
import { redactText } from '../engine/redact.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import { MAX_CANDIDATES } from '../policy/decider/protocol.js';
import type { Decider } from '../policy/decider/types.js';

/** How long find waits for the decider's pick; no answer means the usual order. */
export const CHOOSE_DEADLINE_MS = 8000;

/** The elements worth asking about, or undefined when there is nothing to disambiguate. */
export function tiedCandidates(text: string, hits: SnapshotLine[], pool: SnapshotLine[]): SnapshotLine[] | undefined {
  const q = text.trim().toLowerCase();
  if (!q) return undefined;
  if (hits.length > 0) {
    const score = (l: SnapshotLine): number => {
      const name = (l.name ?? '').trim().toLowerCase();
      return name === q ? 3 : name.startsWith(q) ? 2 : 1;
    };
    const best = Math.max(...hits.map(score));
    const tied = hits.filter((l) => score(l) === best);
    return tied.length >= 2 && tied.length <= MAX_CANDIDATES ? tied : undefined;
  }
  if (pool.length < 2) return undefined;
  if (pool.length <= MAX_CANDIDATES) return pool;
  // Too many to offer all: those sharing a word (of 2+ characters) with the text, most shared words first.
  const words = new Set(q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2));
  const shared = (l: SnapshotLine): number => {
    const own = new Set(
      `${l.name ?? ''} ${l.states.includes('password') ? '' : (l.value ?? '')}`.toLowerCase().split(/[^\p{L}\p{N}]+/u),
    );
    let k = 0;
    for (const w of words) if (own.has(w)) k++;
    return k;
  };
  const near = pool.map((l, i) => ({ l, i, k: shared(l) })).filter((x) => x.k > 0)
    .sort((a, b) => b.k - a.k || a.i - b.i).slice(0, MAX_CANDIDATES).map((x) => x.l);
  return near.length >= 2 ? near : undefined;
}

/**
 * The index of the decider's pick among `candidates` (as printed), or undefined: no opinion, an error, the
 * deadline (8 s), or the caller's abort. Never throws.
 */
export async function deciderPick(
  decider: Decider,
  query: string,
  candidates: string[],
  signal?: AbortSignal,
): Promise<number | undefined> {
  const offered = candidates.slice(0, MAX_CANDIDATES).map((c) => redactText(c));
  if (offered.length < 2) return undefined;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), CHOOSE_DEADLINE_MS);
  const onOuter = (): void => ac.abort();
  if (signal?.aborted) return undefined;
  signal?.addEventListener('abort', onOuter, { once: true });
  try {
    const i = await Promise.race([
      decider.choose(redactText(query), offered, ac.signal).catch(() => null),
      new Promise<null>((resolve) => ac.signal.addEventListener('abort', () => resolve(null), { once: true })),
    ]);
    return typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < offered.length ? i : undefined;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuter);
    ac.abort();
  }
}
