#!/usr/bin/python3
"""A settings window like a desktop's control panel (Debian has no small GTK 3 settings app that writes its
state where a test can read it). Usage: settings-form.py OUT.json
Two pages in a notebook: "Network" (switches "Wi-Fi" and "Bluetooth", an entry "Device name") and "Appearance"
(a switch "Dark mode", a combo box "Language", a spin button "Font size"). The "Apply" button is disabled until
something changes; Apply writes every setting as JSON to OUT.json (atomically), prints "applied" and disables
itself again. "ready" is printed when the window is shown."""
import json
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

LANGUAGES = ["English", "Deutsch", "Français", "Español", "中文", "日本語"]


def main():
    if len(sys.argv) != 2:
        print("usage: settings-form.py OUT.json", file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    GLib.set_prgname("settings-form")
    win = Gtk.Window(title="Settings")
    win.set_default_size(460, 320)

    def named(widget, name):
        # The row's label is beside the widget, not bound to it: name the widget itself, as a11y-aware apps do.
        widget.get_accessible().set_name(name)
        return widget

    apply = Gtk.Button(label="Apply")
    apply.set_sensitive(False)

    def changed(*_args):
        apply.set_sensitive(True)

    def row(grid, i, label, widget):
        lab = Gtk.Label(label=label, xalign=0)
        lab.set_hexpand(True)
        grid.attach(lab, 0, i, 1, 1)
        grid.attach(widget, 1, i, 1, 1)

    def page():
        grid = Gtk.Grid(row_spacing=10, column_spacing=20)
        grid.set_border_width(16)
        return grid

    wifi = named(Gtk.Switch(active=True, halign=Gtk.Align.END), "Wi-Fi")
    bluetooth = named(Gtk.Switch(active=False, halign=Gtk.Align.END), "Bluetooth")
    device = named(Gtk.Entry(text="debian-laptop"), "Device name")
    network = page()
    row(network, 0, "Wi-Fi", wifi)
    row(network, 1, "Bluetooth", bluetooth)
    row(network, 2, "Device name", device)

    dark = named(Gtk.Switch(active=False, halign=Gtk.Align.END), "Dark mode")
    language = named(Gtk.ComboBoxText(), "Language")
    for lang in LANGUAGES:
        language.append_text(lang)
    language.set_active(0)
    font = named(Gtk.SpinButton.new_with_range(8, 32, 1), "Font size")
    font.set_value(11)
    appearance = page()
    row(appearance, 0, "Dark mode", dark)
    row(appearance, 1, "Language", language)
    row(appearance, 2, "Font size", font)

    book = Gtk.Notebook()
    book.append_page(network, Gtk.Label(label="Network"))
    book.append_page(appearance, Gtk.Label(label="Appearance"))

    def state():
        return {
            "wifi": wifi.get_active(), "bluetooth": bluetooth.get_active(), "deviceName": device.get_text(),
            "darkMode": dark.get_active(), "language": language.get_active_text(), "fontSize": font.get_value_as_int(),
        }

    def on_apply(_b):
        tmp = out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(state(), f, ensure_ascii=False)
        os.replace(tmp, out)
        apply.set_sensitive(False)
        print("applied", flush=True)

    for sw in (wifi, bluetooth, dark):
        sw.connect("notify::active", changed)
    device.connect("changed", changed)
    language.connect("changed", changed)
    font.connect("value-changed", changed)
    apply.connect("clicked", on_apply)

    buttons = Gtk.Box(spacing=8, halign=Gtk.Align.END)
    buttons.set_border_width(8)
    close = Gtk.Button(label="Close")
    close.connect("clicked", lambda _b: win.destroy())
    buttons.pack_start(close, False, False, 0)
    buttons.pack_start(apply, False, False, 0)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    box.pack_start(book, True, True, 0)
    box.pack_start(buttons, False, False, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: print("ready", flush=True) and False)
    Gtk.main()


if __name__ == "__main__":
    main()
