/**
 * A table wider than its view (a process list of nine columns in a narrow window): a cell in a column scrolled off
 * to the right was refused as not visible (GTK 3: no size, not showing) or as lying outside its window (GTK 2:
 * showing, at its place beyond the view), and nothing scrolled the table sideways. On a fake bus of a table in a
 * scroll pane with a horizontal bar taking a Value: the act moves the bar until the cell's column shows, then
 * clicks it there; a cell wider than the view is clicked in its part in view; a table with no horizontal bar is
 * refused as before, nothing moved.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { act } from '../../src/drivers/linux/act/actions.js';
import { sidewaysDelta } from '../../src/drivers/linux/act/sideways.js';
import type { LinuxInput } from '../../src/drivers/linux/input/input.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { busAnswering, type Msg } from './fake-bus.js';

const APP = ':1.77';
const ROOT = '/org/a11y/atspi/accessible/root';
const ACC = 'org.a11y.atspi.Accessible';
const ACTION = 'org.a11y.atspi.Action';
const COMP = 'org.a11y.atspi.Component';
const TABLE = 'org.a11y.atspi.Table';
const VALUE = 'org.a11y.atspi.Value';
/** State bits: active 1, enabled 8, focusable 11, horizontal 14, sensitive 24, showing 25, vertical 29, visible 30. */
const bits = (...n: number[]): number[] => [n.reduce((w, b) => w | (1 << b), 0) >>> 0, 0];
/** Roles: frame 23, scroll bar 48, scroll pane 49, table 55, table cell 56, application 75. */
const COLS = 9;
const ROWS = 3;
const VIEW = [100, 100, 300, 200] as const;
const INT_MIN = -(2 ** 31);

interface Shape {
  /** How a toolkit reports a cell out of view: GTK 3 with no size, GTK 2 at its place with `showing`. */
  kit: 'gtk3' | 'gtk2';
  /** Column widths (default 100 each). */
  widths?: number[];
  /** No horizontal bar beside the table. */
  noBar?: boolean;
  /** A cell out of view still reads showing (GTK 3's cell of a row on screen, as lxtask's GTK 2 shows it). */
  showingOff?: boolean;
}

