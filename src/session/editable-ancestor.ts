/**
 * A text edit refused by a part of a field (a nameless `generic` or filler inside an editable document, where
 * the focus sits) names the field that takes it: the nearest editable ancestor in the snapshot the model saw.
 */
import { ComputerUseError } from '../protocol/errors.js';
import type { SnapshotLine } from '../engine/line.js';
import type { Session } from './session.js';

/** The ops an editable container takes for a part of it. */
const TEXT_EDITS = new Set(['set_value', 'type', 'clear']);

/** The nearest editable ancestor line of `ref` in `lines`, if any. */
export function editableAncestor(lines: readonly SnapshotLine[], ref: string): SnapshotLine | undefined {
  const byRef = new Map(lines.map((l) => [l.ref, l]));
  const seen = new Set<string>();
  for (let at = byRef.get(ref)?.parent; at !== undefined && !seen.has(at); at = byRef.get(at)?.parent) {
    seen.add(at);
    const line = byRef.get(at);
    if (line?.states.includes('editable')) return line;
  }
  return undefined;
}

/** `err` with the editable ancestor to act on instead, when a text edit was unsupported by the element itself. */
export function withEditableAncestor(
  session: Session,
  ref: string,
  op: string,
  err: ComputerUseError,
): ComputerUseError {
  if (err.code !== 'unsupported' || !TEXT_EDITS.has(op)) return err;
  const snap = session.last.get(session.refs.lookup(ref)?.fingerprint.window ?? '');
  const field = snap && editableAncestor(snap.elements, ref);
  if (!field) return err;
  return new ComputerUseError(err.code, `${err.message} It is part of the editable ${field.role} [${field.ref}]: ` +
    `${op} on [${field.ref}] instead.`, err.details);
}
