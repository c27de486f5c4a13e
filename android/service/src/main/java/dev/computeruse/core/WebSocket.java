package dev.computeruse.core;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The client end of a WebSocket (RFC 6455), text frames only, as the pairing link needs it (src/devices/pair-link.ts
 * is the server): no Origin header (the server refuses browsers), no redirects, masked frames out, frames and
 * messages capped, pings answered, and a server silent for two read timeouts treated as gone.
 */
public final class WebSocket implements Closeable {
  /** The largest message accepted (the server's cap for a driver link). */
  public static final int MAX_MESSAGE = 32 * 1024 * 1024;
  private static final Charset UTF8 = Charset.forName("UTF-8");
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
  private static final int READ_TIMEOUT_MS = 25000;

  /** The link was closed by the server: its close code and reason. */
  public static final class Closed extends IOException {
    private static final long serialVersionUID = 1L;
    /** The close code (1006 when the connection dropped without one). */
    public final int code;
    public final String reason;
    Closed(int code, String reason) { super(code + " " + reason); this.code = code; this.reason = reason; }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final SecureRandom random = new SecureRandom();
  private boolean pinged;

  private WebSocket(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Whether a host is loopback (the same rule as the host's pairing.ts isLoopback). */
  static boolean isLoopback(String host) {
    return "localhost".equals(host) || "::1".equals(host) || "[::1]".equals(host) || host.matches("^127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$");
  }

  /**
   * Dials ws://host:port (loopback only: on a phone that is `adb reverse`) or wss://host:port (TLS, the
   * certificate checked against the system's CAs and the host name), and upgrades.
   */
  public static WebSocket connect(String url) throws IOException {
    URI u;
    try { u = new URI(url); } catch (URISyntaxException e) { throw new IOException("not a pairing address: " + e.getMessage()); }
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    String host = u.getHost();
    boolean tls = "wss".equals(scheme);
    if (!tls && !"ws".equals(scheme) || host == null || u.getRawUserInfo() != null || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !"/".equals(u.getRawPath())) || u.getRawQuery() != null) {
      throw new IOException("not a pairing address: write ws://127.0.0.1:PORT (over adb reverse) or wss://host:PORT");
    }
    if (!tls && !isLoopback(host)) throw new IOException("pairing without TLS is only allowed on loopback (adb reverse tcp:PORT tcp:PORT), not on " + host);
    int port = u.getPort() > 0 ? u.getPort() : tls ? 443 : 80;
    Socket s;
    if (tls) {
      SSLSocket ssl = (SSLSocket) SSLSocketFactory.getDefault().createSocket();
      SSLParameters params = ssl.getSSLParameters();
      params.setEndpointIdentificationAlgorithm("HTTPS");
      ssl.setSSLParameters(params);
      s = ssl;
    } else {
      s = new Socket();
    }
    try {
      s.connect(new InetSocketAddress(host.replace("[", "").replace("]", ""), port), 10000);
      s.setSoTimeout(10000);
      WebSocket ws = new WebSocket(s);
      ws.handshake((host.contains(":") ? "[" + host + "]" : host) + ":" + port);
      s.setSoTimeout(READ_TIMEOUT_MS);
      return ws;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  private void handshake(String hostHeader) throws IOException {
    byte[] nonce = new byte[16];
    random.nextBytes(nonce);
    String key = Base64.getEncoder().encodeToString(nonce);
    String request = "GET / HTTP/1.1\r\nHost: " + hostHeader + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
    out.write(request.getBytes(UTF8));
    out.flush();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!endsWithBlankLine(head)) {
      int b = in.read();
      if (b < 0) throw new IOException("the server closed the connection during the handshake");
      head.write(b);
      if (head.size() > 8192) throw new IOException("the server's handshake is too long");
    }
    String[] lines = new String(head.toByteArray(), UTF8).split("\r\n");
    if (!lines[0].matches("^HTTP/1\\.1 101( .*)?$")) throw new IOException("the server did not upgrade to a WebSocket: " + lines[0].replaceAll("[^\\x20-\\x7e]", "?"));
    String expected;
    try { expected = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(UTF8))); } catch (Exception e) { throw new IllegalStateException(e); }
    boolean accepted = false;
    for (String line : lines) {
      int colon = line.indexOf(':');
      if (colon > 0 && "sec-websocket-accept".equals(line.substring(0, colon).trim().toLowerCase(Locale.ROOT))) accepted = expected.equals(line.substring(colon + 1).trim());
    }
    if (!accepted) throw new IOException("the server's handshake answer does not match the key");
  }

