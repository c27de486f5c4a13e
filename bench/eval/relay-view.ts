/**
 * What `relay-cli next` prints: only what a model reading the conversation has not read yet. The first request
 * of a conversation shows the system prompt, the tools (name, description, JSON schema) and the user message; a
 * later one only the tool results that came back (the assistant messages are the reader's own answers). Pure:
 * the CLI keeps the state on disk.
 */
import { createHash } from 'node:crypto';
import { escapeText } from '../../src/engine/escape.js';
import { contentText, type ChatMessage, type ChatRequest, type FunctionTool } from './chat.js';
import type { StoredRequest } from './relay-store.js';

/** What the CLI printed last (kept in the relay folder, so `next` from any shell knows it). */
export interface ViewState {
  /** The request printed last. */
  request: number;
  /** Its first message printed. */
  from: number;
  /** Keys of the system prompt and tool list the reader had already read before it (printed as "the same"). */
  seenSystem?: string;
  seenTools?: string;
}

const key = (v: unknown): string => createHash('sha256').update(JSON.stringify(v ?? null)).digest('hex').slice(0, 16);
const systemKey = (body: ChatRequest): string =>
  key(body.messages.filter((m) => m.role === 'system').map((m) => contentText(m.content)));
const toolsKey = (body: ChatRequest): string => key(body.tools ?? []);

/** A message as far as a reader sees it (clients may re-encode content between requests). */
const seen = (m: ChatMessage): string =>
  JSON.stringify([
    m.role,
    contentText(m.content),
    (m.tool_calls ?? []).map((c) => [c.function.name, c.function.arguments]),
    m.tool_call_id ?? '',
  ]);

/**
 * Where printing starts for `req`, given what was printed last (`state`, with that request's body `prev`):
 * again where it started when it is the same request; after the previous request's messages when this one
 * continues that conversation; else from its start (a new conversation: the next task).
 */
export function planView(
  req: StoredRequest,
  state: ViewState | undefined,
  prev: ChatRequest | undefined,
  all = false,
): ViewState {
  if (all) return { request: req.id, from: 0 };
  if (state?.request === req.id) return state;
  const msgs = req.body.messages;
  const known = prev ? { seenSystem: systemKey(prev), seenTools: toolsKey(prev) } : {};
  const continues =
    prev !== undefined &&
    msgs.length > prev.messages.length &&
    prev.messages.every((m, i) => {
      const n = msgs[i];
      return n !== undefined && seen(n) === seen(m);
    });
  return { request: req.id, from: continues ? prev.messages.length : 0, ...known };
}

/**
 * Makes text safe to print in a terminal, line by line through the one escaping function: a request may come
 * from any local program, and an escape sequence in it must not drive the reader's terminal.
 */
function safe(text: string): string {
  return text.split('\n').map((l) => escapeText(l, { quoted: false })).join('\n');
}

function toolLines(tools: readonly FunctionTool[]): string[] {
  return tools.flatMap((t) => [
    `• ${safe(t.function.name)}`,
    ...safe(t.function.description)
      .split('\n')
      .map((l) => `  ${l}`),
    `  parameters: ${safe(JSON.stringify(t.function.parameters ?? {}))}`,
    '',
  ]);
}

/** The text `next` prints for a planned view; `cli` is how the reader runs the CLI (for the answer hint). */
export function renderView(req: StoredRequest, view: ViewState, cli: string, again = false): string {
  const body = req.body;
  const out: string[] = [`━━ request ${req.id} (${req.receivedAt}) ━━`];
  if (again) out.push('(printed before; it still waits for your answer)');
  const calls = new Map<string, string>();
  for (const m of body.messages)
    for (const c of m.tool_calls ?? []) calls.set(c.id, `${c.function.name} ${c.function.arguments}`);
  if (view.from === 0 && view.seenSystem !== undefined)
    out.push('── a new conversation begins (the previous one ended) ──');
  let toolsShown = false;
  const showTools = (): void => {
    if (toolsShown || view.from > 0 && view.seenTools === toolsKey(body)) return;
    toolsShown = true;
    const tools = body.tools ?? [];
    if (view.seenTools === toolsKey(body))
      out.push(`── tools: the same ${tools.length} as before (next --all prints them) ──`);
    else out.push(`── tools (${tools.length}; answer with: call NAME 'JSON arguments') ──`, ...toolLines(tools));
  };
  for (const m of body.messages.slice(view.from)) {
    if (m.role === 'system') {
      if (view.seenSystem === systemKey(body))
        out.push('── system prompt: the same as before (next --all prints it) ──');
      else out.push('── system prompt ──', safe(contentText(m.content)));
      showTools();
    } else if (m.role === 'user') {
      showTools();
      out.push('── user ──', safe(contentText(m.content)));
    } else if (m.role === 'tool') {
      const call = calls.get(m.tool_call_id ?? '');
      out.push(`── result of ${call ? safe(call) : 'a tool call'} ──`, safe(contentText(m.content)));
    } else if (view.from === 0) {
      // Earlier answers are shown only when a conversation is new to the reader (it did not write them here).
      const c = m.tool_calls?.map((t) => `${t.function.name} ${t.function.arguments}`).join('; ');
      out.push('── assistant (an earlier answer) ──', safe(c ? `call ${c}` : contentText(m.content)));
    }
  }
  showTools();
  out.push('━━ answer with ONE of:', `  ${cli} call TOOL 'JSON arguments'`, `  ${cli} final 'TEXT'`);
  return out.join('\n') + '\n';
}
