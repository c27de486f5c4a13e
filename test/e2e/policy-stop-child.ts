/**
 * Child process of policy-stop.test.ts (does nothing unless started with `--child`): a computer in bypass mode
 * for zenity that runs acts on command (one JSON line per command on stdin, one JSON line per result on stdout).
 */
import { createInterface } from 'node:readline';
import { createComputer } from '../../src/index.js';

async function child(title: string): Promise<void> {
  const say = (o: object): void => { process.stdout.write(JSON.stringify(o) + '\n'); };
  const computer = await createComputer({ desktop: 'current', mode: 'bypass', allowApps: ['zenity'] });
  const waited = await computer.tools.wait({ until: 'window_appears', text: title, timeoutMs: 20000 });
  const ref = /\[(e\d+)\] textbox/.exec(waited.text)?.[1];
  if (!ref) { say({ event: 'error', text: waited.text }); process.exit(1); }
  say({ event: 'ready', ref });
  for await (const line of createInterface({ input: process.stdin })) {
    const cmd = line.trim();
    if (cmd === 'exit') break;
    const long = cmd === 'act-long';
    const started = Date.now();
    say({ event: 'started', cmd });
    const r = await computer.tools.act({
      actions: [{ ref, op: 'focus' }],
      ...(long ? { settle: { quietMs: 5000, timeoutMs: 30000 } } : {}),
    });
    say({
      event: 'result',
      cmd,
      code: r.code ?? 'ok',
      isError: r.isError,
      at: Date.now(),
      ms: Date.now() - started,
      text: r.text,
    });
  }
  await computer.close();
  process.exit(0);
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? 'Stop test');
