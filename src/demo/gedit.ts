#!/usr/bin/env node
/**
 * The demo (README command 1): in the sandbox desktop (started if needed), gedit writes a mixed Chinese and
 * English paragraph, saves it through the Save As dialog, and the file is verified on disk. No screenshot.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createComputer } from '../index.js';
import { runGeditTask, type Step } from './gedit-task.js';

const PARAGRAPH = 'Computer use through the accessibility tree: 不用截图，直接读取控件树。' +
  'The agent types this paragraph, saves it with Ctrl+S, 然后在磁盘上核对文件内容。';

function printStep(s: Step, i: number): void {
  const params = JSON.stringify(s.params);
  process.stdout.write(`\n── step ${i + 1}: ${s.tool} ${params.length > 160 ? params.slice(0, 157) + '…' : params}\n`);
  process.stdout.write(s.text.split('\n').map((l) => `   │ ${l}`).join('\n') + '\n');
  process.stdout.write(
    `   └ ${s.tokens} tokens · ${s.ms} ms${s.isError ? ' · ERROR' : ''} (a screenshot of the same windows: ` +
      `${s.screenshotTokens} tokens)\n`,
  );
}

async function main(): Promise<number> {
  // The demo drives gedit only: bypass mode for gedit, so it runs without questions (the deny list still holds).
  const computer = await createComputer({ desktop: 'auto', mode: 'bypass', allowApps: ['gedit'] });
  const started = computer.desktop.started ? ' (started for this demo)' : '';
  const display = computer.desktop.sandbox ? ` ${computer.desktop.sandbox.display}${started}` : '';
  process.stdout.write(`desktop: ${computer.desktop.kind}${display}\n`);
  const dir = await mkdtemp(join(tmpdir(), 'computer-use-demo-'));
  const path = join(dir, '笔记 notes.txt');
  let i = 0;
  try {
    const r = await runGeditTask(computer, { path, text: PARAGRAPH, onStep: (s) => printStep(s, i++) });
    const tokens = r.steps.reduce((a, s) => a + s.tokens, 0);
    const shots = r.steps.reduce((a, s) => a + s.screenshotTokens, 0);
    process.stdout.write('\n── summary\n');
    process.stdout.write(`   steps: ${r.steps.length} tool calls, 0 screenshots\n`);
    process.stdout.write(`   tokens read by the model: ${tokens} (o200k)\n`);
    process.stdout.write(
      `   screenshots of the same windows, one per step: ${shots} tokens (width×height/750) → ` +
        `${(shots / Math.max(tokens, 1)).toFixed(1)}× more\n`,
    );
    process.stdout.write(
      `   wall time: ${(r.wallMs / 1000).toFixed(2)} s (tools: ${r.steps.reduce((a, s) => a + s.ms, 0)} ms)\n`,
    );
    if (r.ok) process.stdout.write(`   file: ${path}\n   content: ${JSON.stringify(r.fileContent)}\n\nPASS\n`);
    else process.stdout.write(`\nFAIL: ${r.reason}\n`);
    return r.ok ? 0 : 1;
  } finally {
    await computer.close();
  }
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}\nFAIL\n`);
  process.exitCode = 1;
});
