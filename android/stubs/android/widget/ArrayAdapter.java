package android.widget;

public class ArrayAdapter<T> extends BaseAdapter {
  public ArrayAdapter(android.content.Context context, int resource, T[] objects) {
    throw new RuntimeException("Stub!");
  }
  public ArrayAdapter(android.content.Context context, int resource, java.util.List<T> objects) {
    throw new RuntimeException("Stub!");
  }
  @Override public int getCount() { throw new RuntimeException("Stub!"); }
}
