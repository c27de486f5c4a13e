/**
 * Look-alike text, normalised before any rule reads it: a label "Dеlete" with a Cyrillic е,
 * "De\u200Blete" with a zero-width space, "刪除" in Traditional Chinese or "删 除" with a space must meet the
 * same irreversible rules as "Delete" and "删除"; an app calling itself "kееpassxc" the same deny rules.
 *
 * The steps: invisible characters out (default-ignorable code points and format characters: zero-width
 * spaces and joiners, soft hyphen, bidi marks, variation selectors), NFKC (full width, ligatures, styled
 * letters), the UTS #39 confusable skeleton (Unicode's confusables.txt through the `unhomoglyph` package,
 * which ships that table as data and is regenerated from unicode.org), Traditional → Simplified for the
 * characters of the rule words, and no spacing or punctuation inside a run of Han characters.
 */
import unhomoglyph from 'unhomoglyph';

/** Default-ignorable code points and format characters: invisible, so a label may hide them anywhere. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * Traditional (and variant) forms of every character of the Chinese rule words in irreversible.ts → the
 * Simplified form those rules are written in. Kept to the rule words' characters: a whole-language converter
 * (opencc-js) ships megabytes of dictionaries to change nothing the rules read. A character missing here
 * can only miss a question the Simplified label would get; add it next to the rule word that needs it.
 */
const TRADITIONAL: Readonly<Record<string, string>> = {
  發: '发', 髮: '发', 確: '确', 認: '认', 購: '购', 買: '买', 單: '单', 刪: '删', 佈: '布', 轉: '转', 賬: '账', 帳: '账',
  結: '结', 匯: '汇', 載: '载', 徹: '彻', 註: '注', 銷: '销', 蓋: '盖', 換: '换', 現: '现', 贈: '赠', 簽: '签', 權: '权',
  錄: '录', 關: '关', 機: '机', 啟: '启', 啓: '启', 値: '值', 淸: '清', 訂: '订', 傳: '传', 遞: '递', 儲: '储', 復: '复',
  撥: '拨', 級: '级', 離: '离', 開: '开', 閉: '闭', 毀: '毁', 剷: '铲',
};
const TRADITIONAL_RE = new RegExp(Object.keys(TRADITIONAL).sort((a, b) => b.length - a.length).join('|'), 'gu');

/** Spacing or punctuation between two Han characters ("删 除", "删-除", "删·除"). */
const INSIDE_HAN = /(?<=\p{Script=Han})[\s\p{P}\p{S}\p{Z}]+(?=\p{Script=Han})/gu;

/** Removes invisible characters and applies NFKC (NFKC can create none of them, but may expose some). */
export function stripInvisible(s: string): string {
  return s.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
}

/** Traditional → Simplified for the characters the Chinese rules use. */
export function simplifyChinese(s: string): string {
  return s.replace(TRADITIONAL_RE, (c) => TRADITIONAL[c] ?? c);
}

/** The UTS #39 skeleton of a string: NFD, each character mapped to its confusable prototype, NFD again. */
export function skeleton(s: string): string {
  return unhomoglyph(s.normalize('NFD')).normalize('NFD');
}

/**
 * The common normalisation of labels and names: invisible characters out, NFKC, Traditional → Simplified,
 * no spacing or punctuation inside Han words, white space collapsed. Case and letters are kept (see `foldings`).
 */
export function normalizeText(s: string): string {
  return simplifyChinese(stripInvisible(s)).replace(INSIDE_HAN, '').replace(/\s+/g, ' ').trim();
}

/** ASCII confusions the skeleton maps but lower-case ASCII rule words are written without ("De1ete", "Subrnit"). */
const ASCII_LOOKALIKE: readonly [RegExp, string][] = [[/rn/g, 'm'], [/[1|]/g, 'l'], [/0/g, 'o'], [/vv/g, 'w']];

/**
 * The lower-case forms of an already normalised text that rules written in lower-case letters must be tried
 * on: as is; with every non-ASCII character replaced by its confusable prototype (before and after lower-casing,
 * since Cyrillic "І" and "і" have different prototypes); and with ASCII look-alikes mapped back ("1" → "l").
 * A rule that matches any form matches: look-alikes can only add a question, never remove one.
 */
export function foldings(normalized: string): string[] {
  const proto = (t: string): string =>
    [...t]
      .map((c) => (c.charCodeAt(0) < 0x80 ? c : skeletonChar(c)))
      .join('')
      .normalize('NFC');
  // Upper-case I looks like l: "DELETE" written "DEIETE".
  const forms = new Set<string>([normalized.toLowerCase(), normalized.replace(/I/g, 'l').toLowerCase()]);
  forms.add(proto(normalized).toLowerCase());
  forms.add(proto(normalized.toLowerCase()).toLowerCase());
  for (const f of [...forms]) {
    let a = f;
    for (const [re, to] of ASCII_LOOKALIKE) a = a.replace(re, to);
    forms.add(a);
  }
  for (const f of [...forms]) forms.add(f.replace(/\p{M}/gu, ''));
  return [...forms];
}

/** Prototype of one non-ASCII character, keeping the character when its prototype is not plain text. */
function skeletonChar(c: string): string {
  const s = skeleton(c);
  // A mark-only or empty prototype would delete a character: keep the original instead.
  return s.replace(/\p{M}/gu, '') === '' ? c : s;
}

/** True when two names look the same: equal skeletons after normalisation and lower-casing. */
export function sameSkeleton(a: string, b: string): boolean {
  const k = (s: string): string => skeleton(normalizeText(s).toLowerCase()).toLowerCase();
  return k(a) === k(b);
}
