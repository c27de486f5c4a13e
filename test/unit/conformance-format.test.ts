/**
 * The scenarios format as documented (docs/conformance.md, docs/conformance.schema.json): the committed schema is
 * the generated one, valid 2020-12 for an independent validator; every field of the format is explained in the
 * page; the page's example and the built-in scenarios are valid; a case expects an effect or an error, not
 * both; a control without a stable id is found by role and name under its path of ancestors.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { RawNode } from '../../src/protocol/methods.js';
import { BUILTIN_SCENARIOS } from '../../src/conformance/builtin-scenarios.js';
import { conformanceSchemaText } from '../../src/conformance/schema.js';
import { checkScenarios, Scenarios } from '../../src/conformance/scenarios.js';
import { findControl } from '../../src/conformance/semantic.js';
import { ajv2020 } from '../conformance/ajv2020.js';

type Json = Record<string, unknown>;
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8');
const example = (): unknown => JSON.parse(/```json\n([\s\S]*?)\n```/.exec(PAGE)![1]!);

test('docs/conformance.schema.json is the generated schema, valid ' +
    '2020-12, and the example and the built-in scenarios validate', () => {
  const committed = readFileSync(join(ROOT, 'docs', 'conformance.schema.json'), 'utf8');
  assert.equal(committed, conformanceSchemaText(), 'run npm run schema');
  const ajv = ajv2020();
  const schema = JSON.parse(committed) as Json;
  assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
  const validate = ajv.compile(schema);
  assert.equal(validate(example()), true, JSON.stringify(validate.errors));
  assert.equal(validate(JSON.parse(JSON.stringify(BUILTIN_SCENARIOS))), true, JSON.stringify(validate.errors));
  assert.ok(checkScenarios(example(), 'example'));
  // A state outside the vocabulary is refused by both validators.
  const bad = JSON.parse(JSON.stringify(example())) as { harnesses: { controls: { states?: string[] }[] }[] };
  bad.harnesses[0]!.controls[0]!.states = ['ticked'];
  assert.equal(validate(bad), false);
  assert.throws(() => checkScenarios(bad, 'bad'), /states\/0/);
});

test('every field of the scenarios format is explained in docs/conformance.md', () => {
  const fields = new Set<string>();
  const walk = (s: Json): void => {
    for (const [k, v] of Object.entries((s['properties'] ?? {}) as Record<string, Json>)) {
      fields.add(k);
      walk(v);
      if (v['items']) walk(v['items'] as Json);
    }
  };
  walk(JSON.parse(JSON.stringify(Scenarios)) as Json);
  const missing = [...fields].filter(
    (f) =>
      !new RegExp(`^\\| \`(?:[a-z.]*\\.)?${f.replace('$', '\\$')}\` \\|`, 'm').test(PAGE) &&
      !PAGE.includes(`{${f}`) &&
      !PAGE.includes(`, ${f}`),
  );
  assert.deepEqual(missing, []);
});

test('a case expects an effect or an error, exactly one', () => {
  const s = example() as { harnesses: { controls: { ops?: Json[] }[] }[] };
  s.harnesses[0]!.controls[0]!.ops![0] = { op: 'toggle', effect: {}, error: 'unsupported' };
  assert.throws(() => checkScenarios(s, 'both'), /give exactly one of effect and error/);
  s.harnesses[0]!.controls[0]!.ops![0] = { op: 'toggle' };
  assert.throws(() => checkScenarios(s, 'neither'), /give exactly one of effect and error/);
});

test('without a stable id, a control is found by role and name under its path of ancestors', () => {
  const node = (id: string, role: string, name: string, children: RawNode[] = []): RawNode =>
    ({ id, role, name, states: [], actions: [], children }) as unknown as RawNode;
  const root = node('w', 'window', 'Harness', [
    node('g1', 'group', 'Header', [node('b1', 'button', 'OK')]),
    node('g2', 'group', 'Footer', [node('p', 'pane', 'Inner', [node('b2', 'button', 'OK')])]),
  ]);
  const ok = { id: 'ok', role: 'button', name: 'OK' } as const;
  assert.equal(findControl(root, ok).node, undefined);
  assert.match(findControl(root, ok).how, /2 have role button and name "OK"/);
  assert.equal(findControl(root, { ...ok, path: [{ name: 'Footer' }] }).node?.id, 'b2');
  assert.equal(findControl(root, { ...ok, path: [{ role: 'group', name: 'Header' }] }).node?.id, 'b1');
  assert.equal(
    findControl(root, { ...ok, path: [{ name: 'Footer' }, { role: 'pane', name: 'Inner' }] }).node?.id,
    'b2',
  );
  assert.match(
    findControl(root, { ...ok, path: [{ name: 'Inner' }, { name: 'Footer' }] }).how,
    /0 have role button .* under \* "Inner" › \* "Footer"/,
  );
});
