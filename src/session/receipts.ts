/**
 * What an act's receipt says (confirmed, unknown, rejected, failed: never a success that was not observed) and
 * how an `unknown` one is confirmed: by the effect each op should have, read in the snapshot taken after the
 * act, or by the driver's own read of the element right after it.
 */
import type { Op, RawNode } from '../engine/node.js';
import type { Snapshot, SnapshotLine } from '../engine/snapshot.js';
import { redactText } from '../engine/redact.js';
import { cellShowsEntry } from '../engine/grid.js';
import type { ComputerUseError } from '../protocol/errors.js';
import type { ActResult } from '../protocol/methods.js';
import { cellsInRange, scrolledTo } from './cells.js';
import { pendingReturnNote } from './commit.js';

/** One requested action. */
export interface ActionSpec {
  ref: string; op: Op; value?: string;
  /** set_value only: press Return in the field once it is set (set-submit.ts). */
  submit?: boolean;
  /** The ref as asked when the act went to another element (a cell named by address, a row's expander cell). */
  asked?: string;
}

/** What happened to one action: confirmed (its effect was observed), unknown (sent, not provable), rejected, failed. */
export type ReceiptStatus = 'confirmed' | 'unknown' | 'rejected' | 'failed';

/** The receipt of one action. */
export interface ActionReceipt {
  ref: string;
  op: Op;
  /** The value asked for (set_value's text, scroll's "to N"); never printed from here. */
  value?: string;
  /** A set_value that presses Return in its field after (set-submit.ts). */
  submit?: boolean;
  /** The ref as asked when the act went to another element (ActionSpec.asked): printed before the ref acted on. */
  asked?: string;
  status: ReceiptStatus;
  /** How it was done or why it failed. */
  detail: string;
  /** The driver's own words on how it did it: the start of `detail`, before the evidence the host adds to it. */
  how?: string;
  method?: ActResult['method'];
  error?: ComputerUseError;
  /** The element as the driver read it at dispatch (receipts compare against it, not the last snapshot). */
  before?: RawNode;
  /** The element as the driver re-read it right after the act, unmasked: compared, never shown. */
  after?: RawNode;
}

/** Ops that edit an element's text: their settle lasts at least EDIT_SETTLE_MS, and the driver's read-back counts. */
export const EDIT_OPS: ReadonlySet<Op> = new Set(['set_value', 'type', 'clear']);

/**
 * Upgrades `unknown` receipts to `confirmed` when the fresh snapshot shows the expected effect. `idOf` gives a
 * ref's native handle (to find the scroll bars the driver reported at dispatch in the fresh snapshot).
 */
export function verifyReceipts(
  receipts: ActionReceipt[],
  before: Snapshot | undefined,
  after: Snapshot | undefined,
  idOf: (ref: string) => string | undefined = () => undefined,
): void {
  const find = (s: Snapshot | undefined, ref: string): SnapshotLine | undefined =>
    s?.elements.find((l) => l.ref === ref);
  receipts.forEach((r, i) => {
    if (r.status !== 'unknown') return;
    // A later step of the same call was sent: it may have undone what this one showed (a tab click hid the check
    // box toggled before it, an entry's click closed the menu the click before it opened).
    const followed = receipts.slice(i + 1).some((l) => l.status !== 'failed' && l.status !== 'rejected');
    verifyOne(r, followed, before, after, idOf);
  });
}

/** One `unknown` receipt judged by the settled snapshot, else by the driver's reads of its element around the act. */
function verifyOne(
  r: ActionReceipt,
  followed: boolean,
  before: Snapshot | undefined,
  after: Snapshot | undefined,
  idOf: (ref: string) => string | undefined,
): void {
  const now = find(after, r.ref);
  // The state at dispatch, as the driver read it, wins over the model's last snapshot: the element may have
  // changed in between (the user, another client), and a receipt must not call that change its own.
  const seen = find(before, r.ref);
  const was: Pick<SnapshotLine, 'states'> | undefined = r.before ? { states: r.before.states } : seen;
  const spec = r as ActionReceipt & { value?: string };
  if (!now || !after) {
    // An edit whose element left with its window (gedit's Save As name field, then Save in the same call) is
    // judged by the driver's read right after the act: compared, never printed.
    if (readBack(r, spec.value)) { r.status = 'confirmed'; r.detail += '; value read as set right after the act'; }
    else confirmRightAfter(r);
    return;
  }
  const { ok, why } = judged(r, { before, after, now, seen, was, idOf });
  if (!ok && followed && confirmRightAfter(r)) return;
  if (ok) r.status = 'confirmed';
  if (why) r.detail += `; ${why}`;
}

