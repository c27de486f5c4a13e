/** A local chat-completions server for the decider tests: 127.0.0.1, random port, scripted replies. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received { method: string; url: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }
export type Reply = (req: Received, res: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  baseUrl: string;
  requests: Received[];
  reply: Reply;
  close(): Promise<void>;
}

/** A chat-completions response with `text` as the answer and, if given, the first token's alternatives. */
export function completion(text: string, top?: Record<string, number>): Record<string, unknown> {
  const alts = top
    ? Object.entries(top).map(([token, p]) => ({ token, logprob: Math.log(p), bytes: [...Buffer.from(token)] }))
    : undefined;
  return {
    id: 'chatcmpl-test', object: 'chat.completion', created: 0, model: 'test',
    choices: [{
      index: 0, finish_reason: 'length',
      message: { role: 'assistant', content: text },
      logprobs: alts ? { content: [{ token: text, logprob: Math.log(top![text] ?? 0.01), top_logprobs: alts }] } : null,
    }],
    usage: { prompt_tokens: 50, completion_tokens: 1, total_tokens: 51 },
  };
}

export function sendJson(res: ServerResponse, status: number, json: unknown): void {
  const body = JSON.stringify(json);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startFakeServer(reply: Reply): Promise<FakeServer> {
  const requests: Received[] = [];
  const state = { reply };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        /* recorded as {} */
      }
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(r);
      Promise.resolve(state.reply(r, res)).catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: 'reply failed' });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get reply() { return state.reply; },
    set reply(r: Reply) { state.reply = r; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
