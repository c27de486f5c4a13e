/**
 * `input.clipboard` on macOS through HIServices' Pasteboard API (C-callable, no Objective-C): the general
 * pasteboard ("com.apple.pasteboard.clipboard"), text as the UTI public.utf8-plain-text (or utf16 on read).
 * A copy its app marks concealed or transient (nspasteboard.org's org.nspasteboard.ConcealedType and
 * TransientType, which password managers set, and the older markers listed below) is never read: the flavors of
 * every item are looked at first, and then no item's data is fetched. macOS does not say which process put a
 * copy on the pasteboard, so no owner is reported apart from `secret`.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import type { ClipboardParams, ClipboardResult } from '../../protocol/methods.js';
import { arrayItems, readValue, withScope, type CfScope } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';

/** kPasteboardClipboard. */
const CLIPBOARD = 'com.apple.pasteboard.clipboard';
const UTF8_TEXT = 'public.utf8-plain-text';
const UTF16_TEXT = 'public.utf16-plain-text';
/** Flavors that mark a copy as not to be read (nspasteboard.org, and the older markers clipboard tools honour). */
export const SECRET_FLAVORS: readonly string[] = [
  'org.nspasteboard.ConcealedType', 'org.nspasteboard.TransientType',
  'de.petermaurer.TransientPasteboardType', 'com.agilebits.onepassword', 'com.typeit4me.clipping',
];
/** More items than this are not looked through: the copy is treated as secret (a marker could be on any item). */
const MAX_ITEMS = 256;
/** The protocol's cap on the text (ClipboardResult.text), and the most bytes fetched for it. */
const MAX_TEXT = 1_000_000;
const MAX_BYTES = 4 * MAX_TEXT;
const METHOD = 'Pasteboard (general)';

function osStatus(what: string, status: number): ComputerUseError {
  return new ComputerUseError(
    'input_unavailable',
    `${what} failed (OSStatus ${status}); nothing was read from or put on the clipboard`,
    { osStatus: status },
  );
}

function open(s: CfScope): CFRef {
  const out: [CFRef] = [null];
  const status = s.api.PasteboardCreate(s.string(CLIPBOARD), out);
  s.own(out[0]);
  if (status !== 0 || !out[0]) throw osStatus('PasteboardCreate', status);
  return out[0];
}

/** The flavors of each item (ids as the API gives them), or undefined when there are too many items to look through. */
function itemsOf(s: CfScope, pb: CFRef): { id: number | bigint; flavors: string[] }[] | undefined {
  const api = s.api;
  const count: [number | bigint] = [0];
  const st = api.PasteboardGetItemCount(pb, count);
  if (st !== 0) throw osStatus('PasteboardGetItemCount', st);
  const n = Number(count[0]);
  if (n > MAX_ITEMS) return undefined;
  const items: { id: number | bigint; flavors: string[] }[] = [];
  for (let i = 1; i <= n; i++) {
    const id: [number | bigint] = [0];
    if (api.PasteboardGetItemIdentifier(pb, i, id) !== 0) continue;
    const out: [CFRef] = [null];
    const fl = api.PasteboardCopyItemFlavors(pb, id[0], out);
    s.own(out[0]);
    if (fl !== 0 || !out[0]) { items.push({ id: id[0], flavors: [] }); continue; }
    items.push({
      id: id[0],
      flavors: arrayItems(api, out[0])
        .map((f) => readValue(api, f, 512))
        .filter((f): f is string => typeof f === 'string'),
    });
  }
  return items;
}

/** The text of one flavor's data, at most MAX_BYTES of it. */
function textOf(s: CfScope, pb: CFRef, id: number | bigint, flavor: string): string | undefined {
  const api = s.api;
  const out: [CFRef] = [null];
  const st = api.PasteboardCopyItemFlavorData(pb, id, s.string(flavor), out);
  s.own(out[0]);
  if (st !== 0 || !out[0]) return undefined;
  const len = Math.min(api.CFDataGetLength(out[0]), MAX_BYTES);
  const buf = new Uint8Array(len);
  if (len > 0) api.CFDataGetBytes(out[0], { location: 0, length: len }, buf);
  const text =
    flavor === UTF16_TEXT
      ? Buffer.from(buf.buffer, 0, len - (len % 2)).toString('utf16le')
      : Buffer.from(buf).toString('utf8');
  // A cut between the halves of a surrogate pair would leave half a character.
  const cut = text.slice(0, MAX_TEXT);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Reads the text on the pasteboard; a concealed or transient copy is never fetched. */
export function readClipboard(api: MacApi): ClipboardResult {
  return withScope(api, (s) => {
    const pb = open(s);
    api.PasteboardSynchronize(pb);
    const items = itemsOf(s, pb);
    if (!items || items.some((it) => it.flavors.some((f) => SECRET_FLAVORS.includes(f))))
      return { method: METHOD, owner: { secret: true } };
    for (const it of items) {
      const flavor = it.flavors.includes(UTF8_TEXT)
        ? UTF8_TEXT
        : it.flavors.includes(UTF16_TEXT)
          ? UTF16_TEXT
          : undefined;
      if (!flavor) continue;
      const text = textOf(s, pb, it.id, flavor);
      if (text !== undefined) return { method: METHOD, text };
    }
    return { method: METHOD };
  });
}

/** Replaces the pasteboard's content with one item of UTF-8 text. */
export function writeClipboard(api: MacApi, text: string): ClipboardResult {
  return withScope(api, (s) => {
    const pb = open(s);
    const cleared = api.PasteboardClear(pb);
    if (cleared !== 0) throw osStatus('PasteboardClear', cleared);
    const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
    const data = s.own(api.CFDataCreate(null, bytes, bytes.length));
    if (!data)
      throw new ComputerUseError(
        'input_unavailable',
        'CFDataCreate failed; the clipboard was cleared but holds no text',
      );
    const st = api.PasteboardPutItemFlavor(pb, 1, s.string(UTF8_TEXT), data, 0);
    if (st !== 0) throw osStatus('PasteboardPutItemFlavor', st);
    return { method: METHOD };
  });
}

/** `input.clipboard`. */
export function clipboard(api: MacApi, p: ClipboardParams): ClipboardResult {
  return p.action === 'write' ? writeClipboard(api, p.text ?? '') : readClipboard(api);
}
