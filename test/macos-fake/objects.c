/*
 * CoreFoundation objects with real reference counting. An object's `rc` counts every reference; `internal`
 * counts those the fake holds itself. A caller owns rc - internal references: a release with none owned is an
 * over-release (counted, never performed), and what callers still own at the end is a leak (fake_outstanding).
 * An object whose count reaches 0 frees its payload, so a use after the last release is a use after free that
 * AddressSanitizer reports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

#define MAGIC 0xCF0BCAFEu

static Obj **all;
static size_t nall, capall;
long g_overreleases;

Obj *obj_new(ObjType t) {
  Obj *o = calloc(1, sizeof *o);
  o->magic = MAGIC;
  o->type = t;
  o->rc = 1;
  if (nall == capall) { capall = capall * 2 + 64; all = realloc(all, capall * sizeof *all); }
  all[nall++] = o;
  return o;
}

bool is_obj(const void *p, ObjType t) {
  const Obj *o = p;
  return o && o->magic == MAGIC && !o->dead && (t == 0 || o->type == t);
}

static void obj_free_payload(Obj *o);

static void obj_dec(Obj *o) {
  if (--o->rc > 0 || o->immortal) return;
  o->dead = true;
  obj_free_payload(o);
}

Obj *obj_hold(Obj *o) { if (o) { o->rc++; o->internal++; } return o; }
void obj_drop(Obj *o) { if (!o) return; o->internal--; obj_dec(o); }

static void obj_free_payload(Obj *o) {
  switch (o->type) {
    case T_STRING: free(o->u.str.chars); o->u.str.chars = NULL; break;
    case T_ARRAY: for (CFIndex i = 0; i < o->u.arr.n; i++) obj_drop(o->u.arr.items[i]); free(o->u.arr.items); o->u.arr.items = NULL; break;
    case T_DICT:
      for (CFIndex i = 0; i < o->u.dict.n; i++) { obj_drop(o->u.dict.keys[i]); obj_drop(o->u.dict.vals[i]); }
      free(o->u.dict.keys); free(o->u.dict.vals); o->u.dict.keys = o->u.dict.vals = NULL; break;
    case T_EVENT: free(o->u.ev.text); o->u.ev.text = NULL; break;
    case T_URL: free(o->u.url.path); o->u.url.path = NULL; break;
    case T_REQUIREMENT: free(o->u.req.text); o->u.req.text = NULL; break;
    case T_BUNDLE: obj_drop(o->u.bundle.ident); o->u.bundle.ident = NULL; break;
    case T_DATA: free(o->u.data.bytes); o->u.data.bytes = NULL; break;
    case T_IMAGEDEST: obj_drop(o->u.dest.data); obj_drop(o->u.dest.image); o->u.dest.data = o->u.dest.image = NULL; break;
    case T_OBSERVER: if (o->u.obs.source) { o->u.obs.source->u.src.observer = NULL; obj_drop(o->u.obs.source); o->u.obs.source = NULL; } break;
    default: break;
  }
}

void objects_reset(void) {
  for (size_t i = 0; i < nall; i++) { if (!all[i]->dead) obj_free_payload(all[i]); free(all[i]); }
  free(all);
  all = NULL;
  nall = capall = 0;
  g_overreleases = 0;
}

static const char *type_name(ObjType t) {
  static const char *names[] = { "?", "CFString", "CFNumber", "CFBoolean", "CFArray", "CFDictionary", "AXValue", "AXUIElement", "AXObserver", "CFRunLoopSource", "CGEvent", "CFRunLoop", "CFURL", "SecCode", "SecRequirement", "CFBundle", "CFData", "Pasteboard", "CGImage", "CGImageDestination" };
  return t <= T_IMAGEDEST ? names[t] : "?";
}

long objects_outstanding(char *report, size_t len) {
  long n = 0;
  size_t used = 0;
  if (report && len) report[0] = 0;
  for (size_t i = 0; i < nall; i++) {
    Obj *o = all[i];
    if (o->dead || o->immortal || o->rc <= o->internal) continue;
    n += o->rc - o->internal;
    if (report && used + 80 < len) {
      char *s = o->type == T_STRING ? str_to_utf8(o) : NULL;
      used += (size_t)snprintf(report + used, len - used, "%s%s ×%ld%s%.40s%s", used ? "; " : "", type_name(o->type), o->rc - o->internal, s ? " \"" : "", s ? s : "", s ? "\"" : "");
      free(s);
    }
  }
  return n;
}

/* ---- strings ---- */

