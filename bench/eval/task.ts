/**
 * The evaluation's task format. A task is data plus two functions: `setup` prepares the world (files,
 * a port) and `check` judges the result by looking at the world outside the tool layer (a file's bytes, an
 * app's output file, the page's DOM over DevTools). `plan` is the goal spec the scripted solver follows: which
 * element (by role and name, never a ref) to act on and how; it holds no app-specific code.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Computer, ConfirmRequest } from '../../src/index.js';
import type { Op } from '../../src/engine/node.js';

/**
 * The XDG folder the desktop's apps keep their `config` or `data` in: a sandbox's own home (its env names it), else
 * this process's.
 */
export function appsFolder(env: Record<string, string>, kind: 'config' | 'data'): string {
  const home = env['HOME'] ?? homedir();
  return kind === 'config' ? env['XDG_CONFIG_HOME'] ?? join(home, '.config')
    : env['XDG_DATA_HOME'] ?? join(home, '.local', 'share');
}

/** How the solver picks an element from the tools' text: by role and name, like a model reading the snapshot. */
export interface Target {
  /** Role as printed in the snapshot (`button`, `textbox`, `menu item`, …). */
  role?: string;
  /** Exact name, or `{ re }` a regular expression (source) tested against the name. */
  name?: string | { re: string };
  /** Only an element of the window whose title contains this text. */
  window?: string;
  /** The n-th match (0-based) when several match; default the first. */
  nth?: number;
  /** Only an element whose printed value matches: exact text, or `{ re }` (a nameless field known by its content). */
  value?: string | { re: string };
  /** A cell of a grid table by address (`B7`): the act goes to `<table ref>:<cell>`, as the table line says. */
  cell?: string;
}

/**
 * One step of a plan. Values may hold `{{var}}` placeholders filled from the setup's vars.
 * - `launch`: computer_launch.
 * - `act`: resolve the target from the last texts (else computer_find), then computer_act.
 * - `keys`: computer_keys to the app (or the window whose title contains `window`).
 * - `wait`: computer_wait.
 * - `observe`: computer_observe (a fresh view, optionally of a window or a subtree found by target).
 * - `find`: computer_find (the off-screen list item, text in a document); with `follow`, the act the answer names to
 *   bring an off-screen match into view (`bring it into view: computer_act ref=… op=scroll value="to N"`) is done too.
 * - `read`: resolve the target and keep its printed value (or the part matched by `pattern`) as answer `into`;
 *   later steps can use it as `{{into}}` (a model reads a value, then uses it).
 */
export type PlanStep =
  | { do: 'launch'; command: string; args?: string[] }
  | { do: 'act'; op: Op; target: Target; value?: string }
  | { do: 'keys'; keys: string; app?: string; window?: string }
  | {
      do: 'wait';
      until: 'appears' | 'disappears' | 'window_appears';
      text?: string;
      role?: string;
      app?: string;
      timeoutMs?: number;
    }
  | { do: 'observe'; app?: string; window?: string; scope?: Target; query?: string }
  | { do: 'find'; text?: string; role?: string; app?: string; window?: string; follow?: boolean }
  | { do: 'read'; target: Target; into: string; pattern?: string };

/** What a task's setup and checker get. */
export interface TaskContext {
  /** A fresh temporary directory for this task's files (removed afterwards). */
  dir: string;
  /** The desktop's environment (DISPLAY, DBUS_SESSION_BUS_ADDRESS, …) for processes the setup starts itself. */
  env: Record<string, string>;
  /** The computer the solver uses (setup may read the session, never act through it). */
  computer: Computer;
  /** The questions the policy asked the eval's human since this task started (each was approved). */
  asked(): readonly ConfirmRequest[];
}

/** What setup returns: placeholder values for the plan, and anything the checker needs later. */
export interface TaskSetup {
  vars: Record<string, string>;
  /** Runs after the check (kill what setup started). */
  teardown?: () => Promise<void>;
}

/** A checker's verdict. */
export interface CheckResult { ok: boolean; detail: string }

/** One evaluation task. */
export interface EvalTask {
  /** Short unique id, `<app>-<what>` (used by `--tasks`). */
  id: string;
  /** App family for the table (gedit, chromium, calc, …). */
  app: string;
  /** The process name of the app's windows as computer_apps lists it (screenshot accounting, cleanup). */
  appName: string;
  /** The goal in one sentence, as a user would give it to a model. */
  goal: string;
  /** What makes it hard, if anything (folded long list, nested menu, late dialog, enabling button, scroll, Chinese). */
  hard?: string;
  /** Part of the CI-sized subset that runs in the test suite. */
  ci?: boolean;
  /** Apps the policy allows without a question for this task (default [appName]). */
  allowApps?: string[];
  setup(ctx: TaskContext): Promise<TaskSetup>;
  /** The goal spec of the scripted solver. */
  plan: PlanStep[];
  /** Judges the world after the solver stopped; `answers` holds what `read` steps (or the model's final text) gave. */
  check(ctx: TaskContext, vars: Record<string, string>, answers: Record<string, string>): Promise<CheckResult>;
}

/** Fills `{{var}}` placeholders. An unknown placeholder is an error in the task, not in the solver. */
export function fill(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => {
    const v = vars[k];
    if (v === undefined) throw new Error(`task plan uses {{${k}}}, which setup did not provide`);
    return v;
  });
}
