/** Plain-text formatting shared by the tools. */
import { escapeLine, nameText, quoteText } from '../engine/escape.js';
import type { AppInfo, WindowInfo } from '../engine/node.js';
import { focusOnce } from '../engine/diff-focus.js';
import { redactText } from '../engine/redact.js';
import { MAX_NAME_CHARS, quote } from '../engine/measure.js';
import { renderHeader } from '../engine/render.js';
import type { Snapshot } from '../engine/snapshot.js';
import { adviseError, remedyAdvice } from './remedy.js';
import { remediesOf } from '../protocol/errors.js';
import type { WindowTable } from '../session/windows.js';
import type { ActOutcome } from '../session/act.js';
import type { ActionReceipt } from '../session/receipts.js';
import { identityView, type IdentityView } from '../policy/gate.js';

/** "w1 window "Title" focused 910x756" (the title masked like a value). */
export function windowLine(w: WindowInfo, table: WindowTable): string {
  const size = w.bounds ? ` ${w.bounds[2]}x${w.bounds[3]}` : '';
  return `[${table.refOf(w)}] ${w.role} ${quoteText(redactText(w.title))}${w.focused ? ' focused' : ''}${size}`;
}

/** Why an app or window is hidden from reads (Session.hidden), or undefined. */
export type HiddenCheck = (w: { app: string; pid: number; title?: string } & IdentityView) => string | undefined;

/**
 * The computer_apps listing. A denied app is listed as `<name> (denied: <why>)` with no window titles and no
 * window refs (a denied app is unseen, but the model learns why it cannot use it).
 */
export function formatApps(apps: AppInfo[], table: WindowTable, hidden: HiddenCheck = () => undefined): string {
  if (apps.length === 0) return 'No accessible apps are running. Start one with computer_launch.';
  const lines: string[] = [];
  for (const a of apps) {
    // The app's proof (executable, copies by content, package) also judges each of its windows.
    const exe = identityView(a);
    const why = hidden({ app: a.name, pid: a.pid, ...exe });
    if (why) { lines.push(`${appName(a)} (denied: ${escapeLine(why)})`); continue; }
    const shown = a.windows.filter((w) => !hidden({ ...w, ...exe }));
    if (a.windowless) {
      lines.push(`${appName(a)} pid=${a.pid} (${windowlessWhy(a.windowless.ageMs, apps, hidden)})`);
      continue;
    }
    if (a.inaccessible) {
      // Running, with windows, but off the accessibility bus: say so, so that no second copy is started.
      lines.push(`${appName(a)} pid=${a.pid} (not accessible: ${escapeLine(a.inaccessible.reason)})`);
      // The driver's fix is outside text; the remedies are names the host words in its tools' names.
      const fix = [a.inaccessible.fix ? escapeLine(a.inaccessible.fix) : '', remedyAdvice(remediesOf(a.inaccessible))]
        .filter(Boolean)
        .join(' ');
      if (fix) lines.push(`  fix: ${fix}`);
      for (const w of shown)
        lines.push(`  ${windowLine(w, table)} · no tree: computer_screenshot {"window":"${table.refOf(w)}"}`);
    } else {
      lines.push(
        `${appName(a)} pid=${a.pid}` + `${a.busy ? ' (busy: not answering)' : a.windows.length ? '' : ' (no windows)'}`,
      );
      // A busy app's windows come from the display's list: no tree until it answers, but keys, clicks and OCR reach
      // them.
      if (a.busy && shown.length) lines.push(`  ${BUSY_WAY_OUT}`);
      for (const w of shown) lines.push(`  ${windowLine(w, table)}`);
    }
    const n = a.windows.length - shown.length;
    if (n)
      lines.push(
        `  (${n} window${n === 1 ? '' : 's'} hidden: ` +
          `${escapeLine(hidden({ ...a.windows.find((w) => !shown.includes(w))!, ...exe }) ?? '')})`,
      );
  }
  return lines.join('\n');
}

/** A launch still running while it shows no window yet. */
const STARTING_MS = 15_000;

/**
 * Why a launched process shows no window, as far as the list tells: a denied app that is open may be what it waits
 * for (a keyring prompt a browser's first start opens), else it is young (still starting), else it runs windowless.
 */
