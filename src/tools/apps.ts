import { Type } from '@sinclair/typebox';
import { defineTool, STRICT } from './tool.js';
import { formatApps } from './format.js';

export const appsTool = defineTool({
  schema: {
    name: 'computer_apps',
    title: 'Apps and windows',
    description: 'Running apps and their windows (w1, w2, …).',
    inputSchema: Type.Object({
      displays: Type.Optional(Type.Boolean()),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session }, params, response) {
    response.add(formatApps(await session.apps(), session.windows, (w) => session.hidden(w)));
    if (params.displays) {
      const { displays } = await session.device.call('screen.displays', {});
      for (const d of displays) response.add(`display ${d.name}${d.primary ? ' primary' : ''} ${d.bounds[2]}x${d.bounds[3]} at ${d.bounds[0]},${d.bounds[1]}`);
    }
  },
});
