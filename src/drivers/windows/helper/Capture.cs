// screen.capture: a window's pixels as a PNG that shows the window only (docs/policy.md, "Denied means unseen").
// First PrintWindow(PW_RENDERFULLCONTENT) into a memory DC: the window renders itself (DWM's copy of it), so no
// other window's pixels are in the image whatever lies over it. When PrintWindow fails, returns only black (some
// GPU-drawn windows), or the app does not answer (IsHungAppWindow: PrintWindow would wait on it), the screen
// rectangle is copied with BitBlt instead, and every window above the target in the z-order that is not of the
// target's process (visible, not cloaked) is blacked out before the image is scaled or encoded. The pixel work
// after the copy (blackout, scaling, Set-of-Mark labels, PNG) is shared with the replay backend, which feeds it
// recorded pixels (test/unit/windows-capture.test.ts).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace ComputerUse.Windows
{
    /// <summary>Pixels of a screen rectangle: BGRA, top row first, 4 bytes a pixel (a 32-bit top-down DIB).</summary>
    public sealed class Frame
    {
        public int[] Rect;
        public byte[] Bgra;
    }

    /// <summary>A window above the target: its screen rectangle, and whether it is of the target's process.</summary>
    public sealed class Layer
    {
        public int[] Rect;
        public bool Own;
    }

    public static class Capture
    {
        private const uint PW_RENDERFULLCONTENT = 2;
        private const uint SRCCOPY = 0x00CC0020, CAPTUREBLT = 0x40000000;
        private const uint GW_HWNDPREV = 3;
        private const int DWMWA_CLOAKED = 14;
        private const int MaxMarks = 1000;

        /// <summary>capture {hwnd, pid, startToken?, maxEdge?, marks?} on this desktop.</summary>
        public static object OfWindow(IDictionary<string, object> args, UiaBackend backend)
        {
            IntPtr hwnd = UiaBackend.WindowArg(args);
            backend.RequireReach(hwnd);
            long pid = Args.Int(args, "pid", -1);
            string startToken = Args.OptStr(args, "startToken");
            RequireOwner(hwnd, pid, startToken);
            if (Win32.IsIconic(hwnd)) throw new HelperException("window_changed", "the window is minimized; nothing was captured. Restore it first");
            RECT r;
            if (!Win32.GetWindowRect(hwnd, out r)) throw new HelperException("window_not_found", "the window is gone");
            int[] window = { r.Left, r.Top, r.Right - r.Left, r.Bottom - r.Top };
            int[] screen = { Win32.GetSystemMetrics(76), Win32.GetSystemMetrics(77), Win32.GetSystemMetrics(78), Win32.GetSystemMetrics(79) };
            int[] cap = Intersect(window, screen);
            if (cap == null) throw new HelperException("window_changed", "the window is off the screen; nothing was captured. Bring it on screen first");
            Frame frame = Win32.IsHungAppWindow(hwnd) ? null : Print(hwnd, window, cap);
            string method = "PrintWindow";
            List<Layer> above = new List<Layer>();
            if (frame == null)
            {
                method = "BitBlt";
                above = Above(hwnd, UiaBackend.PidOf(hwnd));
                frame = Blt(cap);
            }
            // The window may have closed meanwhile and its handle gone to another process's window.
            RequireOwner(hwnd, pid, startToken);
            return Finish(frame, window, above, args, method);
        }

        /// <summary>A recorded capture ({frame: {rect, bgra}, window, above?, method?}) through the same pixel work.</summary>
        public static object FromRecording(IDictionary<string, object> rec, IDictionary<string, object> args)
        {
            IDictionary<string, object> f = rec["frame"] as IDictionary<string, object>;
            if (f == null) throw new HelperException("internal", "a recorded capture has a frame");
            Frame frame = new Frame();
            frame.Rect = RectOf(f, "rect");
            frame.Bgra = Convert.FromBase64String(Args.Str(f, "bgra"));
            List<Layer> above = new List<Layer>();
            foreach (object o in Args.List(rec, "above"))
            {
                IDictionary<string, object> l = o as IDictionary<string, object>;
                if (l == null) continue;
                Layer layer = new Layer();
                layer.Rect = RectOf(l, "rect");
                layer.Own = Args.Bool(l, "own");
                above.Add(layer);
            }
            return Finish(frame, RectOf(rec, "window"), above, args, Args.OptStr(rec, "method") ?? "PrintWindow");
        }

        /// <summary>
        /// Blackout of every pixel not the target's, scaling to maxEdge, marks, PNG. `above` lists the windows over
        /// the target, nearest first. Fails with not_visible when nothing of the target would be shown.
        /// </summary>
        public static Dictionary<string, object> Finish(Frame frame, int[] window, List<Layer> above, IDictionary<string, object> args, string method)
        {
            int[] cap = frame.Rect;
            int w = cap[2], h = cap[3];
            if (w <= 0 || h <= 0 || frame.Bgra.Length != (long)w * h * 4) throw new HelperException("internal", "a frame of " + frame.Bgra.Length + " bytes is not " + w + "x" + h + " BGRA");
            // The plan: 0 = the target's pixel, 1 = blacked out. Painted from the target up, as src/fallback/cover.ts does.
            byte[] mask = new byte[w * h];
            for (int i = 0; i < mask.Length; i++) mask[i] = 1;
            Paint(mask, cap, window, 0);
            int outside = Count(mask);
            List<object> covered = new List<object>();
            foreach (Layer l in above)
            {
                Paint(mask, cap, l.Rect, l.Own ? (byte)0 : (byte)1);
                int[] part = Intersect(l.Rect, cap);
                if (!l.Own && part != null) covered.Insert(0, new object[] { part[0], part[1], part[2], part[3] });
            }
            if (Count(mask) >= mask.Length)
                throw new HelperException("not_visible", "other windows cover all of this window; nothing was captured. Bring it to the front, then try again");
            byte[] rgb = new byte[w * h * 3];
            for (int i = 0; i < mask.Length; i++)
            {
                if (mask[i] != 0) continue;
                rgb[3 * i] = frame.Bgra[4 * i + 2];
                rgb[3 * i + 1] = frame.Bgra[4 * i + 1];
                rgb[3 * i + 2] = frame.Bgra[4 * i];
            }
            int maxEdge = (int)Math.Max(16, Math.Min(Args.Int(args, "maxEdge", 1280), 8192));
            int longEdge = Math.Max(w, h);
            double scale = longEdge > maxEdge ? (double)maxEdge / longEdge : 1;
            int outW = Math.Max(1, RoundHalfUp(w * scale)), outH = Math.Max(1, RoundHalfUp(h * scale));
            byte[] img = scale < 1 ? Shrink(rgb, w, h, outW, outH) : rgb;
            List<object> placed = new List<object>();
            foreach (object o in Args.List(args, "marks"))
            {
                if (placed.Count >= MaxMarks) break;
                IDictionary<string, object> m = o as IDictionary<string, object>;
                if (m == null) continue;
                Dictionary<string, object> mark = Mark(img, outW, outH, cap, scale, mask, Args.OptStr(m, "label") ?? "", RectOf(m, "bounds"));
                if (mark != null) placed.Add(mark);
            }
            Dictionary<string, object> geometry = new Dictionary<string, object>();
            geometry["screen"] = new object[] { cap[0], cap[1], cap[2], cap[3] };
            geometry["window"] = new object[] { window[0], window[1], window[2], window[3] };
            geometry["width"] = outW;
            geometry["height"] = outH;
            geometry["scale"] = scale;
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["png"] = Convert.ToBase64String(Png.EncodeRgb(img, outW, outH));
            d["geometry"] = geometry;
            d["marks"] = placed;
            d["method"] = method;
            if (covered.Count > 0) d["covered"] = covered;
            if (outside > 0) d["outside"] = true;
            return d;
        }

        // ---- pixels ----

        /// <summary>JavaScript's Math.round for the non-negative values here (C#'s Math.Round rounds half to even).</summary>
        private static int RoundHalfUp(double v) { return (int)Math.Floor(v + 0.5); }

        private static void Paint(byte[] mask, int[] cap, int[] r, byte value)
        {
            int[] part = Intersect(r, cap);
            if (part == null) return;
            for (int y = part[1] - cap[1]; y < part[1] - cap[1] + part[3]; y++)
                for (int x = part[0] - cap[0]; x < part[0] - cap[0] + part[2]; x++) mask[y * cap[2] + x] = value;
        }

        private static int Count(byte[] mask)
        {
            int n = 0;
            foreach (byte b in mask) n += b;
            return n;
        }

        /// <summary>Area-average downscaling of RGB: each output pixel is the mean of the source pixels it covers.</summary>
        private static byte[] Shrink(byte[] src, int w, int h, int outW, int outH)
        {
            byte[] dst = new byte[outW * outH * 3];
            for (int oy = 0; oy < outH; oy++)
            {
                int y0 = (int)((long)oy * h / outH), y1 = Math.Max(y0 + 1, (int)((long)(oy + 1) * h / outH));
                for (int ox = 0; ox < outW; ox++)
                {
                    int x0 = (int)((long)ox * w / outW), x1 = Math.Max(x0 + 1, (int)((long)(ox + 1) * w / outW));
                    long r = 0, g = 0, b = 0, n = (long)(x1 - x0) * (y1 - y0);
                    for (int y = y0; y < y1; y++)
                        for (int x = x0; x < x1; x++) { int i = 3 * (y * w + x); r += src[i]; g += src[i + 1]; b += src[i + 2]; }
                    int o = 3 * (oy * outW + ox);
                    dst[o] = (byte)((r + n / 2) / n);
                    dst[o + 1] = (byte)((g + n / 2) / n);
                    dst[o + 2] = (byte)((b + n / 2) / n);
                }
            }
            return dst;
        }

        /// <summary>
        /// One Set-of-Mark label: the element's box outlined and its ref on a magenta tab in the box's top-left corner
        /// (the Linux driver's layout). Not drawn when the element's centre is blacked out (it would point at another
        /// app's window) or nothing of it is in the image.
        /// </summary>
        private static Dictionary<string, object> Mark(byte[] img, int w, int h, int[] cap, double scale, byte[] mask, string label, int[] bounds)
        {
            int cx = (int)Math.Floor(bounds[0] + bounds[2] / 2.0) - cap[0], cy = (int)Math.Floor(bounds[1] + bounds[3] / 2.0) - cap[1];
            if (cx < 0 || cy < 0 || cx >= cap[2] || cy >= cap[3] || mask[cy * cap[2] + cx] != 0) return null;
            int[] box = Intersect(new int[] { RoundHalfUp((bounds[0] - cap[0]) * scale), RoundHalfUp((bounds[1] - cap[1]) * scale), RoundHalfUp(bounds[2] * scale), RoundHalfUp(bounds[3] * scale) }, new int[] { 0, 0, w, h });
            if (box == null) return null;
            if (label.Length > 16) label = label.Substring(0, 16);
            int lw = 4 + 7 * label.Length, lh = 13;
            int lx = Math.Min(box[0], w - lw), ly = Math.Min(box[1], h - lh);
            if (lx < 0 || ly < 0) return null;
            for (int x = box[0]; x < box[0] + box[2]; x++) { Put(img, w, x, box[1], Magenta); Put(img, w, x, box[1] + box[3] - 1, Magenta); }
            for (int y = box[1]; y < box[1] + box[3]; y++) { Put(img, w, box[0], y, Magenta); Put(img, w, box[0] + box[2] - 1, y, Magenta); }
            for (int y = ly; y < ly + lh; y++) for (int x = lx; x < lx + lw; x++) Put(img, w, x, y, Magenta);
            for (int i = 0; i < label.Length; i++) Glyph(img, w, lx + 2 + 7 * i, ly + 1, label[i]);
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["label"] = label;
            d["box"] = new object[] { box[0], box[1], box[2], box[3] };
            d["labelBox"] = new object[] { lx, ly, lw, lh };
            return d;
        }

        private static readonly byte[] Magenta = { 0xff, 0x00, 0xff };
        private static readonly byte[] White = { 0xff, 0xff, 0xff };

        private static void Put(byte[] img, int w, int x, int y, byte[] c)
        {
            int i = 3 * (y * w + x);
            if (x < 0 || y < 0 || x >= w || i + 2 >= img.Length) return;
            img[i] = c[0];
            img[i + 1] = c[1];
            img[i + 2] = c[2];
        }

        /// <summary>3x5 glyphs (rows top to bottom, 3 bits each, high bit left) for the characters of a ref.</summary>
        private static readonly Dictionary<char, int[]> Glyphs = new Dictionary<char, int[]>
        {
            { '0', new[] { 7, 5, 5, 5, 7 } }, { '1', new[] { 2, 6, 2, 2, 7 } }, { '2', new[] { 7, 1, 7, 4, 7 } },
            { '3', new[] { 7, 1, 7, 1, 7 } }, { '4', new[] { 5, 5, 7, 1, 1 } }, { '5', new[] { 7, 4, 7, 1, 7 } },
            { '6', new[] { 7, 4, 7, 5, 7 } }, { '7', new[] { 7, 1, 1, 1, 1 } }, { '8', new[] { 7, 5, 7, 5, 7 } },
            { '9', new[] { 7, 5, 7, 1, 7 } }, { 'e', new[] { 7, 4, 7, 4, 7 } }, { 'E', new[] { 7, 4, 7, 4, 7 } },
        };

        /// <summary>One character, each glyph bit a 2x2 block (6x10 pixels); characters without a glyph stay blank.</summary>
        private static void Glyph(byte[] img, int w, int x0, int y0, char ch)
        {
            int[] rows;
            if (!Glyphs.TryGetValue(ch, out rows)) return;
            for (int r = 0; r < 5; r++)
                for (int c = 0; c < 3; c++)
                    if ((rows[r] & (4 >> c)) != 0)
                        for (int dy = 0; dy < 2; dy++) for (int dx = 0; dx < 2; dx++) Put(img, w, x0 + 2 * c + dx, y0 + 2 * r + dy, White);
        }

        // ---- rectangles ----

        internal static int[] Intersect(int[] a, int[] b)
        {
            int x = Math.Max(a[0], b[0]), y = Math.Max(a[1], b[1]);
            int r = Math.Min(a[0] + a[2], b[0] + b[2]), btm = Math.Min(a[1] + a[3], b[1] + b[3]);
            return r > x && btm > y ? new int[] { x, y, r - x, btm - y } : null;
        }

        private static int[] RectOf(IDictionary<string, object> a, string key)
        {
            List<object> l = Args.List(a, key);
            if (l.Count != 4) throw new HelperException("invalid_params", key + " is [x, y, width, height]");
            int[] r = new int[4];
            for (int i = 0; i < 4; i++)
            {
                if (!(l[i] is double) || Math.Abs((double)l[i]) > 1e6) throw new HelperException("invalid_params", key + " holds integers");
                r[i] = (int)(double)l[i];
            }
            return r;
        }

        // ---- Win32 ----

        /// <summary>The window must still belong to the process the driver saw (pid, start token).</summary>
        private static void RequireOwner(IntPtr hwnd, long pid, string startToken)
        {
            uint now = UiaBackend.PidOf(hwnd);
            if (!Win32.IsWindow(hwnd) || (pid >= 0 && now != pid) || (startToken != null && ProcessFacts.StartTokenOf(now) != startToken))
                throw new HelperException("window_not_found", "that window no longer belongs to the process it was listed for; nothing was captured");
        }

        /// <summary>The window rendered by itself into a DIB, cropped to `cap`; null when PrintWindow fails or draws only black.</summary>
        private static Frame Print(IntPtr hwnd, int[] window, int[] cap)
        {
            byte[] full = Dib(window[2], window[3], delegate (IntPtr mem, IntPtr screenDc) { return Win32.PrintWindow(hwnd, mem, PW_RENDERFULLCONTENT); });
            if (full == null) return null;
            Frame f = new Frame();
            f.Rect = cap;
            f.Bgra = new byte[cap[2] * cap[3] * 4];
            int dx = cap[0] - window[0], dy = cap[1] - window[1];
            bool any = false;
            for (int y = 0; y < cap[3]; y++)
            {
                Buffer.BlockCopy(full, ((y + dy) * window[2] + dx) * 4, f.Bgra, y * cap[2] * 4, cap[2] * 4);
            }
            for (int i = 0; i < f.Bgra.Length && !any; i += 4) any = f.Bgra[i] != 0 || f.Bgra[i + 1] != 0 || f.Bgra[i + 2] != 0;
            return any ? f : null;
        }

        /// <summary>The screen rectangle as it shows now (other windows included: the caller blacks them out).</summary>
        private static Frame Blt(int[] cap)
        {
            byte[] px = Dib(cap[2], cap[3], delegate (IntPtr mem, IntPtr screenDc) { return Win32.BitBlt(mem, 0, 0, cap[2], cap[3], screenDc, cap[0], cap[1], SRCCOPY | CAPTUREBLT); });
            if (px == null) throw new HelperException("action_failed", "Windows did not copy the screen (BitBlt failed); nothing was captured");
            Frame f = new Frame();
            f.Rect = cap;
            f.Bgra = px;
            return f;
        }

        private delegate bool Draw(IntPtr mem, IntPtr screenDc);

        /// <summary>A 32-bit top-down DIB of w x h drawn by `draw` into a memory DC; its bytes, or null when draw fails.</summary>
        private static byte[] Dib(int w, int h, Draw draw)
        {
            if (w <= 0 || h <= 0 || (long)w * h > 100000000) return null;
            IntPtr screenDc = Win32.GetDC(IntPtr.Zero);
            IntPtr mem = IntPtr.Zero, bmp = IntPtr.Zero, old = IntPtr.Zero;
            try
            {
                mem = Win32.CreateCompatibleDC(screenDc);
                BITMAPINFOHEADER bi = new BITMAPINFOHEADER();
                bi.biSize = (uint)Marshal.SizeOf(typeof(BITMAPINFOHEADER));
                bi.biWidth = w;
                bi.biHeight = -h;  // top-down
                bi.biPlanes = 1;
                bi.biBitCount = 32;
                IntPtr bits;
                bmp = Win32.CreateDIBSection(screenDc, ref bi, 0, out bits, IntPtr.Zero, 0);
                if (mem == IntPtr.Zero || bmp == IntPtr.Zero || bits == IntPtr.Zero) return null;
                old = Win32.SelectObject(mem, bmp);
                if (!draw(mem, screenDc)) return null;
                Win32.GdiFlush();
                byte[] px = new byte[w * h * 4];
                Marshal.Copy(bits, px, 0, px.Length);
                return px;
            }
            finally
            {
                if (old != IntPtr.Zero) Win32.SelectObject(mem, old);
                if (bmp != IntPtr.Zero) Win32.DeleteObject(bmp);
                if (mem != IntPtr.Zero) Win32.DeleteDC(mem);
                Win32.ReleaseDC(IntPtr.Zero, screenDc);
            }
        }

        /// <summary>The shown windows above the target in the z-order, nearest first, each marked when it is the target's process.</summary>
        private static List<Layer> Above(IntPtr hwnd, uint pid)
        {
            List<Layer> l = new List<Layer>();
            IntPtr h = Win32.GetWindow(hwnd, GW_HWNDPREV);
            for (int n = 0; h != IntPtr.Zero && n < 20000; n++, h = Win32.GetWindow(h, GW_HWNDPREV))
            {
                if (!Win32.IsWindowVisible(h) || Win32.IsIconic(h) || Cloaked(h)) continue;
                RECT r;
                if (!Win32.GetWindowRect(h, out r)) continue;
                Layer layer = new Layer();
                layer.Rect = new int[] { r.Left, r.Top, r.Right - r.Left, r.Bottom - r.Top };
                layer.Own = UiaBackend.PidOf(h) == pid;
                l.Add(layer);
            }
            return l;
        }

        /// <summary>Cloaked by DWM (another virtual desktop, a suspended app's frame): not drawn. Unknown counts as shown.</summary>
        private static bool Cloaked(IntPtr hwnd)
        {
            int cloaked;
            try { return Win32.DwmGetWindowAttribute(hwnd, DWMWA_CLOAKED, out cloaked, 4) == 0 && cloaked != 0; }
            catch (DllNotFoundException) { return false; }
            catch (EntryPointNotFoundException) { return false; }
        }
    }
}
