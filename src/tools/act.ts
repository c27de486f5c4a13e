import { escapeLine, quoteText } from '../engine/escape.js';
import { Type } from '@sinclair/typebox';
import { OPS } from '../engine/node.js';
import { ComputerUseError } from '../protocol/errors.js';
import { MAX_ACTIONS } from '../session/act.js';
import { isOcrRef, ocrPoint, resolveOcrRef, runPointer } from '../session/visual.js';
import { formatActOutcome } from './format.js';
import { runSubmitting } from '../session/set-submit.js';
import { CAPS, defineTool, DEVICE, REF_OR_CELL, SETTLE, STRICT } from './tool.js';

export const actTool = defineTool({
  schema: {
    name: 'computer_act',
    title: 'Act on elements',
    // A grid's cell ref (e34:B7) is taken from the snapshot's own hint ("act on a cell: ref=…"), printed with every
    // grid.
    description: 'Actions by ref in order. value: set_value text (replaces; submit: Return after), type text (at caret), select item, ' +
      'scroll up|down|left|right|into_view|"to N", drag_to ref. close ref\'s window.',
    inputSchema: Type.Object({
      device: DEVICE,
      actions: Type.Array(Type.Object({
        // A cell of a grid: "<table ref>:<address>" (e34:B7), see session/cells.ts.
        ref: Type.String(REF_OR_CELL),
        op: Type.Union(OPS.map((o) => Type.Literal(o))),
        value: Type.Optional(Type.String({ maxLength: CAPS.text })),
        submit: Type.Optional(Type.Boolean()),
      }, STRICT), { minItems: 1, maxItems: MAX_ACTIONS }),
      settle: SETTLE,
    }, STRICT),
    type: 'destructive',
  },
  async handle({ session, stop, signal }, p, response) {
    if (p.actions.some((a) => isOcrRef(a.ref))) {
      const a = p.actions[0]!;
      if (p.actions.length !== 1)
        throw new ComputerUseError(
          'invalid_params',
          'An OCR ref (oN) acts alone: one action per call, then look again.',
        );
      const { element, capture } = resolveOcrRef(session, a.ref);
      const action =
        a.op === 'click' || a.op === 'double_click' || a.op === 'right_click'
          ? a.op
          : a.op === 'scroll'
            ? 'scroll'
            : undefined;
      if (!action)
        throw new ComputerUseError(
          'unsupported',
          `${a.op} is not possible on an OCR element; use click, double_click, right_click or scroll (then ` +
            `computer_keys to type).`,
        );
      const dir =
        a.value === 'up' || a.value === 'down' || a.value === 'left' || a.value === 'right' ? a.value : undefined;
      response.channel = 'ocr (degraded)';
      const out = await runPointer(
        session,
        {
          tool: 'computer_act',
          window: capture.window,
          action,
          point: ocrPoint(element),
          expectBounds: capture.geometry.window,
          ref: element.ref,
          name: element.text,
          ...(dir ? { direction: dir } : {}),
        },
        {
          ...(p.settle?.quietMs !== undefined ? { quietMs: p.settle.quietMs } : {}),
          ...(p.settle?.timeoutMs !== undefined ? { timeoutMs: p.settle.timeoutMs } : {}),
        },
        { stop, signal },
      );
      response.add(`ok ${a.op} ${a.ref} · unknown (${escapeLine(out.detail)}; OCR text ${quoteText(element.text)})`);
      response.add(formatActOutcome({ receipts: [], ...out.effects }, session.windows));
      return;
    }
    const specs = p.actions.map((a) => ({
      ref: a.ref,
      op: a.op,
      ...(a.value !== undefined ? { value: a.value } : {}),
    }));
    const settle = {
      ...(p.settle?.quietMs !== undefined ? { quietMs: p.settle.quietMs } : {}),
      ...(p.settle?.timeoutMs !== undefined ? { timeoutMs: p.settle.timeoutMs } : {}),
    };
    const outcome = await runSubmitting(session, specs, submitsAt(p.actions), settle, { stop, signal });
    const text = formatActOutcome(outcome, session.windows);
    const failed = outcome.receipts.find((r) => r.status === 'failed' || r.status === 'rejected');
    if (failed) { response.isError = true; response.code = failed.error?.code ?? 'action_failed'; }
    response.add(text);
  },
});

/**
 * The indexes of the actions that submit. `submit` belongs to a set_value or type: on any other op the call is
 * refused before anything runs.
 */
function submitsAt(actions: readonly { op: string; submit?: boolean | undefined }[]): number[] {
  const at: number[] = [];
  actions.forEach((a, i) => {
    if (a.submit !== true) return;
    if (a.op !== 'set_value' && a.op !== 'type') {
      throw new ComputerUseError(
        'invalid_params',
        `submit goes with set_value or type only (got ${a.op}). Nothing was run.`,
      );
    }
    at.push(i);
  });
  return at;
}
