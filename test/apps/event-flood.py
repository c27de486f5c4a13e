#!/usr/bin/python3
"""A window that floods the accessibility bus with events while its button may be renamed (GTK3), for the find that
reuses a recent read. Prints one line per thing that happened, to stdout:
- A "Ticks" label changes its text every millisecond (about 1,000 text and name events a second) from the start,
  unless started with --quiet (then the app sends events only when its button is renamed).
- The "Alpha" button prints "clicked <its label>" when clicked.
- SIGUSR1 renames the button "Beta" and prints "renamed Beta"; SIGUSR2 renames it "Alpha" and prints "renamed Alpha".
Prints "ready" once the window is shown."""
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("event-flood")


def say(text):
    print(text, flush=True)


def main():
    win = Gtk.Window(title="Flood lab")
    win.set_default_size(320, 120)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    ticks = Gtk.Label(label="tick 0")
    button = Gtk.Button(label="Alpha")
    button.connect("clicked", lambda b: say("clicked " + b.get_label()))
    box.pack_start(ticks, False, False, 0)
    box.pack_start(button, False, False, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    count = {"n": 0}

    def tick():
        count["n"] += 1
        ticks.set_text("tick %d" % count["n"])
        return True

    def rename(name):
        button.set_label(name)
        say("renamed " + name)
        return True  # keeps the signal handler for the next signal

    if "--quiet" not in sys.argv[1:]:
        GLib.timeout_add(1, tick)
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGUSR1, rename, "Beta")
    GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGUSR2, rename, "Alpha")
    win.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
