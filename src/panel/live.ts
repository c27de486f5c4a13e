/**
 * The live view: what each session last showed the model (its last snapshot) and what its last act changed
 * (the diff), as the text the tools returned. The host records tool results here; nothing is read anew.
 */

/** One session's last texts. */
export interface LiveSession {
  session: string;
  mode: string;
  snapshot?: { tool: string; time: string; text: string };
  diff?: { tool: string; time: string; text: string };
  /** What the agent does right now ("computer-use: acting in gedit"), as its status window says; absent when idle. */
  activity?: string;
}

const SNAPSHOT_TOOLS = new Set([
  'computer_observe',
  'computer_launch',
  'computer_find',
  'computer_screenshot',
  'computer_wait',
]);
const ACT_TOOLS = new Set(['computer_act', 'computer_keys', 'computer_input']);
const MAX_TEXT = 200_000;

/** Keeps the last snapshot and diff of each session of this process. */
export class LiveView {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly listeners = new Set<() => void>();

  /** Records a tool's result text. */
  record(session: string, mode: string, tool: string, text: string): void {
    const s = this.sessions.get(session) ?? { session, mode };
    s.mode = mode;
    const entry = {
      tool,
      time: new Date().toISOString(),
      text: text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + '\n…' : text,
    };
    if (SNAPSHOT_TOOLS.has(tool)) s.snapshot = entry;
    else if (ACT_TOOLS.has(tool)) s.diff = entry;
    else return;
    this.sessions.set(session, s);
    for (const fn of this.listeners) fn();
  }

  /** Records the session's current activity (undefined: idle). */
  setActivity(session: string, mode: string, activity: string | undefined): void {
    const s = this.sessions.get(session) ?? { session, mode };
    if (activity === undefined) delete s.activity; else s.activity = activity;
    this.sessions.set(session, s);
    for (const fn of this.listeners) fn();
  }

  list(): LiveSession[] { return [...this.sessions.values()]; }

  onChange(fn: () => void): () => void { this.listeners.add(fn); return () => this.listeners.delete(fn); }
}
