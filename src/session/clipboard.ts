/**
 * The clipboard's acting steps: read, write, and paste into a window (optional text first, then Primary+v, one
 * policy decision for both). Each runs through the one acting pipeline; the tool only words the outcome.
 */
import type { ProcessFacts } from '../policy/apps.js';
import type { ClipboardResult } from '../protocol/methods.js';
import type { Chord } from '../protocol/keys.js';
import type { WindowInfo } from '../protocol/nodes.js';
import { collectEffects, openWindows, type Effects } from './effects.js';
import { identifyOn } from './identify.js';
import { liveRead, perform, type PipelineContext } from './pipeline.js';
import type { Session } from './session.js';
import { clipboardStep, pasteStep } from './steps.js';
import { keysGoToTerminal } from './submit.js';

/** Paste is the platform's shortcut modifier + v: Primary is Command on macOS, Control elsewhere (protocol/keys.ts). */
const PASTE: Chord[] = [{ mods: ['Primary'], key: 'v' }];
const none = async (): Promise<undefined> => undefined;

/**
 * Reads the clipboard with what the device's driver proves of its owner. `refusal` says why the text may not be
 * returned (the audit's done record says it was withheld); the caller refuses with the same words.
 */
export async function readClipboard(
  session: Session,
  ctx: PipelineContext,
  refusal: (read: ClipboardResult, facts: ProcessFacts | undefined) => string | undefined,
): Promise<{ read: ClipboardResult; facts: ProcessFacts | undefined }> {
  const { result } = await perform(session, ctx, {
    request: clipboardStep('clipboard_read'),
    dispatch: async (d) => {
      const read = await d.call('input.clipboard', { action: 'read' });
      const facts =
        read.owner?.pid !== undefined ? await identifyOn((m, q) => d.call(m, q), read.owner.pid) : undefined;
      return { read, facts };
    },
    settle: none,
    receipt: ({ read, facts }) => {
      const why = refusal(read, facts);
      return why
        ? { status: 'rejected', detail: why }
        : { status: 'confirmed', detail: `${[...(read.text ?? '')].length} characters` };
    },
  });
  return result;
}

/** Puts text on the clipboard. */
export async function writeClipboard(session: Session, ctx: PipelineContext, text: string): Promise<void> {
  await perform(session, ctx, {
    request: clipboardStep('clipboard_write', text),
    dispatch: (d) => d.call('input.clipboard', { action: 'write', text }),
    settle: none,
    receipt: () => ({ status: 'unknown', detail: `${[...text].length} characters written` }),
  });
}

/**
 * Pastes into a window: the focused element is read live first (a paste into a password field asks), and a
 * terminal runs each pasted line, so text with a line break, or the clipboard's unread text, counts as commands.
 */
export async function pasteInto(
  session: Session,
  ctx: PipelineContext,
  window: WindowInfo,
  text: string | undefined,
): Promise<Effects> {
  const { live, root } = await liveRead(session, window);
  const runs = keysGoToTerminal(root) && (text === undefined || /[\r\n]/.test(text));
  const { settled } = await perform(session, ctx, {
    request: pasteStep(window, text, live, runs),
    dispatch: async (d) => {
      const before = await openWindows(session);
      if (text !== undefined) await d.call('input.clipboard', { action: 'write', text });
      await d.call('input.keys', {
        window: window.id,
        chords: PASTE,
        expect: { pid: window.pid, ...(window.startToken !== undefined ? { startToken: window.startToken } : {}) },
      });
      return before;
    },
    settle: (before) => collectEffects(session, window, before, session.settleDefaults),
    receipt: () => ({ status: 'unknown', detail: 'Primary+v' }),
  });
  return settled;
}
