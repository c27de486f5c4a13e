package dev.computeruse.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The service's methods over an in-memory phone: snapshot handles, every op, refusals that send nothing, keys. */
public class ServiceTest {
  private static final String TOKEN = "0123456789abcdef0123";

  private static Map<String, Object> call(RpcServer s, String method, String params) {
    @SuppressWarnings("unchecked") Map<String, Object> m = (Map<String, Object>) Json.parse(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}"));
    return m;
  }

  private static String code(Map<String, Object> answer) {
    Object e = answer.get("error");
    return e == null ? "ok" : String.valueOf(((Map<?, ?>) ((Map<?, ?>) e).get("data")).get("code"));
  }

  private static RpcServer open(FakePlatform p) {
    RpcServer s = Methods.register(new RpcServer(new TokenAuth(TOKEN)), p);
    assertTrue(s.authenticate(TOKEN));
    assertFalse("the token opens one session once", s.authenticate(TOKEN));
    return s;
  }

  /** Every node of a snapshot by name (or class when it has none). */
  private static void index(Map<?, ?> n, Map<String, Map<?, ?>> out) {
    Object name = n.get("name");
    out.put(name != null ? (String) name : (String) n.get("nativeRole"), n);
    Object kids = n.get("children");
    if (kids instanceof List) for (Object c : (List<?>) kids) index((Map<?, ?>) c, out);
  }

  private static Map<String, Map<?, ?>> snapshot(RpcServer s) {
    Map<String, Object> r = call(s, "tree.snapshot", "{\"window\":\"w1\"}");
    Map<String, Map<?, ?>> nodes = new LinkedHashMap<String, Map<?, ?>>();
    index((Map<?, ?>) ((Map<?, ?>) r.get("result")).get("root"), nodes);
    return nodes;
  }

  private static String act(String id, String op, String value) {
    return "{\"id\":" + Json.write(id) + ",\"op\":\"" + op + "\"" + (value == null ? "" : ",\"value\":" + Json.write(value)) + "}";
  }

  @Test public void helloWindowsAndAppsDescribeThePhone() {
    RpcServer s = open(FakePlatform.settings());
    Map<?, ?> hello = (Map<?, ?>) call(s, "hello", "{\"client\":\"computer-use\"}").get("result");
    assertEquals("android", hello.get("platform"));
    assertTrue(((List<?>) hello.get("methods")).contains("node.act"));
    Map<?, ?> w = (Map<?, ?>) ((List<?>) ((Map<?, ?>) call(s, "windows.list", "{}").get("result")).get("windows")).get(0);
    assertEquals("w1", w.get("id"));
    assertEquals("com.android.settings", w.get("executable"));
    assertEquals(Long.valueOf(2400), ((List<?>) w.get("bounds")).get(3));
    Map<?, ?> app = (Map<?, ?>) ((List<?>) ((Map<?, ?>) call(s, "apps.list", "{}").get("result")).get("apps")).get(0);
    assertEquals("app:com.android.settings", app.get("id"));
    assertEquals("invalid_params", code(call(s, "windows.list", "{\"bogus\":1}")));
    assertEquals("window_not_found", code(call(s, "tree.snapshot", "{\"window\":\"w9\"}")));
  }

  @Test public void opsUseTheViewsActionsOrAGestureAtItsCenter() {
    FakePlatform p = FakePlatform.settings();
    RpcServer s = open(p);
    Map<String, Map<?, ?>> n = snapshot(s);
    String sw = (String) n.get("Wi\u2011Fi").get("id");
    Map<String, Object> r = call(s, "node.act", act(sw, "toggle", null));
    assertEquals("ok", code(r));
    assertEquals("synthetic", ((Map<?, ?>) r.get("result")).get("method"));
    assertEquals("a switch that is not clickable itself is tapped at its center", "[gesture 969,399 969,399 50]", p.sent.toString());
    String row = (String) n.get("android.widget.LinearLayout").get("id");
    assertEquals("pattern", ((Map<?, ?>) call(s, "node.act", act(row, "click", null)).get("result")).get("method"));
    assertEquals("[click]", ((FakeView) p.wins.get(0).root.kids.get(1).kids.get(0)).performed.toString());
    String search = (String) n.get("Search settings").get("id");
    Map<?, ?> typed = (Map<?, ?>) call(s, "node.act", act(search, "set_value", "\u4e16\u754c \ud83d\ude00 $(rm -rf /)")).get("result");
    assertEquals("set_text (16 chars)", typed.get("detail"));
    FakeView box = p.wins.get(0).root.kids.get(0);
    assertEquals("[set_text=\u4e16\u754c \ud83d\ude00 $(rm -rf /)]", box.performed.toString());
    call(s, "node.act", act(search, "type", "!"));
    assertEquals("\u4e16\u754c \ud83d\ude00 $(rm -rf /)!", box.text);
    call(s, "node.act", act(search, "clear", null));
    assertEquals("", box.text);
    String list = (String) n.get("androidx.recyclerview.widget.RecyclerView").get("id");
    call(s, "node.act", act(list, "scroll", "up"));
    call(s, "node.act", act(list, "scroll", null));
    assertEquals("[scroll_backward, scroll_forward]", p.wins.get(0).root.kids.get(1).performed.toString());
    assertEquals("unsupported", code(call(s, "node.act", act(sw, "scroll", null))));
    assertEquals("invalid_params", code(call(s, "node.act", act(list, "scroll", "sideways"))));
  }

