package android.widget;

public class EditText extends TextView {
  public EditText(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
