/**
 * What a submitting key will submit, judged by result, not by keystrokes. Return (and its aliases) in a
 * single-line field or a file chooser opens or saves the path the field holds at that moment, however it was
 * typed (in one call or several, with `~`, `..` or relative to the chooser's folder); in a terminal it runs the
 * command line the terminal shows. So the keys before the first submit are predicted onto the field's live
 * text for the decision, and after they are sent the field is read again: the submit goes only if what it
 * submits is still what was decided on.
 */
import type { RawNode } from '../engine/node.js';
import { walk } from '../engine/node.js';
import { chordChar, type Chord } from '../protocol/keys.js';
import { chooserFacts, submitPaths, type ChooserFacts } from './chooser.js';


/**
 * True when a chord submits: Return and its aliases (any modifiers), ctrl+m and ctrl+j (a terminal reads them
 * as CR and LF), and in a terminal ctrl+o (readline's operate-and-get-next runs the line).
 */
export function isSubmit(c: Chord, terminal: boolean): boolean {
  if (c.key === 'Enter') return true;
  // Primary is Control on Linux, where terminals read ctrl+m as CR.
  const ctrlOnly =
    (c.mods.includes('Control') || c.mods.includes('Primary')) && !c.mods.includes('Alt') && !c.mods.includes('Meta');
  return ctrlOnly && (/^[mj]$/i.test(c.key) || (terminal && /^o$/i.test(c.key)));
}

/** The focused node of a live tree (deepest), unredacted: its text is needed here, never shown. */
function focusedNode(root: RawNode): RawNode | undefined {
  let best: { node: RawNode; depth: number } | undefined;
  walk(root, (n, ancestors) => {
    if (n.states.includes('focused') && (!best || ancestors.length >= best.depth))
      best = { node: n, depth: ancestors.length };
  });
  return best?.node;
}

/** A terminal node: its text is the screen and scrollback, the caret on the command line (protocol role `terminal`). */
const isTerminalNode = (n: RawNode): boolean => n.role === 'terminal';

/**
 * Where typed keys go: the focused node, else the window's only terminal. A terminal window read before the
 * keys tool raised it shows no focused node (measured on xfce4-terminal), yet its keys go to the terminal.
 */
function keyTarget(root: RawNode): RawNode | undefined {
  const focus = focusedNode(root);
  if (focus) return focus;
  const terminals: RawNode[] = [];
  walk(root, (n) => { if (isTerminalNode(n)) terminals.push(n); });
  return terminals.length === 1 ? terminals[0] : undefined;
}

/** True when keys sent to the window would go to a terminal (its focused node, or its only terminal). */
export function keysGoToTerminal(root: RawNode): boolean {
  const target = keyTarget(root);
  return target !== undefined && isTerminalNode(target);
}

/** The line of a terminal's text the caret is on (the command line being edited), trailing blanks cut. */
export function caretLine(n: RawNode): string | undefined {
  const text = n.value;
  if (text === undefined) return undefined;
  const at = n.caret === undefined ? text.length : Math.min(text.length, Math.max(0, n.caret - (n.valueStart ?? 0)));
  const start = text.lastIndexOf('\n', at - 1) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end < 0 ? text.length : end).replace(/\s+$/u, '');
}

/** The characters the chords type, or undefined when one of them edits (BackSpace, Tab, arrows, shortcuts). */
export function typedText(chords: readonly Chord[]): string | undefined {
  let s = '';
  for (const c of chords) {
    const ch = chordChar(c);
    if (ch === undefined) return undefined;
    s += ch;
  }
  return s;
}

/** What a keys call would submit, read from the window just before the decision. */
export type SubmitPlan =
  | {
      kind: 'terminal';
      at: number;
      /** The command line the submit runs, when the typed keys let it be known. */ line?: string;
      multiple: boolean;
    }
  | {
      kind: 'field';
      at: number;
      /** Paths the submit names, predicted (field text + typed characters). */ paths: string[];
    };

/**
 * The submit a keys call makes, if any: the first submitting chord and what it submits. A field outside a
 * file chooser submits a path only when its text is one (absolute, `~`, `file://`).
 */
export function planSubmit(
  root: RawNode,
  chords: readonly Chord[],
  guesses: readonly string[],
): SubmitPlan | undefined {
  const focus = keyTarget(root);
  if (!focus) return undefined;
  const terminal = isTerminalNode(focus);
  const at = chords.findIndex((c) => isSubmit(c, terminal));
  if (at < 0) return undefined;
  const typed = typedText(chords.slice(0, at));
  if (terminal) {
    const line = caretLine(focus);
    const multiple = chords.slice(at + 1).some((c) => isSubmit(c, true));
    return {
      kind: 'terminal',
      at,
      ...(line !== undefined && typed !== undefined ? { line: line + typed } : {}),
      multiple,
    };
  }
  const facts = chooserFacts(root);
  const field = fieldText(focus);
  if (field === undefined && !facts.chooser) return undefined;
  const texts = field === undefined ? [] : [field + (typed ?? '')];
  return { kind: 'field', at, paths: submitPaths(facts, [...texts, ...(facts.chooser ? facts.fields : [])], guesses) };
}

/** The text of a focused single-line field, else undefined. */
function fieldText(n: RawNode): string | undefined {
  if (n.role !== 'textbox' && n.role !== 'combobox') return undefined;
  if (n.states.includes('multiline') || n.states.includes('password')) return undefined;
  return n.value ?? '';
}

/** After the keys before the submit were sent: what the submit would now submit, read live. */
export function submitNow(
  root: RawNode,
  guesses: readonly string[],
): { facts: ChooserFacts; line?: string; paths: string[] } {
  const facts = chooserFacts(root);
  const focus = keyTarget(root);
  if (focus && isTerminalNode(focus)) {
    const line = caretLine(focus);
    return { facts, ...(line !== undefined ? { line } : {}), paths: [] };
  }
  const field = focus ? fieldText(focus) : undefined;
  return {
    facts,
    paths: submitPaths(
      facts,
      [...(field !== undefined ? [field] : []), ...(facts.chooser ? facts.fields : [])],
      guesses,
    ),
  };
}
