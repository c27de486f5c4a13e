#!/usr/bin/python3
"""A window of real GTK buttons for the policy tests. Arguments:
  --labels L1|L2|...   the button labels, one button each (default "Archive")
  --prgname NAME       the name the app gives itself (GLib.set_prgname), e.g. "gedit" to impersonate it
  --title TITLE        the window title (default "Buttons")
  --mnemonics          labels are parsed for mnemonics: "_Delete all" is "Delete all" activated by alt+d
Each activation prints "activated <index>" to stdout (flushed), so a test can prove a button never fired;
"ready" is printed when the window is shown."""
import argparse

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--labels", default="Archive")
    parser.add_argument("--prgname", default="buttons")
    parser.add_argument("--title", default="Buttons")
    parser.add_argument("--mnemonics", action="store_true")
    args = parser.parse_args()
    GLib.set_prgname(args.prgname)
    win = Gtk.Window(title=args.title)
    win.set_default_size(420, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    for i, label in enumerate(args.labels.split("|")):
        # A plain label (no mnemonic parsing) unless --mnemonics: then GTK strips the "_" from the accessible name.
        button = Gtk.Button.new_with_mnemonic(label) if args.mnemonics else Gtk.Button(label=label)
        if not args.mnemonics:
            button.set_use_underline(False)
        button.connect("clicked", lambda _b, i=i: print(f"activated {i}", flush=True))
        box.pack_start(button, False, False, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
