/*
 * CoreGraphics' window list and window images, and ImageIO's PNG encoding, for screen.capture. Each AXWindow
 * of an app is one CG window: its number is stable (pid × 100 + its index + 1), its kCGWindowBounds are the
 * window's AXPosition/AXSize (a test can shift them: fake_cg_shift), its kCGWindowName its AXTitle, present only
 * with Screen Recording granted (as on macOS 10.15+). CGWindowListCreateImage of one window is an image of
 * bounds × the backing scale (2, a Retina display) filled with one colour that names the window (red = number
 * & 255, green = number >> 8 & 255, blue 0x80); CGImageDestination writes it as a real PNG (stored deflate),
 * scaled down to kCGImageDestinationImageMaxPixelSize. Written from the public CGWindow.h, CGImage.h and
 * CGImageDestination.h; no Apple code.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

typedef struct { double x, y, w, h; } CGRect;

static bool g_screen_recording = true;
static int g_shift_pid;
static double g_shift_dx;
static const long BACKING_SCALE = 2;

void screen_reset(void) { g_screen_recording = true; g_shift_pid = 0; g_shift_dx = 0; }

const void *kCGImageDestinationImageMaxPixelSize;
__attribute__((constructor)) static void init_screen_constants(void) {
  static Obj key = { .magic = 0xCF0BCAFEu, .type = T_STRING, .rc = 1, .immortal = true };
  static UniChar chars[] = { 'I', 'm', 'a', 'g', 'e', 'M', 'a', 'x', 'P', 'i', 'x', 'e', 'l', 'S', 'i', 'z', 'e' };
  key.u.str.chars = chars;
  key.u.str.len = sizeof chars / sizeof chars[0];
  kCGImageDestinationImageMaxPixelSize = &key;
}

/* The CG windows: every AXWindow child of every app's root, in stacking order (apps front to back). */
typedef struct { App *app; Node *win; int number; CGRect bounds; } CgWindow;
static int cg_windows(CgWindow *out, int max) {
  int n = 0;
  for (int i = 0; i < g_napps; i++) {
    App *a = g_apps[i];
    for (int k = 0; k < a->root->nkids && n < max; k++) {
      Node *w = a->root->kids[k];
      if (strcmp(node_role(w), "AXWindow") || w->destroyed) continue;
      Obj *p = node_attr(w, "AXPosition"), *s = node_attr(w, "AXSize");
      CGRect r = { 0, 0, 0, 0 };
      if (p && s) r = (CGRect){ p->u.axv.d[0], p->u.axv.d[1], s->u.axv.d[0], s->u.axv.d[1] };
      if (a->pid == g_shift_pid) r.x += g_shift_dx;
      out[n++] = (CgWindow){ a, w, a->pid * 100 + k + 1, r };
    }
  }
  return n;
}

static Obj *bounds_dict(CGRect r) {
  Obj *keys[4] = { str_from_utf8("X"), str_from_utf8("Y"), str_from_utf8("Width"), str_from_utf8("Height") };
  Obj *vals[4] = { num_new(r.x), num_new(r.y), num_new(r.w), num_new(r.h) };
  Obj *d = (Obj *)CFDictionaryCreate(NULL, (const void **)keys, (const void **)vals, 4, NULL, NULL);
  for (int m = 0; m < 4; m++) { CFRelease(keys[m]); CFRelease(vals[m]); }
  return d;
}

/* option: kCGWindowListOptionIncludingWindow (8) lists only `relative`; anything else lists every window. */
const void *CGWindowListCopyWindowInfo(uint32_t option, uint32_t relative) {
  CgWindow ws[256];
  int n = cg_windows(ws, 256), out = 0;
  Obj **dicts = malloc(sizeof(Obj *) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    if ((option & 8) && ws[i].number != (int)relative) continue;
    Obj *keys[6] = { str_from_utf8("kCGWindowOwnerPID"), str_from_utf8("kCGWindowOwnerName"), str_from_utf8("kCGWindowLayer"), str_from_utf8("kCGWindowNumber"), str_from_utf8("kCGWindowBounds"), str_from_utf8("kCGWindowName") };
    Obj *title = node_attr(ws[i].win, "AXTitle");
    Obj *vals[6] = { num_new(ws[i].app->pid), str_from_utf8(ws[i].app->name), num_new(0), num_new(ws[i].number), bounds_dict(ws[i].bounds), NULL };
    int nk = 5;
    if (g_screen_recording && is_obj(title, T_STRING)) { vals[5] = (Obj *)CFRetain(title); nk = 6; }
    dicts[out++] = (Obj *)CFDictionaryCreate(NULL, (const void **)keys, (const void **)vals, nk, NULL, NULL);
    for (int m = 0; m < 6; m++) { CFRelease(keys[m]); if (vals[m]) CFRelease(vals[m]); }
  }
  Obj *arr = arr_new(dicts, out);
  for (int i = 0; i < out; i++) CFRelease(dicts[i]);
  free(dicts);
  return arr;
}

