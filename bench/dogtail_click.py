#!/usr/bin/python3
"""dogtail's side of the find + click comparison (bench/dogtail.ts): in one app, finds a control by name and role and
clicks it through its accessibility action (Action "click", as our driver does), every dogtail delay off
(actionDelay, defaultDelay, typingDelay 0; search back-off 10 ms). A run is: the application by name from the
desktop, the control under it, the click. Each part is timed; what the app prints on stdout is the
caller's to check.
Prints one JSON line: {"runs_ms": [...], "median_ms": M, "find_median_ms": F, "click_median_ms": C} or {"error": "..."}.
usage: dogtail_click.py --app NAME --control NAME [--role 'check box'] [--runs 10] [--warmup 2]"""
import argparse, json, statistics, sys, time

from dogtail.config import config

config.actionDelay = 0
config.defaultDelay = 0
config.typingDelay = 0
config.searchBackoffDuration = 0.01
config.logDebugToStdOut = False
config.logDebugToFile = False
# The sandbox turns toolkit accessibility on by environment, not by the gsettings key dogtail checks on import.
config.checkForA11y = False

from dogtail import tree  # noqa: E402  (after the config: tree reads it on import)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--app', required=True)
    ap.add_argument('--control', required=True)  # not --name: GTK's own option, which dogtail's import of GTK takes out of argv
    ap.add_argument('--role', default='push button')
    ap.add_argument('--runs', type=int, default=10)
    ap.add_argument('--warmup', type=int, default=2)
    a = ap.parse_args()
    runs, finds, clicks = [], [], []
    try:
        for i in range(a.warmup + a.runs):
            t0 = time.perf_counter()
            app = tree.root.application(a.app)
            control = app.child(name=a.control, roleName=a.role)
            t1 = time.perf_counter()
            control.doActionNamed('click')
            t2 = time.perf_counter()
            if i >= a.warmup:
                runs.append((t2 - t0) * 1000)
                finds.append((t1 - t0) * 1000)
                clicks.append((t2 - t1) * 1000)
            time.sleep(0.25)  # the app at rest before the next run, as for ours
    except Exception as e:  # noqa: BLE001 - reported as the row's error
        print(json.dumps({'error': '%s: %s' % (type(e).__name__, e)}))
        return 1
    r = lambda x: round(x, 1)
    print(json.dumps({'runs_ms': [r(x) for x in runs], 'median_ms': r(statistics.median(runs)),
                      'find_median_ms': r(statistics.median(finds)), 'click_median_ms': r(statistics.median(clicks))}))
    return 0


if __name__ == '__main__':
    sys.exit(main())
