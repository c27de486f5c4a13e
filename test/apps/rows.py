#!/usr/bin/python3
"""Two rows, "alice" and "bob", each with an "Archive" button that prints "archived <name>" to stdout. SIGUSR1
removes bob's row (the app changes under the agent's feet, as a list does when an item goes away elsewhere).
Prints "ready" once the window is shown and "removed bob" after the removal."""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("stale-rows")


def say(text):
    print(text, flush=True)


def make_row(name):
    row = Gtk.ListBoxRow()
    box = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
    box.pack_start(Gtk.Label(label=name), False, False, 6)
    button = Gtk.Button(label="Archive")
    button.connect("clicked", lambda _b: say("archived " + name))
    box.pack_end(button, False, False, 6)
    row.add(box)
    return row


def main():
    win = Gtk.Window(title="Stale rows")
    win.set_default_size(360, 160)
    rows = Gtk.ListBox()
    rows.set_selection_mode(Gtk.SelectionMode.NONE)
    alice = make_row("alice")
    bob = make_row("bob")
    rows.add(alice)
    rows.add(bob)
    win.add(rows)
    win.connect("destroy", Gtk.main_quit)

    def remove_bob():
        if bob.get_parent() is not None:
            rows.remove(bob)
            bob.destroy()
        say("removed bob")
        return GLib.SOURCE_CONTINUE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, remove_bob)
    win.show_all()
    GLib.idle_add(lambda: say("ready") or False)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
