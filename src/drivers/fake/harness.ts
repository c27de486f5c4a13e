/**
 * What the conformance harness app does when acted on (test/apps/conformance-harness.py), played by the fake
 * driver on its recorded tree (test/fixtures/linux/conformance-harness.json), its controls found by role and
 * name: "Hello" sets the status label, "Replace" puts a new "Target" element (a new handle) where the old one was,
 * "Open window" opens a window that its "Close window" button closes.
 */
import type { RawNode } from '../../engine/node.js';
import type { ActParams } from '../../protocol/methods.js';
import type { FakeDriver } from './driver.js';

/** An onAct hook for a FakeDriver serving the harness. */
export function harnessBehaviour(fake: FakeDriver): (p: ActParams, node: RawNode) => void {
  let replaced = 0;
  const find = (test: (n: RawNode) => boolean): RawNode | undefined => {
    let hit: RawNode | undefined;
    const visit = (n: RawNode): void => { if (test(n)) hit = n; for (const c of n.children ?? []) visit(c); };
    for (const w of fake.windows) visit(w.root);
    return hit;
  };
  let opened = 0;
  return (p, node) => {
    if (p.op !== 'click' || node.role !== 'button') return;
    // "Open window" shows a small window whose "Close window" button closes it again.
    if (node.name === 'Open window') {
      const main = fake.windows[0]!;
      const id = `${main.info.id}-closing-${++opened}`;
      const info = { ...main.info, id, title: 'Closing window', focused: false };
      fake.windows.push({ info, root: { id, role: 'window', name: info.title, states: [], actions: [], children: [
        { id: `${id}/close`, role: 'button', name: 'Close window', states: ['focusable'], actions: ['click', 'focus'] },
      ] } });
    }
    if (node.name === 'Close window') {
      const at = fake.windows.findIndex((w) => w.root.children?.some((c) => c.id === node.id));
      if (at > 0) fake.windows.splice(at, 1);
    }
    if (node.name === 'Hello') {
      const status = find((n) => n.role === 'label' && (n.name ?? '').startsWith('Status:'));
      if (status) status.name = 'Status: hello';
    }
    if (node.name === 'Replace') {
      const target = find((n) => n.role === 'button' && n.name === 'Target');
      if (target) target.id = `${target.id.replace(/~\d+$/, '')}~${++replaced}`;
    }
  };
}
