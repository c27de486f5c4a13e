/** Keyboard input to a window, through the acting pipeline, with the same effects report as element actions. */
import type { RawNode, WindowInfo } from '../engine/node.js';
import { quoteText } from '../engine/escape.js';
import { titlePair } from '../engine/diff.js';
import { ComputerUseError, isComputerUseError } from '../protocol/errors.js';
import type { Chord } from '../protocol/keys.js';
import type { KeysResult } from '../protocol/methods.js';
import { parseChords } from './chords.js';
import type { Effects } from './effects.js';
import { collectEffects, openWindows } from './effects.js';
import { liveRead, perform, type Dispatcher, type PipelineContext } from './pipeline.js';
import type { LiveFacts } from './steps.js';
import { EDIT_SETTLE_MS, type Session, type SettleOptions } from './session.js';
import { keysStep } from './steps.js';
import { planSubmit, submitNow, type SubmitPlan } from './submit.js';
import { nameFocusHolder } from './focus-holder.js';
import { dialogOutcome, endsInReturn } from './dialog-close.js';
import type { FocusedFacts } from '../policy/gate.js';

/**
 * Sends keys to a window. The keys are parsed first, once, into wire chords (chords.ts) that the policy and
 * the driver read (a bad key name fails before anything is asked or sent);
 * the focused element and the mnemonics are read live from the window just before the decision, so typing
 * into a password field asks even when the model never observed the window. A submitting key (Return in a
 * field, a file chooser or a terminal) is judged by what it submits (submit.ts): the keys before it are sent,
 * the field is read again, and the submit goes only if it still submits what was decided on.
 */
export async function runKeys(
  session: Session,
  window: WindowInfo,
  keys: string,
  settle?: Partial<SettleOptions>,
  ctx: PipelineContext = {},
): Promise<{ result: KeysResult; effects: Effects; chords: Chord[]; focused?: FocusedFacts; treeless: boolean }> {
  const chords = parseChords(keys);
  // A window with no tree (its app busy, or off the accessibility bus) is known from the display only: its focus is
  // not read, so the policy judges the keys as going to an unknown element (docs/policy.md, "Threat model").
  const { live, root } = await liveRead(session, window).catch((e: unknown): { live: LiveFacts; root: undefined } => {
    if (isComputerUseError(e, 'unsupported')) return { live: {}, root: undefined };
    throw e;
  });
  const guesses = session.gate.ownRoots?.() ?? [];
  const plan = root ? planSubmit(root, chords, guesses) : undefined;
  const expect = { pid: window.pid, ...(window.startToken !== undefined ? { startToken: window.startToken } : {}) };
  const { result, settled } = await perform(session, ctx, {
    request: keysStep(window, keys, chords, live, {
      ...(plan?.kind === 'field' ? { paths: plan.paths } : {}),
      ...(plan?.kind === 'terminal'
        ? { terminal: { ...(plan.line !== undefined ? { line: plan.line } : {}), multiple: plan.multiple } }
        : {}),
    }),
    dispatch: async (d) => {
      const before = await openWindows(session);
      // The driver proves the focused window belongs to this process (pid, start token) before sending.
      const send = (part: Chord[]): Promise<KeysResult> =>
        d.call('input.keys', { window: window.id, chords: part, expect }).catch((e: unknown) => {
          throw nameFocusHolder(session, e);
        });
      if (!plan || (plan.kind === 'terminal' && !d.confirmed)) return { sent: await send(chords), before };
      if (plan.at > 0) await send(chords.slice(0, plan.at));
      await checkSubmit(session, window, plan, d, guesses);
      return { sent: await send(chords.slice(plan.at)), before };
    },
    // Keys change state the app shows on a timer, as edits do (test/e2e/act/gnumeric-status): as long a settle.
    // A Return may close its dialog only once the app handled it (GTK 4's Save): waited on, bounded (dialog-close.ts).
    settle: async ({ before }) => {
      const fx = await collectEffects(session, window, before,
        { ...session.settleDefaults, minMs: EDIT_SETTLE_MS, ...(settle ?? {}) });
      return endsInReturn(chords)
        ? dialogOutcome(session, window, fx, { ...session.settleDefaults, ...(settle ?? {}) })
        : fx;
    },
    // The audit's receipt is the one the tool prints: confirmed by what the keys visibly did (keysSeen).
    receipt: ({ sent }, fx) => {
      const seen = keysSeen(fx);
      return { status: seen ? 'confirmed' : 'unknown', detail: `${sent.method} key events${seen ? `; ${seen}` : ''}` };
    },
  });
  return {
    result: result.sent, effects: settled, chords, ...(live.focused ? { focused: live.focused } : {}),
    treeless: root === undefined,
  };
}

