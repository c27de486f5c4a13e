/**
 * docs/protocol.schema.json read by an independent validator (ajv in its draft 2020-12 mode, not the TypeBox
 * compiler the host uses): the document is valid against the 2020-12 meta-schema, every method's params and
 * result compile in ajv's strict mode, tuples are `prefixItems` with their length enforced, and every recorded
 * transcript's results (and the params of every request that was answered with a result) validate.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { ajv2020 as ajv2020With, type Ajv2020 } from '../conformance/ajv2020.js';

type Json = Record<string, unknown>;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = JSON.parse(readFileSync(join(ROOT, 'docs', 'protocol.schema.json'), 'utf8')) as Json;
// The document's own annotation keywords (its metaModel: methods, caps, errors, rules), declared, not ignored.
const ajv2020 = (): Ajv2020 =>
  ajv2020With(['protocolVersion', 'limits', 'methods', 'notifications', 'errors', 'rules']);

/** A method's schema as a document of its own, with the shared definitions. */
const standalone = (s: unknown): Json => ({ $schema: DOC['$schema'], $defs: DOC['$defs'], ...(s as Json) });

const methods = DOC['methods'] as Record<string, { params: unknown; result: unknown }>;

test('the protocol schema is valid draft 2020-12, and each method\'s schemas compile in ajv\'s strict mode', () => {
  const ajv = ajv2020();
  assert.equal(ajv.validateSchema(DOC), true, JSON.stringify(ajv.errors));
  assert.ok(ajv.compile(DOC));
  for (const [name, m] of Object.entries(methods)) {
    assert.ok(ajv.compile(standalone(m.params)), `${name}.params`);
    assert.ok(ajv.compile(standalone(m.result)), `${name}.result`);
  }
  // No draft-07 tuple is left: an `items` array means something else in 2020-12.
  const text = JSON.stringify(DOC);
  assert.doesNotMatch(text, /"items":\[/);
  assert.doesNotMatch(text, /"additionalItems"/);
});

test('the 2020-12 schema enforces what the docs say: tuple lengths and the state vocabulary', () => {
  const ajv = ajv2020();
  const snapshot = ajv.compile(standalone(methods['tree.snapshot']!.result));
  const node = {
    id: 'n1',
    role: 'checkbox',
    name: 'Agree',
    states: ['checked'],
    actions: ['toggle'],
    bounds: [0, 0, 10, 10],
  };
  const ok = {
    window: { id: 'w', title: 't', app: 'a', pid: 7, role: 'window', focused: true },
    root: node,
    stats: { nodes: 1, ms: 1, truncated: false },
  };
  assert.equal(snapshot(ok), true, JSON.stringify(snapshot.errors));
  assert.equal(snapshot({ ...ok, root: { ...node, states: ['ticked'] } }), false, 'a state outside the enum');
  assert.equal(snapshot({ ...ok, root: { ...node, bounds: [0, 0, 10] } }), false, 'a rectangle of 3');
  assert.equal(snapshot({ ...ok, root: { ...node, bounds: [0, 0, 10, 10, 5] } }), false, 'a rectangle of 5');
  assert.equal(
    snapshot({ ...ok, root: { ...node, bounds: [0, 0, 2_000_000, 10] } }),
    false,
    'a width beyond the pixel cap',
  );
});

test('every recorded transcript validates against the 2020-12 schema', () => {
  const ajv = ajv2020();
  const compiled = new Map<string, (v: unknown) => boolean>();
  const validator = (key: string, s: unknown): ((v: unknown) => boolean) & { errors?: unknown } => {
    let v = compiled.get(key);
    if (!v) { v = ajv.compile(standalone(s)); compiled.set(key, v); }
    return v as ((v: unknown) => boolean) & { errors?: unknown };
  };
  const dir = join(ROOT, 'test', 'fixtures', 'transcripts');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.ok(files.length > 0);
  let checked = 0;
  for (const f of files) {
    const t = parseTranscript(readFileSync(join(dir, f), 'utf8'));
    const requests = new Map<string, { method: string; params?: unknown }>();
    for (const e of t.entries) {
      if (e.type === 'request') requests.set(JSON.stringify(e.id), e);
      if (e.type !== 'result') continue;
      const req = requests.get(JSON.stringify(e.id));
      const m = req ? methods[req.method] : undefined;
      if (!req || !m) continue;
      const result = validator(`${req.method}.result`, m.result);
      assert.equal(result(e.result), true, `${f}: ${req.method} result: ${JSON.stringify(result.errors)}`);
      const params = validator(`${req.method}.params`, m.params);
      assert.equal(params(req.params ?? {}), true, `${f}: ${req.method} params: ${JSON.stringify(params.errors)}`);
      checked++;
    }
  }
  assert.ok(checked > 20, `${checked} answers checked`);
});
