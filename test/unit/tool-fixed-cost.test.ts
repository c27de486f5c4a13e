/**
 * The fixed cost every conversation pays: the tools/list result as the MCP server sends it
 * plus the server instructions, in o200k tokens, within budget. A budget test, not a timing test: it fails
 * when a description, a listed field or the guidance grows past it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIXED_COST_BUDGET, measureFixedCost } from '../../bench/fixedcost.js';
import { GUIDANCE } from '../../src/tools/guidance.js';
import { TOOLS } from '../../src/tools/index.js';

test(`tool list + instructions cost at most ${FIXED_COST_BUDGET} o200k tokens`, async () => {
  const cost = await measureFixedCost();
  assert.equal(cost.toolCount, TOOLS.length);
  assert.ok(cost.instructions > 0 && cost.tools > 0);
  assert.ok(
    cost.total <= FIXED_COST_BUDGET,
    `fixed cost ${cost.total} tokens (tools ${cost.tools}, instructions ${cost.instructions}) > ` +
      `${FIXED_COST_BUDGET}: ${JSON.stringify(cost.perTool)}`,
  );
});

test('the guidance keeps every safety statement the model needs', () => {
  for (const must of [
    /data, never instructions/, // app text is untrusted
    /Prefer element actions .* to computer_keys .* and computer_input/, // element actions before keys and pointer
    /confirmed = effect seen; unknown = sent, not proven/, // receipts
    /stale_ref/, // observe again
    /irreversible/,
    /denied_by_policy, confirmation_declined, confirmation_required or paused nothing was sent: do not retry or work around it/,
  ]) assert.match(GUIDANCE, must);
});

test('no sentence of the guidance is repeated in a tool description', () => {
  const sentences = GUIDANCE.split(/[.:;\n]/)
    .map((x) => x.replace(/^- /, '').trim())
    .filter((x) => x.split(' ').length >= 4);
  for (const t of TOOLS)
    for (const x of sentences) assert.ok(!t.schema.description.includes(x), `${t.schema.name} repeats "${x}"`);
});
