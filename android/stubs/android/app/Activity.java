package android.app;

public class Activity extends android.view.ContextThemeWrapper {
  public Activity() { throw new RuntimeException("Stub!"); }
  protected void onCreate(android.os.Bundle savedInstanceState) { throw new RuntimeException("Stub!"); }
  public android.content.Intent getIntent() { throw new RuntimeException("Stub!"); }
  public void finish() { throw new RuntimeException("Stub!"); }
  public void setTitle(CharSequence title) { throw new RuntimeException("Stub!"); }
  public void setContentView(android.view.View view) { throw new RuntimeException("Stub!"); }
}
