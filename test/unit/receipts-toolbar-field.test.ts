/**
 * A set_value into a toolbar's text field says the text is not applied until Return, and how to send it
 * (session/commit.ts): Calc's Name Box and gnumeric's edit line read `confirmed (…value now reads as set)` while
 * the cursor and the cell stayed as they were until Return, and a model in the eval took the job as done.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import type { RawNode } from '../../src/engine/node.js';
import { verifyReceipts, type ActionReceipt } from '../../src/session/receipts.js';
import { n, type Fixture } from '../fixtures/engine/build.js';

/** A window holding `field` (value `value`) under `holder`, as the toolbar or dialog group it sits in. */
function windowWith(holder: RawNode['role'], value: string, field: Partial<RawNode> = {}): Fixture {
  return {
    window: { id: 'w', title: 'Book', app: 'calc', pid: 1, role: 'window', focused: true },
    root: n(':1.1', 1, 'window', { name: 'Book' }, [
      n(':1.1', 2, holder, { name: 'Formula Tool Bar' }, [
        n(':1.1', 3, 'group', {}, [n(':1.1', 4, 'textbox', { value, states: ['editable'], actions: ['click'], ...field }), n(':1.1', 5, 'button', { name: 'Go' })]),
        n(':1.1', 6, 'button', { name: 'Function Wizard' }),
      ]),
    ]),
  };
}

function setValue(holder: RawNode['role'], field: Partial<RawNode> = {}): ActionReceipt {
  const refs = new RefTable();
  const before = buildSnapshot(windowWith(holder, 'A1', field), refs);
  const after = buildSnapshot(windowWith(holder, 'B80', field), refs);
  const ref = after.elements.find((l) => l.role === 'textbox')!.ref;
  const r = {
    ref,
    op: 'set_value',
    value: 'B80',
    status: 'unknown',
    detail: 'EditableText.SetTextContents',
  } as ActionReceipt;
  verifyReceipts([r], before, after);
  return r;
}

test('a toolbar field set by set_value: confirmed as set, and ' +
    'told it waits for Return, with the acts that send it', () => {
  const r = setValue('toolbar');
  assert.equal(r.status, 'confirmed', r.detail);
  // The way that works first: a model that pressed Return with keys sent it to the focused cell, not the field.
  assert.equal(
    r.detail,
    'EditableText.SetTextContents; value now reads as set; not applied yet: a toolbar field takes its text ' +
      'on Return: ' +
      'repeat the set_value with submit=true (it focuses the field and presses Return there; a Return sent with keys goes to the focused ' +
      'element, not to this field)',
  );
});

test('a field outside a toolbar (a dialog\'s form) or a multi-line one is only confirmed', () => {
  assert.equal(setValue('group').detail, 'EditableText.SetTextContents; value now reads as set');
  assert.equal(
    setValue('toolbar', { states: ['editable', 'multiline'] }).detail,
    'EditableText.SetTextContents; value now reads as set',
  );
});
