/*
 * The general pasteboard through HIServices' Pasteboard API (PasteboardCreate, PasteboardClear,
 * PasteboardPutItemFlavor, PasteboardCopyItemFlavors, PasteboardCopyItemFlavorData…) and the CFData it carries.
 * One pasteboard for every name; its items hold flavors (a UTI and its bytes). Another app's copy is put with
 * fake_pasteboard_put; the log records every flavor's data a client copied, so a test sees that a concealed
 * copy's text was never fetched. Only the client that cleared the pasteboard may put on it (as on macOS:
 * notPasteboardOwnerErr). Written from the public Pasteboard.h and CFData.h; no Apple code.
 */
#include <stdlib.h>
#include <string.h>
#include "fake.h"

enum { badPasteboardIndexErr = -25131, badPasteboardItemErr = -25132, badPasteboardFlavorErr = -25133, notPasteboardOwnerErr = -25135 };

typedef struct { uintptr_t id; char **flavors; Obj **data; int n; } Item;
static Item *items;
static int nitems;
static bool client_owns;

static void clear_items(void) {
  for (int i = 0; i < nitems; i++) { for (int k = 0; k < items[i].n; k++) { free(items[i].flavors[k]); obj_drop(items[i].data[k]); } free(items[i].flavors); free(items[i].data); }
  free(items);
  items = NULL;
  nitems = 0;
}

void pasteboard_reset(void) { clear_items(); client_owns = false; }

static Item *item_of(uintptr_t id, bool make) {
  for (int i = 0; i < nitems; i++) if (items[i].id == id) return &items[i];
  if (!make) return NULL;
  items = realloc(items, sizeof(Item) * (size_t)(nitems + 1));
  items[nitems] = (Item){ .id = id };
  return &items[nitems++];
}

static void put(uintptr_t id, const char *flavor, Obj *data) {
  Item *it = item_of(id, true);
  for (int k = 0; k < it->n; k++) if (!strcmp(it->flavors[k], flavor)) { obj_drop(it->data[k]); it->data[k] = obj_hold(data); return; }
  it->flavors = realloc(it->flavors, sizeof(char *) * (size_t)(it->n + 1));
  it->data = realloc(it->data, sizeof(Obj *) * (size_t)(it->n + 1));
  it->flavors[it->n] = strdup(flavor);
  it->data[it->n++] = obj_hold(data);
}

/* ---- CFData ---- */

const void *CFDataCreate(const void *alloc, const unsigned char *bytes, CFIndex len) {
  (void)alloc;
  Obj *o = obj_new(T_DATA);
  o->u.data.bytes = malloc((size_t)(len > 0 ? len : 1));
  if (len > 0) memcpy(o->u.data.bytes, bytes, (size_t)len);
  o->u.data.len = len > 0 ? len : 0;
  return o;
}
CFTypeID CFDataGetTypeID(void) { return T_DATA; }
const void *CFDataCreateMutable(const void *alloc, CFIndex capacity) { (void)capacity; return CFDataCreate(alloc, NULL, 0); }
void data_append(Obj *d, const void *bytes, size_t len) {
  d->u.data.bytes = realloc(d->u.data.bytes, (size_t)d->u.data.len + len + 1);
  memcpy(d->u.data.bytes + d->u.data.len, bytes, len);
  d->u.data.len += (CFIndex)len;
}
CFIndex CFDataGetLength(const void *d) { return is_obj(d, T_DATA) ? ((const Obj *)d)->u.data.len : 0; }
void CFDataGetBytes(const void *d, CFRange r, unsigned char *buf) {
  const Obj *o = d;
  if (!is_obj(d, T_DATA) || r.location < 0 || r.length < 0 || r.location + r.length > o->u.data.len) { fake_log_line("CFDataGetBytes out of range"); abort(); }
  memcpy(buf, o->u.data.bytes + r.location, (size_t)r.length);
}

/* ---- Pasteboard ---- */

