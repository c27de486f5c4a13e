/**
 * The deliberately broken drivers: the fake driver on the recorded GTK harness, each with one defect that breaks
 * one protocol rule. Each names the check of the default kit that must fail and the rule id its message must cite
 * (test/unit/conformance-broken.test.ts proves it, with no scenarios file). A defect changes the handlers, what
 * the driver writes on stdout (`output`), or how it reads stdin (`maxLineBytes`).
 */
import type { RawNode } from '../../../src/engine/node.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../../src/protocol/framing.js';
import type { Handlers } from '../../../src/protocol/peer.js';
import type { RuleId } from '../../../src/protocol/rules.js';

/** One broken driver. */
export interface Defect {
  /** What is wrong, in words. */
  what: string;
  /** The check of the kit that must fail. */
  check: string;
  /** The rule its message must cite. */
  rule: RuleId;
  /** The handlers with the defect (default: the fake's own). */
  handlers?: (h: Handlers) => Handlers;
  /** Rewrites each line the driver writes (default: as is). */
  output?: (line: string) => string;
  /** The driver's line cap (default: the protocol's). */
  maxLineBytes?: number;
  /** The process dies on an input chunk that matches. */
  dieOn?: RegExp;
}

const withStates = (n: RawNode, from: string, to: string): RawNode => ({
  ...n,
  states: n.states.map((s) => (s === from ? to : s)) as RawNode['states'],
  ...(n.children ? { children: n.children.map((k) => withStates(k, from, to)) } : {}),
});

/** Every defect, by name. */
export const DEFECTS: Record<string, Defect> = {
  version: {
    what: 'hello says protocolVersion 2.0.0',
    check: 'wire.hello',
    rule: 'R-hello',
    handlers: (h) => ({ ...h, hello: async (p, ctx) => ({ ...(await h.hello!(p, ctx)), protocolVersion: '2.0.0' }) }),
  },
  schema: {
    what: 'windows.list answers windows without their required fields',
    check: 'wire.schema',
    rule: 'R-result-schema',
    handlers: (h) => ({ ...h, 'windows.list': () => ({ windows: [{ id: 'w1' }] }) as never }),
  },
  ticked: {
    what: 'a focusable node says "ticked", a state outside the vocabulary',
    check: 'wire.schema',
    rule: 'R-result-schema',
    handlers: (h) => ({
      ...h,
      'tree.snapshot': async (p, ctx) => {
        const r = await h['tree.snapshot']!(p, ctx);
        return { ...r, root: withStates(r.root, 'focusable', 'ticked') };
      },
    }),
  },
  'cut-frame': {
    what: 'tree.snapshot answers are cut in two lines',
    check: 'wire.framing',
    rule: 'R-frame-line',
    output: (line) =>
      line.includes('"root"') ? `${line.slice(0, line.length >> 1)}\n${line.slice(line.length >> 1)}` : line,
  },
  pretty: {
    what: 'answers are pretty-printed over several lines',
    check: 'wire.framing',
    rule: 'R-frame-line',
    output: (line) => `${JSON.stringify(JSON.parse(line), null, 2)}\n`,
  },
  'no-jsonrpc': {
    what: 'no message carries "jsonrpc": "2.0"',
    check: 'wire.framing',
    rule: 'R-jsonrpc',
    output: (line) => line.replace('"jsonrpc":"2.0",', ''),
  },
  'wrong-id': {
    what: 'a numeric id is answered as a string',
    check: 'wire.framing',
    rule: 'R-id',
    output: (line) => line.replace(/"id":(\d+),/, '"id":"$1",'),
  },
  'window-not-found': {
    what: 'an unknown node handle is answered window_not_found',
    check: 'behaviour.handles',
    rule: 'R-handle-node',
    handlers: (h) => ({
      ...h,
      'node.act': async (p, ctx) => {
        if (p.id.startsWith('conformance-')) {
          const { ComputerUseError } = await import('../../../src/protocol/errors.js');
          throw new ComputerUseError('window_not_found', 'no such window');
        }
        return h['node.act']!(p, ctx);
      },
    }),
  },
  'toggle-lies': {
    what: 'toggle answers activated: true and flips nothing',
    check: 'semantic.gtk.agree.toggle#1',
    rule: 'R-act-effect',
    handlers: (h) => ({
      ...h,
      'node.act': async (p, ctx) =>
        p.op === 'toggle' ? { method: 'pattern', activated: true } : h['node.act']!(p, ctx),
    }),
  },
  'ignores-expect': {
    what: 'node.act ignores expect.role and acts',
    check: 'semantic.gtk.hello.click#2',
    rule: 'R-act-expect',
    handlers: (h) => ({
      ...h,
      'node.act': async (p, ctx) => {
        const { expect: _e, ...rest } = p;
        return h['node.act']!(rest, ctx);
      },
    }),
  },
  clamps: {
    what: "set_value beyond a slider's range is answered as done (a toolkit that clamps)",
    check: 'semantic.gtk.level.set_value#1',
    rule: 'R-act-value',
    handlers: (h) => ({
      ...h,
      'node.act': async (p, ctx) => {
        try {
          return await h['node.act']!(p, ctx);
        } catch (e) {
          if (p.op === 'set_value' && (e as { code?: string }).code === 'invalid_params')
            return { method: 'pattern', detail: 'clamped' };
          throw e;
        }
      },
    }),
  },
  'closed-window': {
    what: 'an element of a window that closed is answered window_not_found',
    check: 'semantic.gtk.closed-window',
    rule: 'R-handle-node',
    handlers: (h) => ({
      ...h,
      'node.act': async (p, ctx) => {
        try {
          return await h['node.act']!(p, ctx);
        } catch (e) {
          if ((e as { code?: string }).code !== 'stale_ref' || !p.id.includes('-closing-')) throw e;
          const { ComputerUseError } = await import('../../../src/protocol/errors.js');
          throw new ComputerUseError('window_not_found', 'that window closed');
        }
      },
    }),
  },
  'char-count': {
    what: 'the line cap counts characters, not bytes',
    check: 'wire.oversize-line',
    rule: 'R-frame-oversize',
    maxLineBytes: DEFAULT_MAX_LINE_BYTES * 2,
  },
  cancel: {
    what: 'ui.settle ignores $/cancel and waits its full timeout',
    check: 'wire.cancel',
    rule: 'R-cancel',
    handlers: (h) => ({
      ...h,
      'ui.settle': async (p) => {
        await new Promise((r) => setTimeout(r, p.timeoutMs));
        return { settled: true, events: 0, ms: p.timeoutMs };
      },
    }),
  },
  nonbmp: {
    what: 'the process dies on a character beyond the BMP (raw or as a surrogate escape)',
    check: 'wire.non-bmp',
    rule: 'R-id',
    dieOn: /[\u{10000}-\u{10FFFF}]|\\ud8[0-9a-f]{2}/iu,
  },
  identity: {
    what: 'apps.terminate says it ended a pid no process has',
    check: 'wire.identity',
    rule: 'R-identity',
    handlers: (h) => ({
      ...h,
      'apps.terminate': () => ({ ended: true }),
      hello: async (p, ctx) => {
        const r = await h.hello!(p, ctx);
        return { ...r, methods: [...r.methods, 'apps.terminate'] };
      },
    }),
  },
};
