/**
 * The pi extension loaded by pi's own CLI (`pi --mode rpc -e <package dir>`, which reads the "pi" manifest of
 * package.json), with a scripted model behind a local OpenAI-compatible endpoint and the built-in policy in its
 * default mode: the gedit write-and-save task end to end with the policy's questions answered through pi's
 * dialogs (RPC extension UI requests), then a confirmation that ctx.ui.confirm declines and the act refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { refWhere } from '../../src/demo/gedit-task.js';
import { GUIDANCE } from '../../src/tools/guidance.js';
import { killApp } from './helpers.js';
import { startScriptedModel, type ScriptReply, type SeenResult } from './openai-stub.js';
import { PiRpc, type RpcEvent } from './pi-rpc.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const pids = new Set<number>();
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  for (const pid of pids) await killApp(pid);
});

/** Remembers gedit's pid from a launch result so the test can end it. */
function notePid(seen: SeenResult[]): void {
  for (const s of seen)
    if (s.tool === 'computer_launch') {
      const pid = Number(/pid=(\d+)/.exec(s.text)?.[1]);
      if (pid > 0) pids.add(pid);
    }
}

/** The gedit task as a model would do it, one tool call per turn, refs read from the previous results. */
function geditScript(path: string, text: string) {
  return (seen: SeenResult[]): ScriptReply => {
    notePid(seen);
    const last = seen.at(-1);
    if (!last) return { tool: 'computer_launch', args: { command: 'gedit', args: ['--new-window'], waitMs: 20000 } };
    if (last.text.startsWith('error')) return { text: `giving up: ${last.text}` };
    switch (last.tool) {
      case 'computer_launch': {
        const doc = refWhere(last.text, /\] document\b.*editable/);
        return doc
          ? { tool: 'computer_act', args: { actions: [{ ref: doc, op: 'type', value: text }] } }
          : { text: 'no editable document' };
      }
      case 'computer_act':
        if (seen.filter((s) => s.tool === 'computer_act').length === 1)
          return { tool: 'computer_keys', args: { keys: 'ctrl+s', app: 'gedit' } };
        return { text: `saved to ${path}` };
      case 'computer_keys':
      case 'computer_wait': {
        if (!/"Save As"/.test(last.text)) {
          return last.tool === 'computer_keys'
            ? { tool: 'computer_wait', args: { until: 'window_appears', text: 'Save As', timeoutMs: 10000 } }
            : { text: 'no Save As dialog' };
        }
        const dialog = last.text.slice(last.text.search(/"Save As"/));
        const name = refWhere(dialog, /\] textbox\b.*editable/);
        const save = refWhere(dialog, /\] button "Save"/);
        if (!name || !save) return { text: 'the Save As dialog has no name field or Save button' };
        return {
          tool: 'computer_act',
          args: {
            actions: [
              { ref: name, op: 'set_value', value: path },
              { ref: save, op: 'click' },
            ],
          },
        };
      }
      default: return { text: `unexpected ${last.tool}` };
    }
  };
}

