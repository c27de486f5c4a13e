/**
 * Pixels on X11, for the fallback ladder: the window capture itself is x11/capture.ts (the screen
 * area with every other window blacked out); here are scaling and Set-of-Mark labels (`convert -draw`), OCR (`tesseract
 * … tsv`), displays (`xrandr`) and the
 * clipboard (`xclip`). Every image stays in this process unless `screen.capture` was asked for it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { intersect, scaleToEdge, screenToImage } from '../../../fallback/geometry.js';
import { groupLines, parseTesseractTsv } from '../../../fallback/ocr.js';
import { ComputerUseError } from '../../../protocol/errors.js';
import type {
  CaptureGeometry,
  CaptureResult,
  DisplayInfo,
  MarkSpec,
  OcrLine,
  Rect,
} from '../../../protocol/methods.js';

const MARK_COLOR = '#ff00ff';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** Runs a command, feeding `input` on stdin; resolves stdout. A missing command is `unsupported` with the package to install. */
export function exec(
  cmd: string,
  args: string[],
  opts: { input?: Buffer | string; timeoutMs?: number; pkg?: string } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ComputerUseError('timeout', `${cmd} took longer than ${opts.timeoutMs ?? 15000} ms`));
    }, opts.timeoutMs ?? 15000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ENOENT'
          ? new ComputerUseError(
              'unsupported',
              `${cmd} is not installed` +
                `${opts.pkg ? ` (Debian package ${opts.pkg}; scripts/setup-debian.sh installs it)` : ''}.`,
            )
          : new ComputerUseError('action_failed', `${cmd}: ${e.message}`),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new ComputerUseError(
            'action_failed',
            `${cmd} exited with ${code}: ${Buffer.concat(err).toString().trim().split('\n')[0] ?? ''}`,
          ),
        );
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

let rootSize: Promise<[number, number]> | undefined;
/** Size of the X root window (cached: the sandbox screen does not change size). */
function rootWindowSize(): Promise<[number, number]> {
  rootSize ??= exec('xwininfo', ['-root'], { pkg: 'x11-utils' }).then((b) => {
    const s = b.toString();
    return [Number(/Width:\s*(\d+)/.exec(s)?.[1] ?? 0), Number(/Height:\s*(\d+)/.exec(s)?.[1] ?? 0)] as [
      number,
      number,
    ];
  }).catch((e: unknown) => { rootSize = undefined; throw e; });
  return rootSize;
}

/** Scales a capture so its long edge is ≤ maxEdge and draws Set-of-Mark labels over it. */
export async function scaleAndMark(
  png: Buffer,
  rect: Rect,
  window: Rect,
  maxEdge: number,
  marks: readonly MarkSpec[],
): Promise<Omit<CaptureResult, 'ms'>> {
  const s = scaleToEdge(rect[2], rect[3], maxEdge);
  const geometry: CaptureGeometry = { screen: rect, window, width: s.width, height: s.height, scale: s.scale };
  const args: string[] = ['png:-'];
  if (s.scale < 1) args.push('-resize', `${s.width}x${s.height}!`);
  const placed: CaptureResult['marks'] = [];
  const boxes: string[] = [];
  const labels: string[] = [];
  const texts: string[] = [];
  for (const m of marks) {
    const box = clip(screenToImage(geometry, m.bounds), s.width, s.height);
    if (!box) continue;
    // The label sits in the element's top-left corner, inside the image: [ref] on magenta.
    const lw = 4 + 7 * m.label.length;
    const lh = 13;
    const lx = Math.min(box[0], s.width - lw);
    const ly = Math.min(box[1], s.height - lh);
    if (lx < 0 || ly < 0) continue;
    placed.push({ label: m.label, box, labelBox: [lx, ly, lw, lh] });
    boxes.push(`rectangle ${box[0]},${box[1]} ${box[0] + box[2] - 1},${box[1] + box[3] - 1}`);
    labels.push(`rectangle ${lx},${ly} ${lx + lw - 1},${ly + lh - 1}`);
    texts.push(`text ${lx + 2},${ly + 10} '${m.label.replace(/[^\w]/g, '')}'`);
  }
  if (placed.length) {
    args.push('-fill', 'none', '-stroke', MARK_COLOR, '-strokewidth', '1', ...boxes.flatMap((d) => ['-draw', d]));
    args.push('-stroke', 'none', '-fill', MARK_COLOR, ...labels.flatMap((d) => ['-draw', d]));
    args.push(
      '-fill',
      'white',
      ...(existsSync(FONT) ? ['-font', FONT] : []),
      '-pointsize',
      '10',
      ...texts.flatMap((d) => ['-draw', d]),
    );
  }
  args.push('png:-');
  const out = s.scale < 1 || placed.length ? await exec('convert', args, { input: png, pkg: 'imagemagick' }) : png;
  return {
    png: out.toString('base64'),
    geometry,
    marks: placed,
    sha256: createHash('sha256').update(out).digest('hex'),
  };
}

