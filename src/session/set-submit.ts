/**
 * set_value with `submit`: set a field's text, give it the focus, then press Return in it, for fields that take
 * their value only on Return (a spreadsheet's Name Box, a viewer's page box, a zoom box). set_value alone writes
 * the text without the Return a person types after it, and the field then holds it unused. The Return goes through
 * the keys path (keys.ts), so the policy judges it by the field it goes to, as it judges any Enter; it is sent only
 * once the field is proven focused. The receipt says whether the field took the value: the view changed, or the
 * field reads something else now, or nothing changed at all. `type` with submit (text at the caret, then Return: a
 * calculator's expression line) takes the same path.
 */
import type { SettleOptions, Session } from './session.js';
import { HeldRecords, type PipelineContext } from './pipeline.js';
import { runActions, type ActionReceipt, type ActionSpec, type ActOutcome } from './act.js';
import { runKeys } from './keys.js';
import type { Effects } from './effects.js';
import { redactText } from '../engine/redact.js';
import { onlySelectionMoved } from './selection-diff.js';
import { ComputerUseError } from '../protocol/errors.js';
import { splitCellRef } from './cells.js';
import { joinDiffs } from '../engine/diff-join.js';

/**
 * Runs a call's actions where those at `submits` (set_value or type) press Return in their field: in steps, each
 * ending with one submitting action, so its Return goes before the next action resolves its ref (a cell entry is
 * committed before the next cell is typed into) and what follows is read from the window the Return left. The
 * steps' receipts and changes make one outcome; a step whose action failed or was refused ends the call there.
 */
export async function runSubmitting(session: Session, specs: ActionSpec[], submits: readonly number[],
  settle: Partial<SettleOptions> | undefined, ctx: PipelineContext): Promise<ActOutcome> {
  if (!submits.length) return runActions(session, specs, settle, ctx);
  const outcomes: ActOutcome[] = [];
  let from = 0;
  for (const at of [...submits, specs.length]) {
    if (at < from) continue;
    const part = specs.slice(from, at === specs.length ? at : at + 1);
    from = at + 1;
    if (!part.length) break;
    const out = submits.includes(at)
      ? await runSetAndSubmit(session, part.slice(0, -1), part[part.length - 1]!, settle, ctx)
      : await runActions(session, part, settle, ctx);
    outcomes.push(out);
    if (out.receipts.length < part.length || out.receipts.some((r) => r.status === 'failed' || r.status === 'rejected'))
      break;
  }
  return joinOutcomes(outcomes);
}

/** Outcomes of consecutive steps of one call as one: receipts and changes in order, the window and settle of the last. */
function joinOutcomes(outcomes: readonly ActOutcome[]): ActOutcome {
  if (outcomes.length === 1) return outcomes[0]!;
  const last = outcomes[outcomes.length - 1]!;
  const all = <K extends keyof ActOutcome>(
    k: K,
  ): NonNullable<ActOutcome[K]> extends readonly (infer T)[] ? T[] : never =>
    outcomes.flatMap((o) => (o[k] ?? []) as never[]) as never;
  const diff = outcomes.reduce<string[]>((d, o) => joinDiffs(d, o.diff), []);
  return { ...last, receipts: all('receipts'), diff, newWindows: all('newWindows'),
    closedWindows: all('closedWindows'), popups: all('popups'), others: all('others'), unread: all('unread'),
    ...(outcomes.some((o) => o.busy) ? { busy: true } : {}) };
}

/** Runs one set_value or type with submit (the last action of its step) after the actions before it. */
export async function runSetAndSubmit(
  session: Session,
  before: ActionSpec[],
  spec: ActionSpec,
  settle: Partial<SettleOptions> | undefined,
  ctx: PipelineContext,
): Promise<ActOutcome> {
  // The set_value's audit record waits for the Return's verdict: one outcome, the same in the receipt and the log.
  const held = new HeldRecords();
  try {
    return await setThenSubmit(session, before, spec, settle, ctx, held);
  } finally {
    held.release();
  }
}

