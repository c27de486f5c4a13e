package dev.computeruse.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader and writer (RFC 8259) for the protocol's messages: objects become LinkedHashMap,
 * arrays ArrayList, numbers Double (or Long when integral and exact), strings with every escape including
 * surrogate pairs. The phone's app has no JSON library it can rely on across API levels, and the host's lines
 * are untrusted input: depth and size are capped and anything malformed is an error, never a guess.
 */
public final class Json {
  /** Most nesting a message may have. */
  public static final int MAX_DEPTH = 256;

  private final String s;
  private int i;

  private Json(String s) { this.s = s; }

  /** Parses one JSON value that must span the whole text (whitespace aside). */
  public static Object parse(String text) {
    Json p = new Json(text);
    p.ws();
    Object v = p.value(0);
    p.ws();
    if (p.i != text.length()) throw p.error("text after the value");
    return v;
  }

  private IllegalArgumentException error(String why) { return new IllegalArgumentException("bad JSON at " + i + ": " + why); }

  private void ws() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
    if (i >= s.length()) throw error("unexpected end");
    char c = s.charAt(i);
    switch (c) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default: return number();
    }
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) throw error("unknown word");
    i += word.length();
    return v;
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    i++;
    ws();
    if (i < s.length() && s.charAt(i) == '}') { i++; return m; }
    for (;;) {
      ws();
      if (i >= s.length() || s.charAt(i) != '"') throw error("expected a key");
      String k = string();
      ws();
      if (i >= s.length() || s.charAt(i) != ':') throw error("expected ':'");
      i++;
      ws();
      if (m.containsKey(k)) throw error("duplicate key " + k);
      m.put(k, value(depth + 1));
      ws();
      if (i >= s.length()) throw error("unexpected end");
      char c = s.charAt(i++);
      if (c == '}') return m;
      if (c != ',') throw error("expected ',' or '}'");
    }
  }

  private List<Object> array(int depth) {
    List<Object> a = new ArrayList<Object>();
    i++;
    ws();
    if (i < s.length() && s.charAt(i) == ']') { i++; return a; }
    for (;;) {
      ws();
      a.add(value(depth + 1));
      ws();
      if (i >= s.length()) throw error("unexpected end");
      char c = s.charAt(i++);
      if (c == ']') return a;
      if (c != ',') throw error("expected ',' or ']'");
    }
  }

  private String string() {
    StringBuilder b = new StringBuilder();
    i++;
    for (;;) {
      if (i >= s.length()) throw error("unterminated string");
      char c = s.charAt(i++);
      if (c == '"') return b.toString();
      if (c < 0x20) throw error("control character in a string");
      if (c != '\\') { b.append(c); continue; }
      if (i >= s.length()) throw error("unterminated escape");
      char e = s.charAt(i++);
      switch (e) {
        case '"': b.append('"'); break;
        case '\\': b.append('\\'); break;
        case '/': b.append('/'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u':
          if (i + 4 > s.length()) throw error("short \\u escape");
          try { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); } catch (NumberFormatException x) { throw error("bad \\u escape"); }
          i += 4;
          break;
        default: throw error("unknown escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = i;
    if (i < s.length() && s.charAt(i) == '-') i++;
    while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) i++;
    String t = s.substring(start, i);
    if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw error("bad number " + t);
    double d = Double.parseDouble(t);
    if (t.matches("-?[0-9]+") && t.length() < 17) return Long.valueOf(t);
    return Double.valueOf(d);
  }

  /** Writes a value: Map, List, String, Number, Boolean or null. Non-ASCII stays as is; controls are escaped. */
  public static String write(Object v) {
    StringBuilder b = new StringBuilder();
    write(b, v);
    return b.toString();
  }

  private static void write(StringBuilder b, Object v) {
    if (v == null) { b.append("null"); return; }
    if (v instanceof String) { quote(b, (String) v); return; }
    if (v instanceof Boolean) { b.append(v.toString()); return; }
    if (v instanceof Long || v instanceof Integer) { b.append(v.toString()); return; }
    if (v instanceof Number) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("JSON has no NaN or infinity");
      if (d == Math.rint(d) && Math.abs(d) < 1e15) b.append((long) d); else b.append(d);
      return;
    }
    if (v instanceof Map) {
      b.append('{');
      Iterator<?> it = ((Map<?, ?>) v).entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<?, ?> e = (Map.Entry<?, ?>) it.next();
        quote(b, String.valueOf(e.getKey()));
        b.append(':');
        write(b, e.getValue());
        if (it.hasNext()) b.append(',');
      }
      b.append('}');
      return;
    }
    if (v instanceof List) {
      b.append('[');
      List<?> l = (List<?>) v;
      for (int k = 0; k < l.size(); k++) { if (k > 0) b.append(','); write(b, l.get(k)); }
      b.append(']');
      return;
    }
    throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
  }

  private static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          // U+2028/U+2029 end a line for JavaScript readers; escaping them keeps one message one line.
          if (c < 0x20 || c == 0x2028 || c == 0x2029) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
      }
    }
    b.append('"');
  }
}
