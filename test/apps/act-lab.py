#!/usr/bin/python3
"""The act lifecycle's test window (GTK3). Prints one line per thing that happened, to stdout:
- "Name" entry + "Save" button: Save is disabled while the name is empty and becomes enabled 500 ms after the
  name changes (an app timer, like a file chooser's); clicking it prints "saved <name>".
- "Never" button: always disabled; a click would print "never clicked".
- "Agree" check box prints "agree on|off" when toggled; SIGUSR1 flips it behind the agent's back ("flipped on|off").
- SIGUSR2 retitles the window "KeePassXC" (a title the deny list names) and prints "retitled".
- "Rebuild" button: replaces the 30 rows of the "Items" list with identical new ones (new accessible objects) and
  counts in the label "Rebuilt N times"; prints "rebuilt N".
- "Rows" tree view, 200 rows in a short scrolled window (Page keys move the cursor and the selection).
- Tabs "One" (a "Hello" button printing "hello") and "Two".
Prints "ready" once the window is shown."""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("act-lab")


def say(text):
    print(text, flush=True)


def main():
    win = Gtk.Window(title="Act lab")
    win.set_default_size(420, 640)
    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)

    form = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    name_label = Gtk.Label(label="Name")
    name = Gtk.Entry()
    name_label.set_mnemonic_widget(name)
    name.get_accessible().set_name("Name")
    save = Gtk.Button(label="Save")
    save.set_sensitive(False)
    pending = {"id": 0}

    def enable_later():
        pending["id"] = 0
        save.set_sensitive(bool(name.get_text()))
        return GLib.SOURCE_REMOVE

    def on_changed(_e):
        if pending["id"]:
            GLib.source_remove(pending["id"])
        if not name.get_text():
            save.set_sensitive(False)
            pending["id"] = 0
            return
        pending["id"] = GLib.timeout_add(500, enable_later)

    name.connect("changed", on_changed)
    save.connect("clicked", lambda _b: say("saved " + name.get_text()))
    never = Gtk.Button(label="Never")
    never.set_sensitive(False)
    never.connect("clicked", lambda _b: say("never clicked"))
    for w in (name_label, name, save, never):
        form.pack_start(w, False, False, 0)
    outer.pack_start(form, False, False, 0)

    agree = Gtk.CheckButton(label="Agree")

    def agree_handler(b):
        say("agree " + ("on" if b.get_active() else "off"))

    agree.connect("toggled", agree_handler)
    outer.pack_start(agree, False, False, 0)

    def flip():
        # "The user" flips it: not reported as an agent's toggle.
        agree.handler_block_by_func(agree_handler)
        agree.set_active(not agree.get_active())
        agree.handler_unblock_by_func(agree_handler)
        say("flipped " + ("on" if agree.get_active() else "off"))
        return GLib.SOURCE_CONTINUE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, flip)

    def retitle():
        win.set_title("KeePassXC")
        say("retitled")
        return GLib.SOURCE_CONTINUE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR2, retitle)

    rebuild_row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    rebuild = Gtk.Button(label="Rebuild")
    count = {"n": 0}
    result = Gtk.Label(label="Rebuilt 0 times")
    rebuild_row.pack_start(rebuild, False, False, 0)
    rebuild_row.pack_start(result, False, False, 0)
    outer.pack_start(rebuild_row, False, False, 0)

    items = Gtk.ListBox()
    items.set_selection_mode(Gtk.SelectionMode.NONE)
    items.get_accessible().set_name("Items")

    def fill():
        for child in items.get_children():
            items.remove(child)
            child.destroy()
        for i in range(30):
            row = Gtk.ListBoxRow()
            box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
            box.pack_start(Gtk.Label(label="item %d" % i), False, False, 0)
            box.pack_end(Gtk.Label(label="unit"), False, False, 0)
            row.add(box)
            items.add(row)
        items.show_all()

    def on_rebuild(_b):
        fill()
        count["n"] += 1
        result.set_text("Rebuilt %d times" % count["n"])
        say("rebuilt %d" % count["n"])

    rebuild.connect("clicked", on_rebuild)
    fill()
    items_scroll = Gtk.ScrolledWindow()
    items_scroll.set_min_content_height(200)
    items_scroll.add(items)
    outer.pack_start(items_scroll, False, False, 0)

    store = Gtk.ListStore(str)
    for i in range(200):
        store.append(["row %d" % i])
    tree = Gtk.TreeView(model=store)
    tree.get_accessible().set_name("Rows")
    tree.append_column(Gtk.TreeViewColumn("Row", Gtk.CellRendererText(), text=0))
    tree.get_selection().connect("changed", lambda s: say("selected " + "".join(
        store[it][0] for it in [s.get_selected()[1]] if it is not None)))
    rows_scroll = Gtk.ScrolledWindow()
    rows_scroll.set_min_content_height(150)
    rows_scroll.add(tree)
    outer.pack_start(rows_scroll, True, True, 0)

    tabs = Gtk.Notebook()
    hello = Gtk.Button(label="Hello")
    hello.connect("clicked", lambda _b: say("hello"))
    tabs.append_page(hello, Gtk.Label(label="One"))
    tabs.append_page(Gtk.Label(label="Nothing here"), Gtk.Label(label="Two"))
    outer.pack_start(tabs, False, False, 0)

    win.add(outer)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: say("ready") or False)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
