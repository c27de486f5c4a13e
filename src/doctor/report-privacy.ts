/**
 * What keeps a shareable report free of private text: every string in it passes `scrubReport`, which puts `~`
 * for the home folder, `<user>` for the user name, `<host>` for the machine's name, `<private>` for strings the
 * report's author marked (other apps' window titles, serials) and `<secret>` for what looks like a key or token.
 * A driver's facts reach the report only through an allow-list of fields.
 */
import { createHash } from 'node:crypto';

/** The private strings of this machine and run. */
export interface PrivateFacts {
  /** The home folder (shown as `~`). */
  home: string;
  /** The login name (shown as `<user>`). */
  username: string;
  /** The machine's name (shown as `<host>`). */
  hostname: string;
  /** Other strings never to show: window titles of apps the report did not open, device serials. */
  strings: readonly string[];
  /** Device serials: shown as their hash. */
  serials?: readonly string[];
}

/** Driver facts a report may show; every other field is dropped (a device's name or an endpoint could be private). */
export const ALLOWED_FACTS: readonly string[] = [
  'os', 'os_version', 'android', 'api_level', 'sdk', 'manufacturer', 'model', 'backend', 'session', 'toolkit',
  'a11y_is_enabled', 'helper', 'macos', 'windows', 'build', 'arch',
];

/** Accounts that name no one: the superuser, CI runners' and images' default users. */
const GENERIC_ACCOUNTS: readonly string[] = [
  'root', 'runner', 'admin', 'administrator', 'user', 'vagrant', 'ubuntu', 'debian', 'pi',
];

/** Tokens that look like secrets: vendor key prefixes, JWTs, and long runs of letters and digits mixed. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|pk|rk|ghp|gho|ghs|github_pat|xox[abprs]|AKIA|AIza|glpat)[-_A-Za-z0-9]{8,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  /\b(?=[A-Za-z0-9+_-]*\d)(?=[A-Za-z0-9+_-]*[A-Za-z])[A-Za-z0-9+_-]{32,}={0,2}/g,
  /\b(password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S+/gi,
];

/** A short, stable stand-in for a serial or an id: the first 12 hex digits of its SHA-256. */
export function hashed(value: string): string {
  return `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 12)}`;
}

function escapeRegExp(s: string): string { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/** The forms a path takes in text: as given, with the other slash, and percent-encoded in a URL. */
function pathForms(path: string): string[] {
  const slashed = path.replace(/\\/g, '/');
  const forms = new Set([path, slashed, path.replace(/\//g, '\\'), encodeURI(slashed)]);
  return [...forms].filter((f) => f.length > 1);
}

/** Builds the function that scrubs one string. */
export function scrubber(facts: PrivateFacts): (text: string) => string {
  // Longest first, so a title that contains the user name is removed whole. Names are whole words only
  // ("VM" as a host name leaves "JVMs" alone); an account every machine of a kind has names nobody.
  const word = (s: string): string => `(?<![\\p{L}\\p{N}])${escapeRegExp(s)}(?![\\p{L}\\p{N}])`;
  /** [the text, its pattern, what replaces it] */
  const rows: [string, string, string][] = [
    ...pathForms(facts.home).map((f): [string, string, string] => [f, escapeRegExp(f), '~']),
    ...facts.strings.filter((s) => s.trim().length >= 3)
      .map((s): [string, string, string] => [s, escapeRegExp(s), '<private>']),
    ...(facts.serials ?? []).filter((s) => s.length >= 3).map((s): [string, string, string] => [s, word(s), hashed(s)]),
    ...(facts.hostname.length >= 2
      ? [[facts.hostname, word(facts.hostname), '<host>'] as [string, string, string]] : []),
    ...(facts.username.length >= 2 && !GENERIC_ACCOUNTS.includes(facts.username.toLowerCase())
      ? [[facts.username, word(facts.username), '<user>'] as [string, string, string]] : []),
  ];
  rows.sort((a, b) => b[0].length - a[0].length);
  const literal = rows.map(([, from, to]) => [new RegExp(from, 'giu'), to.replace(/\$/g, '$$$$')] as const);
  return (text) => {
    let out = text;
    for (const [re, to] of literal) out = out.replace(re, to);
    // The pattern with a key name keeps the name (`token=<secret>`); the others replace the whole match.
    for (const re of SECRET_PATTERNS) {
      out = out.replace(re, (_m, key?: unknown) =>
        typeof key === 'string' && /^[a-z_-]+$/i.test(key) ? `${key}=<secret>` : '<secret>');
    }
    return out;
  };
}

/** Every string of a JSON value scrubbed (keys included). */
export function scrubReport<T>(value: T, facts: PrivateFacts): T {
  const scrub = scrubber(facts);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrub(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrub(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** A driver's facts through the allow-list, a serial as its hash. */
export function allowedFacts(facts: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(facts ?? {})) {
    const plain = typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
    if (ALLOWED_FACTS.includes(k) && plain) out[k] = String(v).slice(0, 200);
    else if (k === 'serial' && typeof v === 'string') out['serial_hash'] = hashed(v);
  }
  return out;
}
