// Bringing a window to the front against Windows' foreground lock. SetForegroundWindow succeeds only for a
// process that may set the foreground: the foreground process, one it started or allowed
// (AllowSetForegroundWindow), the process that received the last input event, or one whose thread shares input
// with the foreground thread (AttachThreadInput). The helper is none of these while the user works in another
// app, so a bare call fails (Windows flashes the taskbar button instead). The ladder below tries, in order: the
// plain call; attaching to the foreground thread's input; then an input event of our own (two Alt taps, so a
// menu bar the first tap opens is closed by the second) that makes the helper the last to receive input. Each
// step is proven by reading the foreground window back, never by the call's answer. The steps run on IDesktop so
// the replay backend drives the same ladder on a simulated desktop with the lock (DesktopSim.cs).
using System;
using System.Collections.Generic;

namespace ComputerUse.Windows
{
    /// <summary>What the ladder asks of the window manager (Win32 on Windows, a simulation in the replay).</summary>
    public interface IDesktop
    {
        /// <summary>The top-level window in front (GetAncestor(GetForegroundWindow(), GA_ROOT)), or zero.</summary>
        IntPtr Foreground();
        bool IsMinimized(IntPtr hwnd);
        void Restore(IntPtr hwnd);
        /// <summary>The thread that owns the window; its process in `pid` (the raw owner, a frame host
        /// included).</summary>
        uint ThreadOf(IntPtr hwnd, out uint pid);
        uint SelfThread();
        bool AttachInput(uint from, uint to, bool attach);
        bool SetForeground(IntPtr hwnd);
        void BringToTop(IntPtr hwnd);
        bool AllowForeground(uint pid);
        /// <summary>Whether the user holds Alt now (then the helper sends no Alt of its own).</summary>
        bool AltHeld();
        /// <summary>Two Alt taps by SendInput; false when Windows refused the input (UIPI, a secure desktop).</summary>
        bool TapAltTwice();
        void Wait(int ms);
    }

    public static class Foreground
    {
        /// <summary>Polls per step: the foreground change is asynchronous on a busy desktop.</summary>
        private const int Polls = 8, PollMs = 25;

        /// <summary>
        /// Brings `hwnd` to the front. Answers {foreground, method, restored?, why?}: `method` names the step that
        /// worked ("already", "SetForegroundWindow", "AttachThreadInput", "Alt key"), `why` what to do when none did.
        /// `appPids` are processes to allow to take the foreground once it is ours (a UWP app behind its frame host).
        /// </summary>
        public static Dictionary<string, object> Bring(IDesktop d, IntPtr hwnd, uint[] appPids)
        {
            Dictionary<string, object> r = new Dictionary<string, object>();
            // A minimized window becomes the foreground window still minimized: restore it first.
            if (d.IsMinimized(hwnd)) { d.Restore(hwnd); r["restored"] = true; }
            if (d.Foreground() == hwnd) return Done(r, "already");
            d.SetForeground(hwnd);
            if (Poll(d, hwnd)) return Done(r, "SetForegroundWindow", d, appPids);

            IntPtr front = d.Foreground();
            uint frontPid;
            uint frontThread = front == IntPtr.Zero ? 0 : d.ThreadOf(front, out frontPid);
            uint self = d.SelfThread();
            if (frontThread != 0 && frontThread != self && d.AttachInput(self, frontThread, true))
            {
                try
                {
                    d.BringToTop(hwnd);
                    d.SetForeground(hwnd);
                }
                finally { d.AttachInput(self, frontThread, false); }
                if (Poll(d, hwnd)) return Done(r, "AttachThreadInput", d, appPids);
            }

            if (!d.AltHeld() && d.TapAltTwice())
            {
                d.SetForeground(hwnd);
                if (Poll(d, hwnd)) return Done(r, "Alt key", d, appPids);
            }
            r["foreground"] = false;
            r["why"] = "Windows kept another window in front (its foreground lock held against every way the " +
                "helper tried: SetForegroundWindow, AttachThreadInput, an Alt key of its own); click the window or " +
                "its taskbar button once, then try again";
            return r;
        }

        private static Dictionary<string, object> Done(Dictionary<string, object> r, string method)
        {
            r["foreground"] = true;
            r["method"] = method;
            return r;
        }

        private static Dictionary<string, object> Done(Dictionary<string, object> r, string method, IDesktop d,
            uint[] appPids)
        {
            // Once the helper may set the foreground it may pass that on: a UWP frame hands activation to its app.
            if (appPids != null) foreach (uint pid in appPids) if (pid != 0) d.AllowForeground(pid);
            return Done(r, method);
        }

        private static bool Poll(IDesktop d, IntPtr hwnd)
        {
            for (int i = 0; i < Polls; i++)
            {
                if (d.Foreground() == hwnd) return true;
                d.Wait(PollMs);
            }
            return d.Foreground() == hwnd;
        }
    }

    /// <summary>The real desktop: user32 and SendInput.</summary>
    public sealed class Win32Desktop : IDesktop
    {
        public IntPtr Foreground() { return Win32.GetAncestor(Win32.GetForegroundWindow(), Win32.GA_ROOT); }
        public bool IsMinimized(IntPtr hwnd) { return Win32.IsIconic(hwnd); }
        public void Restore(IntPtr hwnd) { Win32.ShowWindow(hwnd, Win32.SW_RESTORE); }
        public uint ThreadOf(IntPtr hwnd, out uint pid) { return Win32.GetWindowThreadProcessId(hwnd, out pid); }
        public uint SelfThread() { return Win32.GetCurrentThreadId(); }
        public bool AttachInput(uint from, uint to, bool attach) { return Win32.AttachThreadInput(from, to, attach); }
        public bool SetForeground(IntPtr hwnd) { return Win32.SetForegroundWindow(hwnd); }
        public void BringToTop(IntPtr hwnd) { Win32.BringWindowToTop(hwnd); }
        public bool AllowForeground(uint pid) { return Win32.AllowSetForegroundWindow(pid); }
        public bool AltHeld() { return (Win32.GetAsyncKeyState(Input.VkMenu) & 0x8000) != 0; }
        public bool TapAltTwice() { return Input.TapAltTwice(); }
        public void Wait(int ms) { System.Threading.Thread.Sleep(ms); }
    }
}
