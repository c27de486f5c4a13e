#!/usr/bin/python3
"""A GTK3 window with a long TreeView and a long ListBox side by side, N rows each (N from argv, default 1000).
TreeView rows read "item-<i>" (1-based) with a size column; ListBox rows are labels "entry-<i>".
Prints "ready" once shown, "selected item-<i>" when the TreeView selection changes, "activated item-<i>" on a
row activation (double click / Enter) followed by "opened item-<i>" naming the selected row (what an app that acts
on its selection opens then, as GTK's file chooser does) and "row-selected entry-<i>" when the ListBox selection
changes."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("long-lists")


def say(text):
    print(text, flush=True)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    win = Gtk.Window(title=f"Long lists {n}")
    win.set_default_size(700, 600)
    box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)

    store = Gtk.ListStore(str, int)
    for i in range(1, n + 1):
        store.append([f"item-{i}", i * 10])
    tree = Gtk.TreeView(model=store)
    tree.append_column(Gtk.TreeViewColumn("Name", Gtk.CellRendererText(), text=0))
    tree.append_column(Gtk.TreeViewColumn("Size", Gtk.CellRendererText(), text=1))
    tree.get_accessible().set_name("Items")

    def on_changed(sel):
        model, it = sel.get_selected()
        if it is not None:
            say("selected " + model[it][0])
    tree.get_selection().connect("changed", on_changed)

    def on_activated(_t, path, _c):
        say("activated " + store[path][0])
        model, it = tree.get_selection().get_selected()
        say("opened " + (model[it][0] if it is not None else "nothing"))
    tree.connect("row-activated", on_activated)
    left = Gtk.ScrolledWindow()
    left.set_hexpand(True)
    left.add(tree)

    lb = Gtk.ListBox()
    lb.get_accessible().set_name("Entries")
    for i in range(1, n + 1):
        lb.add(Gtk.Label(label=f"entry-{i}", xalign=0))
    lb.connect("row-selected", lambda _l, row: row and say("row-selected " + row.get_child().get_label()))
    right = Gtk.ScrolledWindow()
    right.set_hexpand(True)
    right.add(lb)

    box.pack_start(left, True, True, 0)
    box.pack_start(right, True, True, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()


if __name__ == "__main__":
    main()
