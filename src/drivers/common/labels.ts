/**
 * A nameless field named by the label beside it. pluma's Find/Replace dialog (GTK 3) has entries with no name
 * and no labelled-by relation; their labels ("Search for:") are siblings in the same GtkGrid row, and a model in
 * the loop read two `textbox editable` lines and had to guess which was which. A field with no name and no
 * description of its own takes, as `beside`, the text of a label among its siblings that is
 * - on its row, to its left, with nothing between them (the nearest such label), else
 * - its immediate previous sibling, left of it or above it on screen.
 * Screen bounds decide, never the tree's order alone: GTK 3 lists a grid's children in reverse order of
 * attaching, so a field's previous sibling there is the label of the row below. A label two fields would take
 * names neither, and nothing is named where the bounds are not known. A driver reads the bounds (one call per
 * element where its snapshot has none) only for the parents `parentsOfFields` returns.
 */
import type { RawNode } from '../../protocol/nodes.js';
import { empty, spansMeet, type Rect } from './rects.js';

/** Roles of fields that take a value a label beside them names. */
const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'combobox', 'spinbutton']);
/** Pixels a label may reach past its field's edge (toolkits round, labels have a margin). */
const SLACK = 4;
/** Most children of one parent looked at (a form's row or grid; a longer list is no form). */
const MAX_CHILDREN = 40;

/** The text a label shows, when it is a label with text. */
function labelText(n: RawNode): string | undefined {
  const t = n.role === 'label' ? n.name?.trim() : undefined;
  return t ? t : undefined;
}

/** True for a field with no name or description of its own. */
function nameless(n: RawNode): boolean {
  return FIELD_ROLES.has(n.role) && !n.name?.trim() && !n.description?.trim();
}

/** The parents worth reading bounds for: a nameless field and a label among their children. */
export function parentsOfFields(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const visit = (n: RawNode): void => {
    const kids = n.children ?? [];
    if (kids.length <= MAX_CHILDREN && kids.some(nameless) && kids.some((k) => labelText(k) !== undefined)) out.push(n);
    for (const c of kids) visit(c);
  };
  visit(root);
  return out;
}

/** The children of `parent` whose bounds the pairing reads: its nameless fields, labels and what may sit between. */
export function pairingChildren(parent: RawNode): RawNode[] {
  return (parent.children ?? []).slice(0, MAX_CHILDREN);
}

/** True when the label's vertical center lies within the field's row. */
function sameRow(label: Rect, field: Rect): boolean {
  const cy = label[1] + label[3] / 2;
  return cy >= field[1] && cy <= field[1] + field[3];
}

/** True when `label` ends left of where `field` starts. */
function leftOf(label: Rect, field: Rect): boolean {
  return label[0] + label[2] <= field[0] + SLACK;
}

/** True when `label` sits just above `field`, over the same columns. */
function above(label: Rect, field: Rect): boolean {
  return label[1] + label[3] <= field[1] + SLACK && spansMeet(label[0], label[2], field[0], field[2])
    && field[1] - (label[1] + label[3]) <= Math.max(label[3], field[3]);
}

/** The label the field's row shows left of it, nearest first, when no other element sits between them. */
function rowLabel(field: RawNode, kids: readonly RawNode[], at: (n: RawNode) => Rect | undefined): RawNode | undefined {
  const f = at(field)!;
  let best: RawNode | undefined;
  for (const k of kids) {
    const b = at(k);
    if (k === field || !b || labelText(k) === undefined || !sameRow(b, f) || !leftOf(b, f)) continue;
    if (!best || b[0] + b[2] > at(best)![0] + at(best)![2]) best = k;
  }
  if (!best) return undefined;
  const from = at(best)![0] + at(best)![2];
  // Another element of the row between them (a first field of two) is what the label is beside.
  const between = kids.some((k) => {
    const b = at(k);
    return (
      k !== field &&
      k !== best &&
      b !== undefined &&
      sameRow(b, f) &&
      b[0] >= from - SLACK &&
      b[0] + b[2] <= f[0] + SLACK
    );
  });
  return between ? undefined : best;
}

/** The field's immediate previous sibling when it is a label left of it or above it. */
function previousLabel(
  field: RawNode,
  kids: readonly RawNode[],
  at: (n: RawNode) => Rect | undefined,
): RawNode | undefined {
  const prev = kids[kids.indexOf(field) - 1];
  const b = prev ? at(prev) : undefined;
  const f = at(field)!;
  if (!prev || !b || labelText(prev) === undefined) return undefined;
  return (sameRow(b, f) && leftOf(b, f)) || above(b, f) ? prev : undefined;
}

/** Where the label's text goes: a combo's own entry when it has one (what takes the text), else the field. */
function holder(field: RawNode): RawNode {
  const entries = field.role === 'combobox' ? (field.children ?? []).filter((c) => c.role === 'textbox') : [];
  const entry = entries.length === 1 ? entries[0]! : undefined;
  return entry && nameless(entry) ? entry : field;
}

/**
 * Sets `beside` on the nameless fields among `parent`'s children from the labels beside them (see the module
 * comment), given the children's bounds. Returns how many fields were named.
 */
export function nameFieldsByLabels(parent: RawNode, bounds: ReadonlyMap<RawNode, Rect | undefined>): number {
  const kids = pairingChildren(parent);
  const at = (n: RawNode): Rect | undefined => {
    const b = bounds.get(n);
    return b && !empty(b) ? b : undefined;
  };
  const claims = new Map<RawNode, RawNode[]>();
  for (const field of kids) {
    if (!nameless(field) || !at(field)) continue;
    const label = rowLabel(field, kids, at) ?? previousLabel(field, kids, at);
    if (label) claims.set(label, [...(claims.get(label) ?? []), field]);
  }
  let named = 0;
  for (const [label, fields] of claims) {
    // A label two fields would take tells neither which it names.
    if (fields.length !== 1) continue;
    holder(fields[0]!).beside = labelText(label)!;
    named++;
  }
  return named;
}
