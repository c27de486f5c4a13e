/**
 * A GTK 4 list row (GtkListBoxRow, a GtkListView item) has an Action interface with no action in it, a list that
 * selects nothing through Selection (selection mode none: the row is activated by a click), no `showing` state
 * (GTK 4.8 sets it on windows only) and labels whose only actions are their context menu's (`clipboard.copy`).
 * A click on the row answered `unsupported`, a click on its label copied the label, and a focus failed with an
 * empty `internal:` message (GTK 4 answers GrabFocus with an error that has no text). On a fake bus of that shape:
 * the row takes a pointer click at its centre (the receipt says so), a label's context-menu action is never a
 * click, and the focus refusal says what failed and what to do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { act, doNamedAction } from '../../src/drivers/linux/act/actions.js';
import type { LinuxInput } from '../../src/drivers/linux/input/input.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { readElement } from '../../src/drivers/linux/tree/reader.js';
import { busAnswering, type Msg } from './fake-bus.js';

const APP = ':1.31';
const ROOT = '/org/a11y/atspi/accessible/root';
const ACC = 'org.a11y.atspi.Accessible';
const ACTION = 'org.a11y.atspi.Action';
const COMP = 'org.a11y.atspi.Component';
const SEL = 'org.a11y.atspi.Selection';
/** State bits (AT-SPI's enum): active 1, focusable 11, sensitive 24, showing 25, visible 30, enabled 8. */
const bits = (...n: number[]): number[] => [n.reduce((w, b) => w | (1 << b), 0) >>> 0, 0];

interface FakeNode {
  role: number;
  parent: string;
  kids: string[];
  ifaces: string[];
  states: number[];
  actions?: string[];
  ext?: number[];
  name?: string;
}

