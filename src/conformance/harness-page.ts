/**
 * The harness page, served for one kit run on 127.0.0.1 at a random port and a random path: only a GET of that
 * path answers (the page, read from the package's harness/ folder at run time); anything else is a 404, so the
 * server hands nothing else on the machine to whoever connects. Closed when the run ends.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The package's harness/ folder (from dist/src/conformance/ in the package and in the repository alike). */
export function harnessDir(): string {
  return fileURLToPath(new URL('../../../harness/', import.meta.url));
}

/** A served page: its address and how to stop serving it. */
export interface ServedPage {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves harness/page.html on 127.0.0.1 until `close`. */
export async function serveHarnessPage(file = join(harnessDir(), 'page.html')): Promise<ServedPage> {
  const page = readFileSync(file);
  const path = `/${randomBytes(12).toString('hex')}/`;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res
      .writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .end(page);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
