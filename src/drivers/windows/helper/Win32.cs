// The Win32 calls the helper makes, declared by P/Invoke. Struct layouts follow the Windows SDK; their sizes on
// x64 (INPUT 40, KEYBDINPUT 24, MOUSEINPUT 32, BITMAPINFOHEADER 40) are checked by the helper's `selftest` op in
// test/unit/windows-helper.test.ts.
using System;
using System.Collections.Generic;
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

    /// <summary>The header of a BITMAPINFO (40 bytes); a 32-bit BI_RGB DIB needs no colour table after it.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BITMAPINFOHEADER
    {
        public uint biSize;
        public int biWidth, biHeight;
        public ushort biPlanes, biBitCount;
        public uint biCompression, biSizeImage;
        public int biXPelsPerMeter, biYPelsPerMeter;
        public uint biClrUsed, biClrImportant;
    }

    public delegate bool EnumWindowsProc(IntPtr hwnd, IntPtr lParam);

    public static class Win32
    {
        public const uint INPUT_MOUSE = 0, INPUT_KEYBOARD = 1;
        public const uint KEYEVENTF_EXTENDEDKEY = 0x1, KEYEVENTF_KEYUP = 0x2, KEYEVENTF_UNICODE = 0x4;
        public const uint WM_KEYDOWN = 0x100, WM_KEYUP = 0x101, WM_CHAR = 0x102, WM_SYSKEYDOWN = 0x104, WM_SYSKEYUP = 0x105;
        public const uint PROCESS_QUERY_LIMITED_INFORMATION = 0x1000, PROCESS_TERMINATE = 0x1;
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
        [DllImport("user32.dll", CharSet = CharSet.Unicode)] public static extern IntPtr FindWindowExW(IntPtr parent, IntPtr after, string className, string title);
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
        [DllImport("user32.dll")] public static extern bool AttachThreadInput(uint attach, uint attachTo, bool on);
        [DllImport("user32.dll")] public static extern bool BringWindowToTop(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern short GetAsyncKeyState(int vk);
        [DllImport("user32.dll", SetLastError = true)] public static extern IntPtr OpenInputDesktop(uint flags, bool inherit, uint access);
        [DllImport("user32.dll")] public static extern bool CloseDesktop(IntPtr desktop);
        [DllImport("user32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool GetUserObjectInformationW(IntPtr obj, int index, StringBuilder info, int length, out int needed);

        [DllImport("kernel32.dll", SetLastError = true)] public static extern IntPtr OpenProcess(uint access, bool inherit, uint pid);
        [DllImport("user32.dll")] public static extern IntPtr WindowFromPoint(POINT p);
        [DllImport("user32.dll")] public static extern bool PrintWindow(IntPtr hwnd, IntPtr hdc, uint flags);
        [DllImport("user32.dll")] public static extern bool IsHungAppWindow(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern IntPtr GetDC(IntPtr hwnd);
        [DllImport("user32.dll")] public static extern int ReleaseDC(IntPtr hwnd, IntPtr hdc);
        [DllImport("gdi32.dll")] public static extern IntPtr CreateCompatibleDC(IntPtr hdc);
        [DllImport("gdi32.dll")] public static extern IntPtr CreateDIBSection(IntPtr hdc, ref BITMAPINFOHEADER info, uint usage, out IntPtr bits, IntPtr section, uint offset);
        [DllImport("gdi32.dll")] public static extern IntPtr SelectObject(IntPtr hdc, IntPtr obj);
        [DllImport("gdi32.dll")] public static extern bool DeleteObject(IntPtr obj);
        [DllImport("gdi32.dll")] public static extern bool DeleteDC(IntPtr hdc);
        [DllImport("gdi32.dll")] public static extern bool GdiFlush();
        [DllImport("gdi32.dll")] public static extern bool BitBlt(IntPtr dst, int x, int y, int w, int h, IntPtr src, int sx, int sy, uint rop);
        [DllImport("dwmapi.dll")] public static extern int DwmGetWindowAttribute(IntPtr hwnd, int attribute, out int value, int size);
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
        [DllImport("kernel32.dll")] public static extern bool GetExitCodeProcess(IntPtr process, out int code);
        [DllImport("kernel32.dll")] public static extern bool TerminateProcess(IntPtr process, uint code);
        [DllImport("kernel32.dll", CharSet = CharSet.Unicode)]
        public static extern int GetApplicationUserModelId(IntPtr process, ref uint length, StringBuilder aumid);
        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern IntPtr CreateFileW(string name, uint access, uint share, IntPtr security, uint disposition, uint flags, IntPtr template);
        [DllImport("kernel32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern int GetFinalPathNameByHandleW(IntPtr file, StringBuilder path, int length, uint flags);
        [DllImport("advapi32.dll", CharSet = CharSet.Unicode, SetLastError = true)]
        public static extern bool ConvertSidToStringSidW(IntPtr sid, out IntPtr text);
        [DllImport("kernel32.dll")] public static extern IntPtr LocalFree(IntPtr mem);
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
            d["BITMAPINFOHEADER"] = Marshal.SizeOf(typeof(BITMAPINFOHEADER));
            d["pointer"] = IntPtr.Size;
            return d;
        }
    }

    /// <summary>
    /// What the OS proves about a process (protocol process.identify): the image's final path (links and junctions
    /// resolved), the creation FILETIME as a decimal string (the start token: 100 ns ticks, above 2^53, so never a
    /// JSON number), the owner's SID, the package's AUMID for a packaged app, integrity level and elevation.
    /// </summary>
    public static class ProcessFacts
    {
        private const int ErrorInvalidParameter = 87, ErrorAccessDenied = 5, StillActive = 259;
        private const int TokenUser = 1;

        public static System.Collections.Generic.Dictionary<string, object> Of(uint pid)
        {
            System.Collections.Generic.Dictionary<string, object> d = new System.Collections.Generic.Dictionary<string, object>();
            d["pid"] = pid;
            IntPtr h = Win32.OpenProcess(Win32.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (h == IntPtr.Zero)
            {
                int err = Marshal.GetLastWin32Error();
                // No such process is ERROR_INVALID_PARAMETER; access denied means a protected or higher-integrity
                // process: say which instead of guessing.
                if (err == ErrorInvalidParameter) d["gone"] = true;
                else d["denied"] = err == ErrorAccessDenied;
                return d;
            }
            try { Fill(h, d); }
            finally { Win32.CloseHandle(h); }
            return d;
        }

        /// <summary>The facts of an open process handle (identify and terminate read the same ones).</summary>
        internal static void Fill(IntPtr h, System.Collections.Generic.Dictionary<string, object> d)
        {
            int code;
            // A process that exited but whose object another handle keeps is gone, though it still opens.
            if (Win32.GetExitCodeProcess(h, out code) && code != StillActive) { d["gone"] = true; return; }
            StringBuilder sb = new StringBuilder(32768);
            uint size = (uint)sb.Capacity;
            if (Win32.QueryFullProcessImageNameW(h, 0, sb, ref size)) d["image"] = FinalPath(sb.ToString());
            string token = StartToken(h);
            if (token != null) d["startToken"] = token;
            string aumid = Aumid(h);
            if (aumid != null) d["aumid"] = aumid;
            IntPtr tok;
            if (Win32.OpenProcessToken(h, Win32.TOKEN_QUERY, out tok))
            {
                try
                {
                    int integrity = Integrity(tok);
                    if (integrity >= 0) d["integrity"] = integrity;
                    int elevated = TokenInt(tok, Win32.TokenElevation);
                    if (elevated >= 0) d["elevated"] = elevated != 0;
                    string sid = UserSid(tok);
                    if (sid != null) d["user"] = sid;
                }
                finally { Win32.CloseHandle(tok); }
            }
        }

        /// <summary>The creation FILETIME of an open process, as a decimal string; null when Windows does not say.</summary>
        internal static string StartToken(IntPtr h)
        {
            FILETIME c, e, k, u;
            if (!Win32.GetProcessTimes(h, out c, out e, out k, out u)) return null;
            return (((ulong)c.High << 32) | c.Low).ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        /// <summary>The start token of a pid now, or null (gone, or not openable).</summary>
        public static string StartTokenOf(uint pid)
        {
            IntPtr h = Win32.OpenProcess(Win32.PROCESS_QUERY_LIMITED_INFORMATION, false, pid);
            if (h == IntPtr.Zero) return null;
            try
            {
                int code;
                if (Win32.GetExitCodeProcess(h, out code) && code != StillActive) return null;
                return StartToken(h);
            }
            finally { Win32.CloseHandle(h); }
        }

        /// <summary>
        /// terminate {pid, startToken?}: ends the process only while the handle it opened has that start token. The
        /// open handle keeps the process object, so its pid cannot pass to another process between check and kill.
        /// </summary>
        public static object Terminate(IDictionary<string, object> args)
        {
            long pid = Args.Int(args, "pid", 0);
            string want = Args.OptStr(args, "startToken");
            System.Collections.Generic.Dictionary<string, object> d = new System.Collections.Generic.Dictionary<string, object>();
            d["ended"] = false;
            if (pid <= 4 || pid > uint.MaxValue || pid == System.Diagnostics.Process.GetCurrentProcess().Id) return d;
            IntPtr h = Win32.OpenProcess(Win32.PROCESS_TERMINATE | Win32.PROCESS_QUERY_LIMITED_INFORMATION, false, (uint)pid);
            if (h == IntPtr.Zero)
            {
                if (Marshal.GetLastWin32Error() == ErrorAccessDenied)
                    throw new HelperException("elevation_required", "Windows does not let computer-use end that process (it runs with more privileges); nothing was sent", Errors.AccessDenied);
                return d;
            }
            try
            {
                int code;
                if (Win32.GetExitCodeProcess(h, out code) && code != StillActive) return d;
                string now = StartToken(h);
                if (now == null || (want != null && now != want)) return d;
                d["ended"] = Win32.TerminateProcess(h, 1);
            }
            finally { Win32.CloseHandle(h); }
            return d;
        }

        /// <summary>The path with links and junctions resolved (GetFinalPathNameByHandleW), else as Windows named it.</summary>
        private static string FinalPath(string image)
        {
            IntPtr f = Win32.CreateFileW(image, 0x80 /* FILE_READ_ATTRIBUTES */, 7 /* share all */, IntPtr.Zero, 3 /* OPEN_EXISTING */, 0x02000000 /* BACKUP_SEMANTICS */, IntPtr.Zero);
            if (f == IntPtr.Zero || f == new IntPtr(-1)) return image;
            try
            {
                StringBuilder sb = new StringBuilder(32768);
                int n = Win32.GetFinalPathNameByHandleW(f, sb, sb.Capacity, 0);
                if (n <= 0 || n >= sb.Capacity) return image;
                string p = sb.ToString();
                if (p.StartsWith(@"\\?\UNC\", StringComparison.Ordinal)) return @"\\" + p.Substring(8);
                if (p.StartsWith(@"\\?\", StringComparison.Ordinal)) return p.Substring(4);
                return p;
            }
            finally { Win32.CloseHandle(f); }
        }

        /// <summary>A packaged app's Application User Model ID; null for an unpackaged process (or before Windows 8).</summary>
        private static string Aumid(IntPtr h)
        {
            try
            {
                uint len = 1024;
                StringBuilder sb = new StringBuilder((int)len);
                return Win32.GetApplicationUserModelId(h, ref len, sb) == 0 && sb.Length > 0 ? sb.ToString() : null;
            }
            catch (EntryPointNotFoundException) { return null; }
        }

        /// <summary>The token owner's SID as a string ("S-1-5-21-…").</summary>
        private static string UserSid(IntPtr token)
        {
            int need;
            Win32.GetTokenInformation(token, TokenUser, IntPtr.Zero, 0, out need);
            if (need <= 0 || need > 4096) return null;
            IntPtr buf = Marshal.AllocHGlobal(need);
            try
            {
                if (!Win32.GetTokenInformation(token, TokenUser, buf, need, out need)) return null;
                IntPtr text;
                if (!Win32.ConvertSidToStringSidW(Marshal.ReadIntPtr(buf) /* TOKEN_USER.User.Sid */, out text)) return null;
                try { return Marshal.PtrToStringUni(text); }
                finally { Win32.LocalFree(text); }
            }
            finally { Marshal.FreeHGlobal(buf); }
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
