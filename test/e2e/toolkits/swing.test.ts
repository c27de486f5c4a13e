/**
 * A Java Swing app (test/apps/Form.java, run as a single source file on OpenJDK 17) started
 * through computer_launch gets the ATK wrapper (assistive_technologies + the wrapper's jar on the boot class
 * path), so it registers; then a form task: set a field, toggle a check box, select a combo item (Swing keeps
 * the items under the popup), click Submit and read the result label.
 */
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, launch, lineOf, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const FORM = join(root, 'test', 'apps', 'Form.java');
let computer: Computer | undefined;
let pid = 0;

after(async () => {
  if (pid) await killApp(pid);
  await computer?.close();
});

test('Swing form: set, toggle, select, click, read the result', async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `java ${FORM}`] });
  const started = await launch(computer, 'java', [FORM]);
  pid = started.pid;
  const text = started.text;
  const name = refOn(text, /textbox "Name"/);
  const box = refOn(text, /checkbox "Subscribe"/);
  const combo = refOn(text, /combobox/);
  const submit = refOn(text, /button "Submit"/);

  const r1 = ok(await computer.tools.act({ actions: [{ ref: name, op: 'set_value', value: 'Ada' }] }));
  assert.match(r1, /confirmed/, r1);
  const r2 = ok(await computer.tools.act({ actions: [{ ref: box, op: 'toggle' }] }));
  assert.match(r2, /\bchecked\b/, r2);
  const r3 = ok(await computer.tools.act({ actions: [{ ref: combo, op: 'select', value: 'Large' }] }));
  assert.match(r3, /"Large"/, r3);
  // An item that is not there names the items that are.
  const bad = await computer.tools.act({ actions: [{ ref: combo, op: 'select', value: 'Huge' }] });
  assert.match(bad.text, /items: "Small", "Medium", "Large"/, bad.text);

  ok(await computer.tools.act({ actions: [{ ref: submit, op: 'click' }] }));
  const after = ok(await computer.tools.observe({ full: true, app: 'Swing Form' }));
  const result = refOn(after, /label "Result:/);
  assert.match(lineOf(after, result) ?? '', /Result: Ada \/ subscribed \/ Large/, after);
});
