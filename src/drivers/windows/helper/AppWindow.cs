// Which process a top-level window's app is. For a Win32 app, the window's own process. A UWP app's top-level
// window is an "ApplicationFrameWindow" of ApplicationFrameHost.exe, which frames every UWP app (Settings,
// Calculator, Photos): the app itself runs in its own process, whose "Windows.UI.Core.CoreWindow" is a child of
// the frame while the app is attached. Identity is that child's process (its image path and AUMID), never the
// frame host's: an allow entry or a key sent on the host's facts would reach any UWP app. A frame with no app
// child (a suspended or closing app: Windows re-parents the CoreWindow away) proves no app and is not listed.
// The listing rule is shared with the replay backend, which feeds it recorded window facts.
using System;
using System.Collections.Generic;

namespace ComputerUse.Windows
{
    /// <summary>What the listing needs of one top-level window (read from Win32, or from a recording).</summary>
    public sealed class RawWindow
    {
        public string Hwnd, Title, ClassName;
        public uint Pid;
        /// <summary>Direct children as (class name, pid); read only for a UWP frame.</summary>
        public List<KeyValuePair<string, uint>> Children = new List<KeyValuePair<string, uint>>();
        public bool Foreground, Minimized;
        public object[] Bounds;
    }

    public static class AppWindow
    {
        public const string FrameClass = "ApplicationFrameWindow";
        public const string CoreClass = "Windows.UI.Core.CoreWindow";

        /// <summary>The app's process of a window: its own, a UWP frame's CoreWindow child's, or 0 when none is proven.</summary>
        public static uint OwnerOf(string className, uint pid, IList<KeyValuePair<string, uint>> children)
        {
            if (className != FrameClass) return pid;
            foreach (KeyValuePair<string, uint> c in children)
                if (c.Key == CoreClass && c.Value != 0 && c.Value != pid) return c.Value;
            return 0;
        }

        /// <summary>
        /// Whether an element found in a window belongs to the window's app. A UWP frame's title bar and caption
        /// buttons are ApplicationFrameHost's own elements: the frame host (the frame window's owner) and the app (its
        /// CoreWindow child's process) are one app by the window. Any other process is not, and a frame with no app
        /// proves none.
        /// </summary>
        public static bool ElementBelongs(string className, uint windowPid, IList<KeyValuePair<string, uint>> children,
            uint elementPid)
        {
            uint app = OwnerOf(className, windowPid, children);
            if (app == 0 || elementPid == 0) return false;
            return elementPid == app || (className == FrameClass && elementPid == windowPid);
        }

        /// <summary>ElementBelongs for a live window.</summary>
        public static bool ElementBelongs(IntPtr hwnd, uint elementPid)
        {
            uint pid;
            Win32.GetWindowThreadProcessId(hwnd, out pid);
            string cls = Win32.ClassName(hwnd);
            List<KeyValuePair<string, uint>> kids =
                cls == FrameClass ? Children(hwnd) : new List<KeyValuePair<string, uint>>();
            return ElementBelongs(cls, pid, kids, elementPid);
        }

        /// <summary>One `windows` entry, or null when the window proves no app process.</summary>
        public static Dictionary<string, object> Entry(RawWindow w, Func<uint, Dictionary<string, object>> facts)
        {
            uint owner = OwnerOf(w.ClassName, w.Pid, w.Children);
            if (owner == 0) return null;
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["hwnd"] = w.Hwnd;
            d["title"] = w.Title;
            d["className"] = w.ClassName;
            d["foreground"] = w.Foreground;
            d["minimized"] = w.Minimized;
            if (w.Bounds != null) d["bounds"] = w.Bounds;
            d["process"] = facts(owner);
            if (owner != w.Pid) d["framePid"] = w.Pid;
            return d;
        }

        /// <summary>The app's process of a live window (see OwnerOf).</summary>
        public static uint PidOf(IntPtr hwnd)
        {
            uint pid;
            Win32.GetWindowThreadProcessId(hwnd, out pid);
            string cls = Win32.ClassName(hwnd);
            return cls == FrameClass ? OwnerOf(cls, pid, Children(hwnd)) : pid;
        }

        /// <summary>The window that holds the app's content: a UWP frame's CoreWindow child, else the window itself.</summary>
        public static IntPtr ContentOf(IntPtr hwnd)
        {
            if (Win32.ClassName(hwnd) != FrameClass) return hwnd;
            IntPtr core = Win32.FindWindowExW(hwnd, IntPtr.Zero, CoreClass, null);
            return core != IntPtr.Zero ? core : hwnd;
        }

        /// <summary>A frame's direct children with a CoreWindow's class, with their pids.</summary>
        public static List<KeyValuePair<string, uint>> Children(IntPtr hwnd)
        {
            List<KeyValuePair<string, uint>> l = new List<KeyValuePair<string, uint>>();
            IntPtr c = IntPtr.Zero;
            for (int n = 0; n < 64; n++)
            {
                c = Win32.FindWindowExW(hwnd, c, CoreClass, null);
                if (c == IntPtr.Zero) break;
                uint pid;
                Win32.GetWindowThreadProcessId(c, out pid);
                l.Add(new KeyValuePair<string, uint>(CoreClass, pid));
            }
            return l;
        }

        /// <summary>A recorded window ({hwnd, title, className, pid, children: [{className, pid}], ...}).</summary>
        public static RawWindow FromRecording(IDictionary<string, object> r)
        {
            RawWindow w = new RawWindow();
            w.Hwnd = Args.Str(r, "hwnd");
            w.Title = Args.OptStr(r, "title") ?? "";
            w.ClassName = Args.OptStr(r, "className") ?? "";
            w.Pid = (uint)Math.Max(0, Math.Min(Args.Int(r, "pid", 0), uint.MaxValue));
            w.Foreground = Args.Bool(r, "foreground");
            w.Minimized = Args.Bool(r, "minimized");
            List<object> b = Args.List(r, "bounds");
            if (b.Count == 4) w.Bounds = b.ToArray();
            foreach (object o in Args.List(r, "children"))
            {
                IDictionary<string, object> c = o as IDictionary<string, object>;
                if (c != null) w.Children.Add(new KeyValuePair<string, uint>(Args.OptStr(c, "className") ?? "", (uint)Math.Max(0, Math.Min(Args.Int(c, "pid", 0), uint.MaxValue))));
            }
            return w;
        }
    }
}
