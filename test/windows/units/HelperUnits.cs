// Calls the helper's platform-free pieces directly under Mono (the helper compiled as a library beside this
// file) and prints one JSON object of what they answered; test/unit/windows-helper-units.test.ts checks it.
// Nothing here runs UI Automation: these are the decisions the COM glue in UiaBackend.cs asks of them.
using System;
using System.Collections.Generic;
using ComputerUse.Windows;

public static class HelperUnits
{
    private static List<KeyValuePair<string, uint>> Kids(params uint[] pids)
    {
        List<KeyValuePair<string, uint>> l = new List<KeyValuePair<string, uint>>();
        foreach (uint p in pids) l.Add(new KeyValuePair<string, uint>(AppWindow.CoreClass, p));
        return l;
    }

    private static Dictionary<string, object> Node(string value, bool readOnly, bool password, bool filled,
        params string[] patterns)
    {
        Dictionary<string, object> n = new Dictionary<string, object>();
        n["patterns"] = new List<object>(patterns);
        if (value != null) n["value"] = value;
        if (readOnly) n["readOnly"] = true;
        if (password) n["password"] = true;
        if (filled) n["filled"] = true;
        return n;
    }

    public static int Main()
    {
        Dictionary<string, object> r = new Dictionary<string, object>();
        const uint Host = 9000, App = 9100, Other = 9200;
        string frame = AppWindow.FrameClass;
        // A UWP frame of ApplicationFrameHost (9000) framing Settings (9100).
        r["uwpAppElement"] = AppWindow.ElementBelongs(frame, Host, Kids(App), App);
        r["uwpCaptionButton"] = AppWindow.ElementBelongs(frame, Host, Kids(App), Host);
        r["uwpOtherProcess"] = AppWindow.ElementBelongs(frame, Host, Kids(App), Other);
        r["uwpNoAppAttached"] = AppWindow.ElementBelongs(frame, Host, Kids(), Host);
        r["uwpChildOfHostItself"] = AppWindow.ElementBelongs(frame, Host, Kids(Host), Host);
        r["win32Own"] = AppWindow.ElementBelongs("Notepad", 4812, Kids(), 4812);
        r["win32HostPid"] = AppWindow.ElementBelongs("Notepad", 4812, Kids(), Host);
        r["win32Other"] = AppWindow.ElementBelongs("Notepad", 4812, Kids(), Other);
        r["zeroPid"] = AppWindow.ElementBelongs("Notepad", 4812, Kids(), 0);

        // The runtime-id cache: an element is taken only when the check accepts it; a failed one is forgotten.
        RuntimeIdCache<string> cache = new RuntimeIdCache<string>(2, 3);
        cache.Reset(1);
        cache.Add(1, "42.1", "button");
        cache.Add(1, "42.2", "edit");
        r["cacheHit"] = cache.Take(1, "42.1", delegate (string e) { return e; });
        r["cacheOtherWindow"] = cache.Take(2, "42.1", delegate (string e) { return e; });
        r["cacheDeadElement"] = cache.Take(1, "42.2", delegate (string e) { return null; });
        r["cacheDeadForgotten"] = cache.Take(1, "42.2", delegate (string e) { return e; });
        r["cacheThrowing"] = cache.Take(1, "42.1", delegate (string e) { throw new InvalidOperationException(e); });
        r["cacheAfterThrow"] = cache.Count(1);
        cache.Reset(1);
        for (int i = 0; i < 10; i++) cache.Add(1, "7." + i, "x");
        r["cacheCapPerWindow"] = cache.Count(1);
        cache.Reset(2);
        cache.Add(2, "8.1", "y");
        cache.Reset(3);
        r["cacheEvictsOldestWindow"] = cache.Count(1);
        r["cacheKeepsRecentWindow"] = cache.Count(2);
        cache.Add(4, "9.1", "z");
        r["cacheNoEntryWithoutSnapshot"] = cache.Count(4);

        // Typing without focus: an empty writable Value field only.
        r["typeEmpty"] = Focusless.TypeBySetValue(Node(null, false, false, false, "value", "text"));
        r["typeHasText"] = Focusless.TypeBySetValue(Node("draft", false, false, false, "value"));
        r["typeReadOnly"] = Focusless.TypeBySetValue(Node(null, true, false, false, "value"));
        r["typeNoValuePattern"] = Focusless.TypeBySetValue(Node(null, false, false, false, "text"));
        r["typePasswordEmpty"] = Focusless.TypeBySetValue(Node(null, false, true, false, "value"));
        r["typePasswordFilled"] = Focusless.TypeBySetValue(Node(null, false, true, true, "value"));
        Console.Out.Write(JsonWriter.Write(r));
        return 0;
    }
}
