/**
 * A virtualized web list (test/apps/virtual-list.html: 5,000 messages, ~30 in the page at a time, aria-rowcount and
 * aria-rowindex) in Firefox and Chromium through AT-SPI. The snapshot says which rows of the 5,000 show; find says
 * where the rest is; one act call scrolls to row 4,321 and clicks its Delete button; the status line it writes
 * (role=status) is in the receipt, in find and in wait. Then the same page lying about its size and positions,
 * with a 1 MB status text: bounded answers, nothing hangs.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startBrowser, stopBrowser } from './browsers.js';
import { ok, openComputer, refOn } from './helpers.js';

const PAGE = new URL('../../../test/apps/virtual-list.html', import.meta.url).href;
const APP = { firefox: 'firefox', chromium: 'chromium' } as const;

/** Opens the page in a browser and waits until the message table shows; returns the computer, the text and the table's ref. */
async function open(family: 'firefox' | 'chromium', query = '', shape = /table "Messages"/): Promise<{
  computer: Awaited<ReturnType<typeof openComputer>>; text: string; table: string; stop: () => Promise<void>;
}> {
  const computer = await openComputer({ allowApps: ['firefox-esr', 'firefox', 'chromium'] });
  const child = startBrowser(family, `${PAGE}${query}`);
  const stop = async (): Promise<void> => { await computer.close(); await stopBrowser(child); };
  try {
    let text = '';
    let last = '';
    for (let i = 0; i < 80 && !shape.test(text); i++) {
      await new Promise((r) => setTimeout(r, 500));
      const r = await computer.tools.observe({ full: true, app: APP[family], maxTokens: 8000 });
      text = r.isError ? '' : r.text;
      last = r.text.slice(0, 3000);
    }
    // The last answer is kept for the failure message: an error here said nothing of why.
    if (!shape.test(text)) assert.fail(`no ${shape} in 40 s; the last observe answered:\n${last}`);
    return { computer, text, table: refOn(text, shape), stop };
  } catch (e) { await stop(); throw e; }
}

for (const family of ['firefox', 'chromium'] as const) {
  test(`${family}: a 5,000-row virtual list says which rows show, ` +
      `and row 4,321 is reached and acted on in one call`, { timeout: 180_000 }, async () => {
    const { computer, text, table, stop } = await open(family);
    try {
      // The snapshot counts the whole set, not the ~30 rows in the page, and says what brings the others.
      const line = text.split('\n').find((l) => l.includes(`[${table}]`)) ?? '';
      assert.match(line, /of 5,000 × 2/, line);
      assert.match(line, /rows 1–\d\d on screen; the list holds only these/, line);
      assert.match(text, /^\s+4 \| Message #4 from/m, text);
      // find: nothing in the page, but where the rest is and the scroll that shows row 4,321.
      const found = ok(await computer.tools.find({ text: '#4321', app: APP[family] }));
      assert.match(found, new RegExp(`holds only rows 1–\\d\\d of its 5,000.*op=scroll value="to 4321"`), found);
      // One call: scroll to row 4,321, then click the Delete button in its cell B.
      const act = await computer.tools.act({
        actions: [
          { ref: table, op: 'scroll', value: 'to 4321' },
          { ref: `${table}:B4321`, op: 'click' },
        ],
      });
      assert.equal(act.isError, false, act.text);
      assert.match(act.text, /row 4,321 of 5,000 shows/, act.text);
      // The status line's text is in the receipt, in find and in wait (it printed as a bare statusbar in Firefox).
      assert.match(
        act.text,
        /statusbar.*Deleted message #4321 \(code 999\)|text "Deleted message #4321 \(code 999\)"/,
        act.text,
      );
      assert.match(
        ok(await computer.tools.find({ text: 'Deleted message #4321', app: APP[family] })),
        /^1 match/,
        'find',
      );
      assert.match(
        ok(await computer.tools.wait({ until: 'appears', text: 'code 999', app: APP[family], timeoutMs: 5000 })),
        /Deleted message #4321/,
      );
      const after = ok(await computer.tools.observe({ full: true, app: APP[family], maxTokens: 8000 }));
      assert.match(after, /4321 \| \(deleted\) #4321/, after);
      // A scroll by an amount moves by pages and says which rows show now.
      const down = ok(await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'down 10 pages' }] }));
      assert.match(down, /down 10 pages: rows 4,3\d\d–4,3\d\d → rows 4,[6-9]\d\d–/, down);
    } finally { await stop(); }
  });
}

