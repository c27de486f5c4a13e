/**
 * A PDF in Evince: a 2-page PDF written at test time (test/apps/minipdf.ts, no converter, no network); the
 * page text is in the Text interface of Evince's `page` nodes. computer_find must find a sentence on page 2
 * (scrolled out of view) and say which page, line and offset; the first page's text shows in the snapshot.
 * Before src/drivers/linux/tree/text.ts the `page` role was never read: find answered 0 matches.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { writePdf } from '../../apps/minipdf.js';
import { E2E_APPS, killApp, ok, openComputer } from '../helpers.js';

let computer: Computer;
const pids: number[] = [];

before(async () => { computer = await openComputer({ allowApps: [...E2E_APPS, 'evince'] }); });
after(async () => {
  await computer?.close();
  for (const pid of pids) await killApp(pid);
});

/** Calls `fn` until it returns a text matching `pattern`, or fails with the last text. */
async function until(fn: () => Promise<string>, pattern: RegExp): Promise<string> {
  let text = '';
  for (let i = 0; i < 120; i++) {
    text = await fn();
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`${pattern} never showed in:\n${text}`);
}

test('PDF in Evince: find a sentence on page 2, with page, ' +
    'line and offset; page 1 text in the snapshot', { timeout: 90_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-pdf-'));
  const file = join(dir, 'report.pdf');
  const page1 = Array.from(
    { length: 40 },
    (_, i) => `Quarterly figures, paragraph ${i + 1}: revenue and costs were as planned.`,
  );
  writePdf(file, [
    ['Annual report 2026', ...page1],
    ['Appendix', 'Totals are rounded to the nearest euro.', 'The auditors signed the accounts on 3 March.'],
  ]);
  // The user opens the file (a viewer is started outside computer_launch, as a person would).
  const child = spawn('evince', [file], { detached: true, stdio: 'ignore' });
  child.unref();
  if (child.pid) pids.push(child.pid);

  const snap = await until(
    async () => ok(await computer.tools.observe({ full: true, app: 'evince' })),
    /Annual report 2026/,
  );
  if (process.env['TEXT_DEBUG']) console.error(snap);
  // The page shown carries its text, cut with the exact range and how to read on.
  assert.match(snap, /value="Annual report 2026\\nQuarterly figures, paragraph 1:/, snap);
  assert.match(snap, /\(text 0–[\d,]+ of [\d,]+; more: scope=e\d+ from=\d+\)/, snap);

  // Evince extracts a page's text in the background after the document loads: ask until it has.
  const found = await until(
    async () => ok(await computer.tools.find({ app: 'evince', text: 'auditors signed' })),
    /^1 match/,
  );
  if (process.env['TEXT_DEBUG']) console.error(found);
  assert.match(found, /^1 match for "auditors signed"/, found);
  assert.match(found, /page 2 of 2.* line 3, offset \d+: "The auditors signed the accounts on 3 March\."/, found);

  // Reading on from the offset the hint names gives the rest of page 1 as numbered lines.
  const hint = /more: scope=(e\d+) from=(\d+)/.exec(snap)!;
  const more = ok(await computer.tools.observe({ full: true, app: 'evince', scope: hint[1]!, from: Number(hint[2]) }));
  if (process.env['TEXT_DEBUG']) console.error(more);
  assert.match(more, /^ {2}\d+│ .*paragraph 40: revenue/m, more);
});
