/*
 * The Accessibility API over the replayed tree (AXUIElement.h): attributes (computed ones like AXChildren,
 * AXParent, AXWindows, AXFocusedUIElement, AXSelectedText as AX computes them), batched reads, actions,
 * settable attributes, hit testing, trust, the messaging timeout a hung app is answered with, observers whose
 * callbacks run only while the caller pumps its run loop (as on macOS), and keyboard events posted to a pid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fake.h"

/* ---- calls into a (possibly hung) app ---- */

static void sleep_ms(long ms) { struct timespec t = { ms / 1000, (ms % 1000) * 1000000L }; nanosleep(&t, NULL); }

/* What AX does when the app does not answer: it waits for the messaging timeout (6 s unless set), then gives up. */
static AXError enter_app(App *a) {
  if (!g_trusted) return kAXErrorAPIDisabled;
  if (!a || a->hang_ms <= 0) return kAXErrorSuccess;
  double timeout = a->timeout_s > 0 ? a->timeout_s : g_global_timeout_s > 0 ? g_global_timeout_s : 6.0;
  long wait = (long)(timeout * 1000);
  if (a->hang_ms <= wait) { sleep_ms(a->hang_ms); return kAXErrorSuccess; }
  sleep_ms(wait);
  fake_log_line("timeout pid=%d after=%ldms", a->pid, wait);
  return kAXErrorCannotComplete;
}

static AXError resolve(const void *el, App **app, Node **node) {
  if (!is_obj(el, T_ELEMENT)) return kAXErrorIllegalArgument;
  const Obj *o = el;
  if (o->u.el.system) { *app = NULL; *node = NULL; return g_trusted ? kAXErrorSuccess : kAXErrorAPIDisabled; }
  *app = o->u.el.app;
  *node = o->u.el.node;
  if (!*node || (*node)->destroyed) return kAXErrorInvalidUIElement;
  for (Node *p = (*node)->parent; p; p = p->parent) if (p->destroyed) return kAXErrorInvalidUIElement;
  return enter_app(*app);
}

/* ---- computed attributes ---- */

static bool is_window(Node *n) { return !strcmp(node_role(n), "AXWindow"); }

static Obj *kids_array(Node *n, bool windows_only, const char *role_only) {
  Obj **items = malloc(sizeof(Obj *) * (size_t)(n->nkids ? n->nkids : 1));
  int k = 0;
  for (int i = 0; i < n->nkids; i++) {
    Node *c = n->kids[i];
    if (c->destroyed || (windows_only && !is_window(c)) || (role_only && strcmp(node_role(c), role_only))) continue;
    items[k++] = element_new(c->app, c);
  }
  Obj *arr = arr_new(items, k);
  for (int i = 0; i < k; i++) CFRelease(items[i]);
  free(items);
  return arr;
}

static Node *first_window(App *a) {
  for (int i = 0; i < a->root->nkids; i++) if (is_window(a->root->kids[i]) && !a->root->kids[i]->destroyed) return a->root->kids[i];
  return NULL;
}

static Node *window_of(Node *n) { while (n && !is_window(n)) n = n->parent; return n; }

static Obj *selected_text(Node *n) {
  Obj *v = node_attr(n, "AXValue"), *r = node_attr(n, "AXSelectedTextRange");
  if (!v || v->type != T_STRING || !r) return NULL;
  CFIndex at = (CFIndex)r->u.axv.d[0], len = (CFIndex)r->u.axv.d[1];
  if (at < 0 || len < 0 || at + len > v->u.str.len) return NULL;
  return (Obj *)CFStringCreateWithCharacters(NULL, v->u.str.chars + at, len);
}

