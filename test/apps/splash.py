#!/usr/bin/python3
"""A splash window whose progress bar moves every 50 ms for about a second, then closes and gives way to the main
window "Splash lab", as LibreOffice's start does: a launch's first window is gone by the time it is read."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("splash-lab")


def main():
    splash = Gtk.Window(title="Starting")
    bar = Gtk.ProgressBar()
    splash.add(bar)
    splash.show_all()
    steps = {"n": 0}

    def tick():
        steps["n"] += 1
        bar.set_fraction(min(1.0, steps["n"] / 20))
        if steps["n"] < 20:
            return True
        splash.destroy()
        win = Gtk.Window(title="Splash lab")
        win.add(Gtk.Button(label="Ready"))
        win.connect("destroy", Gtk.main_quit)
        win.show_all()
        return False

    GLib.timeout_add(50, tick)
    Gtk.main()


if __name__ == "__main__":
    sys.exit(main())
