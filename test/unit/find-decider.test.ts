/**
 * computer_find's element disambiguation: with a tie or no hit, the decider configured in settings
 * picks among at most 20 candidates through the local scripted chat-completions server; without a decider
 * nothing changes. Through createComputer and the in-memory fake driver.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { createComputer, type Computer, type ComputerOptions } from '../../src/index.js';
import { updateSettings } from '../../src/policy/settings.js';
import { FAKE_API_KEY, FAKE_PASSWORD, widgetFactory } from '../fixtures/engine/widget-factory.js';
import { completion, sendJson, startFakeServer, type FakeServer } from './decider-fake-server.js';

const home = mkdtempSync(join(tmpdir(), 'cu-find-decider-'));
process.env['COMPUTER_USE_HOME'] = home;

const open: Computer[] = [];
const servers: FakeServer[] = [];
after(async () => {
  await Promise.all(open.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

let n = 0;
/** A computer on the widget-factory fixture, with the decider of `decider` written to its settings file. */
async function computer(decider?: Record<string, unknown>, extra: ComputerOptions = {}): Promise<Computer> {
  const dir = mkdtempSync(join(home, `c${n++}-`));
  const settingsPath = join(dir, 'settings.json');
  updateSettings(settingsPath, (s) => { if (decider) s['decider'] = decider; });
  const f = widgetFactory();
  const fake = new FakeDriver([{ info: f.window, root: f.root }]);
  const c = await createComputer({
    desktop: 'current',
    connect: () => fake.connect(),
    settingsPath,
    auditPath: join(dir, 'audit.jsonl'),
    ...extra,
  });
  open.push(c);
  return c;
}

async function serve(answer: () => Record<string, unknown> | number): Promise<FakeServer> {
  const s = await startFakeServer((_req, res) => {
    const a = answer();
    if (typeof a === 'number') sendJson(res, a, { error: { message: 'down' } }); else sendJson(res, 200, a);
  });
  servers.push(s);
  return s;
}

const userText = (s: FakeServer, i = 0): string =>
  ((s.requests[i]!.body['messages'] as { role: string; content: string }[]).find((m) => m.role === 'user')!.content);

