/**
 * Pending confirmations: the panel as a human channel. A question the policy asks waits here until the
 * person answers it in the panel, the caller's signal aborts (stop, cancellation) or the timeout passes
 * (`confirmation_timeout`). The request text is the one the policy built (redacted, app text quoted, values of
 * password fields never shown); the approval is bound to its target by the policy, which re-checks after.
 */
import { randomUUID } from 'node:crypto';
import type { ConfirmChoice, ConfirmRequest, Confirmer } from '../policy/confirm.js';
import { ComputerUseError } from '../protocol/errors.js';

/** How long a question waits for an answer by default. */
export const DEFAULT_CONFIRM_TIMEOUT_MS = 120_000;

/** A question waiting in the panel. */
export interface PendingQuestion { id: string; request: ConfirmRequest; since: string; timeoutMs: number }

/** Options of one `confirm` call beyond the Confirmer interface. */
export interface PanelConfirmOptions {
  timeoutMs?: number;
  /** Called once the question is shown, with its id (the MCP host tells the model a question waits, without the URL). */
  onWaiting?: (q: PendingQuestion) => void;
}

export class PanelConfirmer implements Confirmer {
  private readonly waiting = new Map<string, { q: PendingQuestion; answer: (c: ConfirmChoice) => void }>();
  private readonly listeners = new Set<() => void>();
  /**
   * Tells the human a question waits (the host sets it once the panel listens: stderr, a desktop notification).
   * The panel's URL goes only there, never into a message for the model.
   */
  announce: ((q: PendingQuestion) => void) | undefined;
  /** Interactive while the panel runs. */
  running = false;

  constructor(readonly timeoutMs: number = DEFAULT_CONFIRM_TIMEOUT_MS) {}

  get interactive(): boolean { return this.running; }

  /** The questions waiting, oldest first. */
  pending(): PendingQuestion[] { return [...this.waiting.values()].map((w) => w.q); }

  onChange(fn: () => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  /** The person's answer; false when the question is no longer waiting or the choice was not offered. */
  answer(id: string, choice: ConfirmChoice): boolean {
    const w = this.waiting.get(id);
    if (!w || !w.q.request.choices.includes(choice)) return false;
    w.answer(choice);
    return true;
  }

  confirm(request: ConfirmRequest, signal?: AbortSignal, options: PanelConfirmOptions = {}): Promise<ConfirmChoice> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    return new Promise<ConfirmChoice>((resolve, reject) => {
      if (signal?.aborted) { resolve('deny'); return; }
      const q: PendingQuestion = { id: randomUUID(), request, since: new Date().toISOString(), timeoutMs };
      const finish = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(q.id);
        this.changed();
      };
      const onAbort = (): void => { finish(); resolve('deny'); };
      const timer = setTimeout(() => {
        finish();
        reject(
          new ComputerUseError(
            'confirmation_timeout',
            `No one answered in the panel within ${Math.round(timeoutMs / 1000)} s (${request.title}). ` +
              `Nothing was sent. Ask the user to answer in the computer-use panel (its address is in the server's log and the desktop notification), then call again.`,
          ),
        );
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(q.id, { q, answer: (c) => { finish(); resolve(c); } });
      this.changed();
      try { this.announce?.(q); } catch { /* telling the human is best effort; the question waits anyway */ }
      options.onWaiting?.(q);
    });
  }

  /** Declines every waiting question (the panel is closing). */
  declineAll(): void { for (const w of [...this.waiting.values()]) w.answer('deny'); }

  private changed(): void { for (const fn of this.listeners) fn(); }
}
