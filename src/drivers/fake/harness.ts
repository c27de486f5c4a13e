/**
 * What the conformance harness app does when acted on (test/apps/conformance-harness.py), played by the fake
 * driver on its recorded tree (test/fixtures/linux/conformance-harness.json), its controls found by role and
 * name: "Hello" sets the status label, "Replace" puts a new "Target" element (a new handle) where the old one was.
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
  return (p, node) => {
    if (p.op !== 'click' || node.role !== 'button') return;
    if (node.name === 'Hello') { const status = find((n) => n.role === 'label' && (n.name ?? '').startsWith('Status:')); if (status) status.name = 'Status: hello'; }
    if (node.name === 'Replace') {
      const target = find((n) => n.role === 'button' && n.name === 'Target');
      if (target) target.id = `${target.id.replace(/~\d+$/, '')}~${++replaced}`;
    }
  };
}
