package dev.computeruse.core;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The protocol's framing and dispatch on the phone: JSON-RPC 2.0, one object per line (docs/protocol.md), lines
 * capped, a non-JSON line answered with a parse error and never acted on. The first call must be `hello` with the
 * session's one-time token; until then every other method is refused with `permission_denied`.
 */
public final class RpcServer {
  /** The longest line accepted (the host's cap for a driver's lines is the same order). */
  public static final int MAX_LINE = 8 * 1024 * 1024;
  private static final Charset UTF8 = Charset.forName("UTF-8");

  private final Map<String, Handler> handlers = new HashMap<String, Handler>();
  private final TokenAuth auth;
  private boolean authenticated;

  public RpcServer(TokenAuth auth) { this.auth = auth; }

  /** Registers a method. `hello` is answered by the given handler after the token check. */
  public RpcServer on(String method, Handler h) { handlers.put(method, h); return this; }

  /**
   * Opens the session with a token that arrived outside hello (the pairing link's `ok` frame, PairClient); true
   * once, for the right token.
   */
  public synchronized boolean authenticate(String token) {
    if (authenticated || !auth.consume(token)) return false;
    authenticated = true;
    return true;
  }

  /** Answers one line; null for a notification (no id) or `$/cancel`. */
  public synchronized String handleLine(String line) {
    Object msg;
    try { msg = Json.parse(line); } catch (IllegalArgumentException e) { return error(null, -32700, "parse error: " + e.getMessage(), null); }
    if (!(msg instanceof Map)) return error(null, -32600, "a request is a JSON object", null);
    @SuppressWarnings("unchecked") Map<String, Object> req = (Map<String, Object>) msg;
    Object id = req.get("id");
    Object method = req.get("method");
    if (!"2.0".equals(req.get("jsonrpc")) || !(method instanceof String)) return error(id, -32600, "not a JSON-RPC 2.0 request", null);
    if ("$/cancel".equals(method)) return null;
    Object rawParams = req.containsKey("params") ? req.get("params") : new LinkedHashMap<String, Object>();
    if (!(rawParams instanceof Map)) return error(id, -32602, "params must be an object", null);
    @SuppressWarnings("unchecked") Map<String, Object> params = (Map<String, Object>) rawParams;
    if (!authenticated) {
      if (!"hello".equals(method)) return id == null ? null : error(id, -32000, "say hello with the session's token first", "permission_denied");
      Object token = params.get("token");
      if (!(token instanceof String) || !auth.consume((String) token)) return error(id, -32000, "the token is wrong or was already used: start a new session on the host", "auth_failed");
      authenticated = true;
      params = new LinkedHashMap<String, Object>(params);
      params.remove("token");
    }
    Handler h = handlers.get(method);
    if (h == null) return id == null ? null : error(id, -32601, "method not found: " + method, null);
    try {
      Object result = h.handle(params);
      if (id == null) return null;
      Map<String, Object> out = new LinkedHashMap<String, Object>();
      out.put("jsonrpc", "2.0");
      out.put("id", id);
      out.put("result", result);
      return Json.write(out);
    } catch (RpcError e) {
      return id == null ? null : error(id, -32000, e.getMessage(), e.code);
    } catch (RuntimeException e) {
      return id == null ? null : error(id, -32000, "internal error: " + e.getClass().getSimpleName(), "internal");
    }
  }

  private static String error(Object id, int code, String message, String dataCode) {
    Map<String, Object> err = new LinkedHashMap<String, Object>();
    err.put("code", Long.valueOf(code));
    err.put("message", message);
    if (dataCode != null) { Map<String, Object> data = new LinkedHashMap<String, Object>(); data.put("code", dataCode); err.put("data", data); }
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("jsonrpc", "2.0");
    out.put("id", id);
    out.put("error", err);
    return Json.write(out);
  }

  /** Serves a stream until it ends: each line in, its answer out. An over-long line is answered and skipped. */
  public void serve(InputStream in, OutputStream out) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    boolean overflow = false;
    for (int b = in.read(); b >= 0; b = in.read()) {
      if (b != '\n') {
        if (line.size() < MAX_LINE) line.write(b); else overflow = true;
        continue;
      }
      String answer = overflow ? error(null, -32600, "line over " + MAX_LINE + " bytes", null) : handleLine(new String(line.toByteArray(), UTF8));
      line.reset();
      overflow = false;
      if (answer != null) { out.write(answer.getBytes(UTF8)); out.write('\n'); out.flush(); }
    }
  }
}
