/**
 * The semantic layer: a driver reads and acts on a known harness as the scenarios say. Controls are found by
 * stable id (role and name for drivers that report none), their role and states compared, each op run and its
 * effect read back from a fresh snapshot; then the refusals: a disabled control, a replaced element's old
 * handle, a window that does not hold the focus. A method the driver does not list is a SKIP, not a FAIL.
 */
import type { RawNode } from '../protocol/methods.js';
import { clip, describeAnswer, type Answer } from './connection.js';
import type { RuleId } from '../protocol/rules.js';
import { cite } from './report.js';
import type { Control, Effect, Harness, Scenarios } from './scenarios.js';
import type { KitContext } from './wire.js';

/** How long an op's effect may take to show in the tree (events, app timers). */
const EFFECT_MS = 5_000;
/** The actionability wait given to acts that must succeed. */
const ACT_WAIT_MS = 3_000;
/** pid 1 (init) never owns a harness window: keys expected to go to it must be refused. */
const NOT_THE_FOCUS_OWNER = 1;

interface Found { node?: RawNode; how: string }

/** The rule an expected error code is about, when a case names none. */
const ERROR_RULES: Partial<Record<string, RuleId>> = {
  unsupported: 'R-act-op', invalid_params: 'R-act-value', stale_ref: 'R-act-expect', element_disabled: 'R-act-disabled',
};

/**
 * Finds a control: by stable id first; for drivers without stable ids, by the handle it had when first found
 * (its name may change: a status label), else by role and name under its `path` of ancestors when exactly one
 * node has them.
 */
export function findControl(root: RawNode, c: Control, handle?: string): Found {
  const all: { node: RawNode; ancestors: RawNode[] }[] = [];
  const visit = (n: RawNode, ancestors: RawNode[]): void => {
    all.push({ node: n, ancestors });
    for (const k of n.children ?? []) visit(k, [...ancestors, n]);
  };
  visit(root, []);
  const byId = all.filter((x) => x.node.stableId === c.id);
  if (byId.length === 1) return { node: byId[0]!.node, how: 'stableId' };
  if (byId.length > 1) return { how: `${byId.length} nodes have stableId "${c.id}"` };
  const byHandle = handle === undefined ? undefined : all.find((x) => x.node.id === handle);
  if (byHandle) return { node: byHandle.node, how: 'handle' };
  if (c.name === undefined) return { how: `no node has stableId "${c.id}"` };
  const byName = all.filter(
    (x) => x.node.role === c.role && (x.node.name ?? '') === c.name && underPath(x.ancestors, c.path ?? []),
  );
  const where = c.path?.length ? ` under ${c.path.map((s) => `${s.role ?? '*'} ${quoted(s.name)}`).join(' › ')}` : '';
  if (byName.length === 1) return { node: byName[0]!.node, how: `role and name${where}` };
  return {
    how: `no node has stableId "${c.id}", and ${byName.length} have role ${c.role} and name ${quoted(c.name)}${where}`,
  };
}

/** A name from a scenarios file as one printable line of the report (it may hold a newline, U+2028, an escape). */
function quoted(name: string): string {
  return clip(JSON.stringify(name), 240);
}

/** True when the ancestors hold each step in order (each a descendant of the one before). */
function underPath(ancestors: readonly RawNode[], path: readonly { role?: string; name: string }[]): boolean {
  let i = 0;
  for (const a of ancestors)
    if (
      i < path.length &&
      (a.name ?? '') === path[i]!.name &&
      (path[i]!.role === undefined || a.role === path[i]!.role)
    )
      i++;
  return i === path.length;
}

/** What is wrong with a node against expected states. */
function stateProblems(n: RawNode, states: readonly string[] = [], notStates: readonly string[] = []): string[] {
  const has = new Set<string>(n.states);
  return [
    ...states.filter((s) => !has.has(s)).map((s) => `expected state ${s}`),
    ...notStates.filter((s) => has.has(s)).map((s) => `expected no state ${s}`),
  ];
}

