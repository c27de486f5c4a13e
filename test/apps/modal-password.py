#!/usr/bin/python3
"""A main window "Notes" with a text entry, and over it a modal dialog "Unlock" of the same process whose
password entry has the focus: keys meant for Notes would land in the password field. The dialog's entry
prints "pw <text>" (flushed) on every change, so a test can prove nothing was typed there; "ready" once both
are shown."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    GLib.set_prgname("modal-password")
    win = Gtk.Window(title="Notes")
    win.set_default_size(420, 200)
    entry = Gtk.Entry()
    win.add(entry)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    entry.grab_focus()

    def open_dialog():
        dialog = Gtk.Dialog(title="Unlock", transient_for=win, modal=True)
        password = Gtk.Entry(visibility=False)
        password.connect("changed", lambda e: print("pw", e.get_text(), flush=True))
        dialog.get_content_area().add(password)
        dialog.show_all()
        password.grab_focus()
        print("ready", flush=True)
        return False

    GLib.timeout_add(300, open_dialog)
    Gtk.main()


if __name__ == "__main__":
    main()
