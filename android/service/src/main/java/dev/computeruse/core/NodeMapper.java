package dev.computeruse.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Views as protocol nodes (docs/protocol.md RawNode): the same class → role table, states and ops as the adb
 * driver (src/drivers/android/nodes.ts; test/unit/android-java-core checks the two tables agree), with node
 * counts capped and password text never read.
 */
public final class NodeMapper {
  /** Most nodes one snapshot maps. */
  public static final int MAX_NODES = 50000;

  /** Simple class name → unified role. */
  public static final Map<String, String> ROLES;
  static {
    Map<String, String> m = new LinkedHashMap<String, String>();
    String[][] table = {
      {"button", "Button", "MaterialButton", "AppCompatButton", "ImageButton", "AppCompatImageButton", "FloatingActionButton", "ExtendedFloatingActionButton", "Chip"},
      {"textbox", "EditText", "AppCompatEditText", "TextInputEditText", "AutoCompleteTextView", "MultiAutoCompleteTextView", "SearchAutoComplete"},
      {"text", "TextView", "AppCompatTextView", "MaterialTextView"},
      {"checkbox", "CheckBox", "AppCompatCheckBox", "MaterialCheckBox", "CheckedTextView"},
      {"switch", "Switch", "SwitchCompat", "SwitchMaterial", "MaterialSwitch", "ToggleButton"},
      {"radio", "RadioButton", "AppCompatRadioButton", "MaterialRadioButton"},
      {"group", "RadioGroup"},
      {"combobox", "Spinner", "AppCompatSpinner"},
      {"slider", "SeekBar", "AppCompatSeekBar", "RatingBar", "Slider"},
      {"spinbutton", "NumberPicker"},
      {"progressbar", "ProgressBar", "LinearProgressIndicator", "CircularProgressIndicator"},
      {"list", "RecyclerView", "ListView", "GridView", "ExpandableListView"},
      {"scrollarea", "ScrollView", "HorizontalScrollView", "NestedScrollView", "ViewPager", "ViewPager2"},
      {"document", "WebView"},
      {"image", "ImageView", "AppCompatImageView", "ShapeableImageView"},
      {"tablist", "TabWidget", "TabLayout", "BottomNavigationView", "NavigationBarView"},
      {"tab", "TabView", "BottomNavigationItemView", "NavigationBarItemView"},
      {"toolbar", "Toolbar", "ActionBar", "ActionMenuView"},
      {"pane", "DrawerLayout", "SlidingPaneLayout"},
    };
    for (String[] row : table) for (int k = 1; k < row.length; k++) m.put(row[k], row[0]);
    ROLES = Collections.unmodifiableMap(m);
  }

  private int count;

  /** Views mapped so far. */
  public int count() { return count; }

  /** The simple name of a view class (after the last '.' or '$'). */
  public static String simpleClass(String className) {
    return className.substring(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
  }

  /** The unified role; a list's direct children read as list items. */
  public static String role(ViewNode n, String parentRole) {
    String r = ROLES.get(simpleClass(n.className()));
    if (r != null) return r;
    return "list".equals(parentRole) ? "listitem" : "generic";
  }

  /** Maps a subtree; `path` is the node's sibling-index path, the start of its handle. */
  public Map<String, Object> map(ViewNode n, String path, String parentRole) throws RpcError {
    if (++count > MAX_NODES) throw new RpcError("unsupported", "the screen has more than " + MAX_NODES + " views");
    String role = role(n, parentRole);
    boolean editable = "textbox".equals(role) || n.isEditable();
    Map<String, Object> out = new LinkedHashMap<String, Object>();
    out.put("id", path + "|" + n.className() + "|" + n.viewId());
    out.put("role", role);
    out.put("nativeRole", n.className());
    String text = n.isPassword() ? "" : nz(n.text());
    if (editable) {
      String name = !nz(n.contentDescription()).isEmpty() ? n.contentDescription() : nz(n.hintText());
      if (!name.isEmpty()) out.put("name", name);
      out.put("value", n.isPassword() ? (n.text() == null || n.text().length() == 0 ? "" : "\u2022\u2022\u2022\u2022") : text);
    } else {
      String name = !text.isEmpty() ? text : nz(n.contentDescription());
      if (!name.isEmpty()) out.put("name", name);
    }
    if (!nz(n.viewId()).isEmpty()) out.put("stableId", n.viewId());
    List<Object> states = new ArrayList<Object>();
    if (n.isFocused()) states.add("focused");
    if (!n.isEnabled()) states.add("disabled");
    if (n.isCheckable() && n.isChecked()) states.add("checked");
    if (n.isSelected()) states.add("selected");
    if (n.isPassword()) states.add("password");
    if (n.isFocusable()) states.add("focusable");
    if (editable && n.isEnabled()) states.add("editable");
    if (!n.isVisibleToUser()) states.add("offscreen");
    out.put("states", states);
    List<Object> ops = new ArrayList<Object>();
    if (n.isClickable() || "button".equals(role) || "tab".equals(role)) ops.add("click");
    if (n.isLongClickable()) ops.add("right_click");
    if (n.isCheckable()) ops.add("toggle");
    if (editable) { ops.add("focus"); ops.add("set_value"); ops.add("type"); ops.add("clear"); }
    if (n.isScrollable()) ops.add("scroll");
    out.put("actions", ops);
    int[] b = n.boundsInScreen();
    List<Object> bounds = new ArrayList<Object>();
    bounds.add(Long.valueOf(b[0])); bounds.add(Long.valueOf(b[1]));
    bounds.add(Long.valueOf(Math.max(0, b[2] - b[0]))); bounds.add(Long.valueOf(Math.max(0, b[3] - b[1])));
    out.put("bounds", bounds);
    if (n.childCount() > 0) {
      List<Object> children = new ArrayList<Object>();
      for (int i = 0; i < n.childCount(); i++) {
        ViewNode c = n.child(i);
        if (c != null) children.add(map(c, path + "." + i, role));
      }
      out.put("children", children);
    }
    return out;
  }

  private static String nz(String s) { return s == null ? "" : s; }
}
