/**
 * Fields that take their value on Return (a spreadsheet's Name Box, a viewer's page box): set_value with `submit`
 * sets the text, focuses the field and presses Return there, judged by the policy's Enter rule like any Enter, and
 * the receipt says whether the field took it. A trial's model set Gnumeric's address box and Evince's page box,
 * then nothing happened; and Return in the address box, which the set_value receipt had recommended, was refused.
 * Also: the audit records the receipt the tool printed (keys confirmed by their visible effect), and a toggle that
 * flipped after the driver's first read does not read "did not flip yet; now checked".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import type { FakeWindow } from '../../src/drivers/fake/driver.js';
import type { RawNode } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { Policy } from '../../src/policy/policy.js';
import { verifyReceipts, type ActionReceipt } from '../../src/session/receipts.js';
import { Session } from '../../src/session/session.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { PolicyFake } from '../fixtures/policy/apps.js';
import { ComputerUseError } from '../../src/protocol/errors.js';

const B = ':1.90';

/**
 * A spreadsheet: a menu with Delete, a tool bar with the Name Box, and the cell cursor's place as a label. `deep`
 * wraps the field as Calc 7.4 does (recorded: toolbar › group › group › generic › group › group › generic ›
 * generic › textbox) and adds a "Delete Decimal Place" button to another tool bar.
 */
function sheetWindow(role: 'window' | 'dialog' = 'window', button = 'Sum', deep = false): FakeWindow {
  const field = n(B, 6, 'textbox', {
    name: 'Name Box',
    value: 'A1',
    states: ['editable', 'focusable'],
    actions: ['set_value', 'type', 'clear', 'focus'],
  });
  const wrapped = deep
    ? [20, 21, 22, 23, 24, 25, 26].reduceRight(
        (inner, id, i) => n(B, id, i % 3 === 2 ? 'generic' : 'group', {}, [inner]),
        field,
      )
    : field;
  const root = n(B, 1, role, { name: 'Book1', states: ['active'] }, [
    n(B, 2, 'menubar', {}, [
      n(B, 3, 'menu', { name: 'Edit' }, [n(B, 4, 'menuitem', { name: 'Delete', actions: ['click'] })]),
    ]),
    n(B, 5, 'toolbar', {}, [wrapped, n(B, 7, 'button', { name: button, actions: ['click'] })]),
    n(B, 8, 'label', { name: 'Cursor at A1' }),
    ...(deep
      ? [
          n(B, 9, 'toolbar', { name: 'Formatting' }, [
            n(B, 10, 'button', { name: 'Delete Decimal Place', actions: ['click'] }),
          ]),
        ]
      : []),
  ]);
  return { info: { id: root.id, title: 'Book1', app: 'sheet', pid: 5151, role, focused: true }, root };
}

function setup(windows: FakeWindow[], mode: 'default' | 'bypass' = 'default') {
  const fake = new PolicyFake(windows);
  const dir = mkdtempSync(join(tmpdir(), 'cu-submit-'));
  const audit = join(dir, 'audit.jsonl');
  const policy = new Policy({ mode, allowApps: ['sheet'], processInfo: () => undefined, hostPids: [], audit,
    settingsPath: join(dir, 'home', 'settings.json'), protectedPaths: [join(dir, 'home')] });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  const call = (name: string, params: unknown) =>
    runTool(
      TOOLS.find((t) => t.schema.name === name)!,
      { session },
      params,
    );
  const find = (id: number): RawNode | undefined => {
    const walk = (x: RawNode): RawNode | undefined =>
      x.id === `${B}/org/a11y/atspi/accessible/${id}` ? x : (x.children ?? []).map(walk).find(Boolean);
    return windows.map((w) => walk(w.root)).find(Boolean);
  };
  // Return in the focused Name Box moves the cell cursor there, as a spreadsheet does.
  fake.onKeys = (p) => {
    const box = find(6);
    if (p.chords?.some((c) => c.key === 'Enter') && box?.states.includes('focused'))
      find(8)!.name = `Cursor at ${box.value ?? ''}`;
  };
  const records = () =>
    readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { fake, session, call, records };
}

const refOf = (text: string, re: RegExp): string => { const m = re.exec(text); assert.ok(m?.[1], text); return m[1]; };

