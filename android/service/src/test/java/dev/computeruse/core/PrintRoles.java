package dev.computeruse.core;

/** Prints the Java role table as JSON, so the TypeScript test can check it against the adb driver's. */
public final class PrintRoles {
  private PrintRoles() {}
  public static void main(String[] args) { System.out.println(Json.write(new java.util.TreeMap<String, Object>(NodeMapper.ROLES))); }
}
