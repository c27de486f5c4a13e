/** Look-alike labels meet the irreversible rules: confusables, invisibles, Traditional Chinese, CJK spacing. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyAction, irreversibleWord, keysTypeText } from '../../src/policy/irreversible.js';
import { normalizeText, sameSkeleton, skeleton } from '../../src/policy/confusables.js';
import { parseChords } from '../../src/session/chords.js';
import type { ActionRequest, KeysStep } from '../../src/policy/gate.js';

test('look-alike labels match the rule words', () => {
  const cases: [string, string][] = [
    ['D\u0435lete', 'delete'], // Cyrillic е
    ['De\u200Blete', 'delete'], // zero-width space
    ['Del\u00ADete', 'delete'], // soft hyphen
    ['\u200ESend\u200F', 'send'], // bidi marks
    ['Sen\uFE0Fd', 'send'], // variation selector
    ['\uFF33\uFF45\uFF4E\uFF44', 'send'], // full width Ｓｅｎｄ
    ['\u0405end', 'send'], // Cyrillic Ѕ
    ['De1ete', 'delete'], // digit one for l
    ['Subrnit', 'submit'], // rn for m
    ['ＤＥＬＥＴＥ', 'delete'],
    ['𝐃𝐞𝐥𝐞𝐭𝐞', 'delete'], // mathematical bold
  ];
  for (const [label, word] of cases)
    assert.equal(irreversibleWord(label, 'button'), word, `${JSON.stringify(label)} should match ${word}`);
});

test('Traditional Chinese and spaced CJK labels match the Chinese rules', () => {
  assert.equal(irreversibleWord('刪除', 'button'), '删除');
  assert.equal(irreversibleWord('發送', 'button'), '发送');
  assert.equal(irreversibleWord('付款', 'button'), '付款');
  assert.equal(irreversibleWord('確認付款', 'button'), '确认付款');
  assert.equal(irreversibleWord('轉賬', 'button'), '转账');
  assert.equal(irreversibleWord('刪 除', 'button'), '删除');
  assert.equal(irreversibleWord('删 除', 'button'), '删除');
  assert.equal(irreversibleWord('删-除', 'button'), '删除');
  assert.equal(irreversibleWord('删\u200B除', 'button'), '删除');
  assert.equal(irreversibleWord('發　送(_S)', 'button'), '发送');
});

test('ordinary labels stay silent', () => {
  for (const label of [
    'Archive',
    'Open',
    'Save',
    'Cancel',
    'OK',
    '打开',
    '保存',
    'Strikethrough',
    '删除线',
    'Item 1',
    'Return to list',
  ]) {
    assert.equal(irreversibleWord(label, 'button'), undefined, label);
  }
});

test('the normalisation steps', () => {
  assert.equal(normalizeText('De\u200Bl\u00ADete'), 'Delete');
  assert.equal(normalizeText('删 - 除'), '删除');
  assert.equal(normalizeText('刪除'), '删除');
  assert.equal(skeleton('\u0405end'), 'Send');
  assert.ok(sameSkeleton('k\u0435\u0435passxc', 'keepassxc'));
  assert.ok(!sameSkeleton('gedit', 'keepassxc'));
});

const act = (op: string, role: string, name: string, value?: string): ActionRequest =>
  ({ kind: 'element', tool: 'computer_act', ref: 'e1', op, role, name, ...(value !== undefined ? { value } : {}) });

test('ops are classified by what the driver does with them', () => {
  assert.equal(classifyAction(act('double_click', 'button', 'Delete all'))?.kind, 'irreversible');
  assert.equal(
    classifyAction(act('expand', 'menuitem', 'Delete'))?.kind,
    'irreversible',
    'GTK menu items run their click action on expand',
  );
  assert.equal(classifyAction(act('collapse', 'button', 'Send'))?.kind, 'irreversible');
  assert.equal(
    classifyAction(act('set_value', 'button', 'Delete all', ' '))?.kind,
    'irreversible',
    'set_value on a button types into it: a space activates',
  );
  assert.equal(classifyAction(act('type', 'link', 'Send', 'x'))?.kind, 'irreversible');
  assert.equal(classifyAction(act('set_value', 'menuitem', 'Dеlete', 'anything'))?.kind, 'irreversible');
  assert.equal(classifyAction(act('toggle', 'button', 'Delete all'))?.kind, 'irreversible');
  assert.equal(
    classifyAction(act('set_value', 'textbox', 'Delete reason', 'x')),
    undefined,
    'writing into a field activates nothing',
  );
  assert.equal(classifyAction(act('expand', 'treeitem', 'Folder')), undefined);
  assert.equal(classifyAction(act('focus', 'button', 'Delete all')), undefined);
});

const keys = (k: string, extra: Partial<KeysStep> = {}): ActionRequest => ({
  kind: 'keys',
  tool: 'computer_keys',
  keys: k,
  chords: parseChords(k),
  ...extra,
});
const deleteButton = { role: 'button', name: 'Delete all' };

test('activating keys on a focused irreversible command ask', () => {
  assert.equal(classifyAction(keys('space', { focused: deleteButton }))?.kind, 'irreversible');
  assert.equal(classifyAction(keys('Return', { focused: deleteButton }))?.kind, 'irreversible');
  assert.equal(classifyAction(keys('KP_Enter', { focused: { role: 'menuitem', name: '刪除' } }))?.kind, 'irreversible');
  assert.equal(classifyAction(keys('space', { focused: { role: 'link', name: 'Ѕend' } }))?.kind, 'irreversible');
  assert.equal(
    classifyAction(keys('space', { focused: { role: 'button', name: 'Archive' }, mnemonics: [] })),
    undefined,
  );
});

test('a mnemonic of an irreversible control asks', () => {
  const mnemonics = [{ key: 'w', label: 'Wipe disk' }, { key: 'a', label: 'Archive' }];
  assert.equal(classifyAction(keys('alt+w', { mnemonics }))?.kind, 'irreversible');
  assert.equal(classifyAction(keys('alt+a', { mnemonics })), undefined);
  assert.equal(classifyAction(keys('alt+w'))?.kind, 'irreversible', 'controls unknown: cannot be proven');
  // GTK strips "_" from "_Delete all": when the toolkit does not tell its access key, any alt+letter may fire it.
  const unknownKey = [{ key: '', label: 'Delete all' }, { key: 'a', label: 'Archive' }];
  assert.equal(classifyAction(keys('alt+d', { mnemonics: unknownKey }))?.kind, 'irreversible');
  assert.equal(
    classifyAction(keys('alt+a', { mnemonics: unknownKey }))?.kind,
    undefined,
    'alt+a is known to be Archive',
  );
});

test('an activating key after a focus move asks when the window has an irreversible control', () => {
  const withDelete = [{ key: '', label: 'Archive' }, { key: '', label: 'Delete all' }];
  assert.equal(
    classifyAction(keys('ctrl+Tab Return', { focused: { role: 'button', name: 'Archive' }, mnemonics: withDelete }))
      ?.kind,
    'irreversible',
  );
  assert.equal(classifyAction(keys('Tab space', { mnemonics: withDelete }))?.kind, 'irreversible');
  assert.equal(classifyAction(keys('shift+Tab Down Return', { mnemonics: withDelete }))?.kind, 'irreversible');
  assert.equal(
    classifyAction(keys('F10 d', { mnemonics: withDelete }))?.kind,
    'irreversible',
    'a letter in an open menu picks an item',
  );
  assert.equal(classifyAction(keys('Tab Return', { mnemonics: [{ key: '', label: 'Archive' }] })), undefined);
  assert.equal(classifyAction(keys('Tab Return'))?.kind, 'irreversible', 'controls unknown: cannot be proven');
});

test('keys that do not parse ask', () => {
  assert.equal(
    classifyAction({ kind: 'keys', tool: 'computer_keys', keys: 'shift exec sh -c touch${IFS}/tmp/x' })?.kind,
    'irreversible',
  );
});

test('keysTypeText reads the parsed chords; keys the host did not parse count as text', () => {
  assert.equal(keysTypeText({ chords: parseChords('h i') }), true);
  assert.equal(keysTypeText({ chords: parseChords('ctrl+s Return') }), false);
  assert.equal(keysTypeText({ chords: parseChords('shift+A') }), true);
  assert.equal(keysTypeText({ chords: parseChords('Tab') }), false);
  assert.equal(keysTypeText({ keys: 'Tab' }), true, 'unparsed: digested, never logged');
});