/* A new reference to the attribute's value (the caller owns it), or NULL with *err set. */
static Obj *copy_attr(App *a, Node *n, const char *name, AXError *err) {
  *err = kAXErrorSuccess;
  if (!strcmp(name, "AXChildren")) return kids_array(n, false, NULL);
  if (!strcmp(name, "AXWindows") && !n->parent) return kids_array(n, true, NULL);
  if (!strcmp(name, "AXParent")) { if (n->parent) return element_new(a, n->parent); *err = kAXErrorNoValue; return NULL; }
  if (!strcmp(name, "AXMenuBar") && !n->parent) {
    for (int i = 0; i < n->nkids; i++) if (!strcmp(node_role(n->kids[i]), "AXMenuBar")) return element_new(a, n->kids[i]);
    *err = kAXErrorNoValue; return NULL;
  }
  if (!strcmp(name, "AXFocusedUIElement") && !n->parent) { if (a->focused && !a->focused->destroyed) return element_new(a, a->focused); *err = kAXErrorNoValue; return NULL; }
  if ((!strcmp(name, "AXFocusedWindow") || !strcmp(name, "AXMainWindow")) && !n->parent) {
    Node *w = a->focused ? window_of(a->focused) : first_window(a);
    if (w) return element_new(a, w);
    *err = kAXErrorNoValue; return NULL;
  }
  /* A window's title bar close button: the child whose subrole says so (as AppKit's AXCloseButton attribute). */
  if (!strcmp(name, "AXCloseButton") && is_window(n)) {
    for (int i = 0; i < n->nkids; i++) {
      Obj *sub = node_attr(n->kids[i], "AXSubrole");
      char *s = sub && sub->type == T_STRING ? str_to_utf8(sub) : NULL;
      bool hit = s && !strcmp(s, "AXCloseButton");
      free(s);
      if (hit) return element_new(a, n->kids[i]);
    }
    *err = kAXErrorNoValue; return NULL;
  }
  if ((!strcmp(name, "AXWindow") || !strcmp(name, "AXTopLevelUIElement")) && n->parent) {
    Node *w = window_of(n);
    if (w) return element_new(a, w);
    *err = kAXErrorNoValue; return NULL;
  }
  if (!strcmp(name, "AXFocused") && node_has(n->settable, n->nsettable, "AXFocused")) return (Obj *)CFRetain(bool_obj(a->focused == n));
  if (!strcmp(name, "AXSelectedText")) { Obj *s = selected_text(n); if (s) return s; }
  if (!strcmp(name, "AXNumberOfCharacters")) { Obj *v = node_attr(n, "AXValue"); if (v && v->type == T_STRING) return num_new((double)v->u.str.len); }
  Obj *v = node_attr(n, name);
  if (v) return (Obj *)CFRetain(v);
  *err = node_role(n)[0] ? kAXErrorNoValue : kAXErrorAttributeUnsupported;
  return NULL;
}

static char *name_of(const void *cfname) { return is_obj(cfname, T_STRING) ? str_to_utf8(cfname) : NULL; }

/* A background app's "ghost click" (seen on real Macs): AXPress answers success and the app does nothing. */
static int g_ghost_press;
void fake_set_ghost_press(int on) { g_ghost_press = on; }
/* The app the system-wide element reports as focused (0: the fixture's first app; another pid: an app outside it). */
static int g_front_pid;
void fake_set_frontmost(int pid) { g_front_pid = pid; }

AXError AXUIElementCopyAttributeValue(const void *el, const void *attr, const void **out) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  char *name = name_of(attr);
  if (!name) return kAXErrorIllegalArgument;
  if (!n) { /* the system-wide element: the frontmost app is the fixture's first */
    bool focused_app = !strcmp(name, "AXFocusedApplication");
    free(name);
    if (!focused_app || !g_napps) return kAXErrorAttributeUnsupported;
    App *front = g_apps[0];
    /* Another app (one the fixture does not hold) is in front: no element of the fixture to give. */
    if (g_front_pid && !(front = app_by_pid(g_front_pid))) return kAXErrorNoValue;
    *out = element_new(front, front->root);
    return kAXErrorSuccess;
  }
  Obj *v = copy_attr(a, n, name, &e);
  free(name);
  *out = v;
  return v ? kAXErrorSuccess : e;
}

