/**
 * The policy gate every acting path calls before dispatch (Invariant 3). This file holds the contract; the
 * policy layer (modes, app allow/deny, irreversible actions, confirmation, audit) implements it.
 */
import type { Fingerprint } from '../engine/refs.js';
import type { Chord } from '../protocol/keys.js';
import type { LaunchFacts, ProcessFacts } from './apps.js';

/** What an acting tool is about to do. Values are given only so the policy can digest them, never to log. */
export interface ActionRequest {
  tool: 'computer_act' | 'computer_keys' | 'computer_launch' | 'computer_input';
  app?: string;
  pid?: number;
  window?: string;
  ref?: string;
  op?: string;
  role?: string;
  name?: string;
  /** The typed text or value; the policy stores a digest only. */
  value?: string;
  keys?: string;
  /** computer_keys: the keys parsed once by the host into wire chords (session/chords.ts); without them the keys ask and count as typed text. */
  chords?: Chord[];
  command?: string;
  /** computer_launch: the argument vector as given (command first); `command` is its display form. */
  argv?: string[];
  /**
   * Pointer input at a screen pixel (raw input, a visual act, an OCR element's center): coordinates name no
   * element, so the policy treats it like keys (asked in default mode unless the app is allow-listed).
   */
  point?: [number, number];
  /** Drag end point (screen pixels). */
  to?: [number, number];
  fingerprint?: Fingerprint;
  /** The target is a password field. */
  password?: boolean;
  /** Element description (untrusted; rules may only add a confirmation from it). */
  description?: string;
  /**
   * computer_act: how many single-line editable text fields the target window shows (its last snapshot). A bare
   * "Replace" button beside one replaces text in a document (undoable), not a file on disk. Untrusted.
   */
  textFields?: number;
  /** Window title (untrusted; may only add a refusal). */
  title?: string;
  /** Start token of `pid` as the driver saw it when the target was read, to detect pid reuse. */
  startToken?: string;
  /** What the device's driver proves about `pid` now (`process.identify`), filled by the acting pipeline. */
  identity?: ProcessFacts;
  /** computer_launch: what the device's driver says the launch will run (`apps.resolveLaunch`). */
  launch?: LaunchFacts;
  /**
   * File paths the action names (a set_value/type value or typed text that names a file, resolved by the
   * caller where it knows more, e.g. a file chooser's current folder). The policy refuses paths inside the
   * tool's own home; it also finds absolute and `~` paths in `value`/`keys` itself.
   */
  paths?: string[];
  /**
   * computer_keys and computer_input paste: the element that has focus in the target window, read live just before the decision
   * (untrusted; only adds caution). `states` are its node states (e.g. `focused`, `pressed`).
   */
  focused?: { role: string; name?: string; multiline?: boolean; password?: boolean; states?: string[] };
  /**
   * computer_keys: the activatable controls (buttons, links, menu items) of the target window, read live from
   * its tree: `label` the control's name, `key` its mnemonic letter in lower case (from the toolkit's key
   * binding, e.g. "<Alt>d" → "d", or the "_D" in its label), "" when it has none. List every such control, with
   * or without a mnemonic: the rules use it both for `alt+<letter>` and for an activating key sent after a
   * focus-moving key (the control that will have focus cannot be proven before sending). When absent, the
   * rules cannot prove that no irreversible control is reachable and ask for those key sequences.
   */
  mnemonics?: { key: string; label: string }[];
  /**
   * computer_keys whose submitting key (Return, ctrl+m, ctrl+j, ctrl+o) runs a terminal's command line: the
   * line as it will read when the submit is sent (the terminal's caret line plus the typed characters), absent
   * when editing keys make it unknowable before sending; `multiple` when the keys submit more than once.
   * Untrusted text (read from the terminal): shown to the human, never obeyed.
   */
  terminal?: { line?: string; multiple: boolean;
    /** computer_input paste into a terminal of text with a line break, or of the clipboard's unread text: it may run commands. */
    paste?: boolean };
  /**
   * Re-checks the target just before dispatch: resolves true when the element the approval was given for is
   * still the one that will receive the action. The policy calls it after asking a human.
   */
  recheck?: () => Promise<boolean>;
}

/** A decision handle: call `done` after dispatch with the receipt, so the audit record is completed. */
export interface Decision {
  done(receipt: string, detail?: string): void;
  /** A human approved this exact action: the caller must not redirect it (no relocation to another handle). */
  confirmed?: boolean;
}

/**
 * An app (or one of its windows) as a read path sees it: name, title, className and url are app text that may
 * only deny; pid, executable, package and sameAs (the programs it is a copy of) are the driver's proof.
 */
export interface VisibleApp { name: string; pid?: number; executable?: string; title?: string; className?: string; url?: string; sameAs?: string[]; package?: string }

/** What a listing proves about an app or window, as the read paths pass it to the policy (identity by content included). */
export type IdentityView = Pick<VisibleApp, 'executable' | 'className' | 'sameAs' | 'package' | 'url'>;

/** The facts of an app or window (AppInfo, WindowInfo) that may deny a read: executable, class, copies, package, URL. */
export function identityView(a: IdentityView): IdentityView {
  const out: IdentityView = {};
  if (a.executable) out.executable = a.executable;
  if (a.className) out.className = a.className;
  if (a.sameAs?.length) out.sameAs = a.sameAs;
  if (a.package) out.package = a.package;
  if (a.url) out.url = a.url;
  return out;
}

/**
 * Approves or refuses an action; throws a ComputerUseError (denied_by_policy, confirmation_declined, paused).
 * `visible` says why an app is hidden from every read path (a denied app is unseen), or undefined.
 */
export interface PolicyGate {
  check(req: ActionRequest): Promise<Decision>;
  visible(app: VisibleApp): string | undefined;
  /**
   * Why a submit that names these paths is refused (one of the tool's own files), else undefined. Called
   * during dispatch, once the keys before a submit were sent and the field was read again.
   */
  ownFile?(paths: readonly string[]): string | undefined;
  /** The tool's own folders (normalised): where a relative name in a chooser of unknown folder may point. */
  ownRoots?(): readonly string[];
}

/** A gate that allows everything: for tests and for callers that run their own policy. */
export const allowAllGate: PolicyGate = { check: async () => ({ done: () => undefined }), visible: () => undefined };
