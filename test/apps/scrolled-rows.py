#!/usr/bin/python3
"""A mail composer's header as a scrolled area: twelve rows of a "To:" label and an entry holding
r<i>@example.com, in a scroll pane two or three rows high, scrolled to the bottom once shown (the first rows are
out of view above). The argument picks the toolkit: "gtk" (GTK 3: Gtk.ScrolledWindow around a Gtk.Grid) or "qt"
(Qt 6: QScrollArea around a grid layout). Prints "ready" once shown and scrolled, then "top <y>" whenever the
scroll position changes (so a test sees that a scroll reached the app)."""
import sys

ROWS = 12


def say(text):
    print(text, flush=True)


def gtk():
    import gi

    gi.require_version("Gtk", "3.0")
    from gi.repository import GLib, Gtk

    GLib.set_prgname("scrolled-rows")
    win = Gtk.Window(title="Scrolled rows")
    win.set_default_size(420, 160)
    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    scroller = Gtk.ScrolledWindow()
    scroller.set_min_content_height(80)
    scroller.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.AUTOMATIC)
    grid = Gtk.Grid(row_spacing=4, column_spacing=6)
    for i in range(ROWS):
        grid.attach(Gtk.Label(label="To:"), 0, i, 1, 1)
        entry = Gtk.Entry()
        entry.set_text(f"r{i}@example.com")
        entry.set_hexpand(True)
        grid.attach(entry, 1, i, 1, 1)
    scroller.add(grid)
    outer.pack_start(scroller, True, True, 0)
    subject = Gtk.Entry()
    subject.set_placeholder_text("Subject")
    outer.pack_start(subject, False, False, 0)
    win.add(outer)
    win.connect("destroy", Gtk.main_quit)
    adj = scroller.get_vadjustment()

    def to_bottom():
        adj.set_value(adj.get_upper() - adj.get_page_size())
        say("ready")
        adj.connect("value-changed", lambda a: say(f"top {int(a.get_value())}"))
        return False

    win.show_all()
    subject.grab_focus()  # the first entry would take the focus, and a focused element always shows
    GLib.timeout_add(300, to_bottom)
    Gtk.main()


def qt():
    from PyQt6.QtCore import QTimer
    from PyQt6.QtWidgets import QApplication, QGridLayout, QLabel, QLineEdit, QScrollArea, QVBoxLayout, QWidget

    app = QApplication(sys.argv)
    win = QWidget()
    win.setWindowTitle("Scrolled rows")
    win.resize(420, 160)
    outer = QVBoxLayout(win)
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFixedHeight(90)
    inner = QWidget()
    grid = QGridLayout(inner)
    for i in range(ROWS):
        grid.addWidget(QLabel("To:"), i, 0)
        entry = QLineEdit(f"r{i}@example.com")
        entry.setAccessibleName(f"Recipient {i + 1}")
        grid.addWidget(entry, i, 1)
    area.setWidget(inner)
    outer.addWidget(area)
    subject = QLineEdit()
    subject.setPlaceholderText("Subject")
    outer.addWidget(subject)
    win.show()
    subject.setFocus()
    bar = area.verticalScrollBar()

    def to_bottom():
        bar.setValue(bar.maximum())
        say("ready")
        bar.valueChanged.connect(lambda v: say(f"top {v}"))

    QTimer.singleShot(300, to_bottom)
    sys.exit(app.exec())


if __name__ == "__main__":
    qt() if sys.argv[1:] == ["qt"] else gtk()
