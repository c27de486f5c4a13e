/**
 * A window's first snapshot waits for its first layout: gnome-text-editor (GTK 4) listed its window with an info
 * bar GTK had not laid out yet ("Could Not Open File", "Retry") that was gone one read later (measured: 114 nodes
 * 270 ms after the window appeared, 49 nodes 400 ms later, the same 49 from then on); its Save As dialog, opened by
 * keys, read 175 nodes with "No results found" and "Try a different search", then 140 without, 3 of 3 times.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Device } from '../../src/devices/manager.js';
import { ComputerUseError } from '../../src/protocol/errors.js';
import { Policy } from '../../src/policy/policy.js';
import type { Handlers } from '../../src/protocol/peer.js';
import type { RawNode } from '../../src/engine/node.js';
import { Session } from '../../src/session/session.js';
import { FakeDriver } from '../../src/drivers/fake/driver.js';
import { TOOLS } from '../../src/tools/index.js';
import { runTool } from '../../src/tools/tool.js';
import { n } from '../fixtures/engine/build.js';
import { PolicyFake } from '../fixtures/policy/apps.js';

const B = ':1.80';
const INFO = {
  id: `${B}/org/a11y/atspi/accessible/1`,
  title: 'New Document (Draft) - Text Editor',
  app: 'gnome-text-editor',
  pid: 5151,
  role: 'window' as const,
  focused: true,
};

/** The editor before its first layout: an info bar that is never shown. */
function unlaidOut(): RawNode {
  return n(B, 1, 'window', { name: INFO.title }, [
    n(B, 2, 'label', { name: 'Could Not Open File' }),
    n(B, 3, 'button', { name: 'Retry', actions: ['click'] }),
    n(B, 4, 'textbox', { name: 'EditorSourceView', states: ['editable', 'focused'], actions: ['type'], value: '' }),
  ]);
}

/** The same window laid out: the info bar is gone. */
function laidOut(): RawNode {
  return n(B, 1, 'window', { name: INFO.title }, [
    n(B, 4, 'textbox', { name: 'EditorSourceView', states: ['editable', 'focused'], actions: ['type'], value: '' }),
  ]);
}

/**
 * A launch that opens the editor, whose tree reads unlaid-out `early` times before it is laid out for good;
 * with `early` Infinity a label changes on every read (a clock).
 */
class LayoutFake extends PolicyFake {
  reads = 0;
  constructor(private readonly early: number) { super([]); }
  private tree(): RawNode {
    const read = this.reads++;
    if (this.early !== Infinity) return read < this.early ? unlaidOut() : laidOut();
    const root = unlaidOut();
    root.children!.push(n(B, 9, 'label', { name: `read ${read}` }));
    return root;
  }
  override handlers(): Handlers {
    const base = super.handlers();
    return {
      ...base,
      'apps.launch': () => ({ pid: INFO.pid, window: INFO }),
      'tree.snapshot': () => ({ window: INFO, root: this.tree(), stats: { nodes: 3, ms: 1, truncated: false } }),
    };
  }
}

