#!/usr/bin/python3
"""Recipient rows drawn by a fixed pool of four widgets, as a virtualized list does: each row is a "To:" combo
and an entry, showing items of a model of 12 addresses (a0@example.com …). SIGUSR1 scrolls by four: the same
four entry widgets now show items 4-7 (the app recycles its rows under the agent's feet). Prints "ready" once
shown, "scrolled <first index>" after a scroll, and "set <model index> <text>" whenever an entry's text changes
the model (so a test sees which item an edit reached)."""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("recycled-rows")

POOL = 4
model = [f"a{i}@example.com" for i in range(12)]
first = 0
filling = False


def say(text):
    print(text, flush=True)


def main():
    win = Gtk.Window(title="Recycled rows")
    win.set_default_size(420, 200)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    entries = []

    def fill():
        global filling
        filling = True
        for slot, entry in enumerate(entries):
            entry.set_text(model[first + slot])
        filling = False

    def changed(entry, slot):
        if filling:
            return
        model[first + slot] = entry.get_text()
        say(f"set {first + slot} {entry.get_text()}")

    for slot in range(POOL):
        row = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
        combo = Gtk.ComboBoxText()
        for kind in ("To:", "Cc:"):
            combo.append_text(kind)
        combo.set_active(0)
        entry = Gtk.Entry()
        entry.connect("changed", changed, slot)
        row.pack_start(combo, False, False, 0)
        row.pack_start(entry, True, True, 0)
        box.pack_start(row, False, False, 0)
        entries.append(entry)
    fill()
    win.add(box)
    win.connect("destroy", Gtk.main_quit)

    def scroll():
        global first
        first = (first + POOL) % len(model)
        fill()
        say(f"scrolled {first}")
        return GLib.SOURCE_CONTINUE

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, scroll)
    win.show_all()
    GLib.idle_add(lambda: say("ready") or False)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
