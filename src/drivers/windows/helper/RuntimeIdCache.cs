// The elements of the last snapshot of each window, by runtime id, so an act or a read reaches its element
// without a descendant search of the whole window (one FindFirst over a large tree is the slowest call UIA has).
// An element taken from here must prove it is alive and still the same (its caller re-reads it with a
// CacheRequest and compares the runtime id); one that does not is dropped and the search runs instead. Bounded:
// a few windows, a capped number of elements each (each holds a reference into the app's provider).
using System;
using System.Collections.Generic;

namespace ComputerUse.Windows
{
    public sealed class RuntimeIdCache<T> where T : class
    {
        private readonly int maxWindows, maxPerWindow;
        private readonly Dictionary<long, Dictionary<string, T>> byWindow =
            new Dictionary<long, Dictionary<string, T>>();
        /// <summary>Windows from least to most recently filled: the first is evicted when there are too many.</summary>
        private readonly List<long> order = new List<long>();

        public RuntimeIdCache(int maxWindows, int maxPerWindow)
        {
            this.maxWindows = Math.Max(1, maxWindows);
            this.maxPerWindow = Math.Max(1, maxPerWindow);
        }

        /// <summary>Starts a window's entries afresh (a new snapshot of it replaces the last one).</summary>
        public void Reset(long window)
        {
            order.Remove(window);
            order.Add(window);
            byWindow[window] = new Dictionary<string, T>();
            while (order.Count > maxWindows) { byWindow.Remove(order[0]); order.RemoveAt(0); }
        }

        /// <summary>Remembers one element of a window; past the cap the rest of the snapshot is not
        /// remembered.</summary>
        public void Add(long window, string rid, T element)
        {
            Dictionary<string, T> m;
            if (string.IsNullOrEmpty(rid) || element == null) return;
            if (!byWindow.TryGetValue(window, out m) || m.Count >= maxPerWindow) return;
            m[rid] = element;
        }

        /// <summary>
        /// The element remembered for `rid` in `window` that `verify` accepts (alive and the same), or null; one that
        /// fails or throws is forgotten, so the caller's search finds it again.
        /// </summary>
        public T Take(long window, string rid, Func<T, T> verify)
        {
            Dictionary<string, T> m;
            T e;
            if (rid == null || !byWindow.TryGetValue(window, out m) || !m.TryGetValue(rid, out e)) return null;
            T ok = null;
            try { ok = verify(e); } catch (Exception) { ok = null; }
            if (ok == null) m.Remove(rid);
            return ok;
        }

        /// <summary>How many elements are remembered for a window (tests, diagnostics).</summary>
        public int Count(long window)
        {
            Dictionary<string, T> m;
            return byWindow.TryGetValue(window, out m) ? m.Count : 0;
        }
    }
}
