package android.widget;

public class LinearLayout extends android.view.ViewGroup {
  public static final int HORIZONTAL = 0;
  public static final int VERTICAL = 1;
  public LinearLayout(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  public void setOrientation(int orientation) { throw new RuntimeException("Stub!"); }

  public static class LayoutParams extends android.view.ViewGroup.MarginLayoutParams {
    public LayoutParams(int width, int height, float weight) {
      super(width, height);
      throw new RuntimeException("Stub!");
    }
  }
}
