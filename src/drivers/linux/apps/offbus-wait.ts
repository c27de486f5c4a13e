/**
 * When a launch stops waiting for a window's app to come onto the accessibility bus and answers with the window as
 * it is (no tree, read by OCR). An app whose toolkit never registers (Xaw's xmessage) is answered after a short grace;
 * one that may register after a longer one; and neither while its process is still working: a loaded machine had
 * LibreOffice's window on screen for seconds before it registered, and the launch called it "not readable".
 */
import { readFileSync } from 'node:fs';

/** How long an app's process must use no CPU before its window off the bus is taken as final. */
export const OFFBUS_IDLE_MS = 1000;

/** CPU time a process has used (user + system, in clock ticks) from /proc/<pid>/stat; undefined when gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count the fields after its last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** One launch's watch of the windows off the bus it has seen, per process. */
export class OffBusWait {
  private readonly since = new Map<number, number>();
  private readonly lastTicks = new Map<number, { ticks: number | undefined; changedAt: number }>();

  constructor(private readonly ticksOf: (pid: number) => number | undefined = cpuTicks) {}

  /**
   * Whether the window of `pid`, seen off the bus at `now`, is the launch's answer: seen for `graceMs` and its
   * process idle for OFFBUS_IDLE_MS (a launcher's splash is never the answer: `launcher`).
   */
  ready(pid: number, now: number, graceMs: number, launcher: boolean): boolean {
    const since = this.since.get(pid) ?? now;
    this.since.set(pid, since);
    const ticks = this.ticksOf(pid);
    const last = this.lastTicks.get(pid);
    const changedAt = last === undefined || last.ticks !== ticks ? now : last.changedAt;
    this.lastTicks.set(pid, { ticks, changedAt });
    return !launcher && now - since >= graceMs && now - changedAt >= OFFBUS_IDLE_MS;
  }
}
