/**
 * The AX role map, states and ops, on AX trees assembled by hand (test/fixtures/macos/web-and-lists.json: a
 * web form in a browser window and a Finder-like outline, table and tab group; labelled as assembled), read
 * through the driver and the fake AX library, then rendered by the engine.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { MacDriver } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';
import { axRole, SUBROLE_MAP } from '../../src/drivers/macos/roles.js';
import type { RawNode } from '../../src/engine/node.js';
import { ROLES } from '../../src/engine/role.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { assertBalanced, buildFakeAx, fakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const LIB = buildFakeAx();
const fake = fakeAx(LIB);
let driver: MacDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
  assertBalanced(fake);
});

function read(app: string): RawNode[] {
  fake.load(join(MACOS_FIXTURES, 'web-and-lists.json'));
  driver = new MacDriver({ libraries: oneLibrary(LIB) });
  const w = driver.apps().find((a) => a.name === app)!.windows[0]!;
  const all: RawNode[] = [];
  const walk = (n: RawNode): void => { all.push(n); for (const c of n.children ?? []) walk(c); };
  walk(driver.snapshot({ window: w.id }).root);
  return all;
}
const byName = (nodes: RawNode[], name: string): RawNode => {
  const n = nodes.find((x) => x.name === name);
  assert.ok(n, `a node named ${name}`);
  return n;
};

test('every mapped role is a unified role; subroles refine their role', () => {
  for (const r of Object.values(SUBROLE_MAP)) assert.ok((ROLES as readonly string[]).includes(r), r);
  assert.equal(axRole('AXCheckBox', 'AXSwitch'), 'switch');
  assert.equal(axRole('AXRadioButton', 'AXTabButton'), 'tab');
  assert.equal(axRole('AXRow', 'AXOutlineRow'), 'treeitem');
  assert.equal(axRole('AXWindow', 'AXDialog'), 'dialog');
  assert.equal(axRole('AXTextField', 'AXSecureTextField'), 'textbox');
  assert.equal(axRole('AXGroup', undefined, 'list'), 'listitem');
  assert.equal(axRole('AXNoSuchRole', undefined), 'generic');
});

test('a web form: document, heading, link, fields, password, switch, radios, popup, slider, list items, dialog', () => {
  const nodes = read('Browser');
  const role = (name: string): string => byName(nodes, name).role;
  assert.equal(nodes.find((n) => n.nativeRole === 'AXWebArea')?.role, 'document');
  assert.equal(role('Create an account'), 'heading');
  assert.equal(role('Terms'), 'link');
  const email = byName(nodes, 'Email');
  assert.equal(email.role, 'textbox');
  assert.ok(email.states.includes('required') && email.states.includes('editable'));
  assert.deepEqual(email.actions.sort(), ['clear', 'focus', 'set_value', 'type']);
  const pw = byName(nodes, 'Password');
  assert.deepEqual([pw.value, pw.states.includes('password')], ['••••', true]);
  const sw = byName(nodes, 'Newsletter');
  assert.deepEqual([sw.role, sw.states.includes('checked'), sw.actions.sort()], ['switch', true, ['click', 'toggle']]);
  assert.deepEqual(
    [
      role('Personal'),
      byName(nodes, 'Personal').states.includes('checked'),
      byName(nodes, 'Business').states.includes('checked'),
    ],
    ['radio', true, false],
  );
  const country = byName(nodes, 'Country');
  assert.deepEqual([country.role, country.value, country.states.includes('collapsed')], ['combobox', 'Norway', true]);
  assert.ok(country.actions.includes('expand'));
  const age = byName(nodes, 'Age');
  assert.deepEqual([age.role, age.value, age.range], ['slider', '30', { min: 18, max: 99 }]);
  assert.ok(age.actions.includes('set_value'));
  assert.deepEqual([role('One'), role('Two')], ['listitem', 'listitem']);
  assert.equal(role('Cookies'), 'dialog');
  assert.ok(byName(nodes, 'Accept').states.includes('disabled'));
  assert.ok(byName(nodes, 'Hidden').states.includes('offscreen'));
  const text = buildSnapshot({ window: driver!.apps()[0]!.windows[0]!, root: { ...nodes[0]! } }, new RefTable()).text;
  assert.doesNotMatch(text, /s3cret/);
});

test('Chromium-style apps are asked for their full tree once (AXManualAccessibility settable here)', () => {
  read('Browser');
  assert.equal(fake.log().match(/set AXApplication AXManualAccessibility=true/g)?.length, 1);
});

test('Finder-like: tabs, an outline row (collapsed, expandable, ' +
    'selectable), a table row, and a rename by value', async () => {
  const nodes = read('Finder');
  const tab = byName(nodes, 'Documents');
  assert.ok(
    nodes.some((n) => n.role === 'tab' && n.name === 'Documents' && n.states.includes('selected')),
    JSON.stringify(tab),
  );
  assert.equal(nodes.find((n) => n.nativeRole === 'AXTabGroup')?.role, 'tablist');
  const row = nodes.find((n) => n.nativeRole === 'AXRow/AXOutlineRow')!;
  assert.deepEqual([row.role, row.states.includes('collapsed')], ['treeitem', true]);
  assert.deepEqual(row.actions.sort(), ['click', 'collapse', 'expand', 'select']);
  assert.equal(nodes.find((n) => n.nativeRole === 'AXRow/AXTableRow')?.role, 'row');
  assert.equal(nodes.find((n) => n.nativeRole === 'AXCell')?.role, 'cell');
  const r = await driver!.act({ id: row.id, op: 'expand' });
  assert.ok(r.after?.states.includes('expanded'));
  const field = nodes.find((n) => n.stableId === 'name')!;
  const renamed = await driver!.act({ id: field.id, op: 'set_value', value: 'Reports 2026' });
  assert.equal(renamed.after?.value, 'Reports 2026');
  assert.match(fake.log(), /set row-folder AXDisclosing=true\nset name-field AXValue=Reports 2026/);
});
