/** Matching AT-SPI windows to X windows, and hit testing in stacking order (pure, on recorded facts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  matchWindow,
  titleOf,
  topmostAt,
  type StackedWindow,
  type XWindowFacts,
} from '../../src/drivers/linux/x11/match.js';

// Facts as read in the sandbox: two gedit windows, a python overlay calling itself "gedit".
const CLIENTS: XWindowFacts[] = [
  {
    id: 0x1a00004,
    pid: 4100,
    title: 'Untitled Document 1 - gedit',
    rect: [10, 52, 800, 600],
    frame: [10, 30, 800, 622],
  },
  { id: 0x1a0000f, pid: 4100, title: 'notes.txt - gedit', rect: [300, 200, 640, 480], frame: [300, 178, 640, 502] },
  { id: 0x2c00003, pid: 5200, title: 'Untitled Document 1 - gedit', rect: [10, 52, 800, 600] },
];

test('a window is matched within its own process, by bounds first (client area or frame)', () => {
  assert.equal(
    matchWindow({ pid: 4100, title: 'notes.txt - gedit', bounds: [10, 30, 800, 622] }, CLIENTS)?.id,
    0x1a00004,
  );
  assert.equal(matchWindow({ pid: 4100, title: 'x', bounds: [301, 201, 640, 480] }, CLIENTS)?.id, 0x1a0000f);
});

test('without bounds the title decides among windows of the same process', () => {
  assert.equal(matchWindow({ pid: 4100, title: 'notes.txt - gedit' }, CLIENTS)?.id, 0x1a0000f);
});

test('never by title alone: a window of another process with the same title and bounds is not taken', () => {
  assert.equal(
    matchWindow({ pid: 7777, title: 'Untitled Document 1 - gedit', bounds: [10, 52, 800, 600] }, CLIENTS),
    undefined,
  );
  assert.equal(matchWindow({ pid: 5200, title: 'anything', bounds: [0, 0, 1, 1] }, CLIENTS)?.id, 0x2c00003);
});

test('the topmost viewable window at a point wins; unmapped ones are skipped', () => {
  const stack: StackedWindow[] = [
    { id: 1, rect: [0, 0, 1024, 768], viewable: true, pid: 10 },
    { id: 2, rect: [100, 100, 500, 400], viewable: true, pid: 20 },
    { id: 3, rect: [250, 250, 260, 180], viewable: true, pid: 30 }, // keep-above, last in stacking order
    { id: 4, rect: [0, 0, 1024, 768], viewable: false, pid: 40 },
  ];
  assert.equal(topmostAt(stack, 320, 320)?.id, 3);
  assert.equal(topmostAt(stack, 130, 130)?.id, 2);
  assert.equal(topmostAt(stack, 5, 5)?.id, 1);
  assert.equal(topmostAt(stack, 250 + 260, 300)?.id, 2, 'right edge is exclusive');
  assert.equal(topmostAt([], 1, 1), undefined);
});

test('a window with an empty or blank accessible name takes its ' +
    'window manager\'s title (kcalc: window "" → "KCalc")', () => {
  assert.equal(titleOf('', 'KCalc'), 'KCalc');
  assert.equal(titleOf('  ', 'KCalc'), 'KCalc');
  assert.equal(titleOf('Untitled - gedit', 'other'), 'Untitled - gedit');
  assert.equal(titleOf('', undefined), '');
});
