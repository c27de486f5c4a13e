package android.graphics;

public class Path {
  public Path() { throw new RuntimeException("Stub!"); }
  public void moveTo(float x, float y) { throw new RuntimeException("Stub!"); }
  public void lineTo(float x, float y) { throw new RuntimeException("Stub!"); }
}
