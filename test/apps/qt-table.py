#!/usr/bin/python3
"""A Qt 6 table of 500 rows "Widget <i>" (ID, Name, Price, Stock), editable cells, a first column hidden (as a
database browser hides its row ids): an item view that is taller than its window and whose cells take their edits
in an editor opened by a double click, F2 or typing. Prints "ready" once shown and "edited <row> <column> <text>"
when an edit is committed (row and column 1-based)."""
import sys

from PyQt6.QtWidgets import QApplication, QTableWidget, QTableWidgetItem, QAbstractItemView
from PyQt6.QtCore import QTimer


def say(text):
    print(text, flush=True)


def main():
    app = QApplication(sys.argv)
    table = QTableWidget(500, 5)
    table.setWindowTitle("Qt table")
    table.setHorizontalHeaderLabels(["rowid", "ID", "Name", "Price", "Stock"])
    for r in range(500):
        values = [str(r + 1), str(r + 1), f"Widget {r + 1}", f"{1 + (r + 1) * 0.37:.2f}", str(((r + 1) * 7) % 50)]
        for c, v in enumerate(values):
            table.setItem(r, c, QTableWidgetItem(v))
    table.setColumnHidden(0, True)
    table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
                          | QAbstractItemView.EditTrigger.AnyKeyPressed)
    table.itemChanged.connect(lambda item: say(f"edited {item.row() + 1} {item.column() + 1} {item.text()}"))
    table.resize(520, 420)
    table.show()
    QTimer.singleShot(0, lambda: say("ready"))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
