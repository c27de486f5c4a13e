/**
 * The session type doctor reports: which display server the environment points at (x11, wayland or none),
 * whether it is a headless computer-use sandbox (Xvfb or Weston), the variables that decided it, and what
 * computer use can and cannot do there. Pure: it reads only the environment it is given.
 */
import { displayServer } from './prereq.js';
import { WESTON_SOCKET } from '../sandbox/env.js';

/** The desktop session as doctor sees it. */
export interface SessionInfo {
  /** The display server: `x11`, `wayland`, or `none` (no DISPLAY and no WAYLAND_DISPLAY). */
  type: 'x11' | 'wayland' | 'none';
  /** Set when the desktop is a computer-use sandbox (`COMPUTER_USE_SANDBOX`): `xvfb` or `weston`. */
  headless?: 'xvfb' | 'weston';
  /** The sandbox's name (`:N`) when headless. */
  sandbox?: string;
  /** `XDG_SESSION_TYPE`, `WAYLAND_DISPLAY`, `DISPLAY` as found (`undefined` when unset, `''` when empty). */
  vars: { XDG_SESSION_TYPE?: string; WAYLAND_DISPLAY?: string; DISPLAY?: string };
  /** What works in this session. */
  works: string[];
  /** What does not, each with the error code or reason. */
  notHere: string[];
}

const ELEMENT_WORK = [
  'observe, find and wait (AT-SPI)',
  'element actions: click, toggle, set_value, type, select, scroll (AT-SPI)',
  'launch',
];

/** Describes the session of `env`. */
export function describeSession(env: NodeJS.ProcessEnv): SessionInfo {
  const type = displayServer(env);
  const vars: SessionInfo['vars'] = {};
  for (const k of ['XDG_SESSION_TYPE', 'WAYLAND_DISPLAY', 'DISPLAY'] as const) {
    const v = env[k];
    if (v !== undefined) vars[k] = v;
  }
  const sandbox = env['COMPUTER_USE_SANDBOX'];
  const info: SessionInfo = { type, vars, works: [], notHere: [] };
  // Only what the sandbox itself set counts: a session merely marked Wayland inside an Xvfb sandbox is not Weston.
  const headless = !sandbox ? undefined : type === 'wayland' && env['WAYLAND_DISPLAY'] === WESTON_SOCKET ? 'weston'
    : type === 'x11' && env['DISPLAY'] === sandbox ? 'xvfb' : undefined;
  if (headless && sandbox) {
    info.headless = headless;
    info.sandbox = sandbox;
  }
  if (type === 'x11') {
    info.works = [
      ...ELEMENT_WORK,
      'keys and pointer (XTest, sent only to a proven window)',
      'screenshots and OCR (X11 capture)',
      'the activity frame',
    ];
  } else if (type === 'wayland') {
    info.works = [...ELEMENT_WORK];
    info.notHere = [
      'keys and pointer: input_blocked (no X11 window proof on Wayland; the RemoteDesktop portal is not used)',
      'screenshots and OCR (they capture through X11)',
      'the activity frame (Wayland clients cannot place windows)',
    ];
  } else {
    info.notHere = ['everything that needs a desktop: no DISPLAY and no WAYLAND_DISPLAY'];
  }
  return info;
}

/** One line: `wayland, headless (Weston sandbox :92) · XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-cu DISPLAY=(empty)`. */
export function sessionLine(s: SessionInfo): string {
  const show = (v: string | undefined): string => v === undefined ? '(unset)' : v === '' ? '(empty)' : v;
  const where = s.headless
    ? `, headless (${s.headless === 'weston' ? 'Weston' : 'Xvfb'} sandbox ${s.sandbox ?? ''})`
    : '';
  return (
    `${s.type}${where} · XDG_SESSION_TYPE=${show(s.vars.XDG_SESSION_TYPE)} WAYLAND_DISPLAY=` +
    `${show(s.vars.WAYLAND_DISPLAY)} DISPLAY=${show(s.vars.DISPLAY)}`
  );
}
