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

/** Fields that take their value on Enter where no default button is near them. */
const COMMITS_ITSELF = new Set(['spinbutton', 'combobox']);
/**
 * Containers that end the search for a field's tool bar: a field inside an embedded document or a pane of its own
 * (a web page in a browser's tool bar area) belongs to that, not to the tool bar around it.
 */
const OWN_SCOPE = new Set(['document', 'dialog', 'form']);
/** Most button labels of a form passed to the policy. */
const MAX_FORM_BUTTONS = 50;

/**
 * The Enter facts of `node`, focused, whose ancestors are `ancestors` (the window first). The container that
 * decides is the nearest one of a kind that scopes Enter, at any depth: toolkits wrap a tool bar's field in
 * nameless groups (Calc's Name Box sits seven levels under its tool bar), so a fixed depth missed it.
 */
export function enterKindOf(node: RawNode, ancestors: readonly RawNode[]): Pick<FocusedFacts, 'enter' | 'formButtons'> {
  const form = [...ancestors].reverse().find((a) => a.role === 'form');
  if (form) return { enter: 'form', formButtons: buttonsIn(form) };
  const top = ancestors[0];
  const dialog = top !== undefined && (top.role === 'dialog' || top.states.includes('modal'));
  if (dialog) return {};
  if (COMMITS_ITSELF.has(node.role)) return { enter: 'commits' };
  for (let i = ancestors.length - 1; i > 0; i--) {
    const a = ancestors[i]!;
    if (a.role === 'toolbar' || COMMITS_ITSELF.has(a.role)) return { enter: 'commits' };
    if (OWN_SCOPE.has(a.role)) break;
  }
  return {};
}

/** The labels of the enabled buttons inside a form (nameless ones as ""). */
function buttonsIn(form: RawNode): string[] {
  const out: string[] = [];
  walk(form, (n) => {
    if (n.role === 'button' && !n.states.includes('disabled') && out.length < MAX_FORM_BUTTONS) out.push(n.name ?? '');
  });
  return out;
}
