/**
 * The visible agent: while an act on gedit runs, four override-redirect bars frame the
 * target window's bounds and a status window is titled "computer-use: acting in gedit"; after the act they are
 * unmapped; "paused" while paused; with `showActivity: false` none appear. Read through X11 (xwininfo).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import type { Computer } from '../../src/index.js';
import type { Rect } from '../../src/protocol/methods.js';
import { frameBars } from '../../src/drivers/linux/x11/overlay.js';
import { killApp, launch, ok, openComputer, refOn } from './helpers.js';

interface XWin { id: string; title?: string; rect: Rect; overrideRedirect: boolean }

/** The mapped windows computer-use drew (WM_CLASS "computer-use"), read with xwininfo. */
function drawn(): XWin[] {
  const tree = execFileSync('xwininfo', ['-root', '-children'], { encoding: 'utf8' });
  const out: XWin[] = [];
  for (const line of tree.split('\n')) {
    const m = /^\s+(0x[0-9a-f]+) (?:"(.*)"|\(has no name\)): \("computer-use" "computer-use"\)/.exec(line);
    if (!m?.[1]) continue;
    let info: string;
    try {
      info = execFileSync('xwininfo', ['-id', m[1]], { encoding: 'utf8' });
    } catch {
      continue; /* gone meanwhile */
    }
    if (!/Map State: IsViewable/.test(info)) continue;
    const n = (k: string): number => Number(new RegExp(`${k}:\\s+(-?\\d+)`).exec(info)?.[1]);
    out.push({
      id: m[1],
      ...(m[2] !== undefined ? { title: m[2] } : {}),
      rect: [n('Absolute upper-left X'), n('Absolute upper-left Y'), n('Width'), n('Height')],
      overrideRedirect: /Override Redirect State: yes/.test(info),
    });
  }
  return out;
}

/** Polls `drawn()` while `during` runs; returns every distinct set seen and the act's result. */
async function watch<T>(during: () => Promise<T>): Promise<{ seen: XWin[][]; result: T }> {
  const seen: XWin[][] = [];
  let done = false;
  const p = during().finally(() => { done = true; });
  while (!done) {
    const now = drawn();
    if (now.length) seen.push(now);
    await new Promise((r) => setTimeout(r, 30));
  }
  return { seen, result: await p };
}

async function until(cond: () => boolean, ms = 2000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (cond()) return true; await new Promise((r) => setTimeout(r, 50)); }
  return cond();
}

const computers: Computer[] = [];
const pids: number[] = [];
after(async () => {
  for (const c of computers) await c.close();
  for (const pid of pids) await killApp(pid);
});

/** gedit with a document, its window bounds and the document's ref. */
async function gedit(computer: Computer): Promise<{ doc: string; bounds: Rect }> {
  const { pid, text } = await launch(computer, 'gedit', ['--new-window']);
  pids.push(pid);
  const { windows } = await computer.session.device.call('windows.list', { app: 'gedit', pid });
  const bounds = windows[0]?.bounds;
  assert.ok(bounds, 'gedit reports its window bounds');
  return { doc: refOn(text, /\] document\b.*editable/), bounds };
}

test('during an act the target is framed and the status ' +
    'says "acting in gedit"; after it, nothing is shown', async () => {
  // A long quiet window keeps the act settling for a while, so the frame can be seen.
  const computer = await openComputer({ settle: { quietMs: 1200, timeoutMs: 4000 } });
  computers.push(computer);
  const { doc, bounds } = await gedit(computer);
  assert.deepEqual(drawn(), [], 'nothing is shown before the act');
  const { seen, result } = await watch(() =>
    computer.tools.act({ actions: [{ ref: doc, op: 'set_value', value: 'framed while acting' }] }),
  );
  ok(result);
  const during = seen.find((s) => s.length >= 5);
  assert.ok(during, `frame and status seen during the act: ${JSON.stringify(seen)}`);
  assert.ok(during.every((w) => w.overrideRedirect), 'override-redirect windows only');
  const bars = during.filter((w) => w.title === undefined).map((w) => w.rect);
  for (const bar of frameBars(bounds))
    assert.ok(
      bars.some((r) => r.join() === bar.join()),
      `bar ${bar.join()} around ${bounds.join()} in ${JSON.stringify(bars)}`,
    );
  assert.ok(during.some((w) => w.title === 'computer-use: acting in gedit'), JSON.stringify(during));
  assert.ok(await until(() => drawn().length === 0), `gone after the act: ${JSON.stringify(drawn())}`);

  // Paused: the status says so; resumed: nothing.
  computer.policy.stop();
  try {
    assert.ok(
      await until(() => drawn().some((w) => w.title === 'computer-use: paused')),
      `paused status: ${JSON.stringify(drawn())}`,
    );
  } finally { computer.policy.resume(); }
  assert.ok(await until(() => drawn().length === 0), `nothing after resume: ${JSON.stringify(drawn())}`);
  await computer.close();
  computers.splice(computers.indexOf(computer), 1);
  for (const pid of pids.splice(0)) await killApp(pid);
});

test('showActivity: false draws nothing', async () => {
  const computer = await openComputer({ settle: { quietMs: 800, timeoutMs: 4000 }, showActivity: false });
  computers.push(computer);
  const { doc } = await gedit(computer);
  const { seen, result } = await watch(() =>
    computer.tools.act({ actions: [{ ref: doc, op: 'set_value', value: 'not framed' }] }),
  );
  ok(result);
  assert.deepEqual(seen, []);
});