  @Test public void refusalsSendNothing() {
    FakePlatform p = FakePlatform.settings();
    RpcServer s = open(p);
    Map<String, Map<?, ?>> n = snapshot(s);
    assertEquals("element_disabled", code(call(s, "node.act", act((String) n.get("Disabled").get("id"), "click", null))));
    assertEquals("not_visible", code(call(s, "node.act", act((String) n.get("Below the fold").get("id"), "click", null))));
    String sw = (String) n.get("Wi\u2011Fi").get("id");
    FakeView row = p.wins.get(0).root.kids.get(1).kids.get(0);
    // Another view took the place: same path, another class → stale.
    row.kids.set(0, FakeView.of("android.widget.CheckBox"));
    assertEquals("stale_ref", code(call(s, "node.act", act(sw, "toggle", null))));
    row.kids.clear();
    assertEquals("stale_ref", code(call(s, "node.act", act(sw, "toggle", null))));
    assertEquals("stale_ref", code(call(s, "node.act", act("w1.0.0.99|x|", "click", null))));
    assertEquals("stale_ref", code(call(s, "node.act", act("not a handle", "click", null))));
    assertEquals("window_not_found", code(call(s, "node.act", act("w7.0.0|android.widget.Button|", "click", null))));
    String search = (String) n.get("Search settings").get("id");
    assertEquals("stale_ref", code(call(s, "node.act", "{\"id\":" + Json.write(search) + ",\"op\":\"click\",\"expect\":{\"role\":\"button\"}}")));
    FakeView box = p.wins.get(0).root.kids.get(0);
    box.password = true; box.text = "secret";
    assertEquals("unsupported", code(call(s, "node.act", act(search, "type", "more"))));
    box.refuse = true;
    assertEquals("action_failed", code(call(s, "node.act", act(search, "set_value", "x"))));
    assertTrue(p.sent.isEmpty());
    assertTrue(box.performed.isEmpty());
  }

  @Test public void theWindowNodesOpsAreTheGlobalActions() {
    FakePlatform p = FakePlatform.settings();
    RpcServer s = open(p);
    Map<?, ?> root = (Map<?, ?>) ((Map<?, ?>) call(s, "tree.snapshot", "{\"window\":\"w1\"}").get("result")).get("root");
    assertEquals("window", root.get("role"));
    assertEquals("[back, home, recents, notifications]", root.get("actions").toString());
    for (String op : Methods.WINDOW_OPS) assertEquals("ok", code(call(s, "node.act", act("w1", op, null))));
    assertEquals("[global back, global home, global recents, global notifications]", p.sent.toString());
    p.sent.clear();
    String sw = (String) snapshot(s).get("Wi\u2011Fi").get("id");
    assertEquals("unsupported", code(call(s, "node.act", act(sw, "back", null))));
    p.wins.get(0).focused = false;
    assertEquals("window_changed", code(call(s, "node.act", act("w1", "home", null))));
    assertEquals("window_not_found", code(call(s, "node.act", act("w2", "home", null))));
    assertEquals("method_not_found: no input.keys", Long.valueOf(-32601), ((Map<?, ?>) call(s, "input.keys", "{}").get("error")).get("code"));
    assertEquals(new ArrayList<String>(), p.sent);
  }

  @Test public void settleWaitsForAQuietScreen() {
    FakePlatform p = FakePlatform.settings();
    p.lastEvent = System.currentTimeMillis();
    Map<?, ?> r = (Map<?, ?>) call(open(p), "ui.settle", "{\"quietMs\":100,\"timeoutMs\":2000}").get("result");
    assertEquals(Boolean.TRUE, r.get("settled"));
    assertTrue(((Long) r.get("ms")).longValue() >= 90);
  }

  @Test public void nothingIsServedBeforeTheLinkToken() {
    RpcServer s = Methods.register(new RpcServer(new TokenAuth(TOKEN)), FakePlatform.settings());
    assertFalse(s.authenticate("wrong-wrong-wrong-wrong"));
    assertEquals("permission_denied", code(call(s, "tree.snapshot", "{\"window\":\"w1\"}")));
    try { new TokenAuth("short"); fail("a short token"); } catch (IllegalArgumentException expected) { /* refused */ }
  }
}
