/**
 * AX notifications for settle: one AXObserver per target app (value changed, created, destroyed,
 * focused element changed, …) whose run-loop source sits on the JS thread's CFRunLoop. koffi may call a JS
 * callback only on the main thread, so the driver pumps that run loop itself (CFRunLoopRunInMode with a zero
 * timeout) from a timer and before each settle check; the callbacks fire during the pump. An app whose
 * observer cannot be created is settled by polling instead (the driver says which in the settle result).
 */
import type * as Koffi from 'koffi';
import { AX_ERROR, readString } from './cf.js';
import type { CFRef, MacApi } from './ffi.js';

/** The notifications observed on every target app. */
export const NOTIFICATIONS = [
  'AXValueChanged',
  'AXUIElementDestroyed',
  'AXCreated',
  'AXFocusedUIElementChanged',
  'AXTitleChanged',
  'AXWindowCreated',
  'AXMainWindowChanged',
  'AXSelectedChildrenChanged',
  'AXSelectedTextChanged',
  'AXMenuOpened',
  'AXLayoutChanged',
] as const;

interface Watch { observer: CFRef; app: CFRef; source: CFRef; names: CFRef[] }

/** Events seen from one process. */
export interface EventCount { count: number; last: number }

export class EventHub {
  private readonly watches = new Map<number, Watch>();
  private readonly failed = new Set<number>();
  private readonly counts = new Map<number, EventCount>();
  private callback: Koffi.IKoffiRegisteredCallback | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Called for each notification (events.subscribe). */
  onEvent: ((pid: number, type: string) => void) | undefined;

  constructor(private readonly api: MacApi, private readonly pumpMs = 25) {}

  /** Observes a process; false when its observer could not be made (the caller polls). */
  watch(pid: number): boolean {
    if (this.watches.has(pid)) return true;
    if (this.failed.has(pid)) return false;
    const api = this.api;
    this.callback ??= api.koffi.register(
      (_o: CFRef, el: CFRef, name: CFRef) => this.deliver(el, name),
      api.koffi.pointer(api.observerCallback),
    );
    const out: [CFRef] = [null];
    if (api.AXObserverCreate(pid, this.callback, out) !== AX_ERROR.success || !out[0]) {
      this.failed.add(pid);
      return false;
    }
    const observer = out[0];
    const app = api.AXUIElementCreateApplication(pid);
    const names: CFRef[] = [];
    let added = 0;
    for (const n of NOTIFICATIONS) {
      const units = Uint16Array.from(n, (c) => c.charCodeAt(0));
      const name = api.CFStringCreateWithCharacters(null, units, units.length);
      names.push(name);
      if (api.AXObserverAddNotification(observer, app, name, null) === AX_ERROR.success) added++;
    }
    const source = api.AXObserverGetRunLoopSource(observer);
    if (!added || !source) { this.release({ observer, app, source, names }); this.failed.add(pid); return false; }
    api.CFRunLoopAddSource(api.CFRunLoopGetCurrent(), source, api.kCFRunLoopDefaultMode);
    this.watches.set(pid, { observer, app, source, names });
    this.timer ??= setInterval(() => this.pump(), this.pumpMs);
    this.timer.unref();
    return true;
  }

  /** Runs the callbacks of whatever arrived (on this, the JS thread). */
  pump(): void {
    if (this.watches.size) this.api.CFRunLoopRunInMode(this.api.kCFRunLoopDefaultMode, 0, 0);
  }

  /** Events counted for a process so far. */
  countOf(pid: number): EventCount { return this.counts.get(pid) ?? { count: 0, last: 0 }; }

  private deliver(el: CFRef, name: CFRef): void {
    const pidOut = new Int32Array(1);
    const pid = this.api.AXUIElementGetPid(el, pidOut) === AX_ERROR.success ? pidOut[0] ?? 0 : 0;
    const type = readString(this.api, name, 64).text;
    const c = this.counts.get(pid) ?? { count: 0, last: 0 };
    c.count++;
    c.last = Date.now();
    this.counts.set(pid, c);
    this.onEvent?.(pid, type);
  }

  /** Stops observing a process (it quit). */
  unwatch(pid: number): void {
    const w = this.watches.get(pid);
    if (w) { this.release(w); this.watches.delete(pid); }
    this.failed.delete(pid);
  }

  private release(w: Watch): void {
    const api = this.api;
    if (w.source) api.CFRunLoopRemoveSource(api.CFRunLoopGetCurrent(), w.source, api.kCFRunLoopDefaultMode);
    for (const n of w.names) { api.AXObserverRemoveNotification(w.observer, w.app, n); api.CFRelease(n); }
    api.CFRelease(w.app);
    api.CFRelease(w.observer);
  }

  /** Releases every observer and the callback slot. */
  close(): void {
    for (const pid of [...this.watches.keys()]) this.unwatch(pid);
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.callback) this.api.koffi.unregister(this.callback);
    this.callback = undefined;
  }
}
