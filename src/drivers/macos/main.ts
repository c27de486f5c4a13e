#!/usr/bin/env node
/**
 * `computer-use driver macos`: the AX driver served on stdio. On macOS it binds the system frameworks; with
 * COMPUTER_USE_MACOS_AX_LIB it binds that one library instead (the fake AX library of test/macos-fake), which is
 * how the same process is replay-tested on Linux. `hello` reports the accessibility trust without prompting.
 */
import { ComputerUseError } from '../../protocol/errors.js';
import { handshake } from '../../protocol/handshake.js';
import type { HelloResult } from '../../protocol/methods.js';
import type { Handlers } from '../../protocol/peer.js';
import { findInTree } from '../common/find.js';
import { serveDriver } from '../common/serve.js';
import { responsibleApp } from './cf.js';
import { accessibilityGrant } from './permission.js';
import { SCREEN_RECORDING_FIX } from './capture.js';
import { clipboard } from './clipboard.js';
import { MacDriver } from './driver.js';
import { isEntryModule } from '../common/entry.js';

/** The driver's version, reported by hello. */
export const MACOS_DRIVER_VERSION = '0.1.0';

/** What hello says: trust read with AXIsProcessTrustedWithOptions(NULL), which never shows the system prompt. */
export function macHello(driver: MacDriver, handlers: Handlers): HelloResult {
  const trusted = driver.trusted();
  const recording = driver.api.CGPreflightScreenCaptureAccess() !== 0;
  return {
    ...handshake(handlers),
    platform: 'macos',
    version: MACOS_DRIVER_VERSION,
    capabilities: ['events', 'keys', 'pointer', 'background_input', 'capture'],
    permissions: { accessibility: trusted, screen_recording: recording },
    facts: {
      responsible_process: responsibleApp(),
      accessibility: trusted ? 'granted' : `not granted: ${accessibilityGrant().message}`,
      screen_recording: recording
        ? 'granted (screen.capture images one window)'
        : `not granted: only screen.capture needs it; turn it on in ${SCREEN_RECORDING_FIX}`,
    },
  };
}

/** The handlers of a started driver. */
export function macHandlers(driver: MacDriver): Handlers {
  const table: Handlers = {
    hello: () => macHello(driver, table),
    'apps.list': (p) => ({ apps: driver.apps(p.withWindows ?? true) }),
    'windows.list': (p) => {
      const apps = driver.apps(true);
      return {
        windows: apps
          .flatMap((a) => a.windows)
          .filter((w) => (p.app === undefined || w.app === p.app) && (p.pid === undefined || w.pid === p.pid)),
      };
    },
    'apps.launch': (p) => driver.launch(p),
    'process.identify': (p) => driver.identify(p),
    'apps.resolveLaunch': (p) => driver.resolveLaunch(p),
    'apps.terminate': (p) => driver.terminate(p),
    'window.activate': (p) => { driver.activate(p.window); return { ok: true }; },
    'tree.snapshot': (p) => {
      const t0 = performance.now();
      const s = driver.snapshot(p);
      return {
        window: s.window,
        root: s.root,
        stats: { nodes: s.nodes, ms: performance.now() - t0, truncated: s.truncated },
      };
    },
    'tree.find': (p) => {
      const s = driver.snapshot({ window: p.window });
      return { matches: findInTree(s.root, p), scanned: s.nodes };
    },
    'node.act': (p, ctx) => driver.act(p, ctx.signal),
    'ui.settle': (p, ctx) => driver.settle(p, ctx.signal),
    'events.subscribe': () => ({ ok: true }),
    'input.pointer': (p, ctx) => driver.pointer(p, ctx.signal),
    'input.clipboard': (p) => clipboard(driver.api, p),
    'screen.capture': (p) => driver.capture(p),
    'input.keys': (p, ctx) => {
      if ((p.text === undefined) === (p.chords === undefined))
        throw new ComputerUseError('invalid_params', 'give exactly one of chords and text; nothing was sent');
      return driver.keys(p, ctx.signal);
    },
    shutdown: () => ({ ok: true }),
  };
  return table;
}

/** Entry point of `computer-use driver macos`. */
export async function runMacDriver(): Promise<void> {
  await serveDriver('macos driver', async () => {
    const driver = new MacDriver();
    return { handlers: () => macHandlers(driver), close: () => driver.close() };
  });
}

if (isEntryModule(import.meta.url)) void runMacDriver();
