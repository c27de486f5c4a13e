import { Type } from '@sinclair/typebox';
import { nameText } from '../engine/escape.js';
import { checkLaunched } from '../policy/launch.js';
import { ComputerUseError } from '../protocol/errors.js';
import { perform } from '../session/pipeline.js';
import { CAPS, defineTool, DEVICE, PROP_UNLISTED, STRICT } from './tool.js';

export const launchTool = defineTool({
  schema: {
    name: 'computer_launch',
    title: 'Launch an app',
    description: 'Start an app (args: files, URLs) and snapshot its window.',
    inputSchema: Type.Object({
      device: DEVICE,
      command: Type.String({ minLength: 1, maxLength: CAPS.arg }),
      args: Type.Optional(Type.Array(Type.String({ maxLength: CAPS.arg }), { maxItems: 64 })),
      waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 60000, [PROP_UNLISTED]: true })),
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session, stop, signal }, p, response) {
    const waitMs = p.waitMs ?? 15000;
    const { result: res, settled } = await perform(session, { stop, signal }, {
      request: { tool: 'computer_launch', command: [p.command, ...(p.args ?? [])].join(' '), argv: [p.command, ...(p.args ?? [])] },
      dispatch: async (d) => {
        const r = await d.call('apps.launch', { command: p.command, args: p.args ?? [], waitForWindowMs: waitMs }, waitMs + 10000);
        // Defense in depth: what really started is checked again; a denied program is ended at once.
        const denied = checkLaunched(session.gate, r.window ?? { app: p.command, pid: r.pid, title: '' });
        if (denied) {
          // Only this machine's own pids may be ended from here: a remote device (ssh, paired, adb) has its own pid
          // space, and the same number on this machine can be an unrelated process.
          if (session.device.name !== 'local') {
            throw new ComputerUseError('denied_by_policy', `The started program turned out to be one computer-use may not act on: ${denied}. It runs on device ${session.device.name} (pid ${r.pid} there) and was not ended from here; it is unseen and untouchable. Ask the user to close it and do this step themselves.`);
          }
          try { process.kill(r.pid, 'SIGKILL'); } catch { /* already gone */ }
          throw new ComputerUseError('denied_by_policy', `The started program turned out to be one computer-use may not act on: ${denied}. It was ended (pid ${r.pid}). Ask the user to do this step themselves.`);
        }
        return r;
      },
      // The launched window, read once: that is what the model sees first.
      settle: async (r) => (r.window ? session.snapshotOf(await session.readWindow(r.window)) : undefined),
      receipt: (r) => (r.window ? { status: 'confirmed', detail: `pid ${r.pid}; a window appeared` } : { status: 'unknown', detail: `pid ${r.pid}; no window yet` }),
    });
    if (!res.window || !settled) { response.add(`launched ${nameText(p.command)} pid=${res.pid} (no window yet after ${waitMs} ms: computer_wait until window_appears, or launch with a longer waitMs, up to 60000)`); return; }
    response.add(`launched ${nameText(p.command)} pid=${res.pid} · window [${session.windows.refOf(settled.full.window)}]`);
    response.add(settled.full.text);
  },
});
