import { Type } from '@sinclair/typebox';
import { CAPS, defineTool, STRICT } from './tool.js';

export const launchTool = defineTool({
  schema: {
    name: 'computer_launch',
    title: 'Launch an app',
    description: 'Start an application (optionally with a file or URL argument) and return a snapshot of its window.',
    inputSchema: Type.Object({
      command: Type.String({ minLength: 1, maxLength: CAPS.arg, description: 'Executable name, e.g. "gedit"' }),
      args: Type.Optional(Type.Array(Type.String({ maxLength: CAPS.arg }), { maxItems: 64, description: 'Arguments, e.g. a file path or URL' })),
      waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60000, description: 'How long to wait for a window (default 15000)' })),
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session }, p, response) {
    const decision = await session.gate.check({ tool: 'computer_launch', command: [p.command, ...(p.args ?? [])].join(' ') });
    const res = await session.device.call('apps.launch', { command: p.command, args: p.args ?? [], waitForWindowMs: p.waitMs ?? 15000 },
      (p.waitMs ?? 15000) + 10000).catch((e: Error) => { decision.done('failed', e.message); throw e; });
    decision.done('dispatched');
    if (!res.window) { response.add(`launched ${p.command} pid=${res.pid} (no window yet)`); return; }
    const raw = await session.readWindow(res.window);
    const { full } = session.snapshotOf(raw);
    response.add(`launched ${p.command} pid=${res.pid} · window [${session.windows.refOf(raw.window)}]`);
    response.add(full.text);
  },
});
