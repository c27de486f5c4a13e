// The real backend: UI Automation over COM. Reads are batched through one IUIAutomationCacheRequest over the
// ControlView (one cross-process round trip per window instead of one per property); each op is one pattern
// call with LegacyIAccessible as the fallback; nothing here moves the mouse or needs the window in front
// except typing, which proves the foreground first (Input.cs).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Threading;

namespace ComputerUse.Windows
{
    public sealed class UiaBackend : IBackend
    {
        /// <summary>What one batch read caches for every element (the snapshot's fields).</summary>
        private static readonly int[] CachedProps = {
            Prop.RuntimeId, Prop.BoundingRectangle, Prop.ProcessId, Prop.ControlType, Prop.Name, Prop.AccessKey,
            Prop.HasKeyboardFocus, Prop.IsKeyboardFocusable, Prop.IsEnabled, Prop.AutomationId, Prop.ClassName,
            Prop.HelpText, Prop.IsPassword, Prop.IsOffscreen, Prop.FrameworkId, Prop.IsRequiredForForm,
            Prop.IsExpandCollapsePatternAvailable, Prop.IsInvokePatternAvailable, Prop.IsRangeValuePatternAvailable,
            Prop.IsScrollPatternAvailable, Prop.IsScrollItemPatternAvailable, Prop.IsSelectionItemPatternAvailable,
            Prop.IsSelectionPatternAvailable, Prop.IsTextPatternAvailable, Prop.IsTogglePatternAvailable,
            Prop.IsValuePatternAvailable, Prop.IsWindowPatternAvailable, Prop.IsLegacyIAccessiblePatternAvailable,
            Prop.ValueValue, Prop.ValueIsReadOnly, Prop.RangeValueValue, Prop.RangeValueIsReadOnly,
            Prop.RangeValueMinimum, Prop.RangeValueMaximum, Prop.RangeValueSmallChange,
            Prop.ExpandCollapseExpandCollapseState, Prop.WindowIsModal, Prop.SelectionItemIsSelected,
            Prop.ToggleToggleState, Prop.LegacyIAccessibleRole, Prop.LegacyIAccessibleState,
            Prop.LegacyIAccessibleDefaultAction, Prop.AriaRole, Prop.HeadingLevel,
        };
        /// <summary>Properties whose change counts as activity for settle.</summary>
        private static readonly int[] WatchedProps = {
            Prop.Name, Prop.ValueValue, Prop.ToggleToggleState, Prop.ExpandCollapseExpandCollapseState,
            Prop.IsEnabled, Prop.SelectionItemIsSelected, Prop.RangeValueValue,
        };
        private const int MaxSubscribedWindows = 32;
        /// <summary>
        /// The last snapshot's elements of the 4 most recent windows, by runtime id (RuntimeIdCache.cs): each holds its
        /// cached properties on this side, so the cap keeps a 10,000-element window from pinning much memory.
        /// </summary>
        private readonly RuntimeIdCache<IUIAutomationElement> elements =
            new RuntimeIdCache<IUIAutomationElement>(4, 10000);

        private readonly IUIAutomation uia;
        private readonly Dictionary<long, object> subscribed = new Dictionary<long, object>();
        private EventSink sink;
        private readonly int selfIntegrity;

        public UiaBackend()
        {
            // Physical pixels everywhere, as UI Automation's rectangles are: per-monitor aware (v2, Windows 10
            // 1703+), else system aware; without it GetWindowRect and SendInput would use scaled coordinates.
            try { if (!Win32.SetProcessDpiAwarenessContext(new IntPtr(-4))) Win32.SetProcessDPIAware(); }
            catch (EntryPointNotFoundException) { Win32.SetProcessDPIAware(); }
            try { uia = (IUIAutomation)new CUIAutomation(); }
            catch (Exception e)
            {
                throw new HelperException("permission_denied", "UI Automation is not available here (CoCreateInstance(CUIAutomation) failed: " + e.Message + ")");
            }
            object integrity;
            selfIntegrity = ProcessFacts.Self().TryGetValue("integrity", out integrity) ? Convert.ToInt32(integrity) : 0x2000;
        }

        public void StartEvents(Action<IDictionary<string, object>> write)
        {
            sink = new EventSink(write);
            IUIAutomationCacheRequest cr = uia.CreateCacheRequest();
            cr.AddProperty(Prop.ProcessId);
            uia.AddFocusChangedEventHandler(cr, sink);
        }

        public void Stop()
        {
            try { uia.RemoveAllEventHandlers(); } catch (Exception) { }
        }

        public object Handle(string op, IDictionary<string, object> args, RequestContext ctx)
        {
            switch (op)
            {
                case "hello": return Hello();
                case "selftest": return Win32.StructSizes();
                case "desktop": return Win32.InputDesktop();
                case "windows": return Windows();
                case "tree": return Tree(args, ctx);
                case "find": return Find(args, ctx);
                case "node": return NodeNow(args);
                case "act": return Act(args, ctx);
                case "text": return Text(args);
                case "focus": return Focus(args);
                case "keys": return Input.Keys(args, this);
                case "pointer": return Pointer.Send(args, this);
                case "capture": return Capture.OfWindow(args, this);
                case "clipboard": return Clipboard.Handle(args);
                case "launch": return Launch(args);
                case "identify": return ProcessFacts.Of((uint)Math.Max(0, Math.Min(Args.Int(args, "pid", 0), uint.MaxValue)));
                case "terminate": return ProcessFacts.Terminate(args);
                case "subscribe": return Subscribe(args);
                default: throw new HelperException("unsupported", "the helper has no op " + op);
            }
        }