test('set_value with submit in a tool bar field: set, focused, ' +
    'Return sent unasked, the receipt says the view moved', async () => {
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: 'C5', submit: true }] });
  assert.equal(r.code, undefined, r.text);
  assert.match(
    r.text,
    /^ok set_value e\d+ · confirmed \(.*value now reads as set; Return pressed in the field \(synthetic key events\): taken: the view changed/m,
    r.text,
  );
  assert.match(r.text, /Cursor at C5/, r.text);
  assert.ok(!/not applied yet/.test(r.text), r.text);
  assert.ok(s.fake.calls.some((c) => c.method === 'input.keys'), 'Return was sent');
  await s.session.close();
});

test('a tool bar field wrapped in nameless groups (Calc\'s Name Box), ' +
    'in a window with a Delete button: submitted, no question', async () => {
  const s = setup([sheetWindow('window', 'Sum', true)]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: 'C5', submit: true }] });
  assert.equal(r.code, undefined, r.text);
  assert.match(r.text, /^ok set_value e\d+ · confirmed \(.*Return pressed in the field/m, r.text);
  assert.match(r.text, /Cursor at C5/, r.text);
  await s.session.close();
});

test('the same field in a dialog with Pay: the Return is a genuine ' +
    'ask (refused where no one can answer), the text stays set', async () => {
  const s = setup([sheetWindow('dialog', 'Pay')]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: '100', submit: true }] });
  // One action, one outcome line: the text set and the Return refused, said once (not "ok" then "rejected").
  const heads = r.text.split('\n').filter((l) => /^(ok|rejected|failed) /.test(l));
  assert.equal(heads.length, 1, r.text);
  assert.match(
    heads[0]!,
    /^rejected set_value e\d+ · confirmation_required: The text is set in the field .*; the Return after it was not sent: /,
    r.text,
  );
  assert.equal(r.code, 'confirmation_required', r.text);
  assert.ok(!s.fake.calls.some((c) => c.method === 'input.keys'), 'no Return reached the dialog');
  await s.session.close();
});

test('a field whose Return changes nothing: the receipt says the value may not have been taken', async () => {
  const s = setup([sheetWindow()]);
  s.fake.onKeys = () => undefined;
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: 'C5', submit: true }] });
  assert.match(
    r.text,
    /^ok set_value e\d+ · unknown \(.*nothing changed in the window, so the field may not have taken the value/m,
    r.text,
  );
  // One outcome: the set_value's audit record says what its receipt says, not the "confirmed" of the text alone.
  const decided = s.records().filter((x) => x['phase'] === 'decided' && x['op'] === 'set_value');
  const done = s.records().filter((x) => x['phase'] === 'done' && x['id'] === decided[decided.length - 1]?.['id']);
  assert.equal(done.length, 1, JSON.stringify(s.records()));
  assert.equal(done[0]?.['receipt'], 'unknown', JSON.stringify(done[0]));
  await s.session.close();
});

test('a field that searches as typed into: the set changed ' +
    'the view, Return nothing more, the verdict agrees', async () => {
  const w = sheetWindow();
  const s = setup([w]);
  s.fake.onKeys = () => undefined;
  // The view answers the text itself (a search-as-you-type field), not the Return after it.
  s.fake.onAct = (p) => {
    if (p.op === 'set_value') w.root.children![2]!.name = `Found ${p.value ?? ''}`;
  };
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: 'heart', submit: true }] });
  assert.match(r.text, /Found heart/, r.text);
  assert.ok(!/nothing changed in the window/.test(r.text), r.text);
  assert.match(
    r.text,
    /^ok set_value e\d+ · confirmed \(.*Return pressed in the field \(synthetic key events\): taken: the view changed as the text was set/m,
    r.text,
  );
  await s.session.close();
});

test('type with submit: the text typed at the caret, then Return in the field, as set_value\'s submit', async () => {
  // A calculator's expression line: `type "2340*17.5%" --submit` was refused, so the model had to find set_value.
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'type', value: '5', submit: true }] });
  assert.equal(r.code, undefined, r.text);
  assert.match(r.text,
    /^ok type e\d+ · confirmed \(.*Return pressed in the field \(synthetic key events\): taken: the view/m, r.text);
  assert.match(r.text, /Cursor at A15/, r.text);
  await s.session.close();
});

