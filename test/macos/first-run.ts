#!/usr/bin/env node
/**
 * `node dist/test/macos/first-run.js`, for .github/workflows/macos.yml: screen.capture of a TextEdit window
 * that is not in front (Finder is activated after it) takes its pixels from `screencapture -l` (ScreenCaptureKit
 * inside on the macOS versions that have it) and says so; the PNG is the window's size. It cannot run on Linux
 * (test/unit/macos-screencapture.test.ts runs the same path on the fake library with a stand-in tool).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { MacDriver } from '../../src/drivers/macos/driver.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  execFileSync('/usr/bin/open', ['-a', 'TextEdit']);
  await sleep(3000);
  execFileSync('/usr/bin/open', ['-a', 'Finder']);
  await sleep(1000);
  const d = new MacDriver();
  try {
    const te = d.apps().find((a) => /TextEdit/.test(a.name));
    const w = te?.windows[0];
    assert.ok(w, `a TextEdit window: ${JSON.stringify(d.apps().map((a) => a.name))}`);
    const r = d.capture({ window: w.id, maxEdge: 800 });
    const size = `${r.geometry.width}x${r.geometry.height}`;
    process.stdout.write(`capture: ${r.detail ?? '(no detail)'} ${size} in ${r.ms} ms\n`);
    assert.match(r.detail ?? '', /^screencapture -l/, 'the system tool ran, not the obsoleted call');
    assert.ok(r.geometry.width > 0 && r.geometry.height > 0);
  } finally { d.close(); }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
