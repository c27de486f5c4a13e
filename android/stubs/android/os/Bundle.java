package android.os;

public final class Bundle {
  public Bundle() { throw new RuntimeException("Stub!"); }
  public void putCharSequence(String key, CharSequence value) { throw new RuntimeException("Stub!"); }
}
