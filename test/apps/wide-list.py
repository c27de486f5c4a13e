#!/usr/bin/python3
"""A GTK3 TreeView wider and longer than its window, as a process list is: nine columns of N rows (N from argv,
default 300) in a window 360 px wide, so that the columns past the third are scrolled off to the right. Row i
(1-based) reads "cmd-<i>", "user-<i>", ... "ppid-<i>". Prints "ready" once shown, "selected cmd-<i>" when the
selection changes and "hscroll <value>" when the horizontal scroll bar moves."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("wide-list")

COLUMNS = ["Command", "User", "CPU", "RSS", "VM-Size", "PID", "State", "Prio", "PPID"]
PREFIX = ["cmd", "user", "cpu", "rss", "vm", "pid", "state", "prio", "ppid"]


def say(text):
    print(text, flush=True)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    win = Gtk.Window(title="Wide list")
    win.set_default_size(360, 300)
    store = Gtk.ListStore(*([str] * len(COLUMNS)))
    for i in range(1, n + 1):
        store.append([f"{p}-{i}" for p in PREFIX])
    tree = Gtk.TreeView(model=store)
    for k, title in enumerate(COLUMNS):
        col = Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=k)
        col.set_min_width(90)
        tree.append_column(col)
    tree.get_accessible().set_name("Processes")

    def on_changed(sel):
        model, it = sel.get_selected()
        if it is not None:
            say("selected " + model[it][0])
    tree.get_selection().connect("changed", on_changed)
    scroll = Gtk.ScrolledWindow()
    scroll.set_policy(Gtk.PolicyType.AUTOMATIC, Gtk.PolicyType.AUTOMATIC)
    scroll.add(tree)
    scroll.get_hadjustment().connect("value-changed", lambda a: say(f"hscroll {int(a.get_value())}"))
    win.add(scroll)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()


if __name__ == "__main__":
    main()
