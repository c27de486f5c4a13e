// A simulated desktop for the replay backend: the foreground ladder (Foreground.cs) runs on it under Mono as it
// runs on user32 on Windows. It keeps the foreground lock's documented rule: SetForegroundWindow succeeds only
// when the lock is off, nothing is in front, the caller's thread shares input with the foreground thread, or the
// caller received the last input event; otherwise it fails and the foreground stays. A recording describes it:
// {"simulate": {"self": {"thread", "pid"}, "foreground": hwnd, "windows": [{"hwnd", "thread", "pid", "minimized"}],
// "lock", "attachRefused" (the foreground thread refuses AttachThreadInput: hung, or another desktop),
// "inputBlocked" (SendInput refused: an elevated app in front), "altHeld"}}. Every call is logged for the tests.
using System;
using System.Collections.Generic;

namespace ComputerUse.Windows
{
    public sealed class DesktopSim : IDesktop
    {
        private sealed class Win { public uint Thread, Pid; public bool Minimized; }

        private readonly Dictionary<long, Win> windows = new Dictionary<long, Win>();
        private readonly Dictionary<uint, bool> attached = new Dictionary<uint, bool>();
        private readonly uint selfThread;
        private readonly bool locked, attachRefused, inputBlocked, altHeld;
        private long foreground;
        private bool lastInput;
        /// <summary>The calls made, in order, with their answers ("SetForegroundWindow 5 -> false").</summary>
        public readonly List<object> Calls = new List<object>();

        public DesktopSim(IDictionary<string, object> s)
        {
            object self;
            IDictionary<string, object> me = s.TryGetValue("self", out self)
                ? self as IDictionary<string, object> : null;
            selfThread = me == null ? 1 : (uint)Args.Int(me, "thread", 1);
            long.TryParse(Args.OptStr(s, "foreground") ?? "0", out foreground);
            locked = Args.Bool(s, "lock");
            attachRefused = Args.Bool(s, "attachRefused");
            inputBlocked = Args.Bool(s, "inputBlocked");
            altHeld = Args.Bool(s, "altHeld");
            foreach (object o in Args.List(s, "windows"))
            {
                IDictionary<string, object> w = o as IDictionary<string, object>;
                long h;
                if (w == null || !long.TryParse(Args.OptStr(w, "hwnd") ?? "", out h)) continue;
                Win win = new Win();
                win.Thread = (uint)Args.Int(w, "thread", 0);
                win.Pid = (uint)Args.Int(w, "pid", 0);
                win.Minimized = Args.Bool(w, "minimized");
                windows[h] = win;
            }
        }

        private void Log(string call, object answer) { Calls.Add(call + " -> " + JsonWriter.Write(answer)); }

        private Win Of(IntPtr hwnd)
        {
            Win w;
            if (!windows.TryGetValue(hwnd.ToInt64(), out w))
                throw new HelperException("window_not_found", "the simulated desktop has no window " + hwnd.ToInt64());
            return w;
        }

        public IntPtr Foreground() { return new IntPtr(foreground); }
        public bool IsMinimized(IntPtr hwnd) { return Of(hwnd).Minimized; }
        public void Restore(IntPtr hwnd)
        {
            Of(hwnd).Minimized = false;
            Log("ShowWindow " + hwnd.ToInt64() + " SW_RESTORE", true);
        }

        public uint ThreadOf(IntPtr hwnd, out uint pid)
        {
            Win w = Of(hwnd);
            pid = w.Pid;
            return w.Thread;
        }

        public uint SelfThread() { return selfThread; }

        public bool AttachInput(uint from, uint to, bool attach)
        {
            bool ok = from == selfThread && (!attach || !attachRefused);
            if (ok) { if (attach) attached[to] = true; else attached.Remove(to); }
            Log("AttachThreadInput " + from + " " + to + " " + (attach ? "TRUE" : "FALSE"), ok);
            return ok;
        }

        public bool SetForeground(IntPtr hwnd)
        {
            Of(hwnd);
            Win front;
            bool frontAttached = windows.TryGetValue(foreground, out front) && attached.ContainsKey(front.Thread);
            bool ok = !locked || foreground == 0 || frontAttached || lastInput;
            if (ok) foreground = hwnd.ToInt64();
            Log("SetForegroundWindow " + hwnd.ToInt64(), ok);
            return ok;
        }

        public void BringToTop(IntPtr hwnd) { Of(hwnd); Log("BringWindowToTop " + hwnd.ToInt64(), true); }
        public bool AllowForeground(uint pid) { Log("AllowSetForegroundWindow " + pid, true); return true; }
        public bool AltHeld() { return altHeld; }

        public bool TapAltTwice()
        {
            if (!inputBlocked) lastInput = true;
            Log("SendInput Alt Alt", !inputBlocked);
            return !inputBlocked;
        }

        public void Wait(int ms) { }

        /// <summary>Whether every AttachThreadInput made was undone (a thread left attached shares the user's input
        /// state).</summary>
        public bool Detached { get { return attached.Count == 0; } }
    }
}
