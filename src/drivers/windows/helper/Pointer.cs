// Pointer input and the clipboard. The pointer goes where SendInput puts it, whatever window is there: it is sent
// only when the point shows the target window (WindowFromPoint's top-level window is the target, so nothing
// covers it there) and the target is in front and proven to be the expected process, re-proven before each
// press. Coordinates are physical screen pixels, like UI Automation's rectangles: the helper is per-monitor DPI
// aware (UiaBackend). The clipboard is the Win32 clipboard's CF_UNICODETEXT; a copy its owner marked with
// "ExcludeClipboardContentFromMonitorProcessing" (password managers do) is never read.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace ComputerUse.Windows
{
    public static class Pointer
    {
        private const uint MOVE = 0x1, LEFTDOWN = 0x2, LEFTUP = 0x4, RIGHTDOWN = 0x8, RIGHTUP = 0x10, MIDDLEDOWN = 0x20, MIDDLEUP = 0x40;
        private const uint WHEEL = 0x800, HWHEEL = 0x1000, VIRTUALDESK = 0x4000, ABSOLUTE = 0x8000;
        private const int WheelDelta = 120;

        /// <summary>pointer {hwnd, pid, startToken?, action, x, y, to?: [x, y], direction?, amount?}.</summary>
        public static object Send(IDictionary<string, object> args, UiaBackend backend)
        {
            IntPtr hwnd = UiaBackend.WindowArg(args);
            backend.RequireReach(hwnd);
            long pid = Args.Int(args, "pid", -1);
            string startToken = Args.OptStr(args, "startToken");
            string action = Args.Str(args, "action");
            int x = (int)Args.Int(args, "x", int.MinValue), y = (int)Args.Int(args, "y", int.MinValue);
            RequireShows(hwnd, x, y);
            int tx = x, ty = y;
            if (action == "drag")
            {
                List<object> to = Args.List(args, "to");
                if (to.Count != 2 || !(to[0] is double) || !(to[1] is double)) throw new HelperException("invalid_params", "drag needs to: [x, y]");
                tx = (int)(double)to[0];
                ty = (int)(double)to[1];
                RequireShows(hwnd, tx, ty);
            }
            Input.RequireForeground(hwnd, pid, startToken);
            Send(Move(x, y));
            switch (action)
            {
                case "move": break;
                case "click": Press(hwnd, pid, startToken, LEFTDOWN, LEFTUP, 1); break;
                case "double_click": Press(hwnd, pid, startToken, LEFTDOWN, LEFTUP, 2); break;
                case "right_click": Press(hwnd, pid, startToken, RIGHTDOWN, RIGHTUP, 1); break;
                case "middle_click": Press(hwnd, pid, startToken, MIDDLEDOWN, MIDDLEUP, 1); break;
                case "drag":
                    Input.RequireForeground(hwnd, pid, startToken);
                    Send(Button(LEFTDOWN));
                    Thread.Sleep(30);
                    Send(Move(tx, ty));
                    Thread.Sleep(30);
                    Send(Button(LEFTUP));
                    break;
                case "scroll":
                    string dir = Args.OptStr(args, "direction") ?? "down";
                    int steps = (int)Math.Max(1, Math.Min(Args.Int(args, "amount", 3), 100));
                    bool horizontal = dir == "left" || dir == "right";
                    if (!horizontal && dir != "up" && dir != "down") throw new HelperException("invalid_params", "scroll takes up, down, left or right");
                    int delta = (dir == "up" || dir == "right" ? 1 : -1) * WheelDelta;
                    for (int i = 0; i < steps; i++)
                    {
                        Input.RequireForeground(hwnd, pid, startToken);
                        INPUT w = Button(horizontal ? HWHEEL : WHEEL);
                        w.u.mi.mouseData = unchecked((uint)delta);
                        Send(w);
                    }
                    break;
                default: throw new HelperException("invalid_params", "unknown pointer action");
            }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["detail"] = "SendInput " + action + " at " + x + "," + y + (action == "drag" ? " to " + tx + "," + ty : "");
            return d;
        }

        /// <summary>The point must lie on the target window itself: not beside it, not on a window over it.</summary>
        private static void RequireShows(IntPtr hwnd, int x, int y)
        {
            POINT p;
            p.X = x;
            p.Y = y;
            IntPtr at = Win32.WindowFromPoint(p);
            IntPtr root = at == IntPtr.Zero ? IntPtr.Zero : Win32.GetAncestor(at, Win32.GA_ROOT);
            if (root != hwnd) throw new HelperException("window_changed", "another window (or none of the target's) is at that point now; nothing was sent");
        }

        private static void Press(IntPtr hwnd, long pid, string startToken, uint down, uint up, int times)
        {
            for (int i = 0; i < times; i++)
            {
                Input.RequireForeground(hwnd, pid, startToken);
                Send(Button(down), Button(up));
            }
        }

        private static INPUT Button(uint flags)
        {
            INPUT i = new INPUT();
            i.type = Win32.INPUT_MOUSE;
            i.u.mi.dwFlags = flags;
            return i;
        }

        /// <summary>An absolute move: coordinates normalized to 0..65535 over the whole virtual desktop.</summary>
        private static INPUT Move(int x, int y)
        {
            int vx = Win32.GetSystemMetrics(76), vy = Win32.GetSystemMetrics(77), vw = Win32.GetSystemMetrics(78), vh = Win32.GetSystemMetrics(79);
            INPUT i = Button(MOVE | ABSOLUTE | VIRTUALDESK);
            i.u.mi.dx = (int)Math.Round((x - vx) * 65535.0 / Math.Max(1, vw - 1));
            i.u.mi.dy = (int)Math.Round((y - vy) * 65535.0 / Math.Max(1, vh - 1));
            return i;
        }

        private static void Send(params INPUT[] inputs)
        {
            uint n = Win32.SendInput((uint)inputs.Length, inputs, Marshal.SizeOf(typeof(INPUT)));
            if (n != inputs.Length) throw new HelperException("input_blocked", "Windows refused the synthetic pointer input (UIPI or a secure desktop); " + n + " of " + inputs.Length + " events went in");
        }
    }

    public static class Clipboard
    {
        private const uint CF_UNICODETEXT = 13, GMEM_MOVEABLE = 0x2;
        private const int MaxChars = 1000000;

        /// <summary>clipboard {action: "read"|"write", text?}: read answers {owner?, text?}; write {ok}.</summary>
        public static object Handle(IDictionary<string, object> args)
        {
            string action = Args.Str(args, "action");
            Open();
            try { return action == "write" ? Write(Args.OptStr(args, "text") ?? "") : Read(); }
            finally { Win32.CloseClipboard(); }
        }

        /// <summary>Another program may hold the clipboard open for a moment: a few short retries, then a clear error.</summary>
        private static void Open()
        {
            for (int i = 0; i < 20; i++)
            {
                if (Win32.OpenClipboard(IntPtr.Zero)) return;
                Thread.Sleep(25);
            }
            throw new HelperException("action_failed", "another program holds the clipboard open; try again");
        }

        private static object Read()
        {
            Dictionary<string, object> d = new Dictionary<string, object>();
            IntPtr ownerWindow = Win32.GetClipboardOwner();
            bool secret = Win32.IsClipboardFormatAvailable(Win32.RegisterClipboardFormatW("ExcludeClipboardContentFromMonitorProcessing"));
            if (ownerWindow != IntPtr.Zero)
            {
                Dictionary<string, object> owner = new Dictionary<string, object>();
                uint pid = UiaBackend.PidOf(ownerWindow);
                Dictionary<string, object> facts = pid == 0 ? null : ProcessFacts.Of(pid);
                object st;
                if (facts == null || !facts.TryGetValue("startToken", out st)) owner["unproven"] = true;
                else { owner["pid"] = pid; owner["startToken"] = st; }
                if (secret) owner["secret"] = true;
                d["owner"] = owner;
            }
            else if (secret) { Dictionary<string, object> owner = new Dictionary<string, object>(); owner["secret"] = true; d["owner"] = owner; }
            // A secret, or a copy whose owner cannot be proven, never leaves the helper.
            if (secret || ownerWindow != IntPtr.Zero && ((Dictionary<string, object>)d["owner"]).ContainsKey("unproven")) return d;
            if (!Win32.IsClipboardFormatAvailable(CF_UNICODETEXT)) return d;
            IntPtr h = Win32.GetClipboardData(CF_UNICODETEXT);
            if (h == IntPtr.Zero) return d;
            IntPtr p = Win32.GlobalLock(h);
            if (p == IntPtr.Zero) return d;
            try
            {
                int chars = (int)Math.Min((long)Win32.GlobalSize(h).ToUInt64() / 2, MaxChars);
                string s = Marshal.PtrToStringUni(p, chars);
                int nul = s.IndexOf('\0');
                d["text"] = nul >= 0 ? s.Substring(0, nul) : s;
            }
            finally { Win32.GlobalUnlock(h); }
            return d;
        }

        private static object Write(string text)
        {
            if (!Win32.EmptyClipboard()) throw new HelperException("action_failed", "Windows did not let the clipboard be emptied");
            IntPtr h = Win32.GlobalAlloc(GMEM_MOVEABLE, new UIntPtr((uint)((text.Length + 1) * 2)));
            if (h == IntPtr.Zero) throw new HelperException("action_failed", "out of memory for the clipboard");
            IntPtr p = Win32.GlobalLock(h);
            char[] chars = (text + "\0").ToCharArray();
            Marshal.Copy(chars, 0, p, chars.Length);
            Win32.GlobalUnlock(h);
            // The clipboard owns the memory once SetClipboardData succeeds; else it is ours to free.
            if (Win32.SetClipboardData(CF_UNICODETEXT, h) == IntPtr.Zero) { Win32.GlobalFree(h); throw new HelperException("action_failed", "Windows did not take the text"); }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["ok"] = true;
            return d;
        }
    }
}
