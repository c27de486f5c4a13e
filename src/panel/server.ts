/**
 * The panel's HTTP server (node:http): 127.0.0.1 only, a random port, a random token in the URL the human is
 * given; every request passes the checks of auth.ts first (403 otherwise). Loading the URL trades its token for
 * a session cookie and redirects to `/p/<marker>`: the page lives at an address and under a title that carry
 * the home's panel marker, which the policy denies wherever it shows (panel-marker.ts). It serves the page, the
 * API (routes.ts) and one server-sent event stream that announces state changes (stop, pending questions),
 * appended audit records and live-view updates.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PanelAuth, refusal, sessionCookie } from './auth.js';
import { panelMarker } from '../policy/panel-marker.js';
import { AuditIndex } from './audit-index.js';
import { pageHtml } from './page.js';
import { HttpError, handleApi, stateOf, type PanelHost } from './routes.js';
import { StopController } from '../policy/stop.js';

/** A running panel. */
export interface Panel {
  /** The URL for the human (stderr): its long-lived token is exchanged for a cookie at first load. Never for the model. */
  url: string;
  /** A URL that opens the panel once within a minute (for starting a browser: no long-lived secret in its argv). */
  ticketUrl(): string;
  /** The marker the page carries in its title and address (the policy denies what shows it). */
  marker: string;
  /** How many panel pages are open (their event streams). */
  viewers(): number;
  port: number;
  close(): Promise<void>;
}

/** How often the audit log is checked for appended records while someone watches. */
const AUDIT_POLL_MS = 250;

/** Starts the panel on 127.0.0.1 and a random port (or `port`). */
export async function startPanel(host: PanelHost, opts: { port?: number } = {}): Promise<Panel> {
  const auth = new PanelAuth();
  const marker = panelMarker(host.home);
  const pagePath = `/p/${marker}`;
  const audit = new AuditIndex(host.auditPath);
  const streams = new Set<ServerResponse>();
  let port = 0;
  const send = (event: string, data: unknown): void => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const s of streams) s.write(frame);
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const why = refusal(req, url, auth, port);
    if (why) { res.writeHead(403, { 'content-type': 'text/plain' }); res.end(`forbidden: ${why}\n`); return; }
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('x-frame-options', 'DENY');
    if (req.method === 'GET' && url.pathname === '/') {
      const session = url.searchParams.has('token') || url.searchParams.has('ticket') ? auth.exchange(url) : undefined;
      if ((url.searchParams.has('token') || url.searchParams.has('ticket')) && !session) {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end('forbidden: wrong token\n');
        return;
      }
      // 303 to the token-less page: the token is not kept in the address bar or the history.
      res.writeHead(303, {
        location: pagePath,
        'cache-control': 'no-store',
        ...(session ? { 'set-cookie': sessionCookie(port, session) } : {}),
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && url.pathname === pagePath) {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy':
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
          `img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      });
      res.end(pageHtml(nonce, marker));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`event: state\ndata: ${JSON.stringify(stateOf(host))}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    handleApi(host, audit, req, res, url).then((handled) => {
      if (!handled) { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('not found\n'); }
    }, (e: unknown) => {
      const status = e instanceof HttpError ? e.status : e instanceof SyntaxError ? 400 : 500;
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`${(e as Error).message}\n`);
    });
  });

  // Announcements: pause/resume (the home's StopController sees every stop, from any process), questions,
  // live view, and appended audit records.
  const stopper = StopController.acquire(host.home);
  const offs = [
    stopper.onChange(() => send('state', stateOf(host))),
    host.confirmer.onChange(() => send('state', stateOf(host))),
    host.live.onChange(() => send('live', {})),
  ];
  audit.refresh();
  const poll = setInterval(() => {
    if (!streams.size) return;
    void stopper.paused; // re-reads the pause file: a lost watch event still reaches the page
    const added = audit.refresh();
    if (added) send('audit', { added, indexed: audit.count });
  }, AUDIT_POLL_MS);
  poll.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/?token=${auth.token}`;
  host.confirmer.running = true;
  return {
    url, port, marker, viewers: () => streams.size,
    ticketUrl: () => `http://127.0.0.1:${port}/?ticket=${auth.ticket()}`,
    close: async () => {
      host.confirmer.running = false;
      host.confirmer.declineAll();
      clearInterval(poll);
      for (const off of offs) off();
      stopper.release();
      for (const s of streams) s.end();
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
    },
  };
}