  private static boolean endsWithBlankLine(ByteArrayOutputStream b) {
    byte[] a = b.toByteArray();
    int n = a.length;
    return n >= 4 && a[n - 4] == '\r' && a[n - 3] == '\n' && a[n - 2] == '\r' && a[n - 1] == '\n';
  }

  /** Sends one text message. */
  public void send(String text) throws IOException { frame(0x1, text.getBytes(UTF8)); }

  private synchronized void frame(int opcode, byte[] payload) throws IOException {
    ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 14);
    f.write(0x80 | opcode);
    int n = payload.length;
    if (n < 126) f.write(0x80 | n);
    else if (n < 65536) { f.write(0x80 | 126); f.write(n >>> 8); f.write(n & 0xff); }
    else { f.write(0x80 | 127); for (int k = 7; k >= 0; k--) f.write(k >= 4 ? 0 : (n >>> (8 * k)) & 0xff); }
    byte[] mask = new byte[4];
    random.nextBytes(mask);
    f.write(mask, 0, 4);
    for (int i = 0; i < n; i++) f.write(payload[i] ^ mask[i & 3]);
    out.write(f.toByteArray());
    out.flush();
  }

  /** The next text message; binary messages are skipped. Throws Closed when the server closes the link. */
  public String read() throws IOException {
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    int kind = -1;
    for (;;) {
      int b0, b1;
      try { b0 = in.read(); } catch (SocketTimeoutException e) {
        // A silent server is pinged once; silent through the next timeout too, it is gone (a network cut).
        if (pinged) throw new Closed(1006, "the server stopped answering");
        pinged = true;
        frame(0x9, new byte[0]);
        continue;
      }
      if (b0 < 0 || (b1 = in.read()) < 0) throw new Closed(1006, "the connection dropped");
      pinged = false;
      int opcode = b0 & 0x0f;
      if ((b1 & 0x80) != 0) { fail(1002, "a server frame was masked"); }
      long len = b1 & 0x7f;
      if (len == 126) len = (readByte() << 8) | readByte();
      else if (len == 127) { len = 0; for (int k = 0; k < 8; k++) len = (len << 8) | readByte(); }
      if (len < 0 || len + message.size() > MAX_MESSAGE) fail(1009, "message over " + MAX_MESSAGE + " bytes");
      byte[] payload = new byte[(int) len];
      for (int off = 0; off < payload.length; ) {
        int got = in.read(payload, off, payload.length - off);
        if (got < 0) throw new Closed(1006, "the connection dropped");
        off += got;
      }
      if (opcode == 0x8) {
        int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
        String reason = payload.length > 2 ? new String(payload, 2, payload.length - 2, UTF8) : "";
        try { frame(0x8, payload.length >= 2 ? new byte[] {payload[0], payload[1]} : new byte[0]); } catch (IOException ignored) { /* gone already */ }
        socket.close();
        throw new Closed(code, reason);
      }
      if (opcode == 0x9) { frame(0xA, payload); continue; }
      if (opcode == 0xA) continue;
      if (opcode == 0x1 || opcode == 0x2) { if (kind != -1) fail(1002, "a new message began inside a fragmented one"); kind = opcode; }
      else if (opcode != 0x0 || kind == -1) fail(1002, "unknown frame " + opcode);
      message.write(payload, 0, payload.length);
      if ((b0 & 0x80) == 0) continue;
      if (kind == 0x1) return new String(message.toByteArray(), UTF8);
      message.reset();
      kind = -1;
    }
  }

  private long readByte() throws IOException {
    int b = in.read();
    if (b < 0) throw new Closed(1006, "the connection dropped");
    return b;
  }

  private void fail(int code, String why) throws IOException {
    close(code, why);
    throw new Closed(code, why);
  }

  /** Closes with a code and reason (best effort), then the socket. */
  public void close(int code, String reason) {
    byte[] r = reason.getBytes(UTF8);
    byte[] p = new byte[2 + Math.min(r.length, 120)];
    p[0] = (byte) (code >>> 8); p[1] = (byte) code;
    System.arraycopy(r, 0, p, 2, p.length - 2);
    try { frame(0x8, p); } catch (IOException ignored) { /* gone already */ }
    try { socket.close(); } catch (IOException ignored) { /* closed */ }
  }

  @Override public void close() { close(1000, "closed"); }
}
