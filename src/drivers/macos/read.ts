/**
 * Reading AX elements: one AXUIElementCopyMultipleAttributeValues per element for every attribute the driver
 * needs (batched reads), its action names, and whether the attributes it may act on are settable.
 * Every Copy result is owned by the caller's scope; children come back borrowed from the batch's array.
 */
import { AX_ERROR, axError, readValue, type CfScope, type CfValue } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';
import { settableAttributesToRead, type AxFacts } from './roles.js';

/** The attributes of the batch read, in order. */
export const BATCH_ATTRIBUTES = [
  'AXRole', 'AXSubrole', 'AXTitle', 'AXDescription', 'AXHelp', 'AXPlaceholderValue', 'AXIdentifier', 'AXValue',
  'AXEnabled', 'AXFocused', 'AXSelected', 'AXExpanded', 'AXDisclosing', 'AXModal', 'AXRequired', 'AXHidden',
  'AXMinValue', 'AXMaxValue', 'AXMenuItemMarkChar', 'AXSelectedTextRange', 'AXPosition', 'AXSize', 'AXChildren',
] as const;

/** Text facts and the attribute each is read from. */
const STRING_FACTS = [
  ['subrole', 'AXSubrole'], ['title', 'AXTitle'], ['description', 'AXDescription'], ['help', 'AXHelp'],
  ['placeholder', 'AXPlaceholderValue'], ['identifier', 'AXIdentifier'], ['menuMark', 'AXMenuItemMarkChar'],
] as const satisfies readonly (readonly [keyof AxFacts, string])[];
/** Boolean facts and the attribute each is read from. */
const BOOLEAN_FACTS = [
  ['enabled', 'AXEnabled'], ['focused', 'AXFocused'], ['selected', 'AXSelected'], ['expanded', 'AXExpanded'],
  ['disclosing', 'AXDisclosing'], ['modal', 'AXModal'], ['required', 'AXRequired'], ['hidden', 'AXHidden'],
] as const satisfies readonly (readonly [keyof AxFacts, string])[];

/** What one read of an element gives: its facts and its children (borrowed from the scope's batch array). */
export interface ElementRead { facts: AxFacts; children: CFRef[] }

/** Options of a read. */
export interface ReadOptions {
  /** Longest text read from one attribute (UTF-16 units); longer values are cut and say their length. */
  maxText?: number;
  /** Also ask for the action names and settable attributes (skipped for pure structure reads). */
  ops?: boolean;
}

const asString = (v: CfValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const asBool = (v: CfValue | undefined): boolean | undefined =>
  typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : undefined;
const asNumber = (v: CfValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

/** The names array of the batch read, created once per scope owner and reused. */
export function batchNames(scope: CfScope): CFRef {
  return scope.array(BATCH_ATTRIBUTES.map((a) => scope.string(a)));
}

/** Reads one element in one batch (+ its actions and settable attributes when `ops`). */
export function readElement(api: MacApi, scope: CfScope, names: CFRef, el: CFRef, opts: ReadOptions = {}): ElementRead {
  const out: [CFRef] = [null];
  const err = api.AXUIElementCopyMultipleAttributeValues(el, names, 0, out);
  if (err !== AX_ERROR.success) throw axError(err, 'reading the element');
  const arr = scope.own(out[0]);
  const values = new Map<string, CfValue | undefined>();
  const n = api.CFArrayGetCount(arr);
  for (let i = 0; i < n && i < BATCH_ATTRIBUTES.length; i++)
    values.set(BATCH_ATTRIBUTES[i]!, readValue(api, api.CFArrayGetValueAtIndex(arr, i), opts.maxText));
  const raw = values.get('AXValue');
  const pos = values.get('AXPosition');
  const size = values.get('AXSize');
  const range = values.get('AXSelectedTextRange');
  const kids = values.get('AXChildren');
  const facts: AxFacts = { role: asString(values.get('AXRole')) ?? 'AXUnknown', actions: [], settable: new Set() };
  const put = <K extends keyof AxFacts>(k: K, v: AxFacts[K] | undefined): void => {
    if (v !== undefined) facts[k] = v;
  };
  for (const [k, attr] of STRING_FACTS) put(k, asString(values.get(attr)));
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') facts.value = raw;
  if (typeof raw === 'string' && opts.maxText !== undefined && raw.length >= opts.maxText)
    facts.valueLength = valueLength(api, scope, el) ?? raw.length;
  for (const [k, attr] of BOOLEAN_FACTS) put(k, asBool(values.get(attr)));
  put('min', asNumber(values.get('AXMinValue')));
  put('max', asNumber(values.get('AXMaxValue')));
  if (range && typeof range === 'object' && 'kind' in range && range.kind === 'range')
    facts.selection = { location: range.location, length: range.length };
  if (
    pos &&
    typeof pos === 'object' &&
    'kind' in pos &&
    pos.kind === 'point' &&
    size &&
    typeof size === 'object' &&
    'kind' in size &&
    size.kind === 'size'
  ) {
    facts.bounds = [Math.round(pos.x), Math.round(pos.y), Math.round(size.w), Math.round(size.h)];
  }
  if (opts.ops !== false) {
    facts.actions = actionNames(api, scope, el);
    facts.settable = settableOf(api, scope, el, settableAttributesToRead(facts.role));
  }
  const children = kids && typeof kids === 'object' && 'kind' in kids && kids.kind === 'array' ? kids.items : [];
  return { facts, children };
}

/** AXNumberOfCharacters, for a value the read cut. */
function valueLength(api: MacApi, scope: CfScope, el: CFRef): number | undefined {
  const v = copyAttribute(api, scope, el, 'AXNumberOfCharacters');
  return typeof v === 'number' ? v : undefined;
}

/** One attribute (Copy, owned by the scope); `undefined` when it has no value. */
export function copyAttribute(api: MacApi, scope: CfScope, el: CFRef, name: string): CfValue | undefined {
  const out: [CFRef] = [null];
  const err = api.AXUIElementCopyAttributeValue(el, scope.string(name), out);
  if (err === AX_ERROR.noValue || err === AX_ERROR.attributeUnsupported) return undefined;
  if (err !== AX_ERROR.success) throw axError(err, `reading ${name}`);
  return readValue(api, scope.own(out[0]));
}

function actionNames(api: MacApi, scope: CfScope, el: CFRef): string[] {
  const out: [CFRef] = [null];
  const err = api.AXUIElementCopyActionNames(el, out);
  if (err !== AX_ERROR.success) return [];
  const arr = scope.own(out[0]);
  const names: string[] = [];
  const n = api.CFArrayGetCount(arr);
  for (let i = 0; i < n; i++) {
    const v = readValue(api, api.CFArrayGetValueAtIndex(arr, i));
    if (typeof v === 'string') names.push(v);
  }
  return names;
}

function settableOf(api: MacApi, scope: CfScope, el: CFRef, attrs: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const a of attrs) {
    const flag = new Uint8Array(1);
    if (api.AXUIElementIsAttributeSettable(el, scope.string(a), flag) === AX_ERROR.success && flag[0]) out.add(a);
  }
  return out;
}
