/** A fake accessibility bus for the Linux driver's unit tests: every call is answered by a function. */
import { A11yBus } from '../../src/drivers/linux/bus/bus.js';

/** One D-Bus method call as the fake sees it. */
export interface Msg { destination: string; path: string; interface: string; member: string; body: unknown[] }

/** An A11yBus whose calls `answer` answers (a throw is the call's D-Bus error); never peer-to-peer. */
export function busAnswering(answer: (m: Msg) => unknown[]): A11yBus {
  const messageBus = {
    call: (m: Msg) => { try { return Promise.resolve({ body: answer(m) }); } catch (e) { return Promise.reject(e); } },
    disconnect: () => undefined,
  };
  const bus = new (A11yBus as unknown as new (b: unknown, address: string) => A11yBus)(messageBus, 'fake');
  bus.p2p = false;
  return bus;
}
