/**
 * A GTK3 TreeView (test/apps/table.py) as a grid, so the grid is not LibreOffice-only: the rows print as rows of
 * values under the column headers (with their refs), a cell is named by address for an act, and selecting it
 * selects its row in the app.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lineOf, ok, openComputer, refOn } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'table.py');

test('GTK TreeView: rows of values under headers; a cell by address selects its row', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-grid-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const computer = await openComputer({
    allowApps: [`/usr/bin/python3 ${APP}`],
    auditPath: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'settings.json'),
  });
  const app = spawn('/usr/bin/python3', [APP], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      app.stdout.setEncoding('utf8').on('data', (d: string) => { if (d.includes('ready')) resolve(); });
      app.once('exit', () => reject(new Error('the table app exited')));
    });
    const snap = ok(await computer.tools.wait({ until: 'window_appears', text: 'Grid table', timeoutMs: 15000 }));
    const table = refOn(snap, /\] table .*cells A1:C8 of 8 × 3/);
    const lines = snap.split('\n');
    const at = lines.findIndex((l) => l.includes(`[${table}]`));
    assert.match(lines[at + 1] ?? '', /^\s+\| A \[e\d+\] Name \| B \[e\d+\] Size \| C \[e\d+\] Kind$/, snap);
    assert.match(lines[at + 2] ?? '', /^\s+1 \| notes\.txt \| 4 KB \| text$/, snap);
    assert.match(lines[at + 9] ?? '', /^\s+8 \| clip\.webm \| 12 MB \| video$/, snap);
    assert.doesNotMatch(snap, /\] cell "/, 'cells print as grid rows, not element lines');

    const sel = ok(await computer.tools.act({ actions: [{ ref: `${table}:B5`, op: 'select' }] }));
    assert.match(sel, /· confirmed/, sel);
    const after = ok(await computer.tools.observe({ full: true, app: 'grid-table' }));
    assert.match(lineOf(after, table) ?? '', /selected A5:C5/, after);
  } finally {
    await computer.close();
    app.kill();
  }
});