        private object Hello()
        {
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["backend"] = "uia";
            d["version"] = Program.Version;
            d["os"] = Environment.OSVersion.VersionString;
            d["self"] = ProcessFacts.Self();
            d["structSizes"] = Win32.StructSizes();
            return d;
        }

        // ---- windows and identity ----

        private object Windows()
        {
            List<object> list = new List<object>();
            IntPtr fg = Win32.GetForegroundWindow();
            Dictionary<uint, Dictionary<string, object>> facts = new Dictionary<uint, Dictionary<string, object>>();
            Win32.EnumWindows(delegate (IntPtr hwnd, IntPtr lp)
            {
                if (!Win32.IsWindowVisible(hwnd)) return true;
                if ((Win32.GetWindowLongW(hwnd, Win32.GWL_EXSTYLE) & Win32.WS_EX_TOOLWINDOW) != 0) return true;
                if (Win32.GetWindow(hwnd, 4 /* GW_OWNER */) != IntPtr.Zero && Win32.WindowText(hwnd).Length == 0) return true;
                string title = Win32.WindowText(hwnd);
                if (title.Length == 0) return true;
                RawWindow raw = new RawWindow();
                raw.Hwnd = hwnd.ToInt64().ToString();
                raw.Title = title;
                raw.ClassName = Win32.ClassName(hwnd);
                Win32.GetWindowThreadProcessId(hwnd, out raw.Pid);
                if (raw.ClassName == AppWindow.FrameClass) raw.Children = AppWindow.Children(hwnd);
                raw.Foreground = hwnd == fg;
                raw.Minimized = Win32.IsIconic(hwnd);
                RECT r;
                if (Win32.GetWindowRect(hwnd, out r)) raw.Bounds = new object[] { r.Left, r.Top, r.Right - r.Left, r.Bottom - r.Top };
                Dictionary<string, object> w = AppWindow.Entry(raw, delegate (uint pid)
                {
                    Dictionary<string, object> f;
                    if (!facts.TryGetValue(pid, out f)) { f = ProcessFacts.Of(pid); facts[pid] = f; }
                    return f;
                });
                if (w == null) return true;
                list.Add(w);
                return true;
            }, IntPtr.Zero);
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["windows"] = list;
            return d;
        }

        /// <summary>The top-level window of a handle argument, which must still exist.</summary>
        internal static IntPtr WindowArg(IDictionary<string, object> args)
        {
            long h;
            if (!long.TryParse(Args.Str(args, "hwnd"), out h) || h == 0) throw new HelperException("window_not_found", "not a window handle");
            IntPtr hwnd = new IntPtr(h);
            if (!Win32.IsWindow(hwnd)) throw new HelperException("window_not_found", "the window is gone");
            return hwnd;
        }

        /// <summary>The app's process of a window (a UWP frame's app, never ApplicationFrameHost: AppWindow.cs).</summary>
        internal static uint PidOf(IntPtr hwnd) { return AppWindow.PidOf(hwnd); }

        /// <summary>UIPI: a client of lower integrity than the target may read little and send nothing.</summary>
        internal void RequireReach(IntPtr hwnd)
        {
            Dictionary<string, object> f = ProcessFacts.Of(PidOf(hwnd));
            object integrity;
            object denied;
            bool higher = f.TryGetValue("integrity", out integrity) && Convert.ToInt32(integrity) > selfIntegrity;
            if (higher || (f.TryGetValue("denied", out denied) && (bool)denied))
                throw new HelperException("elevation_required", "the window belongs to a process running with more privileges than computer-use (an elevated app); nothing was sent", Errors.AccessDenied);
        }

        // ---- reading ----

        private IUIAutomationCacheRequest Request(int scope)
        {
            IUIAutomationCacheRequest cr = uia.CreateCacheRequest();
            foreach (int p in CachedProps) cr.AddProperty(p);
            cr.put_TreeScope(scope);
            cr.put_TreeFilter(uia.get_ControlViewCondition());
            return cr;
        }

        private IUIAutomationElement Root(IntPtr hwnd)
        {
            try { return uia.ElementFromHandle(hwnd); }
            catch (COMException e) { throw Errors.FromException(e); }
        }

        /// <summary>
        /// The element of a runtime id inside the window, or stale_ref: the one the last snapshot cached when it is
        /// alive and still the same, else a descendant search of the window.
        /// </summary>
        private IUIAutomationElement Resolve(IntPtr hwnd, string rid, IUIAutomationCacheRequest cr)
        {
            int[] id = ParseRuntimeId(rid);
            IUIAutomationElement hit = elements.Take(hwnd.ToInt64(), rid, delegate (IUIAutomationElement c)
            {
                // A gone element answers UIA_E_ELEMENTNOTAVAILABLE here (Take forgets it); a live one proves its id.
                IUIAutomationElement now = c.BuildUpdatedCache(cr ?? RidRequest());
                bool same = now != null && uia.CompareRuntimeIds(now.GetRuntimeId(), id) != 0;
                return same ? (cr == null ? c : now) : null;
            });
            if (hit != null) return hit;
            IUIAutomationElement root = Root(hwnd);
            if (uia.CompareRuntimeIds(root.GetRuntimeId(), id) != 0) return cr == null ? root : root.BuildUpdatedCache(cr);
            IUIAutomationCondition cond = uia.CreatePropertyCondition(Prop.RuntimeId, id);
            IUIAutomationElement e = cr == null ? root.FindFirst(TreeScope.Descendants, cond) : root.FindFirstBuildCache(TreeScope.Descendants, cond, cr);
            if (e == null) throw new HelperException("stale_ref", "the element is no longer in the window", Errors.ElementNotAvailable);
            return e;
        }

