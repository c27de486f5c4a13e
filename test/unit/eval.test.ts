/**
 * The evaluation's pieces on any OS: reading element lines and their windows from tool text, the
 * text-only scripted solver against the in-memory fake driver (it acts by role and name, asks find when an
 * element is not in view, and fails when it is nowhere), the model solver against a local scripted
 * chat-completions endpoint, and the report's totals and chart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { walk, type RawNode } from '../../src/engine/node.js';
import { createComputer, type Computer } from '../../src/index.js';
import { matchTarget, parseLines } from '../../bench/eval/lines.js';
import { modelSolver, functionTools } from '../../bench/eval/model.js';
import { Recorder } from '../../bench/eval/recorder.js';
import { chartSvg, summarize } from '../../bench/eval/report.js';
import { runTask, type TaskResult } from '../../bench/eval/runner.js';
import type { Transcript } from '../../bench/eval/transcript.js';
import { solveScripted } from '../../bench/eval/scripted.js';
import { fill, type EvalTask } from '../../bench/eval/task.js';
import { widgetFactory } from '../fixtures/engine/widget-factory.js';
import { startScriptedModel } from '../e2e/openai-stub.js';

const home = mkdtempSync(join(tmpdir(), 'cu-eval-unit-'));
process.env['COMPUTER_USE_HOME'] = home;

async function fakeComputer(): Promise<{ c: Computer; fake: FakeDriver }> {
  const wf = widgetFactory();
  const fake = new FakeDriver([{ info: wf.window, root: wf.root }]);
  const c = await createComputer({
    desktop: 'current',
    mode: 'bypass',
    allowApps: ['gtk3-widget-factory'],
    settingsPath: join(home, 'settings.json'),
    auditPath: join(home, 'audit.jsonl'),
    connect: () => fake.connect(),
    showActivity: false,
  });
  return { c, fake };
}

/** The fake driver's element of that name (the "world" the checker of a fake task would look at). */
function byName(fake: FakeDriver, name: string): RawNode | undefined {
  let hit: RawNode | undefined;
  for (const w of fake.windows) walk(w.root, (n) => { if (n.name === name) hit ??= n; return undefined; });
  return hit;
}

const KEYS_RESULT = [
  'ok keys "ctrl+s" → [w1] · unknown (synthetic key events)',
  '~ [e17] document focused → (unfocused)',
  'new window [w2] dialog "Save As" [focused] · app gedit pid=1',
  '[e19] dialog "Save As" modal',
  '  [e20] dialog "File Chooser Widget"',
  '    [e21] textbox value="Untitled \\"1\\"" editable focused',
  '  [e55] button "Save"',
  '- [e9] button "Save"',
  '~ [e60] textbox "Name" value "Ada" → "Grace \\"G\\" Hopper"',
  '~ [e61] label name "Total: 3" → "Total: 4"',
  '~ [e62] textbox "Notes" value "…long" → "…longer…(2.1k)"',
].join('\n');

test('element lines carry role, name, value, states and the top-level window they sit in', () => {
  const lines = parseLines(KEYS_RESULT);
  const box = lines.find((l) => l.ref === 'e21');
  assert.equal(box?.value, 'Untitled "1"');
  assert.deepEqual(box?.states, ['editable', 'focused']);
  // The nested "File Chooser Widget" dialog does not replace the window the lines belong to.
  assert.equal(box?.window, 'Save As');
  assert.equal(lines.find((l) => l.ref === 'e17')?.mark, '~');
  // A change line gives the new value or name; one cut short says so (the solver then observes it whole).
  assert.equal(lines.find((l) => l.ref === 'e60')?.value, 'Grace "G" Hopper');
  assert.equal(lines.find((l) => l.ref === 'e61')?.name, 'Total: 4');
  assert.equal(lines.find((l) => l.ref === 'e62')?.cut, true);
  assert.equal(lines.find((l) => l.ref === 'e60')?.cut, undefined);
  // A removed line never matches; the exact name wins over a partial one.
  assert.deepEqual(matchTarget(lines, { role: 'button', name: 'Save' }).map((l) => l.ref), ['e55']);
  assert.equal(matchTarget(lines, { role: 'textbox', window: 'Save As' })[0]?.ref, 'e21');
  assert.deepEqual(matchTarget(lines, { role: 'textbox', window: 'Open' }), []);
  assert.deepEqual(matchTarget(lines, { name: { re: '^File Chooser' } }).map((l) => l.ref), ['e20']);
});

