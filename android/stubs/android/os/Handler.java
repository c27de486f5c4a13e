package android.os;

public class Handler {
  public Handler() { throw new RuntimeException("Stub!"); }
  public Handler(Looper looper) { throw new RuntimeException("Stub!"); }
  public final boolean postDelayed(Runnable r, long delayMillis) { throw new RuntimeException("Stub!"); }
}