        private static int[] ParseRuntimeId(string rid)
        {
            string[] parts = rid.Split('.');
            if (parts.Length == 0 || parts.Length > 64) throw new HelperException("stale_ref", "not a runtime id");
            int[] id = new int[parts.Length];
            for (int i = 0; i < parts.Length; i++)
                if (!int.TryParse(parts[i], out id[i])) throw new HelperException("stale_ref", "not a runtime id");
            return id;
        }

        private object Tree(IDictionary<string, object> args, RequestContext ctx)
        {
            IntPtr hwnd = WindowArg(args);
            string scope = Args.OptStr(args, "scope");
            int depth = (int)Math.Min(Args.Int(args, "depth", 1000), 1000);
            int maxNodes = (int)Math.Min(Args.Int(args, "maxNodes", 50000), 50000);
            Stopwatch sw = Stopwatch.StartNew();
            bool woke = false;
            Dictionary<string, object> node = null;
            int[] count = new int[1];
            bool[] truncated = new bool[1];
            for (int attempt = 0; attempt < 2; attempt++)
            {
                IUIAutomationCacheRequest cr = Request(depth <= 1 ? TreeScope.Element | TreeScope.Children : TreeScope.Subtree);
                IUIAutomationElement start = scope == null ? Root(hwnd).BuildUpdatedCache(cr) : Resolve(hwnd, scope, cr);
                count[0] = 0;
                truncated[0] = false;
                if (scope == null) elements.Reset(hwnd.ToInt64());
                node = Walk(start, depth, maxNodes, count, truncated, ctx, hwnd.ToInt64());
                // Chromium and Electron build their accessibility tree only once a UIA client asks: the first read
                // of such a window finds an empty document; one short wait and a second read get the real tree.
                if (attempt == 0 && count[0] <= 3 && Win32.ClassName(hwnd).StartsWith("Chrome_WidgetWin", StringComparison.Ordinal))
                {
                    woke = true;
                    Thread.Sleep(300);
                    continue;
                }
                break;
            }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["root"] = node;
            d["nodes"] = count[0];
            d["truncated"] = truncated[0];
            d["ms"] = sw.Elapsed.TotalMilliseconds;
            if (woke) d["woke"] = true;
            return d;
        }

        private Dictionary<string, object> Walk(IUIAutomationElement e, int depth, int maxNodes, int[] count,
            bool[] truncated, RequestContext ctx, long window)
        {
            ctx.ThrowIfCancelled();
            count[0]++;
            Dictionary<string, object> n = Node(e, true);
            elements.Add(window, (string)n["rid"], e);
            if (depth <= 0) return n;
            IUIAutomationElementArray kids;
            try { kids = e.GetCachedChildren(); } catch (COMException) { kids = null; }
            if (kids == null) return n;
            int len = kids.get_Length();
            List<object> children = new List<object>();
            for (int i = 0; i < len; i++)
            {
                if (count[0] >= maxNodes) { truncated[0] = true; n["childCount"] = len; break; }
                children.Add(Walk(kids.GetElement(i), depth - 1, maxNodes, count, truncated, ctx, window));
            }
            if (children.Count > 0) n["children"] = children;
            return n;
        }

        /// <summary>PropertyConditionFlags: case-insensitive, substring (Windows 10 1809+).</summary>
        private const int IgnoreCase = 1, MatchSubstring = 2;
        /// <summary>The most matches one find returns (the protocol's cap on items).</summary>
        private const int MaxFindMatches = 2000;