test('several exact-name hits tie: the decider picks one ' +
    '(logprobs), returned first and marked, the rest follow', async () => {
  const srv = await serve(() => completion('B', { B: 0.7, A: 0.2, C: 0.1 }));
  const c = await computer({ mode: 'openai', baseUrl: srv.baseUrl, model: 'tiny' });
  const res = await c.tools.find({ text: 'checkbutton' });
  assert.equal(res.isError, false, res.text);
  const lines = res.text.split('\n');
  assert.match(lines[0]!, /^3 matches for "checkbutton"/);
  assert.match(lines[1]!, /checkbox "checkbutton".*\(decider's pick\)$/);
  assert.equal(lines.filter((l) => l.includes("(decider's pick)")).length, 1);
  assert.equal(lines.length, 4, 'every hit is still listed');
  // The pick is the second candidate in document order: the unchecked one (the first is checked, the third mixed).
  assert.match(lines[1]!, / unchecked/);
  assert.match(lines[2]!, / checked/);
  assert.match(lines[3]!, /mixed/);
  assert.equal(srv.requests.length, 1);
  const body = srv.requests[0]!.body;
  assert.equal(body['max_tokens'], 1);
  assert.equal(body['logprobs'], true);
  const user = userText(srv);
  assert.match(user, /^BEGIN DATA\nrequest: "checkbutton"\nA: "\[e\d+\] checkbox \\"checkbutton\\"/);
  assert.match(user, /C: ".*mixed.*"\nEND DATA/);
});

test('no text hit: the decider picks among the role\'s ' +
    'elements; app text is quoted and secrets never sent', async () => {
  const srv = await serve(() => completion('D'));
  const c = await computer({ mode: 'openai', baseUrl: srv.baseUrl, model: 'tiny' });
  const res = await c.tools.find({ text: 'the secret token field', role: 'textbox' });
  assert.equal(res.isError, false, res.text);
  const lines = res.text.split('\n');
  assert.match(
    lines[0]!,
    /^0 matches for "the secret token field" role=textbox in \[w\d+\] "GTK\+ Widget Factory"; the decider model's pick among 4 textbox elements:$/,
  );
  assert.match(lines[1]!, /textbox "API key".*\(decider's pick\)$/);
  // The notebook's other page is in no node of the tree: said not searched (find-tab-pages.test.ts).
  assert.match(lines[5] ?? '', /^\(the page of \[e\d+\] tab "Page 2" was not searched/, res.text);
  assert.equal(lines.length, 6);
  const sent = JSON.stringify(srv.requests[0]!.body);
  assert.ok(!sent.includes(FAKE_API_KEY), 'the API key in an entry is not sent');
  assert.ok(!sent.includes(FAKE_PASSWORD), 'the password is not sent');
  assert.ok(!res.text.includes(FAKE_API_KEY));
  assert.match(userText(srv), /request: "the secret token field \(role textbox\)"/);
  assert.match(userText(srv), /D: "\[e\d+\] textbox \\"API key\\"/);
});

test('a unique best hit asks nothing; no opinion (HTTP ' +
    'error, a non-label answer) leaves the order as it was', async () => {
  let reply: Record<string, unknown> | number = 500;
  const srv = await serve(() => reply);
  const c = await computer({ mode: 'openai', baseUrl: srv.baseUrl, model: 'tiny' });
  const plain = await computer();
  assert.equal((await c.tools.find({ text: 'Bold' })).text, (await plain.tools.find({ text: 'Bold' })).text);
  assert.equal(
    (await c.tools.find({ text: 'Row 1' })).text,
    (await plain.tools.find({ text: 'Row 1' })).text,
    'one exact name among substring hits is no tie',
  );
  assert.equal(srv.requests.length, 0);
  assert.equal(
    (await c.tools.find({ text: 'checkbutton' })).text,
    (await plain.tools.find({ text: 'checkbutton' })).text,
  );
  reply = completion('Z');
  assert.equal(
    (await c.tools.find({ text: 'checkbutton' })).text,
    (await plain.tools.find({ text: 'checkbutton' })).text,
  );
  assert.equal(srv.requests.length, 2);
});

test('without a decider nothing changes: ties and misses are listed as before, no question is sent', async () => {
  const c = await computer();
  const tie = await c.tools.find({ text: 'checkbutton' });
  assert.doesNotMatch(tie.text, /decider/);
  assert.deepEqual(
    tie.text
      .split('\n')
      .slice(1)
      .map((l) => /\b(?:un)?checked|mixed/.exec(l)?.[0] ?? ''),
    ['checked', 'unchecked', 'mixed'],
    'document order',
  );
  const miss = await c.tools.find({ text: 'the secret token field', role: 'textbox' });
  const [head, ...rest] = miss.text.split('\n');
  assert.match(head ?? '', /^0 matches for "the secret token field" role=textbox in \[w\d+\] "GTK\+ Widget Factory"$/);
  assert.deepEqual(rest, ['(the page of [e4] tab "Page 2" was not searched: click the tab and find again)']);
});

test('a decider given in the options is used too, and its pick is bounded to the offered candidates', async () => {
  const asked: { query: string; candidates: string[] }[] = [];
  const c = await computer(undefined, {
    decider: {
      irreversible: () => Promise.resolve(null),
      choose: (query, candidates) => { asked.push({ query, candidates }); return Promise.resolve(asked.length === 1 ? 2 : 99); },
    },
  });
  const res = await c.tools.find({ text: 'checkbutton' });
  assert.match(res.text.split('\n')[1]!, /mixed.*\(decider's pick\)$/);
  assert.equal(asked[0]!.candidates.length, 3);
  const again = await c.tools.find({ text: 'checkbutton' });
  assert.doesNotMatch(again.text, /decider's pick/, 'an index outside the candidates is no opinion');
});
