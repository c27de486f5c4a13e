/**
 * The decider model: an optional classifier the policy may consult. It can only add caution: a
 * "yes, irreversible" adds a confirmation; it can never remove one. No opinion (null) on timeout or error.
 */

/** What the decider is told about an action (redacted; app text is quoted as data). */
export interface ActionContext {
  app: string;
  /** Unified role of the target element. */
  role: string;
  /** Element name as the app labels it (untrusted). */
  name: string;
  op: string;
  /** Window title (untrusted). */
  window?: string;
}

export interface Decider {
  /** Probability (0..1) that the action cannot be undone; null when the decider has no opinion. */
  irreversible(ctx: ActionContext, signal?: AbortSignal): Promise<number | null>;
  /** Index of the candidate that best matches `query` among ≤ 20; null when no opinion. */
  choose(query: string, candidates: string[], signal?: AbortSignal): Promise<number | null>;
}
