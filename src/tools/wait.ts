import { quoteText } from '../engine/escape.js';
import { Type } from '@sinclair/typebox';
import { redactText } from '../engine/redact.js';
import { ComputerUseError } from '../protocol/errors.js';
import { identityView } from '../policy/gate.js';
import type { SnapshotLine } from '../engine/snapshot.js';
import { ROLES } from '../engine/role.js';
import { CAPS, defineTool, DEVICE, ENUM_UNLISTED, PROP_UNLISTED, REF, STRICT } from './tool.js';

export const waitTool = defineTool({
  schema: {
    name: 'computer_wait',
    title: 'Wait',
    description: 'Until an element (text and/or role, or ref) appears or disappears, a ref\'s value changes, or a window whose ' +
      'title contains text appears.',
    inputSchema: Type.Object({
      device: DEVICE,
      until: Type.Union([
        Type.Literal('appears'),
        Type.Literal('disappears'),
        Type.Literal('value_changes'),
        Type.Literal('window_appears'),
      ]),
      text: Type.Optional(Type.String({ maxLength: CAPS.text })),
      role: Type.Optional(Type.Union(ROLES.map((r) => Type.Literal(r)), { [ENUM_UNLISTED]: true })),
      ref: Type.Optional(Type.String(REF)),
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 120000, [PROP_UNLISTED]: true })),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session, signal }, p, response) {
    const timeoutMs = p.timeoutMs ?? 10000;
    const deadline = performance.now() + timeoutMs;
    const text = p.text?.toLowerCase();
    const matches = (l: SnapshotLine): boolean =>
      (p.ref ? l.ref === p.ref : true) &&
      (!p.role || l.role === p.role) &&
      (!text ||
        (l.name ?? '').toLowerCase().includes(text) ||
        (!l.states.includes('password') && (l.value ?? '').toLowerCase().includes(text)));
    if (p.until !== 'window_appears' && !p.ref && !p.text && !p.role)
      throw new ComputerUseError('invalid_params', 'Give ref, text or role.');
    if (p.until === 'value_changes' && !p.ref)
      throw new ComputerUseError('invalid_params', 'value_changes needs a ref.');
    // A ref never issued must not read as "gone" (a disappears wait would report success on nothing).
    if (p.ref && !session.refs.lookup(p.ref))
      throw new ComputerUseError(
        'unknown_ref',
        `Ref ${p.ref} was never issued in this session. Call computer_observe to get refs.`,
      );
    const target = {
      ...(p.app !== undefined ? { app: p.app } : {}),
      ...(p.window !== undefined ? { window: p.window } : {}),
    };
    const initialWindows = new Set((await session.apps()).flatMap((a) => a.windows.map((w) => w.id)));
    let initialValue: string | undefined;
    for (let round = 0; ; round++) {
      if (signal?.aborted) throw new ComputerUseError('timeout', 'The wait was cancelled.');
      if (p.until === 'window_appears') {
        const apps = await session.apps();
        // A denied app's window never matches and is never read (denied means unseen).
        const hit = apps
          .flatMap((a) => a.windows.filter((w) => !session.hidden({ ...identityView(a), ...w })))
          .find(
            (w) =>
              (!initialWindows.has(w.id) || round === 0) &&
              (!text || w.title.toLowerCase().includes(text)) &&
              (text || !initialWindows.has(w.id)),
          );
        if (hit) {
          const raw = await session.readWindow(hit);
          response.add(`window [${session.windows.refOf(hit)}] ${quoteText(redactText(hit.title))} is open`);
          // A window that appeared is printed whole, as launch prints its window (kept as printed for observe).
          response.add(session.present(session.snapshotOf(raw).full, true));
          return;
        }
      } else {
        const window = await session.resolveWindow(
          p.ref ? { window: session.refs.lookup(p.ref) ? windowRefOf(session, p.ref) : '' } : target,
        );
        const raw = await session.readWindow(window);
        const { full } = session.snapshotOf(raw);
        const found = full.elements.filter(matches);
        if (p.until === 'appears' && found.length) {
          response.add(
            `appeared: ${found
              .slice(0, 5)
              .map((l) => l.text)
              .join('\n')}`,
          );
          return;
        }
        if (p.until === 'disappears' && !found.length) { response.add('gone: no element matches any more'); return; }
        if (p.until === 'value_changes') {
          const v = found[0]?.value ?? '';
          if (round === 0) initialValue = v;
          else if (v !== initialValue) { response.add(`changed: ${found[0]?.text ?? `${p.ref} is gone`}`); return; }
        }
      }
      if (performance.now() >= deadline)
        throw new ComputerUseError(
          'timeout',
          `The condition "${p.until}" did not hold within ${timeoutMs} ms. Observe the window to see its ` +
            `state; a longer wait takes timeoutMs (up to 120000).`,
        );
      // Wake on the next UI events (or after a short poll interval).
      await session.device.call(
        'ui.settle',
        { quietMs: 50, timeoutMs: Math.round(Math.min(500, Math.max(0, deadline - performance.now()))) },
        6000,
      );
    }
  },
});

function windowRefOf(session: import('../session/session.js').Session, ref: string): string {
  const fp = session.refs.lookup(ref)!.fingerprint;
  const last = session.last.get(fp.window);
  return last ? session.windows.refOf(last.window) : '';
}
