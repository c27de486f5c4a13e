/**
 * The one hand-over of a session's acting device. A session entrusts the Device it was made with here and keeps
 * only its read-only face (ReadDevice: no acting method type-checks on it); the acting pipeline (pipeline.ts)
 * takes the Device back for a step the gate approved. Lint lets no other module import `actingDevice`
 * (eslint.config.js), so the types and that one rule are the whole guard: nothing is patched at run time.
 */
import type { Device, ReadDevice } from '../devices/manager.js';

const entrusted = new WeakMap<object, Device>();

/** Keeps `device` for the acting pipeline of `owner` and returns the read-only face the owner holds. */
export function entrust(owner: object, device: Device): ReadDevice {
  entrusted.set(owner, device);
  return device;
}

/** The acting device entrusted by `owner` (the acting pipeline's alone), or undefined. */
export function actingDevice(owner: object): Device | undefined {
  return entrusted.get(owner);
}