test('type with submit in a dialog with Pay: its Return is asked as set_value\'s is', async () => {
  const s = setup([sheetWindow('dialog', 'Pay')]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [{ ref: box, op: 'type', value: '100', submit: true }] });
  assert.equal(r.code, 'confirmation_required', r.text);
  assert.ok(!s.fake.calls.some((c) => c.method === 'input.keys'), 'no Return reached the dialog');
  await s.session.close();
});

test('a text edit refused by a nameless part of an editable document names the document to use', async () => {
  // A Qt expression editor: the focus sat on a nameless filler inside `document editable`, whose set_value failed
  // "not supported by this filler" while the document took it.
  const part = n(B, 31, 'generic', { states: ['focusable', 'focused'], actions: ['focus'] });
  const edits = ['set_value', 'type', 'clear', 'focus'] as const;
  const doc = n(B, 30, 'document', { states: ['editable', 'focusable'], actions: [...edits] }, [part]);
  const root = n(B, 1, 'window', { name: 'Calc', states: ['active'] }, [doc, n(B, 8, 'label', { name: 'Result' })]);
  const info = { id: root.id, title: 'Calc', app: 'sheet', pid: 5151, role: 'window' as const, focused: true };
  const s = setup([{ info, root }]);
  s.fake.onAct = (p) => {
    if (p.id.endsWith('/31') && p.op === 'set_value') {
      throw new ComputerUseError('unsupported', 'set_value is not supported by this filler.');
    }
  };
  const o = (await s.call('computer_observe', { full: true })).text;
  const docRef = refOf(o, /\[(e\d+)\] document/);
  const partRef = refOf(o, /\[(e\d+)\] generic/);
  const r = await s.call('computer_act', { actions: [{ ref: partRef, op: 'set_value', value: '1+1' }] });
  const named = `set_value is not supported by this filler\\. It is part of the editable document \\[${docRef}\\]: ` +
    `set_value on \\[${docRef}\\] instead`;
  assert.match(r.text, new RegExp(named), r.text);
  await s.session.close();
});

test('submit goes with set_value or type only; nothing runs otherwise', async () => {
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  for (const actions of [
    [{ ref: box, op: 'click', submit: true }],
    [
      { ref: box, op: 'set_value', value: 'C5' },
      { ref: box, op: 'focus', submit: true },
    ],
  ]) {
    const r = await s.call('computer_act', { actions });
    assert.equal(r.code, 'invalid_params', r.text);
  }
  assert.ok(!s.fake.calls.some((c) => c.method === 'node.act'), 'nothing was sent');
  await s.session.close();
});

test('a set_value receipt\'s advice for a tool bar field is accepted when followed: focus, then Return', async () => {
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const set = await s.call('computer_act', { actions: [{ ref: box, op: 'set_value', value: 'C5' }] });
  assert.match(set.text, /repeat the set_value with submit=true/, set.text);
  await s.call('computer_act', { actions: [{ ref: box, op: 'focus' }] });
  const keys = await s.call('computer_keys', { keys: 'Return', app: 'sheet' });
  assert.equal(keys.code, undefined, keys.text);
  assert.match(keys.text, /· confirmed$/m, keys.text);
  // The audit records what the tool printed: keys confirmed by the window's change.
  const done = s.records().filter((r) => r['phase'] === 'done');
  assert.equal(done[done.length - 1]?.['receipt'], 'confirmed', JSON.stringify(done[done.length - 1]));
  await s.session.close();
});

test('a toggle that flipped after the driver\'s first read ' +
    'reads as flipped, not "did not flip yet; now checked"', () => {
  const win = (checked: boolean) => ({
    window: { id: 'w', title: 'Prefs', app: 'prefs', pid: 1, role: 'window' as const, focused: true },
    root: n(':1.1', 1, 'window', { name: 'Prefs' }, [
      n(':1.1', 2, 'checkbox', { name: 'Wrap', states: checked ? ['checked'] : [], actions: ['toggle'] }),
    ]),
  });
  const refs = new RefTable();
  const before = buildSnapshot(win(false), refs);
  const after = buildSnapshot(win(true), refs);
  const ref = after.elements.find((l) => l.role === 'checkbox')!.ref;
  const r = {
    ref,
    op: 'toggle',
    status: 'unknown',
    detail: 'Action.DoAction "toggle"; state did not flip yet',
  } as ActionReceipt;
  verifyReceipts([r], before, after);
  assert.equal(r.status, 'confirmed');
  assert.ok(!/did not flip/.test(r.detail), r.detail);
  assert.match(r.detail, /now checked/, r.detail);
});

