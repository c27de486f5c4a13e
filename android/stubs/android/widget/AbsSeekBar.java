package android.widget;

public abstract class AbsSeekBar extends ProgressBar {
  public AbsSeekBar(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
}
