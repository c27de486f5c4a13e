/** JSON Schema dialect conversion, a leaf module: the schema writer and the spec writer both use it. */

/**
 * A schema in draft 2020-12's own words: TypeBox writes a tuple the draft-07 way (`items: [...]` with
 * `additionalItems: false`), which 2020-12 reads as something else; there a tuple is `prefixItems` and `items: false`.
 */
export function dialect2020(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(dialect2020);
  if (typeof s !== 'object' || s === null) return s;
  const out: Record<string, unknown> = {};
  const o = s as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'items' && Array.isArray(v)) { out['prefixItems'] = v.map(dialect2020); out['items'] = false; continue; }
    if (k === 'additionalItems' && Array.isArray(o['items'])) continue;
    out[k] = dialect2020(v);
  }
  return out;
}