/** window › scroll pane › (table › cells, horizontal bar, vertical bar); `log` records moves and clicks. */
function wideTable(log: string[], shape: Shape) {
  const widths = shape.widths ?? Array.from({ length: COLS }, () => 100);
  const whole = widths.reduce((a, b) => a + b, 0);
  const max = Math.max(0, whole - VIEW[2]);
  let h = 0;
  const left = (k: number): number => VIEW[0] + widths.slice(0, k).reduce((a, b) => a + b, 0) - h;
  const cellPath = (r: number, k: number): string => `/cell/${r}/${k}`;
  const cellOf = (path: string): [number, number] | undefined => {
    const m = /^\/cell\/(\d+)\/(\d+)$/.exec(path);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  };
  const inView = (r: number, k: number): boolean => {
    void r;
    const x = left(k);
    return x + widths[k]! > VIEW[0] && x < VIEW[0] + VIEW[2];
  };
  const extOf = (path: string): number[] => {
    const at = cellOf(path);
    if (at) {
      const [r, k] = at;
      const y = VIEW[1] + 20 + r * 20;
      if (inView(r, k)) return [left(k), y, widths[k]!, 20];
      return shape.kit === 'gtk3' ? [0, 0, 0, 0] : [INT_MIN, INT_MIN, widths[k]!, 20];
    }
    return { '/win': [0, 0, 600, 500], '/pane': [100, 100, 316, 216], '/table': [...VIEW],
      '/hbar': [100, 300, 300, 16], '/vbar': [400, 100, 16, 200] }[path] ?? [0, 0, 0, 0];
  };
  const bars = shape.noBar ? ['/vbar'] : ['/hbar', '/vbar'];
  const node = (path: string): { role: number; parent: string; kids: string[]; ifaces: string[]; states: number[];
    name?: string } | undefined => {
    const at = cellOf(path);
    if (at) {
      const [r, k] = at;
      const shows = inView(r, k) || shape.kit === 'gtk2' || shape.showingOff === true;
      return { role: 56, parent: '/table', kids: [], ifaces: [ACC, COMP, ACTION],
        states: bits(8, 11, 24, 30, ...(shows ? [25] : [])), name: `c${k}-${r + 1}` };
    }
    return {
      [ROOT]: { role: 75, parent: '', kids: ['/win'], ifaces: [ACC], states: bits() },
      '/win': {
        role: 23,
        parent: ROOT,
        kids: ['/pane'],
        ifaces: [ACC, COMP],
        states: bits(1, 8, 24, 25, 30),
        name: 'Wide list',
      },
      '/pane': {
        role: 49,
        parent: '/win',
        kids: ['/table', ...bars],
        ifaces: [ACC, COMP],
        states: bits(8, 24, 25, 30),
      },
      '/table': {
        role: 55,
        parent: '/pane',
        ifaces: [ACC, COMP, TABLE],
        states: bits(8, 11, 24, 25, 30),
        kids: Array.from({ length: ROWS * COLS }, (_, i) => cellPath(Math.floor(i / COLS), i % COLS)),
      },
      '/hbar': { role: 48, parent: '/pane', kids: [], ifaces: [ACC, COMP, VALUE], states: bits(8, 14, 24, 25, 30) },
      '/vbar': { role: 48, parent: '/pane', kids: [], ifaces: [ACC, COMP, VALUE], states: bits(8, 24, 25, 29, 30) },
    }[path];
  };
  const props = (path: string, iface: string): Record<string, unknown> => {
    const n = node(path)!;
    if (iface === VALUE)
      return path === '/hbar'
        ? { CurrentValue: h, MinimumValue: 0, MaximumValue: max, MinimumIncrement: 10 }
        : { CurrentValue: 0, MinimumValue: 0, MaximumValue: 400, MinimumIncrement: 10 };
    if (iface === TABLE) return { NRows: ROWS, NColumns: COLS };
    if (iface === 'org.a11y.atspi.Application') return { ToolkitName: 'GTK', Version: '3.24' };
    return { Name: n.name ?? '', Description: '', ChildCount: n.kids.length, AccessibleId: '', Parent: [APP, n.parent],
      NActions: 0 };
  };
  const bus = busAnswering((m: Msg) => {
    if (m.member === 'GetConnectionUnixProcessID') return [4242];
    const n = node(m.path);
    if (!n) throw Object.assign(new Error('Unknown object'), { type: 'org.freedesktop.DBus.Error.UnknownObject' });
    const at = cellOf(m.path);
    switch (m.member) {
      case 'GetRole': return [n.role];
      case 'GetState': return [n.states];
      case 'GetInterfaces': return [n.ifaces];
      case 'GetAll': {
        const all = props(m.path, String(m.body[0]));
        return [Object.fromEntries(Object.entries(all).map(([k, v]) => [k, { value: v }]))];
      }
      case 'Get': return [{ value: props(m.path, String(m.body[0]))[String(m.body[1])] }];
      case 'Set': {
        h = Number((m.body[2] as { value: unknown }).value);
        log.push(`hbar ${h}`);
        return [];
      }
      case 'GetChildren': return [n.kids.map((k) => [APP, k])];
      case 'GetChildAtIndex': return [[APP, n.kids[Number(m.body[0])] ?? '/org/a11y/atspi/null']];
      case 'GetIndexInParent': return [at ? at[0] * COLS + at[1] : 0];
      case 'GetRowAtIndex': return [Math.floor(Number(m.body[0]) / COLS)];
      case 'GetColumnAtIndex': return [Number(m.body[0]) % COLS];
      case 'GetAccessibleAt': return [[APP, cellPath(Number(m.body[0]), Number(m.body[1]))]];
      case 'GetExtents': return [extOf(m.path)];
      case 'GetActions': return [[]];
      case 'ScrollTo': return [false];
      case 'GrabFocus': return [true];
      default: throw Object.assign(new Error('no such method'), { type: 'org.freedesktop.DBus.Error.UnknownMethod' });
    }
  });
  return { bus, hbar: () => h };
}

/** A pointer that records where it clicked (the window on top is taken as the app's). */
function fakePointer(log: string[]): LinuxInput {
  return {
    available: true,
    xWindowOf: async () => undefined,
    pointer: async (p: { action: string; x: number; y: number }) => {
      log.push(`pointer ${p.action} ${p.x},${p.y}`);
      return `left click at ${p.x},${p.y}`;
    },
  } as unknown as LinuxInput;
}

