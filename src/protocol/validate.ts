/**
 * Run-time validation against TypeBox schemas (validated at every boundary), shared by the
 * protocol peer and the tool runner. Schemas are compiled once; a failure is described by its first failing
 * path and what is allowed there, never by echoing the value (it may be typed text or a secret).
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck, type ValueError } from '@sinclair/typebox/compiler';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** The compiled checker of a schema, compiled on first use and kept. */
export function checkerOf<S extends TSchema>(schema: S): TypeCheck<S> {
  let c = compiled.get(schema);
  if (!c) { c = TypeCompiler.Compile(schema); compiled.set(schema, c); }
  return c as TypeCheck<S>;
}

/** Undefined when `value` matches `schema`, else a sentence naming the first failing path and what it allows. */
export function validationError(schema: TSchema, value: unknown): string | undefined {
  const check = checkerOf(schema);
  if (check.Check(value)) return undefined;
  const first = check.Errors(value).First();
  return first ? describe(first) : 'the value does not match the schema';
}

/** "/actions/0/op: expected one of "click", "toggle"" — the path, then the rule, without the value. */
export function describe(e: ValueError): string {
  const path = e.path || '(root)';
  return `${path}: ${expectation(e)}`;
}

function expectation(e: ValueError): string {
  const s = e.schema as Record<string, unknown>;
  const anyOf = s['anyOf'] as Record<string, unknown>[] | undefined;
  if (anyOf && anyOf.every((x) => 'const' in x)) {
    const values = anyOf.map((x) => JSON.stringify(x['const']));
    return `expected one of ${values.length > 60 ? `${values.slice(0, 60).join(', ')}, …` : values.join(', ')}`;
  }
  if (e.message === 'Unexpected property') return 'unknown field (not allowed here)';
  const rules = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'minItems', 'maxItems', 'pattern']
    .filter((k) => k in s).map((k) => `${k} ${String(s[k])}`);
  return `${e.message.replace(/^Expected/, 'expected')}${rules.length ? ` (${rules.join(', ')})` : ''}`;
}
