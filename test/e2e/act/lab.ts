/** The act lifecycle's test apps (test/apps/act-lab.py, composite.py) under a computer: their stdout lines, waited for.
* */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Computer, ComputerOptions } from '../../../src/index.js';
import { killApp, openComputer } from '../helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
export const LAB = join(root, 'test', 'apps', 'act-lab.py');
/** Composite controls and unlinked field labels (test/apps/composite.py), a lab of the same shape. */
export const COMPOSITE = join(root, 'test', 'apps', 'composite.py');

/** A running lab app and a computer allowed to act on it. */
export interface Lab {
  computer: Computer;
  app: ChildProcess;
  /** Audit log of the computer. */
  auditPath: string;
  /** Everything the app printed so far. */
  out(): string;
  /** Waits (event-driven, bounded) until the app printed `line`. */
  printed(line: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a lab app (`script`: act-lab.py unless given, with `args`) and a computer allowed to act on it. */
export async function startLab(options: ComputerOptions = {}, script = LAB, args: string[] = []): Promise<Lab> {
  const dir = mkdtempSync(join(tmpdir(), 'cu-act-lab-'));
  writeFileSync(join(dir, 'settings.json'), '{}', { mode: 0o600 });
  const auditPath = join(dir, 'audit.jsonl');
  const computer = await openComputer({
    allowApps: [`/usr/bin/python3 ${script}`],
    auditPath,
    settingsPath: join(dir, 'settings.json'),
    ...options,
  });
  const app = spawn('/usr/bin/python3', [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const waiters: (() => void)[] = [];
  app.stdout!.setEncoding('utf8').on('data', (d: string) => { out += d; waiters.splice(0).forEach((w) => w()); });
  const printed = async (line: string, timeoutMs = 20000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!out.split('\n').includes(line)) {
      if (Date.now() > deadline || app.exitCode !== null)
        assert.fail(`the app did not print "${line}"; it printed:\n${out}`);
      await new Promise<void>((r) => { waiters.push(r); setTimeout(r, 200); });
    }
  };
  await printed('ready');
  return {
    computer, app, auditPath, out: () => out, printed,
    close: async () => { await computer.close(); if (app.pid) await killApp(app.pid); },
  };
}
