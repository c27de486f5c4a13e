#!/usr/bin/env node
/**
 * `computer-use driver android [--serial S]`: the adb driver served on stdio. It runs on the computer the phone
 * is attached to (the adb server's machine) and speaks the same protocol as every other driver, so the host's
 * session, policy, audit and receipts treat a phone as one more device.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import { handshake } from '../../protocol/handshake.js';
import type { Handlers } from '../../protocol/peer.js';
import { findInTree } from '../common/find.js';
import { serveDriver } from '../common/serve.js';
import { AdbClient } from './adb/client.js';
import { AdbError, isAdbError } from './adb/errors.js';
import { AndroidDriver, type AndroidChord } from './driver.js';
import { windowIdOf } from './screen.js';
import { isEntryModule } from '../common/entry.js';

/** The driver's version, reported by hello. */
export const ANDROID_DRIVER_VERSION = '0.1.0';

/** Key names of the host's chord grammar that differ from the W3C names the Android key map is keyed on. */
const KEY_NAME_ALIASES: Readonly<Record<string, string>> = {
  Return: 'Enter', KP_Enter: 'Enter', BackSpace: 'Backspace', Up: 'ArrowUp', Down: 'ArrowDown', Left: 'ArrowLeft',
  Right: 'ArrowRight', Prior: 'PageUp', Page_Up: 'PageUp', Next: 'PageDown', Page_Down: 'PageDown', space: ' ',
  Menu: 'ContextMenu', Print: 'PrintScreen', Caps_Lock: 'CapsLock', Num_Lock: 'NumLock',
  ctrl: 'Control', alt: 'Alt', shift: 'Shift', super: 'Meta',
};
const wireName = (k: string): string => KEY_NAME_ALIASES[k] ?? k;

/** What the user does about an adb failure, when the server's own words do not say it. */
const ADB_FIXES: Partial<Record<AdbError['kind'], string>> = {
  unauthorized: 'On the phone: unlock it and accept "Allow USB debugging?" for this computer (tick "Always allow"), then try again. Nothing was sent.',
  not_found: 'The phone is gone from adb (unplugged, rebooting, or its wireless debugging ended): reconnect it and check `adb devices`. Nothing more was sent.',
};

/** Maps an adb failure to the protocol's words: what happened and what the user does about it. */
export function adbToProtocol(e: unknown): unknown {
  if (!isAdbError(e)) return e;
  const codes: Record<AdbError['kind'], ConstructorParameters<typeof ComputerUseError>[0]> = {
    // A device that left the server's list (unplugged mid-session) is not reachable now, not an app that is missing.
    unauthorized: 'unauthorized',
    offline: 'device_offline',
    not_found: 'device_offline',
    ambiguous: 'invalid_params',
    no_server: 'driver_unavailable',
    protocol: 'internal',
    timeout: 'timeout',
    closed: 'link_lost',
    failed: 'action_failed',
  };
  const fix = ADB_FIXES[e.kind];
  return new ComputerUseError(codes[e.kind], fix ? `${e.message.trim()} — ${fix}` : e.message, {
    adb: e.kind,
    ...(e.kind === 'unauthorized' ? { where: "the phone's screen" } : {}),
  });
}

/** A package name, as Android accepts it. */
const PACKAGE = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/;
/** An activity class, absolute or relative to its package (`.Settings$WifiSettingsActivity`). */
const ACTIVITY = /^\.?[A-Za-z][\w$]*(\.[A-Za-z][\w$]*)*$/;

/** What `apps.launch` runs for a command: a package, a package/activity, or a web URL (its default app). */
export function launchTarget(
  command: string,
  args: readonly string[],
): { argv: string[]; packageName?: string; what: string } {
  if (/^https?:\/\/[^\s]+$/i.test(command) && command.length <= 2048) {
    return {
      argv: ['am', 'start', '-a', 'android.intent.action.VIEW', '-d', command],
      what: 'the app that opens the URL',
    };
  }
  const slash = command.indexOf('/');
  const pkg = slash < 0 ? command : command.slice(0, slash);
  const activity = slash < 0 ? undefined : command.slice(slash + 1);
  if (!PACKAGE.test(pkg) || (activity !== undefined && !ACTIVITY.test(activity))) {
    throw new ComputerUseError(
      'invalid_params',
      'on Android, launch takes a package (com.android.settings), a package/activity ' +
        '(com.android.settings/.Settings$WifiSettingsActivity) or an http(s) URL',
    );
  }
  if (args.length)
    throw new ComputerUseError(
      'invalid_params',
      'an Android app takes no arguments here: open a URL by launching the URL itself',
    );
  return activity === undefined
    ? { argv: ['monkey', '-p', pkg, '-c', 'android.intent.category.LAUNCHER', '1'], packageName: pkg, what: pkg }
    : { argv: ['am', 'start', '-n', `${pkg}/${activity}`], packageName: pkg, what: command };
}

