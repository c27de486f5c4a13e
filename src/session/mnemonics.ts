/**
 * The access keys of a live window's commands, as the policy reads them (ActionRequest.mnemonics): which button,
 * link or menu item an Alt chord would activate. Drivers report each key in W3C key names (RawNode.keyBinding,
 * tree.snapshot `keyBindings`) and the command's name without the toolkit's marker of it.
 */
import type { RawNode } from '../engine/node.js';
import { walk } from '../engine/node.js';
import { COMMAND_ROLES } from '../protocol/vocabulary.js';

/** The letter of a node's access key, when the driver reports one (`keyBinding` in W3C key names: "Alt+d"). */
function accessKey(n: RawNode): string | undefined {
  return n.keyBinding ? /^alt\+([a-z0-9])$/i.exec(n.keyBinding.trim())?.[1]?.toLowerCase() : undefined;
}

/**
 * Every enabled command control of a live window (buttons, links, menu items, hidden menu items included:
 * a menu opened by keys shows them) with its access key in lower case, "" when none is known. The driver
 * reports the key (tree.snapshot `keyBindings`), and a command's name without the toolkit's marker of it.
 */
export function mnemonicsIn(root: RawNode): { key: string; label: string; role: string }[] {
  const out: { key: string; label: string; role: string }[] = [];
  walk(root, (n) => {
    if (!n.name || !COMMAND_ROLES.has(n.role) || n.states.includes('disabled')) return;
    out.push({ key: accessKey(n) ?? '', label: n.name, role: n.role });
  });
  return out;
}
