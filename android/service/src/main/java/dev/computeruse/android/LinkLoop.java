package dev.computeruse.android;

import dev.computeruse.core.Methods;
import dev.computeruse.core.PairClient;
import dev.computeruse.core.Platform;
import dev.computeruse.core.RpcServer;
import dev.computeruse.core.TokenAuth;
import java.io.IOException;

/**
 * Serves the phone to its paired host while the service runs: one link at a time, each a fresh RpcServer whose
 * TokenAuth the host's `ok` frame must open, redialing with backoff (1 s doubling to 30 s, as the desktop's
 * `computer-use pair`) when a link drops. A refused link (the pairing revoked, or a listener that is not the
 * host) deletes the credential; the loop then waits for the user to pair again.
 */
final class LinkLoop implements Runnable {
  private final CredentialStore store;
  private final Platform platform;
  private volatile boolean stopped;

  LinkLoop(CredentialStore store, Platform platform) { this.store = store; this.platform = platform; }

  void stop() { stopped = true; }

  @Override public void run() {
    long delay = 1000;
    while (!stopped) {
      PairClient.Credential c = store.load();
      if (c == null) {
        // Not paired yet: PairActivity stores the credential while the service runs.
        try { Thread.sleep(2000); } catch (InterruptedException e) { return; }
        continue;
      }
      long started = System.currentTimeMillis();
      int end;
      try { end = PairClient.serveOnce(c, Methods.register(new RpcServer(new TokenAuth(c.token)), platform)); } catch (IOException e) { end = 1006; }
      if (end == PairClient.CLOSE_REFUSED || end == PairClient.CLOSE_UNPAIRED) { store.delete(); continue; }
      if (System.currentTimeMillis() - started > 10000) delay = 1000;
      try { Thread.sleep(delay); } catch (InterruptedException e) { return; }
      delay = Math.min(30000, delay * 2);
    }
  }
}
