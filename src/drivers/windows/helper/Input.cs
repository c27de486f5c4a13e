// Keyboard input. SendInput goes to whatever window is in front, so it is sent only after the foreground
// window is proven to belong to the target process (pid and start time) and re-proven between chunks; the
// background path posts WM_CHAR / WM_KEYDOWN to the target thread's focused control instead. Chords arrive as
// virtual-key codes the driver mapped (src/drivers/windows/keys.ts), characters as text.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;

namespace ComputerUse.Windows
{
    public static class Input
    {
        private const int Chunk = 32;
        private const ushort VK_RETURN = 0x0D;
        /// <summary>VK_MENU, the Alt key.</summary>
        internal const ushort VkMenu = 0x12;
        /// <summary>Keys Windows reports as extended (the arrows and the editing block beside them, Win, Apps).</summary>
        private static readonly ushort[] Extended = { 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x2D, 0x2E, 0x5B, 0x5C, 0x5D, 0x6F, 0x90 };

        /// <summary>keys {hwnd, pid, startToken?, via: "input"|"message", chords?: [{vks: [mods..., key]}], text?}.</summary>
        public static object Keys(IDictionary<string, object> args, UiaBackend backend)
        {
            IntPtr hwnd = UiaBackend.WindowArg(args);
            backend.RequireReach(hwnd);
            string via = Args.OptStr(args, "via") ?? "input";
            string text = Args.OptStr(args, "text");
            List<object> chords = Args.List(args, "chords");
            long pid = Args.Int(args, "pid", -1);
            string startToken = Args.OptStr(args, "startToken");
            int sent = 0;
            if (via == "message")
            {
                IntPtr target = FocusOf(hwnd);
                if (text != null) foreach (char c in text) { Win32.PostMessageW(target, Win32.WM_CHAR, new IntPtr(c == '\n' ? '\r' : c), new IntPtr(1)); sent++; }
                foreach (object o in chords)
                {
                    List<ushort> vks = Vks(o);
                    if (vks.Count != 1) throw new HelperException("unsupported", "a chord with modifiers cannot be posted to a background window (apps read the modifier state); nothing was sent");
                    uint scan = Win32.MapVirtualKeyW(vks[0], 0);
                    Win32.PostMessageW(target, Win32.WM_KEYDOWN, new IntPtr(vks[0]), new IntPtr(1 | (scan << 16)));
                    Win32.PostMessageW(target, Win32.WM_KEYUP, new IntPtr(vks[0]), new IntPtr(unchecked((int)(1 | (scan << 16) | 0xC0000000))));
                    sent++;
                }
            }
            else
            {
                RequireForeground(hwnd, pid, startToken);
                foreach (object o in chords)
                {
                    RequireForeground(hwnd, pid, startToken);
                    SendChord(Vks(o));
                    sent++;
                }
                if (text != null) sent += SendText(text, delegate () { RequireForeground(hwnd, pid, startToken); });
            }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["sent"] = sent;
            d["via"] = via;
            return d;
        }

        /// <summary>
        /// Two Alt taps (down, up, down, up) in one SendInput: the helper becomes the process that received the last
        /// input event, which lifts the foreground lock for it; the second tap closes a menu bar the first one opened.
        /// </summary>
        internal static bool TapAltTwice()
        {
            List<INPUT> inputs = new List<INPUT>();
            for (int i = 0; i < 2; i++)
            {
                inputs.Add(Key(VkMenu, (ushort)Win32.MapVirtualKeyW(VkMenu, 0), 0));
                inputs.Add(Key(VkMenu, (ushort)Win32.MapVirtualKeyW(VkMenu, 0), Win32.KEYEVENTF_KEYUP));
            }
            INPUT[] arr = inputs.ToArray();
            return Win32.SendInput((uint)arr.Length, arr, Marshal.SizeOf(typeof(INPUT))) == arr.Length;
        }

        /// <summary>Types text into the element that was just focused in `hwnd` (node.act type).</summary>
        public static void TypeInto(IntPtr hwnd, string text)
        {
            uint pid = UiaBackend.PidOf(hwnd);
            RequireForeground(hwnd, pid, null);
            SendText(text, delegate () { RequireForeground(hwnd, pid, null); });
        }

