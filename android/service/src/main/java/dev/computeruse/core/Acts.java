package dev.computeruse.core;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * node.act on the phone: the handle is re-resolved in its window now (the view at that path must still be of the
 * same class with the same resource id, else `stale_ref`), the view must be enabled and showing, and the op is
 * carried out by the view's own accessibility action where it has one ("pattern"), else by a gesture at the
 * center of its bounds ("synthetic"). The receipt's detail names the action, never the text.
 */
public final class Acts {
  /** How long a long press holds, as the adb driver's (src/drivers/android/input.ts). */
  static final long LONG_PRESS_MS = 600;
  private static final long TAP_MS = 50;

  private Acts() {}

  /** A resolved handle: the view, its role as mapped, and its window. */
  static final class Target {
    final ViewNode view; final String role; final WindowView window;
    Target(ViewNode view, String role, WindowView window) { this.view = view; this.role = role; this.window = window; }
  }

  /** The window with this handle, or null. */
  static WindowView window(Platform p, String id) {
    for (WindowView w : p.windows()) if (w.id().equals(id)) return w;
    return null;
  }

  /**
   * The view a handle names (NodeMapper writes `window.i.j|class|resource-id`), re-read now; stale_ref when the
   * path no longer leads to a view of that class and id.
   */
  static Target resolve(Platform p, String handle) throws RpcError {
    String[] parts = handle.split("\\|", 3);
    String[] path = parts[0].split("\\.");
    if (parts.length != 3 || path.length == 0) throw new RpcError("stale_ref", "that is not a handle of this driver; observe again. Nothing was sent.");
    WindowView w = window(p, path[0]);
    if (w == null) throw new RpcError("window_not_found", "that window is no longer on the screen; list the windows again. Nothing was sent.");
    // The window node is the snapshot's root (Methods.snapshot): its only child, ".0", is the root view.
    ViewNode n = path.length >= 2 && "0".equals(path[1]) ? w.root() : null;
    String role = n == null ? "" : NodeMapper.role(n, "window");
    for (int k = 2; k < path.length && n != null; k++) {
      int i;
      try { i = Integer.parseInt(path[k]); } catch (NumberFormatException e) { i = -1; }
      ViewNode c = i >= 0 && i < n.childCount() ? n.child(i) : null;
      if (c != null) role = NodeMapper.role(c, role);
      n = c;
    }
    if (n == null || !parts[1].equals(n.className()) || !parts[2].equals(nz(n.viewId()))) {
      throw new RpcError("stale_ref", "the element is no longer on the screen where it was; nothing was sent. Observe again.");
    }
    return new Target(n, role, w);
  }

