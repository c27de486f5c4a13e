/**
 * Rich text in names and descriptions: Qt's tool tips and labels are HTML (`<p style='white-space:pre'>Calculate
 * number of words\n(For huge texts, …)</p>`), and a print repeated the tags on every such button. Pure.
 */

/** Tags Qt's rich text opens with; a string is markup only when it opens with one and closes it. */
const RICH_TAGS = 'html|qt|body|p|div|span|b|i|u|em|strong|nobr|center|font|h[1-6]|ul|ol|table|tt|pre|a';
const OPENS = new RegExp(`^<(${RICH_TAGS})(?:\\s[^<>]*)?>`, 'iu');

/** Named entities rich text writes; numeric ones are read by number. */
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** True when `s` is plainly markup: it opens with a rich-text tag and ends by closing that tag. */
export function isMarkup(s: string): boolean {
  const t = s.trim();
  const tag = OPENS.exec(t)?.[1]?.toLowerCase();
  return tag !== undefined && new RegExp(`</${tag}\\s*>$`, 'iu').test(t);
}

/**
 * The words of a string that is plainly rich-text markup, without its tags: line breaks (`<br>`, a paragraph's or
 * a block's end) as `\n`, entities decoded, a head or a style sheet left out. Any other string as it is: app text
 * is data, and `a < b` or `<none>` are words. The result is escaped where it prints, like any name.
 */
export function plainMarkup(s: string): string {
  if (!isMarkup(s)) return s;
  const text = s
    .trim()
    .replace(/<(head|style|script)\b[^>]*>[\s\S]*?<\/\1\s*>/giu, '')
    .replace(/<br\s*\/?>/giu, '\n')
    .replace(/<\/(?:p|div|li|tr|h[1-6]|table|ul|ol|pre)\s*>/giu, '\n')
    .replace(/<[^<>]*>/gu, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (m, e: string) => {
      if (e.startsWith('#')) {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    });
  return text.replace(/[ \t]*\n[ \t\n]*\n/gu, '\n').trim();
}