/**
 * What keys visibly did, which confirms them as it confirms a click: a window opened or closed, or the window
 * changed (focus moves alone do not count). Undefined when nothing shows (the receipt is then `unknown`).
 */
export function keysSeen(fx: Pick<Effects, 'newWindows' | 'closedWindows' | 'diff' | 'title'>): string | undefined {
  const title = fx.title
    ? `the window title changed: ${titlePair(fx.title.before, fx.title.after)}`
    : undefined;
  return fx.newWindows.length
    ? 'a window appeared'
    : fx.closedWindows.length
      ? 'a window closed'
      : fx.diff.some((l) => !l.startsWith('focus:'))
        ? `the window changed${title ? `; ${title}` : ''}`
        : title;
}

/** Roles of a view's items: keys sent while one has the focus act on that item (F2 renames it, Enter opens it). */
const ITEM_ROLES = new Set(['cell', 'row', 'listitem', 'treeitem']);

/**
 * Where keys went when the focus was on an item of a view (its current item), for the receipt: a view's current
 * item is not always the row the model selected, and F2 or Enter act on the current one. Undefined otherwise.
 */
export function currentItemNote(focused: FocusedFacts | undefined): string | undefined {
  if (!focused || !ITEM_ROLES.has(focused.role)) return undefined;
  return `sent to the current item: ${focused.role}${focused.name ? ` ${quoteText(focused.name)}` : ''}`;
}

/** How long the typed keys may take to show in the field or terminal before the submit is held back. */
const SHOW_MS = 2000;
const POLL_MS = 100;

/**
 * Reads the window again once the keys before a submit were sent. A field: the paths it now names must not
 * be the tool's own (a chooser's autocompletion or an earlier call may have filled it). A terminal whose
 * command a human approved: its line must read as the question quoted it, else nothing is submitted.
 */
async function checkSubmit(
  session: Session,
  window: WindowInfo,
  plan: SubmitPlan,
  d: Dispatcher,
  guesses: readonly string[],
): Promise<void> {
  const deadline = Date.now() + SHOW_MS;
  let now: ReturnType<typeof submitNow>;
  for (;;) {
    const root: RawNode = (await session.readWindow(window)).root;
    now = submitNow(root, guesses);
    const settledOn = plan.kind === 'terminal' ? now.line === plan.line : samePaths(now.paths, plan.paths);
    if (settledOn || Date.now() > deadline || d.signal?.aborted) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (plan.kind === 'terminal') {
    if (now.line !== plan.line) {
      throw new ComputerUseError(
        'stale_ref',
        `The command line now reads ${JSON.stringify(now.line ?? '')}, not what the user approved; Return ` +
          `was not sent ` +
          '(the typed characters were). Observe the terminal; Return alone will ask about the line as it reads.',
      );
    }
    return;
  }
  const why = session.gate.ownFile?.(now.paths);
  if (why)
    throw new ComputerUseError('denied_by_policy', `${why} The keys before Return were typed; Return was not sent.`);
}

const samePaths = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((p, i) => p === b[i]);
