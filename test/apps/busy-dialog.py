#!/usr/bin/python3
"""A window "Busy lab" whose button "Compose" runs a modal error dialog ("Spell checker could not be started")
inside its own click handler, as claws-mail's Compose does when no dictionary is installed: while the dialog
waits, the app answers no accessibility request (the click's own call included), though the display lists both
windows. Prints "ready", "dialog open" and "dialog closed <response>"."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("busy-dialog")


def say(text):
    print(text, flush=True)


def compose(win):
    dialog = Gtk.MessageDialog(transient_for=win, modal=True, message_type=Gtk.MessageType.ERROR,
                               buttons=Gtk.ButtonsType.OK, text="Spell checker could not be started.")
    dialog.set_title("Error")
    GLib.idle_add(lambda: say("dialog open") and False)
    # A nested main loop inside the click: the window is drawn and takes input, the accessibility bridge waits.
    response = dialog.run()
    dialog.destroy()
    say(f"dialog closed {response}")


def main():
    win = Gtk.Window(title="Busy lab")
    win.set_default_size(320, 120)
    button = Gtk.Button(label="Compose")
    button.connect("clicked", lambda _b: compose(win))
    win.add(button)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
