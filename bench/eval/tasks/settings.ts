/**
 * A settings window (test/apps/settings-form.py: Debian has no small GTK 3 settings app that writes its state
 * where a checker can read it): pages in a notebook, switches, a combo box, a spin button, an entry, and an Apply
 * button that is disabled until something changes. Apply writes the settings as JSON; the checker reads that file.
 */
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileMatches } from '../checks.js';
import type { CheckResult, EvalTask, TaskContext, TaskSetup } from '../task.js';
import { startCaptured } from './proc.js';

const SCRIPT = realpathSync(join(import.meta.dirname, '..', '..', '..', '..', 'test', 'apps', 'settings-form.py'));
/** The policy knows a script app by its interpreter's real name and the script ("python3.11 …/settings-form.py"). */
const ALLOW = `${basename(realpathSync('/usr/bin/python3'))} ${SCRIPT}`;
const DEFAULTS = {
  wifi: true,
  bluetooth: false,
  deviceName: 'debian-laptop',
  darkMode: false,
  language: 'English',
  fontSize: 11,
};
type Settings = typeof DEFAULTS;

/** Starts the window (its JSON goes to the task folder) and waits until it is shown. */
async function start(ctx: TaskContext): Promise<TaskSetup> {
  const out = join(ctx.dir, 'settings.json');
  const p = startCaptured(ctx, '/usr/bin/python3', [SCRIPT, out]);
  if (!await p.printed('ready', 15_000)) { await p.stop(); throw new Error('settings-form.py did not start'); }
  return { vars: { out }, teardown: () => p.stop() };
}

/** The applied settings equal the defaults with `changes`, every key compared. */
function applied(changes: Partial<Settings>) {
  const want = { ...DEFAULTS, ...changes };
  return (_ctx: TaskContext, vars: Record<string, string>): Promise<CheckResult> =>
    fileMatches(
      vars['out'] ?? '',
      (c) => {
        try {
          const got = JSON.parse(c) as Record<string, unknown>;
          return (
            Object.entries(want).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(want).length
          );
        } catch {
          return false;
        }
      },
      `applied settings (want ${JSON.stringify(changes)})`,
    );
}

export const settingsTasks: EvalTask[] = [
  {
    id: 'settings-appearance', app: 'settings', appName: 'settings-form', allowApps: [ALLOW], ci: true,
    goal: 'In Settings, turn on dark mode, set the font size to 14, and apply.',
    hard: 'the Apply button is disabled until something changes; the controls are on the second page',
    setup: start,
    plan: [
      { do: 'act', op: 'click', target: { role: 'tab', name: 'Appearance' } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Dark mode' } },
      { do: 'act', op: 'set_value', target: { role: 'spinbutton', name: 'Font size' }, value: '14' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Apply' } },
    ],
    check: applied({ darkMode: true, fontSize: 14 }),
  },
  {
    id: 'settings-device', app: 'settings', appName: 'settings-form', allowApps: [ALLOW],
    goal: 'In Settings, turn Bluetooth on, rename the device to 书房电脑, choose 中文 as the language, and apply.',
    hard: 'two pages; Chinese text; a combo box; the Apply button enables only after a change',
    setup: start,
    plan: [
      { do: 'act', op: 'click', target: { role: 'button', name: 'Bluetooth' } },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Device name' }, value: '书房电脑' },
      { do: 'act', op: 'click', target: { role: 'tab', name: 'Appearance' } },
      { do: 'act', op: 'select', target: { role: 'combobox', name: 'Language' }, value: '中文' },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Apply' } },
    ],
    check: applied({ bluetooth: true, deviceName: '书房电脑', language: '中文' }),
  },
];
