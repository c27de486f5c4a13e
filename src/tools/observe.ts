import { Type } from '@sinclair/typebox';
import { hasTextBlock, textBlock } from './text.js';
import { resolveCellRef } from '../session/cells.js';
import { CAPS, defineTool, DEVICE, REF_OR_CELL, STRICT } from './tool.js';

export const observeTool = defineTool({
  schema: {
    name: 'computer_observe',
    title: 'Observe a window',
    description: 'Text snapshot of a window. scope=eN: that subtree, unfolded, with its text (from=offset). ' +
      'query: only elements with this text.',
    inputSchema: Type.Object({
      device: DEVICE,
      app: Type.Optional(Type.String({ maxLength: CAPS.name })),
      window: Type.Optional(Type.String({ maxLength: CAPS.name })),
      scope: Type.Optional(Type.String(REF_OR_CELL)),
      from: Type.Optional(Type.Integer({ minimum: 0 })),
      query: Type.Optional(Type.String({ maxLength: CAPS.name })),
      maxTokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 20000 })),
      full: Type.Optional(Type.Boolean()),
    }, STRICT),
    type: 'readOnly',
  },
  async handle({ session }, p, response) {
    if (p.from !== undefined && p.scope === undefined) {
      response.error('invalid_params', "from reads an element's text: give scope=eN too.");
      return;
    }
    // A grid's cell ref (e47:F36, as the table's hint prints it) scopes to that cell's own element.
    if (p.scope !== undefined) p = { ...p, scope: resolveCellRef(session, p.scope) };
    // With scope, an element with a text block gives the block most of the budget (engine/text.ts renders it as
    // numbered lines); without one (a grid, a list) the whole budget is the tree's.
    const budget = p.maxTokens ?? session.maxTokens;
    const window = await session.resolveWindow({
      ...(p.app !== undefined ? { app: p.app } : {}),
      ...(p.window !== undefined ? { window: p.window } : {}),
    });
    const raw = await session.readWindow(window);
    const texty = p.scope !== undefined && hasTextBlock(session, raw, p.scope, p.from);
    const treeTokens = texty ? Math.max(100, Math.floor(budget * 0.3)) : budget;
    const { shown: snapshot } = session.snapshotOf(raw, {
      ...(p.scope !== undefined ? { scope: p.scope } : {}),
      ...(p.query !== undefined ? { query: p.query } : {}),
      ...(p.maxTokens !== undefined || p.scope !== undefined ? { maxTokens: treeTokens } : {}),
      ...(texty ? { textBelow: true } : {}),
      ...(p.full === true ? { fold: false } : {}),
    });
    const block =
      p.scope !== undefined && texty
        ? await textBlock(session, raw, p.scope, p.from, Math.max(400, (budget - snapshot.tokens) * 3))
        : undefined;
    // A whole-window read is compared with the window's last print; a scope, a query or a budget of its own is
    // a read the model asked for whole.
    if (p.scope === undefined && p.query === undefined) {
      response.add(session.present(snapshot, p.full === true || p.maxTokens !== undefined));
      return;
    }
    session.noteOpaqueTold(snapshot.opaque ?? []);
    session.noteSeen(snapshot.window.id, snapshot.text);
    if (!block) { response.add(snapshot.text); return; }
    // The block shows the text: the element's line (textBelow) keeps its ref, role, name and states, not the value
    // again.
    const lines = snapshot.text.split('\n');
    response.add([...lines.slice(0, 2), ...block, ...lines.slice(2)].join('\n'));
  },
});
