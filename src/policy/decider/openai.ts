/**
 * `openai` decider mode: any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, LM Studio,
 * llama-server, …). POSTs `${baseUrl}/chat/completions`; the API key comes from the environment variable named
 * in the settings, is sent as a Bearer token and never appears in errors or reports.
 */
import { createChatDecider, DeciderHttpError, type ChatTransport, type ExplainingDecider } from './protocol.js';

export interface OpenAIDeciderOptions {
  /** e.g. `http://127.0.0.1:8080/v1` or `https://api.openai.com/v1`. */
  baseUrl: string;
  model: string;
  /** Name of the environment variable that holds the API key (read at each request). None: no Authorization. */
  apiKeyEnv?: string;
  /** No opinion after this long. Default 8000. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Where apiKeyEnv is looked up. Default process.env. */
  env?: Record<string, string | undefined>;
}

/** The base URL without credentials, query or trailing slashes, safe to print. */
export function displayUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    u.username = ''; u.password = ''; u.search = ''; u.hash = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return '(invalid URL)';
  }
}

export function createOpenAIDecider(opts: OpenAIDeciderOptions): ExplainingDecider {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const env = opts.env ?? process.env;
  const doFetch = opts.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
  const apiKey = (): string | undefined => (opts.apiKeyEnv ? env[opts.apiKeyEnv] : undefined);

  /** Removes the key (and the raw base URL, which may carry credentials) from any text that leaves here. */
  const scrub = (text: string): string => {
    let out = text;
    const key = apiKey();
    if (key && key.length >= 4) out = out.split(key).join('***');
    if (opts.baseUrl) out = out.split(opts.baseUrl).join(displayUrl(opts.baseUrl));
    return out;
  };

  const send: ChatTransport = async (body, signal) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (opts.apiKeyEnv) {
      const key = apiKey();
      if (!key) throw new Error(`environment variable ${opts.apiKeyEnv} (the API key) is not set`);
      headers['authorization'] = `Bearer ${key}`;
    }
    const res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let detail = text;
      try {
        const err = (JSON.parse(text) as { error?: { message?: unknown } | string }).error;
        detail = typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : text;
      } catch { /* not JSON: keep the text */ }
      throw new DeciderHttpError(res.status, scrub(detail.replace(/\s+/g, ' ').trim().slice(0, 200)));
    }
    return JSON.parse(await res.text()) as unknown;
  };

  return createChatDecider(send, {
    model: opts.model,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    description: `openai ${displayUrl(opts.baseUrl)} model ${JSON.stringify(opts.model)}`
      + (opts.apiKeyEnv ? ` (API key from $${opts.apiKeyEnv}${apiKey() ? '' : ', not set'})` : ' (no API key)'),
    scrub,
  });
}
