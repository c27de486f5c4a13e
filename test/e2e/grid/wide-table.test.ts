/**
 * A wide HTML table in Firefox (60 columns × 25 rows, all on screen, test/apps/wide-table.html): a scope on the
 * table and a larger maxTokens show more of its rows (a scope gave the grid 30% of the budget, a grid was capped
 * at 1,200 tokens); find reaches a cell the snapshot prints; a click on a cell, which has no action in Gecko, is
 * a pointer click at its center (it answered `unsupported`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startBrowser, stopBrowser } from '../browsers.js';
import { E2E_APPS, ok, openComputer, refOn } from '../helpers.js';

const PAGE = new URL('../../../../test/apps/wide-table.html', import.meta.url).href;

/** Data rows (lines "N | v | v …") of the grid block printed under the table's line. */
function gridRows(text: string, table: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(`[${table}]`));
  const rows: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (!/^\s+(\d+ )?\|/.test(l)) break;
    if (/^\s+\d+ \|/.test(l)) rows.push(l.trim());
  }
  return rows;
}

test('Firefox: a 60×25 web table — a scope and a larger maxTokens show ' +
    'more of its rows, find finds a cell, a click lands on a cell', { timeout: 180_000 }, async () => {
  const computer = await openComputer({ allowApps: [...E2E_APPS, 'firefox-esr', 'firefox'] });
  const browser = startBrowser('firefox', PAGE);
  try {
    let text = '';
    for (let i = 0; i < 90 && !/\] table cells/.test(text); i++) {
      await new Promise((r) => setTimeout(r, 1000));
      text = (await computer.tools.observe({ full: true, app: 'firefox', maxTokens: 6000 })).text;
    }
    const table = refOn(text, /\] table cells/);
    const windowRows = gridRows(text, table).length;
    assert.ok(windowRows > 0, text);

    // (1) The scope on the grid keeps the budget for the grid: at maxTokens 20000 every row prints.
    const big = ok(await computer.tools.observe({ full: true, app: 'firefox', scope: table, maxTokens: 20000 }));
    assert.doesNotMatch(big, /over budget/, big.slice(-600));
    const bigRows = gridRows(big, table);
    assert.equal(bigRows.length, 25, big.slice(-800));
    assert.match(bigRows[24] ?? '', /^25 \| 2401 \| 2402 \|.*\| 2460$/, bigRows[24]);
    // At the default budget a scope shows at least as many rows as the window observe at 6000 tokens does.
    const small = ok(await computer.tools.observe({ full: true, app: 'firefox', scope: table }));
    const smallRows = gridRows(small, table).length;
    console.log('rows: window@6000', windowRows, 'scope@default', smallRows, 'scope@20000', bigRows.length);
    const win = ok(await computer.tools.observe({ app: 'firefox', full: true }));
    assert.ok(smallRows >= gridRows(win, table).length && smallRows > 3, `scope rows ${smallRows}:\n${small}`);
    // The window observe's grid grows with maxTokens (it was capped at 1,200 tokens, 8 rows here).
    const wide = ok(await computer.tools.observe({ full: true, app: 'firefox', maxTokens: 20000 }));
    assert.equal(gridRows(wide, table).length, 25, wide.slice(-800));

    // (2) find reaches a cell the snapshot prints, by its text, named by address under the table.
    assert.match(text, /\| 1517 \|/);
    const found = ok(await computer.tools.find({ app: 'firefox', text: '1517' }));
    assert.match(found, /^1 match for "1517"/, found);
    assert.match(found, /\] cell "Q16"/, found);

    // (3) A click on a cell (no action in Gecko) is a pointer click at its center, proven to land in Firefox's
    // window; the page names the clicked cell's text in its title.
    const click = ok(await computer.tools.act({ actions: [{ ref: `${table}:Q16`, op: 'click' }] }));
    assert.match(click, /pointer left click at \d+,\d+/, click);
    ok(await computer.tools.wait({ until: 'window_appears', text: 'clicked 1517', timeoutMs: 5000 }));
  } finally {
    await computer.close();
    await stopBrowser(browser);
  }
});
