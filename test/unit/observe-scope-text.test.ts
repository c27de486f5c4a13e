/**
 * observe with scope on an element whose text the snapshot did not read whole: the text is printed as numbered
 * lines under the element's line, and that line says nothing more of the text. A model in the loop read
 * "(text of 39 characters not read here …)" right above the 39 characters the scope had read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { FakeDriver, type FakeWindow } from '../../src/drivers/fake/driver.js';
import type { TextReadParams } from '../../src/protocol/methods.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';

const TEXT = 'The quick brown fox\njumps over the dog.';

function writer(docProps: Parameters<typeof n>[3]): FakeWindow {
  const b = ':1.91';
  const root = n(b, 1, 'window', { name: 'Writer', states: ['active'] }, [
    n(b, 2, 'document', {
      states: ['focusable', 'editable', 'multiline'],
      actions: ['type', 'focus', 'scroll'],
      ...docProps,
    }),
  ]);
  return { info: { id: root.id, title: 'Writer', app: 'writer', pid: 4646, role: 'window', focused: true }, root };
}

async function scoped(docProps: Parameters<typeof n>[3]): Promise<string> {
  const fake = new FakeDriver([writer(docProps)]);
  fake.extra['text.read'] = (p: TextReadParams) => ({
    text: TEXT.slice(p.start ?? 0, p.end),
    start: p.start ?? 0,
    length: TEXT.length,
    startLine: 1,
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const observe = TOOLS.find((t) => t.schema.name === 'computer_observe')!;
  try {
    const text = (await runTool(observe, { session }, {})).text;
    const ref = /\[(e\d+)\] document/.exec(text)?.[1];
    assert.ok(ref, text);
    return (await runTool(observe, { session }, { scope: ref })).text;
  } finally {
    await session.close();
  }
}

test('a scope read of text the snapshot did not read prints the text, not "not read here" above it', async () => {
  const out = await scoped({ value: '', valueLength: TEXT.length });
  assert.match(out, /1│ The quick brown fox/, out);
  assert.match(out, /2│ jumps over the dog\./, out);
  assert.doesNotMatch(out, /not read here/, out);
  assert.match(out.split('\n')[1] ?? '', /^\[e\d+\] document editable$/, out);
});

test('a scope read of text read in part: the line carries no value and no range hint, the block has them', async () => {
  const out = await scoped({ value: TEXT.slice(0, 10), valueLength: TEXT.length });
  assert.match(out.split('\n')[1] ?? '', /^\[e\d+\] document editable$/, out);
  assert.match(out, /2│ jumps over the dog\./, out);
});

test('scope on a table with from: the answer says how its rows come into view, not "no Text interface"', async () => {
  const b = ':1.92';
  const cells = [0, 1].flatMap((r) =>
    [0, 1].map((c) =>
      n(b, 10 + r * 2 + c, 'cell', { name: `${'AB'[c]}${r + 1}`, value: String(r * 2 + c), cell: { row: r, col: c } }),
    ),
  );
  const root = n(b, 1, 'window', { name: 'Sheet', states: ['active'] }, [
    n(b, 2, 'table', { name: 'Sheet1', table: { rows: 1_048_576, cols: 1024 } }, cells),
  ]);
  const fake = new FakeDriver([
    { info: { id: root.id, title: 'Sheet', app: 'calc', pid: 4747, role: 'window', focused: true }, root },
  ]);
  let asked = false;
  fake.extra['text.read'] = () => { asked = true; throw new Error('no Text interface'); };
  const session = new Session({ device: new Device({ connect: () => fake.connect() }) });
  const observe = TOOLS.find((t) => t.schema.name === 'computer_observe')!;
  try {
    const text = (await runTool(observe, { session }, {})).text;
    const ref = /\[(e\d+)\] table/.exec(text)?.[1];
    assert.ok(ref, text);
    const r = await runTool(observe, { session }, { scope: ref, from: 80 });
    assert.equal(r.code, 'invalid_params', r.text);
    assert.match(
      r.text,
      new RegExp(`${ref} is a table: .*To see row 80: scroll ${ref} value="to 80" .*then observe with scope=${ref}`),
      r.text,
    );
    assert.equal(asked, false, 'no text was asked of a table');
  } finally {
    await session.close();
  }
});
