/** Text content in the engine (src/engine/text.ts): body values and hints, caret, search, range blocks, redaction. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode } from '../../src/engine/node.js';
import { redactTree } from '../../src/engine/redact.js';
import {
  bodyValue,
  caretPart,
  lineAt,
  renderTextBlock,
  searchText,
  textPart,
  type TextFacts,
} from '../../src/engine/text.js';

const line = (t: TextFacts): string | undefined => {
  const v = textPart(t);
  const c = caretPart(t);
  return v === undefined && !c ? undefined : `${v ?? ''}${c}`;
};

test('a body cut at the head ends on a line break and names the exact offset to read on', () => {
  const value = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
  const r = bodyValue({ role: 'document', ref: 'e7', value, valueLength: 5000 }, 100);
  assert.ok(r.shown.endsWith('\n'));
  assert.equal(r.hint, `(text 0–${r.shown.length} of 5,000; more: scope=e7 from=${r.shown.length})`);
});

test('a terminal tail read: the end is shown, and where earlier text is', () => {
  const s = line({
    role: 'document',
    ref: 'e5',
    value: 'row-1999\nrow-2000\n$ ',
    valueStart: 9000,
    valueLength: 9020,
    caret: 9020,
  });
  assert.equal(
    s,
    ' value="…row-1999\\nrow-2000\\n$ " (text 9,000–9,020 of 9,020; earlier: scope=e5 from=5000) caret=9020',
  );
});

test('caret and selection on a focused field; nothing extra on an unfocused one without selection', () => {
  assert.equal(line({ role: 'textbox', value: 'hello', caret: 5, states: ['focused'] }), ' value="hello" caret=5');
  assert.equal(
    line({ role: 'textbox', value: 'hello', caret: 2, selection: [1, 3] }),
    ' value="hello" caret=2 selected=1–3',
  );
  assert.equal(line({ role: 'textbox', value: 'hello', caret: 5 }), undefined);
  // An empty field's caret says nothing.
  assert.equal(caretPart({ role: 'document', value: '', caret: 0, states: ['focused'] }), '');
});

test('search: case-insensitive, line and offset of the full text, snippets cut around the match', () => {
  const text = `first\nsecond line with NEEDLE\n${'z'.repeat(300)}needle${'z'.repeat(300)}`;
  const m = searchText(text, 'needle', { base: 1000, baseLine: 10 });
  assert.equal(m.length, 2);
  assert.deepEqual(
    [m[0]!.offset, m[0]!.line, m[0]!.snippet],
    [1000 + text.indexOf('NEEDLE'), 11, 'second line with NEEDLE'],
  );
  assert.equal(m[1]!.line, 12);
  assert.ok(m[1]!.snippet.startsWith('…') && m[1]!.snippet.endsWith('…') && m[1]!.snippet.length <= 122, m[1]!.snippet);
  assert.deepEqual(lineAt('a\nb\nc', 4), { line: 3, column: 0 });
});

test('a range block: numbered lines from the line it starts on, escaped, and how to read on', () => {
  const out = renderTextBlock({ ref: 'e3', text: 'one\ntwo "q"\n', start: 10, length: 100, startLine: 4 }, '  ');
  assert.deepEqual(out, ['  4│ one', '  5│ two \\"q\\"', '  (text 10–22 of 100; more: scope=e3 from=22)']);
});

test('a password field: caret, selection and range offsets never leave the engine', () => {
  const pw: RawNode = {
    id: 'p',
    role: 'textbox',
    states: ['password', 'editable', 'focused'],
    actions: [],
    value: 'secret',
    valueLength: 6,
    caret: 6,
    selection: [0, 6],
    valueStart: 0,
  };
  const out = redactTree(pw);
  assert.equal(out.value, '••••');
  assert.equal(out.caret, undefined);
  assert.equal(out.selection, undefined);
  assert.equal(out.valueLength, undefined);
});
