/** The apps the benchmark measures, and launching one until its tree has settled. */
import { perform } from '../src/session/pipeline.js';
import { launchStep } from '../src/session/steps.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawNode, WindowInfo } from '../src/engine/node.js';
import { walk } from '../src/engine/node.js';
import type { A11yBus } from '../src/drivers/linux/bus/bus.js';
import { readTreeCached } from '../src/drivers/linux/bus/cache.js';
import { targetOf } from '../src/drivers/linux/tree/reader.js';
import type { Session } from '../src/session/session.js';
import { PAGE, errText, sleep } from './config.js';

export interface AppSpec {
  key: string;
  label: string;
  command: string;
  args: string[];
  /** A name that must appear in the raw tree before measuring (content loaded). */
  readyName?: string;
  /** Minimum raw nodes before the tree counts as loaded. */
  minNodes: number;
  snapshotTarget: boolean;
  /** Also read the whole unpruned tree in-process (off for Chromium: its window vanished from the bus after one). */
  fullTree?: false;
}

/** The app list (filtered by BENCH_APPS) and a cleanup that removes Chromium's temporary profile. */
export async function appSpecs(): Promise<{ specs: AppSpec[]; cleanup: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'cu-bench-chromium-'));
  const specs: AppSpec[] = [
    { key: 'gedit', label: 'gedit', command: 'gedit', args: ['--new-window'], minNodes: 50, snapshotTarget: true },
    {
      key: 'gtk3-widget-factory',
      label: 'gtk3-widget-factory',
      command: 'gtk3-widget-factory',
      args: [],
      minNodes: 100,
      snapshotTarget: true,
    },
    { key: 'mousepad', label: 'mousepad', command: 'mousepad', args: [], minNodes: 50, snapshotTarget: false },
    {
      key: 'gtk4-widget-factory',
      label: 'gtk4-widget-factory',
      command: 'gtk4-widget-factory',
      args: [],
      minNodes: 200,
      snapshotTarget: true,
    },
    {
      key: 'chromium',
      label: 'chromium (form page)',
      command: '/usr/bin/chromium',
      minNodes: 100,
      snapshotTarget: false,
      fullTree: false,
      readyName: 'Fifty items',
      args: [
        '--force-renderer-accessibility',
        '--no-sandbox',
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-gpu',
        '--password-store=basic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        `--user-data-dir=${profile}`,
        `file://${PAGE}`,
      ],
    },
  ];
  const only = process.env['BENCH_APPS']?.split(',').map((s) => s.trim()).filter(Boolean);
  return {
    specs: only?.length ? specs.filter((s) => only.includes(s.key)) : specs,
    cleanup: () => rm(profile, { recursive: true, force: true }),
  };
}

function hasName(root: RawNode, name: string): boolean {
  let found = false;
  walk(root, (n) => { if (n.name === name) found = true; return undefined; });
  return found;
}

/**
 * Launches the app through the driver and waits until its window's tree stops growing. Readiness is judged on
 * the whole tree (read in-process without pruning hidden subtrees) as well as on the driver's snapshot, so a
 * driver that prunes too much (GTK4) is measured and reported rather than waited on forever.
 */
export async function launchAndWait(session: Session, bus: A11yBus, spec: AppSpec):
  Promise<{ pid: number; window: WindowInfo; loadMs: number; snapshotNodes: number; fullNodes: number }> {
  const t0 = performance.now();
  // Launching changes the device: it goes through the acting pipeline (gate → audit → dispatch) like any act.
  const argv = [spec.command, ...spec.args];
  const { result: res } = await perform(
    session,
    {},
    {
      request: launchStep(argv, undefined),
      dispatch: (d) =>
        d.call('apps.launch', { command: spec.command, args: spec.args, waitForWindowMs: 40_000 }, 60_000),
      settle: async () => undefined,
      receipt: (r) =>
        r.window
          ? { status: 'confirmed', detail: `pid ${r.pid}; a window appeared` }
          : { status: 'unknown', detail: `pid ${r.pid}; no window yet` },
    },
  );
  if (!res.window) throw new Error(`${spec.command}: no window`);
  let window = res.window;
  let last = '';
  let stable = 0;
  let snapNodes = 0;
  let fullNodes = 0;
  let fullError = '';
  let snapError = '';
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    // One after the other: Chromium answers concurrent whole-tree reads from two connections badly.
    const snap = await session.device.call('tree.snapshot', { window: window.id }).catch((e: unknown) => {
      snapError = errText(e);
      return null;
    });
    const full =
      spec.fullTree === false
        ? null
        : await readTreeCached(bus, targetOf(window.id), { pruneHidden: false, maxNodes: 20_000 }).catch(
            (e: unknown) => {
              fullError = errText(e);
              return null;
            },
          );
    if (!snap) {
      // The first window handle can die while the app starts (Chromium): look the app's window up again.
      const apps = await session.device.call('apps.list', { withWindows: true }).catch(() => ({ apps: [] }));
      const app = apps.apps.find((a) => a.pid === res.pid && a.windows.length);
      const w = app?.windows.find((x) => x.focused && x.title) ?? app?.windows.find((x) => x.title) ?? app?.windows[0];
      if (w) window = w;
    } else {
      window = snap.window;
      snapNodes = snap.stats.nodes;
      fullNodes = full?.nodes ?? -1;
      const nodes = Math.max(snapNodes, fullNodes);
      const ready =
        nodes >= spec.minNodes &&
        (!spec.readyName ||
          hasName(snap.root, spec.readyName) ||
          (full !== null && hasName(full.root, spec.readyName)));
      const key = `${snapNodes}/${fullNodes}`;
      stable = ready && key === last ? stable + 1 : 0;
      last = key;
      if (stable >= 2) break;
    }
    await sleep(400);
  }
  if (stable < 2)
    throw new Error(
      `${spec.label}: the tree did not settle within 30 s (snapshot/full nodes ${last}` +
        `${snapError ? `; snapshot: ${snapError}` : ''}${fullError ? `; full read: ${fullError}` : ''})`,
    );
  return { pid: res.pid, window, loadMs: performance.now() - t0, snapshotNodes: snapNodes, fullNodes };
}

/** SIGTERM to the app's process group and the process itself. */
export function killApp(pid: number): void {
  for (const target of [-pid, pid]) {
    try { process.kill(target, 'SIGTERM'); } catch { /* not a group leader / already gone */ }
  }
}
