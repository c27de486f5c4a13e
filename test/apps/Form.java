/*
 * A small Swing form for the Java e2e test (run as a single-file source: `java Form.java`).
 * A name field, a "Subscribe" check box, a "Size" combo box and a "Submit" button that writes
 * "Result: <name> / <subscribed> / <size>" into a label, so the test reads what the acts did.
 * With a path as its first argument it also writes that line to the file (the evaluation's checker reads it).
 */
import javax.swing.*;
import java.awt.*;

public class Form {
  public static void main(String[] args) {
    SwingUtilities.invokeLater(() -> {
      JFrame frame = new JFrame("Swing Form");
      frame.setDefaultCloseOperation(JFrame.EXIT_ON_CLOSE);
      JPanel panel = new JPanel(new GridLayout(0, 2, 6, 6));

      JLabel nameLabel = new JLabel("Name");
      JTextField name = new JTextField(16);
      nameLabel.setLabelFor(name);
      name.getAccessibleContext().setAccessibleName("Name");
      JCheckBox subscribe = new JCheckBox("Subscribe");
      JLabel sizeLabel = new JLabel("Size");
      JComboBox<String> size = new JComboBox<>(new String[] {"Small", "Medium", "Large"});
      sizeLabel.setLabelFor(size);
      size.getAccessibleContext().setAccessibleName("Size");
      JButton submit = new JButton("Submit");
      JLabel result = new JLabel("Result: (none)");
      result.getAccessibleContext().setAccessibleName("Result: (none)");

      submit.addActionListener(e -> {
        String text = "Result: " + name.getText() + " / " + (subscribe.isSelected() ? "subscribed" : "not subscribed")
            + " / " + size.getSelectedItem();
        result.setText(text);
        result.getAccessibleContext().setAccessibleName(text);
        if (args.length > 0) {
          try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), text + "\n");
          } catch (java.io.IOException ex) {
            System.err.println("cannot write " + args[0] + ": " + ex.getMessage());
          }
        }
      });

      panel.add(nameLabel); panel.add(name);
      panel.add(new JLabel("")); panel.add(subscribe);
      panel.add(sizeLabel); panel.add(size);
      panel.add(submit); panel.add(result);
      panel.setBorder(BorderFactory.createEmptyBorder(10, 10, 10, 10));
      frame.getContentPane().add(panel);
      frame.pack();
      frame.setLocation(40, 40);
      frame.setVisible(true);
    });
  }
}
