/**
 * Android observe cost without a phone (docs/platforms.md, "Verified on"): a 300-row Settings-style list assembled in
 * uiautomator's dump format from the rows of test/fixtures/android (assembled, not recorded), parsed into the
 * protocol tree (drivers/android: parseUiDump + screenTree) and rendered by the engine (buildSnapshot), per node.
 * The dump's own time on a device is not measured here (no phone). Runs alone (`node dist/bench/android.js`) or
 * from bench/run.ts (BENCH_APPS=android).
 */
import { screenOf, screenTree } from '../src/drivers/android/screen.js';
import { RefTable } from '../src/engine/refs.js';
import { buildSnapshot } from '../src/engine/snapshot.js';
import { countNodes } from '../src/engine/node.js';
import { RUNS } from './config.js';
import { summarize, table, type Summary } from './stats.js';
import { isEntryModule } from '../src/drivers/common/entry.js';

/** One row of Settings (a clickable LinearLayout with a title and a summary), as the fixtures write it. */
function row(i: number, top: number): string {
  const b = (l: number, t: number, r: number, bt: number): string => `[${l},${t}][${r},${bt}]`;
  const attrs = (cls: string, extra: string, bounds: string): string =>
    `class="${cls}" package="com.android.settings" checkable="false" checked="false" clickable="` +
    `${cls.endsWith('LinearLayout')}" enabled="true" focusable="${cls.endsWith('LinearLayout')}" ` +
    `focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="` +
    `${bounds}" ${extra}`;
  return (
    `<node index="${i}" text="" resource-id="" content-desc="" ` +
    `${attrs('android.widget.LinearLayout', '', b(0, top, 1080, top + 200))}>` +
    (`<node index="0" text="Network ${i + 1}" resource-id="android:id/title" content-desc="" ` +
      `${attrs('android.widget.TextView', '', b(48, top + 40, 1000, top + 100))}/>`) +
    (`<node index="1" text="Saved · secured with WPA${(i % 3) + 1}" resource-id="android:id/summary" ` +
      `content-desc="" ${attrs('android.widget.TextView', '', b(48, top + 110, 1000, top + 160))}/>`) +
    '</node>'
  );
}

/** The assembled 300-row screen. */
export function longListDump(rows = 300): string {
  const list = Array.from({ length: rows }, (_, i) => row(i, 300 + i * 200)).join('');
  return (
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">" +
    '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">' +
    (`<node index="0" text="" resource-id="com.android.settings:id/recycler_view" ` +
      `class="androidx.recyclerview.widget.RecyclerView" package="com.android.settings" content-desc="" ` +
      `checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" ` +
      `scrollable="true" long-clickable="false" password="false" selected="false" ` +
      `bounds="[0,300][1080,2400]">${list}</node>`) +
    '</node></hierarchy>'
  );
}

/** Parse and render timings of the 300-row list. */
export interface AndroidBench {
  nodes: number;
  parse: Summary;
  render: Summary;
  parseUsPerNode: number;
  renderUsPerNode: number;
  tokens: number;
}

export function benchAndroid(runs = RUNS): AndroidBench {
  const xml = longListDump();
  const fg = { packageName: 'com.android.settings', activity: 'com.android.settings.Settings$WifiSettingsActivity' };
  const window = {
    id: 'com.android.settings/.Settings$WifiSettingsActivity',
    title: 'Wi-Fi',
    app: 'com.android.settings',
    pid: 1,
    role: 'window' as const,
    focused: true,
  };
  const parse: number[] = [];
  const render: number[] = [];
  let nodes = 0;
  let tokens = 0;
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const root = screenTree(screenOf(xml, fg, 0), window.id, 'Wi-Fi', { width: 1080, height: 2400 });
    const t1 = performance.now();
    const snap = buildSnapshot({ window, root }, new RefTable());
    const t2 = performance.now();
    if (i < 2) continue; // warm-up
    parse.push(t1 - t0);
    render.push(t2 - t1);
    nodes = countNodes(root);
    tokens = snap.tokens;
  }
  const p = summarize(parse);
  const r = summarize(render);
  return {
    nodes,
    parse: p,
    render: r,
    parseUsPerNode: Math.round(((p.p50 * 1000) / nodes) * 10) / 10,
    renderUsPerNode: Math.round(((r.p50 * 1000) / nodes) * 10) / 10,
    tokens,
  };
}

/** The table bench/run.ts prints. */
export function androidTable(b: AndroidBench): string {
  return table(
    ['case', 'nodes', 'parse p50 ms', 'parse µs/node', 'render p50 ms', 'render µs/node', 'tokens'],
    [
      [
        '300-row list (assembled dump)',
        b.nodes,
        b.parse.p50,
        b.parseUsPerNode,
        b.render.p50,
        b.renderUsPerNode,
        b.tokens,
      ],
    ],
  );
}

if (isEntryModule(import.meta.url))
  process.stdout.write(`Android: parse + render of a long list\n${androidTable(benchAndroid())}\n`);
