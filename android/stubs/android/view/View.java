package android.view;

public class View {
  public View(android.content.Context context) { throw new RuntimeException("Stub!"); }
  public void setOnClickListener(OnClickListener l) { throw new RuntimeException("Stub!"); }
  public void setContentDescription(CharSequence contentDescription) { throw new RuntimeException("Stub!"); }
  public void setEnabled(boolean enabled) { throw new RuntimeException("Stub!"); }

  public interface OnClickListener {
    void onClick(View v);
  }
}