/** The handlers of a connected driver. */
export function androidHandlers(driver: AndroidDriver): Handlers {
  const guard = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    try { return await fn(...a); } catch (e) { throw adbToProtocol(e); }
  };
  const table: Handlers = {
    hello: guard(async () => {
      const f = driver.facts ?? await driver.connect();
      return {
        ...handshake(table),
        platform: 'android',
        version: ANDROID_DRIVER_VERSION,
        capabilities: ['keys' as const, 'capture' as const],
        permissions: { adb_authorized: true, screen_unlocked: !f.locked },
        facts: {
          serial: driver.serial,
          model: f.model,
          manufacturer: f.manufacturer,
          android: f.release,
          api_level: String(f.apiLevel),
          screen: `${f.screen.width}x${f.screen.height}`,
          density: String(f.density),
          locked: String(f.locked),
        },
      };
    }),
    'apps.list': guard(async () => ({ apps: await driver.apps() })),
    'windows.list': guard(async (p) => {
      const apps = await driver.apps();
      return {
        windows: apps
          .flatMap((a) => a.windows)
          .filter((w) => (p.app === undefined || w.app === p.app) && (p.pid === undefined || w.pid === p.pid)),
      };
    }),
    'window.activate': guard(async (p) => {
      const fg = await driver.foreground();
      if (!fg || windowIdOf(fg) !== p.window)
        throw new ComputerUseError('window_not_found', 'that screen is no longer in front; launch the app again');
      return { ok: true };
    }),
    'apps.launch': guard(async (p) => {
      const target = launchTarget(p.command, p.args ?? []);
      const before = await driver.foreground();
      await driver.run(target.argv);
      const deadline = Date.now() + (p.waitForWindowMs ?? 10_000);
      for (;;) {
        const apps = await driver.apps();
        // A package opens that package; a URL opens whatever app handles it, so any app that came to the front.
        const app = apps.find((a) => a.windows[0] && (target.packageName ? a.name === target.packageName
          : a.windows[0].id !== (before ? windowIdOf(before) : '')));
        if (app?.windows[0]) return { pid: app.pid, window: app.windows[0] };
        if (Date.now() > deadline)
          throw new ComputerUseError(
            'timeout',
            `${target.what} did not come to the front in ${p.waitForWindowMs ?? 10_000} ms`,
          );
        await new Promise((r) => setTimeout(r, 200));
      }
    }),
    'process.identify': guard(async (p) => driver.identify(p.pid)),
    'screen.capture': guard(async (p) => {
      const t0 = performance.now();
      const shot = await driver.capture(p.window, p.maxEdge ?? 1280);
      return { ...shot, ms: performance.now() - t0 };
    }),
    'tree.snapshot': guard(async (p) => {
      const t0 = performance.now();
      const s = await driver.snapshot(p.window, p.scope);
      return {
        window: s.window,
        root: s.root,
        stats: { nodes: s.nodes, ms: performance.now() - t0, truncated: false },
      };
    }),
    'tree.find': guard(async (p) => {
      const s = await driver.snapshot(p.window);
      const matches = findInTree(s.root, p);
      return { matches, scanned: s.nodes };
    }),
    'node.act': guard(async (p) => driver.act(p)),
    'ui.settle': guard(async (p) => driver.settle(p.timeoutMs)),
    'events.subscribe': () => ({ ok: true }),
    'input.keys': guard(async (p) => {
      if (p.text !== undefined) {
        for (const argv of await driver.textArgvs(p.text)) await driver.run(argv);
        return { method: 'synthetic' as const, focusedFirst: false, sent: 1 };
      }
      const chords: AndroidChord[] = (p.chords ?? []).map((c) => ({
        mods: c.mods.map(wireName),
        key: wireName(c.key),
      }));
      return { method: 'synthetic' as const, focusedFirst: false, sent: await driver.keys(chords) };
    }),
    shutdown: () => ({ ok: true }),
  };
  return table;
}

/** Entry point of `computer-use driver android`. */
export async function runAndroidDriver(args: readonly string[]): Promise<void> {
  const i = args.indexOf('--serial');
  const serial = i >= 0 ? args[i + 1] : undefined;
  await serveDriver('android driver', async () => {
    const driver = new AndroidDriver({ client: new AdbClient(), ...(serial ? { serial } : {}) });
    try { await driver.connect(); } catch (e) { throw adbToProtocol(e); }
    return { handlers: () => androidHandlers(driver), close: () => undefined };
  });
}

if (isEntryModule(import.meta.url)) void runAndroidDriver(process.argv.slice(2));