Obj *str_from_utf8(const char *s) {
  Obj *o = obj_new(T_STRING);
  size_t n = strlen(s);
  o->u.str.chars = malloc((n + 1) * sizeof(UniChar) * 2);
  CFIndex len = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned cp;
    if (*p < 0x80) cp = *p++;
    else if ((*p & 0xe0) == 0xc0) { cp = (unsigned)(*p++ & 0x1f) << 6; cp |= *p ? (*p++ & 0x3f) : 0; }
    else if ((*p & 0xf0) == 0xe0) { cp = (unsigned)(*p++ & 0x0f) << 12; for (int k = 6; k >= 0; k -= 6) cp |= *p ? (unsigned)(*p++ & 0x3f) << k : 0; }
    else { cp = (unsigned)(*p++ & 0x07) << 18; for (int k = 12; k >= 0; k -= 6) cp |= *p ? (unsigned)(*p++ & 0x3f) << k : 0; }
    if (cp >= 0x10000) { cp -= 0x10000; o->u.str.chars[len++] = (UniChar)(0xd800 + (cp >> 10)); o->u.str.chars[len++] = (UniChar)(0xdc00 + (cp & 0x3ff)); }
    else o->u.str.chars[len++] = (UniChar)cp;
  }
  o->u.str.len = len;
  return o;
}

char *str_to_utf8(const Obj *s) {
  char *out = malloc((size_t)s->u.str.len * 4 + 1);
  size_t n = 0;
  for (CFIndex i = 0; i < s->u.str.len; i++) {
    unsigned cp = s->u.str.chars[i];
    if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < s->u.str.len) { cp = 0x10000 + ((cp - 0xd800) << 10) + (s->u.str.chars[i + 1] - 0xdc00u); i++; }
    if (cp < 0x80) out[n++] = (char)cp;
    else if (cp < 0x800) { out[n++] = (char)(0xc0 | cp >> 6); out[n++] = (char)(0x80 | (cp & 0x3f)); }
    else if (cp < 0x10000) { out[n++] = (char)(0xe0 | cp >> 12); out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[n++] = (char)(0x80 | (cp & 0x3f)); }
    else { out[n++] = (char)(0xf0 | cp >> 18); out[n++] = (char)(0x80 | ((cp >> 12) & 0x3f)); out[n++] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[n++] = (char)(0x80 | (cp & 0x3f)); }
  }
  out[n] = 0;
  return out;
}

bool str_eq(const Obj *s, const char *utf8) {
  if (!is_obj(s, T_STRING)) return false;
  char *u = str_to_utf8(s);
  bool eq = !strcmp(u, utf8);
  free(u);
  return eq;
}

Obj *num_new(double v) { Obj *o = obj_new(T_NUMBER); o->u.num.v = v; return o; }

static Obj *bool_true, *bool_false;
Obj *bool_obj(bool v) {
  if (!bool_true) {
    bool_true = calloc(1, sizeof(Obj)); bool_true->magic = MAGIC; bool_true->type = T_BOOLEAN; bool_true->immortal = true; bool_true->rc = 1; bool_true->u.b.v = true;
    bool_false = calloc(1, sizeof(Obj)); bool_false->magic = MAGIC; bool_false->type = T_BOOLEAN; bool_false->immortal = true; bool_false->rc = 1;
  }
  return v ? bool_true : bool_false;
}

Obj *arr_new(Obj **items, CFIndex n) {
  Obj *o = obj_new(T_ARRAY);
  o->u.arr.items = malloc(sizeof(Obj *) * (size_t)(n ? n : 1));
  for (CFIndex i = 0; i < n; i++) o->u.arr.items[i] = obj_hold(items[i]);
  o->u.arr.n = n;
  return o;
}

Obj *axv_new(int kind, const double *d) { Obj *o = obj_new(T_AXVALUE); o->u.axv.kind = kind; memcpy(o->u.axv.d, d, sizeof o->u.axv.d); return o; }

Obj *element_new(App *app, Node *node) { Obj *o = obj_new(T_ELEMENT); o->u.el.app = app; o->u.el.node = node; return o; }

/* ---- the CoreFoundation API ---- */

const void *kCFBooleanTrue, *kCFBooleanFalse;
const void *kCFRunLoopDefaultMode;
const char kCFTypeArrayCallBacks[64], kCFTypeDictionaryKeyCallBacks[64], kCFTypeDictionaryValueCallBacks[64];
const void *kCFAllocatorDefault;

