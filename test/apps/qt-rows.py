#!/usr/bin/python3
"""A Qt 6 tree of ten rows "item-<i>" (Name, Size), the first one current and selected. Prints "ready" once
shown and, on a row activation (double click / Enter), "activated item-<i>" followed by "opened item-<i>"
naming the selected row (what an app that acts on its selection opens then).

With the argument "split", item-1 stays the current item while item-3 alone is selected (the current item and
the selection are different things, as in a file manager after a selection made without the pointer). Names are
editable with F2, which edits the current item, as a file manager's rename does: "renamed <old> → <new>" is
printed when an edit is committed, and "current item-<i>" whenever the current item moves."""
import sys

from PyQt6.QtWidgets import QAbstractItemView, QApplication, QTreeWidget, QTreeWidgetItem
from PyQt6.QtCore import QItemSelectionModel, Qt, QTimer


def say(text):
    print(text, flush=True)


def main():
    app = QApplication(sys.argv)
    tree = QTreeWidget()
    tree.setWindowTitle("Qt rows")
    tree.setHeaderLabels(["Name", "Size"])
    tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    tree.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
    for i in range(1, 11):
        item = QTreeWidgetItem([f"item-{i}", str(i * 10)])
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        item.setData(0, Qt.ItemDataRole.UserRole, f"item-{i}")
        tree.addTopLevelItem(item)
    tree.setCurrentItem(tree.topLevelItem(0))
    if "split" in sys.argv[1:]:
        model = tree.selectionModel()
        model.clearSelection()
        model.select(tree.indexFromItem(tree.topLevelItem(2)), QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)

    def activated(item, _column):
        say("activated " + item.text(0))
        chosen = tree.selectedItems()
        say("opened " + (chosen[0].text(0) if chosen else "nothing"))

    def changed(item, column):
        old = item.data(0, Qt.ItemDataRole.UserRole)
        if column == 0 and old is not None and item.text(0) != old:
            say(f"renamed {old} → {item.text(0)}")
            item.setData(0, Qt.ItemDataRole.UserRole, item.text(0))

    def current(now, _before):
        if now is not None:
            say("current " + now.text(0))
    tree.itemActivated.connect(activated)
    tree.itemChanged.connect(changed)
    tree.currentItemChanged.connect(current)
    tree.resize(400, 400)
    tree.show()
    QTimer.singleShot(0, lambda: say("ready"))
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
