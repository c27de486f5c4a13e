/**
 * Gecko on a fake accessibility bus: EditableText calls that answer true and change nothing
 * are caught by reading the field back and redone by typing (the result names the path, never the text);
 * fields that apply or filter the edit get no keys; text that would leave the field (Tab, Return) is refused
 * before any key; a combo box without Selection is chosen in its opened dropdown, else through its list's
 * Selection, verified; short texts that Gecko reads as "" and a combo's choice show in the snapshot.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { procInfo } from '../../src/common/proc.js';
import { act } from '../../src/drivers/linux/act/actions.js';
import { ATSPI_ROLES, ATSPI_STATES } from '../../src/drivers/linux/bus/atspi-constants.generated.js';
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';
import type { LinuxInput } from '../../src/drivers/linux/input/input.js';
import { readTree } from '../../src/drivers/linux/tree/read-tree.js';
import { walk, type RawNode } from '../../src/engine/node.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import type { Chord } from '../../src/protocol/keys.js';

const APP = ':1.77';
const ROOT = '/org/a11y/atspi/accessible/root';
type Mode = 'ignore' | 'apply' | 'upper';

interface FakeNode {
  role: string;
  name: string;
  states: Set<string>;
  ifaces: string[];
  kids: string[];
  parent: string;
  text?: string;
  caret?: number;
}

const BASE = ['enabled', 'sensitive', 'showing', 'visible'];
const TEXT_IFACES = [
  'org.a11y.atspi.Accessible',
  'org.a11y.atspi.Component',
  'org.a11y.atspi.EditableText',
  'org.a11y.atspi.Text',
];

/** A Firefox-like page: fields whose edits follow `mode`, a paragraph, a <select> with or without a popup. */
/** `frameName`: the window's accessible name; `xTitle`: the title its X window shows (LinuxInput.windowFacts). */
function fakeGecko(
  opts: {
    mode?: Mode;
    popup?: boolean;
    keysApply?: boolean;
    focusDelayMs?: number;
    items?: string[];
    frameName?: string;
    xTitle?: string;
  } = {},
) {
  const mode = opts.mode ?? 'ignore';
  const nodes = new Map<string, FakeNode>();
  const add = (path: string, n: Omit<FakeNode, 'states' | 'kids'> & { states?: string[]; kids?: string[] }): void => {
    nodes.set(path, { ...n, states: new Set([...BASE, ...(n.states ?? [])]), kids: n.kids ?? [] });
  };
  const items = opts.items ?? ['Small', 'Medium', 'Large', 'Extra large'];
  add('/frame', {
    role: 'frame',
    name: opts.frameName ?? 'Order form — Mozilla Firefox',
    ifaces: ['org.a11y.atspi.Accessible'],
    parent: ROOT,
    states: ['active'],
    kids: ['/name', '/pin', '/note', '/para', '/combo'],
  });
  add('/name', {
    role: 'entry',
    name: 'Name',
    ifaces: TEXT_IFACES,
    parent: '/frame',
    states: ['editable', 'focusable', 'single line'],
    text: '',
  });
  add('/pin', {
    role: 'password text',
    name: 'PIN',
    ifaces: TEXT_IFACES,
    parent: '/frame',
    states: ['editable', 'focusable', 'single line'],
    text: '',
  });
  add('/note', {
    role: 'entry',
    name: 'Note',
    ifaces: TEXT_IFACES,
    parent: '/frame',
    states: ['editable', 'focusable', 'multi line'],
    text: 'Hello',
  });
  add('/para', {
    role: 'paragraph',
    name: '',
    ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Text'],
    parent: '/frame',
    text: 'No order yet.',
  });
  add('/combo', {
    role: 'combo box',
    name: 'Size',
    ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Action', 'org.a11y.atspi.Component'],
    parent: '/frame',
    states: ['focusable', 'expandable'],
    kids: ['/menu'],
  });
  add('/menu', {
    role: 'menu',
    name: '',
    ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Selection'],
    parent: '/combo',
    kids: items.map((_, i) => `/item${i}`),
  });
  items.forEach((name, i) =>
    add(`/item${i}`, {
      role: 'menu item',
      name,
      ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Action'],
      parent: '/menu',
      states: i === 0 ? ['selected'] : [],
    }),
  );
  const calls: string[] = [];
  const keys: string[] = [];
  const select = (i: number): void =>
    items.forEach((_, j) => {
      const n = nodes.get(`/item${j}`)!;
      if (i === j) n.states.add('selected');
      else n.states.delete('selected');
    });
  const edit = (n: FakeNode, next: string): void => {
    if (mode === 'apply') n.text = next;
    else if (mode === 'upper') n.text = next.toUpperCase();
  };
  const stateWords = (s: Set<string>): number[] => {
    const w = [0, 0];
    for (const name of s) { const i = ATSPI_STATES.indexOf(name); if (i >= 0) w[i >> 5]! |= 1 << (i & 31); }
    return w.map((x) => x >>> 0);
  };
  const answer = (path: string, member: string, body: unknown[]): unknown[] => {
    if (member === 'GetConnectionUnixProcessID') return [process.pid];
    const n = nodes.get(path);
    if (!n) throw Object.assign(new Error('gone'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    switch (member) {
      case 'GetRole': return [ATSPI_ROLES.indexOf(n.role)];
      case 'GetRoleName': return [n.role];
      case 'GetAll': return [String(body[0]) === 'org.a11y.atspi.Text'
        ? { CharacterCount: { value: [...(n.text ?? '')].length }, CaretOffset: { value: n.caret ?? 0 } }
        : { Name: { value: n.name }, Description: { value: '' }, ChildCount: { value: n.kids.length } }];
      case 'Get': {
        const prop = String(body[1]);
        const v = prop === 'ChildCount' ? n.kids.length : prop === 'Parent' ? [APP, n.parent] : prop === 'Name' ? n.name
          : prop === 'CharacterCount' ? [...(n.text ?? '')].length : prop === 'CaretOffset' ? n.caret ?? 0 : undefined;
        return [{ value: v }];
      }
      case 'GetState': return [stateWords(n.states)];
      case 'GetInterfaces': return [n.ifaces];
      case 'GetChildren': return [n.kids.map((k) => [APP, k])];
      case 'GetChildAtIndex': return [[APP, n.kids[Number(body[0])] ?? '/org/a11y/atspi/null']];
      // Gecko: an end past the text's length reads as "".
      case 'GetText': {
        const [s, e] = body as [number, number];
        const t = n.text ?? '';
        return [e === -1 ? t.slice(s) : e > t.length ? '' : t.slice(s, e)];
      }
      case 'SetTextContents': edit(n, String(body[0])); return [true];
      case 'InsertText': {
        const [at, t] = body as [number, string];
        edit(n, (n.text ?? '').slice(0, at) + t + (n.text ?? '').slice(at));
        return [true];
      }
      case 'SetCaretOffset': n.caret = Number(body[0]); return [true];
      case 'GrabFocus': {
        // A window just raised: the element takes focus only after a while (Firefox after its window was activated).
        const take = (): void => {
          for (const m of nodes.values()) m.states.delete('focused');
          n.states.add('focused');
        };
        if (opts.focusDelayMs) setTimeout(take, opts.focusDelayMs); else take();
        return [true];
      }
      case 'GetActions': return [[['', '', '']]];
      case 'GetConnectionUnixProcessID': return [process.pid];
      case 'GetExtents': return [[0, 0, 800, 600]];
      case 'DoAction':
        if (path === '/combo' && opts.popup !== false && !nodes.has('/popup')) {
          add('/popup', {
            role: 'combo box',
            name: '',
            ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Action'],
            parent: '/frame',
            states: ['expanded'],
            kids: ['/pmenu'],
          });
          add('/pmenu', {
            role: 'menu',
            name: '',
            ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Selection'],
            parent: '/popup',
            kids: items.map((_, i) => `/pitem${i}`),
          });
          items.forEach((name, i) =>
            add(`/pitem${i}`, {
              role: 'menu item',
              name,
              ifaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Action'],
              parent: '/pmenu',
            }),
          );
          nodes.get('/frame')!.kids.unshift('/popup');
        } else if (path.startsWith('/pitem')) {
          select(Number(path.slice(6)));
          nodes.get('/frame')!.kids.shift();
          nodes.delete('/popup');
        }
        return [true];
      case 'SelectChild': select(Number(body[0])); return [true];
      case 'GetSelectedChild': {
        const i = items.findIndex((_, j) => nodes.get(`/item${j}`)!.states.has('selected'));
        return [[APP, i >= 0 ? `/item${i}` : '/org/a11y/atspi/null']];
      }
      default: throw Object.assign(new Error(`no ${member}`), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  };
  const messageBus = {
    call: (m: { path: string; member: string; body: unknown[] }) => {
      calls.push(`${m.path} ${m.member}`);
      try {
        return Promise.resolve({ body: answer(m.path, m.member, m.body) });
      } catch (e) {
        return Promise.reject(e);
      }
    },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  // XTest into the focused field, as the app would take the keys (or not, keysApply false).
  let selectAll = false;
  const keyboard = {
    available: true, reason: undefined,
    focusedIs: () => Promise.resolve(true), activate: () => Promise.resolve(true),
    windowFacts: (ws: readonly unknown[]) => Promise.resolve(ws.map(() => (opts.xTitle !== undefined ? { title: opts.xTitle } : {}))),
    keysTo: (_expect: unknown, input: readonly Chord[] | string) => {
      const f = [...nodes.values()].find((x) => x.states.has('focused'));
      if (typeof input === 'string') {
        keys.push(`text:${input}`);
        if (f && opts.keysApply !== false) {
          const t = f.text ?? '';
          f.text = selectAll ? input : t.slice(0, f.caret ?? t.length) + input + t.slice(f.caret ?? t.length);
          selectAll = false;
        }
        return Promise.resolve([...input].length);
      }
      for (const c of input) {
        keys.push([...c.mods, c.key].join('+'));
        if (c.key === 'a' && c.mods.includes('Control')) selectAll = true;
        if (c.key === 'Backspace' && f && selectAll && opts.keysApply !== false) { f.text = ''; selectAll = false; }
      }
      return Promise.resolve(input.length);
    },
  } as unknown as LinuxInput;
  return { bus, keyboard, nodes, calls, keys };
}

const id = (path: string): string => APP + path;

test('Gecko ignores SetTextContents: read back, then focus + ' +
    'select all + type; the receipt names the path, not the text', async () => {
  const g = fakeGecko({ mode: 'ignore' });
  const r = await act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value: 'Ada Lovelace' });
  assert.equal(r.method, 'synthetic');
  assert.match(r.detail ?? '', /typed: focus \+ select-all \+ XTest \(SetTextContents ignored by the app\)/);
  assert.doesNotMatch(r.detail ?? '', /Ada/);
  assert.equal(g.nodes.get('/name')!.text, 'Ada Lovelace');
  assert.deepEqual(g.keys, ['Control+a', 'text:Ada Lovelace']);
  assert.ok(g.calls.includes('/name GrabFocus'), 'the field is focused before any key');
});

test('a toolkit that applies or filters SetTextContents gets no keys (GTK keeps its pattern path)', async () => {
  for (const mode of ['apply', 'upper'] as const) {
    const g = fakeGecko({ mode });
    const r = await act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value: 'Ada' });
    assert.equal(r.method, 'pattern', mode);
    assert.equal(r.detail, 'EditableText.SetTextContents');
    assert.deepEqual(g.keys, [], mode);
  }
});

test('clear on an ignoring field selects all and deletes', async () => {
  const g = fakeGecko({ mode: 'ignore' });
  g.nodes.get('/name')!.text = 'old';
  const r = await act(g.bus, g.keyboard, { id: id('/name'), op: 'clear' });
  assert.equal(r.method, 'synthetic');
  assert.equal(g.nodes.get('/name')!.text, '');
  assert.deepEqual(g.keys, ['Control+a', 'Backspace']);
});

test('text that would leave the field (Tab anywhere, Return ' +
    'in a one-line field) is refused before any key', async () => {
  for (const value of ['Ada\tx', 'Ada\nx']) {
    const g = fakeGecko({ mode: 'ignore' });
    await assert.rejects(act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value }),
      (e: unknown) => e instanceof ComputerUseError && e.code === 'invalid_params');
    assert.deepEqual(g.keys, [], JSON.stringify(value));
  }
  // A multi-line field takes a newline.
  const g = fakeGecko({ mode: 'ignore' });
  await act(g.bus, g.keyboard, { id: id('/note'), op: 'set_value', value: 'two\nlines' });
  assert.equal(g.nodes.get('/note')!.text, 'two\nlines');
});

