/**
 * Firefox ESR (Gecko): a web form whose order leaves the page as a downloaded file, so the checker reads the
 * page's result from disk (Firefox here has no DevTools protocol the checker could use).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileMatches } from '../checks.js';
import type { EvalTask } from '../task.js';
import { firefoxProfile } from '../../../test/e2e/browsers.js';

const PAGE = new URL('../../../../bench/eval/pages/firefox-order.html', import.meta.url).href;

export const firefoxTasks: EvalTask[] = [
  {
    id: 'firefox-order', app: 'firefox (Gecko)', appName: 'Firefox', allowApps: ['firefox-esr', 'firefox'],
    goal: 'On the shirt order page in Firefox, order a Large shirt for 李雷 with gift wrap.',
    hard: 'Gecko ignores EditableText (the driver types); a combo box in a dropdown; Chinese text',
    setup: async (ctx) => {
      const downloads = join(ctx.dir, 'downloads');
      const profile = join(ctx.dir, 'profile');
      await mkdir(downloads);
      await mkdir(profile);
      firefoxProfile(
        [
          ['browser.download.folderList', 2],
          ['browser.download.dir', downloads],
          ['browser.download.useDownloadDir', true],
          ['browser.download.always_ask_before_handling_new_types', false],
          ['browser.download.alwaysOpenPanel', false],
          ['browser.download.panel.shown', true],
        ],
        profile,
      );
      return { vars: { profile, page: PAGE, order: join(downloads, 'order.json') } };
    },
    plan: [
      { do: 'launch', command: 'firefox-esr', args: ['-profile', '{{profile}}', '-no-remote', '{{page}}'] },
      { do: 'wait', until: 'appears', role: 'button', text: 'Place order', timeoutMs: 30_000 },
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Name' }, value: '李雷' },
      { do: 'act', op: 'select', target: { role: 'combobox', name: 'Size' }, value: 'Large' },
      { do: 'act', op: 'toggle', target: { role: 'checkbox', name: 'Gift wrap' } },
      { do: 'act', op: 'click', target: { role: 'button', name: 'Place order' } },
    ],
    check: (_ctx, vars) => fileMatches(vars['order'] ?? '', (c) => {
      try {
        const o = JSON.parse(c) as Record<string, unknown>;
        return o['name'] === '李雷' && o['size'] === 'Large' && o['sizeChangeEvent'] === 'Large' && o['gift'] === true;
      } catch { return false; }
    }, 'downloaded order', 15_000),
  },
];
