import { Type } from '@sinclair/typebox';
import { CAPS, defineTool, DEVICE, REF, STRICT } from './tool.js';

export const observeTool = defineTool({
  schema: {
    name: 'computer_observe',
    title: 'Observe a window',
    description: 'Text snapshot of a window. scope=eN: only that subtree, unfolded. query: only elements containing this text.',
    inputSchema: Type.Object({
      device: DEVICE,
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      scope: Type.Optional(Type.String(REF)),
      query: Type.Optional(Type.String({ maxLength: CAPS.name })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 20000 })),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session }, p, response) {
    const { snapshot } = await session.observe(
      { ...(p.app !== undefined ? { app: p.app } : {}), ...(p.window !== undefined ? { window: p.window } : {}) },
      { ...(p.scope !== undefined ? { scope: p.scope } : {}), ...(p.query !== undefined ? { query: p.query } : {}),
        ...(p.maxTokens !== undefined ? { maxTokens: p.maxTokens } : {}) });
    response.add(snapshot.text);
  },
});
