/**
 * The semantic layer's harness description (test/conformance/scenarios.json): for each harness (one local
 * HTML page, one native test app per platform), the window it shows, its controls by stable id with their
 * expected role and states, the ops to run on each and each op's effect, and the three refusals every driver
 * owes (disabled, stale handle, unfocused window). Validated on load like every other boundary.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Op, Role, State } from '../protocol/methods.js';
import { validationError } from '../protocol/validate.js';

const Strict = { additionalProperties: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 200 });

/** What an op must have changed, read back from a fresh snapshot. */
export const Effect = Type.Object({
  /** The control to read (default: the one acted on). */
  control: Type.Optional(Name),
  value: Type.Optional(Type.String({ maxLength: 1000 })),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  states: Type.Optional(Type.Array(State)),
  notStates: Type.Optional(Type.Array(State)),
}, Strict);
export type Effect = Static<typeof Effect>;

export const OpCase = Type.Object({ op: Op, value: Type.Optional(Type.String({ maxLength: 1000 })), effect: Effect }, Strict);
export type OpCase = Static<typeof OpCase>;

/** One control: found by `stableId === id`, or (drivers without stable ids) by role and name. */
export const Control = Type.Object({
  id: Name,
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  role: Role,
  /** States it must have. */
  states: Type.Optional(Type.Array(State)),
  /** States it must not have. */
  notStates: Type.Optional(Type.Array(State)),
  ops: Type.Optional(Type.Array(OpCase)),
}, Strict);
export type Control = Static<typeof Control>;

export const Harness = Type.Object({
  name: Type.String({ pattern: '^[a-z0-9-]+$', maxLength: 40 }),
  description: Type.Optional(Type.String()),
  /** The harness window: its title contains this. */
  window: Type.Object({ title: Name }, Strict),
  /** How a human or a test starts it (printed when its window is missing). */
  start: Type.Optional(Type.String()),
  controls: Type.Array(Control),
  /** Acting on a disabled control fails with element_disabled and changes nothing (`unchanged` keeps its name and value). */
  disabled: Type.Optional(Type.Object({ control: Name, op: Op, unchanged: Name }, Strict)),
  /** After `trigger` replaces `control`, acting through its old handle fails with stale_ref. */
  stale: Type.Optional(Type.Object({ control: Name, trigger: Type.Object({ control: Name, op: Op }, Strict) }, Strict)),
  /** Keys aimed at the window while another process must own the focus fail with window_not_focused; `control` keeps its value. */
  unfocused: Type.Optional(Type.Object({ control: Name, text: Type.String({ minLength: 1, maxLength: 100 }) }, Strict)),
}, Strict);
export type Harness = Static<typeof Harness>;

export const Scenarios = Type.Object({ version: Type.Literal(1), harnesses: Type.Array(Harness) }, Strict);
export type Scenarios = Static<typeof Scenarios>;

/** Reads and checks a scenarios file; throws naming the first problem. */
export function loadScenarios(path: string): Scenarios {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  const bad = validationError(Scenarios, value);
  if (bad) throw new Error(`${path}: ${bad}`);
  const s = value as Scenarios;
  for (const h of s.harnesses) {
    const ids = new Set(h.controls.map((c) => c.id));
    const refs = [h.disabled?.control, h.disabled?.unchanged, h.stale?.control, h.stale?.trigger.control, h.unfocused?.control,
      ...h.controls.flatMap((c) => (c.ops ?? []).map((o) => o.effect.control))];
    const missing = refs.filter((r): r is string => r !== undefined && !ids.has(r));
    if (missing.length) throw new Error(`${path}: harness ${h.name} refers to controls it does not declare: ${missing.join(', ')}`);
  }
  return s;
}
