/**
 * A fake phone that reacts like one: the screen is a dump (from test/fixtures/android), `uiautomator dump` prints
 * it, and the input the driver sends changes it as Android would — a tap on a checkable view flips it, a tap on
 * an EditText focuses it, `input text` and the ADB Keyboard broadcast type into the focused field, KEYCODE_DEL
 * deletes, BACK pops the screen. Everything arrives through the fake adb server and mksh, so the test sees only
 * what really crossed the wire.
 */
import { readFileSync } from 'node:fs';
import { parseUiDump, type UiDump, type UiNode } from '../../src/drivers/android/uixml.js';
import { FakeAdbServer } from './fake-adb-server.js';
import { MkshDevice } from './fake-device.js';

/** Reads a fixture screen. */
export function fixtureScreen(name: string): string {
  return readFileSync(new URL(`../../../test/fixtures/android/${name}`, import.meta.url), 'utf8');
}

const esc = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');

/** Writes a dump back in uiautomator's format. */
export function serializeDump(d: UiDump): string {
  const node = (n: UiNode): string => {
    const attrs = [
      ['index', String(n.index)],
      ['text', n.text],
      ['resource-id', n.resourceId],
      ['class', n.className],
      ['package', n.packageName],
      ['content-desc', n.contentDesc],
      ...(n.hint !== undefined ? [['hint', n.hint]] : []),
      ['checkable', String(n.checkable)],
      ['checked', String(n.checked)],
      ['clickable', String(n.clickable)],
      ['enabled', String(n.enabled)],
      ['focusable', String(n.focusable)],
      ['focused', String(n.focused)],
      ['scrollable', String(n.scrollable)],
      ['long-clickable', String(n.longClickable)],
      ['password', String(n.password)],
      ['selected', String(n.selected)],
      ['bounds', `[${n.bounds[0]},${n.bounds[1]}][${n.bounds[2]},${n.bounds[3]}]`],
    ]
      .map(([k, v]) => `${k}="${esc(v!)}"`)
      .join(' ');
    return n.children.length ? `<node ${attrs}>${n.children.map(node).join('')}</node>` : `<node ${attrs} />`;
  };
  return (
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${d.rotation}">` +
    `${d.roots.map(node).join('')}</hierarchy>`
  );
}

/** The uids the fake phone's packages were installed with (`pm list packages -U`). */
export const PACKAGE_UIDS: Readonly<Record<string, number>> = {
  'com.android.settings': 1000,
  'com.example.messenger': 10123,
  'org.mozilla.firefox': 10140,
};

/** One screen of the fake phone: its dump and the activity in front. */
export interface PhoneScreen { dump: UiDump; activity: string }

export class FakePhone {
  readonly device: MkshDevice;
  readonly server: FakeAdbServer;
  /** The back stack; the last screen is in front. */
  readonly stack: PhoneScreen[] = [];
  ime = 'com.android.inputmethod.latin/.LatinIME';
  locked = false;
  /** Every argv the phone ran, in order. */
  readonly log: string[][] = [];
  /** Called when a node is tapped, to open another screen (returns it) or do nothing. */
  onTap?: (node: UiNode, phone: FakePhone) => PhoneScreen | undefined;

  constructor(first: PhoneScreen, serial = 'emulator-5554') {
    this.device = new MkshDevice(serial);
    this.server = new FakeAdbServer([this.device]);
    this.stack.push(first);
    this.device.print('getprop.ro.product.model', 'sdk_gphone64_x86_64\n');
    this.device.print('getprop.ro.product.manufacturer', 'Google\n');
    this.device.print('getprop.ro.build.version.release', '14\n');
    this.device.print('getprop.ro.build.version.sdk', '34\n');
    this.device.print('wm.size', 'Physical size: 1080x2400\n');
    this.device.print('wm.density', 'Physical density: 420\n');
    this.device.print('pidof', '4242\n');
    this.device.print(
      'pm.list',
      Object.entries(PACKAGE_UIDS)
        .map(([p, u]) => `package:${p} uid:${u}`)
        .join('\n') + '\n',
    );
    this.device.onCommand = (calls) => { for (const c of calls) { this.log.push(c); this.apply(c); } this.render(); };
    this.render();
  }

  get front(): PhoneScreen { return this.stack[this.stack.length - 1]!; }

  /** Pushes a screen (an app opened a page). */
  open(screen: PhoneScreen): void { this.stack.push(screen); this.render(); }

  /** Writes what the stubs print for the current state. */
  render(): void {
    const pkg = this.front.dump.roots[0]?.packageName ?? '';
    this.device.print('uiautomator', `${serializeDump(this.front.dump)}\nUI hierchary dumped to: /dev/tty\n`);
    this.device.print(
      'dumpsys.window',
      `  mCurrentFocus=Window{1a2b u0 ${pkg}/${this.front.activity}}\n  mShowingLockscreen=${this.locked}\n`,
    );
    this.device.print('settings', `${this.ime}\n`);
    // Every app's pid is 4242 here (one pidof answer): its /proc shows the app in front, under its package's uid.
    this.device.proc(4242, pkg, PACKAGE_UIDS[pkg] ?? 10999);
  }

  private all(): UiNode[] {
    const out: UiNode[] = [];
    const walk = (n: UiNode): void => { out.push(n); n.children.forEach(walk); };
    this.front.dump.roots.forEach(walk);
    return out;
  }

  private focusedField(): UiNode | undefined {
    return this.all().find((n) => n.focused && /EditText/.test(n.className));
  }

  private apply(argv: string[]): void {
    const [prog, verb, ...rest] = argv;
    if (prog === 'input' && verb === 'tap') {
      const [x, y] = rest.map(Number) as [number, number];
      const hit = this.all()
        .filter(
          (n) =>
            n.enabled &&
            (n.clickable || n.checkable) &&
            x >= n.bounds[0] &&
            x < n.bounds[2] &&
            y >= n.bounds[1] &&
            y < n.bounds[3],
        )
        .at(-1);
      if (!hit) return;
      if (hit.checkable) hit.checked = !hit.checked;
      if (/EditText/.test(hit.className)) { for (const n of this.all()) n.focused = false; hit.focused = true; }
      const next = this.onTap?.(hit, this);
      if (next) this.stack.push(next);
    } else if (prog === 'input' && verb === 'text') {
      const f = this.focusedField();
      if (f) f.text += (rest[0] ?? '').replace(/%s/g, ' ');
    } else if (
      prog === 'am' &&
      verb === 'broadcast' &&
      rest[1] === 'ADB_INPUT_B64' &&
      this.ime === 'com.android.adbkeyboard/.AdbIME'
    ) {
      const f = this.focusedField();
      if (f) f.text += Buffer.from(rest[4] ?? '', 'base64').toString('utf8');
    } else if (prog === 'input' && verb === 'keyevent') {
      for (const code of rest) {
        const f = this.focusedField();
        if (code === 'KEYCODE_DEL' && f) f.text = f.text.slice(0, -1);
        if (code === 'KEYCODE_BACK' && this.stack.length > 1) this.stack.pop();
      }
    }
  }

  /** The screen's dump parsed from a fixture. */
  static screen(fixture: string, activity: string): PhoneScreen {
    return { dump: parseUiDump(fixtureScreen(fixture)), activity };
  }

  async start(): Promise<number> { return this.server.start(); }
  async stop(): Promise<void> { await this.server.stop(); this.device.dispose(); }
}