function clip(r: Rect, w: number, h: number): Rect | undefined {
  return intersect(r, [0, 0, w, h]);
}

/** Recognizes text in a capture of `rect` (screen pixels); the image never leaves this function. */
export async function ocrPng(png: Buffer, rect: Rect): Promise<OcrLine[]> {
  // Sparse-text segmentation (--psm 11) at the capture's own size: a UI is scattered labels, not a page. Upscaling
  // (tried at 2x) lost the 30 px button labels of the test app and read window-frame pixels as text.
  const tsv = await exec('tesseract', ['stdin', 'stdout', '--psm', '11', 'tsv'], {
    input: png,
    pkg: 'tesseract-ocr',
    timeoutMs: 30_000,
  });
  return groupLines(parseTesseractTsv(tsv.toString('utf8')), { origin: [rect[0], rect[1]] });
}

/** Lists displays (RandR outputs); one display of the root window's size when RandR says nothing. */
export async function listDisplays(): Promise<DisplayInfo[]> {
  const out: DisplayInfo[] = [];
  const text = await exec('xrandr', ['--query'], { pkg: 'x11-xserver-utils' })
    .then((b) => b.toString())
    .catch(() => '');
  for (const m of text.matchAll(/^(\S+) connected( primary)? (\d+)x(\d+)\+(-?\d+)\+(-?\d+)/gm)) {
    out.push({
      name: m[1] ?? '',
      primary: Boolean(m[2]),
      bounds: [Number(m[5]), Number(m[6]), Number(m[3]), Number(m[4])],
    });
  }
  if (out.length === 0) {
    const [w, h] = await rootWindowSize();
    out.push({ name: 'screen', primary: true, bounds: [0, 0, w, h] });
  }
  if (!out.some((d) => d.primary) && out[0]) out[0].primary = true;
  return out;
}

/** Reads the CLIPBOARD selection as text ('' when empty or not text). */
export async function readClipboard(): Promise<string> {
  try {
    return (await exec('xclip', ['-selection', 'clipboard', '-o'], { pkg: 'xclip', timeoutMs: 5000 })).toString('utf8');
  } catch (e) {
    if (e instanceof ComputerUseError && e.code === 'unsupported') throw e;
    return '';
  }
}

/**
 * Owns the CLIPBOARD selection with `text`: an xclip in the foreground (-quiet) serves it until someone else
 * copies, so the process the X server names as the owner is the one that holds it (a forking xclip leaves the
 * pid of an exited process, which a read cannot prove). Resolves once `owns(pid)` says that xclip owns it.
 */
export function writeClipboard(text: string, owns: (pid: number) => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('xclip', ['-quiet', '-selection', 'clipboard', '-i'], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    let settled = false;
    const settle = (e?: Error): void => {
      if (settled) return;
      settled = true;
      if (e) reject(e); else resolve();
    };
    child.on('error', (e: NodeJS.ErrnoException) => settle(e.code === 'ENOENT'
      ? new ComputerUseError('unsupported', 'xclip is not installed (Debian package xclip).') : e));
    child.on('exit', (code) =>
      settle(new ComputerUseError('action_failed', `xclip exited with ${code} before it owned the clipboard`)),
    );
    child.unref();
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
    const deadline = performance.now() + timeoutMs;
    const poll = async (): Promise<void> => {
      while (!settled) {
        if (child.pid !== undefined && await owns(child.pid).catch(() => false)) { settle(); return; }
        if (performance.now() >= deadline) {
          child.kill('SIGKILL');
          settle(new ComputerUseError('timeout', `xclip did not own the clipboard within ${timeoutMs} ms`));
          return;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    void poll();
  });
}
