import { Type } from '@sinclair/typebox';
import { OPS } from '../engine/node.js';
import { ComputerUseError } from '../protocol/errors.js';
import { MAX_ACTIONS, runActions } from '../session/act.js';
import { isOcrRef, ocrPoint, resolveOcrRef, runPointer } from '../session/visual.js';
import { formatActOutcome } from './format.js';
import { CAPS, defineTool, REF, STRICT } from './tool.js';

export const actTool = defineTool({
  schema: {
    name: 'computer_act',
    title: 'Act on elements',
    description: 'Perform one or more actions on elements by ref, in order: click, double_click, right_click, focus, ' +
      'set_value (replace text or set a number), type (insert at the caret), clear, toggle, select (value = item name), ' +
      'expand, collapse, scroll (value = up|down|left|right|into_view), drag_to. Semantic actions: no mouse, no focus ' +
      'stealing. OCR refs (oN, from computer_screenshot) take click, double_click, right_click, scroll: pointer input at the ' +
      'text\'s center, one per call, receipt unknown. Returns a receipt per action (confirmed = effect observed, unknown = sent but not provable) and the ' +
      'diff of the window (+ added, - removed, ~ changed); new dialogs come with their own snapshot.',
    inputSchema: Type.Object({
      actions: Type.Array(Type.Object({
        ref: Type.String({ ...REF, description: 'Element ref from the snapshot, e.g. e12' }),
        op: Type.Union(OPS.map((o) => Type.Literal(o))),
        value: Type.Optional(Type.String({ maxLength: CAPS.text })),
      }, STRICT), { minItems: 1, maxItems: MAX_ACTIONS }),
      settle: Type.Optional(Type.Object({
        quietMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 5000 })),
        timeoutMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 30000 })),
      }, STRICT)),
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session, stop, signal }, p, response) {
    // The schema's maxItems, enforced here too: nothing runs when the list is too long.
    if (p.actions.length > MAX_ACTIONS) throw new ComputerUseError('invalid_params', `computer_act takes at most ${MAX_ACTIONS} actions per call (got ${p.actions.length}). Nothing was run; split them into several calls.`);
    if (p.actions.some((a) => isOcrRef(a.ref))) {
      const a = p.actions[0]!;
      if (p.actions.length !== 1) throw new ComputerUseError('invalid_params', 'An OCR ref (oN) acts alone: one action per call, then look again.');
      const { element, capture } = resolveOcrRef(session, a.ref);
      const action = a.op === 'click' || a.op === 'double_click' || a.op === 'right_click' ? a.op : a.op === 'scroll' ? 'scroll' : undefined;
      if (!action) throw new ComputerUseError('unsupported', `${a.op} is not possible on an OCR element; use click, double_click, right_click or scroll (then computer_keys to type).`);
      const dir = a.value === 'up' || a.value === 'down' || a.value === 'left' || a.value === 'right' ? a.value : undefined;
      response.channel = 'ocr (degraded)';
      const out = await runPointer(session, { tool: 'computer_act', window: capture.window, action, point: ocrPoint(element), expectBounds: capture.geometry.window,
        ref: element.ref, name: element.text, ...(dir ? { direction: dir } : {}) },
      { ...(p.settle?.quietMs !== undefined ? { quietMs: p.settle.quietMs } : {}), ...(p.settle?.timeoutMs !== undefined ? { timeoutMs: p.settle.timeoutMs } : {}) }, { stop, signal });
      response.add(`ok ${a.op} ${a.ref} · unknown (${out.detail}; OCR text ${JSON.stringify(element.text)})`);
      response.add(formatActOutcome({ receipts: [], ...out.effects }, session.windows));
      return;
    }
    const outcome = await runActions(session, p.actions.map((a) => ({ ref: a.ref, op: a.op, ...(a.value !== undefined ? { value: a.value } : {}) })),
      { ...(p.settle?.quietMs !== undefined ? { quietMs: p.settle.quietMs } : {}), ...(p.settle?.timeoutMs !== undefined ? { timeoutMs: p.settle.timeoutMs } : {}) }, { stop, signal });
    const text = formatActOutcome(outcome, session.windows);
    const failed = outcome.receipts.find((r) => r.status === 'failed' || r.status === 'rejected');
    if (failed) { response.isError = true; response.code = failed.error?.code ?? 'action_failed'; }
    response.add(text);
  },
});
