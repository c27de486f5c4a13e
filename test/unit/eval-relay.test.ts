/**
 * The relay (bench/eval/relay.ts) with its CLI (relay-cli.ts) as the answering side, each CLI call a process of
 * its own as an agent's shell would run it: what a chat-completions client receives (a tool call, then a final
 * text) and what `next` printed (the system prompt, tools and goal once, then only new tool results).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { ChatMessage, ChatRequest } from '../../bench/eval/chat.js';
import { functionTools } from '../../bench/eval/model.js';
import { startRelay, type Relay } from '../../bench/eval/relay.js';

const CLI = fileURLToPath(new URL('../../bench/eval/relay-cli.js', import.meta.url));

/** Runs the CLI once, as a new process; its exit code and output. */
function cli(dir: string, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, '--dir', dir, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

interface Completion { choices: { message: ChatMessage; finish_reason: string }[]; usage?: { prompt_tokens: number } }

async function post(
  relay: Relay,
  body: ChatRequest,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Completion & { error?: { message: string } } }> {
  const res = await fetch(`${relay.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() as Completion & { error?: { message: string } } };
}

const SYSTEM: ChatMessage = { role: 'system', content: 'SYSTEM-PROMPT: act by ref.' };
const USER: ChatMessage = { role: 'user', content: 'Save the file as a.txt.' };

test('one request through the relay: the CLI prints the start once, ' +
    'answers a tool call, then only the new result, then a final text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-relay-'));
  const relay = await startRelay({ dir, port: 0, pollMs: 20 });
  try {
    const tools = functionTools();
    const first = post(relay, { model: 'relay', messages: [SYSTEM, USER], tools, stream: false });
    const shown = await cli(dir, 'next');
    assert.equal(shown.code, 0, shown.out);
    assert.match(shown.out, /── system prompt ──\nSYSTEM-PROMPT: act by ref\./);
    assert.match(shown.out, new RegExp(`── tools \\(${tools.length};`));
    assert.match(shown.out, /• computer_observe\n {2}\S.*\n[^]*? {2}parameters: \{"/);
    assert.match(shown.out, /── user ──\nSave the file as a\.txt\./);

    // Wrong answers are refused and nothing reaches the client.
    assert.match((await cli(dir, 'call', 'computer_nope', '{}')).out, /refused: no tool computer_nope/);
    const notJson = await cli(dir, 'call', 'computer_observe', '{app:');
    assert.equal(notJson.code, 1);
    assert.match(notJson.out, /not JSON/);
    const called = await cli(dir, 'call', 'computer_observe', '{"app":"gedit"}');
    assert.equal(called.code, 0, called.out);

    const a = await first;
    assert.equal(a.status, 200);
    const call = a.json.choices[0]?.message.tool_calls?.[0];
    assert.deepEqual(call?.function, { name: 'computer_observe', arguments: '{"app":"gedit"}' });
    assert.equal(a.json.choices[0]?.finish_reason, 'tool_calls');
    assert.ok((a.json.usage?.prompt_tokens ?? 0) > 0);

    // The client appends the call and its result, as model.ts does; the escape sequence is an app's text.
    const messages: ChatMessage[] = [
      SYSTEM,
      USER,
      { role: 'assistant', content: null, tool_calls: [call ?? { id: 'x', function: { name: '', arguments: '' } }] },
      { role: 'tool', tool_call_id: call?.id ?? '', content: 'app gedit\n[e5] button "Save"\x1b[2J' },
    ];
    const second = post(relay, { model: 'relay', messages, tools, stream: false });
    const result = await cli(dir, 'next');
    assert.equal(
      result.out.split('\n').slice(1, -4).join('\n'),
      '── result of computer_observe {"app":"gedit"} ──\napp gedit\n[e5] button "Save"',
    );
    assert.doesNotMatch(result.out, /SYSTEM-PROMPT|Save the file|parameters:/);
    // Asked again (another shell, a lost output), `next` prints the same request again.
    const again = await cli(dir, 'next');
    assert.match(again.out, /printed before; it still waits/);
    assert.ok(again.out.includes('── result of computer_observe {"app":"gedit"} ──\napp gedit\n[e5] button "Save"\n'));

    assert.equal((await cli(dir, 'final', 'Saved as a.txt.')).code, 0);
    const b = await second;
    assert.equal(b.json.choices[0]?.message.content, 'Saved as a.txt.');
    assert.equal(b.json.choices[0]?.message.tool_calls, undefined);
    assert.equal(b.json.choices[0]?.finish_reason, 'stop');
    assert.match((await cli(dir, 'final', 'twice')).out, /already answered/);
    // Nothing waits now: `next` says so once its timeout passes.
    const none = await cli(dir, 'next', '--timeout', '0');
    assert.equal(none.code, 3);
  } finally { await relay.close(); }
});

test('the next conversation starts with its goal, the same system prompt and tools ' +
    'said to be the same; a request the client dropped cannot be answered', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-relay-'));
  const relay = await startRelay({ dir, port: 0, pollMs: 20 });
  try {
    const tools = functionTools();
    const first = post(relay, { messages: [SYSTEM, USER], tools });
    await cli(dir, 'next');
    await cli(dir, 'final', 'done');
    await first;
    const stop = new AbortController();
    const second = fetch(`${relay.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      signal: stop.signal,
      body: JSON.stringify({ messages: [SYSTEM, { role: 'user', content: 'Open b.txt.' }], tools }),
    }).catch((e: unknown) => e);
    const shown = await cli(dir, 'next');
    assert.match(shown.out, /a new conversation begins/);
    assert.match(shown.out, /system prompt: the same as before/);
    assert.match(shown.out, new RegExp(`tools: the same ${tools.length} as before`));
    assert.match(shown.out, /── user ──\nOpen b\.txt\./);
    assert.doesNotMatch(shown.out, /SYSTEM-PROMPT|parameters:/);
    const all = await cli(dir, 'next', '--all');
    assert.match(all.out, /SYSTEM-PROMPT[^]*parameters:/);
    stop.abort();
    await second;
    // The relay notices the client went away (its task ended), and the answer is refused rather than lost.
    const id = (await relay.store.requestIds()).at(-1) ?? 0;
    while (await relay.store.closed(id) === undefined) await new Promise((r) => setTimeout(r, 20));
    const late = await cli(dir, 'call', 'computer_apps', '{}');
    assert.equal(late.code, 1);
    assert.match(late.out, /refused: request 2 is over: the client went away/);
  } finally { await relay.close(); }
});

test('a browser page cannot post to the relay, and a body must be JSON with messages', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cu-relay-'));
  const relay = await startRelay({ dir, port: 0, pollMs: 20 });
  try {
    assert.equal((await post(relay, { messages: [USER] }, { origin: 'http://127.0.0.1:8000' })).status, 403);
    const plain = await fetch(`${relay.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ messages: [USER] }),
    });
    assert.equal(plain.status, 415);
    assert.equal((await post(relay, { messages: [] })).status, 400);
    assert.deepEqual(await relay.store.requestIds(), []);
  } finally { await relay.close(); }
});
