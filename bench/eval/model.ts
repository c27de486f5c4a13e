/**
 * The model solver: any OpenAI-compatible chat-completions endpoint drives the same tools as function calls, with
 * the tools' own guidance as the system prompt and the task's goal (plus the setup's values) as the user message.
 * It stops when the model answers without a tool call (its text is kept as answer `answer`) or the step budget
 * is spent. Not run in CI (no model here); tested against a local scripted endpoint.
 */
import { GUIDANCE } from '../../src/tools/guidance.js';
import { TOOLS } from '../../src/tools/index.js';
import type { ChatMessage, FunctionTool, Usage } from './chat.js';
import type { Recorder } from './recorder.js';
import type { SolverOutcome } from './scripted.js';
import type { Solver } from './runner.js';
import type { EvalTask } from './task.js';

/** Where the model is. */
export interface ModelOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8000/v1 */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when set. */
  apiKey?: string | undefined;
  /** Per request (default 120 s). */
  requestTimeoutMs?: number;
}

/** The tools as OpenAI function definitions (the same schemas the MCP server lists). */
export function functionTools(): FunctionTool[] {
  return TOOLS.map((t) => ({
    type: 'function' as const,
    // JSON round trip: TypeBox schemas are JSON Schema; fields marked unlisted are not enumerable and drop out.
    function: {
      name: t.schema.name,
      description: t.schema.description,
      parameters: JSON.parse(JSON.stringify(t.schema.inputSchema)) as unknown,
    },
  }));
}

/** The user message: the goal and the concrete values the task's setup chose (paths, texts). */
export function goalMessage(task: EvalTask, vars: Record<string, string>): string {
  const details = Object.entries(vars).map(([k, v]) => `- ${k}: ${v}`).join('\n');
  return (
    `${task.goal}${details ? `\nValues:\n${details}` : ''}\nWhen the goal is reached, answer with a short ` +
    `final message (and the value asked for, if any).`
  );
}

async function complete(
  opts: ModelOptions,
  messages: ChatMessage[],
  stop: AbortSignal,
): Promise<{ message: ChatMessage; usage?: Usage }> {
  const res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
    body: JSON.stringify({ model: opts.model, messages, tools: functionTools(), stream: false }),
    // The task's end (its deadline) also ends the request, so a late answer cannot act on the next task's desktop.
    signal: AbortSignal.any([stop, AbortSignal.timeout(opts.requestTimeoutMs ?? 120_000)]),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`model endpoint answered ${res.status}: ${body.slice(0, 300)}`);
  const parsed = JSON.parse(body) as { choices?: { message?: ChatMessage }[]; usage?: Usage };
  const message = parsed.choices?.[0]?.message;
  if (!message) throw new Error(`model endpoint gave no message: ${body.slice(0, 300)}`);
  return { message, ...(parsed.usage ? { usage: parsed.usage } : {}) };
}

function parseArguments(raw: string): Record<string, unknown> | string {
  try {
    const v = JSON.parse(raw || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : 'arguments must be a JSON object';
  } catch (e) {
    return `arguments are not JSON: ${(e as Error).message}`;
  }
}

/**
 * A solver that asks the model for each next tool call. The conversation lives in the recorder's (so the runner
 * keeps it as the task's transcript even when the task ends by its deadline or an error).
 */
export function modelSolver(opts: ModelOptions): Solver {
  return async (task: EvalTask, vars: Record<string, string>, rec: Recorder): Promise<SolverOutcome> => {
    const conv = rec.conversation;
    const messages = conv.messages;
    messages.push({ role: 'system', content: GUIDANCE }, { role: 'user', content: goalMessage(task, vars) });
    for (;;) {
      const { message: reply, usage } = await complete(opts, messages, rec.signal);
      conv.requests++;
      if (usage) { conv.promptTokens += usage.prompt_tokens; conv.completionTokens += usage.completion_tokens; }
      const calls = reply.tool_calls ?? [];
      messages.push({
        role: 'assistant',
        content: reply.content ?? null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      if (calls.length === 0) return { finished: true, answers: { answer: reply.content ?? '' } };
      for (const c of calls) {
        const args = parseArguments(c.function.arguments);
        let text: string;
        if (typeof args === 'string') text = `invalid call: ${args}`;
        else {
          try {
            text = (await rec.call(c.function.name, args)).text;
          } catch (e) {
            if (/step budget/.test((e as Error).message))
              return { finished: false, reason: (e as Error).message, answers: {} };
            throw e;
          }
        }
        messages.push({ role: 'tool', tool_call_id: c.id, content: text });
      }
    }
  };
}
