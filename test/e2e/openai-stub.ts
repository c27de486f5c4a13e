/**
 * A scripted model behind a local OpenAI-compatible HTTP endpoint (`POST /v1/chat/completions`, streamed as
 * server-sent events like the real API). The script sees the tool results it has received so far and answers
 * with the next tool call or a final text: a model that reads refs from the text, like a real one would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message of a chat completion request, as much of it as the script needs. */
export interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** What the scripted model says next. */
export type ScriptReply = { tool: string; args: Record<string, unknown> } | { text: string };

/** A tool result the model received: the call it made and the text that came back. */
export interface SeenResult { tool: string; args: Record<string, unknown>; text: string }

export interface ScriptedModel {
  /** Base URL to configure as the provider's baseUrl, e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  /** Every request body received, in order. */
  requests: { messages: ChatMessage[]; tools?: { function: { name: string } }[] }[];
  close(): Promise<void>;
}

/** The text of a message's content. */
export function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((c) => c.text ?? '').join('\n');
}

/** The tool calls the conversation made, paired with the results it got back. */
export function seenResults(messages: ChatMessage[]): SeenResult[] {
  const calls = new Map<string, { tool: string; args: Record<string, unknown> }>();
  const seen: SeenResult[] = [];
  for (const m of messages) {
    for (const c of m.tool_calls ?? [])
      calls.set(c.id, {
        tool: c.function.name,
        args: JSON.parse(c.function.arguments || '{}') as Record<string, unknown>,
      });
    if (m.role === 'tool' && m.tool_call_id) {
      const call = calls.get(m.tool_call_id);
      if (call) seen.push({ ...call, text: contentText(m.content) });
    }
  }
  return seen;
}

/** Starts the endpoint on 127.0.0.1 at a random port. */
export async function startScriptedModel(
  script: (seen: SeenResult[], messages: ChatMessage[]) => ScriptReply,
): Promise<ScriptedModel> {
  const requests: ScriptedModel['requests'] = [];
  let calls = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      let reply: ScriptReply;
      let body: { messages: ChatMessage[]; stream?: boolean };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
        requests.push(body);
        reply = script(seenResults(body.messages), body.messages);
      } catch (e) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `script failed: ${(e as Error).message}` } }));
        return;
      }
      const id = `chatcmpl-${++calls}`;
      const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'scripted' };
      const delta =
        'tool' in reply
          ? {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: `call_${calls}`,
                  type: 'function',
                  function: { name: reply.tool, arguments: JSON.stringify(reply.args) },
                },
              ],
            }
          : { role: 'assistant', content: reply.text };
      const finish = 'tool' in reply ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
      if (body.stream === false) {
        const message = {
          role: 'assistant',
          content: delta.content,
          ...('tool_calls' in delta ? { tool_calls: delta.tool_calls.map(({ index: _i, ...t }) => t) } : {}),
        };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message, finish_reason: finish }],
              usage,
            }),
          );
        return;
      }
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const send = (o: unknown): void => { res.write(`data: ${JSON.stringify(o)}\n\n`); };
      send({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
      send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
      send({ ...base, choices: [], usage });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
