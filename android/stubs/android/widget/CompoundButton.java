package android.widget;

public abstract class CompoundButton extends Button {
  public CompoundButton(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
