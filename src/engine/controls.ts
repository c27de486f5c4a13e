/**
 * Controls inside a table's cells (a web table's "Archive" button, a link, a check box): a row line or a grid row
 * prints their refs, since a cell's text alone gives the model nothing to act on. Pure.
 */
import type { DistilledNode } from './distill.js';

/** Roles whose elements inside a cell a row or a grid prints by ref. */
const CONTROL_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'combobox',
  'spinbutton',
  'slider',
  'menuitem',
]);

/** The controls inside a cell (not the cell itself), outermost first. */
export function controlsIn(c: DistilledNode): DistilledNode[] {
  const out: DistilledNode[] = [];
  const visit = (n: DistilledNode): void => {
    if (n !== c && CONTROL_ROLES.has(n.role)) { out.push(n); return; }
    for (const k of n.children) visit(k);
  };
  visit(c);
  return out;
}
