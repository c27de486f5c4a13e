#!/usr/bin/env node
/**
 * The relay: an OpenAI-compatible chat-completions server on 127.0.0.1 whose "model" is whoever answers with
 * relay-cli.ts (an agent reading the tools' text in a shell). Each POST /v1/chat/completions is stored in the
 * relay directory (relay-store.ts) and held open until the CLI writes its answer there, or until the wait bound
 * passes (then an error answer, so the eval's task fails instead of hanging). The answer goes back as one
 * assistant message: one tool call, or a final text. Both `stream: false` and server-sent events are answered.
 *
 * `node dist/bench/eval/relay.js --port 8765 [--dir DIR] [--wait-minutes 30]`
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { textTokens } from '../../src/demo/tokens.js';
import type { ChatMessage, ChatRequest, Usage } from './chat.js';
import { defaultRelayDir, RelayStore, type RelayReply } from './relay-store.js';
import { isEntryModule } from '../../src/drivers/common/entry.js';

/** How to start a relay. */
export interface RelayOptions {
  dir: string;
  /** 0 picks a free port. */
  port: number;
  /** How long one request waits for its answer (default 30 min). */
  waitMs?: number;
  /** How often the reply file is looked for (default 200 ms). */
  pollMs?: number;
}

/** A running relay. */
export interface Relay { baseUrl: string; port: number; store: RelayStore; close(): Promise<void> }

/** A request body larger than this is refused (a long conversation of tool texts stays far below it). */
const MAX_BODY = 32 * 1024 * 1024;

type Verdict = { status: number; message: string } | undefined;

/**
 * Only a local program may post: a browser page (the eval's own tasks open pages in Chromium and Firefox) sends an
 * Origin header and, through DNS rebinding, a foreign Host; a simple cross-site POST cannot set a JSON content
 * type without a preflight, which gets no CORS answer here. So a page cannot put words in the relay's conversation.
 */
function refuse(req: IncomingMessage, port: number): Verdict {
  if (req.headers.origin !== undefined) return { status: 403, message: 'requests from a browser page are refused' };
  if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`)
    return { status: 403, message: `host ${req.headers.host ?? '(none)'} is not this relay` };
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    return { status: 415, message: 'content-type must be application/json' };
  return undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const fail = (res: ServerResponse, status: number, message: string): void =>
  sendJson(res, status, { error: { message, type: 'relay_error' } });

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A request body a chat-completions client would send, or what is wrong with it. */
function parseRequest(text: string): ChatRequest | string {
  let body: unknown;
  try { body = JSON.parse(text); } catch (e) { return `body is not JSON: ${(e as Error).message}`; }
  const b = body as Partial<ChatRequest> | null;
  if (!b || typeof b !== 'object' || !Array.isArray(b.messages) || b.messages.length === 0)
    return 'body needs a non-empty messages array';
  if (b.tools !== undefined && !Array.isArray(b.tools)) return 'tools must be an array';
  return b as ChatRequest;
}

/** The assistant message an answer becomes; the call's id names the request, so a transcript can be followed. */
function messageOf(id: number, reply: RelayReply): ChatMessage {
  return reply.kind === 'call'
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `call_${id}`, type: 'function', function: { name: reply.name, arguments: reply.arguments } },
        ],
      }
    : { role: 'assistant', content: reply.content };
}

/** o200k counts of what was sent and answered (the relay's model has no tokenizer of its own). */
function usageOf(body: ChatRequest, message: ChatMessage): Usage {
  const prompt = textTokens(JSON.stringify(body.messages)) + (body.tools ? textTokens(JSON.stringify(body.tools)) : 0);
  const completion = textTokens(JSON.stringify(message.content ?? message.tool_calls ?? ''));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function answer(res: ServerResponse, id: number, body: ChatRequest, message: ChatMessage): void {
  const base = { id: `chatcmpl-relay-${id}`, created: Math.floor(Date.now() / 1000), model: body.model ?? 'relay' };
  const finish = message.tool_calls ? 'tool_calls' : 'stop';
  const usage = usageOf(body, message);
  if (body.stream !== true) {
    sendJson(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (choices: unknown[], extra: object = {}): void => {
    res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
  };
  const delta = {
    role: 'assistant',
    content: message.content,
    ...(message.tool_calls ? { tool_calls: message.tool_calls.map((t, index) => ({ index, ...t })) } : {}),
  };
  chunk([{ index: 0, delta, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: finish }]);
  chunk([], { usage });
  res.end('data: [DONE]\n\n');
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts the relay on 127.0.0.1 (never another interface: what it carries is the desktop's text). */
export async function startRelay(opts: RelayOptions): Promise<Relay> {
  const store = new RelayStore(opts.dir);
  await store.init();
  const waitMs = opts.waitMs ?? 30 * 60_000;
  const pollMs = opts.pollMs ?? 200;
  let port = opts.port;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path)) {
      sendJson(res, 200, { object: 'list', data: [{ id: 'relay', object: 'model', owned_by: 'relay' }] });
      return;
    }
    if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions$/.test(path)) {
      fail(res, 404, `no route ${req.method ?? '?'} ${path}`);
      return;
    }
    const no = refuse(req, port);
    if (no) { fail(res, no.status, no.message); return; }
    const text = await readBody(req);
    if (text === undefined) { fail(res, 413, `body over ${MAX_BODY} bytes`); return; }
    const body = parseRequest(text);
    if (typeof body === 'string') { fail(res, 400, body); return; }
    const stored = await store.addRequest(body);
    let gone = false;
    res.on('close', () => { if (!res.writableEnded) gone = true; });
    const until = Date.now() + waitMs;
    for (;;) {
      const reply = await store.get<RelayReply>(store.replyPath(stored.id));
      if (reply) { answer(res, stored.id, body, messageOf(stored.id, reply)); return; }
      if (gone) {
        await store.put(
          store.closedPath(stored.id),
          'the client went away before the answer (its task ended or the eval stopped)',
        );
        return;
      }
      if (Date.now() >= until) {
        const why = `no answer came within ${Math.round(waitMs / 60_000)} min`;
        await store.put(store.closedPath(stored.id), why);
        fail(res, 504, `the relay got ${why}`);
        return;
      }
      await sleep(pollMs);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) fail(res, 500, (e as Error).message);
      else res.end();
    });
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`, port, store,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8765' },
      dir: { type: 'string' },
      'wait-minutes': { type: 'string', default: '30' },
    },
  });
  const port = Number(values.port);
  const minutes = Number(values['wait-minutes']);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port}: a port number`);
  if (!(minutes > 0)) throw new Error(`--wait-minutes ${values['wait-minutes']}: a positive number`);
  const dir = values.dir ?? defaultRelayDir();
  const relay = await startRelay({ dir, port, waitMs: minutes * 60_000 });
  // A relay started on a folder used before may have a new reader: its first `next` prints the system prompt and
  // tools again instead of calling them "the same as before".
  await relay.store.forget();
  const cli = `node dist/bench/eval/relay-cli.js${values.dir ? ` --dir ${dir}` : ''}`;
  process.stdout.write(
    `relay: ${relay.baseUrl} (folder ${dir}); each request waits up to ${minutes} min for\n  ${cli} next | ` +
      `call TOOL 'JSON' | final 'TEXT'\n`,
  );
  const stop = (): void => { void relay.close().then(() => process.exit(0)); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (isEntryModule(import.meta.url)) {
  main().catch((e: unknown) => { process.stderr.write(`relay: ${(e as Error).message}\n`); process.exitCode = 2; });
}