test('type with a line break into a word processor\'s paragraph says the breaks ' +
    'stay inside the paragraph; a text field or typed keys say nothing', () => {
  const doc = (value: string, role: RawNode['role'] = 'paragraph') => ({
    window: { id: 'w', title: 'Letter', app: 'writer', pid: 1, role: 'window' as const, focused: true },
    root: n(':1.1', 1, 'window', { name: 'Letter' }, [
      n(':1.1', 2, 'document', { name: 'Letter', states: ['editable'] }, [
        n(':1.1', 3, role, {
          value,
          states: ['editable', 'focused', ...(role === 'textbox' ? ['multiline' as const] : [])],
        }),
      ]),
    ]),
  });
  const receipt = (role: RawNode['role'], method: ActionReceipt['method']): ActionReceipt => {
    const refs = new RefTable();
    const before = buildSnapshot(doc('Dear Ann,', role), refs);
    const after = buildSnapshot(doc('Dear Ann,one\ntwo', role), refs);
    const ref = after.elements.find((l) => l.role === role)!.ref;
    const r = {
      ref,
      op: 'type',
      value: 'one\ntwo',
      status: 'unknown',
      detail: 'EditableText.InsertText',
      ...(method ? { method } : {}),
    } as ActionReceipt;
    verifyReceipts([r], before, after);
    return r;
  };
  assert.match(
    receipt('paragraph', 'pattern').detail,
    /line breaks inside one paragraph .* press Return with computer_keys/,
  );
  assert.doesNotMatch(
    receipt('paragraph', 'synthetic').detail,
    /paragraph/,
    'keys typed: a typed line break is the Enter key',
  );
  assert.doesNotMatch(receipt('textbox', 'pattern').detail, /paragraph/, 'a plain multi-line field');
});

test('submit on every action of one call: each field gets its Return before the next action runs', async () => {
  // A model entered three cells in one call, each with submit; the call was refused (submit only last), and the
  // CLI gave the submit to the last action only, so the first two entries were never committed.
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const cursors: string[] = [];
  const before = s.fake.onKeys!;
  s.fake.onKeys = (p) => { before(p); cursors.push(String(s.session.last.size)); };
  const r = await s.call('computer_act', { actions: [
    { ref: box, op: 'set_value', value: 'C5', submit: true },
    { ref: box, op: 'set_value', value: 'D7', submit: true },
    { ref: box, op: 'focus' },
  ] });
  assert.equal(r.code, undefined, r.text);
  assert.equal(cursors.length, 2, `one Return per submitting action: ${r.text}`);
  assert.equal((r.text.match(/Return pressed in the field/g) ?? []).length, 2, r.text);
  assert.match(r.text, /Cursor at D7/, r.text);
  const acts = s.fake.calls.filter((c) => c.method === 'node.act').map((c) => (c.params as { op: string }).op);
  assert.deepEqual(acts.filter((o) => o === 'set_value').length, 2, acts.join(' '));
  await s.session.close();
});

test('submit on an early action that fails stops the call there: nothing after it runs', async () => {
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  const r = await s.call('computer_act', { actions: [
    { ref: 'e999', op: 'set_value', value: 'C5', submit: true },
    { ref: box, op: 'set_value', value: 'D7', submit: true },
  ] });
  assert.notEqual(r.code, undefined, r.text);
  assert.ok(!s.fake.calls.some((c) => c.method === 'node.act'), 'nothing was sent');
  await s.session.close();
});

/**
 * A Save dialog: its file name field, a completion list that shows as the name is typed, and Save. Its Return
 * closes it only after the app's save handler ran (GTK 4), `closeMs` later: the receipt must say it closed. GTK 4
 * lists the dialog as a `generic` window with no modal state (`gtk4`, recorded from gnome-text-editor 45);
 * `retitle` drops the main window's modified mark at once, before the dialog goes (the app's other window changed).
 */
