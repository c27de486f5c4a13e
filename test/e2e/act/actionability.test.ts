/**
 * On a real GTK3 window (test/apps/act-lab.py): acts wait until their element
 * can take them, a disabled element fails with nothing sent, receipts compare against the state at dispatch,
 * and re-created rows keep their refs so the diff shows only the real change.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { lineOf, ok, refOn } from '../helpers.js';
import { startLab } from './lab.js';

test('a click waits until a button an app timer enables ' +
    '(500 ms after typing) can take it, then clicks it', async () => {
  const lab = await startLab();
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const name = refOn(snap, /textbox "Name"/);
    const save = refOn(snap, /button "Save"/);
    assert.match(lineOf(snap, save) ?? '', /disabled/);
    // One call: the click goes out right after the set_value, while Save is still disabled.
    const res = ok(
      await lab.computer.tools.act({
        actions: [
          { ref: name, op: 'set_value', value: 'report' },
          { ref: save, op: 'click' },
        ],
      }),
    );
    // A click on a Save still disabled is refused (element_disabled): the click is ok only because it waited, or
    // because the set_value took longer than the app's 500 ms on a loaded machine (then there was nothing to wait for).
    assert.match(res, new RegExp(`ok click ${save} · \\w+ \\(`), res);
    if (!/waited \d+ ms until it was actionable/.test(res)) assert.match(res, /button "Save" disabled → enabled/, res);
    await lab.printed('saved report', 5000);
  } finally { await lab.close(); }
});

test('a button that stays disabled fails with element_disabled, its state attached, and nothing is sent', async () => {
  const lab = await startLab({ actionTimeoutMs: 1000 });
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const never = refOn(snap, /button "Never"/);
    const t0 = performance.now();
    const res = await lab.computer.tools.act({ actions: [{ ref: never, op: 'click' }] });
    const ms = performance.now() - t0;
    assert.equal(res.isError, true, res.text);
    assert.equal(res.code, 'element_disabled', res.text);
    assert.match(
      res.text,
      /failed click .* element_disabled: .*"Never" stayed disabled .*nothing was sent\. Its state now: .*disabled/,
    );
    assert.ok(ms >= 900, `it gave up after ${Math.round(ms)} ms, before its 1000 ms bound`);
    // The audit says the act failed before dispatch; the app never saw a click.
    assert.match(readFileSync(lab.auditPath, 'utf8'), /"phase":"done".*"receipt":"failed","detail":"element_disabled"/);
    assert.doesNotMatch(lab.out(), /never clicked/);
  } finally { await lab.close(); }
});

test('a toggle is judged against the state at dispatch: a box flipped by someone else since the observe', async () => {
  const lab = await startLab();
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const agree = refOn(snap, /checkbox "Agree"/);
    assert.match(lineOf(snap, agree) ?? '', /\bunchecked\b/);
    lab.app.kill('SIGUSR1'); // "the user" checks it after the model looked
    await lab.printed('flipped on');
    const res = ok(await lab.computer.tools.act({ actions: [{ ref: agree, op: 'toggle' }] }));
    await lab.printed('agree off');
    assert.match(
      res,
      new RegExp(
        `ok toggle ${agree} · confirmed \\(.*now unchecked \\(it was checked at dispatch, not unchecked as ` +
          `last observed\\)`,
      ),
      res,
    );
  } finally { await lab.close(); }
});

test('rows re-created with the same content keep their refs: the diff shows only the real change', async () => {
  const lab = await startLab();
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const rebuild = refOn(snap, /button "Rebuild"/);
    const item5 = refOn(snap, /label "item 5"/);
    const res = ok(await lab.computer.tools.act({ actions: [{ ref: rebuild, op: 'click' }] }));
    await lab.printed('rebuilt 1');
    assert.match(res, /~ \[e\d+\] label name "Rebuilt 0 times" → "Rebuilt 1 times"/);
    const noise = res.split('\n').filter((l) => /^[+-] /.test(l) || /more changes/.test(l));
    assert.deepEqual(noise, [], `the rebuilt rows showed as changes:\n${res}`);
    const again = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    assert.equal(refOn(again, /label "item 5"/), item5, 'the re-created row lost its ref');
  } finally { await lab.close(); }
});

test('a scroll of a tree view moves its pane\'s scroll bar, is confirmed by it, and moves no selection', async () => {
  const lab = await startLab();
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const rows = refOn(snap, /table "Rows"/);
    const res = ok(await lab.computer.tools.act({ actions: [{ ref: rows, op: 'scroll', value: 'down' }] }));
    assert.match(
      res,
      new RegExp(`ok scroll ${rows} · confirmed \\(scroll bar Value 0 → [\\d.]+; scroll bar 0 → [\\d.]+\\)`),
      res,
    );
    assert.match(res, /~ \[e\d+\] scrollbar value "0" → "[\d.]+"/, res);
    assert.doesNotMatch(lab.out(), /selected/, 'the scroll selected a row');
  } finally { await lab.close(); }
});

test('a button on a tab switched away is not_visible and is not clicked; back on its tab it is', async () => {
  const lab = await startLab({ actionTimeoutMs: 800 });
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Act lab' }));
    const hello = refOn(snap, /button "Hello"/);
    const two = refOn(snap, /tab "Two"/);
    const one = refOn(snap, /tab "One"/);
    ok(await lab.computer.tools.act({ actions: [{ ref: two, op: 'select' }] }));
    const res = await lab.computer.tools.act({ actions: [{ ref: hello, op: 'click' }] });
    assert.equal(res.code, 'not_visible', res.text);
    assert.match(res.text, /not showing .*nothing was sent/);
    ok(await lab.computer.tools.act({ actions: [{ ref: one, op: 'select' }, { ref: hello, op: 'click' }] }));
    await lab.printed('hello');
    assert.equal(lab.out().split('\n').filter((l) => l === 'hello').length, 1, lab.out());
  } finally { await lab.close(); }
});
