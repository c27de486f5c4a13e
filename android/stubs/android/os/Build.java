package android.os;

public class Build {
  // Not compile-time constants in android.jar either (read from system properties at boot).
  public static final String MODEL = stub();
  public static final String MANUFACTURER = stub();

  public static class VERSION {
    public static final int SDK_INT = Integer.parseInt(stub());
    public static final String RELEASE = stub();
  }

  private static String stub() { throw new RuntimeException("Stub!"); }
}
