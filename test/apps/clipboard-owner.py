#!/usr/bin/python3
"""Owns the CLIPBOARD selection like a password manager does: the text, plus the x-kde-passwordManagerHint
target ("secret") that tells clipboard readers the content came from a password field.
Usage: clipboard-owner.py TEXT [--no-hint]. Prints "owned" once it owns the selection; exits when it loses it."""
import sys
import gi
gi.require_version('Gtk', '3.0')
gi.require_version('Gdk', '3.0')
from gi.repository import Gtk, Gdk

text = sys.argv[1]
hint = '--no-hint' not in sys.argv
CLIPBOARD = Gdk.Atom.intern('CLIPBOARD', False)
HINT = Gdk.Atom.intern('x-kde-passwordManagerHint', False)

win = Gtk.Invisible()
for name in ('UTF8_STRING', 'STRING', 'TEXT', 'text/plain', 'text/plain;charset=utf-8'):
    Gtk.selection_add_target(win, CLIPBOARD, Gdk.Atom.intern(name, False), 0)
if hint:
    Gtk.selection_add_target(win, CLIPBOARD, HINT, 1)


def on_get(_widget, data, info, _time):
    if info == 1:
        data.set(HINT, 8, b'secret')
    else:
        data.set_text(text, -1)


win.connect('selection-get', on_get)
win.connect('selection-clear-event', lambda *_: Gtk.main_quit())
win.realize()
if not Gtk.selection_owner_set(win, CLIPBOARD, Gdk.CURRENT_TIME):
    sys.exit('could not own the clipboard')
print('owned', flush=True)
Gtk.main()
