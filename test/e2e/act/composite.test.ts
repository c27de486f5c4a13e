/**
 * A click on a control that has no action of its own but wraps clickable ones (test/apps/composite.py): GNOME
 * Calculator's mode button (a GTK 4 GtkMenuButton, no Action, one child button with "click") answered
 * `unsupported` to a model in the loop. One clickable child that fills it takes the click, and the receipt says so;
 * several are never guessed between: the error names their refs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ok, refOn } from '../helpers.js';
import { COMPOSITE, startLab } from './lab.js';

test('a click on a button without an action goes to its only ' +
    'clickable child that fills it, and the receipt names the child', async () => {
  const lab = await startLab({}, COMPOSITE);
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Composite lab' }));
    const mode = refOn(snap, /button description="Mode selection"/);
    const advanced = refOn(snap, /button "Advanced"/);
    const res = ok(await lab.computer.tools.act({ actions: [{ ref: mode, op: 'click' }] }));
    assert.match(
      res,
      new RegExp(`^ok click ${mode} · \\w+ \\(.*via its child \\[${advanced}\\] button "Advanced"`, 'm'),
      res,
    );
    await lab.printed('clicked Advanced', 5000);
  } finally { await lab.close(); }
});

test('a click on a button without an action around several ' +
    'clickable children fails naming their refs; nothing is clicked', async () => {
  const lab = await startLab({}, COMPOSITE);
  try {
    const snap = ok(await lab.computer.tools.observe({ full: true, window: 'Composite lab' }));
    const tools = refOn(snap, /button description="Edit tools"/);
    const cut = refOn(snap, /button "Cut"/);
    const copy = refOn(snap, /button "Copy"/);
    const res = await lab.computer.tools.act({ actions: [{ ref: tools, op: 'click' }] });
    assert.equal(res.isError, true, res.text);
    assert.equal(res.code, 'unsupported', res.text);
    assert.match(
      res.text,
      new RegExp(`failed click ${tools} · unsupported: .*\\[${cut}\\] button "Cut", \\[${copy}\\] button "Copy"`),
      res.text,
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.doesNotMatch(lab.out(), /clicked/, lab.out());
  } finally { await lab.close(); }
});
