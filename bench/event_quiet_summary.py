#!/usr/bin/python3
"""One table row from event_quiet.py's JSON line (stdin): idle events/s, then medians and maxima over the acts."""
import json, statistics, sys

d = json.loads(sys.stdin.read().strip().splitlines()[-1])
if 'error' in d:
    print('error:', d['error']); sys.exit(0)
acts = [x for x in d['acts'] if x.get('events')]
def col(k, f):
    v = [x[k] for x in acts]
    return round(f(v), 1) if v else None
print(json.dumps({'app': d['app'], 'toolkit': d.get('toolkit'), 'act_error': d['idle'].get('act_error'), 'idle_events_per_s': d['idle'].get('events_per_s'), 'idle_kinds': d['idle'].get('kinds'),
                  'acts_with_events': '%d/%d' % (len(acts), len(d['acts'])),
                  'first_p50': col('first_ms', statistics.median), 'last_p50': col('last_ms', statistics.median),
                  'last_max': col('last_ms', max), 'gap_after_first_p50': col('max_gap_after_first_ms', statistics.median),
                  'gap_after_first_max': col('max_gap_after_first_ms', max), 'events_p50': col('events', statistics.median),
                  'kinds': acts[0]['kinds'] if acts else None}))