        /// <summary>
        /// find {hwnd, text?, cts?: [ControlType...], aid?, limit}: one FindAllBuildCache over the window's descendants
        /// in the ControlView, on a condition UIA evaluates inside the app (control type any of `cts`; not offscreen;
        /// `text` a case-insensitive substring of Name, HelpText or, except in a password field, Value; AutomationId
        /// equal to `aid`), with every snapshot field cached, so the search and the matches' facts cost one
        /// cross-process call. Each match's path (runtime ids from the window down to its parent) is read with the
        /// ControlView walker, one call per ancestor not met before. Before 1809 substring conditions fail: then the
        /// text is matched here on the cached properties.
        /// </summary>
        private object Find(IDictionary<string, object> args, RequestContext ctx)
        {
            IntPtr hwnd = WindowArg(args);
            string text = Args.OptStr(args, "text");
            string aid = Args.OptStr(args, "aid");
            int limit = (int)Math.Max(1, Math.Min(Args.Int(args, "limit", 20), MaxFindMatches));
            IUIAutomationCondition cond = uia.CreateAndCondition(uia.get_ControlViewCondition(), uia.CreatePropertyCondition(Prop.IsOffscreen, false));
            if (args.ContainsKey("cts"))
            {
                IUIAutomationCondition any = null;
                foreach (object o in Args.List(args, "cts"))
                {
                    if (!(o is double)) throw new HelperException("invalid_params", "a control type is a number");
                    IUIAutomationCondition one = uia.CreatePropertyCondition(Prop.ControlType, (int)(double)o);
                    any = any == null ? one : uia.CreateOrCondition(any, one);
                }
                if (any == null) return FindResult(new List<object>(), 0);
                cond = uia.CreateAndCondition(cond, any);
            }
            if (aid != null) cond = uia.CreateAndCondition(cond, uia.CreatePropertyCondition(Prop.AutomationId, aid));
            IUIAutomationElement root = Root(hwnd);
            IUIAutomationCacheRequest cr = Request(TreeScope.Element);
            IUIAutomationElementArray found = null;
            bool filterHere = false;
            if (text != null)
            {
                try { found = root.FindAllBuildCache(TreeScope.Descendants, uia.CreateAndCondition(cond, TextCondition(text)), cr); }
                catch (COMException) { filterHere = true; }
                catch (ArgumentException) { filterHere = true; }
            }
            if (found == null) found = root.FindAllBuildCache(TreeScope.Descendants, cond, cr);
            ctx.ThrowIfCancelled();
            int n = found == null ? 0 : found.get_Length();
            List<object> matches = new List<object>();
            string rootRid = RuntimeIdOf(root.BuildUpdatedCache(RidRequest()));
            Dictionary<string, List<object>> paths = new Dictionary<string, List<object>>();
            IUIAutomationTreeWalker walker = uia.get_ControlViewWalker();
            for (int i = 0; i < n && matches.Count < limit; i++)
            {
                ctx.ThrowIfCancelled();
                IUIAutomationElement e = found.GetElement(i);
                Dictionary<string, object> node = Node(e, true);
                if (filterHere && !TextMatches(node, text)) continue;
                elements.Add(hwnd.ToInt64(), (string)node["rid"], e);
                Dictionary<string, object> m = new Dictionary<string, object>();
                m["node"] = node;
                m["path"] = PathOf(walker, e, rootRid, paths);
                matches.Add(m);
            }
            return FindResult(matches, n);
        }

        private static Dictionary<string, object> FindResult(List<object> matches, int found)
        {
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["matches"] = matches;
            d["found"] = found;
            return d;
        }

        /// <summary>Name, HelpText or (never a password's) Value holds `text`, ignoring case: evaluated by UIA in the app.</summary>
        private IUIAutomationCondition TextCondition(string text)
        {
            const int flags = IgnoreCase | MatchSubstring;
            IUIAutomationCondition value = uia.CreateAndCondition(uia.CreatePropertyConditionEx(Prop.ValueValue, text, flags), uia.CreatePropertyCondition(Prop.IsPassword, false));
            return uia.CreateOrCondition(uia.CreateOrCondition(uia.CreatePropertyConditionEx(Prop.Name, text, flags), uia.CreatePropertyConditionEx(Prop.HelpText, text, flags)), value);
        }

        /// <summary>The same match on a node already read (the helper never puts a password's value in a node).</summary>
        internal static bool TextMatches(Dictionary<string, object> node, string text)
        {
            foreach (string key in new[] { "name", "help", "value" })
            {
                object v;
                if (node.TryGetValue(key, out v) && v is string && ((string)v).IndexOf(text, StringComparison.OrdinalIgnoreCase) >= 0) return true;
            }
            return false;
        }

        private IUIAutomationCacheRequest RidRequest()
        {
            IUIAutomationCacheRequest cr = uia.CreateCacheRequest();
            cr.AddProperty(Prop.RuntimeId);
            return cr;
        }

        private static string RuntimeIdOf(IUIAutomationElement e)
        {
            int[] rid = null;
            try { rid = e.GetCachedPropertyValue(Prop.RuntimeId) as int[]; } catch (COMException) { }
            return rid == null ? "" : string.Join(".", Array.ConvertAll(rid, delegate (int x) { return x.ToString(); }));
        }

        /// <summary>Runtime ids from the window down to the element's parent; ancestors already walked are reused.</summary>
        private List<object> PathOf(IUIAutomationTreeWalker walker, IUIAutomationElement e, string rootRid, Dictionary<string, List<object>> known)
        {
            List<string> up = new List<string>();
            List<object> above = null;
            IUIAutomationCacheRequest cr = RidRequest();
            IUIAutomationElement cur = e;
            for (int depth = 0; depth < 64; depth++)
            {
                IUIAutomationElement parent;
                try { parent = walker.GetParentElementBuildCache(cur, cr); } catch (COMException) { parent = null; }
                if (parent == null) break;
                string rid = RuntimeIdOf(parent);
                if (known.TryGetValue(rid, out above)) break;
                up.Add(rid);
                if (rid == rootRid) break;
                cur = parent;
            }
            List<object> path = above == null ? new List<object>() : new List<object>(above);
            for (int i = up.Count - 1; i >= 0; i--)
            {
                path.Add(up[i]);
                if (!known.ContainsKey(up[i])) known[up[i]] = new List<object>(path);
            }
            // A walk that never met the window (the element left it mid-read) gives no path rather than a wrong one.
            if (path.Count == 0 || !Equals(path[0], rootRid)) return new List<object>();
            return path;
        }