test('a password field: typed and checked by length; when ' +
    'the keys do not land, the error names no secret', async () => {
  const secret = 'pin-hunter2';
  const g = fakeGecko({ mode: 'ignore' });
  const r = await act(g.bus, g.keyboard, { id: id('/pin'), op: 'set_value', value: secret });
  assert.equal(r.method, 'synthetic');
  assert.ok(!JSON.stringify(r).includes('hunter2'), JSON.stringify(r));
  const deaf = fakeGecko({ mode: 'ignore', keysApply: false });
  await assert.rejects(act(deaf.bus, deaf.keyboard, { id: id('/pin'), op: 'set_value', value: secret }), (e: unknown) => {
    assert.ok(e instanceof ComputerUseError && e.code === 'action_failed', String(e));
    assert.ok(!JSON.stringify({ m: e.message, d: e.details }).includes('hunter2'), e.message);
    return true;
  });
});

test('type on an ignoring field: the caret is put where ' +
    'the insert was meant to go, then the text is typed', async () => {
  const g = fakeGecko({ mode: 'ignore' });
  const r = await act(g.bus, g.keyboard, { id: id('/note'), op: 'type', value: ' world' });
  assert.equal(r.method, 'synthetic');
  assert.match(r.detail ?? '', /InsertText ignored by the app/);
  assert.equal(g.nodes.get('/note')!.text, 'Hello world');
  const applied = fakeGecko({ mode: 'apply' });
  const p = await act(applied.bus, applied.keyboard, { id: id('/note'), op: 'type', value: '!' });
  assert.equal(p.method, 'pattern');
  assert.deepEqual(applied.keys, []);
});

