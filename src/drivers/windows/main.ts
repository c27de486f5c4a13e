#!/usr/bin/env node
/**
 * `computer-use driver windows [--replay FILE]`: the UI Automation driver served on stdio. On first use it
 * compiles its helper (build.ts) into `<data dir>/drivers/<sha256>/`, then starts it and speaks protocol v1 to
 * the host. `--replay FILE` runs the same helper on recorded answers instead of UI Automation (tests, the
 * conformance kit off Windows; Mono runs the helper there).
 */
import { cuPath } from '../../paths.js';
import { ComputerUseError } from '../../protocol/errors.js';
import { handshake } from '../../protocol/handshake.js';
import type { Handlers } from '../../protocol/peer.js';
import { isEntryModule } from '../common/entry.js';
import { serveDriver } from '../common/serve.js';
import { ensureHelper, frameworkCsc, monoMcs, type BuiltHelper } from './build.js';
import { WindowsDriver } from './driver.js';
import { HelperClient, helperCommand } from './helper-client.js';
import { HELPER_SOURCES } from './helper-sources.generated.js';

/** The driver's version, reported by hello. */
export const WINDOWS_DRIVER_VERSION = '0.1.0';

/** The handlers of a started driver. */
export function windowsHandlers(driver: WindowsDriver, built: BuiltHelper): Handlers {
  const table: Handlers = {
    hello: async () => {
      const h = await driver.helperHello();
      const facts: Record<string, string> = { helper: built.origin, helper_backend: h.backend ?? 'unknown' };
      if (built.hash) facts['helper_hash'] = built.hash.slice(0, 16);
      if (h.os) facts['os'] = h.os;
      if (h.self?.integrity !== undefined) facts['integrity'] = `0x${h.self.integrity.toString(16)}`;
      if (h.self?.elevated !== undefined) facts['elevated'] = String(h.self.elevated);
      return {
        ...handshake(table),
        platform: 'windows' as const,
        version: WINDOWS_DRIVER_VERSION,
        capabilities: [
          'events' as const,
          'keys' as const,
          'pointer' as const,
          'background_input' as const,
          'capture' as const,
        ],
        permissions: { ui_automation: h.backend === 'uia' || h.backend === 'replay' },
        facts,
      };
    },
    'apps.list': async () => ({ apps: await driver.apps() }),
    'windows.list': async (p) => ({ windows: await driver.windows(p) }),
    'window.activate': async (p) => { await driver.activate(p.window); return { ok: true }; },
    'apps.launch': async (p) => driver.launch(p),
    'process.identify': async (p) => driver.identify(p),
    'apps.resolveLaunch': (p) => driver.resolveLaunch(p),
    'apps.terminate': async (p) => driver.terminate(p),
    'tree.snapshot': async (p, ctx) => driver.snapshot(p, ctx.signal),
    'tree.find': async (p, ctx) => driver.find(p, ctx.signal),
    'node.act': async (p, ctx) => driver.act(p, ctx.signal),
    'events.subscribe': async (p) => {
      const hwnd = /^hwnd:(\d+)$/.exec(p.window ?? '')?.[1];
      if (hwnd) await driver.helper.request('subscribe', { hwnd });
      return { ok: true };
    },
    'ui.settle': async (p, ctx) => driver.settle(p, ctx.signal),
    'input.keys': async (p, ctx) => driver.keys(p, ctx.signal),
    'input.pointer': async (p, ctx) => driver.pointer(p, ctx.signal),
    'input.clipboard': async (p) => driver.clipboard(p),
    'screen.capture': async (p, ctx) => driver.capture(p, ctx.signal),
    'text.read': async (p) => driver.textRead(p),
    shutdown: () => ({ ok: true }),
  };
  return table;
}

/** Entry point of `computer-use driver windows`. */
export async function runWindowsDriver(args: readonly string[]): Promise<void> {
  const i = args.indexOf('--replay');
  const replay = i >= 0 ? args[i + 1] : undefined;
  await serveDriver('windows driver', async () => {
    if (process.platform !== 'win32' && !replay) {
      throw new ComputerUseError(
        'unsupported',
        `the Windows driver runs on Windows (this is ${process.platform}); --replay FILE serves a recording ` +
          `of its helper`,
      );
    }
    const compiler = process.platform === 'win32' ? frameworkCsc(process.env['WINDIR'] ?? 'C:\\Windows') : monoMcs();
    const built = await ensureHelper({
      sources: HELPER_SOURCES,
      driversDir: cuPath('drivers'),
      compiler,
      prebuilt: process.env['COMPUTER_USE_DRIVER_WINDOWS'],
    });
    const helper = new HelperClient(helperCommand(built.path, replay ? ['--replay', replay] : []));
    const driver = new WindowsDriver(helper);
    await driver.helperHello();
    return { handlers: () => windowsHandlers(driver, built), close: () => helper.close() };
  });
}

if (isEntryModule(import.meta.url)) void runWindowsDriver(process.argv.slice(2));