function windowlessWhy(ageMs: number, apps: readonly AppInfo[], hidden: HiddenCheck): string {
  const age = `launched ${Math.round(ageMs / 1000)} s ago, no window`;
  for (const a of apps) {
    if (a.windowless) continue;
    const why = hidden({ app: a.name, pid: a.pid, ...identityView(a) });
    const who = a.name ? nameText(a.name) : 'an app';
    if (why)
      return (
        `${age}: ${who}, which computer-use may not see (${escapeLine(why)}), is open and may be what it waits ` +
        `for; ` +
        'ask the user to answer or close it'
      );
  }
  return ageMs < STARTING_MS ? `${age} yet: still starting`
    : `${age}: it runs without one (waiting for something, or a program that shows none)`;
}

/**
 * What to do about an app that does not answer while one of its windows waits (a modal dialog it opened inside the
 * act that opened it): its windows, listed from the display, are read by OCR and take a pointer click. Keys did not
 * reach a GTK 3 dialog run inside the click's own accessibility call (test/apps/busy-dialog.py): the app's bridge
 * waits on the bus with each key event, so the keys stay queued until the call returns.
 */
const BUSY_WAYS =
  'read it with computer_screenshot (OCR) and click its button (computer_act on the oN ref, or ' +
  'computer_input); ' +
  'keys may not reach it while the app is stuck inside an accessibility call';
const BUSY_WAY_OUT =
  'its windows below are from the display (no tree while it is busy; a dialog of its own may be waiting): ' +
  `${BUSY_WAYS}.`;

/** An app's name as the first word of its line: bare when one plain word, else quoted (engine/escape.ts). */
function appName(a: AppInfo): string {
  return a.name ? nameText(a.name) : '(unnamed)';
}

/**
 * A bare accessibility call as a driver names what it did: `Action.DoAction(0) "Click"`,
 * `EditableText.SetTextContents`, `EditableText.InsertText at 0`, `Selection.SelectChild on parent`.
 */
const CALL_NAME = /^[A-Z][A-Za-z]*\.[A-Z][A-Za-z]*(?:\(\d*\))?(?: "[^"\n]{0,40}"| at \d+| on parent)?$/;

/**
 * The words in a receipt's parentheses: a confirmed act prints its evidence ("checked on", "value now reads as
 * set") without the call that did it, which a model cannot use once the effect is seen (~9 tokens a receipt);
 * an act not confirmed keeps it (it says what was tried), and so does a driver's prose (a fallback, the current
 * item). The receipt's `detail` keeps everything for the audit log.
 */
export function receiptWords(r: Pick<ActionReceipt, 'status' | 'detail' | 'how'>): string {
  const how = r.how;
  if (r.status !== 'confirmed') return r.detail;
  const words = how !== undefined && CALL_NAME.test(how) && r.detail.startsWith(`${how}; `)
    ? r.detail.slice(how.length + 2)
    : r.detail;
  return withoutShownEffects(words);
}

/**
 * The effects a receipt's own lines print right below it (the diff, `new window [w2] …`, `window closed: [w2] …`,
 * `[w1] … of the same app changed:`): a confirmed receipt does not say them again in its words, `confirmed` alone
 * reads as "by what follows" (~5 tokens on most receipts). The receipt's `detail` keeps them for the audit log.
 */
