#!/usr/bin/python3
"""A Qt 6 tree of ten rows "item-<i>" (Name, Size), the first one current and selected. Prints "ready" once
shown and, on a row activation (double click / Enter), "activated item-<i>" followed by "opened item-<i>"
naming the selected row (what an app that acts on its selection opens then)."""
import sys

from PyQt6.QtWidgets import QApplication, QTreeWidget, QTreeWidgetItem
from PyQt6.QtCore import QTimer


def say(text):
    print(text, flush=True)


def main():
    app = QApplication(sys.argv)
    tree = QTreeWidget()
    tree.setWindowTitle("Qt rows")
    tree.setHeaderLabels(["Name", "Size"])
    for i in range(1, 11):
        tree.addTopLevelItem(QTreeWidgetItem([f"item-{i}", str(i * 10)]))
    tree.setCurrentItem(tree.topLevelItem(0))

    def activated(item, _column):
        say("activated " + item.text(0))
        chosen = tree.selectedItems()
        say("opened " + (chosen[0].text(0) if chosen else "nothing"))
    tree.itemActivated.connect(activated)
    tree.resize(400, 400)
    tree.show()
    QTimer.singleShot(0, lambda: say("ready"))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
