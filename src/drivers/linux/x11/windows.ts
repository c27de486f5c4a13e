/**
 * Window facts read over the X protocol (EWMH properties the window manager and the toolkits keep), window
 * activation through the window manager, and hit testing in the real stacking order.
 */
import type { Rect } from '../../../protocol/methods.js';
import type { X11 } from './connection.js';
import { topmostAt, type StackedWindow, type XWindowFacts } from './match.js';

const ANY_TYPE = 0;
/** `map_state` of a window that is mapped and all of whose ancestors are mapped. */
const VIEWABLE = 2;

interface Property { type: number; format: number; data: Buffer }

/** Reads window properties and acts on windows through one connection. */
export class XWindows {
  constructor(readonly x: X11) {}

  /** A property's raw value, or undefined when the window has none (or is gone). */
  async property(win: number, name: string, maxBytes = 65536): Promise<Property | undefined> {
    try {
      const p = await this.x.request<Property>(
        'GetProperty',
        0,
        win,
        await this.x.atom(name),
        ANY_TYPE,
        0,
        Math.ceil(maxBytes / 4),
      );
      return p.type === 0 ? undefined : p;
    } catch { return undefined; }
  }

  /** A property of 32-bit items (CARDINAL, WINDOW, ATOM lists). */
  async cardinals(win: number, name: string): Promise<number[]> {
    const p = await this.property(win, name);
    if (!p || p.format !== 32) return [];
    const out: number[] = [];
    for (let i = 0; i + 4 <= p.data.length; i += 4) out.push(p.data.readUInt32LE(i));
    return out;
  }

  /** A STRING property of the root window (e.g. `AT_SPI_BUS`), or undefined when it is not set. */
  async rootString(name: string): Promise<string | undefined> {
    const p = await this.property(this.x.root, name, 4096);
    return p && p.format === 8 ? p.data.toString('latin1') : undefined;
  }

  /** Sets a STRING property on the root window (replacing it) and waits until the server processed it. */
  async setRootString(name: string, value: string): Promise<void> {
    const XA_STRING = 31;
    this.x.send(
      this.x.client,
      'ChangeProperty',
      0,
      this.x.root,
      await this.x.atom(name),
      XA_STRING,
      8,
      Buffer.from(value, 'latin1'),
    );
    await this.x.sync();
  }

  /** The window the window manager calls active (`_NET_ACTIVE_WINDOW`), or undefined. */
  async activeWindow(): Promise<number | undefined> {
    const [id] = await this.cardinals(this.x.root, '_NET_ACTIVE_WINDOW');
    return id ? id : undefined;
  }

  /**
   * True when the server's keyboard focus (GetInputFocus) lies in `win` or a window inside it. The focus is
   * server state no client can write, unlike the root's `_NET_ACTIVE_WINDOW` property.
   */
  async focusWithin(win: number, depth = 8): Promise<boolean> {
    const { focus } = await this.x.request<{ focus: number }>('GetInputFocus');
    let w = focus;
    // 0 is None and 1 PointerRoot: no window has the focus as such.
    for (let i = 0; w > 1 && i < depth; i++) {
      if (w === win) return true;
      if (w === this.x.root) return false;
      const tree = await this.x.request<{ parent: number }>('QueryTree', w).catch(() => undefined);
      if (!tree) return false;
      w = tree.parent;
    }
    return false;
  }

  /**
   * The process that owns a window: the X-Resource extension's client pid (the server's own knowledge of the
   * connection, which a client cannot fake), else `_NET_WM_PID` (which the client sets itself).
   */
  async pidOf(win: number): Promise<number | undefined> {
    // No X-Resource answer (no extension, or a remote client): fall back to the property.
    const proven = await this.serverPidOf(win);
    if (proven !== undefined) return proven;
    const [pid] = await this.cardinals(win, '_NET_WM_PID');
    return pid ? pid : undefined;
  }