__attribute__((constructor)) static void init_constants(void) {
  kCFBooleanTrue = bool_obj(true);
  kCFBooleanFalse = bool_obj(false);
  static Obj mode = { .magic = MAGIC, .type = T_STRING, .rc = 1, .immortal = true };
  static UniChar chars[] = { 'k', 'C', 'F', 'R', 'u', 'n', 'L', 'o', 'o', 'p', 'D', 'e', 'f', 'a', 'u', 'l', 't', 'M', 'o', 'd', 'e' };
  mode.u.str.chars = chars;
  mode.u.str.len = sizeof chars / sizeof chars[0];
  kCFRunLoopDefaultMode = &mode;
}

static void check(const void *cf, const char *fn) {
  const Obj *o = cf;
  if (!o) { fprintf(stderr, "macos-fake: %s(NULL)\n", fn); abort(); }
  if (o->magic != MAGIC) { fprintf(stderr, "macos-fake: %s on something that is not a CF object\n", fn); abort(); }
}

const void *CFRetain(const void *cf) { check(cf, "CFRetain"); ((Obj *)cf)->rc++; return cf; }

void CFRelease(const void *cf) {
  check(cf, "CFRelease");
  Obj *o = (Obj *)cf;
  if (o->immortal) return;
  if (o->dead || o->rc - o->internal <= 0) {
    g_overreleases++;
    fprintf(stderr, "macos-fake: over-release of a %s (rc %ld, fake-held %ld)\n", type_name(o->type), o->rc, o->internal);
    return;
  }
  obj_dec(o);
}

CFIndex CFGetRetainCount(const void *cf) { check(cf, "CFGetRetainCount"); return ((const Obj *)cf)->rc; }
CFTypeID CFGetTypeID(const void *cf) { check(cf, "CFGetTypeID"); return ((const Obj *)cf)->type; }
CFTypeID CFStringGetTypeID(void) { return T_STRING; }
CFTypeID CFNumberGetTypeID(void) { return T_NUMBER; }
CFTypeID CFBooleanGetTypeID(void) { return T_BOOLEAN; }
CFTypeID CFArrayGetTypeID(void) { return T_ARRAY; }
CFTypeID CFDictionaryGetTypeID(void) { return T_DICT; }
CFTypeID AXValueGetTypeID(void) { return T_AXVALUE; }
CFTypeID AXUIElementGetTypeID(void) { return T_ELEMENT; }

Boolean CFEqual(const void *a, const void *b) {
  check(a, "CFEqual"); check(b, "CFEqual");
  const Obj *x = a, *y = b;
  if (x == y) return 1;
  if (x->type != y->type) return 0;
  switch (x->type) {
    case T_STRING: return x->u.str.len == y->u.str.len && !memcmp(x->u.str.chars, y->u.str.chars, (size_t)x->u.str.len * sizeof(UniChar));
    case T_NUMBER: return x->u.num.v == y->u.num.v;
    case T_ELEMENT: return x->u.el.node == y->u.el.node && x->u.el.app == y->u.el.app && x->u.el.system == y->u.el.system;
    case T_AXVALUE: return x->u.axv.kind == y->u.axv.kind && !memcmp(x->u.axv.d, y->u.axv.d, sizeof x->u.axv.d);
    default: return 0;
  }
}

CFHashCode CFHash(const void *cf) {
  check(cf, "CFHash");
  const Obj *o = cf;
  if (o->type == T_ELEMENT) return (CFHashCode)(uintptr_t)(o->u.el.node ? (void *)o->u.el.node : (void *)o->u.el.app) * 2654435761u;
  if (o->type == T_STRING) { CFHashCode h = 5381; for (CFIndex i = 0; i < o->u.str.len; i++) h = h * 33 + o->u.str.chars[i]; return h; }
  return (CFHashCode)(uintptr_t)cf;
}

const void *CFStringCreateWithCharacters(const void *alloc, const UniChar *chars, CFIndex n) {
  (void)alloc;
  Obj *o = obj_new(T_STRING);
  o->u.str.chars = malloc(sizeof(UniChar) * (size_t)(n ? n : 1));
  memcpy(o->u.str.chars, chars, sizeof(UniChar) * (size_t)n);
  o->u.str.len = n;
  return o;
}
CFIndex CFStringGetLength(const void *s) { check(s, "CFStringGetLength"); return ((const Obj *)s)->u.str.len; }
void CFStringGetCharacters(const void *s, CFRange r, UniChar *buf) {
  check(s, "CFStringGetCharacters");
  const Obj *o = s;
  if (r.location < 0 || r.length < 0 || r.location + r.length > o->u.str.len) { fprintf(stderr, "macos-fake: CFStringGetCharacters out of range\n"); abort(); }
  memcpy(buf, o->u.str.chars + r.location, sizeof(UniChar) * (size_t)r.length);
}