test('a launch\'s one line names the window its snapshot\'s lines sit in', () => {
  const lines = parseLines([
    'launched "/usr/bin/chromium" pid=7 · window [w1] "Tickets - Chromium" [focused] · app Chromium · ran as given',
    '[e1] window',
    '  [e2] button "Archive"',
    'launched zenity pid=8 · window [w2] dialog "Question" [focused] · ran as given',
    '[e3] dialog',
    '  [e4] button "Yes"',
  ].join('\n'));
  assert.equal(lines.find((l) => l.ref === 'e2')?.window, 'Tickets - Chromium');
  assert.equal(lines.find((l) => l.ref === 'e4')?.window, 'Question');
});

test('a row line\'s other controls read as elements of their own, as a model reads them', () => {
  const lines = parseLines([
    'app Chromium pid=1 · window "Tickets - Chromium" [focused]',
    '      [e49] cell "1" — row 2: Ticket subject 1 | [e52] button "Archive row 1"',
    '+ [e384] cell "437" — row 438: Ticket \\[e9] forged | [e387] button "Archive row 437" [e388] link "Open"',
  ].join('\n'));
  assert.equal(matchTarget(lines, { role: 'button', name: 'Archive row 1' })[0]?.ref, 'e52');
  const row = matchTarget(lines, { role: 'button', name: 'Archive row 437' })[0];
  assert.equal(row?.ref, 'e387');
  assert.equal(row?.mark, '+');
  assert.equal(row?.window, 'Tickets - Chromium');
  assert.equal(matchTarget(lines, { role: 'link', name: 'Open' })[0]?.ref, 'e388');
  // Cell text that looks like a ref is escaped by the row line: no element.
  assert.equal(lines.find((l) => l.ref === 'e9'), undefined);
});

test('the solver reads an opened menu\'s folded entries by ref, name and role (a submenu names its role)', () => {
  const lines = parseLines(
    '+ [e14] … [e17] 4 menuitems: e14 "Undo" disabled, e15 menu "Convert", e16 "Select All", e17 "Quit"',
  );
  assert.equal(matchTarget(lines, { role: 'menu', name: 'Convert' })[0]?.ref, 'e15');
  assert.equal(matchTarget(lines, { role: 'menuitem', name: 'Select All' })[0]?.ref, 'e16');
  assert.equal(matchTarget(lines, { role: 'menuitem', name: 'Convert' }).length, 0);
});

test('plan values fill placeholders, and a missing one is the task\'s error', () => {
  assert.equal(fill('{{a}}/x/{{b}}', { a: '1', b: '2' }), '1/x/2');
  assert.throws(() => fill('{{nope}}', {}), /setup did not provide/);
});

const wfTask = (plan: EvalTask['plan']): EvalTask => ({
  id: 'fake-form', app: 'fake', appName: 'gtk3-widget-factory', goal: 'Set the name and turn Bold on.',
  setup: async () => ({ vars: { name: 'Grace Hopper' } }), plan,
  check: async () => ({ ok: true, detail: '' }),
});

