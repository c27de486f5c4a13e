package dev.computeruse.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The AccessibilityService app's core off the phone: JSON, framing, the token, dispatch and the node mapping. */
public class CoreTest {
  private static final String TOKEN = "0123456789abcdef0123";

  @SuppressWarnings("unchecked")
  private static Map<String, Object> obj(String json) { return (Map<String, Object>) Json.parse(json); }

  @Test public void jsonRoundTripsEveryEscapeAndNonBmpText() {
    String hostile = "a\"b\\c\n\u2028\u0000\u001b[31m 世界 😀 𝒳";
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    m.put("s", hostile);
    String line = Json.write(m);
    assertFalse("one message stays one line", line.contains("\n") || line.contains("\u2028"));
    assertEquals(hostile, obj(line).get("s"));
    assertEquals("😀", obj("{\"e\":\"\\ud83d\\ude00\"}").get("e"));
    assertEquals(Long.valueOf(42), obj("{\"n\":42}").get("n"));
  }

  @Test public void malformedJsonIsRefused() {
    String[] bad = {"{", "{\"a\":1,}", "[1 2]", "{\"a\":01}", "{\"a\":\"\u0001\"}", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "nul", "\"\\x\""};
    for (String b : bad) {
      try { Json.parse(b); fail("accepted " + b); } catch (IllegalArgumentException expected) { /* refused */ }
    }
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 300; i++) deep.append('[');
    try { Json.parse(deep.toString()); fail("accepted 300 levels"); } catch (IllegalArgumentException expected) { /* capped */ }
  }

  private RpcServer server() {
    return new RpcServer(new TokenAuth(TOKEN))
      .on("hello", new Handler() { public Object handle(Map<String, Object> p) { Map<String, Object> r = new LinkedHashMap<String, Object>(); r.put("platform", "android"); r.put("protocolVersion", "1.0.0"); return r; } })
      .on("apps.list", new Handler() { public Object handle(Map<String, Object> p) throws RpcError { throw new RpcError("stale_ref", "gone"); } });
  }

  @Test public void nothingIsServedBeforeTheTokenAndTheTokenWorksOnce() {
    RpcServer s = server();
    Map<String, Object> early = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"apps.list\"}"));
    assertEquals("permission_denied", ((Map<?, ?>) ((Map<?, ?>) early.get("error")).get("data")).get("code"));
    Map<String, Object> wrong = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hello\",\"params\":{\"token\":\"nope-nope-nope-nope\"}}"));
    assertEquals("auth_failed", ((Map<?, ?>) ((Map<?, ?>) wrong.get("error")).get("data")).get("code"));
    Map<String, Object> ok = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"hello\",\"params\":{\"token\":\"" + TOKEN + "\"}}"));
    assertEquals("1.0.0", ((Map<?, ?>) ok.get("result")).get("protocolVersion"));
    TokenAuth once = new TokenAuth(TOKEN);
    assertTrue(once.consume(TOKEN));
    assertFalse("a token is used once", once.consume(TOKEN));
    Map<String, Object> replay = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"apps.list\"}"));
    assertEquals("the authenticated session is served", "stale_ref", ((Map<?, ?>) ((Map<?, ?>) replay.get("error")).get("data")).get("code"));
  }

  @Test public void errorsCarryTheirCodeAndUnknownMethodsAreMinus32601() {
    RpcServer s = server();
    s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\",\"params\":{\"token\":\"" + TOKEN + "\"}}");
    Map<String, Object> e = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"apps.list\"}"));
    assertEquals("stale_ref", ((Map<?, ?>) ((Map<?, ?>) e.get("error")).get("data")).get("code"));
    Map<String, Object> u = obj(s.handleLine("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no.such\"}"));
    assertEquals(Long.valueOf(-32601), ((Map<?, ?>) u.get("error")).get("code"));
    Map<String, Object> junk = obj(s.handleLine("not json"));
    assertEquals(Long.valueOf(-32700), ((Map<?, ?>) junk.get("error")).get("code"));
    assertNull("a notification gets no answer", s.handleLine("{\"jsonrpc\":\"2.0\",\"method\":\"$/cancel\",\"params\":{\"id\":2}}"));
  }

  @Test public void aStreamIsServedLineByLineAndAnOverlongLineIsSkipped() throws Exception {
    RpcServer s = server();
    StringBuilder in = new StringBuilder();
    in.append("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\",\"params\":{\"token\":\"").append(TOKEN).append("\"}}\n");
    char[] big = new char[RpcServer.MAX_LINE + 10];
    java.util.Arrays.fill(big, 'x');
    in.append(big).append('\n');
    in.append("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"no.such\"}\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.serve(new ByteArrayInputStream(in.toString().getBytes("UTF-8")), out);
    String[] lines = new String(out.toByteArray(), "UTF-8").split("\n");
    assertEquals(3, lines.length);
    assertTrue(lines[1].contains("over"));
    assertTrue(lines[2].contains("-32601"));
  }

  @Test public void viewsMapToRolesStatesAndOpsAndPasswordsNeverLeave() throws RpcError {
    FakeView list = FakeView.of("androidx.recyclerview.widget.RecyclerView");
    list.scrollable = true;
    FakeView row = FakeView.of("android.widget.LinearLayout");
    row.clickable = true;
    FakeView sw = FakeView.of("android.widget.Switch");
    sw.checkable = true; sw.checked = true; sw.desc = "Wi\u2011Fi"; sw.id = "android:id/switch_widget";
    FakeView pw = FakeView.of("android.widget.EditText");
    pw.password = true; pw.text = "hunter2"; pw.hint = "Password"; pw.editable = true;
    list.add(row.add(sw)).add(pw);
    Map<String, Object> m = new NodeMapper().map(list, "0", "window");
    assertEquals("list", m.get("role"));
    List<?> kids = (List<?>) m.get("children");
    assertEquals("listitem", ((Map<?, ?>) kids.get(0)).get("role"));
    Map<?, ?> s = (Map<?, ?>) ((List<?>) ((Map<?, ?>) kids.get(0)).get("children")).get(0);
    assertEquals("switch", s.get("role"));
    assertTrue(((List<?>) s.get("states")).contains("checked"));
    assertTrue(((List<?>) s.get("actions")).contains("toggle"));
    Map<?, ?> p = (Map<?, ?>) kids.get(1);
    assertEquals("Password", p.get("name"));
    assertEquals("\u2022\u2022\u2022\u2022", p.get("value"));
    assertFalse(Json.write(m).contains("hunter2"));
  }
}