        private object NodeNow(IDictionary<string, object> args)
        {
            IntPtr hwnd = WindowArg(args);
            IUIAutomationElement e = Resolve(hwnd, Args.Str(args, "rid"), Request(TreeScope.Element));
            return Node(e, true);
        }

        /// <summary>One element as the helper reports it; passwords never carry their value.</summary>
        internal static Dictionary<string, object> Node(IUIAutomationElement e, bool cached)
        {
            Dictionary<string, object> n = new Dictionary<string, object>();
            Func<int, object> get = delegate (int id)
            {
                object v;
                try { v = cached ? e.GetCachedPropertyValue(id) : e.GetCurrentPropertyValue(id); }
                catch (COMException) { return null; }
                // UIA answers an unsupported property with a sentinel COM object: treat it as absent.
                return v == null || Marshal.IsComObject(v) ? null : v;
            };
            int[] rid = get(Prop.RuntimeId) as int[];
            n["rid"] = rid == null ? "" : string.Join(".", Array.ConvertAll(rid, delegate (int x) { return x.ToString(); }));
            Put(n, "ct", get(Prop.ControlType));
            Put(n, "pid", get(Prop.ProcessId));
            bool password = Equals(get(Prop.IsPassword), true);
            Put(n, "name", get(Prop.Name));
            Put(n, "aid", get(Prop.AutomationId));
            Put(n, "cls", get(Prop.ClassName));
            Put(n, "fw", get(Prop.FrameworkId));
            Put(n, "help", get(Prop.HelpText));
            Put(n, "accessKey", get(Prop.AccessKey));
            Put(n, "aria", get(Prop.AriaRole));
            Put(n, "heading", get(Prop.HeadingLevel));
            n["enabled"] = !Equals(get(Prop.IsEnabled), false);
            n["offscreen"] = Equals(get(Prop.IsOffscreen), true);
            n["focused"] = Equals(get(Prop.HasKeyboardFocus), true);
            n["focusable"] = Equals(get(Prop.IsKeyboardFocusable), true);
            if (password) n["password"] = true;
            if (Equals(get(Prop.IsRequiredForForm), true)) n["required"] = true;
            double[] rect = get(Prop.BoundingRectangle) as double[];
            if (rect != null && rect.Length == 4)
                n["rect"] = new object[] { (long)Math.Round(rect[0]), (long)Math.Round(rect[1]), (long)Math.Round(rect[2]), (long)Math.Round(rect[3]) };
            List<object> pats = new List<object>();
            AddIf(pats, get(Prop.IsInvokePatternAvailable), "invoke");
            AddIf(pats, get(Prop.IsTogglePatternAvailable), "toggle");
            AddIf(pats, get(Prop.IsSelectionItemPatternAvailable), "selectionItem");
            AddIf(pats, get(Prop.IsSelectionPatternAvailable), "selection");
            AddIf(pats, get(Prop.IsExpandCollapsePatternAvailable), "expandCollapse");
            AddIf(pats, get(Prop.IsValuePatternAvailable), "value");
            AddIf(pats, get(Prop.IsRangeValuePatternAvailable), "rangeValue");
            AddIf(pats, get(Prop.IsScrollPatternAvailable), "scroll");
            AddIf(pats, get(Prop.IsScrollItemPatternAvailable), "scrollItem");
            AddIf(pats, get(Prop.IsTextPatternAvailable), "text");
            AddIf(pats, get(Prop.IsWindowPatternAvailable), "window");
            AddIf(pats, get(Prop.IsLegacyIAccessiblePatternAvailable), "legacy");
            n["patterns"] = pats;
            if (pats.Contains("value"))
            {
                // A password field's value never leaves the helper (docs/policy.md); only its length is implied.
                object value = get(Prop.ValueValue);
                if (!password) Put(n, "value", value);
                else if (value is string && ((string)value).Length > 0) n["filled"] = true;
                n["readOnly"] = Equals(get(Prop.ValueIsReadOnly), true);
            }
            if (pats.Contains("toggle")) Put(n, "toggle", get(Prop.ToggleToggleState));
            if (pats.Contains("expandCollapse")) Put(n, "expand", get(Prop.ExpandCollapseExpandCollapseState));
            if (pats.Contains("selectionItem")) n["selected"] = Equals(get(Prop.SelectionItemIsSelected), true);
            if (pats.Contains("window") && Equals(get(Prop.WindowIsModal), true)) n["modal"] = true;
            if (pats.Contains("rangeValue"))
            {
                Dictionary<string, object> range = new Dictionary<string, object>();
                Put(range, "value", get(Prop.RangeValueValue));
                Put(range, "min", get(Prop.RangeValueMinimum));
                Put(range, "max", get(Prop.RangeValueMaximum));
                Put(range, "step", get(Prop.RangeValueSmallChange));
                range["readOnly"] = Equals(get(Prop.RangeValueIsReadOnly), true);
                n["range"] = range;
            }
            if (pats.Contains("legacy"))
            {
                Put(n, "msaaRole", get(Prop.LegacyIAccessibleRole));
                Put(n, "msaaState", get(Prop.LegacyIAccessibleState));
                Put(n, "defaultAction", get(Prop.LegacyIAccessibleDefaultAction));
            }
            return n;
        }