  /**
   * The pid of the client that created a window, as the X server knows it (X-Resource LocalClientPID, taken
   * from the connection's socket when it connected); undefined when the server cannot tell. This is the only
   * pid that proves anything: `_NET_WM_PID` is whatever the client wrote.
   */
  async serverPidOf(win: number): Promise<number | undefined> {
    try {
      const res = await this.x.extension('res');
      const ids = await this.x.extRequest<{ mask: number; value: number[] }[]>(res, 'QueryClientIds', [
        { client: win, mask: 2 /* LocalClientPID */ },
      ]);
      const pid = ids.find((i) => i.mask === 2)?.value[0];
      return pid ? pid : undefined;
    } catch { return undefined; }
  }

  /** The root's child that holds a window (its window manager frame, or the window itself); bounded depth. */
  async topLevelOf(win: number, depth = 8): Promise<number> {
    let w = win;
    for (let i = 0; i < depth; i++) {
      const tree = await this.x.request<{ parent: number }>('QueryTree', w).catch(() => undefined);
      if (!tree || tree.parent === this.x.root || tree.parent === 0) return w;
      w = tree.parent;
    }
    return w;
  }

  /** The top-level client windows, bottom to top (`_NET_CLIENT_LIST_STACKING`). */
  clientStack(): Promise<number[]> {
    return this.cardinals(this.x.root, '_NET_CLIENT_LIST_STACKING');
  }

  /** The window's title (`_NET_WM_NAME`, else `WM_NAME`). */
  async title(win: number): Promise<string | undefined> {
    const p = (await this.property(win, '_NET_WM_NAME')) ?? (await this.property(win, 'WM_NAME'));
    return p ? p.data.toString(p.type === (await this.x.atom('UTF8_STRING')) ? 'utf8' : 'latin1') : undefined;
  }

  /** `WM_CLASS`: the class part ("Gedit"), or the instance when there is no class. */
  async wmClass(win: number): Promise<string | undefined> {
    const p = await this.property(win, 'WM_CLASS', 1024);
    if (!p) return undefined;
    const [instance, klass] = p.data.toString('latin1').split('\0');
    return klass || instance || undefined;
  }

  /** `_NET_WM_STATE` as atom names (`_NET_WM_STATE_ABOVE`, `_NET_WM_STATE_HIDDEN`, …). */
  async state(win: number): Promise<string[]> {
    const atoms = await this.cardinals(win, '_NET_WM_STATE');
    return Promise.all(atoms.map((a) => this.x.request<string>('GetAtomName', a).catch(() => '')));
  }

  /** The client area in root coordinates, and the frame around it when the window manager reports one. */
  async geometry(win: number): Promise<{ rect: Rect; frame?: Rect } | undefined> {
    try {
      const [g, t, ext] = await Promise.all([
        this.x.request<{ width: number; height: number }>('GetGeometry', win),
        this.x.request<{ destX: number; destY: number }>('TranslateCoordinates', win, this.x.root, 0, 0),
        this.cardinals(win, '_NET_FRAME_EXTENTS'),
      ]);
      const rect: Rect = [t.destX, t.destY, g.width, g.height];
      const [l = 0, r = 0, top = 0, b = 0] = ext;
      return ext.length === 4
        ? { rect, frame: [rect[0] - l, rect[1] - top, rect[2] + l + r, rect[3] + top + b] }
        : { rect };
    } catch { return undefined; }
  }

  /** What matching needs about each top-level client window. */
  async clients(): Promise<XWindowFacts[]> {
    const ids = await this.clientStack();
    const facts = await Promise.all(ids.map(async (id): Promise<XWindowFacts | undefined> => {
      const [pid, title, geo] = await Promise.all([this.pidOf(id), this.title(id), this.geometry(id)]);
      if (!geo) return undefined;
      const f: XWindowFacts = { id, rect: geo.rect };
      if (pid !== undefined) f.pid = pid;
      if (title !== undefined) f.title = title;
      if (geo.frame) f.frame = geo.frame;
      return f;
    }));
    return facts.filter((f): f is XWindowFacts => f !== undefined);
  }

