/**
 * CoreFoundation values as JS values, with explicit ownership (the Create Rule: whatever a `Copy` or `Create`
 * call returns is owned and released once; whatever a `Get` returns is borrowed). A `CfScope` owns what one
 * piece of work created and releases it all at its end; references kept beyond it (the handle table's
 * elements) are retained explicitly. test/unit/macos-driver.test.ts proves the counts go back to zero.
 */
import { ComputerUseError, type ErrorCode } from '../../protocol/errors.js';
import type { CFRef, MacApi } from './ffi.js';

/** AXError values (AXError.h). */
export const AX_ERROR = {
  success: 0, failure: -25200, illegalArgument: -25201, invalidUIElement: -25202, invalidUIElementObserver: -25203,
  cannotComplete: -25204, attributeUnsupported: -25205, actionUnsupported: -25206, notificationUnsupported: -25207,
  notImplemented: -25208, notificationAlreadyRegistered: -25209, notificationNotRegistered: -25210, apiDisabled: -25211,
  noValue: -25212, parameterizedAttributeUnsupported: -25213, notEnoughPrecision: -25214,
} as const;

/** AXValueType (AXValue.h). */
const AX_VALUE = { point: 1, size: 2, rect: 3, range: 4, error: 5 } as const;
/** kCFNumberDoubleType. */
const CF_NUMBER_DOUBLE = 13;

/** A decoded AXValue. */
export type AxStruct =
  | { kind: 'point'; x: number; y: number }
  | { kind: 'size'; w: number; h: number }
  | { kind: 'rect'; x: number; y: number; w: number; h: number }
  | { kind: 'range'; location: number; length: number }
  | { kind: 'error'; code: number };

/** A CF value read into JS: arrays and elements stay borrowed references into their owner. */
export type CfValue =
  | string
  | number
  | boolean
  | AxStruct
  | { kind: 'element'; ref: CFRef }
  | { kind: 'array'; items: CFRef[] }
  | { kind: 'other' };

/** The CF type ids, read once per bound API. */
interface TypeIds { string: number; number: number; boolean: number; array: number; axValue: number; element: number }
const typeIds = new WeakMap<MacApi, TypeIds>();
function idsOf(api: MacApi): TypeIds {
  let ids = typeIds.get(api);
  if (!ids) {
    ids = {
      string: api.CFStringGetTypeID(), number: api.CFNumberGetTypeID(), boolean: api.CFBooleanGetTypeID(),
      array: api.CFArrayGetTypeID(), axValue: api.AXValueGetTypeID(), element: api.AXUIElementGetTypeID(),
    };
    typeIds.set(api, ids);
  }
  return ids;
}

