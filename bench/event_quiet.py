#!/usr/bin/python3
"""How long an app's accessibility events keep coming after an act: the data a per-toolkit settle quiet time would
rest on. In one running app, finds a control by name and role, runs its first action `--runs` times, and records
every AT-SPI event of that app the driver listens to (--all-kinds: every one) (by arrival time on this connection) in the `--window` ms after each action.
First the app's idle event rate (1 s, nothing done). Per act: the first event, the last event, and the longest gap between two events of the burst (the act itself
counts as the burst's start, so an app that reacts late shows a long first gap). Prints one JSON line:
{"acts": [{"first_ms", "last_ms", "max_gap_ms", "max_gap_after_first_ms", "events"}...]} or {"error": "..."}.
With --control 'A;B' the acts take the controls in turn (a page switcher: each act switches).
usage: event_quiet.py --app NAME --control NAME --role 'check box' [--runs 10] [--window 1500]"""
import argparse, json, re, sys, time

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, GLib


# The kinds the driver does not listen to (src/drivers/linux/bus/events.ts): they never keep its settle busy.
NOISE = re.compile(r'bounds-changed|text-caret-moved|visible-data-changed|text-attributes-changed')


def descend(node, control, role, depth=0):
    if node.get_name() == control and node.get_role_name() == role:
        return node
    if depth > 40:
        return None
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        hit = child and descend(child, control, role, depth + 1)
        if hit:
            return hit
    return None


def find(app_name, control, role):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is not None and app.get_name() == app_name:
            hit = descend(app, control, role)
            if hit is not None:
                return app, hit
    names = [desktop.get_child_at_index(i).get_name() for i in range(desktop.get_child_count())]
    raise RuntimeError('control not found; apps: %s' % names[:12])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--app', required=True)
    ap.add_argument('--control', required=True)
    ap.add_argument('--role', default='push button')
    ap.add_argument('--runs', type=int, default=10)
    ap.add_argument('--window', type=int, default=1500)
    ap.add_argument('--all-kinds', action='store_true', help='count the kinds the driver ignores too')
    a = ap.parse_args()
    try:
        found = [find(a.app, name, a.role) for name in a.control.split(';')]
        app, controls = found[0][0], [hit for _, hit in found]
    except Exception as e:  # noqa: BLE001 - reported as the row's error
        print(json.dumps({'error': '%s: %s' % (type(e).__name__, e)}))
        return 1
    bus_name = app.get_bus_name() if hasattr(app, 'get_bus_name') else None
    pid = app.get_process_id()
    times = []
    kinds = {}

    def on_event(ev):
        if NOISE.search(ev.type) and not a.all_kinds:
            return
        try:
            if ev.source.get_process_id() != pid:
                return
        except Exception:  # noqa: BLE001 - an event whose app is gone still counts
            pass
        times.append(time.perf_counter())
        kinds[ev.type] = kinds.get(ev.type, 0) + 1

    listener = Atspi.EventListener.new(on_event)
    for kind in ('object:', 'window:', 'focus:'):
        listener.register(kind)
    acts = []
    state = {'i': 0, 't0': 0.0}
    idle = {}

    def start_idle():
        del times[:]
        kinds.clear()
        GLib.timeout_add(1000, end_idle)
        return False

    def end_idle():
        # Events the app sends with nothing done to it (animations, timers): a settle can never see quiet then.
        idle['events_per_s'] = len(times)
        idle['kinds'] = dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:4])
        kinds.clear()
        GLib.timeout_add(100, act)
        return False

    def act():
        del times[:]
        kinds.clear()
        state['t0'] = time.perf_counter()
        try:
            controls[state['i'] % len(controls)].do_action(0)
        except Exception as e:  # noqa: BLE001 - a control without an action: the idle figure still stands
            idle['act_error'] = str(e)
            Atspi.event_quit()
            return False
        GLib.timeout_add(a.window, collect)
        return False

    def collect():
        t0 = state['t0']
        ts = [(t - t0) * 1000 for t in times if t >= t0]
        if ts:
            gaps = [ts[0]] + [b - x for x, b in zip(ts, ts[1:])]
            acts.append({'first_ms': round(ts[0], 1), 'last_ms': round(ts[-1], 1), 'max_gap_ms': round(max(gaps), 1),
                         'max_gap_after_first_ms': round(max(gaps[1:] or [0]), 1), 'events': len(ts),
                         'kinds': dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:3])})
        else:
            acts.append({'events': 0})
        state['i'] += 1
        if state['i'] >= a.runs:
            Atspi.event_quit()
        else:
            GLib.timeout_add(100, act)
        return False

    GLib.timeout_add(300, start_idle)
    Atspi.event_main()
    toolkit = {}
    try:
        toolkit = {'name': app.get_toolkit_name(), 'version': app.get_toolkit_version()}
    except Exception:  # noqa: BLE001 - an app without the Application interface: no toolkit named
        pass
    print(json.dumps({'app': a.app, 'bus': bus_name, 'toolkit': toolkit, 'idle': idle, 'acts': acts}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