        private static void Put(IDictionary<string, object> d, string key, object v)
        {
            if (v == null) return;
            string s = v as string;
            if (s != null && s.Length == 0) return;
            d[key] = v;
        }

        private static void AddIf(List<object> l, object available, string name)
        {
            if (Equals(available, true)) l.Add(name);
        }

        // ---- acting: one pattern per op, LegacyIAccessible as the fallback ----

        private object Act(IDictionary<string, object> args, RequestContext ctx)
        {
            IntPtr hwnd = WindowArg(args);
            RequireReach(hwnd);
            IUIAutomationElement e = Resolve(hwnd, Args.Str(args, "rid"), Request(TreeScope.Element));
            Dictionary<string, object> before = Node(e, true);
            // The identity the driver saw must still hold at dispatch (docs/tools.md, "What the model sees"): same control type and name,
            // same process as the window.
            long ct = Args.Int(args, "ct", -1);
            if (ct >= 0 && !Equals(before["ct"], (int)ct)) throw new HelperException("stale_ref", "the element changed its control type; nothing was sent");
            string name = Args.OptStr(args, "name");
            object nowName;
            if (name != null && !(before.TryGetValue("name", out nowName) ? (string)nowName == name : name.Length == 0))
                throw new HelperException("stale_ref", "the element changed its name; nothing was sent");
            object pid;
            // A UWP frame's caption buttons are the frame host's: one app with the app by the window (AppWindow.cs).
            if (before.TryGetValue("pid", out pid) && !AppWindow.ElementBelongs(hwnd, Convert.ToUInt32(pid)))
                throw new HelperException("stale_ref",
                    "the element belongs to another process than the window's app; nothing was sent");
            string op = Args.Str(args, "op");
            string value = Args.OptStr(args, "value");
            if (!(bool)before["enabled"] && op != "scroll") throw new HelperException("element_disabled", "the element is disabled; nothing was sent", Errors.ElementNotEnabled);
            ctx.ThrowIfCancelled();
            string how = Dispatch(e, hwnd, before, op, value);
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["pattern"] = how;
            d["before"] = before;
            try { d["after"] = Node(e.BuildUpdatedCache(Request(TreeScope.Element)), true); } catch (COMException) { }
            return d;
        }

        private static bool Has(Dictionary<string, object> n, string pattern)
        {
            return ((List<object>)n["patterns"]).Contains(pattern);
        }

        private static T Pat<T>(IUIAutomationElement e, int id) where T : class
        {
            T p = e.GetCurrentPattern(id) as T;
            if (p == null) throw new HelperException("unsupported", "the element does not offer the pattern it listed");
            return p;
        }

        private string Dispatch(IUIAutomationElement e, IntPtr hwnd, Dictionary<string, object> n, string op, string value)
        {
            switch (op)
            {
                case "click":
                    if (Has(n, "invoke")) { Pat<IUIAutomationInvokePattern>(e, Pattern.Invoke).Invoke(); return "Invoke.Invoke"; }
                    if (Has(n, "selectionItem")) { Pat<IUIAutomationSelectionItemPattern>(e, Pattern.SelectionItem).Select(); return "SelectionItem.Select"; }
                    if (Has(n, "toggle")) { Pat<IUIAutomationTogglePattern>(e, Pattern.Toggle).Toggle(); return "Toggle.Toggle"; }
                    if (Has(n, "expandCollapse")) return ExpandOrCollapse(e, !IsExpanded(n));
                    return Legacy(e, n);
                case "toggle":
                    if (Has(n, "toggle")) { Pat<IUIAutomationTogglePattern>(e, Pattern.Toggle).Toggle(); return "Toggle.Toggle"; }
                    return Legacy(e, n);
                case "select":
                    if (value != null) return SelectItem(e, n, value);
                    if (Has(n, "selectionItem")) { Pat<IUIAutomationSelectionItemPattern>(e, Pattern.SelectionItem).Select(); return "SelectionItem.Select"; }
                    return Legacy(e, n);
                case "expand": return ExpandOrCollapse(e, true);
                case "collapse": return ExpandOrCollapse(e, false);
                case "focus": e.SetFocus(); return "SetFocus";
                case "set_value":
                case "clear":
                    return SetValue(e, n, op == "clear" ? "" : value ?? "");
                case "type":
                    // An empty writable field takes the text by its pattern: the same result with no focus and no
                    // foreground needed (keys go to the window in front only, which the foreground lock may refuse).
                    if (Focusless.TypeBySetValue(n))
                    {
                        Pat<IUIAutomationValuePattern>(e, Pattern.Value).SetValue(value ?? "");
                        return "Value.SetValue (empty field: no focus needed)";
                    }
                    Dictionary<string, object> front = BringToFront(hwnd);
                    if (!Equals(front["foreground"], true))
                        throw new HelperException("window_not_focused", (string)front["why"] + "; nothing was sent");
                    e.SetFocus();
                    Input.TypeInto(hwnd, value ?? "");
                    return "SetFocus + SendInput (unicode), window brought to the front by " + front["method"];
                case "scroll": return Scroll(e, n, value ?? "down");
                case "close":
                    // Asks the window to close as its title bar's close button does; the app may ask first (Save?).
                    if (Has(n, "window")) { Pat<IUIAutomationWindowPattern>(e, Pattern.Window).Close(); return "Window.Close, as the title bar's close button"; }
                    throw new HelperException("unsupported", "close takes a window (an element with WindowPattern); nothing was sent");
                default: throw new HelperException("unsupported", op + " is not supported by the Windows helper yet; nothing was sent");
            }
        }