AXError AXUIElementCopyMultipleAttributeValues(const void *el, const void *names, int options, const void **out) {
  (void)options;
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  if (!n || !is_obj(names, T_ARRAY)) return kAXErrorIllegalArgument;
  const Obj *arr = names;
  Obj **vals = malloc(sizeof(Obj *) * (size_t)(arr->u.arr.n ? arr->u.arr.n : 1));
  for (CFIndex i = 0; i < arr->u.arr.n; i++) {
    char *name = name_of(arr->u.arr.items[i]);
    AXError ae = kAXErrorIllegalArgument;
    Obj *v = name ? copy_attr(a, n, name, &ae) : NULL;
    free(name);
    /* A missing value is an AXValue of kAXValueAXErrorType holding the error, as AX puts it. */
    if (!v) { double d[4] = { (double)ae, 0, 0, 0 }; v = axv_new(kAXValueAXErrorType, d); }
    vals[i] = v;
  }
  Obj *res = arr_new(vals, arr->u.arr.n);
  for (CFIndex i = 0; i < arr->u.arr.n; i++) CFRelease(vals[i]);
  free(vals);
  *out = res;
  return kAXErrorSuccess;
}

AXError AXUIElementCopyActionNames(const void *el, const void **out) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  if (!n) return kAXErrorIllegalArgument;
  Obj **items = malloc(sizeof(Obj *) * (size_t)(n->nactions ? n->nactions : 1));
  for (int i = 0; i < n->nactions; i++) items[i] = str_from_utf8(n->actions[i]);
  Obj *arr = arr_new(items, n->nactions);
  for (int i = 0; i < n->nactions; i++) CFRelease(items[i]);
  free(items);
  *out = arr;
  return kAXErrorSuccess;
}

AXError AXUIElementIsAttributeSettable(const void *el, const void *attr, Boolean *out) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  char *name = name_of(attr);
  if (!n || !name) { free(name); return kAXErrorIllegalArgument; }
  *out = node_has(n->settable, n->nsettable, name);
  free(name);
  return kAXErrorSuccess;
}

AXError AXUIElementGetPid(const void *el, int *pid) {
  if (!is_obj(el, T_ELEMENT)) return kAXErrorIllegalArgument;
  const Obj *o = el;
  if (!o->u.el.app) return kAXErrorIllegalArgument;
  *pid = o->u.el.app->pid;
  return kAXErrorSuccess;
}

const void *AXUIElementCreateApplication(int pid) {
  App *a = app_by_pid(pid);
  Obj *o = element_new(a, a ? a->root : NULL);
  return o;
}

const void *AXUIElementCreateSystemWide(void) { Obj *o = element_new(NULL, NULL); o->u.el.system = true; return o; }

AXError AXUIElementSetMessagingTimeout(const void *el, float seconds) {
  if (!is_obj(el, T_ELEMENT) || seconds < 0) return kAXErrorIllegalArgument;
  const Obj *o = el;
  if (o->u.el.system) g_global_timeout_s = seconds;
  else if (o->u.el.app) o->u.el.app->timeout_s = seconds;
  return kAXErrorSuccess;
}

/* ---- acting ---- */

static void set_string(Node *n, const char *attr, Obj *s) { node_set_attr(n, attr, s); }

