/**
 * The building blocks every protocol schema uses: the caps (LIMITS), bounded strings and numbers, documented
 * literal unions, and `doc`, which puts a declaration's meaning into its JSON Schema `description` (TypeBox
 * doc comments never reach the schema; docs/protocol.md and docs/protocol.schema.json read `description`).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_CHORDS } from './keys.js';

/** The caps every schema uses. */
export const LIMITS = {
  /** Native handles, window ids, short names (roles, app names in params). */
  id: 1024,
  /** Names, values and descriptions a driver reports (drivers cut long values and say so in valueLength). */
  text: 100_000,
  /** Text to type in one input.keys call. */
  keysText: 10_000,
  /** A value for set_value/type/select. */
  actValue: 10_000,
  /** Chords in one input.keys call. */
  chords: MAX_CHORDS,
  /** Children of one node, apps, windows, matches, OCR lines, marks. */
  items: 10_000,
  /** Nodes one snapshot may read. */
  nodes: 50_000,
  /** Any timeout or wait, in ms. */
  timeoutMs: 120_000,
  /** Screen pixels, either sign (multi-monitor layouts can be negative). */
  pixel: 1_000_000,
  /** A base64 PNG. */
  png: 64 * 1024 * 1024,
} as const;

/** The schema with its meaning attached as `description` (a copy: shared schemas stay undocumented). */
export function doc<T extends TSchema>(description: string, schema: T): T {
  return { ...schema, description };
}

/** An opaque handle or short name. */
export const Id = Type.String({ minLength: 1, maxLength: LIMITS.id });
/** A string of at most `maxLength` characters (UTF-16 code units). */
export const Str = (maxLength: number = LIMITS.text): ReturnType<typeof Type.String> => Type.String({ maxLength });
/** Screen pixels (see "Coordinates" in docs/protocol.md). */
export const Pixel = Type.Integer({ minimum: -LIMITS.pixel, maximum: LIMITS.pixel });
/** A count from 0 to `maximum`. */
export const Count = (maximum: number = Number.MAX_SAFE_INTEGER): ReturnType<typeof Type.Integer> =>
  Type.Integer({ minimum: 0, maximum });
/** A duration in ms (fractions allowed: callers pass what remains of a deadline). */
export const Ms = Type.Number({ minimum: 0, maximum: LIMITS.timeoutMs });
/** A process id. */
export const Pid = Type.Integer({ minimum: 0, maximum: 2 ** 31 });
/** Objects that refuse unknown fields (params: a typo or a hostile field is never silently ignored). */
export const Strict = { additionalProperties: false } as const;

/** A union of string literals typed as their union (TypeBox's own mapping would widen them to string). */
export const Literals = <T extends readonly string[]>(values: T, options: object = {}) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v)), options));

/** A union of string literals, each carrying its meaning (`anyOf` of `{const, description}`). */
export const DocumentedLiterals = <D extends Record<string, string>>(docs: D, options: object = {}) =>
  Type.Unsafe<Extract<keyof D, string>>(
    Type.Union(
      Object.entries(docs).map(([v, d]) => Type.Literal(v, { description: d })),
      options,
    ),
  );

/** A screen rectangle [x, y, width, height] in screen pixels. */
export const Rect = doc(
  'A screen rectangle [x, y, width, height] in screen pixels (see Coordinates).',
  Type.Tuple([Pixel, Pixel, Pixel, Pixel]),
);
/** A screen rectangle [x, y, width, height]. */
export type Rect = [number, number, number, number];
