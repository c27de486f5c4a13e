/**
 * Name cleaning every driver applies to the names it reports, and to the names it checks an act's `expect`
 * against (so a cleaned name still proves the element). What the trial's apps printed as names, and is not:
 * - Qt rich text (`x<sup>2</sup>`, `<i>Rich Text</i>` in a combo): the text without its tags, `x²`;
 * - a toolkit's own class names reported for a nameless widget (the driver passes its toolkit's pattern as
 *   `classNames`): no name at all; an app's own widget types (`EditorPage`, `EditorSourceView`) too, where the
 *   driver knows the name can only be a type name (`typeNames`);
 * - a label doubled by the toolkit (`Save Save`, `_Retry Retry`, Thunar's `Places Places`): said once;
 * - a mnemonic underscore GTK 4 leaves in a control's name (gtk4-widget-factory's tabs `Page _1`): dropped, where
 *   the driver knows the name is a control's label (`mnemonics`);
 * - a menu item padded with blanks up to its accelerator column (mousepad's `"Preferences...      "`): trimmed.
 */

/** A type name of an app's own widget class, as GTK 4 reports it for a nameless one: CamelCase, two words or more. */
const TYPE_NAME = /^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/;

/** What the driver knows of where a name comes from. */
export interface NameContext {
  /** The class names the platform's toolkits report for a widget that has no accessible name: never a name. */
  classNames?: RegExp;
  /** The toolkit names this element after its widget type when it has no name (GTK 4 containers and text views). */
  typeNames?: boolean;
  /** The name is a control's label that may carry one mnemonic underscore (`Page _1`, `_Open`). */
  mnemonics?: boolean;
}

/** One mnemonic underscore at the start of a word (`_Open`, `Page _1`); a name with more underscores is left whole (`my_file_name`). */
const MNEMONIC = /^([^_]*(?:^|\s))_([\p{L}\p{N}][^_]*)$/u;

/** The tags of Qt's rich text subset that a name may carry. */
const RICH_TAG =
  /<\/?(?:b|i|u|s|em|strong|sup|sub|span|font|br|p|qt|html|body|head|small|big|tt|code|a|nobr|center|div)\b[^<>]*>/gi;

/** One rich text tag (no `g` flag: a test that keeps no position). */
const RICH_TAG_ONE = new RegExp(RICH_TAG.source, 'i');

const SUPER: Readonly<Record<string, string>> = {
  0: '⁰',
  1: '¹',
  2: '²',
  3: '³',
  4: '⁴',
  5: '⁵',
  6: '⁶',
  7: '⁷',
  8: '⁸',
  9: '⁹',
  '+': '⁺',
  '-': '⁻',
  n: 'ⁿ',
};
const SUB: Readonly<Record<string, string>> = {
  0: '₀',
  1: '₁',
  2: '₂',
  3: '₃',
  4: '₄',
  5: '₅',
  6: '₆',
  7: '₇',
  8: '₈',
  9: '₉',
  '+': '₊',
  '-': '₋',
};
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Rich text as plain text: superscript and subscript digits as their characters (else `^x`, `_x`), other tags dropped. */
function plainOfRich(s: string): string {
  const script = (map: Readonly<Record<string, string>>, mark: string) => (_: string, inner: string): string =>
    ([...inner].every((c) => map[c] !== undefined) ? [...inner].map((c) => map[c]).join('') : `${mark}${inner}`);
  return s
    .replace(/<sup>([^<]*)<\/sup>/gi, script(SUPER, '^'))
    .replace(/<sub>([^<]*)<\/sub>/gi, script(SUB, '_'))
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(RICH_TAG, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '')
    .replace(/&#(\d{1,6});/g, (_, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)));
}

/** A name said twice, the first time maybe with its mnemonic underscore (`_Retry Retry`): said once, else undefined. */
function undoubled(s: string): string | undefined {
  for (let i = s.indexOf(' '); i > 0; i = s.indexOf(' ', i + 1)) {
    const left = s.slice(0, i).replace(/_/g, '');
    const right = s.slice(i + 1);
    if (right && left === right.replace(/_/g, '')) return right;
  }
  return undefined;
}

/** The name a driver reports for `raw`, or undefined when it is no name (empty, a class name). */
export function cleanName(raw: string | undefined, ctx: NameContext = {}): string | undefined {
  if (!raw) return undefined;
  if (ctx.classNames?.test(raw) || (ctx.typeNames && TYPE_NAME.test(raw))) return undefined;
  let s = raw.trim();
  if (RICH_TAG_ONE.test(s)) s = plainOfRich(s).trim();
  s = undoubled(s) ?? s;
  if (ctx.mnemonics) s = s.replace(MNEMONIC, '$1$2');
  return s === '' ? undefined : s;
}

/**
 * The access key a label marks with `_X` (GTK) or `&X` (Qt, Win32), and the label without the marker; `&&` and
 * `__` are the characters themselves. Undefined when the label marks no key.
 */
export function markedAccessKey(label: string): { key: string; label: string } | undefined {
  const t = label.replace(/&&/g, '\u0000').replace(/__/g, '\u0001');
  const m = /[_&]([^\s_&\u0000\u0001])/u.exec(t);
  if (!m?.[1]) return undefined;
  const bare = t.replace(/[_&](?=[^\s_&\u0000\u0001])/u, '').replace(/\u0000/g, '&').replace(/\u0001/g, '_');
  return { key: m[1].toLowerCase(), label: bare };
}
