package android.view;

public class ContextThemeWrapper extends android.content.ContextWrapper {
  public ContextThemeWrapper() { super(null); throw new RuntimeException("Stub!"); }
}
