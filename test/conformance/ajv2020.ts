/**
 * ajv 8 in its JSON Schema draft 2020-12 mode: a validator independent of the TypeBox compiler the host uses (a
 * devDependency of its own, so the tests do not lean on a copy another package happens to bring).
 */
import { createRequire } from 'node:module';

/** A compiled validator: true when the value matches, else false with `errors`. */
export type Validate = ((v: unknown) => boolean) & { errors?: unknown };
/** The part of ajv's API the tests use. */
export interface Ajv2020 {
  validateSchema(s: unknown): boolean;
  compile(s: unknown): Validate;
  addVocabulary(words: string[]): void;
  errors?: unknown;
}

/** A strict ajv 2020-12 instance; `vocabulary` declares a document's own annotation keywords. */
export function ajv2020(vocabulary: string[] = []): Ajv2020 {
  const require = createRequire(import.meta.url);
  const Ajv = (require('ajv/dist/2020') as { default: new (o: object) => Ajv2020 }).default;
  const ajv = new Ajv({ strict: true, allErrors: false });
  if (vocabulary.length) ajv.addVocabulary(vocabulary);
  return ajv;
}
