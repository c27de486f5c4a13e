#!/usr/bin/python3
"""A window that draws two labelled buttons ("OK", "Cancel") on a Gtk.DrawingArea: no accessible children,
so only OCR or pixels can find them. A click on a drawn button sets the window title to "clicked <label>" and
appends the label to the file named by the first argument (when given)."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("drawn-buttons")
OUT = sys.argv[1] if len(sys.argv) > 1 else None
# x, y, w, h of each drawn button, in the drawing area's coordinates.
BUTTONS = [("OK", 60, 120, 160, 70), ("Cancel", 300, 120, 200, 70)]


def draw(_area, cr):
    cr.set_source_rgb(1, 1, 1)
    cr.paint()
    cr.select_font_face("DejaVu Sans")
    cr.set_font_size(30)
    for label, x, y, w, h in BUTTONS:
        cr.set_source_rgb(0.85, 0.85, 0.85)
        cr.rectangle(x, y, w, h)
        cr.fill()
        cr.set_source_rgb(0.2, 0.2, 0.2)
        cr.set_line_width(2)
        cr.rectangle(x, y, w, h)
        cr.stroke()
        ext = cr.text_extents(label)
        cr.set_source_rgb(0, 0, 0)
        cr.move_to(x + (w - ext.width) / 2 - ext.x_bearing, y + (h - ext.height) / 2 - ext.y_bearing)
        cr.show_text(label)
    return False


def press(_area, event, win):
    for label, x, y, w, h in BUTTONS:
        if x <= event.x <= x + w and y <= event.y <= y + h:
            win.set_title("clicked " + label)
            if OUT:
                with open(OUT, "a", encoding="utf-8") as f:
                    f.write(label + "\n")
    return True


def main():
    win = Gtk.Window(title="Drawn buttons")
    win.set_default_size(560, 300)
    area = Gtk.DrawingArea()
    area.add_events(0x100)  # Gdk.EventMask.BUTTON_PRESS_MASK
    area.connect("draw", draw)
    area.connect("button-press-event", press, win)
    win.add(area)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
