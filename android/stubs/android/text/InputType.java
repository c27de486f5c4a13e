package android.text;

public interface InputType {
  int TYPE_CLASS_TEXT = 0x00000001;
  int TYPE_TEXT_VARIATION_PASSWORD = 0x00000080;
}
