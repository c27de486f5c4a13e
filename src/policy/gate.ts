/**
 * The policy gate every acting path calls before dispatch. This file holds the contract; the
 * policy layer (modes, app allow/deny, irreversible actions, confirmation, audit) implements it.
 */
import type { Fingerprint } from '../engine/refs.js';
import type { Chord } from '../protocol/keys.js';
import type { LaunchFacts, ProcessFacts } from './apps.js';

/**
 * Where a step acts, as the caller read it: the app's process and window. `app` and `title` are the app's own
 * text (untrusted: they may only add a refusal); `pid` and `startToken` are what the device's driver reported.
 */
export interface StepTarget {
  app?: string;
  pid?: number;
  window?: string;
  /** Window title (untrusted; may only add a refusal). */
  title?: string;
  /** Start token of `pid` as the driver saw it when the target was read, to detect pid reuse. */
  startToken?: string;
  /** What the device's driver proves about `pid` now (`process.identify`), filled by the acting pipeline. */
  identity?: ProcessFacts;
  /**
   * File paths the action names (a set_value/type value or typed text that names a file, resolved by the
   * caller where it knows more, e.g. a file chooser's current folder). The policy refuses paths inside the
   * tool's own home; it also finds absolute and `~` paths in typed values and keys itself.
   */
  paths?: string[];
  /**
   * Re-checks the target just before dispatch: resolves true when the element the approval was given for is
   * still the one that will receive the action. The policy calls it after asking a human.
   */
  recheck?: () => Promise<boolean>;
}

/** The element that has focus in the target window, read live just before the decision (untrusted; only adds caution). */
export interface FocusedFacts {
  role: string; name?: string; multiline?: boolean; password?: boolean; states?: string[];
  /**
   * What Enter does in this field, by its kind (roles and structure, never its name): `commits` for a field of a
   * window that is not a dialog which takes its own value on Enter (a spin button, a combo box or its entry, a
   * field in a tool bar: no default button is near it); `form` for a field inside a form, whose buttons
   * (`formButtons`) are then the ones Enter can submit. Absent: the window's buttons judge.
   */
  enter?: 'commits' | 'form';
  /** The labels of the buttons of the focused field's form (`enter: 'form'`). Untrusted: they only add caution. */
  formButtons?: string[];
}

/**
 * The window's activatable controls (buttons, links, menu items), read live: `label` the control's name, `key`
 * its access key in lower case ("" when it has none), `role` its role when known. Absent means not read: the rules then
 * ask for key
 * sequences that could reach an irreversible control.
 */
export type Mnemonics = { key: string; label: string; role?: string }[];

/** What the focus-sensitive steps (keys, paste) carry about the window they go to. */
interface LiveFocus {
  focused?: FocusedFacts;
  mnemonics?: Mnemonics;
  /**
   * Keys whose submitting key runs a terminal's command line: the line as it will read when the submit is sent,
   * absent when editing keys make it unknowable; `multiple` when the keys submit more than once; `paste` for a
   * paste of text with a line break, or of the clipboard's unread text. Untrusted text: shown, never obeyed.
   */
  terminal?: { line?: string; multiple: boolean; paste?: boolean };
}

/** computer_act on an element by ref: the op goes to the element's handle (node.act). */
export interface ElementStep extends StepTarget {
  kind: 'element';
  tool: 'computer_act';
  ref: string;
  op: string;
  role: string;
  name?: string;
  /** The typed text or value; the policy stores a digest only. */
  value?: string;
  fingerprint?: Fingerprint;
  /** The target is a password field. */
  password?: boolean;
  /** Element description (untrusted; rules may only add a confirmation from it). */
  description?: string;
  /**
   * Names of the elements inside the target as its window's last snapshot showed them (untrusted; rules may only
   * add a confirmation from them): a click on an element with no action of its own goes to the one inside it.
   */
  inside?: string[];
  /**
   * How many single-line editable text fields the target window shows (its last snapshot). A bare "Replace"
   * button beside one replaces text in a document (undoable), not a file on disk. Untrusted.
   */
  textFields?: number;
}

/**
 * Pointer input at a screen pixel (raw input, a visual act, an OCR element's center): coordinates name no
 * element, so the policy treats it like keys (asked in default mode unless the app is allow-listed).
 */
export interface PointerStep extends StepTarget {
  kind: 'pointer';
  tool: 'computer_act' | 'computer_input';
  op: string;
  /** `pixel`, or `text (ocr)` for an OCR element's center. */
  role: string;
  /** The OCR text at the point (untrusted; only adds caution). */
  name?: string;
  /** The OCR ref or capture the point came from. */
  ref?: string;
  point: [number, number];
  /** Drag end point (screen pixels). */
  to?: [number, number];
}

/** computer_keys: key chords sent to the focused element of a window whose process the driver proves. */
export interface KeysStep extends StepTarget, LiveFocus {
  kind: 'keys';
  tool: 'computer_keys';
  /** The keys as the model gave them (digested in the audit when they type text). */
  keys: string;
  /** The keys parsed once by the host into wire chords (session/chords.ts); without them the keys ask and count as
  * typed text. */
  chords?: Chord[];
}

/** computer_input's clipboard: read it, write it, or paste (optional text, then Primary+v into a window). */
export interface ClipboardStep extends StepTarget, LiveFocus {
  kind: 'clipboard';
  tool: 'computer_input';
  op: 'clipboard_read' | 'clipboard_write' | 'paste';
  /** The text written or pasted; the policy stores a digest only. */
  value?: string;
}

/** computer_launch: a program started on the device. */
export interface LaunchStep {
  kind: 'launch';
  tool: 'computer_launch';
  /** The argument vector as given (command first). */
  argv: string[];
  /** `argv`'s display form. */
  command: string;
  /** What the device's driver says the launch will run (`apps.resolveLaunch`). */
  launch?: LaunchFacts;
  paths?: string[];
  recheck?: () => Promise<boolean>;
}

/**
 * What an acting tool is about to do, one kind of step each (built by session/steps.ts). Values are given only
 * so the policy can digest them, never to log.
 */
export type ActionRequest = ElementStep | PointerStep | KeysStep | ClipboardStep | LaunchStep;

/** The target facts of a step (a launch has none yet: its process is not started). */
export function targetOfStep(req: ActionRequest): StepTarget {
  return req.kind === 'launch' ? {} : req;
}

/** The text a step writes or types (a value, pasted text, keys that type characters), for digests and redaction. */
export function typedTextOf(req: ActionRequest): string | undefined {
  if (req.kind === 'element' || req.kind === 'clipboard') return req.value;
  return undefined;
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
export interface VisibleApp {
  name: string;
  pid?: number;
  executable?: string;
  title?: string;
  className?: string;
  url?: string;
  sameAs?: string[];
  package?: string;
}

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
  /**
   * A process the device's driver proved to be what a launch became (the started process or one under it): the
   * entry that allowed the launch covers it (AppIdentity.launchedAs).
   */
  noteLaunched?(
    proc: { pid: number; startToken: string },
    argv: readonly string[],
    facts: LaunchFacts | undefined,
  ): void;
}

/** A gate that allows everything: for tests and for callers that run their own policy. */
export const allowAllGate: PolicyGate = { check: async () => ({ done: () => undefined }), visible: () => undefined };
