"""A small Qt 6 window (PyQt6) for the Qt 6 e2e test: a text field, a "Go" button, and a label that shows
"got <text>" after Go is clicked, so the test reads what its acts did."""
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
go.clicked.connect(lambda: result.setText("got " + field.text()))
for w in (field, go, result):
    layout.addWidget(w)
window.resize(320, 140)
window.show()
sys.exit(app.exec())
