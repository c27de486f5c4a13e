/** galculator tasks (GTK 3): arithmetic by clicking its keypad, and a number-base change through a nested menu. */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { answerEquals } from '../checks.js';
import { appsFolder, type EvalTask, type PlanStep, type TaskContext, type TaskSetup } from '../task.js';

/**
 * galculator keeps its mode and number base in its config file when it quits: every task starts from the
 * defaults, with the file there was set aside and put back afterwards (it stops by SIGTERM, which saves nothing). In a
 * sandbox with a home of its own the file is that home's, fresh at the sandbox's start, but the eval's tasks share one.
 */
async function freshConfig(ctx: TaskContext): Promise<TaskSetup> {
  const config = join(appsFolder(ctx.env, 'config'), 'galculator', 'galculator.conf');
  const keptPath = `${config}.cu-eval-kept`;
  const kept = await rename(config, keptPath).then(() => true, () => false);
  return {
    vars: {},
    teardown: async () => {
      await rm(config, { force: true });
      if (kept) await rename(keptPath, config);
    },
  };
}

/** Clicks the keypad buttons of `keys` one by one ("123*45=" → 1, 2, 3, *, 4, 5, =). */
function press(keys: string): PlanStep[] {
  return [...keys].map((k) => ({ do: 'act', op: 'click', target: { role: 'button', name: k } }));
}

/**
 * The display's number: the document's value up to the first line break (scientific mode adds a status line),
 * from a snapshot line (`value="5535"`) or from the last act's diff (`value "45" → "5535"`: the new one).
 */
const DISPLAY = { target: { role: 'document' }, pattern: '(?:value="|→ ")([0-9A-Fa-f.,-]+)' };

const A = 123;
const B = 45;
const HEX_OF = 51966;

export const calculatorTasks: EvalTask[] = [
  {
    id: 'calc-multiply',
    app: 'galculator',
    appName: 'galculator',
    ci: true,
    goal: `Use the calculator to work out ${A} × ${B} by clicking its buttons and tell me the result.`,
    setup: freshConfig,
    plan: [
      { do: 'launch', command: 'galculator' },
      ...press(`${A}*${B}=`),
      { do: 'read', ...DISPLAY, into: 'answer' },
    ],
    check: async (_ctx, _vars, answers) => answerEquals(answers, 'answer', String(A * B)),
  },
  {
    id: 'calc-hex',
    app: 'galculator',
    appName: 'galculator',
    goal:
      `In the calculator, switch to scientific mode, enter ${HEX_OF}, convert it to hexadecimal with the ` +
      `Calculator menu's number bases, and tell me what it shows.`,
    hard: 'nested menu (Calculator › Number bases › Hexadecimal); the keypad is rebuilt by the mode change',
    setup: freshConfig,
    plan: [
      { do: 'launch', command: 'galculator' },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'View' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'Scientific Mode' } },
      ...press(String(HEX_OF)),
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Calculator' } },
      { do: 'act', op: 'click', target: { role: 'menu', name: 'Number bases' } },
      { do: 'act', op: 'click', target: { role: 'menuitem', name: 'Hexadecimal' } },
      { do: 'read', ...DISPLAY, into: 'answer' },
    ],
    check: async (_ctx, _vars, answers) => answerEquals(answers, 'answer', HEX_OF.toString(16).toUpperCase()),
  },
];
