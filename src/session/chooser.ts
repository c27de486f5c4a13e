/**
 * The current folder of a file chooser, read from the last snapshot of its window, so a relative file name
 * typed into it ("settings.json") can be checked as the full path it will save to (issue 8 item 6). Only the
 * GTK3 path bar is read: buttons from the current folder up to the root ("File System Root") or the home
 * folder; when the bar is cut (its slider buttons are enabled) the folder is unknown.
 */
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { Snapshot } from '../engine/snapshot.js';

const SLIDERS = new Set(['Up Path', 'Down Path']);

/** The chooser's current folder, or undefined when the window shows no complete GTK path bar. */
export function chooserFolder(snap: Snapshot): string | undefined {
  const bar = snap.elements.find((l) => l.name === 'PathBar Layer');
  if (!bar) return undefined;
  const kids = snap.elements.filter((l) => l.parent === bar.ref && l.role === 'button');
  if (kids.some((k) => SLIDERS.has(k.name ?? '') && !k.states.includes('disabled'))) return undefined;
  // GTK lists the folder buttons deepest first; the checked one is the current folder.
  const folders = kids.filter((k) => !SLIDERS.has(k.name ?? '') && k.name !== 'Create Folder').reverse();
  const current = folders.findIndex((k) => k.states.includes('checked') || k.states.includes('pressed'));
  if (current < 0) return undefined;
  const [root, ...rest] = folders.slice(0, current + 1).map((k) => k.name ?? '');
  const base = root === 'File System Root' ? '/' : root === basename(homedir()) || root === 'Home' ? homedir() : undefined;
  return base === undefined || rest.some((n) => !n || n.includes('/')) ? undefined : join(base, ...rest);
}

/** Paths a relative file name typed into a file chooser names (none when it is absolute or the folder is unknown). */
export function chooserPaths(snap: Snapshot | undefined, value: string | undefined): string[] {
  if (!snap || value === undefined) return [];
  const v = value.trim();
  if (!v || v.startsWith('/') || v.startsWith('~') || v.startsWith('$') || v.includes('\n')) return [];
  const folder = chooserFolder(snap);
  return folder ? [join(folder, v)] : [];
}
