/**
 * Asks the device's driver what it proves about a process (`process.identify`): the facts the policy decides
 * from, for every act and after every launch (docs/policy.md, "One app, one allow entry").
 */
import { factsOfIdentify, type ProcessFacts } from '../policy/apps.js';
import type { IdentifyParams, IdentifyResult } from '../protocol/identity.js';

/** A device's call, narrowed to the one method. */
export type IdentifyCall = (method: 'process.identify', params: IdentifyParams) => Promise<IdentifyResult>;

/** What the driver proves about a pid now, or undefined when the driver cannot say (it does not implement it). */
export async function identifyOn(call: IdentifyCall, pid: number): Promise<ProcessFacts | undefined> {
  try { return factsOfIdentify(await call('process.identify', { pid, content: true })); } catch { return undefined; }
}