test('select on a <select>: chosen in the opened dropdown ' +
    '(the page sees a click), verified, dropdown closed', async () => {
  const g = fakeGecko();
  const r = await act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'Large' });
  assert.match(r.detail ?? '', /"Large" chosen in the opened dropdown/);
  assert.ok(g.nodes.get('/item2')!.states.has('selected'));
  assert.ok(!g.nodes.has('/popup'), 'the dropdown was left open');
  assert.ok(!g.calls.includes('/menu SelectChild'));
  // set_value on the combo chooses too (it is never typed into).
  const s = await act(g.bus, g.keyboard, { id: id('/combo'), op: 'set_value', value: 'medium' });
  assert.match(s.detail ?? '', /"Medium" chosen/);
  assert.deepEqual(g.keys, []);
  await assert.rejects(
    act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'Huge' }),
    /No item named "Huge"; items: "Small", "Medium", "Large", "Extra large"\./,
  );
});

test('select names an item by a unique word or start of it (abiword\'s ' +
    'file types: "ODT", ".odt"); several candidates are refused', async () => {
  const items = [
    'AbiWord (.abw, .zabw, abw.gz)',
    'Microsoft Word (.doc)',
    'OpenDocument Text (.odt)',
    'OpenDocument Template (.ott)',
    'Text (.txt, .text)',
    'Encoded Text (.txt, .text)',
  ];
  for (const value of ['ODT', '.odt', 'opendocument text']) {
    const g = fakeGecko({ items });
    const r = await act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value });
    assert.match(r.detail ?? '', /"OpenDocument Text \(\.odt\)" chosen/, value);
    assert.ok(g.nodes.get('/item2')!.states.has('selected'), value);
  }
  const g = fakeGecko({ items });
  // "Text" is the whole name of one item: that one, not the others that hold the word.
  assert.match(
    (await act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'text' })).detail ?? '',
    /"Text \(\.txt, \.text\)" chosen/,
  );
  await assert.rejects(act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'txt' }),
    /"txt" names 2 items: "Text \(\.txt, \.text\)", "Encoded Text \(\.txt, \.text\)"\. Give more/);
  await assert.rejects(act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'OpenDoc' }), /names 2 items/);
});

