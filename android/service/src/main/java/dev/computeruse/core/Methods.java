package dev.computeruse.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol methods the AccessibilityService serves (docs/protocol.md), over a Platform. Windows are the
 * system's application windows; apps group them by package (the package name is the app's identity, as in the
 * adb driver); a snapshot's root is the window, whose ops are the phone's system actions (back, home, recents,
 * notifications, as the adb driver's). There is no input.keys: an accessibility service cannot type keys into
 * other apps (text goes in by set_value).
 */
public final class Methods {
  /** The service's version, reported by hello. */
  public static final String VERSION = "0.1.0";
  /** The protocol version this code speaks. */
  public static final String PROTOCOL_VERSION = "1.0.0";
  /** The window node's ops: the system's global actions (docs/protocol.md ops back, home, recents, notifications). */
  static final String[] WINDOW_OPS = {"back", "home", "recents", "notifications"};
  private static final String[] METHODS = {"hello", "apps.list", "windows.list", "window.activate", "tree.snapshot", "node.act", "ui.settle", "events.subscribe", "shutdown"};

  private Methods() {}

  /** Registers every method on a server. */
  public static RpcServer register(RpcServer server, final Platform p) {
    server.on("hello", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return hello(p, params); } });
    server.on("apps.list", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return apps(p, params); } });
    server.on("windows.list", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return windowsList(p, params); } });
    server.on("window.activate", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return activate(p, params); } });
    server.on("tree.snapshot", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return snapshot(p, params); } });
    server.on("node.act", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return Acts.act(p, params); } });
    server.on("ui.settle", new Handler() { public Object handle(Map<String, Object> params) throws RpcError { return settle(p, params); } });
    server.on("events.subscribe", new Handler() { public Object handle(Map<String, Object> params) { return ok(); } });
    server.on("shutdown", new Handler() { public Object handle(Map<String, Object> params) { return ok(); } });
    return server;
  }

  static Map<String, Object> ok() { Map<String, Object> m = new LinkedHashMap<String, Object>(); m.put("ok", Boolean.TRUE); return m; }

  static Map<String, Object> hello(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "client");
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("protocolVersion", PROTOCOL_VERSION);
    out.put("methods", new ArrayList<Object>(Arrays.asList((Object[]) METHODS)));
    out.put("platform", "android");
    out.put("version", VERSION);
    out.put("capabilities", new ArrayList<Object>());
    Map<String, Object> perms = new LinkedHashMap<String, Object>();
    perms.put("accessibility_service", Boolean.TRUE);
    out.put("permissions", perms);
    out.put("facts", new LinkedHashMap<String, Object>(p.facts()));
    return out;
  }

  /** A window as the protocol's WindowInfo (bounds as x, y, width, height). */
  static Map<String, Object> windowInfo(WindowView w) {
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    m.put("id", w.id());
    m.put("title", w.title() == null ? "" : w.title());
    m.put("app", w.packageName());
    // An accessibility service is told no pid; 0 says so, as the adb driver does for a package without a process.
    m.put("pid", Long.valueOf(0));
    m.put("executable", w.packageName());
    m.put("role", "window");
    m.put("focused", Boolean.valueOf(w.isFocused()));
    int[] b = w.boundsInScreen();
    m.put("bounds", new ArrayList<Object>(Arrays.asList((Object) Long.valueOf(b[0]), Long.valueOf(b[1]), Long.valueOf(Math.max(0, b[2] - b[0])), Long.valueOf(Math.max(0, b[3] - b[1])))));
    return m;
  }

  /** A window as the root of its snapshot: its handle is the window's id, its ops the system actions. */
  static Map<String, Object> windowNode(WindowView w) {
    Map<String, Object> info = windowInfo(w);
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    m.put("id", w.id());
    m.put("role", "window");
    m.put("name", info.get("title"));
    m.put("states", new ArrayList<Object>());
    m.put("actions", new ArrayList<Object>(Arrays.asList((Object[]) WINDOW_OPS)));
    m.put("bounds", info.get("bounds"));
    return m;
  }

  static Map<String, Object> apps(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "withWindows");
    Map<String, Map<String, Object>> byPackage = new LinkedHashMap<String, Map<String, Object>>();
    for (WindowView w : p.windows()) {
      if (w.packageName().isEmpty()) continue;
      Map<String, Object> app = byPackage.get(w.packageName());
      if (app == null) {
        app = new LinkedHashMap<String, Object>();
        app.put("name", w.packageName());
        app.put("id", "app:" + w.packageName());
        app.put("pid", Long.valueOf(0));
        app.put("executable", w.packageName());
        app.put("windows", new ArrayList<Object>());
        byPackage.put(w.packageName(), app);
      }
      @SuppressWarnings("unchecked") List<Object> ws = (List<Object>) app.get("windows");
      ws.add(windowInfo(w));
    }
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("apps", new ArrayList<Object>(byPackage.values()));
    return out;
  }

  static Map<String, Object> windowsList(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "app", "pid");
    String app = Params.string(params, "app", false);
    List<Object> ws = new ArrayList<Object>();
    for (WindowView w : p.windows()) if (app == null || app.equals(w.packageName())) ws.add(windowInfo(w));
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("windows", ws);
    return out;
  }

  static Map<String, Object> activate(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "window");
    WindowView w = Acts.window(p, Params.string(params, "window", true));
    if (w == null) throw new RpcError("window_not_found", "that window is no longer on the screen; launch the app again");
    if (!w.isFocused()) throw new RpcError("window_not_focused", "an accessibility service cannot bring a window to the front; open the app from the launcher");
    return ok();
  }

  static Map<String, Object> snapshot(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "window", "scope", "depth", "maxNodes", "bounds", "keyBindings");
    long t0 = System.nanoTime();
    WindowView w = Acts.window(p, Params.string(params, "window", true));
    if (w == null) throw new RpcError("window_not_found", "that window is no longer on the screen; list the windows again");
    ViewNode root = w.root();
    if (root == null) throw new RpcError("window_not_found", "that window has no views (it is closing); list the windows again");
    NodeMapper mapper = new NodeMapper();
    Map<String, Object> tree = windowNode(w);
    List<Object> children = new ArrayList<Object>();
    children.add(mapper.map(root, w.id() + ".0", "window"));
    tree.put("children", children);
    Map<String, Object> stats = new LinkedHashMap<String, Object>();
    stats.put("nodes", Long.valueOf(mapper.count()));
    stats.put("ms", Double.valueOf((System.nanoTime() - t0) / 1e6));
    stats.put("truncated", Boolean.FALSE);
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("window", windowInfo(w));
    out.put("root", tree);
    out.put("stats", stats);
    return out;
  }

  /** Waits until no accessibility event came for quietMs, or timeoutMs passed. */
  static Map<String, Object> settle(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "quietMs", "timeoutMs", "window");
    long quiet = Params.count(params, "quietMs", 300), timeout = Params.count(params, "timeoutMs", 3000);
    long start = System.currentTimeMillis();
    long seen = p.lastEventAt();
    long events = 0;
    for (;;) {
      long now = System.currentTimeMillis();
      long last = p.lastEventAt();
      if (last != seen) { events++; seen = last; }
      boolean settled = now - Math.max(last, start) >= quiet;
      if (settled || now - start >= timeout) {
        Map<String, Object> out = new LinkedHashMap<String, Object>();
        out.put("settled", Boolean.valueOf(settled));
        out.put("events", Long.valueOf(events));
        out.put("ms", Long.valueOf(now - start));
        return out;
      }
      try { Thread.sleep(Math.min(50, Math.max(1, quiet / 4))); } catch (InterruptedException e) { Thread.currentThread().interrupt(); throw new RpcError("paused", "cancelled"); }
    }
  }
}
