#!/usr/bin/python3
"""The conformance kit's native harness on Linux (GTK 3), described by test/conformance/scenarios.json (harness
"gtk"). Every control carries an accessible id (AT-SPI AccessibleId), the stable id the kit finds it by:
- "name": entry "Name"; "agree": check box "Agree";
- "hello": button "Hello" sets the "status" label to "Status: hello";
- "never": button "Never", always disabled; a click would set "Status: never";
- "target": button "Target"; "replace": button "Replace" destroys "target" and puts a new "Target" button (a new
  accessible object with the same id) in its place;
- "level": slider "Level", 0 to 10 (a value beyond that must be refused, not clamped);
- "open": button "Open window" opens a window "Closing window" whose button "Close window" closes it.
Prints "ready" once the window is shown, and one line per thing that happened."""
import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

GLib.set_prgname("conformance-harness")


def say(text):
    print(text, flush=True)


def ident(widget, stable_id, name=None):
    acc = widget.get_accessible()
    acc.set_accessible_id(stable_id)
    if name is not None:
        acc.set_name(name)
    return widget


def main():
    win = Gtk.Window(title="Conformance harness (GTK)")
    win.set_default_size(360, 300)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    name = ident(Gtk.Entry(), "name", "Name")
    name.connect("changed", lambda e: say("name " + e.get_text()))
    agree = ident(Gtk.CheckButton(label="Agree"), "agree")
    agree.connect("toggled", lambda b: say("agree " + ("on" if b.get_active() else "off")))
    status = ident(Gtk.Label(label="Status: idle"), "status")
    hello = ident(Gtk.Button(label="Hello"), "hello")
    hello.connect("clicked", lambda _b: (status.set_text("Status: hello"), say("hello")))
    never = ident(Gtk.Button(label="Never"), "never")
    never.set_sensitive(False)
    never.connect("clicked", lambda _b: (status.set_text("Status: never"), say("never clicked")))
    slot = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL)
    state = {"target": None, "count": 0}

    def put_target():
        if state["target"] is not None:
            state["target"].destroy()
        state["target"] = ident(Gtk.Button(label="Target"), "target")
        state["target"].connect("clicked", lambda _b: say("target clicked"))
        slot.pack_start(state["target"], False, False, 0)
        state["target"].show()

    put_target()
    replace = ident(Gtk.Button(label="Replace"), "replace")

    def on_replace(_b):
        state["count"] += 1
        put_target()
        say("replaced %d" % state["count"])

    replace.connect("clicked", on_replace)
    level = ident(Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 10, 1), "level", "Level")
    level.set_value(5)
    level.connect("value-changed", lambda s: say("level %g" % s.get_value()))
    opener = ident(Gtk.Button(label="Open window"), "open")

    def open_window(_b):
        other = Gtk.Window(title="Closing window")
        other.set_transient_for(win)
        close = ident(Gtk.Button(label="Close window"), "close")
        close.connect("clicked", lambda _c: (other.destroy(), say("closed")))
        other.add(close)
        other.show_all()
        say("opened")

    opener.connect("clicked", open_window)
    for w in (name, agree, hello, status, never, level, slot, replace, opener):
        box.pack_start(w, False, False, 0)
    win.add(box)
    win.connect("destroy", Gtk.main_quit)
    win.show_all()
    GLib.idle_add(lambda: say("ready") and False)
    Gtk.main()


if __name__ == "__main__":
    main()