function effectProblems(n: RawNode, e: Effect): string[] {
  const out = stateProblems(n, e.states, e.notStates);
  if (e.value !== undefined && (n.value ?? '') !== e.value)
    out.push(`expected value ${JSON.stringify(e.value)}, got ${JSON.stringify(n.value ?? '')}`);
  if (e.name !== undefined && (n.name ?? '') !== e.name)
    out.push(`expected name ${JSON.stringify(e.name)}, got ${JSON.stringify(n.name ?? '')}`);
  return out;
}

class HarnessRun {
  /** Each control's handle when first found, for drivers that report no stable id. */
  private readonly handles = new Map<string, string>();
  constructor(private readonly ctx: KitContext, private readonly h: Harness, private readonly window: string) {}

  private rule(suffix: string): string { return `semantic.${this.h.name}.${suffix}`; }

  async snapshot(): Promise<RawNode | string> {
    const a = await this.ctx.drv.call('tree.snapshot', { window: this.window }, 30_000);
    if (a.kind !== 'result') return `tree.snapshot: ${describeAnswer(a)}`;
    return (a.value as { root: RawNode }).root;
  }

  control(id: string): Control { return this.h.controls.find((c) => c.id === id)!; }

  async find(id: string): Promise<Found> {
    const root = await this.snapshot();
    if (typeof root === 'string') return { how: root };
    const f = findControl(root, this.control(id), this.handles.get(id));
    if (f.node) this.handles.set(id, f.node.id);
    return f;
  }

