/**
 * GTK 2 apps and apps whose windows are not readable, started through computer_launch. GTK 2 has no accessibility
 * bridge of its own: the launch gives a GTK 2 program (LXTask here) the gail and atk-bridge modules, so its process
 * list reads as a tree, while a GTK 3 app gets no GTK_MODULES. A launched app whose window stays off the bus
 * (xmessage: Xaw speaks no AT-SPI) is answered at once with its window, not a timeout error, and keys into it say
 * that their effect was not read.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import type { Computer } from '../../../src/index.js';
import { E2E_APPS, killApp, launch, openComputer } from '../helpers.js';

const pids: number[] = [];
let computer: Computer | undefined;

after(async () => {
  for (const pid of pids) await killApp(pid);
  await computer?.close();
});

/** The GTK_MODULES a process was started with (undefined when unset). */
function gtkModulesOf(pid: number): string | undefined {
  const env = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  return env.find((kv) => kv.startsWith('GTK_MODULES='))?.slice('GTK_MODULES='.length);
}

test('a GTK 2 app launched through the tool is readable: its process list is a tree', async () => {
  computer = await openComputer({ allowApps: [...E2E_APPS, 'lxtask', 'xmessage'] });
  const { pid, text } = await launch(computer, 'lxtask');
  pids.push(pid);
  assert.equal(gtkModulesOf(pid), 'gail:atk-bridge');
  assert.match(text, /added for GTK 2: GTK_MODULES=gail:atk-bridge/, text);
  // The process list as a table: its column headers, and rows of cells. The tree reads as a grid when its cells
  // came with their coordinates (the columns past the view named), else as its header and cell lines.
  assert.match(text, /\[e\d+\] (tree|table|list)\b/, text);
  if (/\[e\d+\] tree[^\n]* cells A1:[A-Z]+\d+ of \d+ × 9/.test(text)) {
    assert.match(text, /columns [A-I]–I out of view|\bPID\b/, text);
  } else {
    assert.match(text, /columnheader "PID"/, text);
    // How many rows fit and how many columns show depend on the window's layout (lxtask keeps its own; in a
    // sandbox's fresh home it starts from its defaults) and on the longest command line running. The slice is
    // counted in rows when the cells say theirs: every row on screen prints at least its first cell. Else in the
    // tree's children (its headers and cells): at least five whole rows print.
    const span = /(rows|cells) ([\d,]+)–([\d,]+) of [\d,]+ on screen/.exec(text);
    assert.ok(span, text);
    const cells = (text.match(/\bcell "/g) ?? []).length;
    if (span[1] === 'rows') {
      const onScreen = Number(span[3]!.replace(/,/g, '')) - Number(span[2]!.replace(/,/g, '')) + 1;
      assert.ok(onScreen >= 5 && cells >= onScreen, text);
    } else {
      const columns = (text.match(/\bcolumnheader "/g) ?? []).length;
      assert.ok(columns > 0 && cells >= 5 * columns, text);
    }
  }
  assert.doesNotMatch(text, /not accessible|no accessibility tree/, text);
  const apps = (await computer.tools.apps({})).text;
  assert.match(apps, new RegExp(`lxtask pid=${pid}\\n  \\[w\\d+\\] `), apps);
});

test('a GTK 3 app gets no GTK_MODULES', async () => {
  computer ??= await openComputer({ allowApps: [...E2E_APPS, 'lxtask', 'xmessage'] });
  const { pid, text } = await launch(computer, 'mousepad');
  pids.push(pid);
  assert.equal(gtkModulesOf(pid), undefined);
  assert.doesNotMatch(text, /added for GTK 2/, text);
});

test('a launched window off the accessibility bus is answered at once, with the way to read it', async () => {
  computer ??= await openComputer({ allowApps: [...E2E_APPS, 'lxtask', 'xmessage'] });
  const r = await computer.tools.launch({
    command: 'xmessage',
    args: ['-title', 'Quokka launch', 'The quokka launched'],
    waitMs: 30000,
  });
  const pid = Number(/pid=(\d+)/.exec(r.text)?.[1]);
  if (pid > 0) pids.push(pid);
  assert.equal(r.isError, false, r.text);
  const ref = /window \[(w\d+)\] "Quokka launch"/.exec(r.text)?.[1];
  assert.ok(ref, r.text);
  assert.match(r.text, /no accessibility tree \(not readable: its toolkit does not speak AT-SPI\)/, r.text);
  const ocr = await computer.tools.screenshot({ window: ref });
  assert.match(ocr.text, /quokka/i, ocr.text);
  // A key xmessage ignores: the window stays, and the tool cannot see what it did.
  const keys = await computer.tools.keys({ keys: 'F5', window: ref });
  assert.match(keys.text, /no accessibility tree, so their effect was not read/, keys.text);
  assert.doesNotMatch(keys.text, /nothing visible changed/, keys.text);
});