/** Characters of a CFString, at most `max` (UTF-16 units), and its full length. */
export function readString(api: MacApi, ref: CFRef, max = 100_000): { text: string; length: number } {
  const length = api.CFStringGetLength(ref);
  const n = Math.min(length, max);
  if (n === 0) return { text: '', length };
  const buf = new Uint16Array(n);
  api.CFStringGetCharacters(ref, { location: 0, length: n }, buf);
  let text = '';
  for (let i = 0; i < n; i += 8192) text += String.fromCharCode(...buf.subarray(i, i + 8192));
  // A cut between the halves of a surrogate pair would leave half a character.
  if (n < length && /[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
  return { text, length };
}

function readAxValue(api: MacApi, ref: CFRef): AxStruct | undefined {
  const kind = api.AXValueGetType(ref);
  const buf = new Uint8Array(32);
  if (!api.AXValueGetValue(ref, kind, buf)) return undefined;
  const v = new DataView(buf.buffer);
  switch (kind) {
    case AX_VALUE.point: return { kind: 'point', x: v.getFloat64(0, true), y: v.getFloat64(8, true) };
    case AX_VALUE.size: return { kind: 'size', w: v.getFloat64(0, true), h: v.getFloat64(8, true) };
    case AX_VALUE.rect:
      return {
        kind: 'rect',
        x: v.getFloat64(0, true),
        y: v.getFloat64(8, true),
        w: v.getFloat64(16, true),
        h: v.getFloat64(24, true),
      };
    case AX_VALUE.range:
      return { kind: 'range', location: Number(v.getBigInt64(0, true)), length: Number(v.getBigInt64(8, true)) };
    case AX_VALUE.error: return { kind: 'error', code: v.getInt32(0, true) };
    default: return undefined;
  }
}

/** Reads a borrowed CF value; `undefined` for NULL, errors placeholders and types the driver does not read. */
export function readValue(api: MacApi, ref: CFRef, maxText?: number): CfValue | undefined {
  if (!ref) return undefined;
  const ids = idsOf(api);
  const type = api.CFGetTypeID(ref);
  if (type === ids.string) return readString(api, ref, maxText).text;
  if (type === ids.boolean) return api.CFBooleanGetValue(ref) !== 0;
  if (type === ids.number) {
    const out = new Float64Array(1);
    api.CFNumberGetValue(ref, CF_NUMBER_DOUBLE, out);
    return out[0] ?? 0;
  }
  if (type === ids.element) return { kind: 'element', ref };
  if (type === ids.array) return { kind: 'array', items: arrayItems(api, ref) };
  if (type === ids.axValue) { const s = readAxValue(api, ref); return s?.kind === 'error' ? undefined : s; }
  return { kind: 'other' };
}

/** The items of a CFArray, borrowed from it. */
export function arrayItems(api: MacApi, ref: CFRef): CFRef[] {
  const n = api.CFArrayGetCount(ref);
  const items: CFRef[] = [];
  for (let i = 0; i < n; i++) items.push(api.CFArrayGetValueAtIndex(ref, i));
  return items;
}

/** True when two references name the same element (CFEqual). */
export function sameRef(api: MacApi, a: CFRef, b: CFRef): boolean { return api.CFEqual(a, b) !== 0; }

/** Owns what one piece of work created or copied, and releases each reference once at its end. */
export class CfScope {
  private owned: CFRef[] = [];
  constructor(readonly api: MacApi) {}

  /** Takes ownership of a Copy/Create result (NULL is ignored). */
  own(ref: CFRef): CFRef { if (ref) this.owned.push(ref); return ref; }

  /** A CFString, owned by the scope. */
  string(s: string): CFRef {
    const units = new Uint16Array(s.length);
    for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
    return this.own(this.api.CFStringCreateWithCharacters(null, units, s.length));
  }

  /** A CFNumber (double), owned by the scope. */
  number(n: number): CFRef { return this.own(this.api.CFNumberCreate(null, CF_NUMBER_DOUBLE, new Float64Array([n]))); }

  /** kCFBooleanTrue / kCFBooleanFalse (constants: never released). */
  boolean(b: boolean): CFRef { return b ? this.api.kCFBooleanTrue : this.api.kCFBooleanFalse; }

  /** A CFArray of CF values (CFType callbacks: the array retains its items), owned by the scope. */
  array(items: CFRef[]): CFRef {
    return this.own(this.api.CFArrayCreate(null, items, items.length, this.api.kCFTypeArrayCallBacks));
  }

  /** A CFDictionary from string keys, owned by the scope. */
  dictionary(entries: [string, CFRef][]): CFRef {
    const keys = entries.map(([k]) => this.string(k));
    return this.own(
      this.api.CFDictionaryCreate(
        null,
        keys,
        entries.map(([, v]) => v),
        entries.length,
        this.api.kCFTypeDictionaryKeyCallBacks,
        this.api.kCFTypeDictionaryValueCallBacks,
      ),
    );
  }

  /** Releases everything owned, newest first. */
  release(): void {
    const owned = this.owned;
    this.owned = [];
    for (let i = owned.length - 1; i >= 0; i--) this.api.CFRelease(owned[i]);
  }
}

/** Runs `fn` with a scope released afterwards, also when it throws. */
export function withScope<T>(api: MacApi, fn: (s: CfScope) => T): T {
  const scope = new CfScope(api);
  try { return fn(scope); } finally { scope.release(); }
}

/** What the user must grant, named in every permission_denied (docs/platforms.md, "macOS"). */
export const ACCESSIBILITY_FIX = 'System Settings › Privacy & Security › Accessibility';

/** The app macOS asks the user to trust: the responsible process (the terminal or the agent host). */
export function responsibleApp(env: NodeJS.ProcessEnv = process.env): string {
  const bundle = env['__CFBundleIdentifier'];
  if (bundle) return bundle;
  const term = env['TERM_PROGRAM'];
  return term ? term : 'the app that started computer-use (your terminal or agent host)';
}

/** An AXError as the protocol's error, saying what to do next. */
export function axError(code: number, what: string): ComputerUseError {
  const map: Record<number, [ErrorCode, string]> = {
    [AX_ERROR.invalidUIElement]: ['stale_ref', `${what}: the element is gone; observe again. Nothing was sent.`],
    [AX_ERROR.cannotComplete]: [
      'timeout',
      `${what}: the app did not answer within the messaging timeout (it may be hung or busy); try again later`,
    ],
    [AX_ERROR.apiDisabled]: [
      'permission_denied',
      `${what}: macOS does not trust ${responsibleApp()} for accessibility. ` +
        `Grant it in ${ACCESSIBILITY_FIX}, then restart it.`,
    ],
    [AX_ERROR.actionUnsupported]: ['unsupported', `${what}: the element does not take that action`],
    [AX_ERROR.attributeUnsupported]: ['unsupported', `${what}: the element does not have that attribute`],
    [AX_ERROR.illegalArgument]: ['invalid_params', `${what}: the app refused the value`],
  };
  const [code2, message] = map[code] ?? ['action_failed', `${what}: AXError ${code}`];
  return new ComputerUseError(code2, message, { axError: code });
}
