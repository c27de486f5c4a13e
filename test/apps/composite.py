#!/usr/bin/python3
"""Composite controls and unlinked field labels, as a model met them in real apps (GTK 3).

- "Mode selection": a push button with no action of its own around one clickable button that fills it, the shape
  of GNOME Calculator's GtkMenuButton (GTK 4: the outer accessible has no Action, its child button has "click").
- "Edit tools": the same shape around two buttons (Cut, Copy): which one a click means cannot be told.
- A grid of fields whose labels are siblings on the same row, never linked (no mnemonic widget, no labelled-by),
  as in pluma's Find/Replace dialog: "Search for:" beside an entry combo, "Replace with:" beside an entry. GTK 3
  lists a grid's children in reverse order of attaching, so a label is not its field's previous sibling there.
- A box row "Name:" then its entry (the label is the field's previous sibling), a row "Range:" with two entries
  (only the first, next to it, is its field), and "Other:" beside an entry with a name of its own.

Each button prints "clicked <label>", each field "<field>=<text>" when its text changes (flushed); "ready" once
the window is shown.
"""
import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Atk", "1.0")
from gi.repository import Atk, GLib, Gtk  # noqa: E402


def clicked(button):
    print(f"clicked {button.get_label()}", flush=True)


def composite(description, labels):
    """A box that reads as a push button without an action, around real buttons."""
    box = Gtk.Box(spacing=0)
    acc = box.get_accessible()
    acc.set_role(Atk.Role.PUSH_BUTTON)
    acc.set_description(description)
    for label in labels:
        button = Gtk.Button(label=label)
        button.set_margin_top(4)
        button.set_margin_bottom(4)
        button.set_margin_start(6)
        button.set_margin_end(6)
        button.connect("clicked", clicked)
        box.pack_start(button, True, True, 0)
    return box


def field(entry, key):
    entry.connect("changed", lambda e: print(f"{key}={e.get_text()}", flush=True))
    return entry


def main():
    GLib.set_prgname("composite")
    win = Gtk.Window(title="Composite lab")
    win.set_default_size(520, 420)
    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
    bar = Gtk.Box(spacing=8)
    bar.pack_start(composite("Mode selection", ["Advanced"]), False, False, 0)
    bar.pack_start(composite("Edit tools", ["Cut", "Copy"]), False, False, 0)
    outer.pack_start(bar, False, False, 0)

    grid = Gtk.Grid(row_spacing=6, column_spacing=12)
    search = Gtk.ComboBoxText.new_with_entry()
    field(search.get_child(), "search")
    replace = field(Gtk.Entry(), "replace")
    grid.attach(Gtk.Label(label="Search for: ", xalign=0), 0, 0, 1, 1)
    grid.attach(search, 1, 0, 1, 1)
    grid.attach(Gtk.Label(label="Replace with: ", xalign=0), 0, 1, 1, 1)
    grid.attach(replace, 1, 1, 1, 1)
    outer.pack_start(grid, False, False, 0)

    name_row = Gtk.Box(spacing=6)
    name_row.pack_start(Gtk.Label(label="Name:"), False, False, 0)
    name_row.pack_start(field(Gtk.Entry(), "name"), True, True, 0)
    outer.pack_start(name_row, False, False, 0)

    range_row = Gtk.Box(spacing=6)
    range_row.pack_start(Gtk.Label(label="Range:"), False, False, 0)
    range_row.pack_start(field(Gtk.Entry(), "from"), True, True, 0)
    range_row.pack_start(field(Gtk.Entry(), "to"), True, True, 0)
    outer.pack_start(range_row, False, False, 0)

    other_row = Gtk.Box(spacing=6)
    other_row.pack_start(Gtk.Label(label="Other:"), False, False, 0)
    own = field(Gtk.Entry(), "own")
    own.get_accessible().set_name("Own name")
    other_row.pack_start(own, True, True, 0)
    outer.pack_start(other_row, False, False, 0)

    win.add(outer)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
