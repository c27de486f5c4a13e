/**
 * The protocol as JSON Schema (draft 2020-12) for drivers written in other languages, shaped like the LSP's
 * metaModel.json: one document with each method's params and result schemas and its meaning (`description`,
 * `acting`, `optional`, `since`), each notification's params, the error codes and the caps, generated from the
 * values in methods.ts, nodes.ts, vocabulary.ts and errors.ts. `npm run schema` writes it to
 * docs/protocol.schema.json together with docs/protocol.md (spec.ts); a unit test fails when either is stale.
 */
import { ERROR_CODES } from './errors.js';
import { LIMITS, METHODS, NOTIFICATIONS, PROTOCOL_VERSION, RawNode } from './methods.js';
import { RULES } from './rules.js';
import { dialect2020 } from './dialect.js';

export { dialect2020 };


/** The document as a value. TypeBox schemas are JSON Schema already; the round trip drops its symbol keys. */
export function protocolSchema(): Record<string, unknown> {
  const plain = (s: unknown): unknown => dialect2020(JSON.parse(JSON.stringify(s)));
  // The recursive node schema is declared once under $defs and referenced, not inlined under one $id many times.
  const refNodes = (s: unknown): unknown =>
    dialect2020(
      JSON.parse(JSON.stringify(s), (_k, v: unknown) =>
        typeof v === 'object' && v !== null && (v as { $id?: unknown }).$id === 'RawNode'
          ? { $ref: '#/$defs/RawNode' }
          : v,
      ),
    );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/computer-use/computer-use/docs/protocol.schema.json',
    title: 'computer-use driver protocol',
    description:
      'JSON-RPC 2.0, one JSON object per line over stdio. Requests carry `method` and `params`; errors carry ' +
      'a string code in error.data.code. Params are strict (unknown fields are errors, answered with -32602 and ' +
      'data.code "invalid_params"); results may carry extra fields. Cancel a request with the notification ' +
      '`$/cancel {id}`. The readable spec is docs/protocol.md. Generated from src/protocol/ by `npm run schema`; do not edit.',
    protocolVersion: PROTOCOL_VERSION,
    limits: LIMITS,
    $defs: { RawNode: plain(RawNode) },
    methods: Object.fromEntries(
      METHODS.map((m) => [
        m.method,
        {
          description: m.doc,
          acting: m.acting,
          optional: m.optional,
          since: m.since,
          params: refNodes(m.params),
          result: refNodes(m.result),
        },
      ]),
    ),
    notifications: Object.fromEntries(
      Object.entries(NOTIFICATIONS).map(([name, s]) => [
        name,
        { description: s.description, params: refNodes({ ...s, description: undefined }) },
      ]),
    ),
    errors: Object.fromEntries(Object.entries(ERROR_CODES).map(([code, description]) => [code, { description }])),
    rules: RULES,
  };
}

/** The document as the committed file holds it. */
export function protocolSchemaText(): string {
  return `${JSON.stringify(protocolSchema(), null, 2)}\n`;
}

/** Writes docs/protocol.schema.json and docs/protocol.md into `dir` (npm run schema). */
export async function writeProtocolDocs(dir: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const { protocolMarkdown } = await import('./spec.js');
  await writeFile(`${dir}/protocol.schema.json`, protocolSchemaText());
  await writeFile(`${dir}/protocol.md`, protocolMarkdown());
}
