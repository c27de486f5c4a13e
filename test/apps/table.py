#!/usr/bin/python3
"""A GTK3 TreeView table: columns Name, Size, Kind and eight file rows, sorted as listed. Prints "ready" once the
window is shown. The grid tests read it as a table with column headers (not a spreadsheet)."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("grid-table")

ROWS = [
    ("notes.txt", "4 KB", "text"), ("photo.png", "2.1 MB", "image"), ("report.pdf", "310 KB", "document"),
    ("song.ogg", "5.6 MB", "audio"), ("budget.ods", "18 KB", "spreadsheet"), ("todo.md", "1 KB", "text"),
    ("archive.tar", "40 MB", "archive"), ("clip.webm", "12 MB", "video"),
]


def main():
    win = Gtk.Window(title="Grid table")
    win.set_default_size(480, 320)
    store = Gtk.ListStore(str, str, str)
    for row in ROWS:
        store.append(row)
    view = Gtk.TreeView(model=store)
    for i, title in enumerate(["Name", "Size", "Kind"]):
        view.append_column(Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=i))
    scroll = Gtk.ScrolledWindow()
    scroll.add(view)
    win.add(scroll)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
