/**
 * The semantic layer's harness description (docs/conformance.md explains it field by field; its JSON Schema is
 * docs/conformance.schema.json): for each harness (one page, one native test app per platform), the window it
 * shows, its controls (found by stable id, or by role and name under a path of ancestors), the ops to run on each
 * and what each must change, or the error it must fail with, and the refusals every driver owes (disabled, stale
 * handle, unfocused window). Validated on load like every other boundary.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { ERROR_CODES } from '../protocol/errors.js';
import { Op, Role, State } from '../protocol/methods.js';
import { doc, Literals } from '../protocol/primitives.js';
import { RULE_IDS } from '../protocol/rules.js';
import { validationError } from '../protocol/validate.js';

const Strict = { additionalProperties: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: 1000 });
const ControlRef = doc('The `id` of a control this harness declares.', Name);
const States = (what: string) => doc(what, Type.Array(State, { maxItems: 32 }));

/** An error code a driver may answer with (error.data.code). */
export const ErrorCode = Literals(Object.keys(ERROR_CODES) as (keyof typeof ERROR_CODES)[], {
  description: 'An error code (error.data.code).',
});
/** A rule id of docs/protocol.md. */
export const RuleRef = Literals(RULE_IDS, {
  description: 'The rule of docs/protocol.md a failure cites (`R-act-value`).',
});

/** What an op must have changed, read back from a fresh snapshot. */
export const Effect = Type.Object({
  control: Type.Optional(doc('The control to read back (default: the one acted on).', ControlRef)),
  value: Type.Optional(doc('Its value must be exactly this.', Text)),
  name: Type.Optional(doc('Its name must be exactly this.', Text)),
  states: Type.Optional(States('States it must have.')),
  notStates: Type.Optional(States('States it must not have.')),
}, { ...Strict, description: 'What the control reads like after the op (re-read until it does, up to 5 s).' });
export type Effect = Static<typeof Effect>;

export const OpCase = Type.Object(
  {
    op: doc('The node.act op to run.', Op),
    value: Type.Optional(doc('node.act `value`.', Text)),
    expect: Type.Optional(
      doc(
        'node.act `expect` to send (role and name only).',
        Type.Object(
          {
            role: Type.Optional(doc('The role to state.', Role)),
            name: Type.Optional(doc('The name to state.', Text)),
          },
          Strict,
        ),
      ),
    ),
    effect: Type.Optional(
      doc(
        'For an op that must be carried out: what it must have changed. Exactly one of `effect` and `error`.',
        Effect,
      ),
    ),
    error: Type.Optional(
      doc(
        'For an op that must be refused: the error code it must fail with. The control must then read as before ' +
          '(its value, name and `checked` state): a refusal sends nothing.',
        ErrorCode,
      ),
    ),
    rule: Type.Optional(
      doc(
        'The rule the case checks, cited when it fails (default: R-act-effect, or R-act-op for `unsupported`).',
        RuleRef,
      ),
    ),
  },
  { ...Strict, description: 'One act on a control and its outcome.' },
);
export type OpCase = Static<typeof OpCase>;

/** One step of a control's path: an ancestor by role and name. */
export const PathStep = Type.Object({
  role: Type.Optional(doc('The ancestor\'s role.', Role)),
  name: doc('The ancestor\'s name, exactly.', Text),
}, { ...Strict, description: 'An ancestor of the control, by role and name.' });

/** One control: found by `stableId === id`, else by the handle it first had, else by role and name under its path. */
export const Control = Type.Object(
  {
    id: doc(
      "The control's name in this file, and the stable id (RawNode.stableId) it is found by when the driver reports one.",
      Name,
    ),
    name: Type.Optional(
      doc('Its accessible name: with `role`, how it is found when no node has the stable id.', Text),
    ),
    role: doc('Its role: it must have it.', Role),
    path: Type.Optional(
      doc(
        'Ancestors it must be found under, outermost first, each a descendant of the one before (not necessarily a ' +
          'child): tells apart two controls of the same role and name.',
        Type.Array(PathStep, { maxItems: 16 }),
      ),
    ),
    states: Type.Optional(States('States it must have when first read.')),
    notStates: Type.Optional(States('States it must not have when first read.')),
    ops: Type.Optional(doc('Acts to run on it, in order.', Type.Array(OpCase, { maxItems: 64 }))),
  },
  { ...Strict, description: 'A control of the harness.' },
);
export type Control = Static<typeof Control>;

