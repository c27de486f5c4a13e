/**
 * Who owns the CLIPBOARD selection, proven from the process that holds it now, and whether the owner marks
 * it secret: password managers offer the `x-kde-passwordManagerHint` target ("secret") with what they copy.
 */
import { readFileSync } from 'node:fs';
import { procInfo } from '../../../common/proc.js';
import type { X11 } from './connection.js';
import type { XWindows } from './windows.js';

/**
 * The clipboard owner as far as the X server can prove it: the pid (and start time) of the live process whose
 * connection created the selection owner's window; `unproven` when there is none to name.
 */
export interface ClipboardOwner { pid?: number; startToken?: string; secret?: boolean; unproven?: boolean }

/** The target a password manager offers with a copied secret. */
export const SECRET_HINT = 'x-kde-passwordManagerHint';

/**
 * Reads the owner of CLIPBOARD: its window → the X server's client pid (X-Resource; never `_NET_WM_PID`,
 * which the client writes itself) → that process, which must be alive. A tool that connects and then forks
 * a server to hold the selection (xclip does) leaves the pid of its first, exited process: unproven, since
 * nothing tells which process holds the connection now. Its TARGETS list is asked for through a small
 * unmapped window of our own and answered with a bound.
 */
export async function clipboardOwner(x: X11, windows: XWindows, timeoutMs = 1000): Promise<ClipboardOwner | undefined> {
  const clipboard = await x.atom('CLIPBOARD');
  const owner = await x.request<number>('GetSelectionOwner', clipboard);
  if (!owner) return undefined;
  const out: ClipboardOwner = {};
  const pid = await windows.serverPidOf(owner);
  const info = pid !== undefined && alive(pid) ? procInfo(pid) : undefined;
  if (pid !== undefined && info) {
    out.pid = pid;
    // The start token as identity.ts writes it (the /proc start time, as a string).
    if (info.startTime !== undefined) out.startToken = String(info.startTime);
  } else out.unproven = true;
  const targets = await selectionTargets(x, clipboard, timeoutMs).catch(() => undefined);
  if (targets) out.secret = targets.includes(SECRET_HINT);
  return out;
}

/** True when the process runs (a zombie, exited but not yet reaped, holds no connection). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch { return false; }
}

/** The names of the targets the selection owner offers (ConvertSelection of TARGETS). */
async function selectionTargets(x: X11, selection: number, timeoutMs: number): Promise<string[] | undefined> {
  const client = x.client as unknown as {
    AllocID(): number; ReleaseID?(id: number): void;
    on(e: 'event', cb: (ev: { name?: string; requestor?: number; property?: number; wid?: number }) => void): void;
    removeListener(e: 'event', cb: (...a: unknown[]) => void): void;
  };
  const win = client.AllocID();
  x.send(x.client, 'CreateWindow', win, x.root, 0, 0, 1, 1, 0, 0, 0, 0, {});
  const [targetsAtom, prop] = await Promise.all([x.atom('TARGETS'), x.atom('CU_TARGETS')]);
  try {
    const notified = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => { client.removeListener('event', on as never); resolve(false); }, timeoutMs);
      function on(ev: { name?: string; requestor?: number; property?: number; wid?: number }): void {
        if (ev.name !== 'SelectionNotify' || (ev.requestor ?? ev.wid) !== win) return;
        clearTimeout(timer);
        client.removeListener('event', on as never);
        resolve(ev.property !== 0);
      }
      client.on('event', on);
    });
    x.send(x.client, 'ConvertSelection', win, selection, targetsAtom, prop, 0);
    if (!(await notified)) return undefined;
    const p = await x.request<{ format: number; data: Buffer }>('GetProperty', 1, win, prop, 0, 0, 1024);
    if (p.format !== 32) return undefined;
    const atoms: number[] = [];
    for (let i = 0; i + 4 <= p.data.length; i += 4) atoms.push(p.data.readUInt32LE(i));
    return await Promise.all(atoms.map((a) => x.request<string>('GetAtomName', a).catch(() => '')));
  } finally {
    x.send(x.client, 'DestroyWindow', win);
  }
}
