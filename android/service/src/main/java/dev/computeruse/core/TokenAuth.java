package dev.computeruse.core;

import java.nio.charset.Charset;
import java.security.MessageDigest;

/**
 * The one-time token that opens a session: the host shows it to the user, the user enters it in the app, and the
 * first `hello` must carry it. It is compared in constant time (by digest, so lengths leak nothing), used once,
 * and a session that never presented it is served nothing.
 */
public final class TokenAuth {
  private static final Charset UTF8 = Charset.forName("UTF-8");
  private byte[] expected;

  public TokenAuth(String token) {
    if (token == null || token.length() < 16) throw new IllegalArgumentException("a token needs at least 16 characters");
    this.expected = digest(token);
  }

  private static byte[] digest(String s) {
    try { return MessageDigest.getInstance("SHA-256").digest(s.getBytes(UTF8)); } catch (Exception e) { throw new IllegalStateException(e); }
  }

  /** True once, for the right token; every later call (right or wrong) is false. */
  public synchronized boolean consume(String presented) {
    if (expected == null || presented == null) return false;
    boolean ok = MessageDigest.isEqual(expected, digest(presented));
    if (ok) expected = null;
    return ok;
  }
}
