/**
 * The visible agent on X11: while an act runs, four thin override-redirect bars frame the
 * target window just outside its bounds (never over it, so they take no click meant for it), and a small
 * override-redirect status window whose title (WM_NAME, _NET_WM_NAME) says what the agent does ("computer-use:
 * acting in gedit", "computer-use: paused"). No screenshot: plain windows with a background colour, created
 * over the driver's own X connection. Override-redirect windows are never managed, so they never take the
 * keyboard focus. Best effort: every failure is swallowed by the caller.
 */
import type { Rect } from '../../../protocol/methods.js';
import type { X11 } from './connection.js';

/** Width of a frame bar in pixels. */
const BAR = 3;
/** The frame's colour (an orange red; 24-bit TrueColor pixel). */
const COLOUR = 0xff4500;
/** The status window: a small strip at the top left of the screen. */
const STATUS_RECT: Rect = [0, 0, 260, 6];
/** Window class InputOutput. */
const INPUT_OUTPUT = 1;

/** What one `ui.highlight` asks for. */
export interface OverlayState {
  /** The target window's bounds to frame (none: no frame); a promise keeps the order of calls while it is read. */
  frame?: Rect | Promise<Rect | undefined> | undefined;
  /** The status title (none: the status window is hidden). */
  status?: string | undefined;
}

/** The frame bars and the status window of one X connection; updates run one after another. */
export class Overlay {
  private bars: number[] = [];
  private statusWin: number | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly connect: () => Promise<X11>) {}

  /** Shows (or hides, for an empty state) the frame and the status; resolves once the server processed it. */
  set(state: OverlayState): Promise<void> {
    const next = this.chain.then(() => this.apply(state));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async apply(state: OverlayState): Promise<void> {
    const frame = await state.frame;
    const x = await this.connect();
    const c = x.client;
    // The frame: destroyed and made anew for each act (its bounds change), nothing kept while idle.
    for (const w of this.bars.splice(0)) x.send(c, 'DestroyWindow', w);
    if (frame && frame[2] > 0 && frame[3] > 0) {
      for (const r of frameBars(frame)) this.bars.push(this.create(x, r));
    }
    if (state.status !== undefined) {
      this.statusWin ??= this.create(x, STATUS_RECT, false);
      const title = Buffer.from(state.status, 'utf8');
      x.send(
        c,
        'ChangeProperty',
        0,
        this.statusWin,
        await x.atom('WM_NAME'),
        await x.atom('STRING'),
        8,
        Buffer.from(state.status, 'latin1'),
      );
      x.send(
        c,
        'ChangeProperty',
        0,
        this.statusWin,
        await x.atom('_NET_WM_NAME'),
        await x.atom('UTF8_STRING'),
        8,
        title,
      );
      x.send(c, 'MapWindow', this.statusWin);
      x.send(c, 'RaiseWindow', this.statusWin);
    } else if (this.statusWin !== undefined) {
      x.send(c, 'UnmapWindow', this.statusWin);
    }
    await x.sync();
  }

  /** An override-redirect window with the frame colour, mapped on top unless `map` is false. */
  private create(x: X11, [left, top, width, height]: Rect, map = true): number {
    const c = x.client as unknown as { AllocID(): number };
    const id = c.AllocID();
    x.send(
      x.client,
      'CreateWindow',
      id,
      x.root,
      left,
      top,
      Math.max(1, width),
      Math.max(1, height),
      0,
      0,
      INPUT_OUTPUT,
      0,
      { backgroundPixel: COLOUR, overrideRedirect: 1 },
    );
    x.send(
      x.client,
      'ChangeProperty',
      0,
      id,
      67 /* WM_CLASS */,
      31 /* STRING */,
      8,
      Buffer.from('computer-use\0computer-use\0', 'latin1'),
    );
    if (map) x.send(x.client, 'MapWindow', id);
    return id;
  }
}

/** The four bars just outside a window's bounds: top, bottom, left, right. */
export function frameBars([x, y, w, h]: Rect, bar = BAR): Rect[] {
  return [
    [x - bar, y - bar, w + 2 * bar, bar],
    [x - bar, y + h, w + 2 * bar, bar],
    [x - bar, y, bar, h],
    [x + w, y, bar, h],
  ];
}