uint8_t CGPreflightScreenCaptureAccess(void) { return g_screen_recording; }

/* Only one window (kCGWindowListOptionIncludingWindow) is imaged here; NULL without Screen Recording or for an unknown window. */
const void *CGWindowListCreateImage(CGRect screen, uint32_t option, uint32_t window, uint32_t image_option) {
  fake_log_line("CGWindowListCreateImage window %u option %u imageOption %u null-rect %d", window, option, image_option, isinf(screen.x) && isinf(screen.y));
  if (!g_screen_recording || option != 8) return NULL;
  CgWindow ws[256];
  int n = cg_windows(ws, 256);
  for (int i = 0; i < n; i++) {
    if (ws[i].number != (int)window) continue;
    Obj *o = obj_new(T_IMAGE);
    o->u.image.width = (long)ws[i].bounds.w * BACKING_SCALE;
    o->u.image.height = (long)ws[i].bounds.h * BACKING_SCALE;
    o->u.image.number = ws[i].number;
    return o;
  }
  return NULL;
}
size_t CGImageGetWidth(const void *img) { return is_obj(img, T_IMAGE) ? (size_t)((const Obj *)img)->u.image.width : 0; }
size_t CGImageGetHeight(const void *img) { return is_obj(img, T_IMAGE) ? (size_t)((const Obj *)img)->u.image.height : 0; }

const void *CGImageDestinationCreateWithData(const void *data, const void *type, size_t count, const void *options) {
  (void)options;
  if (!is_obj(data, T_DATA) || !is_obj(type, T_STRING) || count != 1) return NULL;
  Obj *o = obj_new(T_IMAGEDEST);
  o->u.dest.data = obj_hold((Obj *)data);
  o->u.dest.png = str_eq(type, "public.png");
  return o;
}

void CGImageDestinationAddImage(const void *dest, const void *image, const void *props) {
  Obj *d = (Obj *)dest;
  if (!is_obj(dest, T_IMAGEDEST) || !is_obj(image, T_IMAGE) || d->u.dest.image) return;
  d->u.dest.image = obj_hold((Obj *)image);
  const Obj *max = props ? CFDictionaryGetValue(props, kCGImageDestinationImageMaxPixelSize) : NULL;
  d->u.dest.max_pixel = is_obj(max, T_NUMBER) ? (long)max->u.num.v : 0;
}

static uint32_t crc_table[256];
static uint32_t crc(const unsigned char *b, size_t n, uint32_t c) {
  if (!crc_table[1]) for (uint32_t i = 0; i < 256; i++) { uint32_t v = i; for (int k = 0; k < 8; k++) v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1; crc_table[i] = v; }
  c = ~c;
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ b[i]) & 0xff] ^ (c >> 8);
  return ~c;
}
static void be32(unsigned char *p, uint32_t v) { p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16); p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v; }
static void chunk(Obj *out, const char *type, const unsigned char *body, size_t n) {
  unsigned char head[8];
  be32(head, (uint32_t)n);
  memcpy(head + 4, type, 4);
  data_append(out, head, 8);
  if (n) data_append(out, body, n);
  unsigned char c[4];
  be32(c, crc(body, n, crc((const unsigned char *)type, 4, 0)));
  data_append(out, c, 4);
}

