package android.widget;

public interface Adapter {
  int getCount();
}