        private static List<ushort> Vks(object chord)
        {
            IDictionary<string, object> c = chord as IDictionary<string, object>;
            if (c == null) throw new HelperException("invalid_params", "a chord is an object");
            List<ushort> vks = new List<ushort>();
            foreach (object v in Args.List(c, "vks"))
            {
                if (!(v is double) || (double)v < 1 || (double)v > 254) throw new HelperException("invalid_params", "a virtual key is 1..254");
                vks.Add((ushort)(double)v);
            }
            string ch = Args.OptStr(c, "ch");
            if (ch != null)
            {
                // A character with no fixed key: the active layout says which key and shift state type it.
                if (ch.Length != 1) throw new HelperException("unsupported", "this character has no key of its own on Windows; type it as text");
                short scan = Win32.VkKeyScanW(ch[0]);
                if (scan == -1) throw new HelperException("unsupported", "the keyboard layout has no key for that character; type it as text. Nothing was sent");
                int shifts = (scan >> 8) & 0xff;
                if ((shifts & 1) != 0 && !vks.Contains(0x10)) vks.Add(0x10);
                if ((shifts & 2) != 0 && !vks.Contains(0x11)) vks.Add(0x11);
                if ((shifts & 4) != 0 && !vks.Contains(0x12)) vks.Add(0x12);
                vks.Add((ushort)(scan & 0xff));
            }
            if (vks.Count == 0 || vks.Count > 6) throw new HelperException("invalid_params", "a chord has 1..6 keys");
            return vks;
        }

        /// <summary>The foreground window must be the target's (same top-level window, pid, start time), else nothing is sent.</summary>
        internal static void RequireForeground(IntPtr hwnd, long pid, string startToken)
        {
            IntPtr fg = Win32.GetAncestor(Win32.GetForegroundWindow(), Win32.GA_ROOT);
            uint fgPid = fg == IntPtr.Zero ? 0 : UiaBackend.PidOf(fg);
            bool ok = fg == hwnd && (pid < 0 || fgPid == pid);
            if (ok && startToken != null) ok = ProcessFacts.StartTokenOf(fgPid) == startToken;
            if (!ok) throw new HelperException("window_not_focused", "the target window is not in front (another window holds the keyboard); nothing more was sent");
        }

        private static IntPtr FocusOf(IntPtr hwnd)
        {
            uint pid;
            // A UWP app's focus is on its CoreWindow's thread, not the frame host's.
            uint thread = Win32.GetWindowThreadProcessId(AppWindow.ContentOf(hwnd), out pid);
            GUITHREADINFO info = new GUITHREADINFO();
            info.cbSize = Marshal.SizeOf(typeof(GUITHREADINFO));
            if (Win32.GetGUIThreadInfo(thread, ref info) && info.hwndFocus != IntPtr.Zero) return info.hwndFocus;
            return hwnd;
        }

        private static INPUT Key(ushort vk, ushort scan, uint flags)
        {
            INPUT i = new INPUT();
            i.type = Win32.INPUT_KEYBOARD;
            i.u.ki.wVk = vk;
            i.u.ki.wScan = scan;
            i.u.ki.dwFlags = flags | (Array.IndexOf(Extended, vk) >= 0 ? Win32.KEYEVENTF_EXTENDEDKEY : 0);
            return i;
        }

        private static void Send(List<INPUT> inputs)
        {
            INPUT[] arr = inputs.ToArray();
            uint n = Win32.SendInput((uint)arr.Length, arr, Marshal.SizeOf(typeof(INPUT)));
            // SendInput answers 0 when UIPI blocked the input (the target is elevated) or a secure desktop is up.
            if (n != arr.Length) throw new HelperException("input_blocked", "Windows refused the synthetic input (UIPI or a secure desktop); " + n + " of " + arr.Length + " events went in");
        }

        /// <summary>Presses modifiers then the key, releases in reverse.</summary>
        private static void SendChord(List<ushort> vks)
        {
            List<INPUT> inputs = new List<INPUT>();
            foreach (ushort vk in vks) inputs.Add(Key(vk, (ushort)Win32.MapVirtualKeyW(vk, 0), 0));
            for (int i = vks.Count - 1; i >= 0; i--) inputs.Add(Key(vks[i], (ushort)Win32.MapVirtualKeyW(vks[i], 0), Win32.KEYEVENTF_KEYUP));
            Send(inputs);
        }

        /// <summary>Types text as Unicode key events (any script, no layout involved), re-proving the foreground per chunk.</summary>
        private static int SendText(string text, Action prove)
        {
            int sent = 0;
            for (int start = 0; start < text.Length; start += Chunk)
            {
                prove();
                List<INPUT> inputs = new List<INPUT>();
                int end = Math.Min(text.Length, start + Chunk);
                // Never split a surrogate pair across chunks: the app would see a lone half.
                if (end < text.Length && char.IsHighSurrogate(text[end - 1])) end++;
                for (int i = start; i < end; i++)
                {
                    char c = text[i];
                    if (c == '\n') { inputs.Add(Key(VK_RETURN, 0, 0)); inputs.Add(Key(VK_RETURN, 0, Win32.KEYEVENTF_KEYUP)); continue; }
                    if (c == '\r') continue;
                    inputs.Add(Key(0, c, Win32.KEYEVENTF_UNICODE));
                    inputs.Add(Key(0, c, Win32.KEYEVENTF_UNICODE | Win32.KEYEVENTF_KEYUP));
                }
                if (inputs.Count > 0) Send(inputs);
                sent += end - start;
                start = end - Chunk;
                Thread.Sleep(1);
            }
            return sent;
        }
    }
}
