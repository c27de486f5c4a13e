/**
 * A file chooser's current folder and what a submit in it names, so a file name typed into it
 * ("settings.json", "../home/settings.json", "~/" then ".computer-use/…" in two calls) is checked as the full
 * path the app will open or save: self-protection by result, not by keystrokes. Only the GTK3 path bar is
 * read: buttons from the current folder up to the root ("File System Root") or the home folder; when the bar
 * is cut (its slider buttons are enabled) the folder is unknown.
 */
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { walk, type RawNode } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';

const SLIDERS = new Set(['Up Path', 'Down Path']);
const BAR = 'PathBar Layer';

/** A path bar button as the snapshot or the live tree gives it. */
interface BarButton { name?: string | undefined; states: readonly string[] }

/** The folder a GTK path bar's buttons show, or undefined when the bar is cut or unreadable. */
function folderOfBar(kids: readonly BarButton[]): string | undefined {
  if (kids.some((k) => SLIDERS.has(k.name ?? '') && !k.states.includes('disabled'))) return undefined;
  // GTK lists the folder buttons deepest first; the checked one is the current folder.
  const folders = kids.filter((k) => !SLIDERS.has(k.name ?? '') && k.name !== 'Create Folder').reverse();
  const current = folders.findIndex((k) => k.states.includes('checked') || k.states.includes('pressed'));
  if (current < 0) return undefined;
  const [root, ...rest] = folders.slice(0, current + 1).map((k) => k.name ?? '');
  const base = root === 'File System Root' ? '/' : root === basename(homedir()) || root === 'Home' ? homedir() : undefined;
  return base === undefined || rest.some((n) => !n || n.includes('/')) ? undefined : join(base, ...rest);
}

/** The chooser's current folder, or undefined when the window shows no complete GTK path bar. */
export function chooserFolder(snap: Snapshot): string | undefined {
  const bar = snap.elements.find((l) => l.name === BAR);
  if (!bar) return undefined;
  return folderOfBar(snap.elements.filter((l) => l.parent === bar.ref && l.role === 'button'));
}

/** Paths a relative file name typed into a file chooser names (none when it is absolute or the folder is unknown). */
export function chooserPaths(snap: Snapshot | undefined, value: string | undefined): string[] {
  if (!snap || value === undefined) return [];
  const v = value.trim();
  if (!v || v.startsWith('/') || v.startsWith('~') || v.startsWith('$') || v.includes('\n')) return [];
  const folder = chooserFolder(snap);
  return folder ? [join(folder, v)] : [];
}

/** What a live window tree tells about a file chooser in it. */
export interface ChooserFacts {
  /** The window holds a file chooser (its role, or a GTK path bar). */
  chooser: boolean;
  /** Its current folder, when the path bar shows it whole. */
  folder?: string;
  /** The text of every single-line editable field (the name field, the location entry). */
  fields: string[];
}

/** Reads a live (raw) window tree for its file chooser: whether there is one, its folder, its fields' text. */
export function chooserFacts(root: RawNode): ChooserFacts {
  let chooser = false;
  let folder: string | undefined;
  const fields: string[] = [];
  walk(root, (n) => {
    if (n.nativeRole === 'file chooser') chooser = true;
    if (n.name === BAR) {
      chooser = true;
      // GTK 3 puts the folder buttons in a nameless panel inside the bar (measured in geany's Save File).
      const buttons: RawNode[] = [];
      walk(n, (k) => { if (k.role === 'button') buttons.push(k); });
      folder ??= folderOfBar(buttons);
    }
    if (n.role === 'textbox' && n.states.includes('editable') && !n.states.includes('multiline') && n.value) fields.push(n.value);
  });
  return { chooser, ...(folder !== undefined ? { folder } : {}), fields };
}

/**
 * The paths a submit (Return in a field, a click on the chooser's Save or Open) names: the field's text read
 * as the app reads it (absolute, `~`, `file://`, or relative to the chooser's folder), and the chooser's folder
 * itself (a file picked from its list lies in it). A relative name in a chooser whose folder is unknown is
 * checked against the home and each protected folder, since it may be any of them.
 */
export function submitPaths(facts: ChooserFacts, texts: readonly string[], guesses: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const raw of texts) {
    const t = raw.trim();
    if (!t || t.includes('\n')) continue;
    if (/^(?:\/|~|\$|file:)/.test(t)) { out.push(t); continue; }
    if (!facts.chooser) continue;
    for (const base of facts.folder !== undefined ? [facts.folder] : [homedir(), ...guesses]) out.push(join(base, t));
  }
  if (facts.folder !== undefined) out.push(facts.folder);
  // The focused field is also one of the chooser's fields: each path once.
  return [...new Set(out)];
}
