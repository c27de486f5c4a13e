package android.widget;

public class TextView extends android.view.View {
  public TextView(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  public final void setText(CharSequence text) { throw new RuntimeException("Stub!"); }
  public void setInputType(int type) { throw new RuntimeException("Stub!"); }
}
