/**
 * find in a scrolled area's rows that are out of view, on GTK 3 and Qt 6. A mail composer scrolled a recipient's
 * row away and `find` answered "0 matches" with no hint: the toolkit clears "showing" on what a scroll pane
 * scrolled out, and the snapshot leaves it out. The find names the match, says it lies above the part shown, and
 * the scroll it gives brings it into view. Fixture: test/apps/scrolled-rows.py (twelve rows, scrolled to the end).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'scrolled-rows.py');
const PYTHON = realpathSync('/usr/bin/python3');
const hasQt6 = existsSync('/usr/lib/python3/dist-packages/PyQt6');

for (const kit of ['gtk', 'qt'] as const) {
  test(`${kit}: a row scrolled out of view is found, and an act on its ref scrolls it into view`,
    { timeout: 120_000, skip: kit === 'qt' && !hasQt6 && 'PyQt6 is not installed' }, async () => {
      const computer = await openComputer({ allowApps: [`${basename(PYTHON)} ${APP}`] });
      // Qt reads its accessibility switch from the environment (as the launch tool sets it).
      const env =
        kit === 'qt'
          ? { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1', QT_ACCESSIBILITY: '1', AT_SPI_BUS_ADDRESS: undefined }
          : {};
      const app = spawn(PYTHON, [APP, kit], { detached: true, stdio: ['ignore', 'pipe', 'ignore'],
        env: { ...process.env, ...env } });
      let out = '';
      app.stdout?.setEncoding('utf8').on('data', (d: string) => { out += d; });
      const printed = async (line: RegExp, context = ''): Promise<void> => {
        for (let i = 0; i < 200 && !line.test(out); i++) await new Promise((r) => setTimeout(r, 100));
        assert.match(out, line, `${out}\n${context}`);
      };
      try {
        await printed(/^ready$/m);
        const seen = ok(
          await computer.tools.wait({ until: 'window_appears', text: 'Scrolled rows', timeoutMs: 15000 }),
        );
        const window = /\[(w\d+)\]/.exec(seen)?.[1];
        assert.ok(window, seen);
        const r = ok(await computer.tools.find({ text: 'r0@example.com', window }));
        assert.match(r, /^1 match for "r0@example.com"/m, r);
        // Qt keeps "showing" on the children of a scroll area that are scrolled out: they are in the snapshot.
        if (kit === 'qt') { assert.match(r, /^\[e\d+\] textbox "Recipient 1"/m, r); return; }
        const line = r.split('\n').find((l) => l.includes('out of view'));
        assert.ok(line, r);
        assert.match(line, /^\[e\d+\] textbox value="r0@example.com" — out of view in .*; bring it into view: /, line);
        const ref = /computer_act ref=(e\d+) op=scroll value="into_view"/.exec(line)?.[1];
        assert.ok(ref, line);
        out = '';
        // The way the answer gives: an act on the found ref scrolls it into view.
        const act = ok(await computer.tools.act({ actions: [{ ref, op: 'scroll', value: 'into_view' }] }));
        await printed(/^top \d+$/m, act);
        const again = ok(await computer.tools.find({ text: 'r0@example.com', window }));
        assert.match(again, /^\[e\d+\] textbox/m, again);
        assert.doesNotMatch(again, /out of view/, again);
      } finally {
        await computer.close();
        if (app.pid) await killApp(app.pid);
      }
    });
}
