/**
 * A paired device's driver that lies (test/fixtures/hostile.ts): served on stdio by `servePaired` in
 * outside-text.test.ts, so every answer crosses a real pairing link. Its channel, details and errors carry
 * forged lines.
 */
import { Peer } from '../../../src/protocol/peer.js';
import { HOSTILE, HostileDriver } from '../../fixtures/hostile.js';

const driver = new HostileDriver(HOSTILE[9]!);
const peer = new Peer(process.stdin, process.stdout, driver.handlers());
peer.onClose(() => process.exit(0));
