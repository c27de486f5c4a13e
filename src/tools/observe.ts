import { Type } from '@sinclair/typebox';
import { textBlock } from './text.js';
import { CAPS, defineTool, DEVICE, REF, STRICT } from './tool.js';

export const observeTool = defineTool({
  schema: {
    name: 'computer_observe',
    title: 'Observe a window',
    description: 'Text snapshot of a window. scope=eN: that subtree, unfolded, with its text (from=offset). query: only elements with this text.',
    inputSchema: Type.Object({
      device: DEVICE,
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      scope: Type.Optional(Type.String(REF)),
      from: Type.Optional(Type.Integer({ minimum: 0 })),
      query: Type.Optional(Type.String({ maxLength: CAPS.name })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 20000 })),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session }, p, response) {
    if (p.from !== undefined && p.scope === undefined) { response.error('invalid_params', 'from reads an element\'s text: give scope=eN too.'); return; }
    // With scope, the element's text takes most of the budget (engine/text.ts renders it as numbered lines).
    const budget = p.maxTokens ?? session.maxTokens;
    const treeTokens = p.scope !== undefined ? Math.max(100, Math.floor(budget * 0.3)) : budget;
    const { snapshot, raw } = await session.observe(
      { ...(p.app !== undefined ? { app: p.app } : {}), ...(p.window !== undefined ? { window: p.window } : {}) },
      { ...(p.scope !== undefined ? { scope: p.scope } : {}), ...(p.query !== undefined ? { query: p.query } : {}),
        ...(p.maxTokens !== undefined || p.scope !== undefined ? { maxTokens: treeTokens } : {}) });
    const block = p.scope !== undefined ? await textBlock(session, raw, p.scope, p.from, Math.max(400, (budget - snapshot.tokens) * 3)) : undefined;
    if (!block) { response.add(snapshot.text); return; }
    const lines = snapshot.text.split('\n');
    // The block shows the text: the element's line keeps its ref, role, name and states, not the value again.
    lines[1] = (lines[1] ?? '').replace(/ value="(?:[^"\\]|\\.)*"(?: \(text [^)]*\))?/, '');
    response.add([...lines.slice(0, 2), ...block, ...lines.slice(2)].join('\n'));
  },
});
