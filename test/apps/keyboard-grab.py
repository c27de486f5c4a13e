#!/usr/bin/python3
"""A window "Grabber" that takes an active grab of the keyboard once shown and keeps it, as an open menu or
popup of a browser does: the X server then hands every key to this process, wherever the window manager puts
the input focus. The grab never ends by itself. Prints "grabbed" once the grab holds (or "grab failed <status>") and
"key <name>" for each key it receives. `--as NAME` gives the process that program name (a credential prompt's,
"gcr-prompter", to stand for one the deny list names)."""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

GLib.set_prgname(sys.argv[sys.argv.index("--as") + 1] if "--as" in sys.argv else "keyboard-grab")


def say(text):
    print(text, flush=True)


def main():
    win = Gtk.Window(title="Grabber")
    win.set_default_size(240, 80)
    win.move(900, 800)
    win.add(Gtk.Label(label="holds the keyboard"))
    win.connect("destroy", Gtk.main_quit)
    win.connect("key-press-event", lambda _w, e: say("key " + (Gdk.keyval_name(e.keyval) or "?")) and False)

    def grab():
        seat = Gdk.Display.get_default().get_default_seat()
        status = seat.grab(win.get_window(), Gdk.SeatCapabilities.KEYBOARD, True, None, None, None)
        say("grabbed" if status == Gdk.GrabStatus.SUCCESS else f"grab failed {status.value_nick}")
        return False

    win.show_all()
    GLib.timeout_add(300, grab)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