/**
 * A step judged by the driver's reads of its element at dispatch and right after it (`before`, `after`), when the
 * settled snapshot cannot judge it: the element is gone from it (a check box a later tab click hid) or a later step
 * of the call changed it again (the menu a click opened, closed by the click on its entry). A state the act flips
 * that flipped between the two reads is its effect, observed. True when it confirmed the receipt.
 */
function confirmRightAfter(r: ActionReceipt): boolean {
  const { before: b, after: a } = r;
  if (!b || !a) return false;
  const on = (n: RawNode, s: string): boolean => n.states.includes(s as never);
  const flipped = (s: string): boolean => on(b, s) !== on(a, s);
  let why: string | undefined;
  if (r.op === 'toggle') {
    const state = (n: RawNode): boolean => on(n, 'checked') || on(n, 'pressed');
    if (state(b) !== state(a)) why = `now ${state(a) ? 'checked' : 'unchecked'}`;
  } else if (r.op === 'click' || r.op === 'expand' || r.op === 'collapse') {
    const s = (['checked', 'pressed', 'selected', 'expanded'] as const).find(flipped);
    if (s !== undefined) why = opened(b.role, s, on(a, s)) ?? `${s} ${on(a, s) ? 'on' : 'off'}`;
  }
  if (why === undefined) return false;
  r.status = 'confirmed';
  if (r.op === 'toggle') r.detail = settledToggleDetail(r.detail);
  r.detail += `; ${why}, read right after it`;
  return true;
}

/** Roles whose selected or expanded state is their menu's showing (a menu bar's menu, a menu button, a combo box). */
const MENU_OPENERS: ReadonlySet<string> = new Set(['menu', 'combobox']);

/**
 * The words for a click that opened a menu: `its menu opened` (with its entries' count when the settled snapshot
 * shows them), when a menu's selected or expanded state came on. Undefined for any other flip.
 */
function opened(role: string, state: string, now: boolean, entries = 0): string | undefined {
  if (!now || !MENU_OPENERS.has(role) || (state !== 'selected' && state !== 'expanded')) return undefined;
  return entries > 0 ? `its menu opened, ${entries} entries` : 'its menu opened';
}

/** What a receipt's verdict looks at: both snapshots, the element now, as last observed and as it was at dispatch. */
interface Evidence {
  before: Snapshot | undefined;
  after: Snapshot;
  now: SnapshotLine;
  seen: SnapshotLine | undefined;
  was: Pick<SnapshotLine, 'states'> | undefined;
  idOf: (ref: string) => string | undefined;
}

/** A state of a line (false without a line). */
const has = (l: Pick<SnapshotLine, 'states'> | undefined, s: string): boolean =>
  l?.states.includes(s as never) ?? false;

