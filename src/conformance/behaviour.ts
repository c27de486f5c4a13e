/**
 * The behaviour checks that need no harness: they read the windows the driver lists and send handles no element
 * has, so they act on nothing (a call that names no element cannot press anything) and run on any machine.
 * - `behaviour.snapshots`: a snapshot of each listed window (up to a few) answers, fits the schema (the results
 *   are checked as they arrive, under wire.schema) and shows no password text;
 * - `behaviour.handles`: an unknown window handle is `window_not_found`, an unknown node handle `stale_ref`.
 */
import type { RawNode } from '../protocol/methods.js';
import { describeAnswer, type Answer } from './connection.js';
import { cite } from './report.js';
import type { KitContext } from './wire.js';

/** How many listed windows are read. */
const MAX_WINDOWS = 5;
/** A window handle no driver makes. */
export const NO_WINDOW = 'conformance-no-such-window';
/** A node handle no driver makes. */
export const NO_NODE = 'conformance-no-such-element';
/** What a password node may show as its value: nothing, or mask characters. */
const MASK = /^[•*●·]*$/u;

/** The windows the driver lists (empty when it lists none or does not serve windows.list). */
export async function listedWindows(ctx: KitContext): Promise<{ id: string; title: string }[]> {
  if (!ctx.methods.has('windows.list')) return [];
  const a = await ctx.drv.call('windows.list', {}, 15_000);
  const listed = a.kind === 'result' ? (a.value as { windows?: unknown } | null)?.windows : undefined;
  // Only windows with a string handle and title: the schema check reports the others.
  return (Array.isArray(listed) ? listed : []).filter((w): w is { id: string; title: string } =>
    typeof (w as { id?: unknown } | null)?.id === 'string' && typeof (w as { title?: unknown }).title === 'string');
}

/** Reads up to MAX_WINDOWS listed windows: each snapshot answers, and no password node carries its text. */
export async function snapshotsRule(ctx: KitContext, windows: readonly { id: string; title: string }[]): Promise<void> {
  if (!ctx.methods.has('tree.snapshot')) {
    ctx.v.skip('behaviour.snapshots', 'the driver does not list tree.snapshot');
    return;
  }
  if (windows.length === 0) { ctx.v.skip('behaviour.snapshots', 'the driver lists no window to read'); return; }
  const problems: string[] = [];
  let nodes = 0;
  const read = windows.slice(0, MAX_WINDOWS);
  for (const w of read) {
    const a = await ctx.drv.call('tree.snapshot', { window: w.id, maxNodes: 5000 }, 30_000);
    if (a.kind !== 'result') {
      problems.push(
        cite(
          'R-read-snapshot',
          `tree.snapshot of listed window ${JSON.stringify(w.title)}: expected its tree, got ${describeAnswer(a)}`,
        ),
      );
      continue;
    }
    const root = (a.value as { root?: RawNode }).root;
    const visit = (n: RawNode): void => {
      nodes++;
      if (
        Array.isArray(n.states) &&
        n.states.includes('password') &&
        typeof n.value === 'string' &&
        !MASK.test(n.value)
      ) {
        problems.push(
          cite(
            'R-read-snapshot',
            `a password node in ${JSON.stringify(w.title)} carries its text in value (${n.value.length} ` +
              `characters)`,
          ),
        );
      }
      for (const k of Array.isArray(n.children) ? n.children : []) visit(k);
    };
    if (root && typeof root === 'object') visit(root);
  }
  ctx.v.check(
    'behaviour.snapshots',
    problems,
    `${read.length} listed windows read (${nodes} nodes; their schema is checked under wire.schema)`,
  );
}

/** What `a` should have been: an application error with `code`. */
function expectCode(
  problems: string[],
  rule: 'R-handle-window' | 'R-handle-node',
  what: string,
  a: Answer,
  code: string,
): void {
  if (a.kind === 'error' && a.dataCode === code) return;
  problems.push(cite(rule, `${what}: expected error ${code}, got ${describeAnswer(a)}`));
}

/** Unknown handles: `window_not_found` for a window, `stale_ref` for a node, whatever the method. */
export async function handlesRule(ctx: KitContext, windows: readonly { id: string }[]): Promise<void> {
  const problems: string[] = [];
  const calls: string[] = [];
  const has = (m: string): boolean => ctx.methods.has(m);
  const call = (m: string, p: object): Promise<Answer> => { calls.push(m); return ctx.drv.call(m, p, 15_000); };
  if (has('tree.snapshot'))
    expectCode(
      problems,
      'R-handle-window',
      `tree.snapshot of window "${NO_WINDOW}"`,
      await call('tree.snapshot', { window: NO_WINDOW }),
      'window_not_found',
    );
  if (has('tree.find'))
    expectCode(
      problems,
      'R-handle-window',
      `tree.find in window "${NO_WINDOW}"`,
      await call('tree.find', { window: NO_WINDOW, text: 'x' }),
      'window_not_found',
    );
  if (has('node.act'))
    expectCode(
      problems,
      'R-handle-node',
      `node.act click on handle "${NO_NODE}"`,
      await call('node.act', { id: NO_NODE, op: 'click' }),
      'stale_ref',
    );
  if (has('text.read'))
    expectCode(
      problems,
      'R-handle-node',
      `text.read of handle "${NO_NODE}"`,
      await call('text.read', { id: NO_NODE }),
      'stale_ref',
    );
  if (has('list.find'))
    expectCode(
      problems,
      'R-handle-node',
      `list.find in container "${NO_NODE}"`,
      await call('list.find', { container: NO_NODE, text: 'x' }),
      'stale_ref',
    );
  if (has('tree.snapshot') && windows[0]) {
    expectCode(
      problems,
      'R-handle-node',
      `tree.snapshot of a listed window with scope "${NO_NODE}"`,
      await call('tree.snapshot', { window: windows[0].id, scope: NO_NODE }),
      'stale_ref',
    );
  }
  if (calls.length === 0) {
    ctx.v.skip('behaviour.handles', 'the driver lists none of the methods that take a handle');
    return;
  }
  ctx.v.check('behaviour.handles', problems, `unknown handles refused: ${[...new Set(calls)].join(', ')}`);
}
