/**
 * The audit log after a crash mid-write: the next record starts a new line instead of being glued onto the
 * torn one, and `computer-use audit`'s reader and the panel's index skip torn lines, count them and lose no
 * complete record (also not one glued onto a torn line by a writer that did not heal the tail).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AuditIndex } from '../../src/panel/audit-index.js';
import { AuditLog, formatAudit, type DecidedRecord } from '../../src/policy/audit.js';
import { auditLines } from '../fixtures/panel/audit-lines.js';

const logPath = (): string => join(mkdtempSync(join(tmpdir(), 'cu-audit-torn-')), 'audit.jsonl');

const decided = (id: string): DecidedRecord => ({
  v: 1,
  phase: 'decided',
  id,
  time: '2026-01-02T00:00:00.000Z',
  session: 's',
  device: 'local',
  mode: 'default',
  tool: 'computer_act',
  app: 'gedit',
  op: 'click',
  role: 'button',
  name: 'Save',
  redacted: false,
  decision: 'allowed',
  reason: 'default, allow-listed',
});

test('a record appended after a torn last line starts its own line and is read back', () => {
  const path = logPath();
  const whole = auditLines(3);
  // A crash mid-write: the last record is cut in the middle of a field.
  writeFileSync(path, whole + JSON.stringify(decided('torn-one')).slice(0, 70));
  new AuditLog(path).append(decided('after-crash'));
  assert.ok(
    readFileSync(path, 'utf8').includes('\n{"v":1,"phase":"decided","id":"after-crash"'),
    'the record starts a line',
  );
  const { records, torn } = new AuditLog(path).readAll();
  assert.equal(torn, 1);
  assert.ok(records.some((r) => r.id === 'after-crash'), 'the decision after the crash is in the log');
  assert.ok(formatAudit(records).some((l) => l.includes('gedit: click') && l.includes('default, allow-listed')));
  const idx = new AuditIndex(path);
  idx.refresh();
  assert.equal(idx.torn, 1);
  const page = idx.page({}, { limit: 5 });
  assert.equal(page.rows[0]?.id, 'after-crash');
  assert.equal(page.torn, 1);
  assert.equal(idx.count, 4);
});

test('a whole record glued onto a torn line by an older writer is recovered; torn lines never break a page', () => {
  const path = logPath();
  writeFileSync(
    path,
    auditLines(2) +
      JSON.stringify(decided('torn')).slice(0, 50) +
      JSON.stringify(decided('glued')) +
      '\n' +
      '{"v":1,"phase":"decided","id":"cut-at-a-brace","value":{"len":3,"hmac":"ab"}\n' +
      auditLines(1, undefined, 7),
  );
  const { records, torn } = new AuditLog(path).readAll();
  assert.equal(torn, 2);
  assert.deepEqual(records.filter((r) => r.phase === 'decided').map((r) => r.id), ['id-0', 'id-1', 'glued', 'id-7']);
  const idx = new AuditIndex(path);
  assert.equal(idx.refresh(), 4);
  assert.equal(idx.torn, 2);
  assert.deepEqual(idx.page({}, { limit: 10 }).rows.map((r) => r.id), ['id-7', 'glued', 'id-1', 'id-0']);
  // Appended while indexed: the torn tail is healed by the writer and the new record is indexed.
  appendFileSync(path, '{"v":1,"phase":"done","id":"id-7","ti');
  idx.refresh();
  new AuditLog(path).append(decided('next'));
  idx.refresh();
  assert.equal(idx.torn, 3);
  assert.equal(idx.page({}, { limit: 1 }).rows[0]?.id, 'next');
});

test('a writer killed mid-write (kill -9) loses no complete record', async () => {
  const path = logPath();
  // A child appending records as fast as it can, each with a long name so a write can be cut.
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    import { AuditLog } from ${JSON.stringify(new URL('../../src/policy/audit.js', import.meta.url).href)};
    const log = new AuditLog(${JSON.stringify(path)});
    for (let i = 0; ; i++) log.append({ v: 1, phase: 'decided', id: 'child-' + i, time: new Date().toISOString(), \
session: 's', device: 'local',
      mode: 'default', tool: 'computer_act', name: 'x'.repeat(60000), redacted: false, decision: 'allowed', reason: \
'r' });`], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 400));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  // Whatever the kill left, a torn tail is certain to exist for the next writer: cut one more record.
  appendFileSync(path, JSON.stringify(decided('cut')).slice(0, 40));
  const before = readFileSync(path, 'utf8').split('\n').filter((l) => l.endsWith('}')).length;
  new AuditLog(path).append(decided('after-kill'));
  const { records } = new AuditLog(path).readAll();
  assert.ok(records.length >= before, `${records.length} records read, ${before} complete lines before`);
  assert.equal(records.at(-1)?.id, 'after-kill');
  const idx = new AuditIndex(path);
  idx.refresh();
  assert.equal(idx.page({}, { limit: 1 }).rows[0]?.id, 'after-kill');
  assert.ok(idx.torn >= 1);
});
