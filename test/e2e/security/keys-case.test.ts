/**
 * Case is preserved ("T" types "T"), text keeps case and non-ASCII characters, and when
 * sending fails neither the error nor the audit log carries the typed characters.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Device } from '../../../src/devices/manager.js';
import type { Computer } from '../../../src/index.js';
import { killApp, launch, ok, openComputer } from '../helpers.js';

let computer: Computer;
let geditPid = 0;
/** The window ref of the gedit window this test opened (gedit is one process for all its windows). */
let win = '';

before(async () => {
  computer = await openComputer();
  const launched = await launch(computer, 'gedit', ['--new-window']);
  geditPid = launched.pid;
  win = /window \[(w\d+)\]/.exec(launched.text)?.[1] ?? '';
  assert.ok(win, launched.text);
});
after(async () => {
  await computer?.close();
  if (geditPid) await killApp(geditPid);
});

/** The text of gedit's document as observe shows it, polled until `want` appears (bounded). */
async function documentText(want: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let line = '';
  while (Date.now() < deadline) {
    const text = ok(await computer.tools.observe({ full: true, window: win }));
    line = text.split('\n').find((l) => /\] document .*editable/.test(l)) ?? '';
    if (line.includes(want)) return line;
    await new Promise((r) => setTimeout(r, 100));
  }
  return line;
}

test('"shift+t" and "T" type capital T; "t" a small one', async () => {
  ok(await computer.tools.keys({ keys: 'ctrl+a BackSpace', window: win }));
  ok(await computer.tools.keys({ keys: 'shift+t T t', window: win }));
  const line = await documentText('TTt');
  assert.match(line, /value="TTt"/, line);
});

test('text through input.keys keeps case and non-ASCII characters', async () => {
  const device = new Device({ platform: 'linux', timeoutMs: 20_000 });
  try {
    // A window of its own, typed into and read back through the protocol.
    const launched = await device.call('apps.launch', {
      command: 'gedit',
      args: ['--new-window'],
      waitForWindowMs: 20_000,
    });
    const w = launched.window;
    assert.ok(w, 'gedit reported its new window');
    const res = (await device.call('input.keys', {
      window: w.id,
      text: 'Tä中 Ok',
      expect: { pid: w.pid },
    } as never)) as { sent?: number };
    assert.equal(res.sent, 6);
    const deadline = Date.now() + 10_000;
    let value: string | undefined;
    while (Date.now() < deadline) {
      const { matches } = await device.call('tree.find', { window: w.id, role: 'document' });
      value = matches[0]?.node.value;
      if (value === 'Tä中 Ok') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(value, 'Tä中 Ok');
    await device.call('input.keys', {
      window: w.id,
      chords: [
        { mods: ['Control'], key: 'a' },
        { mods: [], key: 'Backspace' },
        { mods: ['Control'], key: 'w' },
      ],
    } as never);
  } finally {
    await device.close();
  }
});

test('a failed send names neither in its error nor in the audit log the typed characters', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cu-case-'));
  const auditPath = join(dir, 'audit.jsonl');
  // A driver whose X display is unreachable: the accessibility bus still works, sending keys fails.
  const saved = process.env['DISPLAY'];
  process.env['DISPLAY'] = ':4999';
  const broken = await openComputer({ auditPath });
  try {
    const r = await broken.tools.keys({ keys: 'Z q 9 X k', app: 'gedit' });
    assert.equal(r.isError, true, r.text);
    assert.doesNotMatch(r.text, /z q 9 x k|zq9xk/i, r.text);
  } finally {
    process.env['DISPLAY'] = saved;
    await broken.close();
  }
  const audit = await readFile(auditPath, 'utf8');
  assert.match(audit, /"computer_keys"/);
  assert.doesNotMatch(audit, /z q 9 x k|zq9xk/i, audit);
});