static AXError set_value(App *a, Node *n, const char *name, const Obj *v) {
  if (!node_has(n->settable, n->nsettable, name)) { fake_log_line("refused %s %s", n->id ? n->id : node_role(n), name); return kAXErrorAttributeUnsupported; }
  char *text = v->type == T_STRING ? str_to_utf8(v) : NULL;
  fake_log_line("set %s %s=%s", n->id ? n->id : node_role(n), name, text ? text : v->type == T_BOOLEAN ? (v->u.b.v ? "true" : "false") : "(value)");
  free(text);
  if (!strcmp(name, "AXFocused")) {
    if (v->type != T_BOOLEAN) return kAXErrorIllegalArgument;
    if (v->u.b.v && a->focused != n) { a->focused = n; post_notification(a, n, "AXFocusedUIElementChanged"); }
    return kAXErrorSuccess;
  }
  if (!strcmp(name, "AXSelectedText")) {
    Obj *cur = node_attr(n, "AXValue"), *r = node_attr(n, "AXSelectedTextRange");
    if (!cur || cur->type != T_STRING || v->type != T_STRING) return kAXErrorIllegalArgument;
    CFIndex at = r ? (CFIndex)r->u.axv.d[0] : cur->u.str.len, len = r ? (CFIndex)r->u.axv.d[1] : 0;
    if (at < 0 || len < 0 || at + len > cur->u.str.len) return kAXErrorIllegalArgument;
    CFIndex total = cur->u.str.len - len + v->u.str.len;
    UniChar *chars = malloc(sizeof(UniChar) * (size_t)(total ? total : 1));
    memcpy(chars, cur->u.str.chars, sizeof(UniChar) * (size_t)at);
    memcpy(chars + at, v->u.str.chars, sizeof(UniChar) * (size_t)v->u.str.len);
    memcpy(chars + at + v->u.str.len, cur->u.str.chars + at + len, sizeof(UniChar) * (size_t)(cur->u.str.len - at - len));
    Obj *next = (Obj *)CFStringCreateWithCharacters(NULL, chars, total);
    free(chars);
    set_string(n, "AXValue", next);
    CFRelease(next);
    double caret[4] = { (double)(at + v->u.str.len), 0, 0, 0 };
    Obj *range = axv_new(kAXValueCFRangeType, caret);
    node_set_attr(n, "AXSelectedTextRange", range);
    CFRelease(range);
    post_notification(a, n, "AXValueChanged");
    return kAXErrorSuccess;
  }
  node_set_attr(n, name, (Obj *)v);
  if (!strcmp(name, "AXValue")) {
    if (v->type == T_STRING) {
      double caret[4] = { (double)v->u.str.len, 0, 0, 0 };
      Obj *range = axv_new(kAXValueCFRangeType, caret);
      if (node_attr(n, "AXSelectedTextRange")) node_set_attr(n, "AXSelectedTextRange", range);
      CFRelease(range);
    }
    post_notification(a, n, "AXValueChanged");
  } else if (!strcmp(name, "AXSelected")) post_notification(a, n, "AXSelectedChildrenChanged");
  return kAXErrorSuccess;
}

AXError AXUIElementSetAttributeValue(const void *el, const void *attr, const void *value) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  char *name = name_of(attr);
  if (!n || !name || !is_obj(value, 0)) { free(name); return kAXErrorIllegalArgument; }
  e = set_value(a, n, name, value);
  free(name);
  return e;
}

AXError AXUIElementPerformAction(const void *el, const void *action) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  char *name = name_of(action);
  if (!n || !name) { free(name); return kAXErrorIllegalArgument; }
  if (!node_has(n->actions, n->nactions, name)) { free(name); return kAXErrorActionUnsupported; }
  if (g_ghost_press && !strcmp(name, "AXPress")) {
    fake_log_line("action %s %s (ghost: nothing happens)", n->id ? n->id : node_role(n), name);
    free(name);
    return kAXErrorSuccess;
  }
  fake_log_line("action %s %s", n->id ? n->id : node_role(n), name);
  const char *role = node_role(n);
  if (!strcmp(name, "AXPress") && (!strcmp(role, "AXCheckBox") || !strcmp(role, "AXRadioButton"))) {
    Obj *v = node_attr(n, "AXValue");
    Obj *next = num_new(v && v->type == T_NUMBER && v->u.num.v != 0 ? 0 : 1);
    node_set_attr(n, "AXValue", next);
    CFRelease(next);
    post_notification(a, n, "AXValueChanged");
  } else if (!strcmp(name, "AXIncrement") || !strcmp(name, "AXDecrement")) {
    Obj *v = node_attr(n, "AXValue");
    double cur = v && v->type == T_NUMBER ? v->u.num.v : 0;
    Obj *next = num_new(cur + (!strcmp(name, "AXIncrement") ? 1 : -1));
    node_set_attr(n, "AXValue", next);
    CFRelease(next);
    post_notification(a, n, "AXValueChanged");
  } else if (!strcmp(name, "AXRaise")) {
    post_notification(a, n, "AXMainWindowChanged");
  }
  free(name);
  return kAXErrorSuccess;
}

