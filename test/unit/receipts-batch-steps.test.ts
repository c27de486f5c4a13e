/**
 * Each step of a batch is judged on what that step did. The settled snapshot is read once after the last step, and
 * a later step may hide or undo what an earlier one showed: Mousepad's preferences read `ok toggle e5 · unknown`
 * for a check box whose state flipped, because the next step (a tab click) hid it; xfce4-terminal's "Edit" menu read
 * `unknown` because the click on its entry closed the menu it opened. The driver's reads of the element at dispatch
 * and right after the act (`before`, `after`) are the step's own evidence.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { RawNode } from '../../src/engine/node.js';
import { verifyReceipts, type ActionReceipt } from '../../src/session/receipts.js';
import { n, type Fixture } from '../fixtures/engine/build.js';

/** Preferences with a tab list: the View page's check box shows only while `view` is selected. */
function prefs(view: boolean, checked: boolean): Fixture {
  return {
    window: { id: 'w', title: 'Preferences', app: 'mousepad', pid: 1, role: 'dialog', focused: true },
    root: n(':1.1', 1, 'dialog', { name: 'Preferences' }, [
      n(':1.1', 2, 'tablist', {}, [
        n(':1.1', 3, 'tab', { name: 'View', states: view ? ['selected'] : [] }, view
          ? [n(':1.1', 5, 'checkbox', { name: 'Show line numbers', states: checked ? ['checked'] : [] })]
          : []),
        n(':1.1', 4, 'tab', { name: 'Editor', states: view ? [] : ['selected'] }, view
          ? []
          : [n(':1.1', 6, 'checkbox', { name: 'Enable automatic indentation' })]),
      ]),
    ]),
  };
}

const raw = (role: RawNode['role'], states: string[]): RawNode =>
  ({ id: 'x', role, states, children: [] }) as unknown as RawNode;

test('a toggle whose check box the next step hid: confirmed by the driver\'s read right after it', () => {
  const refs = new RefTable();
  const before = buildSnapshot(prefs(true, false), refs);
  const box = before.elements.find((l) => l.role === 'checkbox')!.ref;
  const tab = before.elements.find((l) => l.name === 'Editor')!.ref;
  const after = buildSnapshot(prefs(false, true), refs);
  const toggle = { ref: box, op: 'toggle', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('checkbox', []), after: raw('checkbox', ['checked']) } as ActionReceipt;
  const click = { ref: tab, op: 'click', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('tab', []), after: raw('tab', ['selected']) } as ActionReceipt;
  verifyReceipts([toggle, click], before, after);
  assert.equal(toggle.status, 'confirmed', toggle.detail);
  assert.match(toggle.detail, /now checked, read right after it/);
  assert.equal(click.status, 'confirmed', click.detail);
});

test('a toggle the driver read unflipped, then hidden: still unknown (no evidence either way)', () => {
  const refs = new RefTable();
  const before = buildSnapshot(prefs(true, false), refs);
  const box = before.elements.find((l) => l.role === 'checkbox')!.ref;
  const after = buildSnapshot(prefs(false, false), refs);
  const toggle = { ref: box, op: 'toggle', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('checkbox', []), after: raw('checkbox', []) } as ActionReceipt;
  verifyReceipts([toggle], before, after);
  assert.equal(toggle.status, 'unknown');
});

/** A terminal's menu bar: "Edit" selected with its entries while `open`. */
function terminal(open: boolean): Fixture {
  return {
    window: { id: 'w', title: 'Terminal', app: 'xfce4-terminal', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Terminal' }, [
      n(':1.1', 2, 'menubar', {}, [
        n(':1.1', 3, 'menu', { name: 'File' }),
        n(':1.1', 4, 'menu', { name: 'Edit', states: open ? ['selected'] : [] }, open
          ? [n(':1.1', 5, 'menuitem', { name: 'Copy' }), n(':1.1', 6, 'menuitem', { name: 'Preferences...' })]
          : []),
      ]),
    ]),
  };
}

test('a menu click whose menu the next step closed: confirmed as its menu opening, read right after it', () => {
  const refs = new RefTable();
  buildSnapshot(terminal(true), refs);
  const before = buildSnapshot(terminal(false), refs);
  const edit = before.elements.find((l) => l.name === 'Edit')!.ref;
  const after = buildSnapshot(terminal(false), refs);
  const menu = { ref: edit, op: 'click', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('menu', []), after: raw('menu', ['selected']) } as ActionReceipt;
  const entry = { ref: 'e99', op: 'click', status: 'unknown', detail: 'Action.DoAction(0) "Click"' } as ActionReceipt;
  verifyReceipts([menu, entry], before, after);
  assert.equal(menu.status, 'confirmed', menu.detail);
  assert.match(menu.detail, /its menu opened, read right after it/);
});

test('a menu click alone: confirmed with what opened, its entries counted', () => {
  const refs = new RefTable();
  const before = buildSnapshot(terminal(false), refs);
  const edit = before.elements.find((l) => l.name === 'Edit')!.ref;
  const after = buildSnapshot(terminal(true), refs);
  const menu = { ref: edit, op: 'click', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('menu', []), after: raw('menu', ['selected']) } as ActionReceipt;
  verifyReceipts([menu], before, after);
  assert.equal(menu.status, 'confirmed', menu.detail);
  assert.match(menu.detail, /its menu opened, 2 entries/);
});

test('the last step is judged by the settled snapshot, not by the read right after it (an app may undo it)', () => {
  const refs = new RefTable();
  const before = buildSnapshot(prefs(true, false), refs);
  const box = before.elements.find((l) => l.role === 'checkbox')!.ref;
  const after = buildSnapshot(prefs(true, false), refs);
  const toggle = { ref: box, op: 'toggle', status: 'unknown', detail: 'Action.DoAction(0) "Click"',
    before: raw('checkbox', []), after: raw('checkbox', ['checked']) } as ActionReceipt;
  verifyReceipts([toggle], before, after);
  assert.equal(toggle.status, 'unknown');
});