function saveDialog(closeMs: number, o: { gtk4?: boolean; retitle?: boolean; focused?: boolean } = {}) {
  const main = sheetWindow();
  const D = ':1.90';
  const field = n(D, 31, 'textbox', { name: 'Name', value: '',
    states: ['editable', 'focusable', ...(o.focused ? ['focused' as const] : [])],
    actions: ['set_value', 'type', 'clear', 'focus'] });
  const role = o.gtk4 ? 'generic' : 'dialog';
  const root = n(D, 30, role, { name: 'Save As', states: o.gtk4 ? ['active'] : ['active', 'modal'] }, [
    field, n(D, 32, 'button', { name: 'Save', actions: ['click'] }),
  ]);
  const dialog: FakeWindow = {
    info: { id: root.id, title: 'Save As', app: 'sheet', pid: 5151, role, focused: true },
    root,
  };
  main.info.focused = false;
  const s = setup([main, dialog]);
  s.fake.onAct = (p) => {
    const list = n(D, 41, 'list', {}, [n(D, 42, 'listitem', { name: 'notes' })]);
    if (p.op === 'set_value') root.children!.push(n(D, 40, 'scrollarea', {}, [list]));
  };
  const retitle = () => {
    main.root.name = 'notes.txt';
    main.info.title = 'notes.txt';
  };
  s.fake.onKeys = (p) => {
    if (!p.chords?.some((c) => c.key === 'Enter')) return;
    root.children = root.children!.filter((c) => c.role !== 'scrollarea');
    if (o.retitle) retitle();
    setTimeout(() => {
      s.fake.windows.splice(s.fake.windows.indexOf(dialog), 1);
      main.info.focused = true;
      retitle();
    }, closeMs).unref();
  };
  return s;
}

for (const [what, o] of [
  ['', {}],
  [' (GTK 4: a generic window, not modal)', { gtk4: true }],
  [' whose app retitles its main window before the dialog goes', { retitle: true }],
] as const) {
  test(`submit in a Save dialog${what} that closes once ` +
      `its app saved: the receipt says the dialog closed`, async () => {
    const s = saveDialog(600, o);
    await s.call('computer_observe', { window: 'w1' });
    const field = refOf((await s.call('computer_observe', { window: 'w2' })).text, /\[(e\d+)\] textbox "Name"/);
    const r = await s.call('computer_act', {
      actions: [{ ref: field, op: 'set_value', value: 'notes.txt', submit: true }],
    });
    assert.equal(r.code, undefined, r.text);
    assert.match(r.text, /^window closed: \[w\d+\] "Save As"/m, r.text);
    assert.match(r.text, /a window closed/, r.text);
    // The completion list came with the text and left with the Return: not printed as added, then removed.
    assert.ok(!/listitem "notes"|^- \[/m.test(r.text), r.text);
    await s.session.close();
  });
}

test('computer_keys Return in GTK 4\'s Save dialog: the receipt says the window closed', async () => {
  const s = saveDialog(600, { gtk4: true, focused: true });
  await s.call('computer_observe', { window: 'w2' });
  const r = await s.call('computer_keys', { keys: 'Return', window: 'w2' });
  assert.equal(r.code, undefined, r.text);
  assert.match(r.text, /· confirmed$/m, r.text); // the closing is said once, on its own line
  assert.match(r.text, /^window closed: \[w\d+\] "Save As"/m, r.text);
  await s.session.close();
});

test('Return in an app\'s only window is not waited on for a closing', async () => {
  const s = setup([sheetWindow()]);
  const box = refOf((await s.call('computer_observe', {})).text, /\[(e\d+)\] textbox "Name Box"/);
  await s.call('computer_act', { actions: [{ ref: box, op: 'focus' }] });
  const lists = () => s.fake.calls.filter((c) => c.method === 'apps.list').length;
  const was = lists();
  const r = await s.call('computer_keys', { keys: 'Return' });
  assert.equal(r.code, undefined, r.text);
  // The act lists the windows a few times; a wait for a closing would list them every 100 ms for 2.5 s.
  assert.ok(lists() - was < 8, `${lists() - was} window lists`);
  await s.session.close();
});
