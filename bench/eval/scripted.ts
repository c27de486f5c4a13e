/**
 * The scripted solver: a generic agent that knows only the tools' text. For each step of the goal spec it looks
 * for the element by role and name in the texts it has read (latest first), observes the window when the element
 * is not there and asks computer_find when it is not in the snapshot either (off-screen, folded), acts by the ref it
 * read, and keeps the result (receipt + diff) as its new view. On `stale_ref`
 * it re-reads the fresh snapshot the error carries and tries once more. It has no per-app code paths.
 */
import type { ToolResult } from '../../src/index.js';
import { describeTarget, matchTarget, parseLines, type ElementLine } from './lines.js';
import type { Recorder } from './recorder.js';
import { fill, type EvalTask, type PlanStep, type Target } from './task.js';

/** What a solver ends with. */
export interface SolverOutcome {
  /** The solver believes it reached the goal (the checker decides). */
  finished: boolean;
  /** Why it stopped early. */
  reason?: string;
  /** Values read (`read` steps, or the model's final answer as `answer`). */
  answers: Record<string, string>;
}

class StepFailed extends Error {}

/** True when a tool's text announced a new window whose title contains `title`. */
function alreadyOpen(text: string, title: string): boolean {
  return text.split('\n').some((l) => /^new window \[/.test(l) && l.includes(title));
}

export async function solveScripted(
  task: EvalTask,
  vars: Record<string, string>,
  rec: Recorder,
): Promise<SolverOutcome> {
  const texts: string[] = [];
  const answers: Record<string, string> = {};
  const see = (r: ToolResult): ToolResult => { texts.push(r.text); return r; };
  const app = task.appName;

  const pick = (target: Target): ElementLine | undefined => {
    for (let i = texts.length - 1; i >= 0; i--) {
      const hits = matchTarget(parseLines(texts[i] ?? ''), target);
      const hit = hits[target.nth ?? 0];
      if (hit) return hit;
    }
    return undefined;
  };
  // What `{{var}}` can name: the setup's vars, then values read so far.
  const known = (): Record<string, string> => ({ ...vars, ...answers });
  const fillTarget = (t: Target): Target => {
    const v = known();
    const f = <T>(x: T): T => (typeof x === 'string' ? fill(x, v) as T : x);
    return {
      ...t,
      ...(t.name !== undefined ? { name: f(t.name) } : {}),
      ...(t.value !== undefined ? { value: f(t.value) } : {}),
      ...(t.cell !== undefined ? { cell: f(t.cell) } : {}),
      ...(t.window !== undefined ? { window: f(t.window) } : {}),
    };
  };
  const resolve = async (target0: Target, scopeApp?: string): Promise<ElementLine> => {
    const target = fillTarget(target0);
    const seen = pick(target);
    if (seen) return seen;
    // Not in what it has read: look at the window afresh, then ask find (an off-screen row, a folded list).
    const scope = target.window ? { window: target.window } : { app: scopeApp ?? app };
    const observed = see(await rec.call('computer_observe', scope));
    const seenNow = pick(target);
    if (seenNow) return seenNow;
    const name = typeof target.name === 'string' ? target.name : undefined;
    const found = see(
      await rec.call('computer_find', {
        ...(name ? { text: name } : {}),
        ...(target.role ? { role: target.role } : {}),
        ...scope,
      }),
    );
    if (!found.isError) {
      const { window: _inWindow, ...anywhere } = target;
      const hit = matchTarget(parseLines(found.text), anywhere)[target.nth ?? 0];
      if (hit) return hit;
      // A match off screen comes with the act that brings it into view (a long list): do it, as a model would.
      const line = name
        ? found.text.split('\n').find((l) => l.includes(JSON.stringify(name)) && l.includes('bring it into view'))
        : undefined;
      const how = line ? /bring it into view: computer_act ref=(\S+) op=(\w+) value="([^"]*)"/.exec(line) : null;
      if (how?.[1] && how[2] && how[3] !== undefined) {
        see(await rec.call('computer_act', { actions: [{ ref: how[1], op: how[2], value: how[3] }] }));
        const shown = pick(target);
        if (shown) return shown;
      }
    }
    throw new StepFailed(
      `no ${describeTarget(target)} in the snapshot` + `${observed.isError ? `: ${observed.text.slice(0, 200)}` : ''}`,
    );
  };

  const act = async (s: Extract<PlanStep, { do: 'act' }>): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      const el = await resolve(s.target);
      const ref = s.target.cell !== undefined ? `${el.ref}:${fill(s.target.cell, known())}` : el.ref;
      const action = { ref, op: s.op, ...(s.value !== undefined ? { value: fill(s.value, known()) } : {}) };
      const r = see(await rec.call('computer_act', { actions: [action] }));
      if (!r.isError) return;
      // A stale ref comes with a fresh snapshot of the window: read it and resolve again, once.
      if (attempt === 0 && /stale_ref|not found/.test(r.text)) continue;
      throw new StepFailed(`${s.op} on ${describeTarget(s.target)} failed: ${r.text.slice(0, 300)}`);
    }
  };

  const mustSucceed = (r: ToolResult, what: string): void => {
    if (r.isError) throw new StepFailed(`${what} failed: ${r.text.slice(0, 300)}`);
  };

  try {
    for (const s of task.plan) {
      switch (s.do) {
        case 'launch':
          mustSucceed(
            see(
              await rec.call('computer_launch', {
                command: fill(s.command, known()),
                args: (s.args ?? []).map((a) => fill(a, known())),
              }),
            ),
            'launch',
          );
          break;
        case 'act':
          await act(s);
          break;
        case 'keys':
          mustSucceed(
            see(
              await rec.call('computer_keys', {
                keys: s.keys,
                ...(s.window ? { window: s.window } : { app: s.app ?? app }),
              }),
            ),
            `keys ${s.keys}`,
          );
          break;
        case 'wait':
          // The window already came with the last result (a new window and its snapshot): nothing to wait for.
          if (
            s.until === 'window_appears' &&
            s.text !== undefined &&
            alreadyOpen(texts.at(-1) ?? '', fill(s.text, known()))
          )
            break;
          mustSucceed(
            see(
              await rec.call('computer_wait', {
                until: s.until,
                ...(s.text !== undefined ? { text: fill(s.text, known()) } : {}),
                ...(s.role ? { role: s.role } : {}),
                ...(s.until === 'window_appears' ? {} : { app: s.app ?? app }),
                timeoutMs: s.timeoutMs ?? 10_000,
              }),
            ),
            `wait ${s.until}`,
          );
          break;
        case 'observe': {
          const scope = s.scope ? (await resolve(s.scope)).ref : undefined;
          mustSucceed(
            see(
              await rec.call('computer_observe', {
                ...(s.window ? { window: s.window } : { app: s.app ?? app }),
                ...(scope ? { scope } : {}),
                ...(s.query ? { query: fill(s.query, known()) } : {}),
              }),
            ),
            'observe',
          );
          break;
        }
        case 'find': {
          const found = see(await rec.call('computer_find', {
            ...(s.text !== undefined ? { text: fill(s.text, known()) } : {}), ...(s.role ? { role: s.role } : {}),
            ...(s.window ? { window: s.window } : { app: s.app ?? app }),
          }));
          mustSucceed(found, 'find');
          // An off-screen match comes with the act that brings it into view: do it, as a model reading it would.
          const hint = s.follow
            ? /bring it into view: computer_act ref=(\S+) op=(\w+) value="([^"]*)"/.exec(found.text)
            : null;
          if (hint?.[1] && hint[2] && hint[3] !== undefined) {
            mustSucceed(
              see(await rec.call('computer_act', { actions: [{ ref: hint[1], op: hint[2], value: hint[3] }] })),
              `${hint[2]} ${hint[3]}`,
            );
          }
          break;
        }
        case 'read': {
          let el = await resolve(s.target);
          // A value cut short in a diff is read whole from a fresh snapshot of the element.
          if (el.cut) {
            see(await rec.call('computer_observe', { scope: el.ref }));
            el = await resolve(s.target);
          }
          let m = s.pattern ? new RegExp(s.pattern).exec(el.raw) : null;
          // Not there yet (a command's output still coming): wait for the element's value to change, look again.
          for (let i = 0; s.pattern && !m && i < 2; i++) {
            const waited = see(
              await rec.call('computer_wait', { until: 'value_changes', ref: el.ref, timeoutMs: 5000 }),
            );
            if (waited.isError) break;
            see(await rec.call('computer_observe', s.target.window ? { window: s.target.window } : { app }));
            el = await resolve(s.target);
            m = new RegExp(s.pattern).exec(el.raw);
          }
          answers[s.into] = s.pattern ? (m?.[1] ?? m?.[0] ?? '') : el.value ?? el.name ?? '';
          break;
        }
      }
    }
    return { finished: true, answers };
  } catch (e) {
    if (e instanceof StepFailed || (e instanceof Error && /step budget/.test(e.message)))
      return { finished: false, reason: e.message, answers };
    throw e;
  }
}