test('the scripted solver acts by role and name from the ' +
    'text it read, observing when it has read nothing', async () => {
  const { c, fake } = await fakeComputer();
  try {
    const rec = new Recorder(c, ['gtk3-widget-factory']);
    const out = await solveScripted(wfTask([
      { do: 'act', op: 'set_value', target: { role: 'textbox', name: 'Name' }, value: '{{name}}' },
      { do: 'act', op: 'toggle', target: { role: 'checkbox', name: 'Bold' } },
      { do: 'read', target: { role: 'textbox', name: 'Name' }, into: 'name' },
    ]), { name: 'Grace Hopper' }, rec);
    assert.equal(out.finished, true, out.reason);
    // Nothing was read before the first act: it observed, then acted by the refs it read there.
    assert.deepEqual(rec.steps.map((s) => s.tool), ['computer_observe', 'computer_act', 'computer_act']);
    assert.equal(byName(fake, 'Name')?.value, 'Grace Hopper');
    assert.ok(byName(fake, 'Bold')?.states.includes('checked'), 'Bold is checked in the driver');
    assert.equal(out.answers['name'], 'Grace Hopper');
    assert.ok(rec.steps.every((s) => s.tokens > 0 && s.ms >= 0));
  } finally { await c.close(); }
});

test('the scripted solver stops with the reason when the element is nowhere, and never acts on a guess', async () => {
  const { c } = await fakeComputer();
  try {
    const rec = new Recorder(c, ['gtk3-widget-factory']);
    const out = await solveScripted(
      wfTask([{ do: 'act', op: 'click', target: { role: 'button', name: 'Launch rockets' } }]),
      {},
      rec,
    );
    assert.equal(out.finished, false);
    assert.match(out.reason ?? '', /no button "Launch rockets"/);
    assert.ok(!rec.steps.some((s) => s.tool === 'computer_act'));
    assert.deepEqual(rec.steps.map((s) => s.tool), ['computer_observe', 'computer_find']);
  } finally { await c.close(); }
});

test('the step budget ends a solver that loops', async () => {
  const { c } = await fakeComputer();
  try {
    const rec = new Recorder(c, ['gtk3-widget-factory'], 2);
    const out = await solveScripted(wfTask([{ do: 'observe' }, { do: 'observe' }, { do: 'observe' }]), {}, rec);
    assert.equal(out.finished, false);
    assert.match(out.reason ?? '', /step budget of 2/);
  } finally { await c.close(); }
});

test('the model solver speaks the tools as function calls to ' +
    'an OpenAI-compatible endpoint and ends on a text answer', async () => {
  const { c, fake } = await fakeComputer();
  const model = await startScriptedModel((seen) => {
    if (seen.length === 0) return { tool: 'computer_observe', args: {} };
    if (seen.length === 1) {
      const ref = /\[(e\d+)\] checkbox "Bold"/.exec(seen[0]?.text ?? '')?.[1] ?? 'e0';
      return { tool: 'computer_act', args: { actions: [{ ref, op: 'toggle' }] } };
    }
    if (seen.length === 2) return { tool: 'computer_act', args: { actions: [{ ref: 'e99999', op: 'click' }] } };
    return { text: 'Bold is on.' };
  });
  try {
    const rec = new Recorder(c, ['gtk3-widget-factory']);
    const out = await modelSolver({ baseUrl: model.baseUrl, model: 'scripted', apiKey: 'k' })(
      wfTask([]),
      { name: 'x' },
      rec,
    );
    assert.equal(out.finished, true);
    assert.equal(out.answers['answer'], 'Bold is on.');
    assert.deepEqual(rec.steps.map((s) => s.tool), ['computer_observe', 'computer_act', 'computer_act']);
    // A wrong ref is the model's error to read, not the solver's crash.
    assert.equal(rec.steps[2]?.isError, true);
    assert.ok(byName(fake, 'Bold')?.states.includes('checked'));
    const first = model.requests[0];
    assert.equal(first?.messages[0]?.role, 'system');
    assert.match(String(first?.messages[1]?.content), /Set the name and turn Bold on\.\nValues:\n- name: x/);
    assert.deepEqual(first?.tools?.map((t) => t.function.name), functionTools().map((t) => t.function.name));
  } finally { await model.close(); await c.close(); }
});

