package android.view;

public abstract class ViewGroup extends View {
  public ViewGroup(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  public void addView(View child) { throw new RuntimeException("Stub!"); }
  public void addView(View child, LayoutParams params) { throw new RuntimeException("Stub!"); }
  public void removeAllViews() { throw new RuntimeException("Stub!"); }

  public static class LayoutParams {
    public static final int MATCH_PARENT = -1;
    public LayoutParams(int width, int height) { throw new RuntimeException("Stub!"); }
  }

  public static class MarginLayoutParams extends LayoutParams {
    public MarginLayoutParams(int width, int height) { super(width, height); throw new RuntimeException("Stub!"); }
  }
}
