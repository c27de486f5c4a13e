// The replay backend: answers from a recorded file instead of UI Automation, behind the same IBackend as the
// COM backend, so the helper's framing, routing, cancellation and error path run end to end under Mono on
// Linux (test/unit/windows-helper.test.ts, the conformance kit). A recording is
// {"answers": [{"op": "...", "match": {field: value}, "result": ... | "error": {"code", "message"}, "events": [...]}]};
// the first answer whose op and match fields equal the request's answers it.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;

namespace ComputerUse.Windows
{
    public sealed class ReplayBackend : IBackend
    {
        private readonly List<Dictionary<string, object>> answers = new List<Dictionary<string, object>>();
        private Action<IDictionary<string, object>> sink;

        public ReplayBackend(string path)
        {
            Dictionary<string, object> doc = JsonReader.Parse(File.ReadAllText(path, Encoding.UTF8)) as Dictionary<string, object>;
            if (doc == null) throw new HelperException("internal", "a replay file is a JSON object");
            foreach (object a in Args.List(doc, "answers"))
            {
                Dictionary<string, object> d = a as Dictionary<string, object>;
                if (d == null || !(d.ContainsKey("op"))) throw new HelperException("internal", "each replay answer has an op");
                answers.Add(d);
            }
        }

        public void StartEvents(Action<IDictionary<string, object>> write) { sink = write; }
        public void Stop() { }

        public object Handle(string op, IDictionary<string, object> args, RequestContext ctx)
        {
            switch (op)
            {
                case "selftest": return Win32.StructSizes();
                case "echo": return args;
                case "sleep":
                    // A long request the driver can cancel (wire conformance: $/cancel).
                    long until = Environment.TickCount + Math.Min(Args.Int(args, "ms", 0), 120000);
                    while (Environment.TickCount < until) { ctx.ThrowIfCancelled(); Thread.Sleep(10); }
                    return true;
            }
            foreach (Dictionary<string, object> a in answers)
            {
                if ((string)a["op"] != op || !Matches(a, args)) continue;
                object events;
                if (sink != null && a.TryGetValue("events", out events) && events is List<object>)
                    foreach (object ev in (List<object>)events) { IDictionary<string, object> e = ev as IDictionary<string, object>; if (e != null) sink(e); }
                object error;
                if (a.TryGetValue("error", out error))
                {
                    IDictionary<string, object> err = error as IDictionary<string, object> ?? new Dictionary<string, object>();
                    throw new HelperException(Args.OptStr(err, "code") ?? "internal", Args.OptStr(err, "message") ?? "recorded error", (int)Args.Int(err, "hresult", 0));
                }
                object result;
                a.TryGetValue("result", out result);
                // A recorded capture holds the pixels: the same blackout, scaling, marks and PNG writer run on them.
                IDictionary<string, object> rec = result as IDictionary<string, object>;
                if (op == "capture" && rec != null && rec.ContainsKey("frame")) return Capture.FromRecording(rec, args);
                // Recorded raw window facts: listed by the same rule as on Windows (a UWP frame by its app's process).
                if (op == "windows" && rec != null && rec.ContainsKey("desktop")) return Windows(rec);
                // A simulated desktop: the same foreground ladder as on Windows runs against its lock (DesktopSim.cs).
                if (op == "focus" && rec != null && rec.ContainsKey("simulate")) return Focus(rec, args);
                return result;
            }
            if (op == "hello")
            {
                Dictionary<string, object> d = new Dictionary<string, object>();
                d["backend"] = "replay";
                d["version"] = Program.Version;
                return d;
            }
            throw new HelperException("window_not_found", "the recording has no answer for " + op);
        }

        private static object Focus(IDictionary<string, object> rec, IDictionary<string, object> args)
        {
            IDictionary<string, object> simulate = rec["simulate"] as IDictionary<string, object>;
            DesktopSim sim = new DesktopSim(simulate ?? new Dictionary<string, object>());
            long h;
            if (!long.TryParse(Args.Str(args, "hwnd"), out h) || h == 0)
                throw new HelperException("window_not_found", "not a window handle");
            IntPtr hwnd = new IntPtr(h);
            uint pid;
            sim.ThreadOf(hwnd, out pid);
            Dictionary<string, object> d = Foreground.Bring(sim, hwnd, new uint[] { pid });
            d["calls"] = sim.Calls;
            d["detached"] = sim.Detached;
            return d;
        }

        private static object Windows(IDictionary<string, object> rec)
        {
            IDictionary<string, object> procs = null;
            object p;
            if (rec.TryGetValue("processes", out p)) procs = p as IDictionary<string, object>;
            List<object> list = new List<object>();
            foreach (object o in Args.List(rec, "desktop"))
            {
                IDictionary<string, object> r = o as IDictionary<string, object>;
                if (r == null) continue;
                Dictionary<string, object> w = AppWindow.Entry(AppWindow.FromRecording(r), delegate (uint pid)
                {
                    object f;
                    Dictionary<string, object> facts = procs != null && procs.TryGetValue(pid.ToString(), out f) ? f as Dictionary<string, object> : null;
                    if (facts != null) return facts;
                    facts = new Dictionary<string, object>();
                    facts["pid"] = pid;
                    facts["gone"] = true;
                    return facts;
                });
                if (w != null) list.Add(w);
            }
            Dictionary<string, object> d = new Dictionary<string, object>();
            d["windows"] = list;
            return d;
        }

        private static bool Matches(Dictionary<string, object> answer, IDictionary<string, object> args)
        {
            object m;
            if (!answer.TryGetValue("match", out m)) return true;
            IDictionary<string, object> match = m as IDictionary<string, object>;
            if (match == null) return true;
            foreach (KeyValuePair<string, object> kv in match)
            {
                object v;
                if (!args.TryGetValue(kv.Key, out v)) return false;
                if (JsonWriter.Write(v) != JsonWriter.Write(kv.Value)) return false;
            }
            return true;
        }
    }
}