  /** Re-reads until the control shows the effect or the time is up; the problems of the last read. */
  async effect(id: string, e: Effect): Promise<string[]> {
    const deadline = Date.now() + EFFECT_MS;
    let problems: string[] = [];
    for (;;) {
      if (this.ctx.methods.has('ui.settle'))
        await this.ctx.drv.call('ui.settle', { quietMs: 100, timeoutMs: 2000, window: this.window }, 10_000);
      const f = await this.find(id);
      problems = f.node ? effectProblems(f.node, e) : [f.how];
      if (problems.length === 0 || Date.now() > deadline) return problems;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  act(
    node: RawNode,
    op: string,
    value?: string,
    checks: string[] = ['visible', 'enabled'],
    timeoutMs = ACT_WAIT_MS,
    expect?: object,
  ): Promise<Answer> {
    return this.ctx.drv.call(
      'node.act',
      {
        id: node.id,
        op,
        ...(value !== undefined ? { value } : {}),
        ...(expect ? { expect } : {}),
        actionable: { timeoutMs, checks },
      },
      30_000,
    );
  }

  async controls(root: RawNode): Promise<void> {
    for (const c of this.h.controls) {
      const f = findControl(root, c);
      if (f.node) this.handles.set(c.id, f.node.id);
      if (!f.node) {
        this.ctx.v.fail(
          this.rule(c.id),
          cite('R-read-snapshot', `expected a ${c.role} ${quoted(c.name ?? c.id)}: ${f.how}`),
        );
        continue;
      }
      const problems = stateProblems(f.node, c.states, c.notStates);
      if (f.node.role !== c.role) problems.unshift(`expected role ${c.role}, got ${f.node.role}`);
      this.ctx.v.check(
        this.rule(c.id),
        problems.map((p) => cite('R-read-snapshot', p)),
        `found by ${f.how}: ${c.role}${c.states?.length ? ` [${c.states.join(', ')}]` : ''}`,
      );
    }
  }

  async ops(): Promise<void> {
    for (const c of this.h.controls) {
      for (const [i, o] of (c.ops ?? []).entries()) {
        const rule = this.rule(
          `${c.id}.${o.op}${(c.ops ?? []).filter((x) => x.op === o.op).length > 1 ? `#${i + 1}` : ''}`,
        );
        if (!this.ctx.methods.has('node.act')) { this.ctx.v.skip(rule, 'the driver does not list node.act'); continue; }
        const f = await this.find(c.id);
        const cites = o.rule ?? (o.error ? ERROR_RULES[o.error] ?? 'R-act-effect' : 'R-act-effect');
        if (!f.node) { this.ctx.v.fail(rule, cite(cites, `expected the control to act on: ${f.how}`)); continue; }
        const checks =
          o.op === 'set_value' || o.op === 'type' ? ['visible', 'enabled', 'editable'] : ['visible', 'enabled'];
        const what =
          `${o.op}${o.value !== undefined ? ` ${JSON.stringify(o.value)}` : ''}` +
          `${o.expect ? ` expecting ${JSON.stringify(o.expect)}` : ''}`;
        const a = await this.act(f.node, o.op, o.value, checks, ACT_WAIT_MS, o.expect);
        if (o.error) {
          // A refusal sends nothing: the control reads as it did.
          const problems =
            a.kind === 'error' && a.dataCode === o.error
              ? []
              : [`expected ${what} to fail with ${o.error}, got ${describeAnswer(a)}`];
          const before = f.node;
          const checked = before.states.includes('checked');
          problems.push(
            ...(
              await this.effect(c.id, {
                name: before.name ?? '',
                value: before.value ?? '',
                ...(checked ? { states: ['checked'] } : { notStates: ['checked'] }),
              })
            ).map((p) => `${c.id} changed, so the op was carried out: ${p}`),
          );
          this.ctx.v.check(
            rule,
            problems.map((p) => cite(cites, p)),
            `${what} refused with ${o.error}; ${c.id} unchanged`,
          );
          continue;
        }
        if (a.kind !== 'result') {
          this.ctx.v.fail(rule, cite(cites, `expected ${what} to be carried out, got ${describeAnswer(a)}`));
          continue;
        }
        const effect = o.effect ?? {};
        const target = effect.control ?? c.id;
        this.ctx.v.check(
          rule,
          (await this.effect(target, effect)).map((p) => cite(cites, `after ${what}, ${target}: ${p}`)),
          `${what} → ${target} ${JSON.stringify(effect)}`,
        );
      }
    }
  }

  /** A disabled control: element_disabled, and the control it would have changed keeps its name and value. */
  async disabled(): Promise<void> {
    const d = this.h.disabled;
    if (!d) return;
    const rule = this.rule('disabled');
    if (!this.ctx.methods.has('node.act')) { this.ctx.v.skip(rule, 'the driver does not list node.act'); return; }
    const [f, before] = [await this.find(d.control), await this.find(d.unchanged)];
    if (!f.node || !before.node) { this.ctx.v.fail(rule, `expected the controls: ${f.how}; ${before.how}`); return; }
    const a = await this.act(f.node, d.op, undefined, ['enabled'], 300);
    const problems: string[] = [];
    if (!(a.kind === 'error' && a.dataCode === 'element_disabled'))
      problems.push(
        `expected ${d.op} on disabled ${d.control} to fail with element_disabled, got ${describeAnswer(a)}`,
      );
    problems.push(
      ...(await this.effect(d.unchanged, { name: before.node.name ?? '', value: before.node.value ?? '' })).map(
        (p) => `${d.unchanged} changed, so input was sent: ${p}`,
      ),
    );
    this.ctx.v.check(
      rule,
      problems.map((p) => cite('R-act-disabled', p)),
      `${d.op} on ${d.control} refused with element_disabled; ${d.unchanged} unchanged`,
    );
  }

  /** The old handle of a replaced element: stale_ref, never an act on whatever took its place. */
  async stale(): Promise<void> {
    const s = this.h.stale;
    if (!s) return;
    const rule = this.rule('stale-ref');
    if (!this.ctx.methods.has('node.act')) { this.ctx.v.skip(rule, 'the driver does not list node.act'); return; }
    const [old, trigger] = [await this.find(s.control), await this.find(s.trigger.control)];
    if (!old.node || !trigger.node) {
      this.ctx.v.fail(rule, `expected the controls: ${old.how}; ${trigger.how}`);
      return;
    }
    const t = await this.act(trigger.node, s.trigger.op);
    if (t.kind !== 'result') {
      this.ctx.v.fail(
        rule,
        `expected ${s.trigger.op} on ${s.trigger.control} to replace ${s.control}, got ${describeAnswer(t)}`,
      );
      return;
    }
    const oldId = old.node.id;
    const deadline = Date.now() + EFFECT_MS;
    let now = await this.find(s.control);
    while (now.node?.id === oldId && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      now = await this.find(s.control);
    }
    if (now.node?.id === oldId) {
      this.ctx.v.fail(
        rule,
        `expected ${s.control} to be replaced (a new handle) after ${s.trigger.op} on ` +
          `${s.trigger.control}; it kept handle ${oldId}`,
      );
      return;
    }
    const a = await this.act(old.node, 'click', undefined, ['enabled'], 300);
    this.ctx.v.check(
      rule,
      a.kind === 'error' && a.dataCode === 'stale_ref'
        ? []
        : [
            cite(
              'R-handle-stale',
              `expected click through the replaced element's old handle to fail with stale_ref, got ` +
                `${describeAnswer(a)}`,
            ),
          ],
      `click through ${s.control}'s old handle refused with stale_ref`,
    );
  }

  /**
   * A window that closed: an element of it is no live element (stale_ref), the window no open window
   * (window_not_found), whatever handle syntax the driver uses.
   */
  async closed(): Promise<void> {
    const c = this.h.closed;
    if (!c) return;
    const rule = this.rule('closed-window');
    if (!this.ctx.methods.has('node.act')) { this.ctx.v.skip(rule, 'the driver does not list node.act'); return; }
    const opener = await this.find(c.open.control);
    if (!opener.node) { this.ctx.v.fail(rule, `expected the control ${c.open.control}: ${opener.how}`); return; }
    const opened = await this.act(opener.node, c.open.op);
    if (opened.kind !== 'result') {
      this.ctx.v.fail(
        rule,
        cite(
          'R-act-effect',
          `expected ${c.open.op} on ${c.open.control} to open a window, got ${describeAnswer(opened)}`,
        ),
      );
      return;
    }
    const listed = async (): Promise<{ id: string; title: string } | undefined> => {
      const a = await this.ctx.drv.call('windows.list', {}, 15_000);
      const ws =
        a.kind === 'result' ? ((a.value as { windows?: { id?: unknown; title?: unknown }[] }).windows ?? []) : [];
      return ws.find(
        (w): w is { id: string; title: string } =>
          typeof w?.id === 'string' && typeof w.title === 'string' && w.title.includes(c.title),
      );
    };
    const until = async <T>(probe: () => Promise<T | undefined>, want: boolean): Promise<T | undefined> => {
      const deadline = Date.now() + EFFECT_MS;
      for (;;) {
        const v = await probe();
        if ((v !== undefined) === want || Date.now() > deadline) return v;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const w = await until(listed, true);
    if (!w) {
      this.ctx.v.fail(
        rule,
        `expected a window titled "${c.title}" after ${c.open.op} on ${c.open.control}; none was listed ` +
          `within ${EFFECT_MS} ms`,
      );
      return;
    }
    const snap = await this.ctx.drv.call('tree.snapshot', { window: w.id }, 30_000);
    const root = snap.kind === 'result' ? (snap.value as { root: RawNode }).root : undefined;
    const found = root
      ? findControl(root, { id: 'conformance-closing-control', role: c.control.role, name: c.control.name })
      : { how: describeAnswer(snap) };
    if (!found.node) {
      this.ctx.v.fail(
        rule,
        cite('R-read-snapshot', `expected a ${c.control.role} "${c.control.name}" in "${w.title}": ${found.how}`),
      );
      return;
    }
    const closing = await this.act(found.node, 'click');
    if (closing.kind !== 'result') {
      this.ctx.v.fail(
        rule,
        cite(
          'R-act-effect',
          `expected click on ${c.control.role} "${c.control.name}" to close its window, got ${describeAnswer(closing)}`,
        ),
      );
      return;
    }
    if (await until(listed, false)) {
      this.ctx.v.fail(
        rule,
        `expected "${w.title}" to close after the click on ${c.control.role} "${c.control.name}"; it is still listed`,
      );
      return;
    }
    const problems: string[] = [];
    const again = await this.act(found.node, 'click', undefined, ['enabled'], 300);
    if (!(again.kind === 'error' && again.dataCode === 'stale_ref')) {
      problems.push(
        cite(
          'R-handle-node',
          `click through the handle of an element of the closed window: expected error stale_ref, got ` +
            `${describeAnswer(again)}`,
        ),
      );
    }
    const read = await this.ctx.drv.call('tree.snapshot', { window: w.id }, 15_000);
    if (!(read.kind === 'error' && read.dataCode === 'window_not_found')) {
      problems.push(
        cite(
          'R-handle-window',
          `tree.snapshot of the closed window: expected error window_not_found, got ${describeAnswer(read)}`,
        ),
      );
    }
    this.ctx.v.check(
      rule,
      problems,
      `acting in the closed window "${w.title}" refused: stale_ref for its element, window_not_found for the window`,
    );
  }

  /** Keys that must go to a window another process owns the focus of: window_not_focused, nothing typed. */
  async unfocused(): Promise<void> {
    const u = this.h.unfocused;
    if (!u) return;
    const rule = this.rule('unfocused');
    if (!this.ctx.methods.has('input.keys')) { this.ctx.v.skip(rule, 'the driver does not list input.keys'); return; }
    const caps = this.ctx.hello?.['capabilities'];
    if (Array.isArray(caps) && caps.includes('background_input')) {
      this.ctx.v.skip(
        rule,
        'the driver sends input to the window itself (capability background_input), not to the focus',
      );
      return;
    }
    const before = await this.find(u.control);
    if (!before.node) { this.ctx.v.fail(rule, `expected the control: ${before.how}`); return; }
    const a = await this.ctx.drv.call(
      'input.keys',
      { window: this.window, text: u.text, expect: { pid: NOT_THE_FOCUS_OWNER } },
      30_000,
    );
    const problems: string[] = [];
    if (!(a.kind === 'error' && a.dataCode === 'window_not_focused'))
      problems.push(
        `expected keys expecting pid ${NOT_THE_FOCUS_OWNER} at the focus to fail with window_not_focused, ` +
          `got ${describeAnswer(a)}`,
      );
    problems.push(
      ...(await this.effect(u.control, { value: before.node.value ?? '' })).map(
        (p) => `${u.control} changed, so keys were sent: ${p}`,
      ),
    );
    this.ctx.v.check(
      rule,
      problems.map((p) => cite('R-keys-focus', p)),
      `keys refused with window_not_focused; ${u.control} unchanged`,
    );
  }
}

/** Runs every harness whose window the driver shows; the others are SKIPs that say how to start them. */
export async function semanticLayer(ctx: KitContext, scenarios: Scenarios): Promise<void> {
  if (!ctx.methods.has('windows.list') || !ctx.methods.has('tree.snapshot')) {
    ctx.v.skip('semantic', 'the driver does not list windows.list and tree.snapshot');
    return;
  }
  const listed = await ctx.drv.call('windows.list', {}, 15_000);
  const windows =
    listed.kind === 'result' ? (listed.value as { windows: { id: string; title: string }[] }).windows : [];
  if (listed.kind !== 'result')
    ctx.v.fail('semantic.windows', `expected windows.list to answer, got ${describeAnswer(listed)}`);
  for (const h of scenarios.harnesses) {
    // What a driver lists is not trusted to fit its schema (wire.schema reports that): a window without a title is
    // skipped.
    const w = windows.find(
      (x) => typeof x?.title === 'string' && typeof x.id === 'string' && x.title.includes(h.window.title),
    );
    if (!w) {
      ctx.v.skip(
        `semantic.${h.name}`,
        `no window titled "${h.window.title}"${h.start ? ` (start it: ${h.start})` : ''}`,
      );
      continue;
    }
    const run = new HarnessRun(ctx, h, w.id);
    const root = await run.snapshot();
    if (typeof root === 'string') {
      ctx.v.fail(`semantic.${h.name}`, `expected the harness tree, got ${root}`);
      continue;
    }
    await run.controls(root);
    await run.ops();
    await run.disabled();
    await run.stale();
    await run.closed();
    await run.unfocused();
  }
}
