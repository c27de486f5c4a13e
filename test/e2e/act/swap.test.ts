/**
 * Acting on the last snapshot (the driver proves the element's process at dispatch, capability act_identity) on a
 * real GTK3 window (test/apps/act-lab.py): when the window's process was swapped between the observe and the act
 * (the app quit and another process opened a window of the same title), the act on the old ref is refused and
 * nothing reaches the new process; refs observed on the new window act as usual.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { killApp, ok, refOn } from '../helpers.js';
import { LAB, startLab } from './lab.js';

test('a window whose process was swapped (same title, new ' +
    'process) between observe and act: refused, nothing sent', async () => {
  const lab = await startLab();
  let out = '';
  const other = { pid: 0 };
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const agree = refOn(snap, /checkbox "Agree"/);
    // Proves the path works on this window first (and that its process's identity is kept from here on).
    ok(await lab.computer.tools.act({ actions: [{ ref: agree, op: 'toggle' }] }));
    await lab.printed('agree on');
    await killApp(lab.app.pid!);
    const swapped = spawn('/usr/bin/python3', [LAB], { stdio: ['ignore', 'pipe', 'inherit'] });
    other.pid = swapped.pid!;
    swapped.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    for (let i = 0; i < 200 && !out.split('\n').includes('ready'); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /^ready$/m, 'the second lab window came up');

    const res = await lab.computer.tools.act({ actions: [{ ref: agree, op: 'toggle' }] });
    assert.equal(res.isError, true, res.text);
    assert.equal(res.code, 'stale_ref', res.text);
    assert.match(
      res.text,
      new RegExp(`failed toggle ${agree} · stale_ref: Ref ${agree} belonged to a window that is closed`),
      res.text,
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.doesNotMatch(out, /agree/, 'the new process received no toggle');
    // The audit's last record is the failed act, nothing dispatched after the swap.
    const done = readFileSync(lab.auditPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { phase?: string; receipt?: string });
    assert.equal(
      done.filter((r) => r.phase === 'done' && r.receipt !== 'failed').length,
      1,
      'only the first toggle was carried out',
    );

    // The new window, once observed, is acted on as usual.
    const again = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const fresh = refOn(again, /checkbox "Agree"/);
    assert.notEqual(fresh, agree, 'another process: another element, another ref');
    ok(await lab.computer.tools.act({ actions: [{ ref: fresh, op: 'toggle' }] }));
    for (let i = 0; i < 50 && !/agree on/.test(out); i++) await new Promise((r) => setTimeout(r, 100));
    assert.match(out, /^agree on$/m);
  } finally {
    await lab.close();
    if (other.pid) await killApp(other.pid);
  }
});

test('a window retitled to a denied title between observe and ' +
    'act: the driver sees it, the policy refuses, nothing sent', async () => {
  const lab = await startLab();
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const agree = refOn(snap, /checkbox "Agree"/);
    ok(await lab.computer.tools.act({ actions: [{ ref: agree, op: 'toggle' }] }));
    await lab.printed('agree on');
    lab.app.kill('SIGUSR2');
    await lab.printed('retitled');
    const res = await lab.computer.tools.act({ actions: [{ ref: agree, op: 'toggle' }] });
    assert.equal(res.isError, true, res.text);
    assert.equal(res.code, 'denied_by_policy', res.text);
    assert.doesNotMatch(res.text, /KeePassXC/, 'a denied window is unseen: its title is not shown');
    await new Promise((r) => setTimeout(r, 300));
    assert.doesNotMatch(lab.out(), /agree off/, 'the retitled window received no toggle');
  } finally { await lab.close(); }
});
