import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frame, LineReader, type FrameEvent } from '../../src/protocol/framing.js';

const messages = (events: FrameEvent[]): unknown[] =>
  events.filter((e) => e.kind === 'message').map((e) => (e as { message: unknown }).message);

/** The reader's pending partial line, to prove memory stays bounded. */
const buffered = (r: LineReader): number => r.pendingLength;

test('frame writes one JSON object per line and the reader reads it back', () => {
  const msg = { jsonrpc: '2.0', id: 1, method: 'hello', params: { text: 'a\nb "c" ünï' } };
  const line = frame(msg);
  assert.equal(line.endsWith('\n'), true);
  assert.equal(line.indexOf('\n'), line.length - 1, 'newlines inside strings are escaped');
  assert.deepEqual(new LineReader().push(line), [{ kind: 'message', message: msg }]);
});

test('a message split over many chunks comes out once, when its newline arrives', () => {
  const r = new LineReader();
  const line = frame({ id: 7, result: { text: 'x'.repeat(100) } });
  const out: FrameEvent[] = [];
  for (let i = 0; i < line.length; i += 9) {
    const ev = r.push(line.slice(i, i + 9));
    if (i + 9 < line.length) assert.deepEqual(ev, [], `no event before the newline (offset ${i})`);
    out.push(...ev);
  }
  assert.deepEqual(messages(out), [{ id: 7, result: { text: 'x'.repeat(100) } }]);
  assert.equal(buffered(r), 0);
});

test('several messages in one chunk, and a chunk boundary inside a line', () => {
  const r = new LineReader();
  const first = r.push('{"a":1}\n{"b":2}\n{"c"');
  assert.deepEqual(messages(first), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(messages(r.push(':3}\n')), [{ c: 3 }]);
});

test('CRLF line endings are accepted', () => {
  const r = new LineReader();
  assert.deepEqual(r.push('{"a":1}\r\n{"b":2}\r'), [{ kind: 'message', message: { a: 1 } }]);
  assert.deepEqual(r.push('\n'), [{ kind: 'message', message: { b: 2 } }]);
});

test('non-JSON and blank lines are reported as junk and skipped; the next message still parses', () => {
  const r = new LineReader();
  const ev = r.push('Gtk-WARNING: cannot open display\n\n{"id":1,"result":true}\n{not json\n');
  assert.deepEqual(ev, [
    { kind: 'junk', line: 'Gtk-WARNING: cannot open display' },
    { kind: 'junk', line: '' },
    { kind: 'message', message: { id: 1, result: true } },
    { kind: 'junk', line: '{not json' },
  ]);
  // Valid JSON that is not an object is still a message: the peer decides it is an invalid request.
  assert.deepEqual(r.push('42\n'), [{ kind: 'message', message: 42 }]);
});

test('junk lines are cut to 200 characters in the report', () => {
  const ev = new LineReader().push('x'.repeat(1000) + '\n');
  assert.equal(ev.length, 1);
  assert.equal(ev[0]?.kind, 'junk');
  assert.equal((ev[0] as { line: string }).line.length, 200);
});

test('a complete line over the cap is dropped as oversize and the next line parses', () => {
  const r = new LineReader(100);
  const big = JSON.stringify({ pad: 'y'.repeat(200) });
  const ev = r.push(`${big}\n{"ok":1}\n`);
  assert.deepEqual(ev, [{ kind: 'oversize', bytes: big.length }, { kind: 'message', message: { ok: 1 } }]);
});

test('a line that never ends is dropped without unbounded memory, then the reader recovers', () => {
  const max = 1000;
  const r = new LineReader(max);
  const events: FrameEvent[] = [];
  // 100 KB of one line in 1 KB chunks: the buffer must never hold much more than the cap.
  events.push(...r.push('{"pad":"'));
  for (let i = 0; i < 100; i++) {
    events.push(...r.push('z'.repeat(1024)));
    assert.ok(buffered(r) <= max + 1024, `buffer ${buffered(r)} after chunk ${i}`);
  }
  assert.equal(events.length, 1, 'the oversize line is reported once');
  assert.equal(events[0]?.kind, 'oversize');
  // The rest of the dropped line (up to its newline) is discarded, not parsed as junk.
  const after = r.push('zzz"}\n{"id":2,"result":"fine"}\n');
  assert.deepEqual(after, [{ kind: 'message', message: { id: 2, result: 'fine' } }]);
  assert.equal(buffered(r), 0);
  // And lines at the cap are still fine.
  const atCap = JSON.stringify({ p: 'q'.repeat(max - 8) });
  assert.equal(atCap.length, max);
  assert.deepEqual(messages(r.push(atCap + '\n')), [{ p: 'q'.repeat(max - 8) }]);
});

test('an oversize partial line whose newline comes in the same push as the next message', () => {
  const r = new LineReader(50);
  const first = r.push('a'.repeat(80));
  assert.deepEqual(first, [{ kind: 'oversize', bytes: 80 }]);
  assert.deepEqual(r.push('aaa\n{"x":1}\n'), [{ kind: 'message', message: { x: 1 } }]);
});

test('the line cap counts UTF-8 bytes, not characters: a line ' +
    'of é under the cap in characters is over it in bytes', () => {
  const r = new LineReader(100);
  // 60 characters, 120 bytes (+ the JSON around them): over a cap of 100 bytes.
  const line = `{"id":1,"text":"${'é'.repeat(60)}"}\n`;
  const events = r.push(line);
  assert.deepEqual(events.map((e) => e.kind), ['oversize']);
  assert.equal((events[0] as { bytes: number }).bytes, Buffer.byteLength(line) - 1);
  // A line that never ends is cut by bytes too: 60 é without a newline is 120 bytes pending.
  const open = new LineReader(100);
  assert.deepEqual(open.push('"'.concat('é'.repeat(60))).map((e) => e.kind), ['oversize']);
  assert.deepEqual(
    messages(open.push('tail"\n{"id":2}\n')),
    [{ id: 2 }],
    'the rest of the dropped line is skipped, the next served',
  );
});
