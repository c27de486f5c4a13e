/**
 * What the receipt says when a click went to an element inside the one named, and the error when several could
 * have taken it (drivers: a click on an element with no action of its own, ActResult `via`, `unsupported` details
 * `inside`). The driver names them by handle; the model knows them by ref, so the words are written here, with
 * the app's names quoted (engine/escape.ts).
 */
import type { RefTable } from '../engine/refs.js';
import { MAX_NAME_CHARS, quote } from '../engine/measure.js';
import type { Snapshot } from '../engine/snapshot.js';
import { ComputerUseError } from '../protocol/errors.js';
import type { Inner } from '../protocol/methods.js';
import { ROLES, type Role } from '../protocol/nodes.js';

const isRole = (r: unknown): r is Role => typeof r === 'string' && (ROLES as readonly string[]).includes(r);

/** Most inner elements an error names (the driver caps its list too; a hostile one is cut here). */
const MAX_NAMED = 8;

/** An inner element the driver reported, when its shape is one (details cross the wire unchecked). */
function asInner(x: unknown): Inner | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const { id, role, name, description } = x as Record<string, unknown>;
  if (typeof id !== 'string' || !isRole(role)) return undefined;
  return {
    id,
    role,
    ...(typeof name === 'string' && name
      ? { name }
      : typeof description === 'string' && description
        ? { description }
        : {}),
  };
}

/** `[e5] button "Cut"`, as its snapshot line begins (without a ref when the last snapshot did not show it). */
function innerText(refs: RefTable, window: string, inner: Inner): string {
  const ref = refs.refOfHandle(window, inner.id);
  const label = inner.name
    ? ` ${quote(inner.name, MAX_NAME_CHARS)}`
    : inner.description
      ? ` description=${quote(inner.description, MAX_NAME_CHARS)}`
      : '';
  return `${ref ? `[${ref}] ` : ''}${inner.role}${label}`;
}

/** The receipt's words for a click that went to `via` inside `ref`. */
export function viaText(refs: RefTable, window: string, ref: string, via: Inner): string {
  return `via its child ${innerText(refs, window, via)} (${ref} has no action of its own)`;
}

/** The `unsupported` error of a click on `ref` that several inner elements could take, naming their refs; undefined for any other error. */
export function namingInside(
  refs: RefTable,
  window: string,
  ref: string,
  err: ComputerUseError,
): ComputerUseError | undefined {
  const listed =
    err.code === 'unsupported' && Array.isArray(err.details['inside'])
      ? (err.details['inside'] as unknown[]).map(asInner)
      : [];
  const inside = listed.filter((i): i is Inner => i !== undefined).slice(0, MAX_NAMED);
  if (inside.length < 2) return undefined;
  return new ComputerUseError(
    'unsupported',
    `${ref} has no action of its own, and ${inside.length} clickable elements inside it could take the ` +
      `click: ` +
      `${inside.map((i) => innerText(refs, window, i)).join(', ')}. Nothing was sent; click the one you mean.`,
    err.details,
  );
}

/** Most names of inner elements the policy is given for one act. */
const MAX_INSIDE = 8;
/** Levels below the target searched (the drivers' search goes as deep: drivers/linux/act/inner-click.ts). */
const MAX_DEPTH = 3;

/**
 * The names of the elements inside `ref` in its window's last snapshot, nearest first (ElementStep `inside`): the
 * policy judges a click by what it may reach, since a click on an element with no action goes to the one inside.
 */
export function namesInside(snap: Snapshot | undefined, ref: string): string[] {
  const names: string[] = [];
  let level = new Set([ref]);
  for (let depth = 0; depth < MAX_DEPTH && level.size > 0 && names.length < MAX_INSIDE; depth++) {
    const next = new Set<string>();
    for (const l of snap?.elements ?? []) {
      if (l.parent === undefined || !level.has(l.parent)) continue;
      next.add(l.ref);
      const name = l.name ?? l.description;
      if (name && names.length < MAX_INSIDE) names.push(name);
    }
    level = next;
  }
  return names;
}
