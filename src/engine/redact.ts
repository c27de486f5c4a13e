import type { RawNode } from './node.js';

/** What a password field's value reads as, whatever the driver sent. */
export const PASSWORD_MASK = '••••';
/** What a secret-looking value (or the secret part of it) is replaced with. */
export const SECRET_MASK = '••••(secret)';

/**
 * Secret shapes, each matched anywhere in a string. Order matters only for overlap: the specific token
 * formats come before the generic long hex / base64 runs.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  // PEM private keys, up to the END line or the end of the text when it was cut.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // OpenAI / Anthropic style keys: sk-…, sk-proj-…, sk-ant-…
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  // GitHub tokens.
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // Slack tokens.
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  // JSON Web Tokens.
  /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+/g,
];

/**
 * Long hex runs (hex keys, hashes used as secrets). A run of a digest's length said to be a digest (a label or name
 * naming its algorithm, a checksum, a commit) is a file's checksum or a commit id, which the user asks to read:
 * GtkHash's SHA-256 field printed as a secret and the task could not be done without a person.
 */
const HEX_RUN = /\b[0-9a-fA-F]{32,}\b/g;

/** Hex lengths of MD5, SHA-1, SHA-224, SHA-256, SHA-384 and SHA-512 (and BLAKE2 and SHA-3 of those sizes). */
const DIGEST_LENGTHS: ReadonlySet<number> = new Set([32, 40, 56, 64, 96, 128]);

/** A word that says a hex run is a digest: an algorithm's name (`sha256sum` too), a checksum, a hash, a commit. */
const DIGEST_WORD =
  /(?:\b|_)(?:md5|sha-?(?:1|224|256|384|512)|sha3(?:-\d+)?|blake2[bs]?|b2)(?:sum)?\b|\b(?:checksums?|digests?|hash(?:es)?|commit)\b/i;

/** How many names around a field are read for one that says it holds a digest. */
const NEAR_NAMES_READ = 60;

/** A field's own words (name, description, label beside it), else its parent's name, else the nearest ring's names. */
function nearestWords(
  n: RawNode,
  parentName: string | undefined,
  rings: Rings,
): readonly string[] {
  const own = [n.name, n.description, n.beside].filter((w): w is string => w !== undefined && w !== '');
  if (own.length) return own;
  if (parentName) return [parentName];
  return rings().find((r) => r.length > 0) ?? [];
}

/** The names around a node, ring by ring, made only when a value asks for them (most nodes have none). */
type Rings = () => readonly (readonly string[])[];
const NO_RINGS: Rings = () => [];

/**
 * The short names within two levels under `n` (its children and theirs), at most NEAR_NAMES_READ: a form's labels
 * and its fields are often cousins (GtkHash: the algorithms' buttons in one box, their fields in the next).
 */
function namesWithin(n: RawNode): string[] {
  const out: string[] = [];
  for (const c of n.children ?? []) {
    for (const m of [c, ...(c.children ?? [])]) {
      if (out.length >= NEAR_NAMES_READ) return out;
      if (m.name !== undefined && m.name !== '' && m.name.length <= 40) out.push(m.name);
    }
  }
  return out;
}

/** How far before a hex run, in the same text, a digest word still speaks of it. */
const DIGEST_WORD_REACH = 80;

/**
 * Long base64/base64url runs; only masked when they mix upper case, lower case and digits and look random
 * (see `looksRandom`), so file paths and CamelCase identifiers stay readable.
 */
const BASE64_RUN = /[A-Za-z0-9+/_-]{32,}={0,2}/g;

function charClass(c: string): number {
  if (c >= 'a' && c <= 'z') return 0;
  if (c >= 'A' && c <= 'Z') return 1;
  if (c >= '0' && c <= '9') return 2;
  return 3;
}

/**
 * Random strings switch between lower/upper/digit/symbol on about 2 of 3 characters; words, identifiers and
 * paths rarely do. A run with `/` is judged by its longest segment, so file paths stay readable.
 */
function looksRandom(run: string): boolean {
  const seg = run.includes('/') ? run.split('/').reduce((a, b) => (b.length > a.length ? b : a), '') : run;
  if (seg.length < 20 || !/[A-Z]/.test(seg) || !/[a-z]/.test(seg) || !/[0-9]/.test(seg)) return false;
  // Letters and digits only: dashes between words ("cu-eval-thunar-delete-far-cAm2nI", a temp folder) are no
  // randomness, and counted as switches they made a word list with a short random tail read as a secret.
  const chars = [...seg].filter((c) => charClass(c) !== 3);
  let switches = 0;
  for (let i = 1; i < chars.length; i++) if (charClass(chars[i - 1] ?? '') !== charClass(chars[i] ?? '')) switches++;
  return chars.length >= 20 && switches / chars.length >= 0.4;
}

