/**
 * input.clipboard on macOS (src/drivers/macos/clipboard.ts) against the fake library's Pasteboard API
 * (test/macos-fake/pasteboard.c): text written and read as public.utf8-plain-text (utf16 read too), and a copy
 * marked concealed or transient is never fetched, whatever item carries the marker. Every Create/Copy is
 * released once (assertBalanced after each test).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readClipboard, SECRET_FLAVORS, writeClipboard } from '../../src/drivers/macos/clipboard.js';
import { macHandlers } from '../../src/drivers/macos/main.js';
import { ClipboardResult } from '../../src/protocol/methods.js';
import { checkerOf } from '../../src/protocol/validate.js';
import { fakeDriverTests } from '../macos/fake-ax.js';

const { fake, start } = fakeDriverTests('textedit.json');

const UTF8 = 'public.utf8-plain-text';
const ctx = { signal: new AbortController().signal } as never;

test('write puts one item of UTF-8 text; read gives it back, on the wire and within the schema', async () => {
  const d = start();
  const h = macHandlers(d);
  const text = '你好, TextEdit 👋\nline two\u0000end';
  assert.deepEqual(await h['input.clipboard']!({ action: 'write', text }, ctx), { method: 'Pasteboard (general)' });
  assert.equal(fake.pasteboardItems(), 1);
  assert.equal(fake.pasteboardGet(UTF8)?.toString('utf8'), text);
  assert.match(
    fake.log(),
    /PasteboardCreate com\.apple\.pasteboard\.clipboard[\s\S]*PasteboardClear[\s\S]*PasteboardPutItemFlavor public\.utf8-plain-text/,
  );
  const read = await h['input.clipboard']!({ action: 'read' }, ctx) as ClipboardResult;
  assert.deepEqual(read, { method: 'Pasteboard (general)', text });
  assert.ok(checkerOf(ClipboardResult).Check(read));
  // Writing again replaces what another app had copied (several items and flavors).
  fake.pasteboardPut(1, 'public.html', '<b>x</b>');
  fake.pasteboardPut(2, UTF8, 'second');
  writeClipboard(d.api, '');
  assert.equal(fake.pasteboardItems(), 1);
  assert.equal(fake.pasteboardGet('public.html'), undefined);
  assert.deepEqual(readClipboard(d.api), { method: 'Pasteboard (general)', text: '' });
});

test('another app\'s copy: UTF-8 on a later item, UTF-16 only, an image only, an empty pasteboard', () => {
  const d = start();
  assert.deepEqual(readClipboard(d.api), { method: 'Pasteboard (general)' });
  fake.pasteboardPut(1, 'public.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  assert.deepEqual(readClipboard(d.api), { method: 'Pasteboard (general)' }, 'no text flavor');
  fake.pasteboardPut(2, UTF8, 'from item two');
  assert.equal(readClipboard(d.api).text, 'from item two');
  fake.pasteboardClear();
  fake.pasteboardPut(1, 'public.utf16-plain-text', Buffer.from('ütf-16 ✓', 'utf16le'));
  assert.equal(readClipboard(d.api).text, 'ütf-16 ✓');
});

test('a concealed or transient copy is never fetched, on ' +
    'whichever item the marker is; too many items count as secret', () => {
  const d = start();
  for (const marker of SECRET_FLAVORS) {
    for (const markerItem of [1, 2]) {
      fake.pasteboardClear();
      fake.pasteboardPut(1, UTF8, 'hunter2');
      fake.pasteboardPut(markerItem, marker, new Uint8Array(0));
      fake.clearLog();
      const r = readClipboard(d.api);
      assert.deepEqual(
        r,
        { method: 'Pasteboard (general)', owner: { secret: true } },
        `${marker} on item ${markerItem}`,
      );
      assert.doesNotMatch(fake.log(), /PasteboardCopyItemFlavorData/, `${marker}: no flavor's data was fetched`);
    }
  }
  fake.pasteboardClear();
  for (let i = 1; i <= 257; i++) fake.pasteboardPut(i, UTF8, `item ${i}`);
  fake.clearLog();
  assert.deepEqual(readClipboard(d.api).owner, { secret: true });
  assert.doesNotMatch(fake.log(), /PasteboardCopyItemFlavorData/);
});

test('long text is cut at the protocol\'s 1,000,000 characters, never inside a surrogate pair', () => {
  const d = start();
  fake.pasteboardPut(1, UTF8, `${'a'.repeat(999_999)}😀tail`);
  const r = readClipboard(d.api);
  assert.equal(r.text?.length, 999_999);
  assert.ok(checkerOf(ClipboardResult).Check(r));
});
