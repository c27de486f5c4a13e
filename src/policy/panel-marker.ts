/**
 * The panel's per-install marker: a random word kept in the tool's home, carried by the panel page in its title
 * and its URL path, and denied like a password manager wherever a window or tab shows it (README: the agent can neither
 * see nor drive the panel). It is random per install rather than a fixed name so
 * that no page or app can be written in advance to look like the panel.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cuHome } from '../paths.js';

const FORM = /^cupanel-[0-9a-z]{16}$/;
const cached = new Map<string, string>();

/** Where a home keeps its marker. */
export function panelMarkerPath(home: string = cuHome()): string {
  return join(home, 'plugin-data', 'computer-use', 'panel-marker');
}

/** The home's marker, created on first use (mode 0600); an unwritable home gets one for this process only. */
export function panelMarker(home: string = cuHome()): string {
  const known = cached.get(home);
  if (known) return known;
  const path = panelMarkerPath(home);
  let marker: string | undefined;
  try { const m = readFileSync(path, 'utf8').trim(); if (FORM.test(m)) marker = m; } catch { /* first use */ }
  if (!marker) {
    marker = `cupanel-${[...randomBytes(16)].map((b) => (b % 36).toString(36)).join('')}`;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(path, marker + '\n', { mode: 0o600 });
      chmodSync(path, 0o600);
    } catch { /* read-only home: the panel of this process still carries the marker this process denies */ }
  }
  cached.set(home, marker);
  return marker;
}

/** True when a title, URL or name carries the marker. */
export function showsPanel(text: string | undefined, marker: string): boolean {
  return text !== undefined && text.toLowerCase().includes(marker);
}
