/**
 * Chromium tasks on local pages (bench/eval/pages): a form, a button that enables late, a dialog that appears
 * late, a row far down a 600-row table, a nested ARIA menu, Chinese input, reading a computed total, tabs with
 * radio buttons. Each checker reads the page's JS state over DevTools.
 */
import { randomInt } from 'node:crypto';
import { answerEquals } from '../checks.js';
import { CHROMIUM_ALLOW, CHROMIUM_APP, chromiumSetup, launchChromium, pageState } from '../chromium.js';
import type { EvalTask } from '../task.js';

/** A JSON comparison of a page value with the expected one. */
function same(expected: unknown): (v: unknown) => boolean {
  return (v) => JSON.stringify(v) === JSON.stringify(expected);
}

const NOTE_TITLE = '季度报告：下周三前交给王经理审核';

/** Items an invoice is made of; setup draws quantities and prices so the total differs every run. */
const ITEMS = ['Paper (box)', 'Toner cartridge', 'Stapler', 'Desk lamp', 'USB cable', 'Notebook', 'Whiteboard marker'];

/** An amount of cents as the page prints money: `$1,234.50`. */
function money(cents: number): string {
  const whole = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

const base = { app: 'chromium', appName: CHROMIUM_APP, allowApps: CHROMIUM_ALLOW } as const;

export const chromiumTasks: EvalTask[] = [
  {
    ...base,
    id: 'chromium-form',
    ci: true,
    goal: 'In the shirt order page, enter the name Ada Lovelace, choose size Large, tick Gift wrap and submit the order.',
    setup: (ctx) => chromiumSetup(ctx, 'order.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Submit order', role: 'button' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Full name' }, value: 'Ada Lovelace' },
      { do: 'act', op: 'select', target: { role: 'combobox', name: 'Size' }, value: 'Large' },
      { do: 'act', op: 'toggle', target: { role: 'checkbox', name: 'Gift wrap' } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Submit order' } },
    ],
    check: (_ctx, vars) =>
      pageState(vars, 'window.__submitted', same({ name: 'Ada Lovelace', size: 'L', gift: true }), 'submitted'),
  },
  {
    ...base,
    id: 'chromium-enable-late',
    goal: 'Subscribe ada@example.org to the weekly newsletter.',
    hard: 'the Subscribe button is disabled until the address is validated, 1.5 s after typing',
    setup: (ctx) => chromiumSetup(ctx, 'subscribe.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Subscribe', role: 'button' },
      {
        do: 'act',
        op: 'set_value',
        target: { role: 'textbox', name: 'Email address (required)' },
        value: 'ada@example.org',
      },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Subscribe' } },
    ],
    check: (_ctx, vars) => pageState(vars, 'window.__subscribed', same('ada@example.org'), 'subscribed'),
  },
  {
    ...base,
    id: 'chromium-late-dialog',
    goal: 'Delete the draft "Quarterly plan" and confirm the deletion.',
    hard: 'the confirmation dialog appears 1.5 s after the click',
    setup: (ctx) => chromiumSetup(ctx, 'drafts.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Delete draft', role: 'button' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Delete draft' } },
      { do: 'wait', until: 'appears', text: 'Confirm', role: 'button' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Confirm' } },
    ],
    check: (_ctx, vars) => pageState(vars, 'window.__deleted', same(true), 'deleted'),
  },
  {
    ...base,
    id: 'chromium-far-row',
    goal: 'In the support tickets table, archive ticket 437.',
    hard: '600 rows; row 437 is far off-screen',
    setup: (ctx) => chromiumSetup(ctx, 'tickets.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Archive row 1', role: 'button' },
      { do: 'find', text: 'Archive row 437', role: 'button', follow: true },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Archive row 437' } },
    ],
    check: (_ctx, vars) => pageState(vars, 'window.__archived', same([437]), 'archived rows'),
  },
  {
    ...base,
    id: 'chromium-nested-menu',
    goal: 'Export the report as CSV from the File menu.',
    hard: 'nested menu: File → Export → As CSV',
    setup: (ctx) => chromiumSetup(ctx, 'menu.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'File', role: 'menuitem' },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'File' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'Export' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'As CSV' } },
    ],
    check: (_ctx, vars) => pageState(vars, 'window.__picked', same(['Export as CSV']), 'picked'),
  },
  {
    ...base,
    id: 'chromium-chinese',
    ci: true,
    goal: `In the memo page, set the title to "${NOTE_TITLE}" and save it.`,
    hard: 'Chinese text',
    setup: (ctx) => chromiumSetup(ctx, 'note.html', undefined, { title: NOTE_TITLE }),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: '保存', role: 'button' },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: '标题' }, value: '{{title}}' },
      { do: 'act', op: 'click', target: { role: 'button', name: '保存' } },
    ],
    check: (_ctx, vars) =>
      pageState(
        vars,
        '({ saved: window.__saved, field: document.getElementById("title").value })',
        same({ saved: NOTE_TITLE, field: NOTE_TITLE }),
        'saved title and field',
      ),
  },
  {
    ...base,
    id: 'chromium-read-total',
    goal: 'What is the total due on the invoice page? Answer with the amount as shown.',
    setup: (ctx) => {
      const lines = ITEMS.slice(0, 3 + randomInt(4)).map(
        (item) => [item, 1 + randomInt(12), 99 + randomInt(40_000)] as const,
      );
      const total = lines.reduce((s, [, qty, cents]) => s + qty * cents, 0);
      return chromiumSetup(ctx, 'invoice.html', JSON.stringify(lines), { expected: money(total) });
    },
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Total due' },
      { do: 'read', target: { name: { re: '^Total due' } }, into: 'answer', pattern: '\\$[\\d,]+\\.\\d\\d' },
    ],
    check: async (_ctx, vars, answers) => answerEquals(answers, 'answer', vars['expected'] ?? '?'),
  },
  {
    ...base,
    id: 'chromium-tabs-radio',
    goal: 'In the account settings, switch delivery speed to Express and save the settings.',
    hard: 'the radio buttons sit on a tab that is not shown at first',
    setup: (ctx) => chromiumSetup(ctx, 'settings.html'),
    plan: [
      launchChromium,
      { do: 'wait', until: 'appears', text: 'Delivery', role: 'tab' },
      { do: 'act', op: 'click', target: { role: 'tab', name: 'Delivery' } },
      { do: 'act', op: 'click', target: { role: 'radio', name: { re: '^Express' } } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Save settings' } },
    ],
    check: (_ctx, vars) =>
      pageState(vars, 'window.__saved', same({ speed: 'express', display: 'Ada', ads: false }), 'saved settings'),
  },
];