test('a window with no accessible name is checked by its window manager\'s title ' +
    '(kcalc\'s Qt window): same title acts, another refuses', { skip: process.platform !== 'linux' }, async () => {
  const expect = {
    pid: process.pid,
    startToken: String(procInfo(process.pid)!.startTime),
    window: id('/frame'),
    title: 'KCalc',
  };
  const g = fakeGecko({ frameName: '', xTitle: 'KCalc' });
  const r = await act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'Large', expect });
  assert.match(r.detail ?? '', /"Large" chosen/);
  const other = fakeGecko({ frameName: '', xTitle: 'Another window' });
  await assert.rejects(
    act(other.bus, other.keyboard, { id: id('/combo'), op: 'select', value: 'Large', expect }),
    /title changed/,
  );
  assert.ok(!other.nodes.get('/item2')!.states.has('selected'), 'nothing was sent');
});

test('select on a <select> whose dropdown never shows: the ' +
    'list\'s Selection, verified, and the detail says so', async () => {
  const g = fakeGecko({ popup: false });
  const r = await act(g.bus, g.keyboard, { id: id('/combo'), op: 'select', value: 'Large' });
  assert.match(r.detail ?? '', /Selection\.SelectChild\(2\) on the combo's list/);
  assert.ok(g.nodes.get('/item2')!.states.has('selected'));
});

test('snapshot: Gecko\'s short texts (GetText past the end reads "") and a combo\'s choice are shown', async () => {
  const g = fakeGecko();
  g.nodes.get('/name')!.text = 'Ada';
  const { root } = await readTree(g.bus, { dest: APP, path: '/frame' });
  const byName = new Map<string, RawNode>();
  walk(root, (n) => { byName.set(n.name ?? n.id, n); });
  assert.equal(byName.get('Name')?.value, 'Ada');
  assert.equal(byName.get(id('/para'))?.value, 'No order yet.');
  assert.equal(byName.get('Size')?.value, 'Small');
});

test('typed text the field cuts (a length cap) is reported as such, not as failed and not as set', async () => {
  const g = fakeGecko({ mode: 'ignore' });
  const capped = g.keyboard.keysTo.bind(g.keyboard);
  (g.keyboard as unknown as { keysTo: typeof capped }).keysTo = async (e, input) => {
    const n = await capped(e, input);
    const f = g.nodes.get('/name')!;
    f.text = (f.text ?? '').slice(0, 5);
    return n;
  };
  const r = await act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value: 'averylongname' });
  assert.match(r.detail ?? '', /reads differently afterwards/);
  assert.equal(g.nodes.get('/name')!.text, 'avery');
});

