/**
 * The gedit task, done only through the tools and their text (as a model would): type a paragraph, save it
 * with Ctrl+S through the Save As dialog, verify the file, close gedit. Every call is recorded with its text,
 * tokens and milliseconds.
 */
import { readFile } from 'node:fs/promises';
import type { Computer, ToolResult } from '../index.js';
import { screenshotTokens, textTokens } from './tokens.js';

/** One recorded tool call. */
export interface Step {
  tool: string;
  params: unknown;
  text: string;
  isError: boolean;
  tokens: number;
  ms: number;
  screenshotTokens: number;
}

export interface GeditTaskResult { ok: boolean; steps: Step[]; reason?: string; fileContent?: string; wallMs: number }

/** Options of the task. */
export interface GeditTaskOptions {
  path: string;
  text: string;
  /** Called after each step (the demo prints it). */
  onStep?: (s: Step) => void;
}

/** Finds the first ref on a line matching `pattern` in a tool's text. */
export function refWhere(text: string, pattern: RegExp): string | undefined {
  for (const line of text.split('\n')) if (pattern.test(line)) return /\[(e\d+)\]/.exec(line)?.[1];
  return undefined;
}

export async function runGeditTask(computer: Computer, opts: GeditTaskOptions): Promise<GeditTaskResult> {
  const steps: Step[] = [];
  const t0 = performance.now();
  // What a screenshot-driven agent would look at around a step: every window of the app (the larger of
  // before and after, so a step that closes a window still counts the window it acted on).
  const shot = async (): Promise<number> => {
    const apps = await computer.session.apps().catch(() => []);
    return apps.filter((a) => a.name === 'gedit').flatMap((a) => a.windows)
      .reduce((sum, w) => sum + (w.bounds ? screenshotTokens(w.bounds[2], w.bounds[3]) : 0), 0);
  };
  const call = async (tool: string, params: Record<string, unknown>): Promise<ToolResult> => {
    const before = await shot();
    const s = performance.now();
    const r = await computer.call(tool, params);
    const ms = Math.round(performance.now() - s);
    const step: Step = {
      tool,
      params,
      text: r.text,
      isError: r.isError,
      tokens: textTokens(r.text),
      ms,
      screenshotTokens: Math.max(before, await shot()),
    };
    steps.push(step);
    opts.onStep?.(step);
    return r;
  };
  const fail = (reason: string): GeditTaskResult => ({
    ok: false,
    steps,
    reason,
    wallMs: Math.round(performance.now() - t0),
  });

  const launched = await call('computer_launch', { command: 'gedit', args: ['--new-window'] });
  if (launched.isError) return fail(`launch failed: ${launched.text}`);
  const doc = refWhere(launched.text, /\] document\b.*editable/);
  if (!doc) return fail('no editable document in the gedit snapshot');

  const typed = await call('computer_act', { actions: [{ ref: doc, op: 'type', value: opts.text }] });
  if (typed.isError || !/confirmed/.test(typed.text)) return fail(`typing was not confirmed: ${typed.text}`);

  const saveKeys = await call('computer_keys', { keys: 'ctrl+s', app: 'gedit' });
  if (saveKeys.isError) return fail(`ctrl+s failed: ${saveKeys.text}`);
  let dialogText = saveKeys.text;
  if (!/new window .*"Save As"/.test(dialogText)) {
    const waited = await call('computer_wait', { until: 'window_appears', text: 'Save As', timeoutMs: 10000 });
    if (waited.isError) return fail('the Save As dialog did not appear');
    dialogText = waited.text;
  }
  const dialogPart = dialogText.slice(dialogText.search(/"Save As"/));
  const nameField = refWhere(dialogPart, /\] textbox\b.*editable/);
  const saveButton = refWhere(dialogPart, /\] button "Save"/);
  if (!nameField || !saveButton) return fail('the Save As dialog has no name field or Save button');

  const saved = await call('computer_act', {
    actions: [
      { ref: nameField, op: 'set_value', value: opts.path },
      { ref: saveButton, op: 'click' },
    ],
  });
  if (saved.isError) return fail(`saving failed: ${saved.text}`);

  // The check on disk is the demo's own, outside the tools: gedit writes the file asynchronously.
  let content = '';
  for (const until = performance.now() + 10_000; ;) {
    content = await readFile(opts.path, 'utf8').catch(() => '');
    if (content.replace(/\n$/, '') === opts.text) break;
    if (performance.now() > until)
      return fail(
        content ? `the file content differs: ${JSON.stringify(content.slice(0, 80))}` : 'the file was not written',
      );
    await new Promise((r) => setTimeout(r, 50));
  }

  const closed = await call('computer_keys', { keys: 'ctrl+q', app: 'gedit' });
  if (closed.isError) return fail(`closing failed: ${closed.text}`);
  if (!/window closed/.test(closed.text)) return fail(`gedit did not close: ${closed.text}`);
  return { ok: true, steps, fileContent: content, wallMs: Math.round(performance.now() - t0) };
}