/** Whether the fresh snapshot shows the op's expected effect, and the words that say what it shows. */
function judged(r: ActionReceipt, e: Evidence): { ok: boolean; why: string } {
  const { before, after, now, was } = e;
  const spec = r as ActionReceipt & { value?: string };
  switch (r.op) {
    case 'set_value': case 'clear': return valueJudged(r, spec.value, now, after);
    case 'type': {
      const ok = (now.value ?? '').includes((spec.value ?? '').slice(0, 40));
      const breaks = lineBreaksNote(r, after);
      return { ok, why: [ok ? 'text present' : '', breaks ?? ''].filter((w) => w !== '').join('; ') };
    }
    case 'toggle': return toggleJudged(r, e);
    case 'focus': return { ok: has(now, 'focused'), why: has(now, 'focused') ? 'focused' : 'not focused' };
    case 'select': {
      // A grid's range is selected when each of its cells on screen reads selected (Calc's A1:A20 stayed unknown).
      const cells = spec.value !== undefined ? cellsInRange(after, r.ref, spec.value) : undefined;
      if (cells?.length) {
        const ok = cells.every((l) => has(l, 'selected'));
        return { ok, why: ok ? `${spec.value ?? ''} selected` : '' };
      }
      const ok = has(now, 'selected') || (spec.value !== undefined && (now.value ?? '').includes(spec.value));
      if (ok) return { ok, why: 'selected' };
      // A combo box's name is the item it shows (GTK): the re-read showing the chosen item is the proof.
      const shows = now.role === 'combobox' && spec.value !== undefined && now.name === spec.value;
      return { ok: shows, why: shows ? `shows "${spec.value ?? ''}"` : '' };
    }
    case 'expand': {
      // Combo boxes do not always report "expanded"; items appearing under the element show it opened.
      const kids = (snap: Snapshot | undefined) => snap?.elements.filter((l) => l.parent === r.ref).length ?? 0;
      const ok = has(now, 'expanded') || kids(after) > kids(before);
      return { ok, why: ok ? (has(now, 'expanded') ? 'expanded' : 'items appeared') : '' };
    }
    case 'scroll': return scrollJudged(r, spec.value, e);
    case 'collapse': {
      const ok = has(now, 'collapsed') || !has(now, 'expanded');
      return { ok, why: ok ? 'collapsed' : '' };
    }
    case 'click': {
      let ok = false;
      let why = '';
      for (const s of ['checked', 'pressed', 'selected', 'expanded'] as const) {
        if (was && has(was, s) !== has(now, s)) {
          ok = true;
          const entries = after.elements.filter((l) => l.parent === r.ref).length;
          why = opened(now.role, s, has(now, s), entries) ?? `${s} ${has(now, s) ? 'on' : 'off'}`;
        }
      }
      return ok ? { ok, why } : rowClickJudged(r, now);
    }
    default: return { ok: false, why: '' };
  }
}

/** Roles of a view's items: a click on one makes it the view's selected, current item. */
const ROW_ROLES: ReadonlySet<string> = new Set(['row', 'cell', 'listitem', 'treeitem']);

/**
 * A click on a row that changed none of its states (it was selected already, or the view shows no selection): done
 * when the row reads selected or current after it, which is what a row's click is for. The driver's "it is the
 * current item" beside an `unknown` verdict read as two answers at once.
 */
function rowClickJudged(r: ActionReceipt, now: SnapshotLine): { ok: boolean; why: string } {
  if (!ROW_ROLES.has(now.role)) return { ok: false, why: '' };
  const selected = has(now, 'selected');
  // The driver read the row current right after its click (a view's cursor, which a GTK 3 cell shows by no state
  // of its own): that is the evidence, and it is not said twice.
  if (/it is the current item/.test(r.detail)) return { ok: true, why: selected ? 'selected' : '' };
  if (!selected && !has(now, 'focused')) return { ok: false, why: '' };
  return { ok: true, why: selected ? 'the row reads selected' : 'the row is the current item' };
}

/** A set_value or clear: the value now reads as set (or the driver's unmasked read says so). */
function valueJudged(
  r: ActionReceipt,
  value: string | undefined,
  now: SnapshotLine,
  after: Snapshot,
): { ok: boolean; why: string } {
  const want = r.op === 'clear' ? '' : value ?? '';
  const reads = (got: string): boolean => readsAsSet(got, want, now);
  // A cell of an item view has no value: its text is its name (a Qt table's cell after its editor closed).
  const got = now.value ?? (now.role === 'cell' && now.shown === undefined ? now.name ?? '' : '');
  // A value the engine masks as secret-looking (a random temp path) cannot be compared as shown: the
  // driver's unmasked read right after the act decides, and is never printed.
  const ok =
    reads(got) ||
    (got.includes('••••') &&
      r.after?.value !== undefined &&
      !r.after.states.includes('password') &&
      reads(r.after.value));
  let why = ok ? 'value now reads as set' : `value reads "${redactText(got).slice(0, 40)}"`;
  // A toolbar's field (Calc's Name Box) holds the text until Return: say so, or the job reads as done.
  const pending = ok && r.op === 'set_value' && !r.submit ? pendingReturnNote(after, r.ref) : undefined;
  if (pending) why += `; ${pending}`;
  return { ok, why };
}