/** Candidate card numbers: 13–19 digits, optionally grouped by spaces or dashes. */
const CARD_RUN = /\b\d(?:[ -]?\d){12,18}\b/g;

/** Names that say a field holds a one-time code. */
const OTP_NAME = /code|otp|one[- ]?time|verif|2fa|mfa|passcode|\bpin\b|验证码|校验码|动态码|确认码/i;
const OTP_VALUE = /^\s*\d{4,8}\s*$/;

/** Luhn checksum over a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * Masks every secret-looking part of a string (API keys and tokens, JWTs, private keys, long hex or mixed
 * base64 runs, Luhn-valid card numbers) with `••••(secret)`. Use it on anything read from an app before it
 * goes into a snapshot, an error message or a log line. `context`: names around the text (its field's label,
 * its group's); a hex run of a digest's length is kept when they, or the words just before it, say it is one.
 */
export function redactText(s: string, context: readonly (string | undefined)[] = []): string {
  if (s.length < 13) return s;
  let out = s;
  for (const re of SECRET_PATTERNS) out = out.replace(re, SECRET_MASK);
  const saidDigest = context.some((c) => c !== undefined && DIGEST_WORD.test(c));
  out = out.replace(HEX_RUN, (m, at: number, whole: string) =>
    DIGEST_LENGTHS.has(m.length) &&
    (saidDigest || DIGEST_WORD.test(whole.slice(Math.max(0, at - DIGEST_WORD_REACH), at)))
      ? m
      : SECRET_MASK,
  );
  out = out.replace(BASE64_RUN, (m) => (looksRandom(m) ? SECRET_MASK : m));
  out = out.replace(CARD_RUN, (m) => {
    const digits = m.replace(/[ -]/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? SECRET_MASK : m;
  });
  return out;
}

/** True when a value looks like a one-time code for a node named `names` (its own or its parent's name). */
export function isOneTimeCode(value: string, names: readonly (string | undefined)[]): boolean {
  return OTP_VALUE.test(value) && names.some((n) => n !== undefined && OTP_NAME.test(n));
}

/**
 * `redactText` of a name (no context), kept by text: a window read again after an act holds mostly the names it held
 * before, and each pattern pass over them cost ~1 ms a read.
 */
function redactName(s: string): string {
  if (s.length < 13) return s;
  const hit = redactedNames.get(s);
  if (hit !== undefined) return hit;
  const out = redactText(s);
  if (redactedNames.size >= MAX_REDACTED_NAMES) redactedNames.clear();
  redactedNames.set(s, out);
  return out;
}
const redactedNames = new Map<string, string>();
const MAX_REDACTED_NAMES = 20_000;

function redactNode(n: RawNode, parentName: string | undefined, rings: Rings = NO_RINGS): RawNode {
  const out: RawNode = { ...n, states: [...n.states], actions: [...n.actions] };
  if (n.name !== undefined) out.name = redactName(n.name);
  if (n.description !== undefined) out.description = redactName(n.description);
  if (n.beside !== undefined) out.beside = redactName(n.beside);
  if (n.states.includes('password')) {
    // Never trust the driver alone: a password field only ever says whether it holds something.
    delete out.valueLength;
    // Caret, selection and range offsets would tell the secret's length.
    delete out.caret;
    delete out.selection;
    delete out.valueStart;
    if ((n.value !== undefined && n.value !== '') || (n.valueLength ?? 0) > 0) out.value = PASSWORD_MASK;
    else if (n.value !== undefined) out.value = '';
  } else if (n.value !== undefined) {
    if (isOneTimeCode(n.value, [n.name, n.description, parentName])) {
      out.value = SECRET_MASK;
      delete out.valueLength;
      delete out.caret;
      delete out.selection;
      delete out.valueStart;
    } else {
      // What names the field may say its value is a digest: its own words, else the nearest names around it
      // (its parent, then its group's, then its group's group's: GtkHash's "SHA256:" is a button in the box
      // beside the fields' box). Only the nearest that has any: a key field beside "Key" is not read as a digest
      // because a hash form sits further out in the same window.
      out.value = redactText(n.value, nearestWords(n, parentName, rings));
      if (out.value !== n.value) delete out.valueLength;
    }
  }
  if (n.children) {
    // A child's rings of names: within two levels of its parent (siblings, nieces), then of its grandparent.
    let near: readonly (readonly string[])[] | undefined;
    const childRings: Rings = () => (near ??= [namesWithin(n), ...rings()].slice(0, 2));
    out.children = n.children.map((c) => redactNode(c, n.name, childRings));
  }
  return out;
}

/**
 * Returns a copy of the tree with password values replaced by `••••` and secret-looking names, values and
 * descriptions masked (see `redactText`); a 4–8 digit value is masked when the node or its parent is named
 * like a one-time code field ("Verification code", "OTP", "验证码"). The input is not modified.
 */
export function redactTree(root: RawNode): RawNode {
  return redactNode(root, undefined);
}
