/**
 * The smoke task of `doctor --report`: a few minutes of real work on the OS's own apps, through the same tools
 * and policy an agent uses. Each task only reads, types into a new document, or presses harmless buttons; it
 * never saves, sends or changes a setting. A task run on a test fake is a reduced one that the fake's apps allow.
 */
import type { ToolResult } from '../tools/tool.js';

/** Runs one tool call as a named step and records it; `check` returns a problem, or undefined when it passed. */
export type StepRunner = (name: string, tool: string, params: Record<string, unknown>,
  check?: (r: ToolResult) => string | undefined) => Promise<ToolResult>;

/** One smoke task. */
export interface SmokeTask {
  /** What it does, one line (shown in the report). */
  title: string;
  /** The apps it acts in: allowed for the run, and their window titles may be shown. */
  apps: readonly string[];
  run(step: StepRunner): Promise<void>;
}

/** The line typed and read back. */
export const SMOKE_LINE = 'computer-use report check 42';

/** The first ref on a line matching `pattern`. */
export function refOn(text: string, pattern: RegExp): string | undefined {
  for (const line of text.split('\n')) if (pattern.test(line)) return /\[((?:d\d+)?e\d+)\]/.exec(line)?.[1];
  return undefined;
}

/**
 * The ref of a control printed inside a folded run (`[e3] … [e22] 20 buttons: e3 "7", e4 "8", …`): a keypad's
 * first print folds its alike buttons to one line that keeps each one's ref beside its name.
 */
export function foldedRefOn(text: string, role: string, name: string): string | undefined {
  const quoted = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const line of text.split('\n')) {
    if (!new RegExp(`\\] \\d+ ${role}s?: `).test(line)) continue;
    const m = new RegExp(`(?:: |, )((?:d\\d+)?e\\d+) ${quoted}(?:,|$| \\()`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}

const has = (pattern: RegExp, what: string) => (r: ToolResult): string | undefined =>
  pattern.test(r.text) ? undefined : `${what} not found in the answer`;

/** Types the line into an editor's document and reads it back. */
async function typeAndReadBack(step: StepRunner, app: string, opened: ToolResult, doc: RegExp): Promise<void> {
  const ref = refOn(opened.text, doc);
  const typing = { actions: [{ ref: ref ?? 'e0', op: 'type', value: SMOKE_LINE }] };
  await step('type a line into the document', 'computer_act', typing, (r) => ref === undefined
    ? 'no editable document in the snapshot'
    : /\bconfirmed\b/.test(r.text) ? undefined : 'the typing was not confirmed');
  await step('read the line back', 'computer_observe', { app, query: 'report check' },
    has(/computer-use report check 42/, 'the typed line'));
}

/** Linux: a text editor and a calculator of a Debian desktop. */
export function linuxTask(editor: string, calculator: string | undefined): SmokeTask {
  return {
    title: `${editor}: type a line and read it back` +
      (calculator ? `; ${calculator}: press 7 and read the display` : ''),
    apps: [editor, ...(calculator ? [calculator] : [])],
    async run(step) {
      const args = editor === 'gedit' ? ['--new-window'] : [];
      const opened = await step(`open ${editor}`, 'computer_launch', { command: editor, args });
      if (!opened.isError) await typeAndReadBack(step, editor, opened, /\] (document|textbox)\b.*editable/);
      if (!calculator) return;
      const calc = await step(`open ${calculator}`, 'computer_launch', { command: calculator });
      if (calc.isError) return;
      const seven = refOn(calc.text, /\] (push )?button "7"/) ?? foldedRefOn(calc.text, 'button', '7');
      await step('press 7', 'computer_act', { actions: [{ ref: seven ?? 'e0', op: 'click' }] },
        () => seven === undefined ? 'no button "7" in the snapshot' : undefined);
      await step('read the display', 'computer_observe', { app: calculator }, has(/7/, 'the digit 7'));
    },
  };
}

/** Windows: Notepad (type, read back) and Settings' About page (read). */
export const windowsTask: SmokeTask = {
  title: 'Notepad: type a line and read it back; Settings: open the About page and read it',
  apps: ['notepad', 'Notepad', 'Settings', 'SystemSettings', 'ApplicationFrameHost'],
  async run(step) {
    const opened = await step('open Notepad', 'computer_launch', { command: 'notepad.exe' });
    if (!opened.isError) await typeAndReadBack(step, 'notepad', opened, /\] (document|textbox|edit)\b.*editable/);
    await step('open Settings › About', 'computer_launch', { command: 'explorer.exe', args: ['ms-settings:about'] });
    await step('read the Settings page', 'computer_observe', { app: 'Settings' }, has(/\[e\d+\]/, 'an element'));
  },
};

/** macOS: TextEdit (type, read back) and Finder (read). */
export const macosTask: SmokeTask = {
  title: 'TextEdit: type a line and read it back; Finder: read its window',
  apps: ['TextEdit', 'Finder'],
  async run(step) {
    const opened = await step('open TextEdit', 'computer_launch', { command: 'TextEdit' });
    if (!opened.isError) await typeAndReadBack(step, 'TextEdit', opened, /\] (document|textbox)\b.*editable/);
    await step('open Finder', 'computer_launch', { command: 'Finder' });
    await step('read the Finder window', 'computer_observe', { app: 'Finder' }, has(/\[e\d+\]/, 'an element'));
  },
};

/** Android: Settings' Wi-Fi page; the switch is read, never changed. */
export const androidTask: SmokeTask = {
  title: 'Settings: open the Wi-Fi page and read its switch (not changed)',
  apps: ['Settings', 'com.android.settings'],
  async run(step) {
    await step('open Settings › Wi-Fi', 'computer_launch',
      { command: 'com.android.settings/.Settings$WifiSettingsActivity' });
    await step('read the Wi-Fi switch', 'computer_observe', {}, has(/switch|checkbox|toggle/i, 'a switch'));
  },
};

/** Reduced tasks for the test fakes: read the app the fake shows, act only where its recording answers. */
export const fakeTasks = {
  windows: {
    title: 'Notepad (replay): list the apps and read the Notepad window', apps: ['notepad', 'Notepad'],
    async run(step) {
      await step('list the apps', 'computer_apps', {}, has(/notepad/i, 'Notepad'));
      await step('read the Notepad window', 'computer_observe', { app: 'notepad' }, has(/\[e\d+\]/, 'an element'));
    },
  },
  macos: {
    title: 'TextEdit (fake AX): list the apps and read the document window', apps: ['TextEdit'],
    async run(step) {
      await step('list the apps', 'computer_apps', {}, has(/TextEdit/, 'TextEdit'));
      await step('read the TextEdit window', 'computer_observe', { app: 'TextEdit' }, has(/\[e\d+\]/, 'an element'));
    },
  },
  android: {
    title: 'Settings (fake phone): read the Network & internet page and its switches (not changed)',
    apps: ['Settings', 'com.android.settings'],
    async run(step) {
      await step('read the Settings page', 'computer_observe', {}, has(/Internet/, 'the Internet entry'));
      await step('find the switches', 'computer_find', { role: 'switch' }, has(/\[e\d+\]/, 'a switch'));
    },
  },
} satisfies Record<string, SmokeTask>;
