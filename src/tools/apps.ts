import { Type } from '@sinclair/typebox';
import { defineTool } from './tool.js';
import { formatApps } from './format.js';

export const appsTool = defineTool({
  schema: {
    name: 'computer_apps',
    title: 'List apps and windows',
    description: 'List the running applications and their windows with window refs (w1, w2, …). Read-only. Use a window ref or app name with computer_observe.',
    inputSchema: Type.Object({}),
    type: 'readOnly',
  },
  async handle({ session }, _params, response) {
    response.add(formatApps(await session.apps(), session.windows));
  },
});