/** A toggle: the checked or pressed state flipped since dispatch, and whether it had changed before that. */
function toggleJudged(r: ActionReceipt, e: Evidence): { ok: boolean; why: string } {
  const { now, seen, was } = e;
  const flip = (l: Pick<SnapshotLine, 'states'> | undefined) => has(l, 'checked') || has(l, 'pressed');
  const ok = was !== undefined && flip(was) !== flip(now);
  let why = ok ? `now ${flip(now) ? 'checked' : 'unchecked'}` : 'state did not change';
  if (ok) r.detail = settledToggleDetail(r.detail);
  // Say so when it had changed between the model's last look and the dispatch.
  if (seen && r.before && flip(seen) !== flip(was))
    why +=
      ` (it was ${flip(was) ? 'checked' : 'unchecked'} at dispatch, not ` +
      `${flip(seen) ? 'checked' : 'unchecked'} as last observed)`;
  return { ok, why };
}

/** A scroll: a scroll bar moved, the items changed, row N shows, or the element came into view. */
function scrollJudged(r: ActionReceipt, value: string | undefined, e: Evidence): { ok: boolean; why: string } {
  const s = scrollEvidence(r, e.before, e.after, e.idOf);
  // "to N" on a table is done when row N shows among the cells read again (the driver's detail says so).
  const shown = scrolledTo(e.after, r.ref, value);
  const ok = shown || s.moved !== undefined || (value === 'into_view' && !has(e.now, 'offscreen'));
  let why = shown
    ? ''
    : (s.moved ?? (ok ? 'scrolled into view' : 'no scroll bar moved and the visible items are the same'));
  // Joined so that an empty evidence (row N shows: the driver's detail says it) leaves no "; ;".
  if (s.selection) why = [why, s.selection].filter((w) => w !== '').join('; ');
  return { ok, why };
}

/**
 * Whether a value reads as `want` was set: the same text, a spreadsheet cell showing the result of the formula
 * entered (grid.ts), a long value shown cut, or the same number.
 */
function readsAsSet(got: string, want: string, line?: Pick<SnapshotLine, 'role' | 'value' | 'formula'>): boolean {
  const num = Number(want);
  return (
    got === want ||
    (line !== undefined && cellShowsEntry(line, want)) ||
    (want.length > 80 && got.length > 0 && want.startsWith(got.replace(/…$/, ''))) ||
    (want !== '' && Number.isFinite(num) && Math.abs(Number(got) - num) < 1e-6)
  );
}

/** True when an edit's element, as the driver re-read it right after the act, holds what was set or typed (never a password field's). */
function readBack(r: ActionReceipt, value: string | undefined): boolean {
  const got = r.after?.value;
  if (got === undefined || r.after?.states.includes('password') || !EDIT_OPS.has(r.op)) return false;
  return r.op === 'type'
    ? got.includes((value ?? '').slice(0, 40))
    : readsAsSet(got, r.op === 'clear' ? '' : (value ?? ''));
}

/** The subtree of `ref` in a snapshot (its descendants' lines). */
function descendants(snap: Snapshot | undefined, ref: string): SnapshotLine[] {
  if (!snap) return [];
  const inside = new Set([ref]);
  const out: SnapshotLine[] = [];
  // Lines come in document order, parents first.
  for (const l of snap.elements) if (l.parent !== undefined && inside.has(l.parent)) { inside.add(l.ref); out.push(l); }
  return out;
}

/**
 * What a scroll did: the scroll bars the driver reported at dispatch (the element's own, or its
 * scroll pane's) compared with the fresh snapshot, else the visible items of the element; and the side effect a
 * Page key has in lists, the selection moving.
 */
