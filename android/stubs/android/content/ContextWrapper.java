package android.content;

public class ContextWrapper extends Context {
  public ContextWrapper(Context base) { throw new RuntimeException("Stub!"); }
  @Override public SharedPreferences getSharedPreferences(String name, int mode) { throw new RuntimeException("Stub!"); }
}
