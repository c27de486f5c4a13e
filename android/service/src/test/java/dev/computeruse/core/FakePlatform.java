package dev.computeruse.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A phone in memory: windows of FakeViews, and the gestures and global actions it was asked for. */
final class FakePlatform implements Platform {
  static final class Win implements WindowView {
    String id = "w1", title = "Settings", pkg = "com.android.settings";
    int[] bounds = {0, 0, 1080, 2400};
    boolean focused = true;
    FakeView root;
    public String id() { return id; }
    public String title() { return title; }
    public String packageName() { return pkg; }
    public int[] boundsInScreen() { return bounds; }
    public boolean isFocused() { return focused; }
    public ViewNode root() { return root; }
  }

  final List<Win> wins = new ArrayList<Win>();
  final List<String> sent = new ArrayList<String>();
  long lastEvent;

  public List<WindowView> windows() { return new ArrayList<WindowView>(wins); }
  public boolean gesture(int x1, int y1, int x2, int y2, long ms) { sent.add("gesture " + x1 + "," + y1 + " " + x2 + "," + y2 + " " + ms); return true; }
  public boolean global(String action) { sent.add("global " + action); return true; }
  public long lastEventAt() { return lastEvent; }
  public Map<String, String> facts() { Map<String, String> m = new LinkedHashMap<String, String>(); m.put("model", "Fake"); m.put("api_level", "34"); return m; }

  /** Settings' Wi-Fi page as the recorded screens have it (test/fixtures/android): a list, the Wi-Fi switch row, a search box. */
  static FakePlatform settings() {
    FakePlatform p = new FakePlatform();
    Win w = new Win();
    FakeView frame = FakeView.of("android.widget.FrameLayout");
    FakeView list = FakeView.of("androidx.recyclerview.widget.RecyclerView");
    list.scrollable = true; list.id = "com.android.settings:id/recycler_view"; list.bounds = new int[] {0, 300, 1080, 2300};
    FakeView row = FakeView.of("android.widget.LinearLayout");
    row.clickable = true; row.bounds = new int[] {0, 300, 1080, 500};
    FakeView sw = FakeView.of("android.widget.Switch");
    sw.checkable = true; sw.desc = "Wi\u2011Fi"; sw.id = "android:id/switch_widget"; sw.bounds = new int[] {900, 350, 1040, 450};
    FakeView search = FakeView.of("android.widget.EditText");
    search.editable = true; search.hint = "Search settings"; search.id = "com.android.settings:id/search"; search.bounds = new int[] {0, 100, 1080, 250};
    FakeView off = FakeView.of("android.widget.TextView");
    off.text = "Below the fold"; off.visible = false; off.bounds = new int[] {0, 2400, 1080, 2500};
    FakeView dim = FakeView.of("android.widget.Button");
    dim.text = "Disabled"; dim.enabled = false; dim.bounds = new int[] {0, 2000, 500, 2100};
    frame.add(search).add(list.add(row.add(sw)).add(off)).add(dim);
    w.root = frame;
    p.wins.add(w);
    return p;
  }
}