async function fileContent(path: string, timeoutMs: number): Promise<string | undefined> {
  for (const until = performance.now() + timeoutMs; ;) {
    try { return await readFile(path, 'utf8'); } catch {
      if (performance.now() > until) return undefined;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

const transcript = (pi: PiRpc): string =>
  pi
    .toolResults()
    .map((r) => `## ${r.tool}${r.isError ? ' (error)' : ''}\n${r.text}`)
    .join('\n');

test('pi loads the extension from the package manifest; ' +
    'a scripted model writes and saves a file in gedit', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pi-gedit-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  // The tool's home is out of its own reach: the file is saved next to it, not inside it.
  const home = join(dir, 'home');
  const path = join(dir, 'from-pi.txt');
  const text = 'Written by pi through the accessibility tree.';
  const model = await startScriptedModel(geditScript(path, text));
  cleanups.push(() => model.close());
  const asked: RpcEvent[] = [];
  const pi = await PiRpc.start({
    extension: root, baseUrl: model.baseUrl, args: ['--computer-desktop', 'current'], env: { COMPUTER_USE_HOME: home },
    onDialog: (request) => {
      asked.push(request);
      return request['method'] === 'select'
        ? { value: 'Allow for this session' }
        : request['method'] === 'confirm'
          ? { confirmed: true }
          : { cancelled: true };
    },
  });
  cleanups.push(() => pi.close());

  const commands = await pi.command({ type: 'get_commands' });
  const names = ((commands['data'] as { commands: { name: string }[] }).commands).map((c) => c.name);
  assert.ok(names.includes('computer'), JSON.stringify(names));

  const from = pi.events.length;
  await pi.command({ type: 'prompt', message: '/computer status' });
  const notify = await pi.waitFor(
    (e: RpcEvent) => e.type === 'extension_ui_request' && e['method'] === 'notify',
    10_000,
    from,
  );
  assert.match(String(notify['message']), /desktop: not started/);

  await pi.prompt(`Write "${text}" in a new gedit document and save it as ${path}.`, 120_000);
  const content = await fileContent(path, 10_000);
  assert.equal(content?.replace(/\n$/, ''), text, transcript(pi));

  // The model saw our tools (and no built-in ones) and the guidance in its system prompt.
  const first = model.requests[0];
  assert.ok(first);
  assert.deepEqual(first.tools?.map((t) => t.function.name).sort(), [
    'computer_act',
    'computer_apps',
    'computer_find',
    'computer_input',
    'computer_keys',
    'computer_launch',
    'computer_observe',
    'computer_screenshot',
    'computer_wait',
  ]);
  const system = first.messages.find((m) => m.role === 'system' || m.role === 'developer');
  assert.ok(
    typeof system?.content === 'string' && system.content.includes(GUIDANCE),
    'the guidance is appended to the system prompt',
  );
  const tools = pi.toolResults().map((r) => `${r.tool}${r.isError ? '!' : ''}`);
  assert.deepEqual(tools.slice(0, 3), ['computer_launch', 'computer_act', 'computer_keys'], tools.join(' '));
  assert.equal(tools.at(-1), 'computer_act');
  // The policy asked through pi: gedit's first use (select: once, this session, always, deny), then Ctrl+S
  // (keys are asked each time in default mode for an app that is not allow-listed) as a yes/no confirm.
  assert.deepEqual(asked.map((a) => a['method']), ['select', 'confirm'], JSON.stringify(asked));
  assert.match(String(asked[0]?.['title']), /Allow computer-use to act in gedit\?/);
  assert.deepEqual(asked[0]?.['options'], ['Allow once', 'Allow for this session', 'Always allow', 'Deny']);
  assert.match(String(asked[1]?.['message']), /press "ctrl\+s"/);
});

test('a confirmation asked through ctx.ui.confirm and declined refuses the act', async () => {
  const home = await mkdtemp(join(tmpdir(), 'pi-confirm-'));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const model = await startScriptedModel((seen) => {
    notePid(seen);
    const last = seen.at(-1);
    if (!last)
      return {
        tool: 'computer_launch',
        args: { command: 'zenity', args: ['--password', '--title', 'Unlock from pi'], waitMs: 20000 },
      };
    if (last.tool === 'computer_launch') {
      const field = refWhere(last.text, /\] textbox .*password/);
      return field
        ? { tool: 'computer_act', args: { actions: [{ ref: field, op: 'set_value', value: 'hunter2-from-pi' }] } }
        : { text: 'no password field' };
    }
    return { text: 'The user declined; stopping.' };
  });
  cleanups.push(() => model.close());
  const asked: RpcEvent[] = [];
  // zenity is allow-listed (no first-use question), but a write into a password field is asked every time.
  const pi = await PiRpc.start({
    extension: root,
    baseUrl: model.baseUrl,
    args: ['--computer-desktop', 'current', '--computer-allow-app', 'zenity'],
    env: { COMPUTER_USE_HOME: home },
    onDialog: (request) => {
      asked.push(request);
      return request['method'] === 'confirm' ? { confirmed: false } : { cancelled: true };
    },
  });
  cleanups.push(() => pi.close());

  await pi.prompt('Unlock with my password.', 90_000);
  assert.equal(asked.length, 1, `${JSON.stringify(asked)}\n${transcript(pi)}`);
  assert.equal(asked[0]?.['method'], 'confirm');
  assert.match(String(asked[0]?.['title']), /^Confirm: set value textbox/);
  assert.match(String(asked[0]?.['message']), /password field/);
  assert.doesNotMatch(JSON.stringify(asked), /hunter2/);
  const act = pi.toolResults().find((r) => r.tool === 'computer_act');
  assert.ok(act, transcript(pi));
  assert.equal(act.isError, true, act.text);
  assert.match(act.text, /rejected set_value e\d+ · confirmation_declined:? The user declined/);
  assert.doesNotMatch(act.text, /hunter2/);
  // The audit log of the private home records the refusal.
  const audit = await readFile(join(home, 'plugin-data', 'computer-use', 'audit.jsonl'), 'utf8').catch(
    (e: Error) => e.message,
  );
  assert.match(audit, /"decision":"declined"/);
});
