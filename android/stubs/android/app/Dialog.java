package android.app;

public class Dialog {
  public Dialog(android.content.Context context) { throw new RuntimeException("Stub!"); }
  public void setTitle(CharSequence title) { throw new RuntimeException("Stub!"); }
  public void setContentView(android.view.View view) { throw new RuntimeException("Stub!"); }
  public void show() { throw new RuntimeException("Stub!"); }
  public void dismiss() { throw new RuntimeException("Stub!"); }
}
