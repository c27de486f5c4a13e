package android.os;

public class Handler {
  public Handler() { throw new RuntimeException("Stub!"); }
}