/** runSetAndSubmit's steps, with the audit records of the set held until its receipt is final. */
async function setThenSubmit(session: Session, before: ActionSpec[], spec: ActionSpec,
  settle: Partial<SettleOptions> | undefined, ctx: PipelineContext, held: HeldRecords): Promise<ActOutcome> {
  const input: ActionSpec = {
    ref: spec.ref,
    op: spec.op === 'type' ? 'type' : 'set_value',
    value: spec.value ?? '',
    submit: true,
  };
  if (isCell(session, spec.ref))
    return enteredCell(await runActions(session, [...before, input], settle, { ...ctx, held }));
  const first = await runActions(session, [...before, input, { ref: spec.ref, op: 'focus' }], settle, { ...ctx, held });
  const focus = first.receipts.length === before.length + 2 ? first.receipts.pop() : undefined;
  const set = first.receipts[before.length];
  if (!set || set.status === 'failed' || set.status === 'rejected' || !first.window) return first;
  if (focus?.status !== 'confirmed') {
    set.detail += `; Return not sent: the field did not take the focus (${focus?.detail ?? 'focus failed'})`;
    return first;
  }
  const window = first.window;
  const shown = session.last.get(window.id)?.elements.find((l) => l.ref === spec.ref)?.value;
  let keys: Awaited<ReturnType<typeof runKeys>>;
  try {
    keys = await runKeys(session, window, 'Enter', settle, ctx);
  } catch (e) {
    // Refused by the policy (a field whose Return submits a form with an irreversible button), or failed: one
    // receipt says both halves, the text set and the Return not sent (two receipts for one action read as two acts).
    const err = e as ActionReceipt['error'];
    const refused =
      err?.code === 'denied_by_policy' ||
      err?.code === 'confirmation_required' ||
      err?.code === 'confirmation_declined';
    const why =
      `The text is set in the field (${set.detail}); the Return after it was not sent: ` +
      `${(e as Error).message.replace(/ ?Nothing was sent\./, '')}`;
    set.status = refused ? 'rejected' : 'failed';
    set.detail = why;
    if (err) set.error = new ComputerUseError(err.code, why, err.details);
    return first;
  }
  // The keys' effects waited for a dialog that closes only once its app handled the Return (dialog-close.ts).
  const fx = keys.effects;
  const closed = fx.closedWindows.some((w) => w.id === window.id);
  const taken = takenBy(fx, spec.ref, shown, set.before?.value, first.diff);
  set.detail += `; Return pressed in the field (${keys.result.method} key events): ${taken.words}`;
  if (!taken.taken && set.status === 'confirmed') set.status = 'unknown';
  return {
    ...first,
    receipts: first.receipts,
    // The dialog closed: what it did shows in the window that took the focus back, and its own changes are moot.
    diff: closed ? fx.diff : joinDiffs(first.diff, fx.diff),
    newWindows: [...first.newWindows, ...fx.newWindows],
    closedWindows: [...first.closedWindows, ...fx.closedWindows],
    popups: [...(first.popups ?? []), ...fx.popups],
    ...(closed && fx.refocused ? { refocused: fx.refocused } : {}),
    ...(closed && fx.retitled ? { retitled: true } : {}),
    settle: fx.settle,
    ...(fx.busy ? { busy: true } : {}),
  };
}

/**
 * Whether a ref names a sheet's cell (`e34:B7`, or a ref whose element is a cell): a cell takes its entry with the
 * Return the act itself presses, and a second Return moved the cursor on and lost the entries (Calc 7.4, measured).
 */
function isCell(session: Session, ref: string): boolean {
  return splitCellRef(ref) !== undefined || session.refs.lookup(ref)?.fingerprint.role === 'cell';
}

/** An outcome whose last receipt is a cell entry with submit: it says the act's own Return committed it. */
function enteredCell(out: ActOutcome): ActOutcome {
  const set = out.receipts[out.receipts.length - 1];
  if (set && (set.status === 'confirmed' || set.status === 'unknown'))
    set.detail += '; a cell takes its entry on the Return above';
  return out;
}

/**
 * Whether the field took its value on Return, from what the Return changed: another part of the window (the view
 * moved to the cell or page), a window that opened or closed, or the field's own text (normalized: "c5" → "C5";
 * back to what it held before, `old`: refused). `shown` is the field's text after the set_value (what Return
 * committed). `setDiff` is what the text itself changed: a field that searches as it is typed into has answered
 * before Return, and the verdict must agree with that diff, printed below it.
 */
export function takenBy(
  fx: Pick<Effects, 'diff' | 'newWindows' | 'closedWindows' | 'after'>,
  ref: string,
  shown: string | undefined,
  old: string | undefined,
  setDiff: readonly string[] = [],
): { taken: boolean; words: string } {
  const mark = `[${ref}]`;
  const changedElsewhere = (diff: readonly string[]): boolean =>
    diff.some((l) => !l.startsWith('focus:') && !l.includes(mark) && !onlySelectionMoved(l));
  if (fx.newWindows.length || fx.closedWindows.length)
    return { taken: true, words: fx.newWindows.length ? 'a window appeared' : 'a window closed' };
  const now = fx.after?.elements.find((l) => l.ref === ref)?.value;
  if (changedElsewhere(fx.diff)) return { taken: true, words: 'taken: the view changed (the diff below)' };
  // The focus left the field for the view (a spreadsheet's grid after its Name Box): the app handled the Return.
  const to = /^focus: (e\d+)/.exec(fx.diff.filter((l) => l.startsWith('focus:')).pop() ?? '')?.[1];
  if (to !== undefined && to !== ref) return { taken: true, words: `taken: the focus went from the field to [${to}]` };
  if (now !== undefined && old !== undefined && now === old && now !== shown) {
    return { taken: false, words: `not taken: the field reads "${redactText(now).slice(0, 40)}" again` };
  }
  if (now !== undefined && shown !== undefined && now !== shown)
    return { taken: true, words: `taken: the field now reads "${redactText(now).slice(0, 40)}"` };
  if (changedElsewhere(setDiff)) {
    return {
      taken: true,
      words: 'taken: the view changed as the text was set (the diff below); Return changed nothing more',
    };
  }
  return {
    taken: false,
    words:
      'nothing changed in the window, so the field may not have taken the value (observe it, or press Return with computer_keys)',
  };
}