        private static bool IsExpanded(Dictionary<string, object> n)
        {
            object s;
            return n.TryGetValue("expand", out s) && Convert.ToInt32(s) != 0; // ExpandCollapseState_Collapsed = 0
        }

        private static string ExpandOrCollapse(IUIAutomationElement e, bool open)
        {
            IUIAutomationExpandCollapsePattern p = Pat<IUIAutomationExpandCollapsePattern>(e, Pattern.ExpandCollapse);
            if (open) { p.Expand(); return "ExpandCollapse.Expand"; }
            p.Collapse();
            return "ExpandCollapse.Collapse";
        }

        private static string Legacy(IUIAutomationElement e, Dictionary<string, object> n)
        {
            if (!Has(n, "legacy")) throw new HelperException("unsupported", "the element offers no pattern for this op; nothing was sent");
            Pat<IUIAutomationLegacyIAccessiblePattern>(e, Pattern.LegacyIAccessible).DoDefaultAction();
            return "LegacyIAccessible.DoDefaultAction";
        }

        private static string SetValue(IUIAutomationElement e, Dictionary<string, object> n, string value)
        {
            if (Has(n, "value"))
            {
                if (Equals(n["readOnly"], true)) throw new HelperException("element_disabled", "the field is read-only; nothing was sent");
                Pat<IUIAutomationValuePattern>(e, Pattern.Value).SetValue(value);
                return "Value.SetValue";
            }
            if (Has(n, "rangeValue"))
            {
                double d;
                if (!double.TryParse(value, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out d))
                    throw new HelperException("invalid_params", "this element takes a number; nothing was sent");
                Pat<IUIAutomationRangeValuePattern>(e, Pattern.RangeValue).SetValue(d);
                return "RangeValue.SetValue";
            }
            if (Has(n, "legacy"))
            {
                Pat<IUIAutomationLegacyIAccessiblePattern>(e, Pattern.LegacyIAccessible).SetValue(value);
                return "LegacyIAccessible.SetValue";
            }
            throw new HelperException("unsupported", "the element takes no value; nothing was sent");
        }

        private string SelectItem(IUIAutomationElement e, Dictionary<string, object> n, string text)
        {
            // A collapsed combo box may create its list items only when open.
            if (Has(n, "expandCollapse") && !IsExpanded(n)) Pat<IUIAutomationExpandCollapsePattern>(e, Pattern.ExpandCollapse).Expand();
            IUIAutomationCondition cond = uia.CreatePropertyCondition(Prop.Name, text);
            IUIAutomationElement item = e.FindFirst(TreeScope.Descendants, cond);
            if (item == null) throw new HelperException("invalid_params", "no item of that text; nothing was selected");
            IUIAutomationSelectionItemPattern p = item.GetCurrentPattern(Pattern.SelectionItem) as IUIAutomationSelectionItemPattern;
            if (p == null) throw new HelperException("unsupported", "the item of that text cannot be selected");
            p.Select();
            if (Has(n, "expandCollapse")) try { Pat<IUIAutomationExpandCollapsePattern>(e, Pattern.ExpandCollapse).Collapse(); } catch (COMException) { }
            return "SelectionItem.Select (item by name)";
        }

        private static string Scroll(IUIAutomationElement e, Dictionary<string, object> n, string direction)
        {
            if (direction == "into_view")
            {
                if (!Has(n, "scrollItem")) throw new HelperException("unsupported", "the element cannot be scrolled into view");
                Pat<IUIAutomationScrollItemPattern>(e, Pattern.ScrollItem).ScrollIntoView();
                return "ScrollItem.ScrollIntoView";
            }
            if (!Has(n, "scroll")) throw new HelperException("unsupported", "the element does not scroll");
            const int LargeDecrement = 0, NoAmount = 2, LargeIncrement = 3;
            int h = NoAmount, v = NoAmount;
            if (direction == "up") v = LargeDecrement;
            else if (direction == "down") v = LargeIncrement;
            else if (direction == "left") h = LargeDecrement;
            else if (direction == "right") h = LargeIncrement;
            else throw new HelperException("invalid_params", "scroll takes up, down, left, right or into_view");
            Pat<IUIAutomationScrollPattern>(e, Pattern.Scroll).Scroll(h, v);
            return "Scroll.Scroll";
        }

        private object Text(IDictionary<string, object> args)
        {
            IntPtr hwnd = WindowArg(args);
            IUIAutomationElement e = Resolve(hwnd, Args.Str(args, "rid"), Request(TreeScope.Element));
            Dictionary<string, object> n = Node(e, true);
            if (n.ContainsKey("password")) throw new HelperException("permission_denied", "a password field's text is never read");
            int max = (int)Math.Min(Args.Int(args, "maxLength", 1000000), 1000000);
            Dictionary<string, object> d = new Dictionary<string, object>();
            if (Has(n, "text")) d["text"] = Pat<IUIAutomationTextPattern>(e, Pattern.Text).get_DocumentRange().GetText(max);
            else if (Has(n, "value")) d["text"] = Pat<IUIAutomationValuePattern>(e, Pattern.Value).get_CurrentValue();
            else throw new HelperException("unsupported", "the element has no text");
            return d;
        }

