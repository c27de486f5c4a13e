package android.widget;

public abstract class AdapterView<T extends Adapter> extends android.view.ViewGroup {
  public AdapterView(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  public abstract void setAdapter(T adapter);
}
