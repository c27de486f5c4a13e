/** Every evaluation task, in table order. */
import type { EvalTask } from '../task.js';
import { calcTasks } from './calc.js';
import { evinceTasks } from './evince.js';
import { filesTasks } from './files.js';
import { geditTasks } from './gedit.js';
import { terminalTasks } from './terminal.js';

export const TASKS: readonly EvalTask[] = [
  ...geditTasks,
  ...calcTasks,
  ...filesTasks,
  ...evinceTasks,
  ...terminalTasks,
];

/** The tasks named in `ids` (all when empty); an unknown id is an error that lists the known ones. */
export function selectTasks(ids: readonly string[]): EvalTask[] {
  if (ids.length === 0) return [...TASKS];
  const unknown = ids.filter((id) => !TASKS.some((t) => t.id === id));
  if (unknown.length) throw new Error(`unknown task(s): ${unknown.join(', ')}; known: ${TASKS.map((t) => t.id).join(', ')}`);
  return TASKS.filter((t) => ids.includes(t.id));
}
