/** gtk3-widget-factory: toggle, slider, notebook tab and entry, each confirmed by a fresh observe. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Computer } from '../../src/index.js';
import { killApp, launch, lineOf, ok, openComputer, refOn } from './helpers.js';

let computer: Computer;
let pid = 0;
let snapshot = '';

before(async () => {
  computer = await openComputer();
  const launched = await launch(computer, 'gtk3-widget-factory');
  pid = launched.pid;
  snapshot = ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 }));
});
after(async () => {
  await computer?.close();
  if (pid) await killApp(pid);
});

const observe = async (): Promise<string> =>
  ok(await computer.tools.observe({ full: true, app: 'gtk3-widget-factory', maxTokens: 20000 }));

test('toggle a check button', async () => {
  const ref = refOn(snapshot, /\] checkbox "checkbutton" unchecked$/);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'toggle' }] }));
  assert.match(res, new RegExp(`ok toggle ${ref} · confirmed`));
  assert.match(res, new RegExp(`~ \\[${ref}\\] checkbox "checkbutton" unchecked → checked`));
  assert.match(lineOf(await observe(), ref) ?? '', /\bchecked\b/);
  // And back: the ref still names the same element.
  ok(await computer.tools.act({ actions: [{ ref, op: 'toggle' }] }));
  assert.match(lineOf(await observe(), ref) ?? '', /\bunchecked\b/);
});

test('move a slider with set_value', async () => {
  const ref = refOn(snapshot, /\] slider value="\d+" range=1\.\.100$/);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'set_value', value: '75' }] }));
  assert.match(res, /confirmed/);
  assert.match(lineOf(await observe(), ref) ?? '', /value="75"/);
});

test('switch a notebook tab', async () => {
  const ref = refOn(snapshot, /\] tab "page 2"$/);
  const res = ok(await computer.tools.act({ actions: [{ ref, op: 'select' }] }));
  assert.match(res, /confirmed/);
  assert.match(lineOf(await observe(), ref) ?? '', /tab "page 2" selected/);
});

test('type into an entry and replace its text', async () => {
  const ref = refOn(snapshot, /\] textbox value="entry" editable$/);
  const typed = ok(await computer.tools.act({ actions: [{ ref, op: 'type', value: ' + 中文' }] }));
  assert.match(typed, /confirmed/);
  assert.match(lineOf(await observe(), ref) ?? '', /value="entry \+ 中文"/);
  ok(await computer.tools.act({ actions: [{ ref, op: 'set_value', value: 'replaced' }] }));
  assert.match(lineOf(await observe(), ref) ?? '', /value="replaced"/);
});

test('find locates elements by text and role without a full snapshot', async () => {
  const res = ok(await computer.tools.find({ text: 'togglebutton', role: 'button', app: 'gtk3-widget-factory' }));
  assert.match(res, /^4 matches for "togglebutton" role=button/);
  assert.match(res, /\[e\d+\] button "togglebutton"/);
});

test('an unknown ref is an unknown_ref error that says what to do', async () => {
  const res = await computer.tools.act({ actions: [{ ref: 'e99999', op: 'click' }] });
  assert.equal(res.isError, true);
  assert.equal(res.code, 'unknown_ref');
  assert.match(res.text, /Ref e99999 was never given in this session\. Call computer_observe/);
});