/** window › list (Selection that selects nothing) › row (no action, no showing) › label (clipboard actions). */
/** `far`: the window also holds a showing cell scrolled out sideways (a GTK 3 app: showing is reported). */
function gtk4Rows(log: string[], far = false) {
  const nodes: Record<string, FakeNode> = {
    [ROOT]: { role: 75, parent: '', kids: ['/win'], ifaces: [ACC], states: bits() },
    '/win': {
      role: 23,
      parent: ROOT,
      kids: far ? ['/list', '/far'] : ['/list'],
      ifaces: [ACC, COMP],
      states: bits(1, 8, 24, 25, 30),
      ext: [0, 0, 400, 300],
      name: 'Add a New World Clock',
    },
    '/list': {
      role: 31,
      parent: '/win',
      kids: ['/row', '/hidden'],
      ifaces: [ACC, ACTION, COMP, SEL],
      states: bits(8, 11, 24, 30),
      actions: [],
      ext: [12, 112, 366, 66],
    },
    '/row': {
      role: 32,
      parent: '/list',
      kids: ['/label'],
      ifaces: [ACC, ACTION, COMP],
      states: bits(8, 11, 24, 30),
      actions: [],
      ext: [14, 114, 362, 62],
    },
    '/hidden': {
      role: 32,
      parent: '/list',
      kids: [],
      ifaces: [ACC, ACTION, COMP],
      states: bits(8, 11, 24, 30),
      actions: [],
      ext: [14, 400, 362, 62],
    },
    // A cell a wide table scrolled out sideways that the toolkit still calls showing (lxtask's PID column).
    '/far': {
      role: 29,
      parent: '/win',
      kids: [],
      ifaces: [ACC, COMP],
      states: bits(8, 24, 25, 30),
      ext: [1300, 120, 60, 20],
      name: '11857',
    },
    '/label': {
      role: 29,
      parent: '/row',
      kids: [],
      ifaces: [ACC, ACTION, COMP],
      states: bits(8, 24, 30),
      actions: ['clipboard.copy', 'selection.select-all'],
      ext: [20, 120, 100, 20],
      name: 'Tokyo',
    },
  };
  const props = (n: FakeNode): Record<string, unknown> => ({
    Name: n.name ?? '',
    Description: '',
    ChildCount: n.kids.length,
    AccessibleId: '',
    Parent: [APP, n.parent],
    NActions: n.actions?.length ?? 0,
  });
  return busAnswering((m: Msg) => {
    if (m.member === 'GetConnectionUnixProcessID') return [4242];
    const n = nodes[m.path];
    if (!n) throw Object.assign(new Error('Unknown object'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    switch (m.member) {
      case 'GetRole': return [n.role];
      case 'GetRoleName':
        return [{ 23: 'frame', 31: 'list', 32: 'list item', 29: 'label', 75: 'application' }[n.role] ?? 'unknown'];
      case 'GetState': return [n.states];
      case 'GetInterfaces': return [n.ifaces];
      case 'GetAll': return [Object.fromEntries(Object.entries(props(n)).map(([k, v]) => [k, { value: v }]))];
      case 'Get': return [{ value: props(n)[String(m.body[1])] }];
      case 'GetChildren': return [n.kids.map((k) => [APP, k])];
      case 'GetIndexInParent': return [nodes[n.parent]?.kids.indexOf(m.path) ?? -1];
      case 'GetExtents': return [n.ext ?? [0, 0, 0, 0]];
      case 'GetActions': return [(n.actions ?? []).map((a) => [a, '', ''])];
      case 'DoAction': log.push(`DoAction ${m.path} ${String(m.body[0])}`); return [true];
      case 'SelectChild': log.push(`SelectChild ${m.path}`); return [false];
      case 'GrabFocus':
        log.push(`GrabFocus ${m.path}`);
        throw Object.assign(new Error(''), { type: 'org.freedesktop.DBus.Error.Failed' });
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
}

/**
 * A pointer that records where it clicked (the driver proves the window on top before; the fake trusts it). The
 * window's X window is at 440,242 with a 5 px margin around what GTK 4 reports at 0,0.
 */
function fakePointer(log: string[]): LinuxInput {
  return {
    available: true,
    xWindowOf: async (w: { pid: number; title: string }) =>
      w.pid === 4242 && w.title === 'Add a New World Clock' ? { id: 7, rect: [440, 242, 410, 310] } : undefined,
    pointer: async (p: { action: string; x: number; y: number }) => {
      log.push(`pointer ${p.action} ${p.x},${p.y}`);
      return `left click at ${p.x},${p.y}`;
    },
  } as unknown as LinuxInput;
}

test('a click on a GTK 4 list row with no action and a list ' +
    'that selects nothing is a pointer click at its centre', async () => {
  const log: string[] = [];
  const r = await act(gtk4Rows(log), fakePointer(log), { id: `${APP}/row`, op: 'click' } as never);
  // GTK 4 reports the row at 195,145 of its window (read at 0,0); the window's client area starts at 445,247.
  assert.deepEqual(log.filter((l) => l.startsWith('pointer')), ['pointer click 640,392']);
  assert.equal(r.method, 'synthetic');
  assert.match(r.detail ?? '', /pointer left click at 640,392/);
});

test('a click on a label never runs its context-menu action (clipboard.copy): it is a pointer click', async () => {
  const log: string[] = [];
  const r = await act(gtk4Rows(log), fakePointer(log), { id: `${APP}/label`, op: 'click' } as never);
  assert.ok(!log.some((l) => l.startsWith('DoAction')), log.join('\n'));
  assert.deepEqual(log.filter((l) => l.startsWith('pointer')), ['pointer click 515,377']);
  assert.match(r.detail ?? '', /pointer/);
});

test('only an action whose name means a click runs for a click; a named action of another kind does not', async () => {
  const log: string[] = [];
  const bus = gtk4Rows(log);
  const label = await readElement(bus, { dest: APP, path: '/label' }, { children: false });
  assert.equal(await doNamedAction(bus, label, ['click', 'press', 'activate'], true, 'click'), null);
  assert.deepEqual(log, []);
});

test('a focus GTK 4 refuses with an empty error says what failed and what to do', async () => {
  const log: string[] = [];
  const e = await act(gtk4Rows(log), fakePointer(log), { id: `${APP}/row`, op: 'focus' } as never).then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ComputerUseError, String(e));
  assert.notEqual(e.code, 'internal');
  assert.match(e.message, /GrabFocus/);
  assert.match(e.message, /click/);
  assert.ok(!log.some((l) => l.startsWith('pointer')), 'a focus sends no click');
});

test('a row scrolled out of its list (its centre outside an ancestor) takes no pointer click', async () => {
  const log: string[] = [];
  const bus = gtk4Rows(log);
  const e = await act(bus, fakePointer(log), { id: `${APP}/hidden`, op: 'click' } as never).then(
    () => undefined,
    (x: unknown) => x,
  );
  assert.ok(e instanceof ComputerUseError && e.code === 'unsupported', String(e));
  assert.deepEqual(log.filter((l) => l.startsWith('pointer')), []);
});

test('an element whose centre lies outside its window takes no pointer click; the refusal says to scroll', async () => {
  const log: string[] = [];
  const e = await act(gtk4Rows(log, true), fakePointer(log), { id: `${APP}/far`, op: 'click' } as never).then(
    () => undefined,
    (x: unknown) => x,
  );
  // Before, the click went on to the pointer (here: a click at 1770,377), whose check blamed "another application's
  // window on top".
  assert.ok(e instanceof ComputerUseError && e.code === 'not_visible', String(e));
  assert.match(e.message, /outside its window/);
  assert.match(e.message, /scroll/);
  assert.deepEqual(log.filter((l) => l.startsWith('pointer')), []);
});
