/** The panel's server: token → cookie exchange, Origin/Host checks on every request, questions answered through the
* API, stop. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PanelConfirmer } from '../../src/panel/confirmations.js';
import { LiveView } from '../../src/panel/live.js';
import { startPanel } from '../../src/panel/server.js';
import { tokenMatches } from '../../src/panel/auth.js';
import type { ConfirmRequest } from '../../src/policy/confirm.js';

interface Reply { status: number; text: string; headers: Record<string, string | string[] | undefined> }

function call(port: number, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => {
          text += d;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const question: ConfirmRequest = {
  title: 'Confirm: click button "Delete"?',
  message: 'computer-use wants to click button "Delete" in "zenity".',
  choices: ['allow_once', 'deny'],
  reason: 'irreversible',
};

test('the URL\'s token is traded for an HttpOnly SameSite=Strict ' +
    'cookie; the API needs the cookie, and a POST the page\'s Origin', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cu-panel-'));
  const confirmer = new PanelConfirmer(5000);
  const panel = await startPanel({
    home,
    auditPath: join(home, 'audit.jsonl'),
    confirmer,
    live: new LiveView(),
    computer: () => Promise.reject(new Error('no desktop in this test')),
    mode: () => 'default',
    hotkey: () => undefined,
  });
  try {
    const token = new URL(panel.url).searchParams.get('token')!;
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    const { port } = panel;
    const origin = `http://127.0.0.1:${port}`;
    const loaded = await call(port, `/?token=${token}`);
    assert.equal(loaded.status, 303);
    assert.equal(
      loaded.headers['location'],
      `/p/${panel.marker}`,
      'redirected to a token-less address carrying the marker',
    );
    const setCookie = String(loaded.headers['set-cookie']);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    assert.ok(!setCookie.includes(token), 'the cookie is a secret of its own, not the token');
    const cookie = setCookie.split(';')[0]!;
    const page = await call(port, `/p/${panel.marker}`, { cookie });
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`<title>computer-use panel · ${panel.marker}</title>`));
    assert.ok(!page.text.includes(token), 'the page holds no token');
    assert.equal((await call(port, `/p/${panel.marker}`)).status, 403, 'no cookie, no page');
    assert.equal((await call(port, '/')).status, 403);
    assert.equal((await call(port, `/?token=${token}x`)).status, 403);
    assert.equal((await call(port, `/api/state?token=${token}`)).status, 403, 'the token alone opens no API');
    assert.equal((await call(port, '/api/state', { 'x-panel-token': token })).status, 403);
    assert.equal((await call(port, '/api/state', { cookie: 'cu_panel_1=nope' })).status, 403);
    assert.equal((await call(port, '/api/state', { cookie, origin: 'http://evil.example' })).status, 403);
    assert.equal((await call(port, '/api/state', { cookie, host: `evil.example:${port}` })).status, 403);
    assert.equal((await call(port, '/api/state', { cookie, 'sec-fetch-site': 'cross-site' })).status, 403);
    assert.equal((await call(port, '/api/state', { cookie })).status, 200);

    const answer = confirmer.confirm(question);
    const state = JSON.parse((await call(port, '/api/state', { cookie })).text) as {
      pending: { id: string; request: ConfirmRequest }[];
    };
    assert.equal(state.pending.length, 1);
    assert.equal(state.pending[0]!.request.title, question.title);
    const id = state.pending[0]!.id;
    // A script that holds the token (or even the cookie) but is not the panel page: refused.
    assert.equal((await call(port, `/api/confirm?token=${token}`, {}, { id, choice: 'allow_once' })).status, 403);
    assert.equal(
      (await call(port, '/api/confirm', { 'x-panel-token': token }, { id, choice: 'allow_once' })).status,
      403,
    );
    assert.equal(
      (await call(port, '/api/confirm', { cookie }, { id, choice: 'allow_once' })).status,
      403,
      'no Origin: not the page',
    );
    assert.equal(
      (await call(port, '/api/confirm', { cookie, origin }, { id, choice: 'allow_always' })).status,
      400,
      'a choice not offered',
    );
    assert.equal(
      (await call(port, '/api/confirm', { cookie, 'sec-fetch-site': 'same-origin' }, { id, choice: 'allow_once' }))
        .status,
      200,
    );
    assert.equal(await answer, 'allow_once');
    assert.equal(
      (await call(port, '/api/confirm', { cookie, origin }, { id, choice: 'allow_once' })).status,
      409,
      'answered once only',
    );

    // A one-time ticket (for starting a browser) works once.
    const ticket = new URL(panel.ticketUrl()).search;
    assert.equal((await call(port, `/${ticket}`)).status, 303);
    assert.equal((await call(port, `/${ticket}`)).status, 403, 'a ticket is used once');

    assert.equal((await call(port, '/api/stop', { cookie }, {})).status, 403, 'no Origin: not the page');
    assert.equal((await call(port, '/api/stop', { cookie, origin }, {})).status, 200);
    assert.ok(existsSync(join(home, 'paused')));
    assert.equal((await call(port, '/api/resume', { cookie, origin }, {})).status, 200);
    assert.ok(!existsSync(join(home, 'paused')));
  } finally { await panel.close(); }
});

test('an unanswered question ends with confirmation_timeout', async () => {
  const confirmer = new PanelConfirmer(50);
  confirmer.running = true;
  await assert.rejects(
    confirmer.confirm(question),
    (e: Error & { code?: string }) => e.code === 'confirmation_timeout' && /Nothing was sent/.test(e.message),
  );
  assert.equal(confirmer.pending().length, 0);
});

test('tokens compare in constant time and only when equal', () => {
  assert.equal(tokenMatches('abc', 'abc'), true);
  assert.equal(tokenMatches('abd', 'abc'), false);
  assert.equal(tokenMatches(undefined, 'abc'), false);
});
