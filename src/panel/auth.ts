/**
 * Who may use the panel: only the panel's own page, in a browser the human opened, on this machine (README
 * "Threat model"). The server listens on 127.0.0.1 only and checks, on every request, a Host header naming the
 * loopback address and the panel's port (against DNS rebinding) and, when the browser sends them, the panel's
 * own Origin and a same-origin Sec-Fetch-Site (against other pages).
 *
 * The long-lived token of the URL the human is given is good for one thing: loading `/?token=…`, which sets a
 * session cookie (HttpOnly, SameSite=Strict, a value of its own) and redirects to a token-less address, so the
 * token stays out of the browser's history. A one-time ticket (60 s) does the same for the URL a browser is
 * started with, so the long-lived token is not in its argv either. Every other request needs the cookie, and
 * a state-changing one (POST) also needs proof that the panel's own page sent it: its Origin, or
 * `Sec-Fetch-Site: same-origin`. A bare POST from a script, token or not, is refused.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh secret: 32 random bytes, base64url. */
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

/** The session cookie's name: per port, since cookies of 127.0.0.1 are shared by every port. */
export const cookieName = (port: number): string => `cu_panel_${port}`;

/** The cookie a successful exchange sets. */
export function sessionCookie(port: number, value: string): string {
  return `${cookieName(port)}=${value}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The panel's sessions: the cookie values it handed out, and the one-time tickets not yet used. */
export class PanelAuth {
  private readonly sessions = new Set<string>();
  private readonly tickets = new Map<string, number>();

  constructor(readonly token: string = newToken()) {}

  /** A ticket that loads the panel once, within `ttlMs`. */
  ticket(ttlMs = 60_000): string {
    const t = newToken();
    this.tickets.set(t, Date.now() + ttlMs);
    return t;
  }

  /** Exchanges a token or unused ticket for a new session cookie value; undefined when neither is valid. */
  exchange(url: URL): string | undefined {
    const token = url.searchParams.get('token') ?? undefined;
    const ticket = url.searchParams.get('ticket') ?? undefined;
    let ok = tokenMatches(token, this.token);
    if (!ok && ticket !== undefined) {
      for (const [t, until] of [...this.tickets]) {
        if (until < Date.now()) { this.tickets.delete(t); continue; }
        if (tokenMatches(ticket, t)) { this.tickets.delete(t); ok = true; }
      }
    }
    if (!ok) return undefined;
    const value = newToken();
    this.sessions.add(value);
    return value;
  }

  /** True when the request carries a session cookie this panel handed out. */
  hasSession(req: IncomingMessage, port: number): boolean {
    const want = cookieName(port);
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq < 0 || part.slice(0, eq).trim() !== want) continue;
      const value = part.slice(eq + 1).trim();
      for (const s of this.sessions) if (tokenMatches(value, s)) return true;
    }
    return false;
  }
}

/** Why a request is refused (403) before any route runs, or undefined when it may proceed. */
export function refusal(req: IncomingMessage, url: URL, auth: PanelAuth, port: number): string | undefined {
  const origins = ownOrigins(port);
  const host = req.headers.host ?? '';
  if (!origins.some((o) => o === `http://${host}`)) return 'wrong host';
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin)) return 'foreign origin';
  // Browsers mark cross-site requests; a page elsewhere cannot use the panel even with its cookie.
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return 'cross-site request';
  // the exchange checks it
  if (req.method === 'GET' && url.pathname === '/' && (url.searchParams.has('token') || url.searchParams.has('ticket')))
    return undefined;
  if (!auth.hasSession(req, port)) return 'no panel session (open the panel URL computer-use printed)';
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    // The page's own fetch sends its Origin (and Sec-Fetch-Site: same-origin); a script's bare request sends neither.
    const sameOrigin = (origin !== undefined && origins.includes(origin)) || site === 'same-origin';
    if (!sameOrigin) return 'not sent by the panel page';
  }
  return undefined;
}
