import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOneTimeCode, luhnValid, redactText, redactTree, SECRET_MASK } from '../../src/engine/redact.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { byId } from '../fixtures/engine/build.js';
import { FAKE_API_KEY, FAKE_PASSWORD, widgetFactory } from '../fixtures/engine/widget-factory.js';

const M = SECRET_MASK;

test('secret patterns are masked inside text', () => {
  const cases: [string, string][] = [
    [`key=${FAKE_API_KEY} ok`, `key=${M} ok`],
    ['sk-ant-api03-abcdefghijklmnopqrstuv', M],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', `token ${M}`],
    ['gho_16C7e42F292c6912E7710c838347Ae178B4a', M],
    ['github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz', M],
    ['aws AKIAIOSFODNN7EXAMPLE.', `aws ${M}.`],
    ['xoxb-123456789012-abcdefghijkl', M],
    ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', `Bearer ${M}`],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY----- after', `${M} after`],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', M],
    ['sha 0123456789abcdef0123456789abcdef01234567', `sha ${M}`],
    ['secret: Zx9Qw3Er7Ty1Ui5Op2As6Df8Gh4Jk0LmNb', `secret: ${M}`],
    ['card 4111 1111 1111 1111 exp', `card ${M} exp`],
    ['card 4111-1111-1111-1111', `card ${M}`],
  ];
  for (const [input, want] of cases) assert.equal(redactText(input), want, input);
});

test('ordinary text stays readable', () => {
  for (const s of [
    'hello world, the quick brown fox',
    '/home/user/Projects/computerUse2024/src/engine/snapshot.ts',
    'SomeVeryLongCamelCaseIdentifierNameHere',
    'order 4111 1111 1111 1112', // fails Luhn
    'Call 0123 4567 89',
    'Ln 1, Col 12',
    'skiing-is-fun-and-so-is-this-sentence', // not sk- prefixed at a word start with a long run
    '/tmp/cu-eval-thunar-delete-far-cAm2nI/reports/', // a temp folder: words and a short random tail
  ]) assert.equal(redactText(s), s);
  assert.equal(luhnValid('79927398713'), true);
  assert.equal(luhnValid('79927398710'), false);
});

test('one-time codes are masked only where a name says so', () => {
  assert.equal(isOneTimeCode('482913', ['Verification code']), true);
  assert.equal(isOneTimeCode('4829', [undefined, '验证码']), true);
  assert.equal(isOneTimeCode('482913', ['Zoom']), false);
  assert.equal(isOneTimeCode('48291', ['Spin button']), false);
  assert.equal(isOneTimeCode('123456789', ['OTP']), false);
  const tree = redactTree({ id: 'p', role: 'group', name: 'Enter the OTP', states: [], actions: [], children: [
    { id: 'c', role: 'textbox', value: '123456', states: [], actions: [] },
    { id: 'd', role: 'textbox', value: 'abc', states: [], actions: [] },
  ] });
  assert.equal(tree.children?.[0]?.value, M);
  assert.equal(tree.children?.[1]?.value, 'abc');
});

test('password fields read as •••• whatever the driver sent, and keep no length', () => {
  const f = widgetFactory();
  const pw = byId(f.root, 23);
  pw.valueLength = 21;
  const r = redactTree(f.root);
  const out = byId(r, 23);
  assert.equal(out.value, '••••');
  assert.equal(out.valueLength, undefined);
  assert.equal(pw.value, FAKE_PASSWORD, 'input not modified');
  const empty = redactTree({ id: 'x', role: 'textbox', value: '', states: ['password'], actions: [] });
  assert.equal(empty.value, '');
  const cut = redactTree({ id: 'x', role: 'textbox', valueLength: 8, states: ['password'], actions: [] });
  assert.equal(cut.value, '••••');
});

test('no secret reaches a snapshot', () => {
  const f = widgetFactory();
  byId(f.root, 13).description = `uses ${FAKE_API_KEY}`;
  const s = buildSnapshot(f, new RefTable());
  const all = JSON.stringify(s);
  for (const secret of [FAKE_PASSWORD, FAKE_API_KEY, '482913']) assert.ok(!all.includes(secret), secret);
  assert.match(s.text, /textbox "Password" value="••••" editable password/);
  assert.match(s.text, /textbox "Verification code" value="••••\(secret\)" editable/);
});

