// The Win32 calls the helper makes, declared by P/Invoke. Struct layouts follow the Windows SDK; their sizes on
// x64 (INPUT 40, KEYBDINPUT 24, MOUSEINPUT 32) are checked by the helper's `selftest` op in
// test/unit/windows-helper.test.ts.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace ComputerUse.Windows
{
    [StructLayout(LayoutKind.Sequential)]
    public struct RECT { public int Left, Top, Right, Bottom; }

    [StructLayout(LayoutKind.Sequential)]
    public struct KEYBDINPUT
    {
        public ushort wVk;
        public ushort wScan;
        public uint dwFlags;
        public uint time;
        public IntPtr dwExtraInfo;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MOUSEINPUT
    {
        public int dx, dy;
        public uint mouseData, dwFlags, time;
        public IntPtr dwExtraInfo;
    }

    /// <summary>INPUT's union: the keyboard and mouse members overlap (MOUSEINPUT is the largest).</summary>
    [StructLayout(LayoutKind.Explicit)]
    public struct InputUnion
    {
        [FieldOffset(0)] public MOUSEINPUT mi;
        [FieldOffset(0)] public KEYBDINPUT ki;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct INPUT
    {
        public uint type;
        public InputUnion u;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct FILETIME { public uint Low, High; }

    [StructLayout(LayoutKind.Sequential)]
    public struct GUITHREADINFO
    {
        public int cbSize;
        public uint flags;
        public IntPtr hwndActive, hwndFocus, hwndCapture, hwndMenuOwner, hwndMoveSize, hwndCaret;
        public RECT rcCaret;
    }

    [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
    public struct STARTUPINFOW
    {
        public int cb;
        public string lpReserved, lpDesktop, lpTitle;
        public int dwX, dwY, dwXSize, dwYSize, dwXCountChars, dwYCountChars, dwFillAttribute, dwFlags;
        public short wShowWindow, cbReserved2;
        public IntPtr lpReserved2, hStdInput, hStdOutput, hStdError;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PROCESS_INFORMATION
    {
        public IntPtr hProcess, hThread;
        public uint dwProcessId, dwThreadId;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct POINT { public int X, Y; }

    public delegate bool EnumWindowsProc(IntPtr hwnd, IntPtr lParam);

    public static class Win32
    {
        public const uint INPUT_MOUSE = 0, INPUT_KEYBOARD = 1;
        public const uint KEYEVENTF_EXTENDEDKEY = 0x1, KEYEVENTF_KEYUP = 0x2, KEYEVENTF_UNICODE = 0x4;
        public const uint WM_KEYDOWN = 0x100, WM_KEYUP = 0x101, WM_CHAR = 0x102, WM_SYSKEYDOWN = 0x104, WM_SYSKEYUP = 0x105;
        public const uint PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
        public const int GA_ROOT = 2;
        public const int GWL_EXSTYLE = -20;
        public const int WS_EX_TOOLWINDOW = 0x80;
        public const int TokenElevation = 20, TokenIntegrityLevel = 25;
        public const uint TOKEN_QUERY = 0x8;
        public const int SW_RESTORE = 9;
        public const uint DESKTOP_READOBJECTS = 0x1;
        public const int UOI_NAME = 2;
        public const uint CREATE_UNICODE_ENVIRONMENT = 0x400;

        [DllImport("user32.dll")] public static extern bool EnumWindows(EnumWindowsProc proc, IntPtr lParam);
        [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern int GetWindowTextW(IntPtr hwnd, StringBuilder text, int max);
        [DllImport("user32.dll")] public static extern int GetWindowTextLengthW(IntPtr hwnd);
        [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern int GetClassNameW(IntPtr hwnd, StringBuilder name, int max);
        [DllImport("user32.dll")] public static extern uint GetWindowThreadProcessId(IntPtr hwnd, out uint pid);
        [DllImport("user32.dll")] public static extern bool IsWindowVisible(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern bool IsWindow(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern bool IsIconic(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern IntPtr GetWindow(IntPtr hwnd, uint cmd);
        [DllImport("user32.dll")] public static extern IntPtr GetAncestor(IntPtr hwnd, int flags);
        [DllImport("user32.dll")] public static extern int GetWindowLongW(IntPtr hwnd, int index);
        [DllImport("user32.dll")] public static extern bool GetWindowRect(IntPtr hwnd, out RECT rect);
        [DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow();
        [DllImport("user32.dll")] public static extern bool SetForegroundWindow(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern bool ShowWindow(IntPtr hwnd, int cmd);
        [DllImport("user32.dll")] public static extern bool GetGUIThreadInfo(uint threadId, ref GUITHREADINFO info);
        [DllImport("user32.dll")] public static extern bool PostMessageW(IntPtr hwnd, uint msg, IntPtr wParam, IntPtr lParam);
        [DllImport("user32.dll", SetLastError = true)] public static extern uint SendInput(uint count, INPUT[] inputs, int size);
        [DllImport("user32.dll")] public static extern uint MapVirtualKeyW(uint code, uint mapType);
        [DllImport("user32.dll")] public static extern short VkKeyScanW(char ch);
        [DllImport("user32.dll")] public static extern bool AllowSetForegroundWindow(uint pid);
        [DllImport("user32.dll", SetLastError = true)] public static extern IntPtr OpenInputDesktop(uint flags, bool inherit, uint access);
        [DllImport("user32.dll")] public static extern bool CloseDesktop(IntPtr desktop);
        [DllImport("user32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetUserObjectInformationW(IntPtr obj, int index, StringBuilder info, int length, out int needed);

        [DllImport("kernel32.dll", SetLastError = true)] public static extern IntPtr OpenProcess(uint access, bool inherit, uint pid);
        [DllImport("user32.dll")] public static extern IntPtr WindowFromPoint(POINT p);
        [DllImport("user32.dll")] public static extern int GetSystemMetrics(int index);
        [DllImport("user32.dll", SetLastError = true)] public static extern bool OpenClipboard(IntPtr owner);
        [DllImport("user32.dll")] public static extern bool CloseClipboard();
        [DllImport("user32.dll")] public static extern bool EmptyClipboard();
        [DllImport("user32.dll")] public static extern IntPtr GetClipboardOwner();
        [DllImport("user32.dll")] public static extern bool IsClipboardFormatAvailable(uint format);
        [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern uint RegisterClipboardFormatW(string name);
        [DllImport("user32.dll")] public static extern IntPtr GetClipboardData(uint format);
        [DllImport("user32.dll")] public static extern IntPtr SetClipboardData(uint format, IntPtr mem);
        [DllImport("user32.dll")] public static extern bool SetProcessDpiAwarenessContext(IntPtr context);
        [DllImport("user32.dll")] public static extern bool SetProcessDPIAware();
        [DllImport("kernel32.dll")] public static extern IntPtr GlobalAlloc(uint flags, UIntPtr bytes);
        [DllImport("kernel32.dll")] public static extern IntPtr GlobalLock(IntPtr mem);
        [DllImport("kernel32.dll")] public static extern bool GlobalUnlock(IntPtr mem);
        [DllImport("kernel32.dll")] public static extern UIntPtr GlobalSize(IntPtr mem);
        [DllImport("kernel32.dll")] public static extern IntPtr GlobalFree(IntPtr mem);
        [DllImport("kernel32.dll")] public static extern bool CloseHandle(IntPtr handle);
        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool CreateProcessW(string application, StringBuilder commandLine, IntPtr processAttributes, IntPtr threadAttributes,
            bool inheritHandles, uint flags, string environment, string currentDirectory, ref STARTUPINFOW startup, out PROCESS_INFORMATION info);
        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool QueryFullProcessImageNameW(IntPtr process, uint flags, StringBuilder name, ref uint size);
        [DllImport("kernel32.dll")] public static extern bool GetProcessTimes(IntPtr process, out FILETIME creation, out FILETIME exit, out FILETIME kernel, out FILETIME user);
        [DllImport("kernel32.dll")] public static extern IntPtr GetCurrentProcess();
        [DllImport("kernel32.dll")] public static extern uint GetCurrentThreadId();
        [DllImport("advapi32.dll", SetLastError = true)] public static extern bool OpenProcessToken(IntPtr process, uint access, out IntPtr token);
        [DllImport("advapi32.dll", SetLastError = true)] public static extern bool GetTokenInformation(IntPtr token, int cls, IntPtr info, int length, out int returned);
        [DllImport("advapi32.dll")] public static extern IntPtr GetSidSubAuthorityCount(IntPtr sid);
        [DllImport("advapi32.dll")] public static extern IntPtr GetSidSubAuthority(IntPtr sid, uint index);

        public static string WindowText(IntPtr hwnd)
        {
            int n = GetWindowTextLengthW(hwnd);
            if (n <= 0) return "";
            StringBuilder sb = new StringBuilder(Math.Min(n, 32767) + 1);
            GetWindowTextW(hwnd, sb, sb.Capacity);
            return sb.ToString();
        }

        public static string ClassName(IntPtr hwnd)
        {
            StringBuilder sb = new StringBuilder(257);
            GetClassNameW(hwnd, sb, sb.Capacity);
            return sb.ToString();
        }

        /// <summary>
        /// The desktop that takes input now. While the screen is locked, a UAC prompt is up or Ctrl+Alt+Del is shown,
        /// input goes to the secure desktop (Winlogon), which a user process cannot open: nothing can be read or typed.
        /// </summary>
        public static object InputDesktop()
        {
            System.Collections.Generic.Dictionary<string, object> d = new System.Collections.Generic.Dictionary<string, object>();
            IntPtr desk = OpenInputDesktop(0, false, DESKTOP_READOBJECTS);
            if (desk == IntPtr.Zero)
            {
                d["open"] = false;
                d["error"] = Marshal.GetLastWin32Error();
                return d;
            }
            try
            {
                StringBuilder sb = new StringBuilder(256);
                int needed;
                d["open"] = true;
                if (GetUserObjectInformationW(desk, UOI_NAME, sb, sb.Capacity * 2, out needed)) d["name"] = sb.ToString();
            }
            finally { CloseDesktop(desk); }
            return d;
        }

        /// <summary>The struct sizes the helper was compiled with, for the ABI test.</summary>
        public static object StructSizes()
        {
            System.Collections.Generic.Dictionary<string, object> d = new System.Collections.Generic.Dictionary<string, object>();
            d["INPUT"] = Marshal.SizeOf(typeof(INPUT));
            d["KEYBDINPUT"] = Marshal.SizeOf(typeof(KEYBDINPUT));
            d["MOUSEINPUT"] = Marshal.SizeOf(typeof(MOUSEINPUT));
            d["GUITHREADINFO"] = Marshal.SizeOf(typeof(GUITHREADINFO));
            d["STARTUPINFOW"] = Marshal.SizeOf(typeof(STARTUPINFOW));
            d["PROCESS_INFORMATION"] = Marshal.SizeOf(typeof(PROCESS_INFORMATION));
            d["pointer"] = IntPtr.Size;
            return d;
        }
    }

    /// <summary>What the OS proves about a process: image path, start time, integrity level, elevation.</summary>
    public static class ProcessFacts
    {
        private const long EpochFileTime = 116444736000000000L; // 1970-01-01 in 100 ns ticks since 1601

        public static System.Collections.Generic.Dictionary<string, object> Of(uint pid)
        {
            System.Collections.Generic.Dictionary<string, object> d = new System.Collections.Generic.Dictionary<string, object>();
            d["pid"] = pid;
            IntPtr h = Win32.OpenProcess(Win32.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (h == IntPtr.Zero)
            {
                // Access denied here means a protected or higher-integrity process: say so instead of guessing.
                d["denied"] = Marshal.GetLastWin32Error() == 5;
                return d;
            }
            try
            {
                StringBuilder sb = new StringBuilder(32768);
                uint size = (uint)sb.Capacity;
                if (Win32.QueryFullProcessImageNameW(h, 0, sb, ref size)) d["image"] = sb.ToString();
                FILETIME c, e, k, u;
                if (Win32.GetProcessTimes(h, out c, out e, out k, out u))
                {
                    long ticks = ((long)c.High << 32) | c.Low;
                    d["startTime"] = (ticks - EpochFileTime) / 10000; // ms since 1970: unique per process with the pid
                }
                IntPtr token;
                if (Win32.OpenProcessToken(h, Win32.TOKEN_QUERY, out token))
                {
                    try
                    {
                        int integrity = Integrity(token);
                        if (integrity >= 0) d["integrity"] = integrity;
                        int elevated = TokenInt(token, Win32.TokenElevation);
                        if (elevated >= 0) d["elevated"] = elevated != 0;
                    }
                    finally { Win32.CloseHandle(token); }
                }
            }
            finally { Win32.CloseHandle(h); }
            return d;
        }

        /// <summary>The helper's own facts (its integrity decides which windows UIPI lets it drive).</summary>
        public static System.Collections.Generic.Dictionary<string, object> Self()
        {
            return Of((uint)System.Diagnostics.Process.GetCurrentProcess().Id);
        }

        private static int TokenInt(IntPtr token, int cls)
        {
            IntPtr buf = Marshal.AllocHGlobal(4);
            try
            {
                int got;
                if (!Win32.GetTokenInformation(token, cls, buf, 4, out got)) return -1;
                return Marshal.ReadInt32(buf);
            }
            finally { Marshal.FreeHGlobal(buf); }
        }

        /// <summary>The mandatory integrity RID: 0x1000 low, 0x2000 medium, 0x3000 high, 0x4000 system.</summary>
        private static int Integrity(IntPtr token)
        {
            int need;
            Win32.GetTokenInformation(token, Win32.TokenIntegrityLevel, IntPtr.Zero, 0, out need);
            if (need <= 0 || need > 4096) return -1;
            IntPtr buf = Marshal.AllocHGlobal(need);
            try
            {
                if (!Win32.GetTokenInformation(token, Win32.TokenIntegrityLevel, buf, need, out need)) return -1;
                IntPtr sid = Marshal.ReadIntPtr(buf); // TOKEN_MANDATORY_LABEL.Label.Sid
                int count = Marshal.ReadByte(Win32.GetSidSubAuthorityCount(sid));
                return Marshal.ReadInt32(Win32.GetSidSubAuthority(sid, (uint)(count - 1)));
            }
            finally { Marshal.FreeHGlobal(buf); }
        }
    }
}
