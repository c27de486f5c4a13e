import { Type } from '@sinclair/typebox';
import { defineTool, STRICT } from './tool.js';
import { formatApps } from './format.js';

export const appsTool = defineTool({
  schema: {
    name: 'computer_apps',
    title: 'List apps and windows',
    description: 'List the running applications and their windows with window refs (w1, w2, …). Read-only. Use a window ref or app name with computer_observe. ' +
      'Apps the policy denies (password managers, keyrings, …) are listed as denied, without windows: they cannot be read or used.',
    inputSchema: Type.Object({
      displays: Type.Optional(Type.Boolean({ description: 'Also list the displays and their geometry (screen pixels)' })),
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
