/** Plain-text formatting shared by the tools. */
import type { AppInfo, WindowInfo } from '../engine/node.js';
import type { WindowTable } from '../session/windows.js';
import type { ActOutcome } from '../session/act.js';

/** "w1 window "Title" focused 910x756". */
export function windowLine(w: WindowInfo, table: WindowTable): string {
  const size = w.bounds ? ` ${w.bounds[2]}x${w.bounds[3]}` : '';
  return `[${table.refOf(w)}] ${w.role} ${JSON.stringify(w.title)}${w.focused ? ' focused' : ''}${size}`;
}

/** The computer_apps listing. */
export function formatApps(apps: AppInfo[], table: WindowTable): string {
  if (apps.length === 0) return 'No accessible apps are running. Start one with computer_launch.';
  const lines: string[] = [];
  for (const a of apps) {
    lines.push(`${a.name || '(unnamed)'} pid=${a.pid}${a.windows.length ? '' : ' (no windows)'}`);
    for (const w of a.windows) lines.push(`  ${windowLine(w, table)}`);
  }
  return lines.join('\n');
}

/** The computer_act result: one line per action, the diff, new windows with their snapshots. */
export function formatActOutcome(o: ActOutcome, table: WindowTable): string {
  const lines: string[] = [];
  for (const r of o.receipts) {
    const head = r.status === 'failed' || r.status === 'rejected' ? r.status : 'ok';
    const code = r.error ? ` ${r.error.code}:` : '';
    lines.push(`${head} ${r.op} ${r.ref} · ${r.status === 'failed' || r.status === 'rejected' ? `${code} ${r.error?.message ?? r.detail}`.trim() : `${r.status} (${r.detail})`}`);
  }
  lines.push(...o.diff);
  if (o.receipts.some((r) => r.status === 'confirmed' || r.status === 'unknown') && o.diff.length === 0 && !o.newWindows.length) lines.push('(no visible change in the window)');
  for (const w of o.popups ?? []) lines.push(`popup window [${table.refOf(w)}] opened (its items are the + lines above)`);
  for (const w of o.closedWindows) lines.push(`window closed: [${table.refOf(w)}] ${JSON.stringify(w.title)}`);
  for (const n of o.newWindows) {
    lines.push(`new window [${table.refOf(n.window)}] ${n.window.role} ${JSON.stringify(n.window.title)}:`);
    lines.push(n.snapshot.text);
  }
  if (o.freshSnapshot) { lines.push('fresh snapshot:'); lines.push(o.freshSnapshot.text); }
  if (o.settle && !o.settle.settled) lines.push(`(still changing after ${o.settle.ms} ms; observe again if needed)`);
  return lines.join('\n');
}
