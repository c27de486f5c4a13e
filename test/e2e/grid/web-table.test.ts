/**
 * An HTML table in Chromium (AT-SPI, --force-renderer-accessibility) as a grid: cells sit in row children and
 * say their place through TableCell.Position; their text is in child text nodes. A cell is named by address.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const PAGE = join(root, 'test', 'apps', 'table.html');

test('Chromium: an HTML table renders as rows of ' +
    'values; a cell ref resolves to that cell', { timeout: 90_000 }, async () => {
  const profile = mkdtempSync(join(tmpdir(), 'cu-chr-'));
  const computer = await openComputer({ allowApps: ['chromium'] });
  const app = spawn(
    'chromium',
    [
      '--no-sandbox',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--password-store=basic',
      '--force-renderer-accessibility',
      `--user-data-dir=${profile}`,
      `file://${PAGE}`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  try {
    let text = '';
    for (let i = 0; i < 60 && !/\| Lyon \|/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 500));
      text = (await computer.tools.observe({ full: true, app: 'chromium', maxTokens: 6000 })).text;
    }
    const table = refOn(text, /\] table cells A1:C4 of 4 × 3/);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(`[${table}]`));
    assert.deepEqual(
      lines.slice(at + 1, at + 6).map((l) => l.trim()),
      [
        '| A | B | C',
        '1 | City | Pop | Country',
        '2 | Lyon | 522k | France',
        '3 | Graz | 291k | Austria',
        '4 | Porto | 232k | Portugal',
      ],
      text,
    );
    // The cell ref reaches the cell: focusing a non-focusable web cell is refused by name, not sent elsewhere.
    const r = await computer.tools.act({ actions: [{ ref: `${table}:A2`, op: 'focus' }] });
    assert.doesNotMatch(r.text, /not on screen|not a table|unknown ref/, r.text);
    assert.match(r.text, /focus e\d+/, r.text);
    ok(await computer.tools.observe({ full: true, app: 'chromium' }));
  } finally {
    await computer.close();
    try { process.kill(-(app.pid ?? 0), 'SIGKILL'); } catch { /* gone */ }
  }
});