/* A PNG (8-bit RGB, zlib with stored blocks) of w × h pixels of one colour. */
static void write_png(Obj *out, long w, long h, const unsigned char rgb[3]) {
  static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  data_append(out, sig, 8);
  unsigned char ihdr[13] = { 0 };
  be32(ihdr, (uint32_t)w); be32(ihdr + 4, (uint32_t)h);
  ihdr[8] = 8; ihdr[9] = 2;
  chunk(out, "IHDR", ihdr, 13);
  size_t row = (size_t)w * 3 + 1, raw_n = row * (size_t)h;
  unsigned char *raw = malloc(raw_n ? raw_n : 1);
  for (long y = 0; y < h; y++) { raw[y * row] = 0; for (long x = 0; x < w; x++) memcpy(raw + y * row + 1 + x * 3, rgb, 3); }
  size_t blocks = raw_n / 65535 + 1, z_n = 2 + raw_n + blocks * 5 + 4;
  unsigned char *z = malloc(z_n);
  size_t at = 0;
  z[at++] = 0x78; z[at++] = 0x01;
  uint32_t a = 1, b = 0;
  for (size_t off = 0; off < raw_n || off == 0; ) {
    size_t len = raw_n - off > 65535 ? 65535 : raw_n - off;
    z[at++] = off + len >= raw_n ? 1 : 0;
    z[at++] = (unsigned char)len; z[at++] = (unsigned char)(len >> 8);
    z[at++] = (unsigned char)~len; z[at++] = (unsigned char)(~len >> 8);
    memcpy(z + at, raw + off, len);
    at += len;
    for (size_t i = 0; i < len; i++) { a = (a + raw[off + i]) % 65521; b = (b + a) % 65521; }
    off += len;
    if (off >= raw_n) break;
  }
  be32(z + at, (b << 16) | a); at += 4;
  chunk(out, "IDAT", z, at);
  chunk(out, "IEND", NULL, 0);
  free(raw);
  free(z);
}

uint8_t CGImageDestinationFinalize(const void *dest) {
  Obj *d = (Obj *)dest;
  if (!is_obj(dest, T_IMAGEDEST) || !d->u.dest.image || !d->u.dest.png) return 0;
  long w = d->u.dest.image->u.image.width, h = d->u.dest.image->u.image.height;
  long edge = w > h ? w : h;
  if (d->u.dest.max_pixel > 0 && edge > d->u.dest.max_pixel) {
    w = (long)((double)w * (double)d->u.dest.max_pixel / (double)edge + 0.5);
    h = (long)((double)h * (double)d->u.dest.max_pixel / (double)edge + 0.5);
  }
  int number = d->u.dest.image->u.image.number;
  unsigned char rgb[3] = { (unsigned char)(number & 255), (unsigned char)((number >> 8) & 255), 0x80 };
  write_png(d->u.dest.data, w, h, rgb);
  fake_log_line("CGImageDestinationFinalize %ldx%ld", w, h);
  return 1;
}

/*
 * ImageIO's decoding, as the driver uses it on the PNG that `screencapture -l` wrote: the "source" is the decoded
 * image itself (its size from the PNG's IHDR; it is written back in the colour of window number 0).
 */
static unsigned long be32_at(const unsigned char *p) {
  return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3];
}
const void *CGImageSourceCreateWithData(const void *data, const void *options) {
  (void)options;
  if (!is_obj(data, T_DATA)) return NULL;
  const Obj *d = data;
  const unsigned char *b = d->u.data.bytes;
  if (d->u.data.len < 24 || b[0] != 0x89 || memcmp(b + 12, "IHDR", 4)) return NULL;
  Obj *o = obj_new(T_IMAGE);
  o->u.image.width = (long)be32_at(b + 16);
  o->u.image.height = (long)be32_at(b + 20);
  o->u.image.number = 0;
  fake_log_line("CGImageSourceCreateWithData %ldx%ld", o->u.image.width, o->u.image.height);
  return o;
}
const void *CGImageSourceCreateImageAtIndex(const void *source, size_t index, const void *options) {
  (void)options;
  if (!is_obj(source, T_IMAGE) || index != 0) return NULL;
  return CFRetain(source);
}

/* ---- control calls ---- */
void fake_set_screen_recording(int on) { g_screen_recording = on != 0; }
/* The CG bounds of one app's windows move `dx` points from what AX reports (the two no longer agree). */
void fake_cg_shift(int pid, double dx) { g_shift_pid = pid; g_shift_dx = dx; }
