/**
 * Collapsed combo boxes on a web page (test/apps/checkout.html) in Firefox and Chromium through AT-SPI: an HTML
 * <select> and an ARIA combobox whose listbox exists only while it is open. `select` names an item the collapsed
 * combo does not show: the combo is opened, the item chosen as a user's click would (the page sees it), the combo
 * closed, and the receipt reads back the value now shown. The snapshot line carries the combo's current value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startBrowser, stopBrowser } from './browsers.js';
import { lineOf, ok, openComputer, refOn } from './helpers.js';

const PAGE = new URL('../../../test/apps/checkout.html', import.meta.url).href;
const APP = { firefox: 'firefox', chromium: 'chromium' } as const;

for (const family of ['firefox', 'chromium'] as const) {
  const title = `${family}: select on a collapsed <select> and a collapsed ARIA combobox chooses, closes, reads back`;
  test(title, { timeout: 180_000 }, async () => {
    const computer = await openComputer({ allowApps: ['firefox-esr', 'firefox', 'chromium'] });
    const child = startBrowser(family, PAGE);
    try {
      let text = '';
      for (let i = 0; i < 80 && !/Nothing chosen yet/.test(text); i++) {
        await new Promise((r) => setTimeout(r, 500));
        const r = await computer.tools.observe({ full: true, app: APP[family] });
        text = r.isError ? '' : r.text;
      }
      const delivery = refOn(text, /combobox "Delivery"/);
      const wrap = refOn(text, /combobox "Wrapping"/);
      assert.match(lineOf(text, delivery) ?? '', /value="Standard"/, text);
      assert.match(lineOf(text, wrap) ?? '', /value="None"/, text);

      const chosen = ok(await computer.tools.act({ actions: [{ ref: delivery, op: 'select', value: 'Express' }] }));
      assert.match(chosen, new RegExp(`ok select ${delivery} · confirmed`), chosen);
      assert.match(chosen, /Delivery changed to Express\./, chosen);
      // The receipt reads back what the combo shows now.
      assert.match(chosen, new RegExp(`\\[${delivery}\\] combobox "Delivery" value "Standard" → "Express"`), chosen);
      const wrapped = ok(await computer.tools.act({ actions: [{ ref: wrap, op: 'select', value: 'Gift box' }] }));
      assert.match(wrapped, new RegExp(`ok select ${wrap} · confirmed`), wrapped);
      assert.match(wrapped, /Wrapping changed to Gift box\./, wrapped);
      assert.match(wrapped, new RegExp(`\\[${wrap}\\] combobox "Wrapping" value "None" → "Gift box"`), wrapped);

      const after = ok(await computer.tools.observe({ full: true, app: APP[family] }));
      assert.match(lineOf(after, delivery) ?? '', /value="Express"/, after);
      assert.match(lineOf(after, wrap) ?? '', /value="Gift box"/, after);
      assert.doesNotMatch(after, /combobox[^\n]*expanded/, 'a dropdown was left open');
    } finally { await computer.close(); await stopBrowser(child); }
  });
}