const SHOWN_BELOW =
  /^(?:the window changed|a window appeared|a window closed|a popup window opened|the app's window \[w\d+\] changed)$/;

/** Words without the phrases that name an effect printed below them (SHOWN_BELOW), `; `-separated. */
export function withoutShownEffects(words: string): string {
  return words.split('; ').filter((w) => !SHOWN_BELOW.test(w)).join('; ');
}

/** A receipt's status and its words in parentheses, or the status alone when nothing is left to say. */
export function statusWords(status: string, words: string): string {
  return words ? `${status} (${words})` : status;
}

/**
 * A snapshot's text under one line that names its window once: `[w2] dialog "Find and Replace" [focused] · app
 * soffice pid=3923` and, when given, what a launch adds (`· ran as given`). The snapshot's own header (`app soffice
 * pid=3923 · dialog "Find and Replace" [focused]`) said every fact of it again, right below.
 */
export function withHeader(
  ref: string,
  snapshot: Pick<Snapshot, 'text' | 'window'>,
  o: { tail?: string; app?: boolean; role?: boolean } = {},
): string {
  const w = snapshot.window;
  const head = renderHeader(w);
  const role = o.role === false ? '' : ` ${w.role}`;
  const tail = o.tail ?? '';
  if (!snapshot.text.startsWith(`${head}\n`) && snapshot.text !== head)
    return `[${ref}]${role} ${quoteText(redactText(w.title))}${tail}:\n${snapshot.text}`;
  return `[${ref}]${role} ${quote(w.title, MAX_NAME_CHARS)}${w.focused ? ' [focused]' : ''}` +
    `${o.app === false ? '' : ` · app ${nameText(w.app)} pid=${w.pid}`}${tail}${snapshot.text.slice(head.length)}`;
}

/** The computer_act result: one line per action, the diff, new windows with their snapshots. */
export function formatActOutcome(o: ActOutcome, table: WindowTable): string {
  const lines: string[] = [];
  for (const r of o.receipts) {
    const head = r.status === 'failed' || r.status === 'rejected' ? r.status : 'ok';
    const code = r.error ? ` ${r.error.code}:` : '';
    // The detail and the error's message carry driver and app text (engine/escape.ts): one line each.
    // A cell named by address (or a row's expander cell) reads as asked, then the ref acted on: "e34:B4 (e93)".
    const ref = r.asked !== undefined ? `${r.asked} (${r.ref})` : r.ref;
    const outcome =
      r.status === 'failed' || r.status === 'rejected'
        ? `${code} ${escapeLine(r.error ? adviseError(r.error) : r.detail)}`.trim()
        : statusWords(r.status, escapeLine(receiptWords(r)));
    lines.push(`${head} ${r.op} ${ref} · ${outcome}`);
  }
  // The focus said once (engine/diff-focus.ts): a window that appeared with the act took it.
  const diff = focusOnce(o.diff, {
    newWindow: o.newWindows.length + (o.popups?.length ?? 0) + (o.unread?.length ?? 0) > 0,
  });
  // A closed dialog first, then what it did to the window that took the focus back.
  for (const w of o.refocused ? o.closedWindows : [])
    lines.push(`window closed: [${table.refOf(w)}] ${quoteText(redactText(w.title))}`);
  // A title the diff shows renamed (`~ [e1] window name "*a…" → "a - Editor"`) is said there, once.
  if (o.refocused)
    lines.push(
      `[${table.refOf(o.refocused)}] ${o.refocused.role}` +
        `${o.retitled ? '' : ` ${quoteText(redactText(o.refocused.title))}`} has the ` +
        `focus back${diff.length ? ':' : ' (no visible change in it)'}`,
    );
  lines.push(...diff);
  for (const w of o.others ?? []) {
    lines.push(
      `[${table.refOf(w.window)}] ${w.window.role} ${quoteText(redactText(w.window.title))} of the same app ` +
        `changed:`,
    );
    lines.push(...w.diff);
  }
  if (o.busy) lines.push('(the app is busy: it did not answer after the act, so the window was not read again)');
  else if (
    !o.refocused &&
    o.receipts.some((r) => r.status === 'confirmed' || r.status === 'unknown') &&
    o.diff.length === 0 &&
    !o.others?.length &&
    !o.newWindows.length &&
    !o.closedWindows.length &&
    !o.popups?.length &&
    !o.unread?.length
  )
    lines.push('(no visible change in the window)');
  for (const w of o.popups ?? [])
    lines.push(`popup window [${table.refOf(w)}] opened (its items are the + lines above)`);
  for (const w of o.refocused ? [] : o.closedWindows)
    lines.push(`window closed: [${table.refOf(w)}] ${quoteText(redactText(w.title))}`);
  for (const n of o.newWindows) lines.push(`new window ${withHeader(table.refOf(n.window), n.snapshot)}`);
  for (const w of o.unread ?? [])
    lines.push(
      `new window [${table.refOf(w)}] ${w.role} ${quoteText(redactText(w.title))} (not read: its app is busy; ` +
        `observe it in a moment)`,
    );
  // The app stopped answering with a window open that the display lists: name the way out, not only "wait".
  if (o.busy && o.unread?.length) lines.push(`(the app may wait for an answer in a window above: ${BUSY_WAYS})`);
  if (o.freshSnapshot) { lines.push('fresh snapshot:'); lines.push(o.freshSnapshot.text); }
  if (o.settle && !o.settle.settled)
    lines.push(
      `(still changing after ${o.settle.ms} ms; observe again if needed, or wait longer next time with ` +
        `settle.timeoutMs)`,
    );
  return lines.join('\n');
}
