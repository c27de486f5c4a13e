/**
 * A "ghost click" on a real Mac: AXPress on an app in the background answers success and does nothing. On the
 * fake AX library with such a press, the whole host (createComputer over the macOS driver) must answer `unknown`,
 * never `confirmed`, and say why (the app was in the background and nothing changed); the same click with a press
 * that works is `confirmed` by the change it made, so the check is the effect, not the call's answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, afterEach, before, beforeEach, test } from 'node:test';
import type { DriverConnection } from '../../src/devices/stdio.js';
import { MacDriver } from '../../src/drivers/macos/driver.js';
import { oneLibrary } from '../../src/drivers/macos/ffi.js';
import { macHandlers } from '../../src/drivers/macos/main.js';
import { createComputer } from '../../src/index.js';
import { Peer } from '../../src/protocol/peer.js';
import { assertBalanced, buildFakeAx, fakeAx, MACOS_FIXTURES } from '../macos/fake-ax.js';

const LIB = buildFakeAx();
const fake = fakeAx(LIB);
let dir = '';
let driver: MacDriver | undefined;

before(() => { dir = mkdtempSync(join(tmpdir(), 'cu-mac-ghost-')); });
after(() => { rmSync(dir, { recursive: true, force: true }); });
beforeEach(() => { fake.load(join(MACOS_FIXTURES, 'textedit.json')); });
afterEach(() => { driver?.close(); driver = undefined; assertBalanced(fake); });

function connect(): DriverConnection {
  driver = new MacDriver({ libraries: oneLibrary(LIB), messagingTimeoutS: 0.3, resolve: { realpath: (p) => p } });
  const toDriver = new PassThrough();
  const toHost = new PassThrough();
  const server = new Peer(toDriver, toHost, macHandlers(driver));
  const client = new Peer(toHost, toDriver, {}, { timeoutMs: 20_000 });
  const close = (): void => { server.close('closed'); client.close('closed'); };
  return { peer: client, stderrTail: () => '', kill: close, end: async () => close() };
}

/** Observes TextEdit and clicks its Bold check box through the host; returns the act's text. */
async function clickBold(): Promise<string> {
  const c = await createComputer({ desktop: 'current', mode: 'bypass', allowApps: ['TextEdit'],
    settingsPath: join(dir, 'settings.json'), auditPath: join(dir, 'audit.jsonl'), connect, showActivity: false });
  try {
    await c.call('computer_apps', {});
    const seen = await c.call('computer_observe', { window: 'w1' });
    const ref = /\[(e\d+)\] checkbox "bold"/.exec(seen.text)?.[1];
    assert.ok(ref, seen.text);
    return (await c.call('computer_act', { actions: [{ ref, op: 'click' }] })).text;
  } finally { await c.close(); }
}

test('a press that answers success and changes nothing, on ' +
    'an app in the background, is unknown and says why', { timeout: 60_000 }, async () => {
  fake.setGhostPress(true);
  fake.setFrontmost(31337); // the user works in another app
  const text = await clickBold();
  assert.match(text, /· unknown/, text);
  assert.doesNotMatch(text, /confirmed/, text);
  assert.match(text, /in the background, where macOS may answer a press as done and do nothing \(a ghost click\)/,
    text);
  assert.match(fake.log(), /action bold AXPress \(ghost: nothing happens\)/);
});

test('the same click with a press that works is confirmed by what it changed', { timeout: 60_000 }, async () => {
  fake.setFrontmost(31337);
  const text = await clickBold();
  assert.match(text, /· confirmed/, text);
  assert.doesNotMatch(text, /ghost click/, text);
});
