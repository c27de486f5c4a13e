/**
 * Every acting step's request is built here, one typed constructor per kind, so the policy sees the same facts
 * from every tool: the target window's app, pid, start token and title are copied in one place (`targetOf`),
 * never by hand at each call site. The pipeline (pipeline.ts) runs what these build; the tools and the session's
 * acting modules call these constructors and never spell an ActionRequest themselves.
 */
import type { Fingerprint } from '../engine/refs.js';
import type { WindowInfo } from '../protocol/nodes.js';
import type { Chord } from '../protocol/keys.js';
import type { LaunchFacts } from '../policy/apps.js';
import type {
  ClipboardStep, ElementStep, FocusedFacts, KeysStep, LaunchStep, Mnemonics, PointerStep, StepTarget,
} from '../policy/gate.js';

/** What a step needs of the window it goes to. */
export type TargetWindow = Pick<WindowInfo, 'id' | 'app' | 'pid' | 'title' | 'startToken'>;

/** The target facts of a window as the session read it (app and title are its own text, pid and token the driver's). */
export function targetOf(w: TargetWindow): StepTarget {
  return {
    app: w.app,
    pid: w.pid,
    window: w.id,
    title: w.title,
    ...(w.startToken !== undefined ? { startToken: w.startToken } : {}),
  };
}

/** What the session read live about the window a key or paste step goes to. */
export interface LiveFacts { focused?: FocusedFacts; mnemonics?: Mnemonics }

/** The element-specific facts of an element act (the target comes from the window). */
export interface ElementFacts {
  ref: string;
  op: string;
  fingerprint: Fingerprint;
  value?: string | undefined;
  password: boolean;
  textFields: number;
  /** Paths a submit would name (a file chooser's Save), resolved by the caller. */
  paths?: string[];
  /** Names of the elements inside the target in the last snapshot (ElementStep `inside`). */
  inside?: string[];
  identity?: StepTarget['identity'];
  recheck: () => Promise<boolean>;
}

/** A computer_act on an element by ref. */
export function elementStep(window: TargetWindow, f: ElementFacts): ElementStep {
  return {
    kind: 'element',
    tool: 'computer_act',
    ...targetOf(window),
    ref: f.ref,
    op: f.op,
    role: f.fingerprint.role,
    ...(f.fingerprint.name !== undefined ? { name: f.fingerprint.name } : {}),
    ...(f.value !== undefined ? { value: f.value } : {}),
    ...(f.identity ? { identity: f.identity } : {}),
    fingerprint: f.fingerprint,
    password: f.password,
    textFields: f.textFields,
    ...(f.paths?.length ? { paths: f.paths } : {}),
    ...(f.inside?.length ? { inside: f.inside } : {}),
    recheck: f.recheck,
  };
}

/** Pointer input at screen pixels: a raw computer_input, or a visual act (an OCR element's center, a capture's pixel). */
export function pointerStep(window: TargetWindow, f: {
  tool: PointerStep['tool']; op: string; point: [number, number]; to?: [number, number] | undefined;
  /** The OCR element or capture the point came from; an OCR element's text is `name`. */
  ocr: boolean; ref?: string | undefined; name?: string | undefined;
}): PointerStep {
  return {
    kind: 'pointer', tool: f.tool, ...targetOf(window), op: f.op, role: f.ocr ? 'text (ocr)' : 'pixel', point: f.point,
    ...(f.to ? { to: f.to } : {}), ...(f.ref ? { ref: f.ref } : {}), ...(f.name ? { name: f.name } : {}),
  };
}

/** computer_keys into a window, with its focus read live and what a submitting key would submit. */
export function keysStep(window: TargetWindow, keys: string, chords: Chord[], live: LiveFacts,
  submit?: { paths?: string[]; terminal?: KeysStep['terminal'] }): KeysStep {
  return {
    kind: 'keys',
    tool: 'computer_keys',
    ...targetOf(window),
    keys,
    chords,
    ...live,
    ...(submit?.paths?.length ? { paths: submit.paths } : {}),
    ...(submit?.terminal ? { terminal: submit.terminal } : {}),
  };
}

/** Reading or writing the clipboard: no window, the app is the clipboard itself. */
export function clipboardStep(op: 'clipboard_read' | 'clipboard_write', text?: string): ClipboardStep {
  return {
    kind: 'clipboard',
    tool: 'computer_input',
    app: 'clipboard',
    op,
    ...(text !== undefined ? { value: text } : {}),
  };
}

/** A paste into a window (optional text first, then Primary+v), judged with its focus read live. */
export function pasteStep(window: TargetWindow, text: string | undefined, live: LiveFacts,
  intoTerminal: boolean): ClipboardStep {
  return {
    kind: 'clipboard',
    tool: 'computer_input',
    ...targetOf(window),
    op: 'paste',
    ...live,
    ...(intoTerminal ? { terminal: { multiple: true, paste: true } } : {}),
    ...(text !== undefined ? { value: text } : {}),
  };
}

/** computer_launch: the argv as given and what the device's driver resolved it to. */
export function launchStep(argv: string[], launch: LaunchFacts | undefined): LaunchStep {
  return { kind: 'launch', tool: 'computer_launch', argv, command: argv.join(' '), ...(launch ? { launch } : {}) };
}