export const Harness = Type.Object(
  {
    name: doc(
      'Short name, used in rule names (`semantic.<name>.<control>`).',
      Type.String({ pattern: '^[a-z0-9-]+$', maxLength: 40 }),
    ),
    description: Type.Optional(doc('What the harness is, for humans.', Type.String({ maxLength: 2000 }))),
    window: doc(
      'The harness window: the first listed window whose title contains `title`.',
      Type.Object({ title: doc('Part of the title.', Name) }, Strict),
    ),
    start: Type.Optional(
      doc('How a human starts it (printed when its window is missing).', Type.String({ maxLength: 2000 })),
    ),
    controls: doc('Its controls, read in order.', Type.Array(Control, { maxItems: 256 })),
    disabled: Type.Optional(
      doc(
        'Acting on a disabled control fails with element_disabled, and `unchanged` keeps its name and value.',
        Type.Object({ control: ControlRef, op: doc('The op to try.', Op), unchanged: ControlRef }, Strict),
      ),
    ),
    stale: Type.Optional(
      doc(
        'After `trigger` replaces `control`, acting through its old handle fails with stale_ref.',
        Type.Object(
          {
            control: ControlRef,
            trigger: doc(
              'The act that replaces it.',
              Type.Object({ control: ControlRef, op: doc('The op.', Op) }, Strict),
            ),
          },
          Strict,
        ),
      ),
    ),
    unfocused: Type.Optional(
      doc(
        'Keys aimed at the window while another process must own the focus fail with window_not_focused; `control` keeps its value.',
        Type.Object(
          {
            control: ControlRef,
            text: doc('The text to try to type.', Type.String({ minLength: 1, maxLength: 100 })),
          },
          Strict,
        ),
      ),
    ),
    closed: Type.Optional(
      doc(
        'A window that closes: `open` shows a window whose title contains `title`; clicking its `control` (by role and ' +
          "name) closes it. Then acting through that control's old handle fails with stale_ref and reading the old window with window_not_found.",
        Type.Object(
          {
            open: doc(
              'The act that opens the window.',
              Type.Object({ control: ControlRef, op: doc('The op.', Op) }, Strict),
            ),
            title: doc('Part of the title of the window it opens.', Name),
            control: doc(
              'The control in that window whose click closes it.',
              Type.Object({ role: doc('Its role.', Role), name: doc('Its name.', Text) }, Strict),
            ),
          },
          Strict,
        ),
      ),
    ),
  },
  { ...Strict, description: 'One harness: a window and what the kit does in it.' },
);
export type Harness = Static<typeof Harness>;

export const Scenarios = Type.Object(
  {
    $schema: Type.Optional(
      doc(
        'The JSON Schema of this file (docs/conformance.schema.json), for editors.',
        Type.String({ maxLength: 1000 }),
      ),
    ),
    version: doc('The format version: 1.', Type.Literal(1)),
    harnesses: doc(
      'The harnesses; the kit runs each whose window the driver lists.',
      Type.Array(Harness, { maxItems: 64 }),
    ),
  },
  { ...Strict, description: 'A conformance scenarios file (computer-use doctor --conformance --scenarios FILE).' },
);
export type Scenarios = Static<typeof Scenarios>;

/** Checks a scenarios value; throws naming the first problem, `where` first. */
export function checkScenarios(value: unknown, where: string): Scenarios {
  const bad = validationError(Scenarios, value);
  if (bad) throw new Error(`${where}: ${bad}`);
  const s = value as Scenarios;
  for (const h of s.harnesses) {
    const ids = new Set(h.controls.map((c) => c.id));
    const refs = [
      h.disabled?.control,
      h.disabled?.unchanged,
      h.stale?.control,
      h.stale?.trigger.control,
      h.unfocused?.control,
      h.closed?.open.control,
      ...h.controls.flatMap((c) => (c.ops ?? []).map((o) => o.effect?.control)),
    ];
    const missing = refs.filter((r): r is string => r !== undefined && !ids.has(r));
    if (missing.length)
      throw new Error(`${where}: harness ${h.name} refers to controls it does not declare: ${missing.join(', ')}`);
    for (const c of h.controls) {
      for (const [i, o] of (c.ops ?? []).entries()) {
        if ((o.effect === undefined) === (o.error === undefined)) {
          throw new Error(
            `${where}: harness ${h.name}, control ${c.id}, op ${i + 1} (${o.op}): give exactly one of effect and error`,
          );
        }
      }
    }
  }
  return s;
}

/** Reads and checks a scenarios file; throws naming the first problem. */
export function loadScenarios(path: string): Scenarios {
  return checkScenarios(JSON.parse(readFileSync(path, 'utf8')) as unknown, path);
}
