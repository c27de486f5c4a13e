package dev.computeruse.core;

import java.util.ArrayList;
import java.util.List;

/** A view for tests, built in code the way a recorded screen would be. */
final class FakeView implements ViewNode {
  String cls = "android.view.View", pkg = "com.example", text = "", desc = "", hint = "", id = "";
  int[] bounds = {0, 0, 100, 100};
  boolean checkable, checked, clickable, longClickable, enabled = true, focusable, focused, scrollable, selected, password, editable, visible = true;
  final List<FakeView> kids = new ArrayList<FakeView>();
  /** Actions performed on this view ("set_text=…" with the text); `refuse` makes every action fail. */
  final List<String> performed = new ArrayList<String>();
  boolean refuse;

  static FakeView of(String cls) { FakeView v = new FakeView(); v.cls = cls; return v; }
  FakeView add(FakeView c) { kids.add(c); return this; }

  public String className() { return cls; }
  public String packageName() { return pkg; }
  public String text() { return text; }
  public String contentDescription() { return desc; }
  public String hintText() { return hint; }
  public String viewId() { return id; }
  public int[] boundsInScreen() { return bounds; }
  public boolean isCheckable() { return checkable; }
  public boolean isChecked() { return checked; }
  public boolean isClickable() { return clickable; }
  public boolean isLongClickable() { return longClickable; }
  public boolean isEnabled() { return enabled; }
  public boolean isFocusable() { return focusable; }
  public boolean isFocused() { return focused; }
  public boolean isScrollable() { return scrollable; }
  public boolean isSelected() { return selected; }
  public boolean isPassword() { return password; }
  public boolean isEditable() { return editable; }
  public boolean isVisibleToUser() { return visible; }
  public int childCount() { return kids.size(); }
  public ViewNode child(int i) { return kids.get(i); }
  public boolean perform(String action, String argument) {
    if (refuse) return false;
    performed.add(argument == null ? action : action + "=" + argument);
    if ("click".equals(action) && checkable) checked = !checked;
    if ("set_text".equals(action)) text = argument;
    return true;
  }
}
