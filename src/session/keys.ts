/** Keyboard input to a window, through the policy, with the same effects report as element actions. */
import type { WindowInfo } from '../engine/node.js';
import { parseChords } from '../protocol/keys.js';
import type { KeysResult } from '../protocol/methods.js';
import type { Effects } from './effects.js';
import { collectEffects, openWindows } from './effects.js';
import type { Session, SettleOptions } from './session.js';

export async function runKeys(session: Session, window: WindowInfo, keys: string, settle?: Partial<SettleOptions>): Promise<{ result: KeysResult; effects: Effects }> {
  // What had focus when the model last looked: only used by the policy to add caution (Enter in a form field).
  const focusedLine = session.last.get(window.id)?.elements.find((l) => l.states.includes('focused'));
  const focused = focusedLine ? {
    role: focusedLine.role, ...(focusedLine.name !== undefined ? { name: focusedLine.name } : {}),
    multiline: focusedLine.states.includes('multiline'), password: focusedLine.states.includes('password'),
  } : undefined;
  const decision = await session.gate.check({ tool: 'computer_keys', app: window.app, pid: window.pid, window: window.id, keys, title: window.title,
    ...(window.startTime !== undefined ? { startTime: window.startTime } : {}), ...(focused ? { focused } : {}) });
  const before = await openWindows(session);
  let result: KeysResult;
  try {
    result = await session.device.call('input.keys', { chords: parseChords(keys), window: window.id });
  } catch (e) {
    decision.done('failed', (e as Error).message);
    throw e;
  }
  decision.done('dispatched', result.method);
  const effects = await collectEffects(session, window, before, { ...session.settleDefaults, ...(settle ?? {}) });
  return { result, effects };
}
