#!/usr/bin/env node
/**
 * The answering side of the relay (relay.ts), for an agent acting as the model from a shell:
 * - `next`: waits (up to --timeout seconds, default 540) for a request, then prints what a model would read and
 *   has not read yet (relay-view.ts). Called twice on the same request, it prints the same text again.
 * - `call TOOL 'JSON'`: answers the request printed last with one tool call.
 * - `final 'TEXT'`: answers it with a final message (no tool call): the task ends there.
 * `--dir DIR` (or CU_RELAY_DIR) names the relay folder when the relay was started with one. Every call is a new
 * process: what was printed is kept in the folder. Exit code 0 done, 1 refused (the message says why), 3 nothing
 * waited within the timeout.
 */
import { parseArgs } from 'node:util';
import { defaultRelayDir, RelayStore, type RelayReply, type StoredRequest } from './relay-store.js';
import { planView, renderView, type ViewState } from './relay-view.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

class Refused extends Error {}

async function next(store: RelayStore, cli: string, timeoutS: number, all: boolean): Promise<number> {
  const until = Date.now() + timeoutS * 1000;
  for (;;) {
    const req = await store.pending();
    if (req) {
      const state = await store.get<ViewState>(store.statePath);
      const prev =
        state && state.request !== req.id
          ? (await store.get<StoredRequest>(store.requestPath(state.request)))?.body
          : undefined;
      const view = planView(req, state, prev, all);
      await store.put(store.statePath, JSON.stringify(view));
      process.stdout.write(renderView(req, view, cli, !all && state?.request === req.id));
      return 0;
    }
    if (Date.now() >= until) {
      process.stdout.write(
        `no request waited within ${timeoutS} s. The eval may still be starting (a sandbox, an app) or it ` +
          `has finished: look at its output, then run next again.\n`,
      );
      return 3;
    }
    await sleep(250);
  }
}

/** The request the reader was shown and may answer now. */
async function current(store: RelayStore): Promise<StoredRequest> {
  const state = await store.get<ViewState>(store.statePath);
  const pending = await store.pending();
  if (!state) throw new Refused('nothing was printed yet: run next first');
  const req = await store.get<StoredRequest>(store.requestPath(state.request));
  if (!req) throw new Refused(`request ${state.request} is not in the relay folder: run next`);
  if ((await store.get(store.replyPath(req.id))) !== undefined)
    throw new Refused(`request ${req.id} is already answered: run next for the next one`);
  const closed = await store.closed(req.id);
  if (closed !== undefined) throw new Refused(`request ${req.id} is over: ${closed}. Run next`);
  if (pending && pending.id !== req.id)
    throw new Refused(`request ${pending.id} waits and you have not read it: run next`);
  return req;
}

async function reply(store: RelayStore, req: StoredRequest, r: RelayReply): Promise<void> {
  if (!(await store.put(store.replyPath(req.id), JSON.stringify(r), true)))
    throw new Refused(`request ${req.id} is already answered: run next for the next one`);
}

async function call(store: RelayStore, cli: string, tool: string | undefined, json: string | undefined): Promise<void> {
  if (!tool) throw new Refused(`usage: ${cli} call TOOL 'JSON arguments'`);
  let args: unknown;
  try {
    args = JSON.parse(json ?? '{}');
  } catch (e) {
    throw new Refused(`the arguments are not JSON (${(e as Error).message}); nothing was sent`);
  }
  if (!args || typeof args !== 'object' || Array.isArray(args))
    throw new Refused('the arguments must be a JSON object; nothing was sent');
  const req = await current(store);
  const names = (req.body.tools ?? []).map((t) => t.function.name);
  if (names.length && !names.includes(tool))
    throw new Refused(`no tool ${tool} in this conversation; the tools are ${names.join(', ')}`);
  await reply(store, req, { kind: 'call', name: tool, arguments: JSON.stringify(args) });
  process.stdout.write(`answered request ${req.id}: call ${tool} ${JSON.stringify(args)}. Run next for its result.\n`);
}

async function final(store: RelayStore, text: string | undefined): Promise<void> {
  if (text === undefined) throw new Refused('usage: final \'TEXT\'');
  const req = await current(store);
  await reply(store, req, { kind: 'final', content: text });
  process.stdout.write(
    `answered request ${req.id} with a final message: the conversation ends. Run next for the next task's, ` +
      `if any.\n`,
  );
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      dir: { type: 'string' },
      timeout: { type: 'string', default: '540' },
      all: { type: 'boolean', default: false },
    },
  });
  const store = new RelayStore(values.dir ?? defaultRelayDir());
  const cli = `node dist/bench/eval/relay-cli.js${values.dir ? ` --dir ${values.dir}` : ''}`;
  const [cmd, a, b] = positionals;
  try {
    if (cmd === 'next') {
      const t = Number(values.timeout);
      if (!(t >= 0)) throw new Refused(`--timeout ${values.timeout}: seconds`);
      return await next(store, cli, t, values.all ?? false);
    }
    if (cmd === 'call') { await call(store, cli, a, b); return 0; }
    if (cmd === 'final') { await final(store, a); return 0; }
    throw new Refused(`usage: ${cli} next [--all] [--timeout S] | call TOOL 'JSON arguments' | final 'TEXT'`);
  } catch (e) {
    if (!(e instanceof Refused)) throw e;
    process.stdout.write(`refused: ${e.message}\n`);
    return 1;
  }
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`relay-cli: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
