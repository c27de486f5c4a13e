package android.widget;

public class Spinner extends AbsSpinner {
  public Spinner(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
