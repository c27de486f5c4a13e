// A minimal JSON reader and writer (RFC 8259) for the helper's line protocol: objects are
// Dictionary<string, object>, arrays List<object>, numbers double, plus string, bool and null.
// No dependencies beyond mscorlib, so the helper compiles with any C# 5 compiler.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace ComputerUse.Windows
{
    /// <summary>Thrown for text that is not one JSON value.</summary>
    public sealed class JsonException : Exception
    {
        public JsonException(string message) : base(message) { }
    }

    /// <summary>Parses one JSON value; nesting is capped so a hostile line cannot overflow the stack.</summary>
    public sealed class JsonReader
    {
        private const int MaxDepth = 256;
        private readonly string text;
        private int pos;

        private JsonReader(string text) { this.text = text; }

        public static object Parse(string text)
        {
            JsonReader r = new JsonReader(text);
            r.SkipSpace();
            object value = r.ReadValue(0);
            r.SkipSpace();
            if (r.pos != text.Length) throw new JsonException("text after the JSON value at " + r.pos);
            return value;
        }

        private void SkipSpace()
        {
            while (pos < text.Length)
            {
                char c = text[pos];
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n') break;
                pos++;
            }
        }

        private object ReadValue(int depth)
        {
            if (depth > MaxDepth) throw new JsonException("nested too deep");
            if (pos >= text.Length) throw new JsonException("unexpected end");
            char c = text[pos];
            if (c == '{') return ReadObject(depth);
            if (c == '[') return ReadArray(depth);
            if (c == '"') return ReadString();
            if (c == 't') { Expect("true"); return true; }
            if (c == 'f') { Expect("false"); return false; }
            if (c == 'n') { Expect("null"); return null; }
            return ReadNumber();
        }

        private void Expect(string word)
        {
            if (string.CompareOrdinal(text, pos, word, 0, word.Length) != 0) throw new JsonException("unexpected token at " + pos);
            pos += word.Length;
        }

        private Dictionary<string, object> ReadObject(int depth)
        {
            Dictionary<string, object> o = new Dictionary<string, object>(StringComparer.Ordinal);
            pos++;
            SkipSpace();
            if (pos < text.Length && text[pos] == '}') { pos++; return o; }
            while (true)
            {
                SkipSpace();
                if (pos >= text.Length || text[pos] != '"') throw new JsonException("expected a key at " + pos);
                string key = ReadString();
                SkipSpace();
                if (pos >= text.Length || text[pos] != ':') throw new JsonException("expected ':' at " + pos);
                pos++;
                SkipSpace();
                o[key] = ReadValue(depth + 1);
                SkipSpace();
                if (pos >= text.Length) throw new JsonException("unexpected end in an object");
                if (text[pos] == ',') { pos++; continue; }
                if (text[pos] == '}') { pos++; return o; }
                throw new JsonException("expected ',' or '}' at " + pos);
            }
        }

        private List<object> ReadArray(int depth)
        {
            List<object> a = new List<object>();
            pos++;
            SkipSpace();
            if (pos < text.Length && text[pos] == ']') { pos++; return a; }
            while (true)
            {
                SkipSpace();
                a.Add(ReadValue(depth + 1));
                SkipSpace();
                if (pos >= text.Length) throw new JsonException("unexpected end in an array");
                if (text[pos] == ',') { pos++; continue; }
                if (text[pos] == ']') { pos++; return a; }
                throw new JsonException("expected ',' or ']' at " + pos);
            }
        }

        private string ReadString()
        {
            StringBuilder sb = new StringBuilder();
            pos++;
            while (true)
            {
                if (pos >= text.Length) throw new JsonException("unterminated string");
                char c = text[pos++];
                if (c == '"') return sb.ToString();
                if (c < ' ') throw new JsonException("control character in a string");
                if (c != '\\') { sb.Append(c); continue; }
                if (pos >= text.Length) throw new JsonException("unterminated escape");
                char e = text[pos++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        if (pos + 4 > text.Length) throw new JsonException("short \\u escape");
                        int code;
                        if (!int.TryParse(text.Substring(pos, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                            throw new JsonException("bad \\u escape");
                        // Surrogate halves are appended as they come: a pair written as two escapes becomes one character.
                        sb.Append((char)code);
                        pos += 4;
                        break;
                    default: throw new JsonException("bad escape \\" + e);
                }
            }
        }

        private double ReadNumber()
        {
            int start = pos;
            if (pos < text.Length && text[pos] == '-') pos++;
            while (pos < text.Length && "0123456789.eE+-".IndexOf(text[pos]) >= 0) pos++;
            double d;
            if (start == pos || !double.TryParse(text.Substring(start, pos - start), NumberStyles.Float, CultureInfo.InvariantCulture, out d))
                throw new JsonException("bad number at " + start);
            return d;
        }
    }

    /// <summary>Writes values as JSON text on one line (line breaks in strings are escaped).</summary>
    public static class JsonWriter
    {
        public static string Write(object value)
        {
            StringBuilder sb = new StringBuilder();
            Append(sb, value, 0);
            return sb.ToString();
        }

        private static void Append(StringBuilder sb, object v, int depth)
        {
            if (depth > 512) throw new JsonException("value nested too deep to write");
            if (v == null) { sb.Append("null"); return; }
            string s = v as string;
            if (s != null) { AppendString(sb, s); return; }
            if (v is bool) { sb.Append((bool)v ? "true" : "false"); return; }
            if (v is int || v is long || v is uint || v is short || v is byte)
            {
                sb.Append(Convert.ToInt64(v, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture));
                return;
            }
            if (v is ulong) { sb.Append(((ulong)v).ToString(CultureInfo.InvariantCulture)); return; }
            if (v is double || v is float)
            {
                double d = Convert.ToDouble(v, CultureInfo.InvariantCulture);
                // JSON has no NaN or infinity: an app's odd number is written as null, not as broken JSON.
                if (double.IsNaN(d) || double.IsInfinity(d)) sb.Append("null");
                else sb.Append(d.ToString("R", CultureInfo.InvariantCulture));
                return;
            }
            IDictionary<string, object> o = v as IDictionary<string, object>;
            if (o != null)
            {
                sb.Append('{');
                bool first = true;
                foreach (KeyValuePair<string, object> kv in o)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    AppendString(sb, kv.Key);
                    sb.Append(':');
                    Append(sb, kv.Value, depth + 1);
                }
                sb.Append('}');
                return;
            }
            System.Collections.IEnumerable list = v as System.Collections.IEnumerable;
            if (list != null)
            {
                sb.Append('[');
                bool first = true;
                foreach (object item in list)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Append(sb, item, depth + 1);
                }
                sb.Append(']');
                return;
            }
            AppendString(sb, Convert.ToString(v, CultureInfo.InvariantCulture));
        }

        private static void AppendString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        // Controls, U+2028/U+2029 and lone surrogates are escaped: the line stays one line, valid UTF-8.
                        if (c < ' ' || c == '\u2028' || c == '\u2029' || c == '\u007f') sb.Append("\\u").Append(((int)c).ToString("x4"));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }
    }

    /// <summary>Typed reads of request arguments; a missing or mistyped field is a helper error.</summary>
    public static class Args
    {
        public static string Str(IDictionary<string, object> a, string key)
        {
            object v;
            if (!a.TryGetValue(key, out v) || !(v is string)) throw new HelperException("invalid_params", "missing string field " + key);
            return (string)v;
        }

        public static string OptStr(IDictionary<string, object> a, string key)
        {
            object v;
            return a.TryGetValue(key, out v) ? v as string : null;
        }

        public static long Int(IDictionary<string, object> a, string key, long fallback)
        {
            object v;
            if (!a.TryGetValue(key, out v) || v == null) return fallback;
            if (!(v is double)) throw new HelperException("invalid_params", "field " + key + " is not a number");
            double d = (double)v;
            if (d != Math.Floor(d) || d < long.MinValue || d > long.MaxValue) throw new HelperException("invalid_params", "field " + key + " is not an integer");
            return (long)d;
        }

        public static bool Bool(IDictionary<string, object> a, string key)
        {
            object v;
            return a.TryGetValue(key, out v) && v is bool && (bool)v;
        }

        public static List<object> List(IDictionary<string, object> a, string key)
        {
            object v;
            if (!a.TryGetValue(key, out v) || v == null) return new List<object>();
            List<object> l = v as List<object>;
            if (l == null) throw new HelperException("invalid_params", "field " + key + " is not a list");
            return l;
        }
    }
}
