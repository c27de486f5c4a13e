// Which acts can be done without the window in front. Patterns act inside the app and need neither keyboard
// focus nor the foreground (Invoke, Toggle, SelectionItem, ExpandCollapse, Value, RangeValue, ScrollItem, Scroll,
// LegacyIAccessible); keys and the pointer go to whatever window is in front, so they need it and steal it from
// the user. An act prefers the first kind whenever its result is the same.
using System.Collections.Generic;

namespace ComputerUse.Windows
{
    public static class Focusless
    {
        /// <summary>
        /// Whether `type` can be a Value.SetValue: the field offers a writable Value and is empty (typing at the caret
        /// of an empty field and setting its value give the same text). A password field never shows its value: an
        /// unfilled one is empty.
        /// </summary>
        public static bool TypeBySetValue(IDictionary<string, object> node)
        {
            object pats, v;
            List<object> list = node.TryGetValue("patterns", out pats) ? pats as List<object> : null;
            object readOnly;
            if (list == null || !list.Contains("value")) return false;
            if (node.TryGetValue("readOnly", out readOnly) && Equals(readOnly, true)) return false;
            if (node.ContainsKey("password")) return !node.ContainsKey("filled");
            return !node.TryGetValue("value", out v) || v == null || (v is string && ((string)v).Length == 0);
        }
    }
}
