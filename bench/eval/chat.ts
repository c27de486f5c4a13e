/**
 * The OpenAI chat-completions shapes the eval speaks: the model solver sends them, the relay receives and answers
 * them, the transcripts keep them. Only the fields these use.
 */

/** One function call of an assistant message; `arguments` is a JSON text, as the API sends it. */
export interface ToolCall { id: string; type?: 'function'; function: { name: string; arguments: string } }

/** One message of a conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/** A tool as an OpenAI function definition. */
export interface FunctionTool { type: 'function'; function: { name: string; description: string; parameters: unknown } }

/** What a request's body carries. */
export interface ChatRequest { model?: string; messages: ChatMessage[]; tools?: FunctionTool[]; stream?: boolean }

/** Token counts an endpoint reports per answer. */
export interface Usage { prompt_tokens: number; completion_tokens: number; total_tokens: number }

/** The text of a message's content (the API also allows a list of parts). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((c) =>
        c && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'
          ? (c as { text: string }).text
          : '',
      )
      .join('\n');
  return '';
}