function scrollEvidence(
  r: ActionReceipt,
  before: Snapshot | undefined,
  after: Snapshot,
  idOf: (ref: string) => string | undefined,
): { moved?: string; selection?: string } {
  const out: { moved?: string; selection?: string } = {};
  const atDispatch = (r.before?.children ?? []).filter((c) => c.role === 'scrollbar');
  if (atDispatch.length > 0) {
    const byId = new Map(after.elements.filter((l) => l.role === 'scrollbar').map((l) => [idOf(l.ref), l]));
    for (const b of atDispatch) {
      const now = byId.get(b.id);
      if (now && (now.value ?? '') !== (b.value ?? '')) {
        out.moved = `scroll bar ${b.value ?? '?'} → ${now.value ?? '?'}`;
        break;
      }
    }
  } else {
    // A driver that reports no bars: the bars inside the element or beside it in its pane, as last observed.
    const parent = find(after, r.ref)?.parent;
    const bars = (snap: Snapshot | undefined) =>
      snap?.elements
        .filter((l) => l.role === 'scrollbar' && (l.parent === r.ref || (parent !== undefined && l.parent === parent)))
        .map((l) => `${l.ref}=${l.value ?? ''}`)
        .join() ?? '';
    if (bars(before) !== bars(after)) out.moved = 'a scroll bar moved';
  }
  if (out.moved === undefined && before) {
    const items = (snap: Snapshot) => descendants(snap, r.ref).map((l) => l.ref).join();
    if (items(before) !== items(after)) out.moved = 'the visible items changed';
  }
  const selected = (snap: Snapshot | undefined) =>
    descendants(snap, r.ref).filter((l) => l.states.includes('selected'));
  const was = new Set(selected(before).map((l) => l.ref));
  const gained = selected(after).filter((l) => !was.has(l.ref));
  if (before && gained.length > 0)
    out.selection =
      `side effect: the selection moved to ` +
      `${gained
        .slice(0, 3)
        .map((l) => `[${l.ref}]${l.name ? ` "${l.name.slice(0, 40)}"` : ''}`)
        .join(', ')}`;
  return out;
}

const find = (s: Snapshot | undefined, ref: string): SnapshotLine | undefined => s?.elements.find((l) => l.ref === ref);


/** Roles of a word processor's text: its paragraphs are elements of their own (LibreOffice Writer). */
const PARAGRAPH_TEXT = new Set(['paragraph', 'heading']);

/**
 * What line breaks typed as text did in a document made of paragraph elements: a driver that inserts text through
 * the toolkit (EditableText, method `pattern`) inserts "\n" as a line break inside the one paragraph (Shift+Enter in
 * Writer), not as new paragraphs (Enter), and the receipt says so. Undefined when nothing needs saying: no line
 * break, keys typed (a typed "\n" is the Enter key), or a plain multi-line text field.
 */
export function lineBreaksNote(
  r: Pick<ActionReceipt, 'ref' | 'value' | 'method'>,
  after: Snapshot,
): string | undefined {
  if (!/\n/.test(r.value ?? '') || r.method !== 'pattern') return undefined;
  const line = after.elements.find((l) => l.ref === r.ref);
  const paragraphs =
    PARAGRAPH_TEXT.has(line?.role ?? '') ||
    after.elements.some((l) => l.parent === r.ref && PARAGRAPH_TEXT.has(l.role));
  if (!paragraphs) return undefined;
  return 'its line breaks are line breaks inside one paragraph (inserted as text, like Shift+Enter), not new paragraphs: ' +
    'for a new paragraph type the text without the line break and press Return with computer_keys';
}

/**
 * A toggle's driver detail once the settled snapshot shows the state flipped: a driver that read the element right
 * after the action may have said it had not flipped yet (the Linux driver: "state did not flip yet"), which next to
 * "now checked" read as a contradiction. It flipped while the app settled, and the detail says so.
 */
export function settledToggleDetail(detail: string): string {
  return detail.replace(/; state did not flip yet\b/, '; it flipped after the first read');
}
