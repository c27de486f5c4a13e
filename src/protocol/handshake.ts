/**
 * The handshake (`hello`): what a driver announces about the protocol, and how the host holds it to that. A
 * driver built on this codebase derives `methods` from its handler table, so the list can never claim a method
 * the driver does not serve; a driver in another language sends the same fields (docs/protocol.md, "Handshake").
 */
import { ComputerUseError } from './errors.js';
import { METHOD_NAMES, PROTOCOL_VERSION, type HelloResult, type MethodName } from './methods.js';
import type { Handlers } from './peer.js';

/** The handshake fields of a driver serving `handlers`: this protocol version and the declared methods it implements. */
export function handshake(handlers: Handlers): Pick<HelloResult, 'protocolVersion' | 'methods'> {
  return { protocolVersion: PROTOCOL_VERSION, methods: METHOD_NAMES.filter((m) => typeof handlers[m] === 'function') };
}

/** The MAJOR part of a semver string (NaN when it is not one). */
function major(version: string): number {
  const m = /^(\d+)\.\d+\.\d+$/.exec(version);
  return m?.[1] ? Number(m[1]) : Number.NaN;
}

/**
 * Refuses a driver of another MAJOR protocol version (semver: a major change breaks the contract, a minor one only
 * adds). Throws `protocol_mismatch` saying both versions and what to do.
 */
export function checkProtocolVersion(hello: Pick<HelloResult, 'protocolVersion' | 'platform' | 'version'>): void {
  if (major(hello.protocolVersion) === major(PROTOCOL_VERSION)) return;
  throw new ComputerUseError(
    'protocol_mismatch',
    `The ${hello.platform} driver (version ${hello.version}) speaks protocol ${hello.protocolVersion}; ` +
      `this host speaks ${PROTOCOL_VERSION}. ` +
      'Nothing was sent. Update the driver (or this host) so both speak the same major version.',
    { protocolVersion: hello.protocolVersion, hostProtocolVersion: PROTOCOL_VERSION },
  );
}

/** The methods a hello lists, as a set the host checks every call against. */
export function announcedMethods(hello: Pick<HelloResult, 'methods'>): ReadonlySet<string> {
  return new Set<string>(['hello', ...hello.methods]);
}

/** The error for a call to a method the driver did not list (nothing is sent). */
export function notImplemented(method: MethodName, hello: Pick<HelloResult, 'platform'>): ComputerUseError {
  return new ComputerUseError(
    'unsupported',
    `The ${hello.platform} driver does not implement ${method} (it is not in the methods its hello lists); ` +
      `nothing was sent.`,
    { method, missingMethod: method },
  );
}
