/** Every evaluation task, in table order. */
import type { EvalTask } from '../task.js';
import { calcTasks } from './calc.js';
import { calculatorTasks } from './calculator.js';
import { chromiumTasks } from './chromium.js';
import { dialogsTasks } from './dialogs.js';
import { evinceTasks } from './evince.js';
import { filechooserTasks } from './filechooser.js';
import { filesTasks } from './files.js';
import { firefoxTasks } from './firefox.js';
import { geditTasks } from './gedit.js';
import { mousepadTasks } from './mousepad.js';
import { newAppTasks } from './newapps.js';
import { settingsTasks } from './settings.js';
import { terminalTasks } from './terminal.js';
import { toolkitTasks } from './toolkits.js';

export const TASKS: readonly EvalTask[] = [
  ...geditTasks,
  ...mousepadTasks,
  ...terminalTasks,
  ...filechooserTasks,
  ...dialogsTasks,
  ...settingsTasks,
  ...calculatorTasks,
  ...filesTasks,
  ...evinceTasks,
  ...calcTasks,
  ...chromiumTasks,
  ...firefoxTasks,
  ...toolkitTasks,
  ...newAppTasks,
];

/** The tasks named in `ids` (all when empty); an unknown id is an error that lists the known ones. */
export function selectTasks(ids: readonly string[]): EvalTask[] {
  if (ids.length === 0) return [...TASKS];
  const unknown = ids.filter((id) => !TASKS.some((t) => t.id === id));
  if (unknown.length)
    throw new Error(`unknown task(s): ${unknown.join(', ')}; known: ${TASKS.map((t) => t.id).join(', ')}`);
  return TASKS.filter((t) => ids.includes(t.id));
}
