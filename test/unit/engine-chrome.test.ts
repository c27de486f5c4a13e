/**
 * A page viewer's controls around its page (engine/chrome.ts): in a whole-window print they fold to one line per
 * run, each part by ref, role and name with what it holds; the page prints whole; a part holding the focus or what
 * was just acted on prints whole; `scope=` and `full` print the parts; an editor's editable document folds nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawNode, WindowInfo } from '../../src/engine/node.js';
import { RefTable } from '../../src/engine/refs.js';
import { buildSnapshot } from '../../src/engine/snapshot.js';
import { diffSnapshots } from '../../src/engine/diff.js';
import { n } from '../fixtures/engine/build.js';
import { forgedLines, HOSTILE } from '../fixtures/hostile.js';

const B = ':1.71';
const WINDOW: WindowInfo = {
  id: `${B}/org/a11y/atspi/accessible/1`,
  title: 'Order - Browser',
  app: 'browser',
  pid: 4545,
  role: 'window',
  focused: true,
};

/** A browser-like window: window buttons, a toolbar with an address bar, the page, an info bar and a tab strip. */
function browser(opts: { addressFocused?: boolean; editable?: boolean; infobar?: string } = {}): RawNode {
  const button = (id: number, name: string, states: RawNode['states'] = []): RawNode =>
    n(B, id, 'button', { name, actions: ['click'], states });
  return n(B, 1, 'window', { name: 'Order - Browser', states: ['active'] }, [
    button(2, 'Minimize'),
    button(3, 'Close'),
    n(B, 4, 'toolbar', {}, [
      button(5, 'Back', ['disabled']),
      button(6, 'Reload'),
      n(B, 7, 'textbox', { name: 'Address', value: 'file:///order.html', actions: ['set_value'],
        states: ['editable', ...(opts.addressFocused ? ['focused' as const] : [])] }),
      ...Array.from({ length: 10 }, (_, i) => button(20 + i, `Extension ${i + 1}`)),
    ]),
    n(B, 8, 'document', { name: 'Order', states: opts.editable ? ['editable', 'focused'] : ['focused'] }, [
      n(B, 9, 'heading', { name: 'Order a shirt' }),
      n(B, 10, 'button', { name: 'Place order', actions: ['click'] }),
    ]),
    n(B, 11, 'group', { name: 'Infobar Container' }, [
      n(B, 12, 'alert', { name: 'Infobar' }, [n(B, 13, 'label', { name: opts.infobar ?? 'Unsupported flag.' }),
        button(14, 'Close')]),
    ]),
    n(B, 15, 'tablist', {}, [n(B, 16, 'tab', { name: 'Order', states: ['selected'], actions: ['select'] })]),
  ]);
}

const snap = (root: RawNode, opts: Parameters<typeof buildSnapshot>[2] = { fold: true }, refs = new RefTable()) =>
  buildSnapshot({ window: WINDOW, root }, refs, opts);

test('the controls around a page fold to one line per run; the page prints whole', () => {
  const s = snap(browser());
  const lines = s.text.split('\n');
  const before = lines.find((l) => l.includes('around the page') && l.includes('Minimize'));
  assert.ok(before, s.text);
  assert.match(
    before,
    /^ {2}\[e2\] … \[e4\] around the page: e2 button "Minimize", e3 button "Close", e4 toolbar \(13 inside\)$/,
  );
  const after = lines.find((l) => l.includes('around the page') && l.includes('tablist'));
  // The info bar's holder, named after its class, prints as the info bar it holds (engine/wrappers.ts).
  assert.match(after ?? '', /e\d+ alert "Infobar" \(2 inside\), e\d+ tablist \(1 inside\)/);
  assert.match(
    s.text,
    /\] document "Order" focused\n {4}\[e\d+\] heading "Order a shirt"\n {4}\[e\d+\] button "Place order"/,
  );
  assert.ok(!s.text.includes('Reload') && !s.text.includes('Extension'), s.text);
  assert.match(s.text, /full=true lists the \d+ folded controls/);
  // The elements a find or a diff reads still hold every control around the page.
  assert.ok(s.elements.some((l) => l.name === 'Reload'));
});

test('a part that holds the focus or what was just acted on prints whole; the others still fold', () => {
  const focused = snap(browser({ addressFocused: true }));
  assert.match(focused.text, /textbox "Address" value="file:\/\/\/order.html" editable focused/);
  assert.match(focused.text, /around the page: e2 button "Minimize", e3 button "Close"\n/);
  const refs = new RefTable();
  const first = snap(browser(), { fold: true }, refs);
  const reload = first.elements.find((l) => l.name === 'Reload')?.ref ?? '?';
  const again = snap(browser(), { fold: true, whole: new Set([reload]) }, refs);
  assert.match(again.text, new RegExp(`\\[${reload}\\] button "Reload"`));
});

test('full=true and scope= print the parts around the page one per line', () => {
  const refs = new RefTable();
  const folded = snap(browser(), { fold: true }, refs);
  const toolbar = folded.elements.find((l) => l.role === 'toolbar')?.ref ?? '?';
  assert.match(snap(browser(), { fold: false }, refs).text, /button "Reload"/);
  assert.match(snap(browser(), { fold: true, scope: toolbar }, refs).text, /button "Reload"/);
});

test('an editor whose document is editable text folds nothing around it', () => {
  const s = snap(browser({ editable: true }));
  assert.ok(!s.text.includes('around the page'), s.text);
});

test('hostile names around a page stay escaped on its fold line', () => {
  for (const bad of HOSTILE) {
    const root = browser();
    const group = root.children?.find((c) => c.name === 'Infobar Container');
    if (group) group.name = bad;
    const s = snap(root);
    assert.ok(s.text.includes('around the page'), s.text);
    assert.deepEqual(forgedLines(s.text), [], s.text);
  }
});

test('a diff leaves out what changed inside a part folded around the page, and shows what changed in the page', () => {
  const refs = new RefTable();
  const a = snap(browser(), { fold: true }, refs);
  const next = browser();
  const tab = next.children?.find((c) => c.role === 'tablist')?.children?.[0];
  if (tab) tab.name = 'Order - Memory usage - 48.0 MB';
  const heading = next.children?.find((c) => c.role === 'document')?.children?.[0];
  if (heading) heading.name = 'Order placed';
  const b = snap(next, { fold: true }, refs);
  const lines = diffSnapshots(a, b).lines;
  assert.deepEqual(lines.filter((l) => l.includes('Memory usage')), [], lines.join('\n'));
  assert.ok(lines.some((l) => l.includes('"Order placed"')), lines.join('\n'));
  // Printed whole (unfolded), the same change is shown.
  const c = snap(browser(), { fold: false }, new RefTable());
  assert.equal(c.elements.some((l) => l.around), false);
});