static bool contains(Node *n, double x, double y) {
  Obj *p = node_attr(n, "AXPosition"), *s = node_attr(n, "AXSize");
  if (!p || !s) return false;
  return x >= p->u.axv.d[0] && y >= p->u.axv.d[1] && x < p->u.axv.d[0] + s->u.axv.d[0] && y < p->u.axv.d[1] + s->u.axv.d[1];
}
static Node *deepest_at(Node *n, double x, double y) {
  for (int i = n->nkids - 1; i >= 0; i--) {
    Node *c = n->kids[i];
    if (c->destroyed) continue;
    if (contains(c, x, y)) return deepest_at(c, x, y);
    Node *hit = deepest_at(c, x, y); /* containers without a frame (the application) */
    if (hit && !node_attr(c, "AXPosition")) return hit;
  }
  return contains(n, x, y) ? n : NULL;
}

AXError AXUIElementCopyElementAtPosition(const void *el, float x, float y, const void **out) {
  App *a; Node *n;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  for (int i = 0; i < g_napps; i++) {
    App *cand = g_apps[i];
    if (a && cand != a) continue;
    Node *hit = deepest_at(cand->root, x, y);
    if (hit) { e = enter_app(cand); if (e) return e; *out = element_new(cand, hit); return kAXErrorSuccess; }
  }
  return kAXErrorNoValue;
}

/* ---- trust (TCC) ---- */

static long g_prompts;
long fake_prompts(void) { return g_prompts; }

Boolean AXIsProcessTrustedWithOptions(const void *options) {
  if (options && is_obj(options, T_DICT)) {
    Obj *key = str_from_utf8("AXTrustedCheckOptionPrompt");
    const Obj *v = CFDictionaryGetValue(options, key);
    CFRelease(key);
    if (v && v->type == T_BOOLEAN && v->u.b.v) g_prompts++;
  }
  return g_trusted;
}
Boolean AXIsProcessTrusted(void) { return g_trusted; }

/* ---- observers and the run loop ---- */

typedef void (*ObserverCallback)(const void *observer, const void *element, const void *notification, void *refcon);
typedef struct Reg { Obj *observer; Node *node; App *app; char *name; void *refcon; } Reg;
static Reg *regs;
static int nregs;
typedef struct Pending { App *app; Node *node; char *name; } Pending;
static Pending *pending;
static int npending;
static int g_fail_observers;
void fake_fail_observers(int fail) { g_fail_observers = fail; }
int fake_observer_count(void) { return nregs; }

void post_notification(App *app, Node *n, const char *name) {
  pending = realloc(pending, sizeof(Pending) * (size_t)(npending + 1));
  pending[npending].app = app;
  pending[npending].node = n;
  pending[npending++].name = strdup(name);
}

AXError AXObserverCreate(int pid, void *callback, const void **out) {
  if (!g_trusted) return kAXErrorAPIDisabled;
  if (g_fail_observers || !callback) return kAXErrorFailure;
  Obj *o = obj_new(T_OBSERVER);
  o->u.obs.pid = pid;
  o->u.obs.cb = callback;
  Obj *src = obj_new(T_SOURCE);
  src->u.src.observer = o;
  src->internal = 1; /* the observer holds its source; callers Get it */
  o->u.obs.source = src;
  *out = o;
  return kAXErrorSuccess;
}

const void *AXObserverGetRunLoopSource(const void *observer) {
  if (!is_obj(observer, T_OBSERVER)) return NULL;
  return ((const Obj *)observer)->u.obs.source;
}

AXError AXObserverAddNotification(const void *observer, const void *el, const void *notification, void *refcon) {
  App *a; Node *n;
  if (!is_obj(observer, T_OBSERVER)) return kAXErrorIllegalArgument;
  AXError e = resolve(el, &a, &n);
  if (e) return e;
  char *name = name_of(notification);
  if (!name) return kAXErrorIllegalArgument;
  for (int i = 0; i < nregs; i++) if (regs[i].observer == observer && regs[i].node == n && !strcmp(regs[i].name, name)) { free(name); return kAXErrorNotificationAlreadyRegistered; }
  regs = realloc(regs, sizeof(Reg) * (size_t)(nregs + 1));
  regs[nregs++] = (Reg){ (Obj *)observer, n, a, name, refcon };
  obj_hold((Obj *)observer); /* AX keeps the observer while it has registrations */
  return kAXErrorSuccess;
}

