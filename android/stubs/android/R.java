package android;

public final class R {
  public R() { throw new RuntimeException("Stub!"); }

  public static final class layout {
    public layout() { throw new RuntimeException("Stub!"); }
    public static final int simple_list_item_1 = 0x01090003;
    public static final int simple_spinner_item = 0x01090008;
  }
}
