package android.widget;

public class FrameLayout extends android.view.ViewGroup {
  public FrameLayout(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
