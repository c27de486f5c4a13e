/**
 * Asking the human. One interface, implemented by each host: MCP elicitation, pi's ctx.ui.confirm, a TTY
 * prompt in the CLI. Without a human channel the policy refuses with `confirmation_required`.
 */

/** What the user is asked to approve. All text is already redacted; app text is quoted as data. */
export interface ConfirmRequest {
  /** Short title, e.g. "Allow computer-use to act in gedit?" */
  title: string;
  /** One or two sentences: what will happen, in which app, on which element. */
  message: string;
  /** The choices offered; hosts that only have yes/no map "no" to 'deny' and "yes" to the first allow choice. */
  choices: ConfirmChoice[];
  /** Why confirmation is needed (first use of an app, irreversible action, password field, decider). */
  reason: 'app_first_use' | 'irreversible' | 'password' | 'decider' | 'other';
}

/** A user's answer. */
export type ConfirmChoice = 'allow_once' | 'allow_session' | 'allow_always' | 'deny';

/** A human channel. `confirm` resolves with the choice, or 'deny' on dismissal; it must honour `signal`. */
export interface Confirmer {
  /** True when a human can actually answer (false: the policy refuses instead of asking). */
  readonly interactive: boolean;
  confirm(request: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmChoice>;
}

/** No human channel: every question is refused by the policy with `confirmation_required`. */
export const noConfirmer: Confirmer = { interactive: false, confirm: async () => 'deny' };
