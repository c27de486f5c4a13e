/**
 * Irreversible steps behind look-alike labels and side doors. Real GTK buttons whose labels
 * hide "Delete"/"Send"/"删除" behind a Cyrillic letter, invisible characters, Traditional Chinese, spacing or
 * full width; accept-edits mode, the app allow-listed, nobody to ask: every activation must answer
 * confirmation_required and the app must show that no button fired. Also set_value " " on a button,
 * double_click, and the space key on a focused "Delete all" button.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { killApp, ok, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const APP = join(root, 'test', 'apps', 'buttons.py');
const TITLE = 'Lookalike buttons';
const LABELS = [
  'D\u0435lete',
  'De\u200Blete',
  'Del\u00ADete',
  '刪除',
  '發送',
  '删 除',
  '\uFF33\uFF45\uFF4E\uFF44',
  '\u0405end',
  'Delete all',
  'Archive',
];

let computer: Computer;
let app: ChildProcessWithoutNullStreams;
let printed = '';

before(async () => {
  app = spawn('/usr/bin/python3', [
    APP,
    '--labels',
    LABELS.join('|'),
    '--title',
    TITLE,
    '--prgname',
    'lookalike-buttons',
  ]);
  app.stdout.setEncoding('utf8').on('data', (d: string) => { printed += d; });
  // accept-edits: irreversible steps are asked; no confirmer, so asking answers confirmation_required.
  computer = await openComputer({ mode: 'accept-edits', allowApps: [`/usr/bin/python3 ${APP}`] });
});
after(async () => {
  await computer?.close();
  if (app?.pid) await killApp(app.pid);
});

/** The refs of the window's buttons, in label order. */
async function buttonRefs(): Promise<string[]> {
  ok(await computer.tools.wait({ until: 'window_appears', text: TITLE, timeoutMs: 20000 }));
  // One line per button (a whole-window print folds a row of alike buttons to one line).
  const text = ok(await computer.tools.observe({ full: true, window: TITLE }));
  const refs = text.split('\n').filter((l) => /\] button /.test(l)).map((l) => /\[(e\d+)\]/.exec(l)?.[1] ?? '');
  assert.equal(refs.length, LABELS.length, text);
  return refs;
}

test('look-alike labels ask before a click; a plain label does not', async () => {
  const refs = await buttonRefs();
  for (const [i, ref] of refs.entries()) {
    if (LABELS[i] === 'Archive') continue;
    const r = await computer.tools.act({ actions: [{ ref, op: 'click' }] });
    assert.equal(r.code, 'confirmation_required', `${JSON.stringify(LABELS[i])}: ${r.text}`);
  }
  // The control: an ordinary button is clicked without a question, and the app reports it.
  const archive = refs[LABELS.indexOf('Archive')] ?? '';
  ok(await computer.tools.act({ actions: [{ ref: archive, op: 'click' }] }));
  await until(() => printed.includes(`activated ${LABELS.indexOf('Archive')}`));
  assert.deepEqual(activated(), [LABELS.indexOf('Archive')], printed);
});

test('set_value " ", double_click and expand on a button ask', async () => {
  const refs = await buttonRefs();
  const del = refs[LABELS.indexOf('Delete all')] ?? '';
  for (const action of [
    { ref: del, op: 'set_value', value: ' ' },
    { ref: del, op: 'double_click' },
    { ref: refs[0] ?? '', op: 'expand' },
  ] as const) {
    const r = await computer.tools.act({ actions: [action] });
    assert.equal(r.code, 'confirmation_required', `${action.op}: ${r.text}`);
  }
  assert.deepEqual(activated(), [LABELS.indexOf('Archive')], printed);
});

test('space on a focused "Delete all" button asks', async () => {
  const refs = await buttonRefs();
  const del = refs[LABELS.indexOf('Delete all')] ?? '';
  ok(await computer.tools.act({ actions: [{ ref: del, op: 'focus' }] }));
  const seen = ok(await computer.tools.observe({ full: true, window: TITLE }));
  assert.match(seen.split('\n').find((l) => l.includes(`[${del}]`)) ?? '', /focused/, seen);
  const r = await computer.tools.keys({ keys: 'space', window: TITLE });
  assert.equal(r.code, 'confirmation_required', r.text);
  const rr = await computer.tools.keys({ keys: 'Return', window: TITLE });
  assert.equal(rr.code, 'confirmation_required', rr.text);
  assert.deepEqual(activated(), [LABELS.indexOf('Archive')], printed);
});

/** Indices of the buttons the app reported as activated. */
function activated(): number[] {
  return [...printed.matchAll(/activated (\d+)/g)].map((m) => Number(m[1]));
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
}