const click = (path: string) =>
  ({
    id: `${APP}${path}`,
    op: 'click',
    actionable: { checks: ['visible', 'enabled', 'stable'], timeoutMs: 300 },
  }) as never;

test('sidewaysDelta: inside is 0; off to the right or left, ' +
    'the distance to bring it in; a wide cell fills half', () => {
  const view: [number, number, number, number] = [100, 100, 300, 200];
  assert.equal(sidewaysDelta([150, 120, 100, 20], view), 0);
  assert.equal(sidewaysDelta([450, 120, 100, 20], view), 150);
  assert.equal(sidewaysDelta([350, 120, 100, 20], view), 50);
  assert.equal(sidewaysDelta([20, 120, 100, 20], view), -80);
  // Wider than the view: its left edge goes to the view's, unless it fills half the view already.
  assert.equal(sidewaysDelta([700, 120, 900, 20], view), 600);
  assert.equal(sidewaysDelta([134, 120, 1800, 20], view), 0);
});

for (const kit of ['gtk3', 'gtk2'] as const) {
  test(`${kit}: a click on a cell in a column scrolled off to the right scrolls right, then clicks it in view`,
    async () => {
      const log: string[] = [];
      const { bus, hbar } = wideTable(log, { kit });
      // Column 8 lies at 900..1000 of a table 900 wide; the view shows 0..300.
      const r = await act(bus, fakePointer(log), click('/cell/1/8'));
      assert.ok(hbar() > 0, log.join('\n'));
      const moves = log.filter((l) => l.startsWith('hbar'));
      assert.ok(moves.length >= 1 && moves.length <= 4, log.join('\n'));
      // Wholly in view: its column at 900 - h lies within 100..400.
      const x = 100 + 800 - hbar();
      assert.ok(x >= 100 && x + 100 <= 400, `column at ${x} (bar ${hbar()})`);
      assert.deepEqual(log.filter((l) => l.startsWith('pointer')), [`pointer click ${x + 50},150`]);
      assert.match(r.detail ?? '', /^scrolled sideways to its column: horizontal scroll bar Value 0 → \d+; pointer/);
    });
}

test('a cell in view takes no scroll; a cell wider than the view is clicked in its part in view', async () => {
  const log: string[] = [];
  const { bus } = wideTable(log, { kit: 'gtk2', widths: [1800, 60, 60, 60, 60, 60, 60, 60, 60] });
  const r = await act(bus, fakePointer(log), click('/cell/0/0'));
  // Before, the click went to the cell's centre, 1000,130, outside the window (refused as not_visible).
  assert.deepEqual(log, ['pointer click 250,130']);
  assert.doesNotMatch(r.detail ?? '', /sideways/);
});

test('a table with no horizontal bar: the cell out of view ' +
    'is refused as before, nothing moved or clicked', async () => {
  const log: string[] = [];
  const { bus } = wideTable(log, { kit: 'gtk3', noBar: true });
  const e = await act(bus, fakePointer(log), click('/cell/1/8')).then(() => undefined, (x: unknown) => x);
  assert.ok(e instanceof ComputerUseError && e.code === 'not_visible', String(e));
  assert.deepEqual(log, []);
});

test('scroll into_view on a far cell GTK 3 keeps showing with no size moves the horizontal bar to it', async () => {
  const log: string[] = [];
  const { bus, hbar } = wideTable(log, { kit: 'gtk3', showingOff: true });
  // Before, ScrollTo (which GTK 3 ignores) and the showing state made it read as done, nothing moved.
  const r = await act(bus, fakePointer(log), { id: `${APP}/cell/2/7`, op: 'scroll', value: 'into_view' } as never);
  assert.match(r.detail ?? '', /^scrolled sideways to its column: horizontal scroll bar Value 0 → \d+$/);
  const x = 100 + 700 - hbar();
  assert.ok(x >= 100 && x + 100 <= 400, `column at ${x} (bar ${hbar()})`);
});

test('scroll "to I2" on the table: row 2 shows already, and its column I is brought in across', async () => {
  const log: string[] = [];
  const { bus, hbar } = wideTable(log, { kit: 'gtk3' });
  const r = await act(bus, fakePointer(log), { id: `${APP}/table`, op: 'scroll', value: 'to I2' } as never);
  assert.match(r.detail ?? '', /^row 2 already on screen; scrolled sideways to its column: /);
  assert.equal(hbar(), 600);
});
