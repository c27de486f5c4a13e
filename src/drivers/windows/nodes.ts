/**
 * The helper's answers → the protocol's nodes and windows. Handles are `hwnd:<decimal>` for windows and
 * `<hwnd>:<runtime id>` for elements: the runtime id is UIA's identity of an element for its lifetime, and the
 * window part lets every act check the element is still in the window the ref was issued for.
 */
import type { AppInfo, RawNode, WindowInfo } from '../../engine/node.js';
import { LIMITS } from '../../protocol/methods.js';
import { identityFields, type HelperProcess } from './identity.js';
export { integrityName } from './identity.js';
import { opsOf, roleOf, statesOf, UIA_CONTROL_TYPES, type UiaElement } from './roles.js';

/** What the helper's `windows` op reports per top-level window. */
export interface UiaWindow {
  hwnd: string;
  title: string;
  className?: string;
  foreground?: boolean;
  minimized?: boolean;
  bounds?: [number, number, number, number];
  process?: HelperProcess;
}

const HWND = /^hwnd:(\d{1,20})$/;
const NODE = /^(\d{1,20}):(\d{1,11}(?:\.-?\d{1,11}){0,63})$/;

/** The window handle of a window id, or undefined when it is not one of this driver's. */
export function parseWindowId(id: string): string | undefined {
  return HWND.exec(id)?.[1];
}

/** The window and runtime id of a node handle, or undefined. */
export function parseNodeId(id: string): { hwnd: string; rid: string } | undefined {
  const m = NODE.exec(id);
  return m ? { hwnd: m[1]!, rid: m[2]! } : undefined;
}

/** The password mask every driver reports instead of a secret's text. */
const MASK = '••••';

/** A string the helper sent, or nothing: a helper answer is checked, never trusted to have the declared shape. */
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One helper element (and its children) as a protocol node. */
export function toRawNode(e: UiaElement, hwnd: string): RawNode {
  const role = roleOf(e);
  const n: RawNode = {
    id: `${hwnd}:${String(e.rid)}`,
    role,
    nativeRole: e.ct !== undefined ? (UIA_CONTROL_TYPES[e.ct]?.name ?? `ControlType ${e.ct}`) : 'unknown',
    states: statesOf(e, role),
    actions: opsOf(e, role),
  };
  const name = text(e.name);
  const value = text(e.value);
  if (name) n.name = name.slice(0, LIMITS.text);
  if (e.password) { if (e.filled === true) n.value = MASK; }
  else if (value) {
    n.value = value.slice(0, LIMITS.text);
    if (value.length > LIMITS.text) n.valueLength = value.length;
  }
  const help = text(e.help);
  const aid = text(e.aid);
  if (help) n.description = help.slice(0, LIMITS.text);
  if (aid) n.stableId = aid.slice(0, LIMITS.id);
  if (e.rect && e.rect.every((v) => Number.isInteger(v) && Math.abs(v) <= LIMITS.pixel)) n.bounds = e.rect;
  if (e.range && typeof e.range.min === 'number' && typeof e.range.max === 'number') {
    n.range = {
      min: e.range.min,
      max: e.range.max,
      ...(typeof e.range.step === 'number' && e.range.step > 0 ? { step: e.range.step } : {}),
    };
    if (!e.value && typeof e.range.value === 'number') n.value = String(e.range.value);
  }
  const accessKey = text(e.accessKey);
  if (accessKey) n.keyBinding = accessKey.slice(0, LIMITS.id);
  if (Array.isArray(e.children) && e.children.length)
    n.children = e.children.slice(0, LIMITS.items).map((c) => toRawNode(c, hwnd));
  if (Number.isSafeInteger(e.childCount) && e.childCount! >= 0) n.childCount = e.childCount!;
  return n;
}

/** The app name of a window: its proven image's file name without `.exe` ("notepad"), else its class. */
function appName(w: UiaWindow): string {
  const image = identityFields(w.process).executable;
  const base = image ? image.slice(Math.max(image.lastIndexOf('\\'), image.lastIndexOf('/')) + 1) : '';
  return (base.replace(/\.exe$/i, '') || w.className || 'unknown').slice(0, LIMITS.id);
}

/** One top-level window as the protocol's window, with the identity the OS proves (identity.ts). */
export function toWindowInfo(w: UiaWindow): WindowInfo {
  const info: WindowInfo = {
    id: `hwnd:${w.hwnd}`, title: w.title.slice(0, LIMITS.text), app: appName(w), pid: w.process?.pid ?? 0,
    role: 'window', focused: w.foreground === true,
  };
  Object.assign(info, identityFields(w.process));
  if (w.className) info.className = w.className.slice(0, LIMITS.id);
  if (w.bounds) info.bounds = w.bounds;
  return info;
}

/** Medium integrity, the level a normal user's apps (and an unelevated driver) run at. */
export const MEDIUM_INTEGRITY = 0x2000;


/** Whether UIPI keeps a helper of `selfIntegrity` from the window's process (higher integrity, or not even openable). */
export function blockedByUipi(w: UiaWindow, selfIntegrity = MEDIUM_INTEGRITY): boolean {
  return w.process?.denied === true || (w.process?.integrity ?? 0) > selfIntegrity;
}

/**
 * Windows grouped into apps by process (pid and start time: a reused pid is another app). An app above the
 * helper's integrity level is marked inaccessible: UIPI lets the helper read little of it and send it nothing.
 */
export function toApps(windows: readonly UiaWindow[], selfIntegrity = MEDIUM_INTEGRITY): AppInfo[] {
  const apps = new Map<string, AppInfo>();
  for (const w of windows) {
    const info = toWindowInfo(w);
    const key = `${info.pid}:${info.startToken ?? ''}`;
    let app = apps.get(key);
    if (!app) {
      app = { name: info.app, id: `pid:${key}`, pid: info.pid, windows: [] };
      for (const k of ['appId', 'executable', 'startToken', 'user'] as const)
        if (info[k] !== undefined) app[k] = info[k];
      if (blockedByUipi(w, selfIntegrity))
        app.inaccessible = {
          reason: 'runs with more privileges than computer-use (elevated)',
          fix: 'run the app without administrator rights, or computer-use with them',
        };
      apps.set(key, app);
    }
    app.windows.push(info);
  }
  return [...apps.values()];
}
