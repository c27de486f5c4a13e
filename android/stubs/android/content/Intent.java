package android.content;

public class Intent {
  public String getStringExtra(String name) { throw new RuntimeException("Stub!"); }
}
