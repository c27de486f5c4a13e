/**
 * Unified roles: the kinds of element every platform's tree is mapped onto. The list and each role's
 * meaning live in the protocol (protocol/vocabulary.ts); each driver maps its native roles itself
 * (drivers/linux/tree/roles.ts, drivers/cdp/roles.ts). Here: how the engine groups them.
 */
import type { Role } from '../protocol/vocabulary.js';

export { ROLES, type Role } from '../protocol/vocabulary.js';

/** Roles a user can act on directly; they win the token budget over plain containers. */
export const INTERACTIVE_ROLES: ReadonlySet<Role> = new Set<Role>([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'document',
  'terminal',
  'page',
  'combobox',
  'spinbutton',
  'slider',
  'scrollbar',
  'listitem',
  'treeitem',
  'cell',
  'columnheader',
  'rowheader',
  'tab',
  'menuitem',
]);

/** Roles that group others and carry little meaning of their own when nameless. */
export const CONTAINER_ROLES: ReadonlySet<Role> = new Set<Role>([
  'generic', 'group', 'pane', 'scrollarea', 'unknown', 'form', 'tabpanel', 'application',
]);

/** Roles whose elements are top-level surfaces: a new one after an act gets its own snapshot. */
export const SURFACE_ROLES: ReadonlySet<Role> = new Set<Role>(['window', 'dialog', 'alert', 'menu']);