int32_t PasteboardCreate(const void *name, const void **out) {
  if (!is_obj(name, T_STRING) || !out) return -50; /* paramErr */
  char *n = str_to_utf8(name);
  fake_log_line("PasteboardCreate %s", n);
  free(n);
  *out = obj_new(T_PASTEBOARD);
  return 0;
}
uint32_t PasteboardSynchronize(const void *pb) { (void)pb; return 0; }
int32_t PasteboardClear(const void *pb) {
  if (!is_obj(pb, T_PASTEBOARD)) return -50;
  clear_items();
  client_owns = true;
  fake_log_line("PasteboardClear");
  return 0;
}
int32_t PasteboardPutItemFlavor(const void *pb, uintptr_t item, const void *flavor, const void *data, uint32_t flags) {
  (void)flags;
  if (!is_obj(pb, T_PASTEBOARD) || !is_obj(flavor, T_STRING) || !is_obj(data, T_DATA) || !item) return -50;
  if (!client_owns) return notPasteboardOwnerErr;
  char *f = str_to_utf8(flavor);
  put(item, f, (Obj *)data);
  fake_log_line("PasteboardPutItemFlavor %s %ld bytes", f, (long)((const Obj *)data)->u.data.len);
  free(f);
  return 0;
}
int32_t PasteboardGetItemCount(const void *pb, unsigned long *count) {
  if (!is_obj(pb, T_PASTEBOARD) || !count) return -50;
  *count = (unsigned long)nitems;
  return 0;
}
int32_t PasteboardGetItemIdentifier(const void *pb, CFIndex index, uintptr_t *out) {
  if (!is_obj(pb, T_PASTEBOARD) || !out) return -50;
  if (index < 1 || index > nitems) return badPasteboardIndexErr;
  *out = items[index - 1].id;
  return 0;
}
int32_t PasteboardCopyItemFlavors(const void *pb, uintptr_t item, const void **out) {
  if (!is_obj(pb, T_PASTEBOARD) || !out) return -50;
  Item *it = item_of(item, false);
  if (!it) return badPasteboardItemErr;
  Obj **names = malloc(sizeof(Obj *) * (size_t)(it->n ? it->n : 1));
  for (int k = 0; k < it->n; k++) names[k] = str_from_utf8(it->flavors[k]);
  *out = arr_new(names, it->n);
  for (int k = 0; k < it->n; k++) CFRelease(names[k]);
  free(names);
  return 0;
}
int32_t PasteboardCopyItemFlavorData(const void *pb, uintptr_t item, const void *flavor, const void **out) {
  if (!is_obj(pb, T_PASTEBOARD) || !is_obj(flavor, T_STRING) || !out) return -50;
  Item *it = item_of(item, false);
  if (!it) return badPasteboardItemErr;
  char *f = str_to_utf8(flavor);
  fake_log_line("PasteboardCopyItemFlavorData %s", f);
  for (int k = 0; k < it->n; k++) {
    if (strcmp(it->flavors[k], f)) continue;
    free(f);
    *out = CFDataCreate(NULL, it->data[k]->u.data.bytes, it->data[k]->u.data.len);
    return 0;
  }
  free(f);
  return badPasteboardFlavorErr;
}

/* ---- control calls ---- */

/* Another app copies: the first put after a clear starts its items (item ids from 1); the client no longer owns the pasteboard. */
void fake_pasteboard_clear(void) { clear_items(); client_owns = false; }
int fake_pasteboard_put(int item, const char *flavor, const unsigned char *bytes, int len) {
  if (item < 1) return -1;
  Obj *d = (Obj *)CFDataCreate(NULL, bytes, len);
  put((uintptr_t)item, flavor, d);
  CFRelease(d);
  client_owns = false;
  return 0;
}
/* The bytes of a flavor on the first item that has it (buf may be NULL); -1 when none has it. */
int fake_pasteboard_get(const char *flavor, unsigned char *buf, int len) {
  for (int i = 0; i < nitems; i++) for (int k = 0; k < items[i].n; k++) {
    if (strcmp(items[i].flavors[k], flavor)) continue;
    Obj *d = items[i].data[k];
    if (buf && len > 0) memcpy(buf, d->u.data.bytes, (size_t)(d->u.data.len < len ? d->u.data.len : len));
    return (int)d->u.data.len;
  }
  return -1;
}
int fake_pasteboard_items(void) { return nitems; }