test('firefox: a list that lies (10⁹ rows, negative positions) ' +
    'and a 1 MB status text: bounded answers, nothing hangs', { timeout: 180_000 }, async () => {
  const { computer, text, table, stop } = await open('firefox', '?claim=1000000000&pos=-100000&status=1000000');
  try {
    assert.ok(text.length < 40_000, `snapshot of ${text.length} characters`);
    const line = text.split('\n').find((l) => l.includes(`[${table}]`)) ?? '';
    // Gecko drops a negative aria-rowindex and numbers the rows by their place in the page: bounded either way.
    assert.match(
      line,
      /of 1,000,000,000 × 2 · (rows 1–\d\d on screen|the list says it has 1,000,000,000 rows but not which)/,
      line,
    );
    assert.ok(line.length < 1000, line);
    const status = text.split('\n').find((l) => /statusbar/.test(l)) ?? '';
    assert.ok(status.length < 3000 && /xxxx/.test(status), status.slice(0, 200));
    const r = await computer.tools.act({ actions: [{ ref: table, op: 'scroll', value: 'to 500' }] });
    assert.match(r.text, /not which ones it shows|did not scroll past rows 1–\d\d/, r.text);
  } finally { await stop(); }
  // A list that only claims more rows than it has: scrolling past its real end says so.
  const lie = await open('firefox', '?claim=1000000000');
  try {
    const r = await lie.computer.tools.act({ actions: [{ ref: lie.table, op: 'scroll', value: 'to 999999999' }] });
    assert.match(r.text, /did not scroll past rows 4,9\d\d–5,000|did not come into view/, r.text);
  } finally { await lie.stop(); }
});

for (const family of ['firefox', 'chromium'] as const) {
  const title = `${family}: a listbox that lies (setsize 10⁹, negative posinset) beside a 1 MB status: bounded answers`;
  test(title, { timeout: 180_000 }, async () => {
    const query = '?kind=listbox&claim=1000000000&pos=-100000&status=1000000';
    const { computer, text, table: list, stop } = await open(family, query, /(list|listbox) "Messages"/);
    try {
      assert.ok(text.length < 40_000, `snapshot of ${text.length} characters`);
      const line = text.split('\n').find((l) => l.includes(`[${list}]`)) ?? '';
      assert.ok(line.length < 1000, line);
      // No line of the page prints the claimed positions as if they were rows the list holds.
      assert.doesNotMatch(text, /-99,99\d|−99,99\d/, text.slice(0, 2000));
      const status = text.split('\n').find((l) => /statusbar/.test(l)) ?? '';
      assert.ok(status.length < 3000 && /xxxx/.test(status), status.slice(0, 200));
      // find, scroll and wait each answer, bounded, whatever the list claims.
      const found = await computer.tools.find({ text: 'Message #4321', app: APP[family] });
      assert.ok(found.text.length < 5000, found.text.slice(0, 500));
      const scrolled = await computer.tools.act({ actions: [{ ref: list, op: 'scroll', value: 'to 500' }] });
      assert.ok(scrolled.text.length < 20_000, scrolled.text.slice(0, 500));
      const waited = await computer.tools.wait({
        until: 'appears',
        text: 'never on this page',
        app: APP[family],
        timeoutMs: 3000,
      });
      assert.equal(waited.isError, true, waited.text);
      assert.ok(waited.text.length < 5000, waited.text.slice(0, 500));
    } finally { await stop(); }
  });
}