function setup(early: number, fake: LayoutFake = new LayoutFake(early)) {
  const dir = mkdtempSync(join(tmpdir(), 'cu-layout-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['gnome-text-editor'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  return {
    fake,
    session,
    call: (params: unknown) =>
      runTool(
        TOOLS.find((t) => t.schema.name === 'computer_launch')!,
        { session },
        params,
      ),
  };
}

test('the launch snapshot is the laid-out window, not the widgets of its first frame', async () => {
  const s = setup(1);
  const r = await s.call({ command: 'gnome-text-editor' });
  assert.match(r.text, /EditorSourceView/, r.text);
  assert.doesNotMatch(r.text, /Could Not Open File|Retry/, r.text);
  await s.session.close();
});

test('the wait reads until two reads agree, and no longer', async () => {
  const s = setup(1);
  await s.call({ command: 'gnome-text-editor' });
  assert.equal(s.fake.reads, 3);
  await s.session.close();
});

test('a window that keeps changing is shown as last read once the wait is over', async () => {
  const s = setup(Infinity);
  const r = await s.call({ command: 'gnome-text-editor' });
  assert.match(r.text, /Could Not Open File/, r.text);
  assert.ok(s.fake.reads > 2 && s.fake.reads < 100, `reads ${s.fake.reads}`);
  assert.match(r.text, new RegExp(`read ${s.fake.reads - 1}`), r.text);
  await s.session.close();
});

/** An editor whose ctrl+shift+s opens a Save As dialog that reads un-laid-out once. */
function saveAsSetup() {
  const main = { info: INFO, root: laidOut() };
  const fake = new FakeDriver([main]);
  const D = ':1.80';
  const dialogInfo = {
    id: `${D}/org/a11y/atspi/accessible/50`,
    title: 'Save As',
    app: 'gnome-text-editor',
    pid: INFO.pid,
    role: 'dialog' as const,
    focused: true,
  };
  const dialog = n(D, 50, 'dialog', { name: 'Save As' }, [
    n(D, 51, 'textbox', { name: 'Name:', states: ['editable', 'focused'], actions: ['set_value'], value: '' }),
    n(D, 52, 'label', { name: 'No results found' }),
  ]);
  let dialogReads = 0;
  fake.onKeys = () => { fake.windows.push({ info: dialogInfo, root: dialog }); };
  const base = fake.handlers()['tree.snapshot']!;
  fake.extra['tree.snapshot'] = (p, ctx) => {
    const r = base(p, ctx);
    // The dialog's first read is before its layout: from the second on the label is gone.
    if (p.window === dialogInfo.id && dialogReads++ === 0)
      dialog.children = dialog.children!.filter((c) => c.name !== 'No results found');
    return r;
  };
  const dir = mkdtempSync(join(tmpdir(), 'cu-layout-'));
  const policy = new Policy({
    mode: 'bypass',
    allowApps: ['gnome-text-editor'],
    processInfo: () => undefined,
    hostPids: [],
    audit: join(dir, 'audit.jsonl'),
    settingsPath: join(dir, 'home', 'settings.json'),
    protectedPaths: [join(dir, 'home')],
  });
  const session = new Session({ device: new Device({ connect: () => fake.connect() }), gate: policy });
  return {
    session,
    reads: () => dialogReads,
    call: (name: string, params: unknown) =>
      runTool(
        TOOLS.find((t) => t.schema.name === name)!,
        { session },
        params,
      ),
  };
}

test('a window an input opened is shown laid out', async () => {
  const s = saveAsSetup();
  await s.call('computer_observe', { app: 'gnome-text-editor' });
  const r = await s.call('computer_keys', { keys: 'ctrl+shift+s', app: 'gnome-text-editor' });
  assert.match(r.text, /new window \[w\d+\] dialog "Save As"/, r.text);
  assert.match(r.text, /textbox "Name:"/, r.text);
  assert.doesNotMatch(r.text, /No results found/, r.text);
  assert.equal(s.reads(), 3);
  await s.session.close();
});

/** A launch whose app is busy (not answering) for its first `busyReads` reads, as Thunar is while it loads 3,000 files. */
class BusyFake extends LayoutFake {
  constructor(private readonly busyReads: number) { super(0); }
  override handlers(): Handlers {
    const base = super.handlers();
    let read = 0;
    return {
      ...base,
      'tree.snapshot': (p, ctx) => {
        if (read++ < this.busyReads)
          throw new ComputerUseError('timeout', 'the app is busy (not answering); try again in a moment');
        return base['tree.snapshot']!(p, ctx);
      },
    };
  }
}

function setupBusy(busyReads: number) {
  return setup(0, new BusyFake(busyReads));
}

test('a launched app busy while it starts is waited for: the launch prints its window once it answers', async () => {
  const s = setupBusy(3);
  const r = await s.call({ command: 'gnome-text-editor' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^launched .* window \[w\d+\]/m, r.text);
  assert.match(r.text, /EditorSourceView/, r.text);
  await s.session.close();
});

test('a launched app still busy at the end: the launch worked, ' +
    'its window is named and the model is told to observe later', async () => {
  const s = setupBusy(Infinity);
  const r = await s.call({ command: 'gnome-text-editor' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^launched .*pid=5151 · window \[w\d+\]/m, r.text);
  assert.match(r.text, /busy \(not answering\)[^\n]*computer_observe/, r.text);
  await s.session.close();
});
