package android.widget;

public abstract class AbsListView extends AdapterView<ListAdapter> {
  public AbsListView(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
