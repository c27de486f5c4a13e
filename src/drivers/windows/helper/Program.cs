// The helper's entry: one JSON object per line on stdin and stdout, spoken with the TypeScript driver
// (src/drivers/windows/helper-client.ts), never with a model. A request is {"id":N,"op":"...","args":{...}};
// the answer is {"id":N,"result":...} or {"id":N,"error":{"code":"...","message":"...","hresult":N}}; events are
// {"event":"...",...}. Requests run one at a time on one MTA thread (UI Automation's client rule: no calls from
// an STA that owns windows); {"op":"cancel","target":N} is handled by the reader thread at once.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;

namespace ComputerUse.Windows
{
    /// <summary>An error with a protocol code (stale_ref, elevation_required, ...) the driver passes on.</summary>
    public sealed class HelperException : Exception
    {
        public readonly string Code;
        public readonly int HResult32;
        public HelperException(string code, string message) : base(message) { Code = code; }
        public HelperException(string code, string message, int hresult) : base(message) { Code = code; HResult32 = hresult; }
    }

    /// <summary>What one request may ask of its handler: whether the driver cancelled it.</summary>
    public sealed class RequestContext
    {
        private int cancelled;
        public bool Cancelled { get { return Thread.VolatileRead(ref cancelled) != 0; } }
        public void Cancel() { Interlocked.Exchange(ref cancelled, 1); }
        /// <summary>Throws when the request was cancelled: long reads call it between elements.</summary>
        public void ThrowIfCancelled() { if (Cancelled) throw new HelperException("timeout", "cancelled by the driver"); }
    }

    /// <summary>One way of answering requests: UI Automation over COM, or recorded answers (tests).</summary>
    public interface IBackend
    {
        /// <summary>Answers one request; throws HelperException for protocol errors.</summary>
        object Handle(string op, IDictionary<string, object> args, RequestContext ctx);
        /// <summary>Starts delivering events through the sink (focus, structure, property changes).</summary>
        void StartEvents(Action<IDictionary<string, object>> sink);
        void Stop();
    }

    public static class Program
    {
        /// <summary>The helper protocol version; the TypeScript side refuses another major.</summary>
        public const string Version = "1.0.0";
        private const int MaxLineChars = 16 * 1024 * 1024;

        private static readonly object writeLock = new object();
        private static TextWriter output;

