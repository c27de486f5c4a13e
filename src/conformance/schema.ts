/**
 * docs/conformance.schema.json: the scenarios format (scenarios.ts) as JSON Schema draft 2020-12, for editors and
 * for drivers' authors who write scenarios of their own test apps. Written by `npm run schema`; a unit test fails
 * when the committed file differs.
 */
import { dialect2020 } from '../protocol/schema.js';
import { Scenarios } from './scenarios.js';

/** The schema as a value. */
export function conformanceSchema(): Record<string, unknown> {
  const body = dialect2020(JSON.parse(JSON.stringify(Scenarios))) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://github.com/computer-use/computer-use/docs/conformance.schema.json',
    title: 'computer-use conformance scenarios',
    ...body,
  };
}

/** The schema as the committed file holds it. */
export function conformanceSchemaText(): string {
  return `${JSON.stringify(conformanceSchema(), null, 2)}\n`;
}

/** Writes docs/conformance.schema.json into `dir` (npm run schema). */
export async function writeConformanceSchema(dir: string): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  await writeFile(`${dir}/conformance.schema.json`, conformanceSchemaText());
}
