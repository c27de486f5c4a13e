#!/usr/bin/python3
"""A small GTK3 window for the input-aim tests: one button (and optionally an entry) at a chosen place.

  --name NAME        program name (GLib.set_prgname): what AT-SPI and WM_CLASS report
  --title TITLE      window title (default: NAME)
  --label LABEL      the button's label (default "Press")
  --position X,Y     where the window is placed on screen
  --size W,H         window size (default 360,200)
  --keep-above       stay above other windows (as some password managers do)
  --no-focus         the window never accepts focus (the window manager cannot activate it)
  --entry            add a text entry; every change prints "text <value>"

Prints "ready" when shown, "clicked <label>" when the button is activated, flushing each line."""
import argparse
import sys

# Parsed before GTK is imported: Gtk's initialisation takes its own --name option out of sys.argv.
ARGV = list(sys.argv[1:])

import gi  # noqa: E402

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="overlay")
    ap.add_argument("--title")
    ap.add_argument("--label", default="Press")
    ap.add_argument("--position")
    ap.add_argument("--size", default="360,200")
    ap.add_argument("--keep-above", action="store_true")
    ap.add_argument("--no-focus", action="store_true")
    ap.add_argument("--entry", action="store_true")
    args = ap.parse_args(ARGV)
    GLib.set_prgname(args.name)
    GLib.set_application_name(args.name)

    win = Gtk.Window(title=args.title or args.name)
    w, h = (int(v) for v in args.size.split(","))
    win.set_default_size(w, h)
    if args.position:
        x, y = (int(v) for v in args.position.split(","))
        win.move(x, y)
    if args.keep_above:
        win.set_keep_above(True)
    if args.no_focus:
        win.set_accept_focus(False)
        win.set_focus_on_map(False)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    if args.entry:
        entry = Gtk.Entry()
        entry.connect("changed", lambda e: say("text " + e.get_text()))
        box.pack_start(entry, False, False, 0)
    button = Gtk.Button(label=args.label)
    button.connect("clicked", lambda _b: say("clicked " + args.label))
    box.pack_start(button, True, True, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.connect("map-event", lambda *_a: say("ready") or False)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