  /**
   * Asks the window manager to activate a window (`_NET_ACTIVE_WINDOW` client message, source indication 2:
   * a pager, which window managers honour) and waits, bounded, until it is the active window.
   */
  async activate(win: number, timeoutMs = 1500): Promise<boolean> {
    const current = (await this.activeWindow()) ?? 0;
    if (current === win) return true;
    const atom = await this.x.atom('_NET_ACTIVE_WINDOW');
    this.x.send(this.x.client, 'SendClientMessage', this.x.root, win, atom, 32, [2, 0, current, 0, 0]);
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if ((await this.activeWindow()) === win) return true;
      if (performance.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  /**
   * Asks for a window to close as its title bar's close button does: the window manager's `_NET_CLOSE_WINDOW`
   * (source indication 2, a pager), else, with no window manager that offers it, the `WM_DELETE_WINDOW` message of
   * the window's own protocols, which is what a window manager sends. Never a kill: the app may ask first or refuse.
   * Answers how it asked, or undefined when the window takes neither.
   */
  async close(win: number): Promise<'_NET_CLOSE_WINDOW' | 'WM_DELETE_WINDOW' | undefined> {
    const net = await this.x.atom('_NET_CLOSE_WINDOW');
    if ((await this.cardinals(this.x.root, '_NET_SUPPORTED')).includes(net)) {
      this.x.send(this.x.client, 'SendClientMessage', this.x.root, win, net, 32, [0, 2, 0, 0, 0]);
      await this.x.sync();
      return '_NET_CLOSE_WINDOW';
    }
    const [protocols, del] = await Promise.all([this.x.atom('WM_PROTOCOLS'), this.x.atom('WM_DELETE_WINDOW')]);
    if (!(await this.cardinals(win, 'WM_PROTOCOLS')).includes(del)) return undefined;
    // Aimed at another client's window: event mask 0 delivers it to the window's owner (xcore.js SendClientMessage).
    this.x.send(this.x.client, 'SendClientMessage', win, win, protocols, 32, [del, 0, 0, 0, 0], 0);
    await this.x.sync();
    return 'WM_DELETE_WINDOW';
  }

  /**
   * The window on top at a screen point, in the server's real stacking order (the root's children, which
   * includes menus and other override-redirect windows that no client list names), with the process that
   * owns what is shown there: the client inside a window manager's frame, else the window's own client.
   */
  async topmostAt(x: number, y: number): Promise<{ window: number; pid?: number } | undefined> {
    // A window that closes while it is looked at (a popup going away) has no owner to tell: look again.
    for (let attempt = 0; ; attempt++) {
      const hit = await this.topmostOnce(x, y);
      if (!hit || hit.pid !== undefined || attempt >= 2) return hit;
      const gone = await this.x.request('GetWindowAttributes', hit.window).then(() => false, () => true);
      if (!gone) return hit;
    }
  }

  private async topmostOnce(x: number, y: number): Promise<{ window: number; pid?: number } | undefined> {
    const tree = await this.x.request<{ children: number[] }>('QueryTree', this.x.root);
    const stack = await Promise.all(tree.children.map(async (id): Promise<StackedWindow> => {
      try {
        const [a, g] = await Promise.all([
          this.x.request<{ mapState: number }>('GetWindowAttributes', id),
          this.x.request<{ xPos: number; yPos: number; width: number; height: number; borderWidth: number }>(
            'GetGeometry',
            id,
          ),
        ]);
        return {
          id,
          viewable: a.mapState === VIEWABLE,
          rect: [g.xPos, g.yPos, g.width + 2 * g.borderWidth, g.height + 2 * g.borderWidth],
        };
      } catch { return { id, viewable: false, rect: [0, 0, 0, 0] }; /* gone meanwhile */ }
    }));
    const hit = topmostAt(stack, x, y);
    if (!hit) return undefined;
    const client = await this.clientOf(hit.id);
    const pid = await this.pidOf(client);
    return pid !== undefined ? { window: client, pid } : { window: client };
  }

  /** The client window inside a frame (the descendant carrying WM_STATE, as xprop finds it), else the window. */
  async clientOf(win: number, depth = 3): Promise<number> {
    const found = await this.findWithState(win, depth);
    return found ?? win;
  }

  private async findWithState(win: number, depth: number): Promise<number | undefined> {
    if (await this.property(win, 'WM_STATE', 8)) return win;
    if (depth <= 0) return undefined;
    const tree = await this.x
      .request<{ children: number[] }>('QueryTree', win)
      .catch(() => ({ children: [] as number[] }));
    for (const c of [...tree.children].reverse()) {
      const hit = await this.findWithState(c, depth - 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
}
