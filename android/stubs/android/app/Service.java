package android.app;

public abstract class Service extends android.content.ContextWrapper {
  public Service() { super(null); throw new RuntimeException("Stub!"); }
  public void onCreate() { throw new RuntimeException("Stub!"); }
  public void onDestroy() { throw new RuntimeException("Stub!"); }
}
