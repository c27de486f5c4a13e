/**
 * Text edits verified by reading the field back. Some toolkits accept `EditableText.SetTextContents` /
 * `InsertText`, answer true, and change nothing (Firefox/Gecko). A field whose text did not move at all after
 * the call is redone the way a user would: focus it, select all (for a replace), and type through XTest into
 * the proven focus of the element's own process. The result names the path taken, never the text.
 */
import type { ActResult } from '../../../protocol/methods.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type { Chord } from '../../../protocol/keys.js';
import type { A11yBus, Target } from '../bus/bus.js';
import { readElement, type ElementInfo } from '../tree/reader.js';
import type { Expect, LinuxInput } from '../input/input.js';

/** Select all, as the Linux toolkits bind it (the real Control key, not a platform's Primary). */
export const SELECT_ALL: Chord[] = [{ mods: ['Control'], key: 'a' }];
/** Deletes the selection. */
export const BACKSPACE: Chord[] = [{ mods: [], key: 'Backspace' }];

const ETEXT = 'org.a11y.atspi.EditableText';
const TEXT = 'org.a11y.atspi.Text';
/** How long typed text may take to show up in the field's Text (XTest events are processed asynchronously). */
const READBACK_MS = 2000;
/** Most characters the typing fallback sends (3 ms a key: about 30 s at this cap). */
export const MAX_TYPED = 10_000;

/** What the typing fallback needs from the action module: focus the element, and its process. */
export interface TypingDeps {
  keyboard: LinuxInput;
  /** Focuses the element (its window made active first) and proves it has the focus. */
  focus: () => Promise<void>;
  /** The element's process: where the keys must go. */
  owner: () => Promise<Expect>;
  signal?: AbortSignal | undefined;
}

/** A field's text as it reads now (whole, via GetText(0, -1), which Gecko and GTK both answer). */
interface FieldText { text: string; length: number }

async function readField(bus: A11yBus, t: Target): Promise<FieldText | undefined> {
  try {
    const [[text], count] = await Promise.all([
      bus.call(t, TEXT, 'GetText', 'ii', [0, -1]),
      bus.getProp(t, TEXT, 'CharacterCount'),
    ]);
    return { text: String(text ?? ''), length: Number(count ?? 0) };
  } catch { return undefined; }
}

/** Whether the field reads as `want`: by length only for a password field (its text may read as bullets). */
function reads(now: FieldText, want: string, password: boolean): boolean {
  return password ? now.length === [...want].length : now.text === want;
}

function same(a: FieldText | undefined, b: FieldText | undefined): boolean {
  return a !== undefined && b !== undefined && a.text === b.text && a.length === b.length;
}

/**
 * Sends keys only while the field itself holds the focus: the keyboard proves the process, this proves the
 * field (a page script that moves the focus on focus would otherwise receive the text in another field).
 */
async function keysToField(
  bus: A11yBus,
  t: Target,
  deps: TypingDeps,
  owner: Expect,
  keys: Parameters<LinuxInput['keysTo']>[1],
): Promise<void> {
  const now = await readElement(bus, t, { children: false });
  if (!now.states.has('focused')) {
    throw new ComputerUseError(
      'action_failed',
      'The field lost the keyboard focus before typing (the app moved it elsewhere); nothing more was sent. ' +
        'Observe and try again.',
    );
  }
  await deps.keyboard.keysTo(owner, keys, deps.signal);
}

/** Polls the field until `done` holds or READBACK_MS passes; returns the last read. */
async function waitFor(
  bus: A11yBus,
  t: Target,
  done: (f: FieldText) => boolean,
  signal?: AbortSignal,
): Promise<FieldText | undefined> {
  const end = performance.now() + READBACK_MS;
  let now = await readField(bus, t);
  while (now && !done(now) && performance.now() < end && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, 25));
    now = await readField(bus, t);
  }
  return now;
}

/**
 * Key strokes the fallback may send into this field: a Tab would move the focus to another field, and a
 * newline in a one-line field would press Return (submit the form), so both are refused before anything goes.
 */
function checkTypable(text: string, info: ElementInfo): void {
  if (text.includes('\t'))
    throw new ComputerUseError(
      'invalid_params',
      'The field ignores direct edits, so the text must be typed, and a Tab would move the focus out of it. ' +
        'Nothing was sent; send the text without tabs.',
    );
  if (/[\r\n]/.test(text) && !info.states.has('multi line')) {
    throw new ComputerUseError(
      'invalid_params',
      'The field ignores direct edits, so the text must be typed, and a newline in a one-line field would ' +
        'press Return. Nothing was sent.',
    );
  }
  if ([...text].length > MAX_TYPED)
    throw new ComputerUseError(
      'invalid_params',
      `The field ignores direct edits, so the text must be typed; at most ${MAX_TYPED} characters. Nothing was ` +
        `sent.`,
    );
}

/**
 * set_value / clear on an editable field: SetTextContents, read back; if the field did not change at all,
 * focus + select all + type. A field that changed to something else (a filter, a length cap) keeps the
 * toolkit's answer: the receipt shows what it reads.
 */