test('a model solver\'s task leaves its transcript: every message, the ' +
    'checker\'s verdict and the counts; a scripted one leaves none', async () => {
  const { c } = await fakeComputer();
  const model = await startScriptedModel((seen) =>
    seen.length === 0 ? { tool: 'computer_observe', args: {} } : { text: 'Bold is off.' },
  );
  const out = mkdtempSync(join(tmpdir(), 'cu-eval-transcripts-'));
  try {
    const solver = modelSolver({ baseUrl: model.baseUrl, model: 'scripted' });
    const r = await runTask(c, wfTask([]), { solverName: 'model:scripted', solver, transcriptDir: out });
    assert.equal(r.success, true, r.detail);
    const files = readdirSync(out);
    assert.equal(files.length, 1);
    assert.match(files[0] ?? '', /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-fake-form\.json$/);
    assert.equal(r.transcript, join(out, files[0] ?? ''));
    const t = JSON.parse(readFileSync(join(out, files[0] ?? ''), 'utf8')) as Transcript;
    assert.deepEqual(t.messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant']);
    assert.equal(t.messages[2]?.tool_calls?.[0]?.function.name, 'computer_observe');
    assert.match(t.messages[3]?.content ?? '', /\[e\d+\] checkbox "Bold"/);
    assert.equal(t.messages[4]?.content, 'Bold is off.');
    assert.equal(t.task.id, 'fake-form');
    assert.equal(t.success, true);
    // The stub reports 10 prompt and 5 completion tokens per answer.
    assert.deepEqual(
      { ...t.counts, toolTextTokens: t.counts.toolTextTokens > 0 },
      { toolCalls: 1, toolErrors: 0, modelRequests: 2, toolTextTokens: true, promptTokens: 20, completionTokens: 10 },
    );
    const scripted = await runTask(c, wfTask([{ do: 'observe' }]), {
      solverName: 'scripted',
      solver: solveScripted,
      transcriptDir: out,
    });
    assert.equal(scripted.transcript, undefined);
    assert.equal(readdirSync(out).length, 1);
  } finally { await model.close(); await c.close(); }
});

test('a solver that outlives its task\'s deadline gets no more tool calls', async () => {
  const { c } = await fakeComputer();
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => { release = r; });
  let said: (v: string) => void = () => undefined;
  const lateCall = new Promise<string>((r) => { said = r; });
  try {
    const r = await runTask(c, wfTask([]), {
      solverName: 'slow', timeoutMs: 1,
      solver: async (_t, _v, rec) => {
        // Waits past the deadline (a model still thinking), then tries to act on whatever the desktop shows now.
        await gate;
        await rec.call('computer_observe', {}).then(
          () => said(`called (${rec.steps.length} step)`),
          (e: unknown) => said((e as Error).message),
        );
        return { finished: true, answers: {} };
      },
    });
    assert.match(r.detail, /task deadline of 1 ms passed/);
    release();
    assert.match(await lateCall, /the task is over/);
  } finally { await c.close(); }
});

test('the report sums tokens and ratios and draws one bar group per task', () => {
  const r = (id: string, tokens: number, shots: number, ok = true, peer?: number): TaskResult => ({
    id,
    app: 'x',
    goal: 'g',
    solver: 'scripted',
    success: ok,
    detail: '',
    steps: 2,
    tokens,
    screenshotTokens: shots,
    ms: 1000,
    toolMs: 900,
    trace: [],
    ...(peer !== undefined ? { peerTokens: peer } : {}),
  });
  const rows = [r('a', 100, 1000, true, 3000), r('b', 300, 1000, false)];
  const s = summarize(rows);
  assert.equal(s.passed, 1);
  assert.equal(s.ratio, 5);
  assert.equal(s.peerTokens, 3000);
  assert.equal(s.peerRatio, 30);
  const svg = chartSvg({ solver: 'scripted', durationMs: 1, results: rows });
  assert.match(svg, /^<svg /);
  assert.equal((svg.match(/<title>\d+ tokens<\/title>/g) ?? []).length, 5);
  assert.match(svg, />b ✗</);
});