AXError AXObserverRemoveNotification(const void *observer, const void *el, const void *notification) {
  if (!is_obj(observer, T_OBSERVER) || !is_obj(el, T_ELEMENT)) return kAXErrorIllegalArgument;
  char *name = name_of(notification);
  const Obj *e = el;
  for (int i = 0; i < nregs; i++) {
    if (regs[i].observer == observer && regs[i].node == e->u.el.node && name && !strcmp(regs[i].name, name)) {
      free(regs[i].name);
      Obj *o = regs[i].observer;
      regs[i] = regs[--nregs];
      free(name);
      obj_drop(o);
      return kAXErrorSuccess;
    }
  }
  free(name);
  return kAXErrorNotificationNotRegistered;
}

static Obj run_loop = { .type = T_RUNLOOP, .rc = 1, .immortal = true };
const void *CFRunLoopGetCurrent(void) { run_loop.magic = 0xCF0BCAFEu; return &run_loop; }
void CFRunLoopAddSource(const void *rl, const void *source, const void *mode) {
  (void)rl; (void)mode;
  if (is_obj(source, T_SOURCE)) ((Obj *)source)->u.src.added = true;
}
void CFRunLoopRemoveSource(const void *rl, const void *source, const void *mode) {
  (void)rl; (void)mode;
  if (is_obj(source, T_SOURCE)) ((Obj *)source)->u.src.added = false;
}

static bool under(Node *n, Node *ancestor) { for (; n; n = n->parent) if (n == ancestor) return true; return false; }

/* Delivers queued notifications to observers whose source is on the run loop; callbacks run on this thread. */
int CFRunLoopRunInMode(const void *mode, double seconds, Boolean returnAfterSourceHandled) {
  (void)mode; (void)seconds;
  int handled = 0;
  while (npending > 0) {
    Pending p = pending[0];
    memmove(pending, pending + 1, sizeof(Pending) * (size_t)(--npending));
    for (int i = 0; i < nregs; i++) {
      Reg r = regs[i];
      Obj *src = r.observer->u.obs.source;
      if (!src || !src->u.src.added || r.observer->u.obs.pid != p.app->pid || strcmp(r.name, p.name) || !under(p.node, r.node)) continue;
      Obj *el = element_new(p.app, p.node);
      Obj *name = str_from_utf8(p.name);
      ((ObserverCallback)r.observer->u.obs.cb)(r.observer, el, name, r.refcon);
      CFRelease(el);
      CFRelease(name);
      handled++;
    }
    free(p.name);
    if (handled && returnAfterSourceHandled) break;
  }
  return handled ? 4 /* kCFRunLoopRunHandledSource */ : 3 /* kCFRunLoopRunTimedOut */;
}

/* ---- keyboard events (CGEvent.h) ---- */

const void *CGEventCreateKeyboardEvent(const void *source, uint16_t key, Boolean down) {
  (void)source;
  Obj *o = obj_new(T_EVENT);
  o->u.ev.key = key;
  o->u.ev.down = down;
  return o;
}
void CGEventSetFlags(const void *ev, uint64_t flags) { if (is_obj(ev, T_EVENT)) ((Obj *)ev)->u.ev.flags = flags; }
void CGEventKeyboardSetUnicodeString(const void *ev, CFIndex len, const UniChar *chars) {
  if (!is_obj(ev, T_EVENT)) return;
  Obj *o = (Obj *)ev;
  free(o->u.ev.text);
  o->u.ev.text = malloc(sizeof(UniChar) * (size_t)(len ? len : 1));
  memcpy(o->u.ev.text, chars, sizeof(UniChar) * (size_t)len);
  o->u.ev.tlen = len;
}

