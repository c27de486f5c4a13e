package dev.computeruse.core;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The phone's end of the project's pairing protocol (src/devices/pair-link.ts): the phone dials the host, proves
 * the one-time code once (`pair`) and keeps the credentials it gets, then on every link proves them (`auth`) and
 * serves the protocol's methods, one JSON-RPC line per frame.
 *
 * The host proves itself too: when pairing, the phone gives the host a random link token it keeps; the host's
 * `ok` frame must carry it back, and it opens the session's TokenAuth. A program on the phone that listens on the
 * paired port in the host's place (nothing stops an app from binding 127.0.0.1 when `adb reverse` is down) never
 * saw the token, so it is served nothing.
 */
public final class PairClient {
  /** Close codes of the pairing link (pairing.ts CLOSE). */
  public static final int CLOSE_PAIRED = 4000, CLOSE_REFUSED = 4001, CLOSE_BAD_CODE = 4003, CLOSE_UNPAIRED = 4004;

  private PairClient() {}

  /** What the phone keeps about its host (the app stores it privately). */
  public static final class Credential {
    public final String server, id, secret, name, token;
    public Credential(String server, String id, String secret, String name, String token) {
      this.server = server; this.id = id; this.secret = secret; this.name = name; this.token = token;
    }
  }

  /** A random link token: 256 bits, base64url (what the host's registry accepts). */
  public static String newToken() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static Map<String, Object> frame(String... kv) {
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    for (int i = 0; i + 1 < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
    return m;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> answer(WebSocket ws) throws IOException {
    Object msg;
    try { msg = Json.parse(ws.read()); } catch (IllegalArgumentException e) { ws.close(1002, "bad answer"); throw new WebSocket.Closed(1002, "bad answer"); }
    if (!(msg instanceof Map)) { ws.close(1002, "bad answer"); throw new WebSocket.Closed(1002, "bad answer"); }
    return (Map<String, Object>) msg;
  }

  /** Proves a one-time code; returns the credentials to keep. Throws RpcError auth_failed when refused. */
  public static Credential pair(String server, String code) throws IOException, RpcError {
    String token = newToken();
    WebSocket ws = WebSocket.connect(server);
    Map<String, Object> msg;
    try {
      ws.send(Json.write(frame("t", "pair", "code", code, "token", token)));
      msg = answer(ws);
    } catch (WebSocket.Closed e) {
      throw new RpcError("auth_failed", "the host refused the pairing: " + e.reason);
    } finally {
      ws.close(1000, "paired");
    }
    Object id = msg.get("id"), secret = msg.get("secret"), name = msg.get("name");
    // Only plain values are kept: what a host sends is stored and shown.
    if (!"paired".equals(msg.get("t")) || !(id instanceof String) || !((String) id).matches("^[0-9a-f]{32}$") || !(secret instanceof String) || !((String) secret).matches("^[A-Za-z0-9_-]{16,256}$")) {
      throw new RpcError("auth_failed", "the host answered with malformed credentials; nothing was kept");
    }
    String shown = name instanceof String && ((String) name).matches("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$") ? (String) name : "";
    return new Credential(server, (String) id, (String) secret, shown, token);
  }

  /** Whether two strings are equal, in constant time for their length (both are hashed first). */
  static boolean safeEqual(String a, String b) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      byte[] ha = d.digest(a.getBytes("UTF-8"));
      return MessageDigest.isEqual(ha, MessageDigest.getInstance("SHA-256").digest(b.getBytes("UTF-8")));
    } catch (Exception e) { throw new IllegalStateException(e); }
  }

  /**
   * One authenticated link: proves the credentials, checks the host's token, then serves `server`'s methods
   * until the link ends. Returns the close code (CLOSE_REFUSED: the pairing was revoked, or the host could not
   * prove itself; do not retry).
   */
  public static int serveOnce(Credential c, RpcServer server) throws IOException {
    WebSocket ws = WebSocket.connect(c.server);
    try {
      ws.send(Json.write(frame("t", "auth", "id", c.id, "secret", c.secret)));
      Map<String, Object> ok = answer(ws);
      Object token = ok.get("token");
      if (!"ok".equals(ok.get("t")) || !(token instanceof String) || !safeEqual((String) token, c.token) || !server.authenticate((String) token)) {
        ws.close(CLOSE_REFUSED, "the host did not prove the pairing");
        return CLOSE_REFUSED;
      }
      for (;;) {
        String answer = server.handleLine(ws.read());
        if (answer != null) ws.send(answer);
      }
    } catch (WebSocket.Closed e) {
      return e.code;
    } finally {
      ws.close(1000, "link ended");
    }
  }
}