        [MTAThread]
        public static int Main(string[] argv)
        {
            Stream stdout = Console.OpenStandardOutput();
            output = new StreamWriter(stdout, new UTF8Encoding(false)) { AutoFlush = true, NewLine = "\n" };
            IBackend backend;
            try
            {
                backend = argv.Length == 2 && argv[0] == "--replay" ? (IBackend)new ReplayBackend(argv[1]) : new UiaBackend();
            }
            catch (Exception e)
            {
                Console.Error.WriteLine("computer-use windows helper: " + e.Message);
                Write(Answer(null, null, e));
                return 1;
            }
            Run(backend, new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false)));
            backend.Stop();
            return 0;
        }

        /// <summary>Reads requests until end of input; the worker answers them in order.</summary>
        public static void Run(IBackend backend, TextReader input)
        {
            Queue<Dictionary<string, object>> queue = new Queue<Dictionary<string, object>>();
            Dictionary<string, RequestContext> live = new Dictionary<string, RequestContext>();
            bool ended = false;
            Thread worker = new Thread(delegate ()
            {
                while (true)
                {
                    Dictionary<string, object> req;
                    RequestContext ctx;
                    lock (queue)
                    {
                        while (queue.Count == 0 && !ended) Monitor.Wait(queue);
                        if (queue.Count == 0) return;
                        req = queue.Dequeue();
                        ctx = live[IdKey(req["id"])];
                    }
                    object id = req["id"];
                    string op = req["op"] as string;
                    object rawArgs;
                    req.TryGetValue("args", out rawArgs);
                    IDictionary<string, object> args = rawArgs as IDictionary<string, object> ?? new Dictionary<string, object>();
                    string line;
                    try
                    {
                        object result = ctx.Cancelled ? null : backend.Handle(op, args, ctx);
                        if (ctx.Cancelled) throw new HelperException("timeout", "cancelled by the driver");
                        line = Answer(id, result, null);
                    }
                    catch (Exception e) { line = Answer(id, null, e); }
                    lock (queue) live.Remove(IdKey(id));
                    Write(line);
                }
            });
            worker.SetApartmentState(ApartmentState.MTA);
            worker.IsBackground = true;
            worker.Start();
            try { backend.StartEvents(delegate (IDictionary<string, object> ev) { Write(JsonWriter.Write(ev)); }); }
            catch (Exception e) { Console.Error.WriteLine("computer-use windows helper: no events: " + e.Message); }

            string raw;
            while ((raw = ReadLine(input)) != null)
            {
                Dictionary<string, object> req;
                try { req = JsonReader.Parse(raw) as Dictionary<string, object>; }
                catch (JsonException e) { Console.Error.WriteLine("ignored a line that is not JSON: " + e.Message); continue; }
                object opValue;
                // A line without an id or an op is no request: skipped (a missing key must not end the helper).
                if (req == null || !req.ContainsKey("id") || !req.TryGetValue("op", out opValue) || !(opValue is string))
                {
                    Console.Error.WriteLine("ignored a line that is not a request");
                    continue;
                }
                if ((string)req["op"] == "cancel")
                {
                    object target;
                    object rawArgs;
                    req.TryGetValue("args", out rawArgs);
                    IDictionary<string, object> a = rawArgs as IDictionary<string, object>;
                    if (a != null && a.TryGetValue("target", out target))
                        lock (queue) { RequestContext c; if (live.TryGetValue(IdKey(target), out c)) c.Cancel(); }
                    Write(Answer(req["id"], true, null));
                    continue;
                }
                lock (queue)
                {
                    live[IdKey(req["id"])] = new RequestContext();
                    queue.Enqueue(req);
                    Monitor.PulseAll(queue);
                }
            }
            lock (queue) { ended = true; Monitor.PulseAll(queue); }
            worker.Join();
        }

        /// <summary>One line of input; a line over the cap is skipped whole (never parsed), like the host's framing.</summary>
        private static string ReadLine(TextReader input)
        {
            StringBuilder sb = new StringBuilder();
            bool dropping = false;
            while (true)
            {
                int c = input.Read();
                if (c < 0) return sb.Length > 0 && !dropping ? sb.ToString() : null;
                if (c == '\n')
                {
                    if (dropping) { dropping = false; sb.Length = 0; Console.Error.WriteLine("dropped an oversize line"); continue; }
                    if (sb.Length > 0 && sb[sb.Length - 1] == '\r') sb.Length--;
                    return sb.ToString();
                }
                if (dropping) continue;
                sb.Append((char)c);
                if (sb.Length > MaxLineChars) { dropping = true; sb.Length = 0; }
            }
        }

        private static string IdKey(object id) { return JsonWriter.Write(id); }

        private static string Answer(object id, object result, Exception error)
        {
            Dictionary<string, object> msg = new Dictionary<string, object>();
            msg["id"] = id;
            if (error == null) { msg["result"] = result; return JsonWriter.Write(msg); }
            Dictionary<string, object> err = new Dictionary<string, object>();
            HelperException he = error as HelperException;
            if (he != null)
            {
                err["code"] = he.Code;
                if (he.HResult32 != 0) err["hresult"] = he.HResult32;
            }
            else
            {
                HelperException mapped = Errors.FromException(error);
                err["code"] = mapped.Code;
                if (mapped.HResult32 != 0) err["hresult"] = mapped.HResult32;
            }
            err["message"] = error.Message;
            msg["error"] = err;
            return JsonWriter.Write(msg);
        }

        private static void Write(string line)
        {
            lock (writeLock) { output.Write(line); output.Write('\n'); }
        }
    }

    /// <summary>Maps a COM or runtime failure to a protocol code by its HRESULT.</summary>
    public static class Errors
    {
        /// <summary>UIA_E_ELEMENTNOTAVAILABLE: the element is gone from its app.</summary>
        public const int ElementNotAvailable = unchecked((int)0x80040201);
        /// <summary>UIA_E_ELEMENTNOTENABLED.</summary>
        public const int ElementNotEnabled = unchecked((int)0x80040200);
        /// <summary>UIA_E_NOCLICKABLEPOINT.</summary>
        public const int NoClickablePoint = unchecked((int)0x80040202);
        /// <summary>UIA_E_INVALIDOPERATION (an op the element refuses in its state).</summary>
        public const int InvalidOperation = unchecked((int)0x80131509);
        /// <summary>E_ACCESSDENIED: UIPI keeps a lower-integrity client from a higher one.</summary>
        public const int AccessDenied = unchecked((int)0x80070005);
        /// <summary>UIA_E_TIMEOUT: the provider did not answer in time.</summary>
        public const int Timeout = unchecked((int)0x80131505);
        /// <summary>RPC_E_DISCONNECTED / the server (the app) went away mid-call.</summary>
        public const int Disconnected = unchecked((int)0x80010108);
        public const int ServerUnavailable = unchecked((int)0x800706BA);
        /// <summary>E_NOTIMPL: the provider does not implement the call.</summary>
        public const int NotImplemented = unchecked((int)0x80004001);

        public static string CodeOf(int hr)
        {
            switch (hr)
            {
                case ElementNotAvailable: case Disconnected: case ServerUnavailable: return "stale_ref";
                case ElementNotEnabled: return "element_disabled";
                case NoClickablePoint: return "not_visible";
                case AccessDenied: return "elevation_required";
                case Timeout: return "timeout";
                case NotImplemented: return "unsupported";
                case InvalidOperation: return "action_failed";
                default: return "action_failed";
            }
        }

        public static HelperException FromException(Exception e)
        {
            if (e is UnauthorizedAccessException) return new HelperException("elevation_required", e.Message, AccessDenied);
            if (e is TimeoutException) return new HelperException("timeout", e.Message, Timeout);
            if (e is InvalidCastException) return new HelperException("unsupported", e.Message);
            System.Runtime.InteropServices.COMException com = e as System.Runtime.InteropServices.COMException;
            if (com != null) return new HelperException(CodeOf(com.ErrorCode), e.Message, com.ErrorCode);
            return new HelperException("internal", e.GetType().Name + ": " + e.Message);
        }
    }
}