test('a page that moves the focus away from the field when it is focused gets no keys', async () => {
  const g = fakeGecko({ mode: 'ignore' });
  const focusCalls = g.calls.length;
  // The app answers GrabFocus on Name (the driver sees it focused), then its script moves the focus to PIN.
  const grab = g.bus.call.bind(g.bus);
  let reads = -1;
  (g.bus as unknown as { call: typeof grab }).call = async (t, iface, member, ...rest) => {
    if (member === 'GrabFocus' && t.path === '/name') reads = 0;
    if (member === 'GetState' && t.path === '/name' && reads >= 0 && ++reads === 2) {
      g.nodes.get('/name')!.states.delete('focused');
      g.nodes.get('/pin')!.states.add('focused');
    }
    return grab(t, iface, member, ...rest);
  };
  await assert.rejects(
    act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value: 'Ada' }),
    /lost the keyboard focus/,
  );
  assert.ok(g.calls.length > focusCalls);
  assert.ok(!g.keys.some((k) => k.startsWith('text:')), `text was sent: ${g.keys.join()}`);
  assert.equal(g.nodes.get('/pin')!.text, '');
});

test('Gecko focus that arrives late (a window just raised) is waited for, bounded, before typing', async () => {
  const g = fakeGecko({ mode: 'ignore', focusDelayMs: 600 });
  const r = await act(g.bus, g.keyboard, { id: id('/name'), op: 'set_value', value: 'Li Lei' });
  assert.equal(r.method, 'synthetic');
  assert.equal(g.nodes.get('/name')?.text, 'Li Lei');
});
