/**
 * What a file chooser's submit names, so a file name typed into it ("settings.json", "../home/settings.json",
 * "~/" then ".computer-use/…" in two calls) is checked as the full path the app will open or save: self-protection
 * by result, not by keystrokes. Which node is a chooser and which folder it shows are the driver's facts (the
 * protocol's `chooser` on a node; the Linux driver reads GTK's path bar); an unknown folder stays unknown.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { walk, type RawNode } from '../engine/node.js';
import type { Snapshot } from '../engine/snapshot.js';

/** Paths a relative file name typed into a file chooser names (none when it is absolute or the folder is unknown). */
export function chooserPaths(snap: Snapshot | undefined, value: string | undefined): string[] {
  if (!snap || value === undefined) return [];
  const v = value.trim();
  if (!v || v.startsWith('/') || v.startsWith('~') || v.startsWith('$') || v.includes('\n')) return [];
  const folder = snap.chooser?.folder;
  return folder ? [join(folder, v)] : [];
}

/** What a live window tree tells about a file chooser in it. */
export interface ChooserFacts {
  /** The window holds a file chooser (a node with the driver's `chooser` fact). */
  chooser: boolean;
  /** Its current folder, when the driver knows it. */
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
    if (n.chooser) {
      chooser = true;
      folder ??= n.chooser.folder;
    }
    if (n.role === 'textbox' && n.states.includes('editable') && !n.states.includes('multiline') && n.value)
      fields.push(n.value);
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
