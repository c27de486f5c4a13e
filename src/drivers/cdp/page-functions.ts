/**
 * Functions that run inside the page (passed as source text to `Runtime.callFunctionOn` / `evaluate`).
 * They are plain JavaScript strings: the driver's TypeScript never runs in the page.
 */

/** Name of the binding the page calls when its DOM changes (settling listens to it). */
export const MUTATION_BINDING = '__computerUseMutation';

/**
 * Installs one MutationObserver on the document that calls the binding once per batch of mutations, and
 * also on form edits (`input`/`change`), which change no attribute.
 */
export const OBSERVER_SOURCE = `(() => {
  if (window.__computerUseObserved) return;
  window.__computerUseObserved = true;
  const ping = () => { try { ${MUTATION_BINDING}(''); } catch (e) { /* binding removed */ } };
  const start = () => {
    new MutationObserver(ping).observe(document, { subtree: true, childList: true, attributes: true, characterData: \
true });
    document.addEventListener('input', ping, true);
    document.addEventListener('change', ping, true);
  };
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start, { once: true });
})()`;

/** Resolves after the next frame was produced: the page's queued work up to now has run. */
export const NEXT_FRAME = `new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(true), 0)))`;

/**
 * The element operations, run with \`this\` = the element: \`function(op, value)\` → {detail} or {error, code}.
 * set_value uses the prototype's native value setter and fires input + change, so frameworks that track
 * the value themselves (React) see the edit; a contenteditable gets execCommand('insertText').
 */
/** True when the element takes input: not disabled (itself, a disabled fieldset, aria-disabled on it or above). */
export const ENABLED_FUNCTION = `function () {
  if (this.nodeType !== 1) return true;
  return !(this.matches(':disabled') || this.closest('[aria-disabled="true"]'));
}`;

