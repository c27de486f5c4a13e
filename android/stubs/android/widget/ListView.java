package android.widget;

public class ListView extends AbsListView {
  public ListView(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  @Override public void setAdapter(ListAdapter adapter) { throw new RuntimeException("Stub!"); }
}