/* The key reaches the app's focused element: typed text goes in at the caret, Backspace (kVK_Delete) deletes. */
static void deliver_key(App *a, const Obj *ev) {
  Node *f = a->focused;
  if (!ev->u.ev.down || !f || f->destroyed || !node_has(f->settable, f->nsettable, "AXValue") || (ev->u.ev.flags & 0x00140000)) return;
  Obj *cur = node_attr(f, "AXValue");
  if (!cur || cur->type != T_STRING) return;
  if (ev->u.ev.tlen > 0) {
    Obj *s = (Obj *)CFStringCreateWithCharacters(NULL, ev->u.ev.text, ev->u.ev.tlen);
    bool had = node_has(f->settable, f->nsettable, "AXSelectedText");
    if (!had) { f->settable = realloc(f->settable, sizeof(char *) * (size_t)(f->nsettable + 1)); f->settable[f->nsettable++] = strdup("AXSelectedText"); }
    set_value(a, f, "AXSelectedText", s);
    CFRelease(s);
  }
}

/* ---- pointer events: logged with where they went (what a click would hit is the test's to check) ---- */

typedef struct { double x, y; } CGPoint;
const void *CGEventCreateMouseEvent(const void *source, uint32_t type, CGPoint pos, uint32_t button) {
  (void)source;
  Obj *o = obj_new(T_EVENT);
  o->u.ev.mouse = (int)type;
  o->u.ev.x = pos.x;
  o->u.ev.y = pos.y;
  o->u.ev.button = (int)button;
  o->u.ev.clicks = 1;
  return o;
}
const void *CGEventCreateScrollWheelEvent2(const void *source, uint32_t units, uint32_t count, int32_t w1, int32_t w2, int32_t w3) {
  (void)source; (void)units; (void)w3;
  if (count < 1 || count > 3) return NULL;
  Obj *o = obj_new(T_EVENT);
  o->u.ev.mouse = -1;
  o->u.ev.wheel1 = w1;
  o->u.ev.wheel2 = count > 1 ? w2 : 0;
  return o;
}
/* kCGMouseEventClickState (1) is the only field the driver sets. */
void CGEventSetIntegerValueField(const void *ev, uint32_t field, int64_t value) { if (is_obj(ev, T_EVENT) && field == 1) ((Obj *)ev)->u.ev.clicks = (int)value; }

void CGEventPostToPid(int pid, const void *ev) {
  if (!is_obj(ev, T_EVENT)) return;
  const Obj *o = ev;
  if (o->u.ev.mouse > 0) { fake_log_line("mouse pid=%d type=%d at=%.0f,%.0f button=%d clicks=%d", pid, o->u.ev.mouse, o->u.ev.x, o->u.ev.y, o->u.ev.button, o->u.ev.clicks); return; }
  if (o->u.ev.mouse < 0) { fake_log_line("scroll pid=%d vertical=%d horizontal=%d", pid, o->u.ev.wheel1, o->u.ev.wheel2); return; }
  char text[256] = "";
  if (o->u.ev.tlen) {
    Obj tmp = { .magic = 0xCF0BCAFEu, .type = T_STRING, .rc = 1 };
    tmp.u.str.chars = o->u.ev.text; tmp.u.str.len = o->u.ev.tlen;
    char *u = str_to_utf8(&tmp);
    snprintf(text, sizeof text, "%s", u);
    free(u);
  }
  fake_log_line("key pid=%d code=%u %s flags=0x%llx text=%s", pid, o->u.ev.key, o->u.ev.down ? "down" : "up", (unsigned long long)o->u.ev.flags, text);
  App *a = app_by_pid(pid);
  if (a && g_trusted) deliver_key(a, o);
}

/* Forgets queued notifications and registrations (their apps are about to be freed). */
void ax_reset(void) {
  for (int i = 0; i < npending; i++) free(pending[i].name);
  npending = 0;
  for (int i = 0; i < nregs; i++) free(regs[i].name);
  nregs = 0;
  g_prompts = 0;
  g_fail_observers = 0;
  g_ghost_press = 0;
  g_front_pid = 0;
}
