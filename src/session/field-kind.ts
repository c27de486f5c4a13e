/**
 * What Enter does in a focused field, judged by the field's kind (roles and structure, never names), for the
 * policy's Enter rule (policy/irreversible.ts). Enter in a single-line field activates the default button of its
 * form or dialog. A field inside a form (a web form) submits that form, so its buttons judge. A field of an app's
 * main window that takes its own value on Enter (a spin button, a combo box or its entry, a field in a tool bar:
 * a spreadsheet's Name Box, a zoom box) has no default button near it: GTK, Qt and Win32 give a field a default
 * button in dialogs, so there Enter commits the field or moves the view. In a dialog every field keeps the rule.
 */
import type { RawNode } from '../engine/node.js';
import { walk } from '../engine/node.js';
import type { FocusedFacts } from '../policy/gate.js';

/** Ancestors looked at for a tool bar or a combo box (Calc: toolbar › group › textbox). */
const KIND_DEPTH = 3;
/** Fields that take their value on Enter where no default button is near them. */
const COMMITS_ITSELF = new Set(['spinbutton', 'combobox']);
/** Most button labels of a form passed to the policy. */
const MAX_FORM_BUTTONS = 50;

/** The Enter facts of `node`, focused, whose ancestors are `ancestors` (the window first). */
export function enterKindOf(node: RawNode, ancestors: readonly RawNode[]): Pick<FocusedFacts, 'enter' | 'formButtons'> {
  const form = [...ancestors].reverse().find((a) => a.role === 'form');
  if (form) return { enter: 'form', formButtons: buttonsIn(form) };
  const top = ancestors[0];
  const dialog = top !== undefined && (top.role === 'dialog' || top.states.includes('modal'));
  if (dialog) return {};
  const near = ancestors.slice(-KIND_DEPTH);
  const commits = COMMITS_ITSELF.has(node.role) || near.some((a) => a.role === 'toolbar' || COMMITS_ITSELF.has(a.role));
  return commits ? { enter: 'commits' } : {};
}

/** The labels of the enabled buttons inside a form (nameless ones as ""). */
function buttonsIn(form: RawNode): string[] {
  const out: string[] = [];
  walk(form, (n) => {
    if (n.role === 'button' && !n.states.includes('disabled') && out.length < MAX_FORM_BUTTONS) out.push(n.name ?? '');
  });
  return out;
}