const void *CFNumberCreate(const void *alloc, CFIndex type, const void *p) {
  (void)alloc;
  double v;
  switch (type) {
    case 3: case 9: v = *(const int32_t *)p; break;       /* SInt32, Int */
    case 4: case 10: case 11: v = (double)*(const int64_t *)p; break; /* SInt64, Long, LongLong */
    case 6: case 13: v = *(const double *)p; break;       /* Float64, Double */
    case 5: case 12: v = *(const float *)p; break;        /* Float32, Float */
    default: return NULL;
  }
  return num_new(v);
}
Boolean CFNumberGetValue(const void *num, CFIndex type, void *out) {
  check(num, "CFNumberGetValue");
  double v = ((const Obj *)num)->u.num.v;
  switch (type) {
    case 3: case 9: *(int32_t *)out = (int32_t)v; return 1;
    case 4: case 10: case 11: *(int64_t *)out = (int64_t)v; return 1;
    case 6: case 13: *(double *)out = v; return 1;
    case 5: case 12: *(float *)out = (float)v; return 1;
    default: return 0;
  }
}
Boolean CFBooleanGetValue(const void *b) { check(b, "CFBooleanGetValue"); return ((const Obj *)b)->u.b.v; }

const void *CFArrayCreate(const void *alloc, const void **values, CFIndex n, const void *callbacks) {
  (void)alloc; (void)callbacks;
  for (CFIndex i = 0; i < n; i++) check(values[i], "CFArrayCreate");
  return arr_new((Obj **)values, n);
}
CFIndex CFArrayGetCount(const void *a) { check(a, "CFArrayGetCount"); return ((const Obj *)a)->u.arr.n; }
const void *CFArrayGetValueAtIndex(const void *a, CFIndex i) {
  check(a, "CFArrayGetValueAtIndex");
  const Obj *o = a;
  if (i < 0 || i >= o->u.arr.n) { fprintf(stderr, "macos-fake: CFArrayGetValueAtIndex out of range\n"); abort(); }
  return o->u.arr.items[i];
}

const void *CFDictionaryCreate(const void *alloc, const void **keys, const void **values, CFIndex n, const void *kcb, const void *vcb) {
  (void)alloc; (void)kcb; (void)vcb;
  Obj *o = obj_new(T_DICT);
  o->u.dict.keys = malloc(sizeof(Obj *) * (size_t)(n ? n : 1));
  o->u.dict.vals = malloc(sizeof(Obj *) * (size_t)(n ? n : 1));
  for (CFIndex i = 0; i < n; i++) { check(keys[i], "CFDictionaryCreate"); check(values[i], "CFDictionaryCreate"); o->u.dict.keys[i] = obj_hold((Obj *)keys[i]); o->u.dict.vals[i] = obj_hold((Obj *)values[i]); }
  o->u.dict.n = n;
  return o;
}
const void *CFDictionaryGetValue(const void *d, const void *key) {
  check(d, "CFDictionaryGetValue");
  const Obj *o = d;
  for (CFIndex i = 0; i < o->u.dict.n; i++) if (CFEqual(o->u.dict.keys[i], key)) return o->u.dict.vals[i];
  return NULL;
}

CFTypeID AXValueGetType(const void *v) { check(v, "AXValueGetType"); return (CFTypeID)((const Obj *)v)->u.axv.kind; }
Boolean AXValueGetValue(const void *v, int kind, void *out) {
  check(v, "AXValueGetValue");
  const Obj *o = v;
  if (o->u.axv.kind != kind) return 0;
  switch (kind) {
    case kAXValueCGPointType: case kAXValueCGSizeType: memcpy(out, o->u.axv.d, 2 * sizeof(double)); return 1;
    case kAXValueCGRectType: memcpy(out, o->u.axv.d, 4 * sizeof(double)); return 1;
    case kAXValueCFRangeType: { CFRange r = { (CFIndex)o->u.axv.d[0], (CFIndex)o->u.axv.d[1] }; memcpy(out, &r, sizeof r); return 1; }
    case kAXValueAXErrorType: { AXError e = (AXError)o->u.axv.d[0]; memcpy(out, &e, sizeof e); return 1; }
    default: return 0;
  }
}
const void *AXValueCreate(int kind, const void *p) {
  double d[4] = { 0 };
  switch (kind) {
    case kAXValueCGPointType: case kAXValueCGSizeType: memcpy(d, p, 2 * sizeof(double)); break;
    case kAXValueCGRectType: memcpy(d, p, 4 * sizeof(double)); break;
    case kAXValueCFRangeType: { CFRange r; memcpy(&r, p, sizeof r); d[0] = (double)r.location; d[1] = (double)r.length; break; }
    default: return NULL;
  }
  return axv_new(kind, d);
}
