/**
 * `computer-use panel`: the panel on its own, for the apps, the audit log, the self-check and the stop button
 * of this home (COMPUTER_USE_HOME). Questions are answered in the panel of the process that asks them
 * (`computer-use mcp --panel`); this one shows none of its own. Runs until interrupted.
 */
import { createComputer, type Computer } from '../../index.js';
import { defaultAuditPath } from '../../policy/audit.js';
import { defaultSettingsPath, loadSettings } from '../../policy/settings.js';
import { requestStop } from '../../policy/stop.js';
import { cuHome } from '../../paths.js';
import { mcpOptionsFrom } from '../options.js';
import { PanelConfirmer } from '../../panel/confirmations.js';
import { DEFAULT_STOP_HOTKEY, grabStopHotkey, type HotkeyGrab } from '../../panel/hotkey.js';
import { LiveView } from '../../panel/live.js';
import { startPanel } from '../../panel/server.js';

export async function runPanelCommand(args: string[]): Promise<number> {
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('--port takes a port number\n');
    return 2;
  }
  const rest = portAt >= 0 ? [...args.slice(0, portAt), ...args.slice(portAt + 2)] : args;
  const {
    panel: _p,
    strictFirstUse: _s,
    confirmTimeoutMs: _t,
    confirmIn: _c,
    openPanel: _o,
    ...options
  } = mcpOptionsFrom(rest);
  const settingsPath = options.settingsPath ?? defaultSettingsPath();
  const settings = loadSettings(settingsPath).settings;
  let computer: Promise<Computer> | undefined;
  const getComputer = (): Promise<Computer> => {
    computer ??= createComputer({ desktop: process.env['DISPLAY'] ? 'current' : 'auto', ...options }).catch(
      (e: unknown) => {
        computer = undefined;
        throw e;
      },
    );
    return computer;
  };
  let grab: HotkeyGrab | undefined;
  const panel = await startPanel(
    {
      home: cuHome(),
      auditPath: options.auditPath ?? defaultAuditPath(),
      confirmer: new PanelConfirmer(),
      live: new LiveView(),
      computer: getComputer,
      mode: () => options.mode ?? settings.mode ?? 'default',
      hotkey: () => grab?.chord,
    },
    { port },
  );
  if (process.env['DISPLAY']) {
    grab = await grabStopHotkey(process.env['DISPLAY'], settings.stopHotkey ?? DEFAULT_STOP_HOTKEY, () => {
      requestStop(cuHome(), 'stop hotkey');
    }).catch((e: unknown) => {
      process.stderr.write(`no stop hotkey: ${(e as Error).message}\n`);
      return undefined;
    });
  }
  process.stdout.write(
    `computer-use panel: ${panel.url}\n${grab ? `stop hotkey: ${grab.chord}\n` : ''}(Ctrl+C ends it)\n`,
  );
  await new Promise<void>((resolve) => { process.once('SIGINT', resolve); process.once('SIGTERM', resolve); });
  grab?.close();
  await panel.close();
  if (computer) await (await computer.catch(() => undefined))?.close();
  return 0;
}
