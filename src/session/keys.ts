/** Keyboard input to a window, through the acting pipeline, with the same effects report as element actions. */
import type { WindowInfo } from '../engine/node.js';
import type { Chord } from '../protocol/keys.js';
import type { KeysResult } from '../protocol/methods.js';
import { parseChords } from './chords.js';
import type { Effects } from './effects.js';
import { collectEffects, openWindows } from './effects.js';
import { liveFocus, perform, type PipelineContext } from './pipeline.js';
import type { Session, SettleOptions } from './session.js';

/**
 * Sends keys to a window. The keys are parsed first, once, into wire chords (chords.ts) that the policy and
 * the driver read (a bad key name fails before anything is asked or sent);
 * the focused element and the mnemonics are read live from the window just before the decision, so typing
 * into a password field asks even when the model never observed the window.
 */
export async function runKeys(session: Session, window: WindowInfo, keys: string, settle?: Partial<SettleOptions>,
  ctx: PipelineContext = {}): Promise<{ result: KeysResult; effects: Effects; chords: Chord[] }> {
  const chords = parseChords(keys);
  const live = await liveFocus(session, window);
  const { result, settled } = await perform(session, ctx, {
    request: { tool: 'computer_keys', app: window.app, pid: window.pid, window: window.id, keys, chords, title: window.title,
      ...(window.startTime !== undefined ? { startTime: window.startTime } : {}), ...live },
    dispatch: async (d) => {
      const before = await openWindows(session);
      // The driver proves the focused window belongs to this process (pid, start time) before sending.
      return { sent: await d.call('input.keys', { window: window.id, chords, expect: { pid: window.pid, ...(window.startTime !== undefined ? { startTime: window.startTime } : {}) } }), before };
    },
    settle: async ({ before }) => collectEffects(session, window, before, { ...session.settleDefaults, ...(settle ?? {}) }),
    receipt: ({ sent }) => ({ status: 'unknown', detail: `${sent.method} key events` }),
  });
  return { result: result.sent, effects: settled, chords };
}
