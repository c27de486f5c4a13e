/**
 * One screen of the phone as the driver sees it: a dump, parsed, with the foreground app it belongs to, and the
 * geometry acts need (where the system bars are, so a tap never lands on the status or navigation bar).
 */
import { createHash } from 'node:crypto';
import type { Op, RawNode } from '../../engine/node.js';
import type { Foreground } from './device.js';
import { toRawNode } from './nodes.js';
import { parseUiDump, type UiDump, type UiNode } from './uixml.js';

/** A parsed screen. */
export interface Screen {
  dump: UiDump;
  /** The package the dump's nodes belong to (the first root's), which must be the foreground app's. */
  packageName: string;
  foreground: Foreground | undefined;
  /** A short hash of the dump, to tell a changed screen from an unchanged one. */
  signature: string;
  /** Milliseconds the dump took on the device. */
  ms: number;
}

/** Parses a dump into a screen. */
export function screenOf(xml: string, foreground: Foreground | undefined, ms: number): Screen {
  const dump = parseUiDump(xml);
  return {
    dump,
    packageName: dump.roots[0]?.packageName ?? '',
    foreground,
    signature: createHash('sha256').update(xml).digest('hex').slice(0, 16),
    ms,
  };
}

/** The window id of a screen: the foreground package and activity (what the policy's identity is keyed on). */
export function windowIdOf(fg: Foreground): string { return `${fg.packageName}/${fg.activity}`; }

/** The ops of the window node: the phone's system actions (SYSTEM_ACTIONS), which act on no element. */
export const WINDOW_OPS = ['back', 'home', 'recents', 'notifications'] as const satisfies readonly Op[];

/** The protocol tree of a screen: a window node holding the app's roots, with the system actions as its ops. */
export function screenTree(
  screen: Screen,
  windowId: string,
  title: string,
  size: { width: number; height: number },
): RawNode {
  const children = screen.dump.roots.map((r, i) => toRawNode(windowId, r, [i], undefined, size));
  return {
    id: windowId,
    role: 'window',
    name: title,
    states: [],
    actions: [...WINDOW_OPS],
    bounds: [0, 0, size.width, size.height],
    children,
  };
}

/**
 * The screen as the dump's coordinates see it: `wm size` reports the natural (portrait) size whatever the
 * rotation, while a dump taken in landscape (rotation 1 or 3) lays its bounds out on the swapped size.
 */
export function rotatedSize(
  natural: { width: number; height: number },
  rotation: number,
): { width: number; height: number } {
  return rotation % 2 === 1 ? { width: natural.height, height: natural.width } : natural;
}

/** Below this smallest width (dp) Android puts the navigation bar at the side in landscape (a phone), else at the bottom. */
const SIDE_NAV_BELOW_DP = 600;

/**
 * The part of the screen an app's content may be tapped in, [l, t, r, b]: below the status bar and clear of the
 * navigation bar, which sits at the bottom, or in landscape on a phone at the side the rotation puts it
 * (right for rotation 1, left for rotation 3). `size` is the rotated size.
 */
export function tappableArea(
  size: { width: number; height: number },
  density: number,
  rotation = 0,
): [number, number, number, number] {
  const dpi = density || 160;
  const dp = (v: number): number => Math.round(v * dpi / 160);
  const top = dp(24);
  const nav = dp(48);
  const smallestDp = Math.min(size.width, size.height) * 160 / dpi;
  if (rotation % 2 === 1 && smallestDp < SIDE_NAV_BELOW_DP) {
    return rotation === 1
      ? [0, top, Math.max(0, size.width - nav), size.height]
      : [Math.min(nav, size.width), top, size.width, size.height];
  }
  return [0, top, size.width, Math.max(top, size.height - nav)];
}

/** The part of a node's bounds [l, t, r, b] that lies in `area` [l, t, r, b], as [x, y, w, h]; undefined when none. */
export function visiblePart(
  node: UiNode,
  area: [number, number, number, number],
): [number, number, number, number] | undefined {
  const [l, t, r, b] = node.bounds;
  const x1 = Math.max(l, area[0]); const y1 = Math.max(t, area[1]);
  const x2 = Math.min(r, area[2]); const y2 = Math.min(b, area[3]);
  return x2 > x1 && y2 > y1 ? [x1, y1, x2 - x1, y2 - y1] : undefined;
}
