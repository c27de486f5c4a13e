package android.widget;

public abstract class AbsSpinner extends AdapterView<SpinnerAdapter> {
  AbsSpinner(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  @Override public void setAdapter(SpinnerAdapter adapter) { throw new RuntimeException("Stub!"); }
}