  /** Carries out one node.act; see the class comment. */
  public static Map<String, Object> act(Platform p, Map<String, Object> params) throws RpcError {
    Params.only(params, "id", "op", "value", "expect", "actionable");
    String op = Params.string(params, "op", true);
    String value = Params.string(params, "value", false);
    String id = Params.string(params, "id", true);
    if (Arrays.asList(Methods.WINDOW_OPS).contains(op)) return windowAct(p, id, op);
    Target t = resolve(p, id);
    Map<String, Object> before = new NodeMapper().map(t.view, Params.string(params, "id", true).split("\\|", 2)[0], "");
    before.put("role", t.role);
    before.remove("children");
    Object expect = params.get("expect");
    if (expect instanceof Map) {
      Object role = ((Map<?, ?>) expect).get("role");
      if (role instanceof String && !role.equals(t.role)) throw new RpcError("stale_ref", "the element at that place is now a " + t.role + ", not a " + role + "; nothing was sent");
    }
    ViewNode v = t.view;
    if (!v.isEnabled()) throw new RpcError("element_disabled", "the element is disabled; nothing was sent");
    if (!v.isVisibleToUser()) throw new RpcError("not_visible", "the element is not on the visible part of the screen; scroll it into view first. Nothing was sent.");
    String detail;
    String method = "pattern";
    if ("click".equals(op) || "toggle".equals(op)) {
      if (v.isClickable()) detail = perform(v, "click", null);
      else { detail = tap(p, v, TAP_MS); method = "synthetic"; }
    } else if ("double_click".equals(op)) {
      detail = tap(p, v, TAP_MS) + "; " + tap(p, v, TAP_MS);
      method = "synthetic";
    } else if ("right_click".equals(op)) {
      if (v.isLongClickable()) detail = perform(v, "long_click", null);
      else { detail = tap(p, v, LONG_PRESS_MS); method = "synthetic"; }
    } else if ("focus".equals(op)) {
      detail = perform(v, "focus", null);
    } else if ("set_value".equals(op) || "type".equals(op) || "clear".equals(op)) {
      if (!"textbox".equals(t.role) && !v.isEditable()) throw new RpcError("unsupported", "the element takes no text (it is a " + t.role + "); nothing was sent");
      // ACTION_SET_TEXT replaces the text: typing appends to what the field holds, which a password field never tells.
      if ("type".equals(op) && v.isPassword() && !nz(v.text()).isEmpty()) throw new RpcError("unsupported", "typing into a filled password field cannot keep what it holds: use set_value. Nothing was sent.");
      String text = "clear".equals(op) ? "" : "type".equals(op) ? nz(v.isPassword() ? "" : v.text()) + nz(value) : nz(value);
      perform(v, "set_text", text);
      detail = "set_text (" + text.codePointCount(0, text.length()) + " chars)";
    } else if ("scroll".equals(op)) {
      if (!v.isScrollable()) throw new RpcError("unsupported", "the element does not scroll; nothing was sent");
      String dir = value == null ? "down" : value;
      if (!"up".equals(dir) && !"down".equals(dir) && !"left".equals(dir) && !"right".equals(dir)) throw new RpcError("invalid_params", "scroll takes up, down, left or right");
      detail = perform(v, "up".equals(dir) || "left".equals(dir) ? "scroll_backward" : "scroll_forward", null);
    } else {
      throw new RpcError("unsupported", op + " is not supported on Android elements yet");
    }
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("method", method);
    out.put("detail", detail);
    out.put("before", before);
    return out;
  }

  /** A system action on the window node (its id is the window's); on an element it is unsupported. */
  static Map<String, Object> windowAct(Platform p, String id, String op) throws RpcError {
    WindowView w = window(p, id);
    if (w == null) {
      if (id.contains("|")) throw new RpcError("unsupported", op + " acts on the window (the snapshot's root), not on an element; nothing was sent");
      throw new RpcError("window_not_found", "that window is no longer on the screen; list the windows again. Nothing was sent.");
    }
    if (!w.isFocused()) throw new RpcError("window_changed", "another window is in front; nothing was sent. Observe again.");
    if (!p.global(op)) throw new RpcError("action_failed", "the system refused the " + op + " action");
    Map<String, Object> before = Methods.windowNode(w);
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("method", "pattern");
    out.put("detail", "global action " + op);
    out.put("before", before);
    return out;
  }

  private static String perform(ViewNode v, String action, String argument) throws RpcError {
    if (!v.perform(action, argument)) throw new RpcError("action_failed", "the element refused " + action + "; observe again to see its state");
    return action;
  }

  /** A gesture at the center of the view's bounds, held `ms`. */
  private static String tap(Platform p, ViewNode v, long ms) throws RpcError {
    int[] b = v.boundsInScreen();
    if (b[2] <= b[0] || b[3] <= b[1]) throw new RpcError("not_visible", "the element has no area on the screen; nothing was sent");
    int x = b[0] + (b[2] - b[0] - 1) / 2, y = b[1] + (b[3] - b[1] - 1) / 2;
    if (!p.gesture(x, y, x, y, ms)) throw new RpcError("action_failed", "the system refused the gesture (another gesture or the screen's owner cancelled it)");
    return (ms >= LONG_PRESS_MS ? "long press " : "tap ") + x + "," + y;
  }

  private static String nz(String s) { return s == null ? "" : s; }
}
