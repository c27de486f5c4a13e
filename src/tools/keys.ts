import { escapeLine, quoteText } from '../engine/escape.js';
import { Type } from '@sinclair/typebox';
import { keysTypeText } from '../policy/irreversible.js';
import { currentItemNote, keysSeen, runKeys } from '../session/keys.js';
import { closeChord, closeChordHint } from '../session/close.js';
import { formatActOutcome, statusWords, withoutShownEffects } from './format.js';
import { CAPS, defineTool, DEVICE, SETTLE, STRICT } from './tool.js';

export const keysTool = defineTool({
  schema: {
    name: 'computer_keys',
    title: 'Send keys',
    // The grammar (docs/tools.md, "Keys"): ctrl is Primary (Command on macOS), control the real Control; DOM and X key
    // names.
    description: 'Key chords to a window (focused first), e.g. "ctrl+s" (Cmd on macOS), "Enter".',
    inputSchema: Type.Object({
      device: DEVICE,
      keys: Type.String({ minLength: 1, maxLength: CAPS.keys }),
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      settle: SETTLE,
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session, stop, signal }, p, response) {
    const window = await session.resolveWindow({
      ...(p.app !== undefined ? { app: p.app } : {}),
      ...(p.window !== undefined ? { window: p.window } : {}),
    });
    const { result, effects, chords, focused, treeless } = await runKeys(
      session,
      window,
      p.keys,
      {
        ...(p.settle?.quietMs !== undefined ? { quietMs: p.settle.quietMs } : {}),
        ...(p.settle?.timeoutMs !== undefined ? { timeoutMs: p.settle.timeoutMs } : {}),
      },
      { stop, signal },
    );
    // Typed characters are not echoed (they may be a password); shortcuts are.
    const shown = keysTypeText({ chords })
      ? `<${p.keys.split(/\s+/).filter(Boolean).length} keys typed, not shown>`
      : quoteText(p.keys);
    // Keys whose effect shows (a window opened or closed, the window changed) are confirmed by it, as clicks are:
    // Escape answered `unknown` above "window closed: [w2]" in a trial.
    const seen = keysSeen(effects);
    const refOf = session.windows.refOf.bind(session.windows);
    const item = currentItemNote(focused);
    // Keys whose effect shows print the effect; how they were sent is said only when nothing showed.
    const words = [
      ...(seen ? [] : [`${escapeLine(result.method)} key events`]),
      ...(result.focusedFirst ? ['the window was focused first'] : []),
      ...(item ? [item] : []),
      // The effect itself prints below (the diff, the new or closed window): only a title the diff lacks is said.
      ...(seen && withoutShownEffects(seen) ? [withoutShownEffects(seen)] : []),
    ].join('; ');
    const status = seen ? 'confirmed' : 'unknown';
    // A close chord the app did not bind: the window's close op does what its close button does.
    const closeHint = !seen && !effects.busy && !treeless && closeChord(chords)
      ? withHint(closeChordHint(session.last.get(window.id))) : '';
    const note = quietNote({ seen: seen !== undefined, busy: effects.busy === true, treeless }, refOf(window));
    response.add(`ok keys ${shown} → [${session.windows.refOf(window)}] · ` +
      statusWords(status, `${words}${words ? note : note.replace(/^; /, '')}${closeHint}`));
    response.add(formatActOutcome({ receipts: [], ...effects }, session.windows));
  },
});

/**
 * What a keys answer says when nothing showed. Said, so that a silent answer is not read as a change the tool missed
 * (or as a success); but a window with no accessibility tree (off the bus, or its app busy) shows nothing to the tool
 * whatever the keys did, so there it says the effect was not read and how to see it.
 */
export function quietNote(f: { seen: boolean; busy: boolean; treeless: boolean }, ref: string): string {
  if (f.seen) return '';
  if (f.treeless) {
    return '; the window has no accessibility tree, so their effect was not read: ' +
      `computer_screenshot window=${ref} shows it`;
  }
  return f.busy ? '' : '; nothing visible changed in the window';
}

const withHint = (hint: string | undefined): string => (hint ? `; ${hint}` : '');
