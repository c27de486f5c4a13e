/**
 * AT-SPI Text reading (src/drivers/linux/tree/text.ts) against a fake bus that answers like the real toolkits:
 * Gecko's GetText answers "" to a range past the end, a terminal is named "Terminal", Evince's pages have the
 * `page` role, a password field must never be asked for its text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { A11yBus, Target } from '../../src/drivers/linux/bus/bus.js';
import { ATSPI_ROLES, ATSPI_STATES } from '../../src/drivers/linux/bus/atspi-constants.generated.js';
import { readElement, toRawNode } from '../../src/drivers/linux/tree/reader.js';
import { findText, readRange, TEXT_BODY_CAP, TEXT_CHUNK, TextBudget } from '../../src/drivers/linux/tree/text.js';

interface FakeNode {
  role: string;
  name?: string;
  states: string[];
  text?: string;
  caret?: number;
  selection?: [number, number];
}

/** A bus over a map of path → node; records every Text call. */
function fakeBus(nodes: Record<string, FakeNode>): { bus: A11yBus; calls: string[] } {
  const calls: string[] = [];
  const node = (t: Target): FakeNode => {
    const n = nodes[t.path];
    if (!n) throw Object.assign(new Error('gone'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    return n;
  };
  const stateWords = (states: string[]): number[] => {
    const w = [0, 0];
    for (const s of states) { const i = ATSPI_STATES.indexOf(s); w[i >> 5]! |= 1 << (i & 31); }
    return w.map((x) => x >>> 0);
  };
  const bus = {
    async call(t: Target, iface: string, member: string, _sig = '', body: unknown[] = []): Promise<unknown[]> {
      const n = node(t);
      if (iface.endsWith('Text')) calls.push(`${t.path} ${member}${body.length ? `(${body.join(',')})` : ''}`);
      switch (member) {
        case 'GetRole': return [ATSPI_ROLES.indexOf(n.role)];
        case 'GetRoleName': return [n.role];
        case 'GetState': return [stateWords(n.states)];
        case 'GetInterfaces':
          return [['org.a11y.atspi.Accessible', ...(n.text !== undefined ? ['org.a11y.atspi.Text'] : [])]];
        case 'GetChildren': return [[]];
        case 'GetText': {
          const [a, b] = body as [number, number];
          const text = n.text ?? '';
          // Gecko: a range past the end reads as nothing at all.
          if (b > text.length || a < 0) return [''];
          return [text.slice(a, b === -1 ? undefined : b)];
        }
        case 'GetSelection': return n.selection ?? [0, 0];
        default: throw new Error(`unexpected ${member}`);
      }
    },
    async getAll(t: Target, iface: string): Promise<Record<string, unknown>> {
      const n = node(t);
      if (iface.endsWith('Text')) {
        calls.push(`${t.path} GetAll`);
        return { CharacterCount: (n.text ?? '').length, CaretOffset: n.caret ?? -1 };
      }
      return { Name: n.name ?? '', Description: '', ChildCount: 0, AccessibleId: '' };
    },
    async getProp(t: Target, iface: string, prop: string): Promise<unknown> {
      const n = node(t);
      if (prop === 'CharacterCount') return (n.text ?? '').length;
      if (prop === 'CaretOffset') return n.caret ?? -1;
      if (prop === 'ChildCount') return 0;
      throw new Error(`unexpected prop ${iface}.${prop}`);
    },
  } as unknown as A11yBus;
  return { bus, calls };
}

const at = (path: string): Target => ({ dest: ':1.5', path });

test('Gecko paragraph shorter than any fixed read: the whole text, asked by its real length', async () => {
  const { bus, calls } = fakeBus({
    '/p': { role: 'paragraph', states: ['visible', 'showing'], text: 'Your order number is 4711.' },
  });
  const raw = toRawNode(await readElement(bus, at('/p')));
  assert.equal(raw.value, 'Your order number is 4711.');
  assert.equal(raw.valueLength, undefined);
  assert.ok(calls.includes('/p GetText(0,26)'), calls.join('; '));
});

test('a named terminal is read (tail first), with its caret; the budget cuts it and says where it starts', async () => {
  const text = Array.from({ length: 800 }, (_, i) => `row-${i + 1}`).join('\n');
  const { bus } = fakeBus({
    '/t': { role: 'terminal', name: 'Terminal', states: ['visible', 'showing', 'focusable'], text, caret: text.length },
  });
  const raw = toRawNode(await readElement(bus, at('/t')));
  assert.equal(raw.name, 'Terminal');
  assert.equal(raw.valueLength, text.length);
  assert.equal(raw.valueStart, text.length - TEXT_BODY_CAP);
  assert.ok(raw.value!.endsWith('row-800'));
  assert.equal(raw.caret, text.length);
});

test('Evince pages: the shown page is read, a page scrolled out only counted', async () => {
  const { bus, calls } = fakeBus({
    '/p1': { role: 'page', states: ['visible', 'showing', 'focusable'], text: 'Page one.' },
    '/p2': { role: 'page', states: ['visible', 'focusable'], text: 'Page two says hello.' },
  });
  const p1 = toRawNode(await readElement(bus, at('/p1')));
  const p2 = toRawNode(await readElement(bus, at('/p2')));
  assert.equal(p1.role, 'page');
  assert.equal(p1.value, 'Page one.');
  assert.equal(p2.value, '');
  assert.equal(p2.valueLength, 20);
  assert.ok(!calls.some((c) => c.startsWith('/p2 GetText')), calls.join('; '));
});

test('the snapshot budget bounds the text read in all; each node still gets a little', async () => {
  const long = 'x'.repeat(3000);
  const nodes: Record<string, FakeNode> = {};
  for (let i = 0; i < 40; i++) nodes[`/n${i}`] = { role: 'paragraph', states: ['visible', 'showing'], text: long };
  const { bus } = fakeBus(nodes);
  const budget = new TextBudget(10_000);
  let read = 0;
  for (let i = 0; i < 40; i++) read += toRawNode(await readElement(bus, at(`/n${i}`), { text: budget })).value!.length;
  assert.ok(read <= 10_000 + 40 * 200, `read ${read}`);
  assert.ok(read >= 10_000, `read ${read}`);
});

test('a password field: only its length is asked (it reads ' +
    '••••), never its text; text.read / text.find refuse it', async () => {
  const { bus, calls } = fakeBus({
    '/pw': {
      role: 'password text',
      states: ['visible', 'showing', 'editable', 'focused'],
      text: 'hunter2-secret',
      caret: 14,
      selection: [0, 14],
    },
  });
  const raw = toRawNode(await readElement(bus, at('/pw')));
  assert.equal(raw.value, '••••');
  assert.equal(raw.valueLength, undefined);
  assert.equal(raw.caret, undefined);
  assert.equal(raw.selection, undefined);
  assert.equal(calls.length, 0, calls.join('; '));
  await assert.rejects(readRange(bus, at('/pw'), 0, 100), /password/);
  await assert.rejects(findText(bus, at('/pw'), 'hunter', 5), /password/);
  assert.ok(!calls.some((c: string) => c.includes('GetText')), calls.join('; '));
});

test('a GTK 4 entry reports visible but never showing: its text is read (a set_value read back as "")', async () => {
  // The states gnome-text-editor's Save As name field reports (GTK 4.8), with the path set_value put there.
  const { bus } = fakeBus({
    '/n': {
      role: 'text',
      name: 'Name:',
      states: ['editable', 'focusable', 'focused', 'sensitive', 'visible'],
      text: '/tmp/eval/packing.txt',
      caret: 0,
    },
  });
  const raw = toRawNode(await readElement(bus, at('/n')));
  assert.equal(raw.value, '/tmp/eval/packing.txt');
  assert.equal(raw.valueLength, undefined);
});

test('a GTK 4 read-only entry (a hex editor\'s conversion pane) shows its text as the value', async () => {
  // Not editable, visible but never showing (GTK 4): it printed no value, so "Hexadecimal: 10" was unreadable.
  const { bus } = fakeBus({ '/hex': { role: 'text', states: ['read only', 'focusable', 'sensitive', 'visible'],
    text: '10' } });
  const raw = toRawNode(await readElement(bus, at('/hex')));
  assert.equal(raw.value, '10');
  assert.ok(raw.states?.includes('readonly'), JSON.stringify(raw.states));
});

test('an editable field: caret and selection', async () => {
  const { bus } = fakeBus({
    '/e': {
      role: 'entry',
      states: ['visible', 'showing', 'editable', 'focusable', 'focused'],
      text: 'hello world',
      caret: 5,
      selection: [0, 5],
    },
  });
  const raw = toRawNode(await readElement(bus, at('/e')));
  assert.equal(raw.value, 'hello world');
  assert.equal(raw.caret, 5);
  assert.deepEqual(raw.selection, [0, 5]);
});

test('text.read: a clamped range, with the line it starts on', async () => {
  const text = 'alpha\nbeta\ngamma\ndelta';
  const { bus } = fakeBus({ '/d': { role: 'document frame', states: ['visible', 'showing'], text } });
  const r = await readRange(bus, at('/d'), 11, 1000);
  assert.equal(r.text, 'gamma\ndelta');
  assert.equal(r.start, 11);
  assert.equal(r.length, text.length);
  assert.equal(r.startLine, 3);
});

test('text.find: line and offset in the whole text, across chunk edges', async () => {
  const filler = 'a\n'.repeat(TEXT_CHUNK / 2 - 2);
  const text = `${filler}xxneedle here\n${'b'.repeat(10)}needle again`;
  const { bus } = fakeBus({ '/d': { role: 'document frame', states: ['visible', 'showing'], text } });
  const r = await findText(bus, at('/d'), 'NEEDLE', 10);
  assert.equal(r.matches.length, 2);
  assert.equal(r.matches[0]!.offset, text.indexOf('needle'));
  assert.equal(r.matches[0]!.line, TEXT_CHUNK / 2 - 1);
  assert.equal(r.matches[0]!.snippet, 'xxneedle here');
  assert.equal(r.matches[1]!.offset, text.lastIndexOf('needle'));
  assert.equal(r.matches[1]!.line, TEXT_CHUNK / 2);
});

test('text.find is no oracle for masked secrets: a match inside a token is dropped', async () => {
  const token = 'ghp_Abcdefghijklmnopqrstuvwxyz0123456789';
  const { bus } = fakeBus({
    '/d': { role: 'document frame', states: ['visible', 'showing'], text: `export TOKEN=${token}\necho ghp_ done` },
  });
  const r = await findText(bus, at('/d'), 'ghp_Abc', 10);
  assert.equal(r.matches.length, 0, JSON.stringify(r.matches));
  const plain = await findText(bus, at('/d'), 'ghp_', 10);
  assert.deepEqual(plain.matches.map((m) => m.line), [2]);
});

test('a nameless live region (Gecko\'s role=status paragraph, ' +
    'an alert) is read: its text was lost as a bare statusbar', async () => {
  const { bus } = fakeBus({
    '/s': { role: 'status bar', states: ['visible', 'showing'], text: 'Deleted message #4321 (code 877)' },
    '/a': { role: 'alert', states: ['visible', 'showing'], text: 'Disk almost full' },
    '/big': { role: 'status bar', states: ['visible', 'showing'], text: 'x'.repeat(1_000_000) },
  });
  assert.equal(toRawNode(await readElement(bus, at('/s'))).value, 'Deleted message #4321 (code 877)');
  assert.equal(toRawNode(await readElement(bus, at('/a'))).value, 'Disk almost full');
  // A 1 MB status text is cut to the node's cap and says its length.
  const big = toRawNode(await readElement(bus, at('/big')));
  assert.ok((big.value?.length ?? 0) <= 2000, String(big.value?.length));
  assert.equal(big.valueLength, 1_000_000);
});