        // ---- windows, processes, events ----

        private object Focus(IDictionary<string, object> args)
        {
            IntPtr hwnd = WindowArg(args);
            RequireReach(hwnd);
            return BringToFront(hwnd);
        }

        /// <summary>
        /// The foreground ladder (Foreground.cs) on the real desktop; the frame host and a UWP app both may take it.
        /// </summary>
        internal static Dictionary<string, object> BringToFront(IntPtr hwnd)
        {
            uint framePid;
            Win32.GetWindowThreadProcessId(hwnd, out framePid);
            return Foreground.Bring(new Win32Desktop(), hwnd, new uint[] { framePid, PidOf(hwnd) });
        }

        /// <summary>
        /// launch {application, commandLine, environment?: ["NAME=value", ...]}: CreateProcessW with the program's full
        /// path and the command line the driver built (src/drivers/windows/cmdline.ts), never a shell; with an
        /// environment, exactly that block (CREATE_UNICODE_ENVIRONMENT), else the helper's own.
        /// </summary>
        private object Launch(IDictionary<string, object> args)
        {
            string application = Args.Str(args, "application");
            string line = Args.Str(args, "commandLine");
            List<object> env = args.ContainsKey("environment") ? Args.List(args, "environment") : null;
            string block = null;
            if (env != null)
            {
                System.Text.StringBuilder sb = new System.Text.StringBuilder();
                foreach (object o in env)
                {
                    string entry = o as string;
                    if (entry == null || entry.IndexOf('\0') >= 0 || entry.IndexOf('=', 1) < 0) throw new HelperException("invalid_params", "an environment entry is NAME=value without NUL");
                    sb.Append(entry).Append('\0');
                }
                if (env.Count == 0) sb.Append('\0');
                sb.Append('\0');
                block = sb.ToString();
            }
            STARTUPINFOW si = new STARTUPINFOW();
            si.cb = Marshal.SizeOf(typeof(STARTUPINFOW));
            PROCESS_INFORMATION pi;
            // CreateProcessW may write into the command line: it gets its own buffer.
            System.Text.StringBuilder cmd = new System.Text.StringBuilder(line, line.Length + 1);
            if (!Win32.CreateProcessW(application, cmd, IntPtr.Zero, IntPtr.Zero, false, Win32.CREATE_UNICODE_ENVIRONMENT, block, null, ref si, out pi))
            {
                int err = Marshal.GetLastWin32Error();
                if (err == 740) throw new HelperException("elevation_required", "the program asks for administrator rights; computer-use does not elevate");
                throw new HelperException("app_not_found", "could not start the program (Windows error " + err + ")");
            }
            Win32.CloseHandle(pi.hThread);
            Win32.CloseHandle(pi.hProcess);
            return ProcessFacts.Of(pi.dwProcessId);
        }

        private object Subscribe(IDictionary<string, object> args)
        {
            IntPtr hwnd = WindowArg(args);
            long key = hwnd.ToInt64();
            lock (subscribed)
            {
                if (!subscribed.ContainsKey(key) && sink != null)
                {
                    if (subscribed.Count >= MaxSubscribedWindows) { try { uia.RemoveAllEventHandlers(); } catch (COMException) { } subscribed.Clear(); StartEvents(sink.Write); }
                    IUIAutomationElement root = Root(hwnd);
                    IUIAutomationCacheRequest cr = uia.CreateCacheRequest();
                    cr.AddProperty(Prop.ProcessId);
                    uia.AddStructureChangedEventHandler(root, TreeScope.Subtree, cr, sink);
                    uia.AddPropertyChangedEventHandler(root, TreeScope.Subtree, cr, sink, WatchedProps);
                    subscribed[key] = root;
                }
            }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["ok"] = true;
            return d;
        }
    }

    /// <summary>Receives UIA events on UIA's own threads and writes one line each (settle counts them).</summary>
    [ComVisible(true)]
    public sealed class EventSink : IUIAutomationFocusChangedEventHandler, IUIAutomationStructureChangedEventHandler, IUIAutomationPropertyChangedEventHandler
    {
        public readonly Action<IDictionary<string, object>> Write;
        public EventSink(Action<IDictionary<string, object>> write) { Write = write; }

        private void Emit(string type, IUIAutomationElement sender)
        {
            Dictionary<string, object> ev = new Dictionary<string, object>();
            ev["event"] = type;
            try { object pid = sender.GetCachedPropertyValue(Prop.ProcessId); if (pid is int) ev["pid"] = pid; } catch (Exception) { }
            try { Write(ev); } catch (Exception) { }
        }

        public void HandleFocusChangedEvent(IUIAutomationElement sender) { Emit("focus", sender); }
        public void HandleStructureChangedEvent(IUIAutomationElement sender, int changeType, int[] runtimeId) { Emit("structure", sender); }
        public void HandlePropertyChangedEvent(IUIAutomationElement sender, int propertyId, object newValue) { Emit("property", sender); }
    }
}
