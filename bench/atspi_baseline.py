#!/usr/bin/python3
"""libatspi baseline for the benchmark: finds one app's window (by pid, then title) and walks its full tree,
reading role, name, states, child count, interfaces, action count, value and text (<= 200 chars) per node.
Prints one JSON line: {"nodes": N, "runs_ms": [...], "median_ms": M} or {"error": "..."}.
usage: atspi_baseline.py --pid PID [--title TITLE] [--runs 5] [--warmup 1]"""
import argparse, json, statistics, sys, time

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi


def listing():
    desktop = Atspi.get_desktop(0)
    out = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            out.append('%s(pid %s, %d windows)' % (app.get_name(), app.get_process_id(), app.get_child_count()))
        except Exception as e:
            out.append('?(%s)' % e)
    return ', '.join(out)


def find_window(pid, title):
    desktop = Atspi.get_desktop(0)
    best = None
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        try:
            if app.get_process_id() != pid:
                continue
        except Exception:
            continue
        for j in range(app.get_child_count()):
            win = app.get_child_at_index(j)
            if win is None:
                continue
            name = win.get_name() or ''
            if title is None or name == title:
                return app, win
            if best is None and title.lower() in name.lower():
                best = (app, win)
    return best if best else (None, None)


def walk(node):
    count = 1
    node.get_role()
    node.get_name()
    node.get_state_set()
    n = node.get_child_count()
    ifaces = node.get_interfaces()
    if 'Action' in ifaces:
        try:
            node.get_n_actions()
        except Exception:
            pass
    if 'Value' in ifaces:
        try:
            node.get_current_value()
        except Exception:
            pass
    if 'Text' in ifaces:
        try:
            node.get_text(0, 200)
        except Exception:
            pass
    for i in range(n):
        try:
            child = node.get_child_at_index(i)
        except Exception:
            child = None
        if child is not None:
            count += walk(child)
    return count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pid', type=int, required=True)
    ap.add_argument('--title')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--warmup', type=int, default=1)
    a = ap.parse_args()
    app, win = find_window(a.pid, a.title)
    if win is None:
        print(json.dumps({'error': 'window not found (pid %d, title %r); libatspi sees: %s' % (a.pid, a.title, listing())}))
        return 1
    runs, nodes = [], 0
    for i in range(a.warmup + a.runs):
        # Cold reads, like our driver's: drop libatspi's client-side cache of this app first.
        app.clear_cache()
        t0 = time.perf_counter()
        nodes = walk(win)
        ms = (time.perf_counter() - t0) * 1000
        if i >= a.warmup:
            runs.append(ms)
    print(json.dumps({'nodes': nodes, 'runs_ms': [round(r, 1) for r in runs], 'median_ms': round(statistics.median(runs), 1)}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
