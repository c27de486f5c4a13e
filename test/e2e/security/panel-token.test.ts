/**
 * docs/policy.md, "Threat model": the model never receives the panel's token. A real MCP server over stdio with
 * `--panel` and a client without elicitation: while an irreversible click waits in the panel, the progress
 * messages and the results the model reads carry neither the URL nor its token, and a plain POST
 * /api/confirm holding the token (no Origin, no cookie: a script, not the panel page) approves nothing.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { refOn } from '../helpers.js';

const cli = fileURLToPath(new URL('../../../src/hosts/cli/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'cu-panel-token-'));
const children: ChildProcess[] = [];
let client: Client | undefined;
after(async () => { await client?.close().catch(() => undefined); for (const c of children) c.kill('SIGKILL'); });

const text = (r: Awaited<ReturnType<Client['callTool']>>): string =>
  (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

/** A POST as a script sends it: no Origin, no fetch metadata, no cookie. */
function post(url: string, path: string, headers: Record<string, string>, body: unknown): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    )
      .on('error', reject)
      .end(JSON.stringify(body));
  });
}
function getJson(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      let b = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => {
          b += d;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    })
      .on('error', reject)
      .end();
  });
}

test('the progress message tells the model a question waits, ' +
    'without the URL; a bare POST with the token approves nothing', async () => {
  assert.ok(process.env['DISPLAY'], 'runs in the sandbox desktop');
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env['COMPUTER_USE_HOME'] = home;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--desktop', 'current', '--panel', '--confirm-timeout', '60'],
    env,
    stderr: 'pipe',
  });
  const urlSeen = new Promise<string>((resolve) => {
    createInterface({ input: transport.stderr as unknown as NodeJS.ReadableStream }).on('line', (l) => {
      const m = /computer-use panel: (http:\/\/\S+)/.exec(l);
      if (m) resolve(m[1]!);
    });
  });
  client = new Client({ name: 'no-elicitation', version: '0' });
  await client.connect(transport);
  const panelUrl = await urlSeen;
  const token = new URL(panelUrl).searchParams.get('token')!;
  assert.ok(token.length >= 40, panelUrl);

  const title = `Token test ${process.pid}`;
  const dialog = spawn(
    'zenity',
    [
      '--question',
      '--title',
      title,
      '--text',
      'Delete the file report.txt?',
      '--ok-label',
      'Delete',
      '--cancel-label',
      'Keep',
    ],
    { stdio: 'ignore' },
  );
  children.push(dialog);
  const exited = new Promise<number | null>((r) => dialog.once('exit', (code) => r(code)));
  const modelSaw: string[] = [];
  const w = await client.callTool(
    { name: 'computer_wait', arguments: { until: 'window_appears', text: title, timeoutMs: 20000 } },
    undefined,
    { timeout: 60_000 },
  );
  modelSaw.push(text(w));
  const snap = text(await client.callTool({ name: 'computer_observe', arguments: { full: true, window: title } }));
  modelSaw.push(snap);
  const ref = refOn(snap, /\] button "Delete"/);

  const progress: string[] = [];
  const pending = client.callTool({ name: 'computer_act', arguments: { actions: [{ ref, op: 'click' }] } }, undefined,
    { timeout: 120_000, resetTimeoutOnProgress: true, onprogress: (p) => { progress.push(p.message ?? ''); } });
  for (let i = 0; i < 200 && !progress.some((m) => /computer-use panel/.test(m)); i++)
    await new Promise((r) => setTimeout(r, 50));
  const waiting = progress.find((m) => /computer-use panel/.test(m)) ?? '';
  assert.match(waiting, /Waiting for the user/, `progress: ${progress.join(' | ')}`);
  assert.ok(!waiting.includes(token), `the progress message gave the model the token: ${waiting}`);

  // The script's attack: the token from the URL in a plain POST (query and header), no Origin, no cookie.
  const state = await getJson(panelUrl, `/api/state?token=${token}`, { 'x-panel-token': token });
  const id =
    state.status === 200
      ? ((JSON.parse(state.body) as { pending: { id: string }[] }).pending[0]?.id ?? 'unknown')
      : 'unknown';
  const forged = [
    await post(panelUrl, `/api/confirm?token=${token}`, {}, { id, choice: 'allow_once' }),
    await post(panelUrl, '/api/confirm', { 'x-panel-token': token }, { id, choice: 'allow_once' }),
  ];
  for (const status of forged) assert.equal(status, 403, `a bare POST with the token was answered ${status}`);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(dialog.exitCode, null, 'the dialog is still open: nothing was clicked');

  // Decline the proper way (the panel page's cookie and Origin) so that the call ends.
  const origin = new URL(panelUrl).origin;
  const loaded = await new Promise<string>((resolve, reject) => {
    const u = new URL(panelUrl);
    request({ host: u.hostname, port: u.port, path: `${u.pathname}${u.search}` }, (res) => {
      res.resume();
      resolve(String(res.headers['set-cookie'] ?? '').split(';')[0]!);
    })
      .on('error', reject)
      .end();
  });
  const real = await getJson(panelUrl, '/api/state', { cookie: loaded });
  const realId = (JSON.parse(real.body) as { pending: { id: string }[] }).pending[0]!.id;
  assert.equal(await post(panelUrl, '/api/confirm', { cookie: loaded, origin }, { id: realId, choice: 'deny' }), 200);
  const r = await pending;
  modelSaw.push(text(r), ...progress);
  assert.match(text(r), /confirmation_declined/);
  for (const seen of modelSaw) {
    assert.ok(!seen.includes(token), `the model saw the token in: ${seen}`);
    assert.ok(!seen.includes(origin), `the model saw the panel's address in: ${seen}`);
  }
  dialog.kill();
  await exited;
});
