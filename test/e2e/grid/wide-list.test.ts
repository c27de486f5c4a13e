/**
 * A tree view wider than its window (test/apps/wide-list.py: nine columns, 300 rows, 360 px wide), as a process
 * list is. A found cell in a far column of a row off screen was scrolled to vertically, then refused as
 * not_visible: its column was scrolled off to the right and nothing scrolled a tree view sideways. A person scrolls
 * right: the act moves the view's horizontal scroll bar until the cell's column shows, then acts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, ok, openComputer, refOn } from '../helpers.js';

const APP = realpathSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'apps', 'wide-list.py'));
const PYTHON = realpathSync('/usr/bin/python3');
let computer: Computer;
let child: ChildProcess | undefined;
const out: string[] = [];

before(async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, `${basename(PYTHON)} ${APP}`] });
});
after(async () => {
  await computer?.close();
  if (child?.pid) await killApp(child.pid);
});

/** Waits until a line the app printed matches. */
async function printed(line: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const hit = out.find((l) => line.test(l));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the app printed ${JSON.stringify(out.slice(-5))}, nothing that matches ${line}`);
}

async function startApp(): Promise<void> {
  out.length = 0;
  if (child?.pid) await killApp(child.pid);
  child = spawn(PYTHON, [APP, '300'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout?.on('data', (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean)));
  await printed(/^ready$/);
  ok(await computer.tools.wait({ until: 'window_appears', text: 'Wide list', timeoutMs: 15000 }));
}

test('a found cell in a far column of a row off screen: the act scrolls down, then right, then clicks it',
  { timeout: 120_000 }, async () => {
    await startApp();
    ok(await computer.tools.observe({ app: 'wide-list', full: true }));
    const found = ok(await computer.tools.find({ app: 'wide-list', text: 'prio-200' }));
    const own = /^\[(e\d+)\] cell "prio-200" — row 200 of 300 in .*off-screen/m.exec(found)?.[1];
    assert.ok(own, found);
    const act = ok(await computer.tools.act({ actions: [{ ref: own, op: 'click' }] }));
    // Before: "ok scroll", then "failed click … not_visible: … it has no size on screen".
    assert.match(act, /^ok scroll e\d+ · confirmed/m, act);
    assert.match(act, new RegExp(`^ok click ${own} · confirmed \\(scrolled sideways to its column: `, 'm'), act);
    await printed(/^selected cmd-200$/);
    const h = Number(/^hscroll (\d+)$/.exec(await printed(/^hscroll [1-9]/))?.[1]);
    assert.ok(h > 0, String(h));
  });

test('a cell of a row on screen in a column scrolled off to the right: a click scrolls right first',
  { timeout: 120_000 }, async () => {
    await startApp();
    ok(await computer.tools.observe({ app: 'wide-list', full: true }));
    const found = ok(await computer.tools.find({ app: 'wide-list', text: 'ppid-3' }));
    const cell = refOn(found, /cell "ppid-3"/);
    const act = ok(await computer.tools.act({ actions: [{ ref: cell, op: 'click' }] }));
    assert.match(act, new RegExp(`^ok click ${cell} · confirmed \\(scrolled sideways to its column: `, 'm'), act);
    await printed(/^selected cmd-3$/);
    await printed(/^hscroll [1-9]/);
  });

test('scroll "to I250" on the table shows row 250 and its column I; scroll into_view on a far cell scrolls right',
  { timeout: 120_000 }, async () => {
    await startApp();
    const first = ok(await computer.tools.observe({ app: 'wide-list', full: true }));
    const table = refOn(first, /\] table "Processes"/);
    const to = ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to I250' }] }));
    assert.match(to, /row 250 on screen; scrolled sideways to its column: horizontal scroll bar Value 0 → \d+/, to);
    const found = ok(await computer.tools.find({ app: 'wide-list', text: 'ppid-250' }));
    assert.match(found, /^\[e\d+\] cell "ppid-250"/m, found);
    assert.doesNotMatch(found, /— (out of view|row \d+ of)/, found);
    // Back to the left edge, then a far cell of a row on screen brought into view by scroll into_view.
    await startApp();
    ok(await computer.tools.observe({ app: 'wide-list', full: true }));
    const cell = refOn(ok(await computer.tools.find({ app: 'wide-list', text: 'ppid-2' })), /cell "ppid-2"/);
    const into = ok(await computer.tools.act({ actions: [{ ref: cell, op: 'scroll', value: 'into_view' }] }));
    assert.match(into, /scrolled sideways to its column/, into);
    await printed(/^hscroll [1-9]/);
  });
