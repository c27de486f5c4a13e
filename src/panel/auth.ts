/**
 * Who may use the panel: only a page the panel served itself, on this machine. The server listens on
 * 127.0.0.1 only; every request carries the random 32-byte token of the URL (query `token` or header
 * `x-panel-token`, compared in constant time), a Host header naming the loopback address and the panel's port
 * (against DNS rebinding) and, when the browser sends one, the panel's own Origin (against other pages).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh token: 32 random bytes, base64url. */
export function newToken(): string { return randomBytes(32).toString('base64url'); }

/** Constant-time comparison (digests of both, so lengths leak nothing either). */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** The origins the panel's own page has. */
export function ownOrigins(port: number): string[] { return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]; }

/** Why a request is refused (403), or undefined when it may proceed. */
export function refusal(req: IncomingMessage, url: URL, token: string, port: number): string | undefined {
  const origins = ownOrigins(port);
  const host = req.headers.host ?? '';
  if (!origins.some((o) => o === `http://${host}`)) return 'wrong host';
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin)) return 'foreign origin';
  // Browsers mark cross-site requests; a page elsewhere that learnt the token still cannot use it.
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return 'cross-site request';
  const header = req.headers['x-panel-token'];
  const given = typeof header === 'string' ? header : url.searchParams.get('token') ?? undefined;
  if (!tokenMatches(given, token)) return 'wrong token';
  return undefined;
}
