/**
 * The advice after an error, in the tools' names: a driver states what happened and lists remedies by name
 * (protocol/errors.ts REMEDIES, `details.remedy`); the host alone knows what its tools are called, so the words are
 * written here (the CLI rewrites the tool names to its commands, hosts/cli/wording.ts). A code whose next step is
 * always the same gets it without the driver saying so.
 */
import { type ComputerUseError, type ErrorCode, type Remedy, remediesOf } from '../protocol/errors.js';
import { missingMethodAdvice } from './missing.js';

/** Each remedy as the model reads it. */
const WORDS: Record<Remedy, string> = {
  list_windows: 'Call computer_apps to list the open windows.',
  snapshot: 'computer_observe takes a new snapshot with fresh refs.',
  capture: 'Take a new screenshot with computer_screenshot and act on it.',
  read_pixels: 'Its windows can still be read with computer_screenshot (OCR) and used with pointer input.',
  relaunch: 'Close the app and start it again with computer_launch, which sets this up.',
  raise_window: 'Bring the window to the front (or close what holds the focus) and try again.',
  element_actions: 'Use element actions (computer_act): they need no keyboard focus.',
  keys: 'Use computer_keys after focusing it, or act on another element.',
};

/** The remedy a code implies when the driver named none. */
const BY_CODE: Partial<Record<ErrorCode, Remedy>> = {
  window_not_found: 'list_windows',
  stale_ref: 'snapshot',
};

/** The advice sentence(s) for the remedies a driver listed (unknown names dropped), or '' for none. */
export function remedyAdvice(remedies: readonly Remedy[]): string {
  return remedies.map((r) => WORDS[r]).join(' ');
}

/**
 * An error's message followed by what to do: the method-missing advice when the host refused a method the driver
 * does not list (`has` holds the methods its hello lists), else the driver's remedies, else the code's default.
 */
export function adviseError(e: ComputerUseError, has: ReadonlySet<string> = new Set()): string {
  const method = e.details['missingMethod'];
  if (e.code === 'unsupported' && typeof method === 'string') {
    const advice = missingMethodAdvice(method, has);
    return advice ? `${e.message} ${advice}` : e.message;
  }
  const listed = remediesOf(e.details);
  const fallback = BY_CODE[e.code];
  const advice = remedyAdvice(listed.length ? listed : fallback ? [fallback] : []);
  return advice ? `${e.message} ${advice}` : e.message;
}
