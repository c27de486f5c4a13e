/** Audit digests are keyed (HMAC-SHA-256, per-install key 0600): a short password cannot be found by dictionary. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AuditLog, digestText, installKey } from '../../src/policy/audit.js';
import { Policy, withoutTyped } from '../../src/policy/policy.js';

test('digests are HMACs under a random 32-byte per-install key kept 0600', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-audit-'));
  const log = new AuditLog(join(dir, 'audit.jsonl'));
  const d = log.digest('hunter2');
  assert.equal(d.len, 7);
  assert.match(d.hmac, /^[0-9a-f]{16}$/);
  // Not the plain SHA-256 a dictionary attack would try.
  assert.notEqual(d.hmac, createHash('sha256').update('hunter2').digest('hex').slice(0, 16));
  assert.equal(log.digest('hunter2').hmac, d.hmac, 'stable under one key');
  const key = readFileSync(log.keyPath);
  assert.equal(key.length, 32);
  assert.equal(statSync(log.keyPath).mode & 0o777, 0o600);
  // Another install, another key: the same password digests differently.
  const other = new AuditLog(join(mkdtempSync(join(tmpdir(), 'cu-audit-')), 'audit.jsonl'));
  assert.notEqual(other.digest('hunter2').hmac, d.hmac);
  assert.equal(digestText('hunter2', key).hmac, d.hmac);
});

test('a key file others can read, or of the wrong size, is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-audit-'));
  writeFileSync(join(dir, 'loose.key'), Buffer.alloc(32, 1), { mode: 0o644 });
  assert.throws(() => installKey(join(dir, 'loose.key')), /readable by other users/);
  writeFileSync(join(dir, 'short.key'), Buffer.alloc(8, 1), { mode: 0o600 });
  assert.throws(() => installKey(join(dir, 'short.key')), /32-byte key/);
});

test('audit records hold the HMAC, never the text; a done detail that echoes the typed text is withheld', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-audit-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['mousepad'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: false,
  });
  const d = await policy.check({
    kind: 'element',
    tool: 'computer_act',
    ref: 'e1',
    role: 'textbox',
    app: 'mousepad',
    op: 'type',
    value: 'correct horse battery',
    title: 'notes',
  });
  d.done('failed', 'xdotool: cannot type "correct horse battery" into window 0x1');
  const k = await policy.check({
    kind: 'keys',
    tool: 'computer_keys',
    app: 'mousepad',
    keys: 'h u n t e r',
    title: 'notes',
  });
  k.done('failed', 'xdotool key h u n t e r failed');
  const text = readFileSync(join(dir, 'audit.jsonl'), 'utf8');
  assert.ok(!text.includes('horse') && !text.includes('h u n t e r'), text);
  assert.match(text, /"hmac":"[0-9a-f]{16}"/);
  assert.match(text, /detail withheld/);
  assert.equal(
    withoutTyped('timeout after 3000 ms', {
      kind: 'element',
      tool: 'computer_act',
      ref: 'e1',
      op: 'type',
      role: 'textbox',
      value: 'secret words',
    }),
    'timeout after 3000 ms',
  );
});

test('audit records keep one field order for every step kind: ref before ' +
    'op (an OCR click read "op" first after the request became a union)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-audit-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['drawn-buttons'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: false,
  });
  (
    await policy.check({
      kind: 'pointer',
      tool: 'computer_act',
      app: 'drawn-buttons',
      ref: 'o2',
      op: 'click',
      role: 'text (ocr)',
      name: 'OK',
      point: [5, 5],
    })
  ).done('unknown');
  (
    await policy.check({
      kind: 'element',
      tool: 'computer_act',
      app: 'drawn-buttons',
      ref: 'e4',
      op: 'click',
      role: 'button',
      name: 'OK',
    })
  ).done('unknown');
  const decided = readFileSync(join(dir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r['phase'] === 'decided');
  for (const r of decided) {
    const keys = Object.keys(r).filter((k) => ['ref', 'op', 'role', 'name'].includes(k));
    assert.deepEqual(keys, ['ref', 'op', 'role', 'name'], JSON.stringify(r));
  }
});
