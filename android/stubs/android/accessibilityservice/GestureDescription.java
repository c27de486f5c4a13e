package android.accessibilityservice;

public final class GestureDescription {
  private GestureDescription() { throw new RuntimeException("Stub!"); }

  public static class Builder {
    public Builder() { throw new RuntimeException("Stub!"); }
    public Builder addStroke(StrokeDescription strokeDescription) { throw new RuntimeException("Stub!"); }
    public GestureDescription build() { throw new RuntimeException("Stub!"); }
  }

  public static class StrokeDescription {
    public StrokeDescription(android.graphics.Path path, long startTime, long duration) { throw new RuntimeException("Stub!"); }
  }
}
