/**
 * UIA → protocol mapping (src/drivers/windows/roles.ts, nodes.ts, keys.ts) on assembled UIA trees
 * (test/fixtures/windows/*.assembled.json: written from Microsoft's documentation, not recorded): roles, states,
 * ops from patterns, password redaction (a helper that sends a password's value is not believed), hostile text
 * kept as data, window identity, and wire keys → virtual keys.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { helperChord, MODIFIER_VKS, WINDOWS_VKS } from '../../src/drivers/windows/keys.js';
import {
  parseNodeId,
  parseWindowId,
  toApps,
  toRawNode,
  toWindowInfo,
  type UiaWindow,
} from '../../src/drivers/windows/nodes.js';
import { opsOf, type UiaElement } from '../../src/drivers/windows/roles.js';
import type { RawNode } from '../../src/engine/node.js';
import { NAMED_KEYS } from '../../src/protocol/keys.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(
    readFileSync(fileURLToPath(new URL(`../../../test/fixtures/windows/${name}`, import.meta.url)), 'utf8'),
  ) as Record<string, unknown>;
const settings = toRawNode(fixture('settings.assembled.json')['settings'] as UiaElement, '70000');
const byName = (root: RawNode, name: string): RawNode => {
  const stack = [root];
  while (stack.length) { const n = stack.pop()!; if (n.name === name) return n; stack.push(...(n.children ?? [])); }
  throw new Error(`no node ${name}`);
};

test('control types map to roles; heading level, ToggleSwitch and ' +
    'a modal window refine them; an unknown type is unknown', () => {
  const roles = Object.fromEntries(settings.children!.map((c) => [c.name, c.role]));
  assert.deepEqual(roles, {
    Colors: 'heading',
    'Choose your mode': 'combobox',
    'Transparency effects': 'switch',
    'Show accent color on Start and taskbar': 'checkbox',
    Automatic: 'radio',
    'Text size': 'slider',
    PIN: 'textbox',
    'Empty password': 'textbox',
    Disabled: 'button',
    Display: 'treeitem',
    Leaf: 'treeitem',
    Document: 'document',
    'Custom thing': 'generic',
    'Save As': 'dialog',
    'From the future': 'unknown',
    'line1\nline2\u2028\u001b[31mred': 'text',
  });
  assert.equal(settings.role, 'window');
  assert.equal(byName(settings, 'Dark').role, 'listitem');
  assert.equal(byName(settings, 'From the future').nativeRole, 'ControlType 59999');
  assert.equal(byName(settings, 'Choose your mode').stableId, 'SystemSettings_Personalize_Color_ColorMode_ComboBox');
});

test('states come from the element\'s facts and pattern states', () => {
  const st = (name: string): string[] => byName(settings, name).states;
  assert.deepEqual(st('Choose your mode'), ['collapsed', 'focusable']);
  assert.deepEqual(st('Transparency effects'), ['checked', 'focusable']);
  assert.deepEqual(st('Show accent color on Start and taskbar'), ['mixed', 'focusable']);
  assert.deepEqual(st('Automatic'), ['checked', 'focusable'], 'a selected radio is checked');
  assert.deepEqual(st('Dark'), ['selected', 'offscreen', 'focusable']);
  assert.deepEqual(st('Disabled'), ['disabled', 'focusable']);
  assert.deepEqual(st('Display'), ['expanded', 'focusable']);
  assert.deepEqual(st('Leaf'), ['focusable'], 'a leaf is neither expanded nor collapsed');
  assert.deepEqual(st('Document'), ['readonly', 'multiline', 'focusable']);
  assert.deepEqual(st('Save As'), ['modal', 'focusable']);
  assert.ok(st('PIN').includes('password') && st('PIN').includes('editable'));
});

test('ops are what the patterns offer: Invoke/Toggle/SelectionItem/LegacyIAccessible ' +
    'click, Value set_value, ExpandCollapse, Scroll', () => {
  const ops = (name: string): string[] => [...byName(settings, name).actions].sort();
  assert.deepEqual(ops('Choose your mode'), ['collapse', 'expand', 'focus', 'select']);
  assert.deepEqual(ops('Transparency effects'), ['click', 'focus', 'toggle']);
  assert.deepEqual(ops('Dark'), ['click', 'focus', 'scroll', 'select']);
  assert.deepEqual(ops('Text size'), ['focus', 'set_value']);
  assert.deepEqual(ops('PIN'), ['clear', 'focus', 'set_value', 'type']);
  assert.deepEqual(ops('Document'), ['focus'], 'a read-only document takes no text');
  assert.deepEqual(ops('Custom thing'), ['click', 'focus'], 'MSAA default action as the fallback');
  assert.deepEqual(ops('Leaf'), ['click', 'focus', 'select']);
  assert.deepEqual(ops('Colors'), []);
  assert.deepEqual(byName(settings, 'Text size').range, { min: 100, max: 225, step: 5 });
  assert.equal(byName(settings, 'Text size').value, '100');
});

test('a window with WindowPattern takes close (its title bar\'s close button); an element without it does not', () => {
  assert.ok(opsOf({ rid: '42.1', ct: 50032, name: 'Notepad', patterns: ['window'] }).includes('close'));
  assert.ok(!opsOf({ rid: '42.2', ct: 50000, name: 'OK', patterns: ['invoke'] }).includes('close'));
  // The helper's own dispatch: WindowPattern.Close, declared with the interface's id (compiled by the build test).
  const helper = readFileSync(
    fileURLToPath(new URL('../../../src/drivers/windows/helper/UiaBackend.cs', import.meta.url)),
    'utf8',
  );
  assert.match(helper, /case "close":[^]*?IUIAutomationWindowPattern>\(e, Pattern\.Window\)\.Close\(\)/);
});

test('a password never shows its text: the mask when it holds ' +
    'something, nothing when empty, whatever the helper sent', () => {
  const pin = byName(settings, 'PIN');
  assert.equal(pin.value, '••••');
  assert.ok(!JSON.stringify(settings).includes('hunter2'));
  assert.equal(byName(settings, 'Empty password').value, undefined);
});

test('app text stays data: line breaks, U+2028 and ANSI in a name are kept ' +
    'for the engine\'s one escaping boundary, never split into nodes', () => {
  const n = byName(settings, 'line1\nline2\u2028\u001b[31mred');
  assert.equal(n.role, 'text');
  assert.equal(settings.children!.length, 16);
});

test('handles: hwnd:<n> for windows, <hwnd>:<runtime id> for elements; anything else is refused', () => {
  assert.equal(parseWindowId('hwnd:264462'), '264462');
  assert.deepEqual(parseNodeId('264462:42.264462.4.-7'), { hwnd: '264462', rid: '42.264462.4.-7' });
  for (const bad of ['hwnd:', 'hwnd:12a', 'no-such-window-😀', ' hwnd:1', 'hwnd:1\n', 'x:1', '__proto__'])
    assert.equal(parseWindowId(bad), undefined, bad);
  for (const bad of ['1', '1:', '1:2..3', 'a:1', '1:1;rm', `1:${'1.'.repeat(70)}1`])
    assert.equal(parseNodeId(bad), undefined, bad);
});

test('windows carry the identity the OS proves; an app above the ' +
    'helper\'s integrity (or one it may not open) is marked inaccessible', () => {
  const windows = (
    fixture('notepad.helper.json')['answers'] as { op: string; result: { windows?: UiaWindow[] } }[]
  ).find((a) => a.op === 'windows')!.result.windows!;
  const notepad = toWindowInfo(windows[0]!);
  assert.deepEqual(notepad, {
    id: 'hwnd:264462',
    title: 'Untitled - Notepad',
    app: 'notepad',
    pid: 4812,
    role: 'window',
    focused: true,
    startToken: '134091108001230000',
    executable: 'C:\\Windows\\System32\\notepad.exe',
    appId: 'C:\\Windows\\System32\\notepad.exe',
    user: 'S-1-5-21-1004336348-1177238915-682003330-1001',
    className: 'Notepad',
    bounds: [0, 0, 800, 600],
  });
  const apps = toApps(windows);
  assert.equal(apps.length, 2);
  assert.equal(apps[0]!.inaccessible, undefined);
  assert.match(apps[1]!.inaccessible!.reason, /more privileges/);
  const high: UiaWindow = {
    hwnd: '5',
    title: 'Task Manager',
    process: { pid: 9, image: 'C:\\Windows\\System32\\Taskmgr.exe', integrity: 0x3000 },
  };
  assert.ok(toApps([high])[0]!.inaccessible, 'high integrity over a medium helper');
  assert.equal(toApps([high], 0x3000)[0]!.inaccessible, undefined, 'an elevated helper reaches it');
});

test('every wire key has its virtual key (Primary = Control); letters, ' +
    'digits and space have fixed codes, other characters go to the layout', () => {
  for (const k of NAMED_KEYS)
    assert.ok(Number.isInteger(WINDOWS_VKS[k]) && WINDOWS_VKS[k] > 0 && WINDOWS_VKS[k] < 255, k);
  assert.equal(MODIFIER_VKS.Primary, MODIFIER_VKS.Control);
  assert.deepEqual(helperChord({ mods: ['Primary'], key: 's' }), { vks: [0x11, 0x53] });
  assert.deepEqual(
    helperChord({ mods: ['Primary', 'Control'], key: 'Enter' }),
    { vks: [0x11, 0x0d] },
    'one Control however it was named',
  );
  assert.deepEqual(helperChord({ mods: ['Alt'], key: 'F4' }), { vks: [0x12, 0x73] });
  assert.deepEqual(helperChord({ mods: [], key: 'A' }), { vks: [0x10, 0x41] });
  assert.deepEqual(helperChord({ mods: ['Primary'], key: '+' }), { vks: [0x11], ch: '+' });
  assert.deepEqual(helperChord({ mods: [], key: ' ' }), { vks: [0x20] });
  assert.deepEqual(helperChord({ mods: [], key: '世' }), { vks: [], ch: '世' });
});