test('a digest said to be one reads whole; a hex key or a bare hex run stays masked', () => {
  const sha256 = '851df14c764135cfcfca4b0564d4ac70e84dfb2e13988060f76e9513387ac59e';
  const sha1 = '0123456789abcdef0123456789abcdef01234567';
  const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
  // In the same text: an algorithm's name, a checksum command, a commit.
  assert.equal(redactText(`SHA256: ${sha256}`), `SHA256: ${sha256}`);
  assert.equal(
    redactText(`$ sha256sum report.pdf\n${sha256}  report.pdf`),
    `$ sha256sum report.pdf\n${sha256}  report.pdf`,
  );
  assert.equal(redactText(`commit ${sha1}\nAuthor: A`), `commit ${sha1}\nAuthor: A`);
  assert.equal(redactText(`MD5 checksum ${md5}`), `MD5 checksum ${md5}`);
  // Around the text: its field's label, or its group's.
  assert.equal(redactText(sha256, ['SHA256:']), sha256);
  assert.equal(redactText(md5, [undefined, 'File hash']), md5);
  // Masked: no word says digest, a key's label, a length no digest has, a digest word too far before.
  assert.equal(redactText(sha256), M);
  assert.equal(redactText(`API key: ${sha256}`), `API key: ${M}`);
  assert.equal(redactText(sha256, ['Secret key']), M);
  assert.equal(redactText(`sha256 ${sha256}ab`), `sha256 ${M}`);
  assert.equal(redactText(`hash ${'x'.repeat(100)} ${md5}`), `hash ${'x'.repeat(100)} ${M}`);
  // The other secret shapes keep their masks beside a digest word.
  assert.equal(redactText('hash ghp_abcdefghijklmnopqrstuvwxyz0123456789'), `hash ${M}`);
});

test('a tree: hash fields read whole beside their algorithms\' buttons; a key field beside "Key" does not', () => {
  const sha256 = '851df14c764135cfcfca4b0564d4ac70e84dfb2e13988060f76e9513387ac59e';
  const field = (id: string, value: string): RawNode => ({
    id,
    role: 'textbox',
    nativeRole: 'text',
    states: [],
    actions: [],
    value,
  });
  const tree: RawNode = { id: 'w', role: 'window', nativeRole: 'frame', states: [], actions: [], children: [
    { id: 'g', role: 'group', nativeRole: 'scroll pane', states: [], actions: [], children: [
      { id: 'b', role: 'checkbox', nativeRole: 'check box', name: 'SHA256:', states: [], actions: [] },
      field('f', sha256),
    ], },
    { id: 'k', role: 'group', nativeRole: 'panel', states: [], actions: [], children: [
      { id: 'l', role: 'label', nativeRole: 'label', name: 'Key', states: [], actions: [] }, field('s', sha256),
    ] },
  ] };
  // GtkHash's shape: the algorithms' buttons in one box, their fields in the next (cousins, not siblings).
  (tree.children ?? []).push({ id: 'h', role: 'generic', nativeRole: 'filler', states: [], actions: [], children: [
    { id: 'hb', role: 'generic', nativeRole: 'filler', states: [], actions: [], children: [
      { id: 'b1', role: 'button', nativeRole: 'push button', name: 'MD5:', states: [], actions: [] },
      { id: 'b2', role: 'button', nativeRole: 'push button', name: 'SHA256:', states: [], actions: [] },
    ] },
    { id: 'hf', role: 'generic', nativeRole: 'filler', states: [], actions: [], children: [field('c', sha256)] },
  ] });
  const find = (n: RawNode, id: string): RawNode | undefined =>
    n.id === id ? n : n.children?.map((c) => find(c, id)).find(Boolean);
  const out = redactTree(tree);
  assert.equal(find(out, 'c')?.value, sha256, 'a field whose label is a cousin');
  assert.equal(find(out, 'f')?.value, sha256);
  assert.equal(find(out, 's')?.value, M);
});
