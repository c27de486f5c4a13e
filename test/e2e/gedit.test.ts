/** gedit: the demo task end to end, and a ref whose element is destroyed between observe and act. */
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runGeditTask } from '../../src/demo/gedit-task.js';
import type { Computer } from '../../src/index.js';
import { killApp, launch, lineOf, ok, openComputer, refOn } from './helpers.js';

let computer: Computer;
const pids: number[] = [];

before(async () => { computer = await openComputer(); });
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

test('a ref whose element was destroyed fails with stale_ref ' +
    'and a fresh snapshot, nothing is sent elsewhere', async () => {
  const { pid, text } = await launch(computer, 'gedit', ['--new-window']);
  pids.push(pid);
  const tab1Doc = refOn(text, /\] document editable/);
  const opened = ok(await computer.tools.keys({ keys: 'ctrl+t', app: 'gedit' }));
  const doc2 = refOn(opened, /^\+ +\[e\d+\] document editable/);
  assert.notEqual(doc2, tab1Doc);
  // Close the second tab: its document view is destroyed.
  const closed = ok(await computer.tools.keys({ keys: 'ctrl+w', app: 'gedit' }));
  assert.match(closed, new RegExp(`- \\[e\\d+\\] tab "Untitled Document 2"`));
  const res = await computer.tools.act({ actions: [{ ref: doc2, op: 'type', value: 'must not land anywhere' }] });
  assert.equal(res.isError, true, res.text);
  assert.equal(res.code, 'stale_ref');
  assert.match(res.text, /fresh snapshot:\napp gedit/);
  // The other document, same role and name but another tab, was not taken for it.
  const now = ok(await computer.tools.observe({ full: true, app: 'gedit' }));
  assert.doesNotMatch(now, /must not land anywhere/);
  assert.match(lineOf(now, tab1Doc) ?? '', /document editable/);
  ok(await computer.tools.keys({ keys: 'ctrl+q', app: 'gedit' }));
});

test('gedit task: type Chinese and English, save through the Save As dialog, verify on disk', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cu-e2e-'));
  const path = join(dir, '测试 note.txt');
  const text = 'Hello 世界 — accessibility first, 不截图。Line two: 你好, world!';
  const r = await runGeditTask(computer, { path, text });
  const pid = Number(/pid=(\d+)/.exec(r.steps[0]?.text ?? '')?.[1]);
  if (pid) pids.push(pid);
  assert.equal(r.ok, true, `${r.reason}\n${r.steps.map((s) => `${s.tool}: ${s.text}`).join('\n')}`);
  assert.equal((await readFile(path, 'utf8')).replace(/\n$/, ''), text);
  assert.ok(r.steps.every((s) => !s.isError));
  // No tool result carries a screenshot or anything but text.
  for (const s of r.steps) assert.equal(typeof s.text, 'string');
});
