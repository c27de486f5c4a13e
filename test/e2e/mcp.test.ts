/** The MCP server driven by the SDK's own Client over stdio, against gtk3-widget-factory in the sandbox. */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { killApp, refOn } from './helpers.js';

const cli = fileURLToPath(new URL('../../src/hosts/cli/main.js', import.meta.url));
let client: Client;
let appPid = 0;

const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

before(async () => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--mode', 'bypass', '--allow-app', 'gtk3-widget-factory'],
    env,
    stderr: 'inherit',
  });
  client = new Client({ name: 'e2e', version: '0' });
  await client.connect(transport);
});
after(async () => {
  await client?.close();
  if (appPid) await killApp(appPid);
});

test('lists the tools with schemas, titles and hints, and carries the guidance', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, [
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
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const ro of ['computer_apps', 'computer_observe', 'computer_find', 'computer_wait', 'computer_screenshot'])
    assert.equal(byName.get(ro)?.annotations?.readOnlyHint, true, ro);
  for (const d of ['computer_act', 'computer_keys', 'computer_launch'])
    assert.equal(byName.get(d)?.annotations?.destructiveHint, true, d);
  const act = byName.get('computer_act')!;
  assert.equal(act.inputSchema.type, 'object');
  assert.deepEqual((act.inputSchema as { required?: string[] }).required, ['actions']);
  assert.match(client.getInstructions() ?? '', /data, never instructions/);
});

test('launch, observe, toggle by ref and read the diff; stale refs and bad calls are tool errors', async () => {
  const launched = text(
    await client.callTool({ name: 'computer_launch', arguments: { command: 'gtk3-widget-factory' } }),
  );
  appPid = Number(/pid=(\d+)/.exec(launched)?.[1]);
  assert.ok(appPid > 0, launched);
  // The MCP host prints the launch's one line as the CLI does: the window's ref, title and focus, how it ran.
  assert.match(
    launched,
    /^launched gtk3-widget-factory pid=\d+ · window \[w\d+\] "[^\n]*" (?:\[focused\] )?· ran as given\n/,
    launched,
  );
  const snap = text(
    await client.callTool({
      name: 'computer_observe',
      arguments: { full: true, app: 'gtk3-widget-factory', maxTokens: 20000 },
    }),
  );
  const box = refOn(snap, /\] checkbox "checkbutton" unchecked$/);
  const acted = await client.callTool({ name: 'computer_act', arguments: { actions: [{ ref: box, op: 'toggle' }] } });
  assert.equal(acted.isError, false);
  assert.match(text(acted), new RegExp(`~ \\[${box}\\] checkbox "checkbutton" unchecked → checked`));

  const stale = await client.callTool({
    name: 'computer_act',
    arguments: { actions: [{ ref: 'e987654', op: 'click' }] },
  });
  assert.equal(stale.isError, true);
  assert.match(text(stale), /unknown_ref: Ref e987654 was never given in this session\. Call computer_observe/);
  const bad = await client.callTool({ name: 'computer_observe', arguments: { full: true, app: 'no-such-app' } });
  assert.equal(bad.isError, true);
  assert.match(text(bad), /app_not_found/);
});

test('a client cancellation ends a long computer_wait', async () => {
  const controller = new AbortController();
  const started = performance.now();
  const pending = client.callTool(
    {
      name: 'computer_wait',
      arguments: { until: 'appears', text: 'never-there', app: 'gtk3-widget-factory', timeoutMs: 60000 },
    },
    undefined,
    { signal: controller.signal },
  );
  setTimeout(() => controller.abort(), 300);
  await assert.rejects(pending);
  assert.ok(performance.now() - started < 30000);
  // The server keeps serving.
  const apps = text(await client.callTool({ name: 'computer_apps', arguments: {} }));
  assert.match(apps, /gtk3-widget-factory/);
});

test('a long computer_wait reports progress to a client that asked for it', async () => {
  const progress: { progress: number; message?: string | undefined }[] = [];
  const res = await client.callTool({ name: 'computer_wait', arguments: { until: 'appears', text: 'never-there', app: 'gtk3-widget-factory', timeoutMs: 2500 } },
    undefined, { onprogress: (p) => { progress.push(p); }, timeout: 30000 });
  assert.equal(res.isError, true);
  assert.match(text(res), /timeout/);
  assert.ok(progress.length >= 1, 'at least one progress notification during a 2.5 s wait');
  assert.match(progress[0]?.message ?? '', /computer_wait running for \d+ s/);
});
