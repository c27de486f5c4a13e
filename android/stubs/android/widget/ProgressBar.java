package android.widget;

public class ProgressBar extends android.view.View {
  public ProgressBar(android.content.Context context) { super(context); throw new RuntimeException("Stub!"); }
  public synchronized void setMax(int max) { throw new RuntimeException("Stub!"); }
  public synchronized void setProgress(int progress) { throw new RuntimeException("Stub!"); }
}