export const ACT_FUNCTION = `function (op, value) {
  const el = this.nodeType === 9 ? (this.scrollingElement || this.documentElement) : this;
  const win = el.ownerDocument.defaultView;
  const isDoc = this.nodeType === 9 || el === el.ownerDocument.scrollingElement || el === el.ownerDocument.body;
  const fail = (code, error) => ({ code, error });
  const show = () => { if (!isDoc && el.scrollIntoView) el.scrollIntoView({ block: 'center', inline: 'center', \
behavior: 'instant' }); };
  const fire = (t) => el.dispatchEvent(new Event(t, { bubbles: true }));
  const proto = (e) => e instanceof win.HTMLTextAreaElement ? win.HTMLTextAreaElement.prototype
    : e instanceof win.HTMLSelectElement ? win.HTMLSelectElement.prototype : win.HTMLInputElement.prototype;
  const setNative = (e, v) => { const d = Object.getOwnPropertyDescriptor(proto(e), 'value'); d.set.call(e, v); };
  const isField = el instanceof win.HTMLInputElement || el instanceof win.HTMLTextAreaElement;
  const checkedOf = (e) => 'checked' in e && (e instanceof win.HTMLInputElement) ? e.checked
    : e.getAttribute && e.hasAttribute('aria-checked') ? e.getAttribute('aria-checked') : e.getAttribute && \
e.getAttribute('aria-pressed');
  const text = (e) => (e.label || e.textContent || '').trim();
  // A removed element stays reachable by its backend node id until collected, and click() on it "works".
  if (this.nodeType !== 9 && !el.isConnected) return fail('stale_ref', 'The element was removed from the page; take a \
new snapshot.');
  switch (op) {
    case 'click': {
      if (el instanceof win.HTMLOptionElement && el.parentElement) return selectIn(el.closest('select'), el);
      show(); el.click(); return { detail: 'DOM element.click()' };
    }
    case 'focus': show(); el.focus(); return { detail: 'DOM element.focus()', focused: el.ownerDocument.activeElement \
=== el };
    case 'set_value': case 'clear': {
      const v = op === 'clear' ? '' : String(value ?? '');
      if (isField) {
        if (el.disabled || el.readOnly) return fail('action_failed', 'The field is disabled or read-only.');
        // A range or number input clamps a value outside its bounds silently: refuse it instead, unchanged.
        if (op === 'set_value' && (el.type === 'range' || el.type === 'number')) {
          const n = Number(v);
          const lo = el.min === '' ? -Infinity : Number(el.min);
          const hi = el.max === '' ? Infinity : Number(el.max);
          if (v.trim() === '' || !Number.isFinite(n)) return fail('invalid_params', 'The value must be a number.');
          if (n < lo || n > hi) return fail('invalid_params', 'The value ' + n + ' is outside ' + el.min + '..' + \
el.max + '.');
        }
        show(); el.focus(); setNative(el, v); fire('input'); fire('change');
        return { detail: 'native value setter + input/change events' };
      }
      if (el instanceof win.HTMLSelectElement) return selectIn(el, null, v);
      if (el.isContentEditable) {
        show(); el.focus();
        el.ownerDocument.execCommand('selectAll', false);
        if (v) el.ownerDocument.execCommand('insertText', false, v); else el.ownerDocument.execCommand('delete', false);
        return { detail: 'contenteditable execCommand insertText' };
      }
      return fail('unsupported', 'This element holds no editable value.');
    }
    case 'prepare_type': {
      show();
      const wasFocused = el.ownerDocument.activeElement === el;
      el.focus();
      // Typing into a field that was not focused appends, as a click at its end would.
      if (isField && !wasFocused && typeof el.setSelectionRange === 'function') {
        try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* type=email has no selection */ }
      }
      return { detail: 'focused', focused: el.ownerDocument.activeElement === el || \
el.contains(el.ownerDocument.activeElement) };
    }
    case 'toggle': {
      const before = checkedOf(el);
      show(); el.click();
      const after = checkedOf(el);
      if (String(before) === String(after)) return fail('action_failed', 'Clicked, but the checked state did not \
change.');
      return { detail: 'DOM click; checked ' + before + ' → ' + after };
    }
    case 'select': {
      if (el instanceof win.HTMLOptionElement) return selectIn(el.closest('select'), el);
      if (el instanceof win.HTMLSelectElement) return selectIn(el, null, String(value ?? ''));
      const want = String(value ?? '').trim().toLowerCase();
      const opts = itemsIn(el);
      // A collapsed combo whose list exists only while open (an ARIA combobox): opened and chosen in.
      const popup = el.getAttribute('role') === 'combobox' || el.hasAttribute('aria-haspopup');
      if (!opts.length && popup) return selectInPopup(want);
      const hit = pick(opts, want);
      if (!hit) return fail('action_failed', 'No item named ' + JSON.stringify(value) + '. Items: ' + opts.slice(0, \
20).map((o) => JSON.stringify(text(o))).join(', '));
      hit.scrollIntoView({ block: 'center', behavior: 'instant' }); hit.click();
      return { detail: 'clicked item ' + JSON.stringify(text(hit)) };
    }
    case 'scroll': {
      if (value === 'into_view' || !value) { show(); return { detail: 'scrollIntoView' }; }
      const target = isDoc ? win : el;
      const box = isDoc ? { w: win.innerWidth, h: win.innerHeight } : { w: el.clientWidth, h: el.clientHeight };
      const pos = () => isDoc ? win.scrollX + ',' + win.scrollY : el.scrollLeft + ',' + el.scrollTop;
      const before = pos();
      const d = { up: [0, -0.8], down: [0, 0.8], left: [-0.8, 0], right: [0.8, 0] }[value];
      if (!d) return fail('invalid_params', 'scroll value must be up, down, left, right or into_view.');
      target.scrollBy({ left: d[0] * box.w, top: d[1] * box.h, behavior: 'instant' });
      const after = pos();
      return before === after ? fail('action_failed', 'Nothing scrolled (already at the end, or the element does not \
scroll).')
        : { detail: 'scrollBy ' + value + ' (' + before + ' → ' + after + ')' };
    }
    case 'expand': case 'collapse': {
      const open = op === 'expand';
      if (el instanceof win.HTMLDetailsElement || el.parentElement instanceof win.HTMLDetailsElement) {
        const d = el instanceof win.HTMLDetailsElement ? el : el.parentElement;
        d.open = open; return { detail: 'details.open = ' + open };
      }
      const state = el.getAttribute('aria-expanded');
      if (state === String(open)) return { detail: 'already ' + (open ? 'expanded' : 'collapsed') };
      show(); el.click(); return { detail: 'DOM click to ' + op };
    }
    case 'double_click': show(); el.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, cancelable: true, \
detail: 2 })); return { detail: 'dblclick event' };
    case 'right_click': show(); el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, \
button: 2 })); return { detail: 'contextmenu event' };
    default: return fail('unsupported', op + ' is not supported through the DevTools channel.');
  }
  function itemsIn(root) {
    return [...root.querySelectorAll('[role=option],[role=menuitem],[role=tab],[role=treeitem],li')];
  }
  function pick(opts, want) {
    return opts.find((o) => text(o).toLowerCase() === want) || opts.find((o) => text(o).toLowerCase().includes(want));
  }
  /** The list an open combo shows: the one it controls or owns, else a list on screen outside it. */
  function openList() {
    const doc = el.ownerDocument;
    const ids = (el.getAttribute('aria-controls') || '') + ' ' + (el.getAttribute('aria-owns') || '');
    for (const id of ids.split(' ')) {
      const l = id && doc.getElementById(id);
      if (l && l.getClientRects().length) return l;
    }
    const lists = [...doc.querySelectorAll('[role=listbox],[role=menu],[role=tree]')];
    return lists.find((l) => !el.contains(l) && l.getClientRects().length);
  }
  /** Opens the combo, clicks the option named in the list it opened, closes it, reads back what it shows. */
  async function selectInPopup(want) {
    const pause = () => new Promise((r) => setTimeout(r, 50));
    const close = () => { if (el.getAttribute('aria-expanded') === 'true') el.click(); };
    if (el.getAttribute('aria-expanded') !== 'true') { show(); el.click(); }
    let list = openList();
    for (let i = 0; i < 50 && !list; i++) { await pause(); list = openList(); }
    if (!list) return fail('action_failed', 'The combo box opened no list to choose in; nothing was selected.');
    const opts = itemsIn(list);
    const hit = pick(opts, want);
    if (!hit) {
      close();
      const items = opts.slice(0, 20).map((o) => JSON.stringify(text(o))).join(', ');
      return fail('invalid_params', 'No item named ' + JSON.stringify(String(value ?? '')) + '; items: ' + items);
    }
    hit.scrollIntoView({ block: 'nearest', behavior: 'instant' }); hit.click();
    await pause();
    close();
    const shown = String(el.value !== undefined && el.value !== '' ? el.value : el.textContent || '').trim();
    if (shown !== text(hit)) {
      return fail('action_failed', 'Clicked ' + JSON.stringify(text(hit)) + ' in the list, but the combo box shows ' +
        JSON.stringify(shown.slice(0, 40)) + '.');
    }
    return { detail: 'opened the combo, clicked ' + JSON.stringify(text(hit)) + ' in its list; it now shows it' };
  }
  function selectIn(select, option, label) {
    if (!select) { option.selected = true; return { detail: 'option selected' }; }
    let opt = option;
    if (!opt) {
      const want = String(label).trim().toLowerCase();
      const all = [...select.options];
      opt = all.find((o) => o.label.trim().toLowerCase() === want) || all.find((o) => o.value.toLowerCase() === want)
        || all.find((o) => o.label.trim().toLowerCase().includes(want));
      if (!opt) return fail('action_failed', 'No option ' + JSON.stringify(label) + '. Options: ' + all.slice(0, \
20).map((o) => JSON.stringify(o.label)).join(', '));
    }
    if (select.disabled || opt.disabled) return fail('action_failed', 'The list or the option is disabled.');
    select.focus();
    setNative(select, opt.value);
    select.dispatchEvent(new Event('input', { bubbles: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return { detail: 'selected option ' + JSON.stringify(opt.label) };
  }
}`;
