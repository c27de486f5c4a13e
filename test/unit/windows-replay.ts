/**
 * The Windows driver over its helper under Mono on a recording, as the host tests need it: the assembled Notepad
 * recording with answers put first, and the driver linked to a host in this process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { DriverConnection } from '../../src/devices/stdio.js';
import { WindowsDriver } from '../../src/drivers/windows/driver.js';
import { HelperClient, helperCommand } from '../../src/drivers/windows/helper-client.js';
import { windowsHandlers } from '../../src/drivers/windows/main.js';
import { Peer } from '../../src/protocol/peer.js';

const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/windows/notepad.helper.json', import.meta.url));

/**
 * Notepad's pid in these recordings. The fixture's 4812 may be a live process here, even one of this host's
 * ancestors, which the policy refuses as the agent host itself: the recording gets a pid no Linux process can
 * have (pid_max is at most 2^22).
 */
export const PID = 2_000_004_812;

/** The Notepad fixture with `first` answering before its own answers, and the windows' process facts replaced by `proc`. */
export function notepadRecording(dir: string, name: string, first: unknown[], proc?: Record<string, unknown>): string {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8').replaceAll('"pid": 4812', `"pid": ${PID}`)) as {
    answers: { op: string; result?: { windows?: { process?: unknown }[] } }[];
  };
  if (proc) for (const a of doc.answers) if (a.op === 'windows') a.result!.windows![0]!.process = proc;
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify({ answers: [...first, ...doc.answers] }));
  return p;
}

/** The Windows driver in this process on `helper`, linked to the host in memory. */
export function connectWindows(helper: HelperClient, exe: string): DriverConnection {
  const toDriver = new PassThrough();
  const toHost = new PassThrough();
  const server = new Peer(
    toDriver,
    toHost,
    windowsHandlers(new WindowsDriver(helper), { path: exe, origin: 'compiled' }),
  );
  const client = new Peer(toHost, toDriver, {}, { timeoutMs: 20_000 });
  const close = (): void => { server.close('closed'); client.close('closed'); };
  return { peer: client, stderrTail: () => '', kill: close, end: async () => close() };
}

/** A helper on a recording, remembered in `helpers` so the test can close it. */
export function replayHelper(exe: string, rec: string, helpers: HelperClient[]): HelperClient {
  const h = new HelperClient(helperCommand(exe, ['--replay', rec]));
  helpers.push(h);
  return h;
}
