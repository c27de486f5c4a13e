/**
 * The protocol as JSON Schema (draft 2020-12) for drivers written in other languages: one document with each
 * method's params and result schema and each notification's params, generated from the method values in
 * methods.ts. `npm run schema` writes it to docs/protocol.schema.json; a unit test fails when it is stale.
 */
import { LIMITS, METHODS, NOTIFICATIONS, RawNode } from './methods.js';

/** The document as a value. TypeBox schemas are JSON Schema already; the round trip drops its symbol keys. */
export function protocolSchema(): Record<string, unknown> {
  const plain = (s: unknown): unknown => JSON.parse(JSON.stringify(s));
  // The recursive node schema is declared once under $defs and referenced, not inlined under one $id many times.
  const refNodes = (s: unknown): unknown => JSON.parse(JSON.stringify(s), (_k, v: unknown) =>
    typeof v === 'object' && v !== null && (v as { $id?: unknown }).$id === 'RawNode' ? { $ref: '#/$defs/RawNode' } : v);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/computer-use/computer-use/docs/protocol.schema.json',
    title: 'computer-use driver protocol',
    description: 'JSON-RPC 2.0, one JSON object per line over stdio. Requests carry `method` and `params`; errors carry ' +
      'a string code in error.data.code. Params are strict (unknown fields are errors, answered with -32602 and ' +
      'data.code "invalid_params"); results may carry extra fields. Cancel a request with the notification ' +
      '`$/cancel {id}`. Generated from src/protocol/methods.ts by `npm run schema`; do not edit.',
    limits: LIMITS,
    $defs: { RawNode: plain(RawNode) },
    methods: Object.fromEntries(METHODS.map((m) => [m.method, { params: refNodes(m.params), result: refNodes(m.result) }])),
    notifications: Object.fromEntries(Object.entries(NOTIFICATIONS).map(([name, s]) => [name, { params: refNodes(s) }])),
  };
}

/** The document as the committed file holds it. */
export function protocolSchemaText(): string {
  return `${JSON.stringify(protocolSchema(), null, 2)}\n`;
}

/** Writes the document (npm run schema). */
export async function writeProtocolSchema(path: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, protocolSchemaText());
}