export async function setTextVerified(
  bus: A11yBus,
  info: ElementInfo,
  text: string,
  deps: TypingDeps,
): Promise<ActResult> {
  const t = info.target;
  const password = info.atspiRole === 'password text';
  const before = await readField(bus, t);
  const [ok] = await bus.call(t, ETEXT, 'SetTextContents', 's', [text]);
  if (ok === false)
    throw new ComputerUseError('action_failed', 'The field refused the new text (read-only or filtered).');
  const after = await readField(bus, t);
  if (!after || reads(after, text, password) || !same(before, after))
    return { method: 'pattern', detail: 'EditableText.SetTextContents' };
  const why = 'SetTextContents ignored by the app';
  if (!deps.keyboard.available) {
    throw new ComputerUseError(
      'action_failed',
      `The app accepted EditableText.SetTextContents but did not apply it, and there is no keyboard to type ` +
        `with here (${deps.keyboard.reason ?? 'no input'}).`,
    );
  }
  checkTypable(text, info);
  await deps.focus();
  const owner = await deps.owner();
  await keysToField(bus, t, deps, owner, SELECT_ALL);
  await keysToField(bus, t, deps, owner, text ? text : BACKSPACE);
  const now = await waitFor(bus, t, (f) => reads(f, text, password), deps.signal);
  if (!now || same(now, after)) {
    throw new ComputerUseError(
      'action_failed',
      `The text was typed (${why}), but the field did not change; observe it before retrying.`,
    );
  }
  // Changed, but not to the text (a length cap, an input mask): the receipt shows what it reads.
  const differs = reads(now, text, password)
    ? ''
    : '; the field reads differently afterwards (a length cap or filter?)';
  return { method: 'synthetic', detail: `typed: focus + select-all + XTest (${why})${differs}` };
}

/**
 * InsertText's length argument. ATK (GTK, Gecko) reads it in UTF-8 bytes, so a character count would cut CJK
 * text; Qt's adaptor resizes the string to it in UTF-16 units, so a byte count pads CJK text with NULs
 * (FeatherPad saved "牛奶" as "牛奶\0\0\0\0").
 */
export async function insertLength(bus: Pick<A11yBus, 'isQt'>, dest: string, text: string): Promise<number> {
  return (await bus.isQt(dest)) ? text.length : Buffer.byteLength(text, 'utf8');
}

/**
 * type on an editable field: InsertText at the caret (or the end), read back; if the field did not change,
 * focus, put the caret there, and type.
 */
export async function insertTextVerified(
  bus: A11yBus,
  info: ElementInfo,
  text: string,
  deps: TypingDeps,
): Promise<ActResult> {
  const t = info.target;
  const before = await readField(bus, t);
  // Insert at the caret of a focused field; an unfocused one has a stale caret, so append as a click would.
  const caret = info.states.has('focused') ? Number(await bus.getProp(t, TEXT, 'CaretOffset').catch(() => -1)) : -1;
  const at = caret >= 0 ? caret : before?.length ?? Number(await bus.getProp(t, TEXT, 'CharacterCount').catch(() => 0));
  const [ok] = await bus.call(t, ETEXT, 'InsertText', 'isi', [at, text, await insertLength(bus, t.dest, text)]);
  if (ok === false) throw new ComputerUseError('action_failed', 'The field refused the inserted text.');
  const after = await readField(bus, t);
  if (!after || text === '' || !same(before, after))
    return { method: 'pattern', detail: `EditableText.InsertText at ${at}` };
  const why = 'InsertText ignored by the app';
  if (!deps.keyboard.available) {
    throw new ComputerUseError(
      'action_failed',
      `The app accepted EditableText.InsertText but did not apply it, and there is no keyboard to type with ` +
        `here (${deps.keyboard.reason ?? 'no input'}).`,
    );
  }
  checkTypable(text, info);
  await deps.focus();
  // Focusing may select the field's text or move the caret: put it back where the insert was meant to go.
  const placed = await bus.call(t, TEXT, 'SetCaretOffset', 'i', [at]).then(([r]) => r !== false, () => false);
  const owner = await deps.owner();
  if (!placed)
    await keysToField(bus, t, deps, owner, [{ mods: info.states.has('multi line') ? ['Control'] : [], key: 'End' }]);
  await keysToField(bus, t, deps, owner, text);
  const grown = (before?.length ?? 0) + [...text].length;
  const now = await waitFor(bus, t, (f) => f.length >= grown, deps.signal);
  if (!now || same(now, after)) {
    throw new ComputerUseError(
      'action_failed',
      `The text was typed (${why}), but the field did not change; observe it before retrying.`,
    );
  }
  const short = now.length < grown ? '; the field grew by less than the text (a length cap or filter?)' : '';
  return { method: 'synthetic', detail: `typed: focus + XTest at ${placed ? at : 'the end'} (${why})${short}` };
}
