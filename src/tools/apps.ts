import { Type } from '@sinclair/typebox';
import { escapeLine, nameText } from '../engine/escape.js';
import { defineTool, DEVICE, STRICT } from './tool.js';
import { redactText } from '../engine/redact.js';
import { formatApps } from './format.js';

export const appsTool = defineTool({
  schema: {
    name: 'computer_apps',
    title: 'Apps and windows',
    description: 'Running apps and their windows (w1, w2, …).',
    inputSchema: Type.Object({
      device: DEVICE,
      displays: Type.Optional(Type.Boolean()),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session, devices }, params, response) {
    if (devices && devices.entries.length > 1 && params.device === undefined) {
      // Every device, each under its own header; one unreachable device does not hide the others.
      for (const d of devices.entries) {
        const s = d.session;
        response.add(`device ${d.name}${d.index > 1 ? ` (refs d${d.index}…)` : ''}${d.url ? ` ${d.url}` : ''}:`);
        try {
          response.add(indent(formatApps(await s.apps(), s.windows, (w) => s.hidden(w))));
        } catch (e) {
          const err = e as { code?: string; message?: string };
          response.add(
            `  unreachable: ${escapeLine(err.code ?? 'error')}: ` +
              `${escapeLine(redactText(String(err.message ?? e)).split('\n')[0] ?? '')}`,
          );
        }
      }
      return;
    }
    response.add(formatApps(await session.apps(), session.windows, (w) => session.hidden(w)));
    if (params.displays) {
      const { displays } = await session.device.call('screen.displays', {});
      for (const d of displays)
        response.add(
          `display ${nameText(d.name)}${d.primary ? ' primary' : ''} ${d.bounds[2]}x${d.bounds[3]} at ` +
            `${d.bounds[0]},${d.bounds[1]}`,
        );
    }
  },
});

const indent = (text: string): string => text.split('\n').map((l) => `  ${l}`).join('\n');
