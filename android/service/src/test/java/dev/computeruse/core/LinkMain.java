package dev.computeruse.core;

import java.io.IOException;

/**
 * The phone's link end off the phone, for test/unit/android-service-link: `pair URL CODE` proves the code, then
 * serves the Settings FakePlatform over authenticated links (redialing while the host restarts its listener),
 * printing each link's close code; `serve URL ID SECRET TOKEN` serves with given credentials.
 */
public final class LinkMain {
  private LinkMain() {}

  public static void main(String[] args) throws Exception {
    PairClient.Credential c;
    if ("pair".equals(args[0])) {
      try { c = PairClient.pair(args[1], args[2]); } catch (RpcError e) { System.out.println("refused: " + e.getMessage()); return; }
      System.out.println("paired " + c.name);
    } else {
      c = new PairClient.Credential(args[1], args[2], args[3], "", args[4]);
    }
    FakePlatform phone = FakePlatform.settings();
    for (int tries = 0; tries < 50; tries++) {
      int end;
      try { end = PairClient.serveOnce(c, Methods.register(new RpcServer(new TokenAuth(c.token)), phone)); } catch (IOException e) { Thread.sleep(100); continue; }
      System.out.println("link ended " + end + " sent " + phone.sent);
      if (end == PairClient.CLOSE_REFUSED || end == 1000) return;
      Thread.sleep(100);
    }
  }
}
