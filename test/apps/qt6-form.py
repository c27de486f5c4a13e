"""A small Qt 6 window (PyQt6) for the Qt 6 e2e test: a text field, a "Go" button, and a label that shows
"got <text>" after Go is clicked, so the test reads what its acts did. With a path as its first argument it also
writes that line to the file (the evaluation's checker reads it)."""
import sys

from PyQt6.QtWidgets import QApplication, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

app = QApplication(sys.argv)
window = QWidget()
window.setWindowTitle("Qt6 Form")
layout = QVBoxLayout(window)
field = QLineEdit()
field.setAccessibleName("Text")
go = QPushButton("Go")
result = QLabel("none")


def clicked():
    result.setText("got " + field.text())
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w", encoding="utf-8") as out:
            out.write("got " + field.text() + "\n")


go.clicked.connect(clicked)
for w in (field, go, result):
    layout.addWidget(w)
window.resize(320, 140)
window.show()
sys.exit(app.exec())
