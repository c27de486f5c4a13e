/*
 * The replayed apps: read from a JSON fixture (test/macos-fake/README.md describes the format), plus the
 * fake's control calls (fake_*) that tests use to change the app from its side, hang it, and read what the
 * driver did (the log) and what it still owns (fake_outstanding). Also the process facts the driver proves
 * identity with (libproc's proc_pidinfo/proc_pidpath); the window list is screen.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

App **g_apps;
int g_napps;
bool g_trusted = true;
double g_global_timeout_s;
static char *g_log;
static size_t g_loglen, g_logcap;

void fake_log_line(const char *fmt, ...) {
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  if (g_loglen + (size_t)n + 2 > g_logcap) { g_logcap = (g_logcap + (size_t)n + 2) * 2; g_log = realloc(g_log, g_logcap); }
  memcpy(g_log + g_loglen, line, (size_t)n);
  g_loglen += (size_t)n;
  g_log[g_loglen++] = '\n';
  g_log[g_loglen] = 0;
}

bool node_has(char **list, int n, const char *name) {
  for (int i = 0; i < n; i++) if (!strcmp(list[i], name)) return true;
  return false;
}

Obj *node_attr(Node *n, const char *name) {
  for (int i = 0; i < n->nattrs; i++) if (!strcmp(n->names[i], name)) return n->vals[i];
  return NULL;
}

void node_set_attr(Node *n, const char *name, Obj *v) {
  for (int i = 0; i < n->nattrs; i++) {
    if (!strcmp(n->names[i], name)) { Obj *old = n->vals[i]; n->vals[i] = obj_hold(v); obj_drop(old); return; }
  }
  n->names = realloc(n->names, sizeof(char *) * (size_t)(n->nattrs + 1));
  n->vals = realloc(n->vals, sizeof(Obj *) * (size_t)(n->nattrs + 1));
  n->names[n->nattrs] = strdup(name);
  n->vals[n->nattrs++] = obj_hold(v);
}

const char *node_role(Node *n) {
  static char buf[64];
  Obj *r = node_attr(n, "AXRole");
  if (!r || r->type != T_STRING) return "";
  char *s = str_to_utf8(r);
  snprintf(buf, sizeof buf, "%s", s);
  free(s);
  return buf;
}

static int value_kind(const char *attr) {
  if (!strcmp(attr, "AXPosition")) return kAXValueCGPointType;
  if (!strcmp(attr, "AXSize")) return kAXValueCGSizeType;
  if (!strcmp(attr, "AXFrame")) return kAXValueCGRectType;
  if (!strcmp(attr, "AXSelectedTextRange") || !strcmp(attr, "AXVisibleCharacterRange")) return kAXValueCFRangeType;
  return 0;
}

static Obj *obj_from_json(const char *attr, const JVal *v) {
  int kind = value_kind(attr);
  if (kind && v->t == J_ARR) {
    double d[4] = { 0 };
    for (int i = 0; i < v->len && i < 4; i++) d[i] = v->items[i]->n;
    return axv_new(kind, d);
  }
  switch (v->t) {
    case J_STR: return str_from_utf8(v->s);
    case J_NUM: return num_new(v->n);
    case J_BOOL: return bool_obj(v->b);
    default: return NULL;
  }
}

static char **strings_of(const JVal *a, int *n) {
  *n = 0;
  if (!a || a->t != J_ARR) return NULL;
  char **out = malloc(sizeof(char *) * (size_t)(a->len ? a->len : 1));
  for (int i = 0; i < a->len; i++) if (a->items[i]->t == J_STR) out[(*n)++] = strdup(a->items[i]->s);
  return out;
}

static Node *node_from_json(App *app, Node *parent, const JVal *j) {
  Node *n = calloc(1, sizeof *n);
  n->app = app;
  n->parent = parent;
  for (int i = 0; i < j->len; i++) {
    const char *k = j->keys[i];
    if (!strncmp(k, "AX", 2)) {
      Obj *v = obj_from_json(k, j->items[i]);
      if (v) { node_set_attr(n, k, v); CFRelease(v); }
    }
  }
  n->actions = strings_of(json_get(j, "actions"), &n->nactions);
  n->settable = strings_of(json_get(j, "settable"), &n->nsettable);
  JVal *id = json_get(j, "id");
  if (id && id->t == J_STR) n->id = strdup(id->s);
  JVal *focused = json_get(j, "focused");
  if (focused && focused->t == J_BOOL && focused->b) app->focused = n;
  JVal *kids = json_get(j, "children");
  if (kids && kids->t == J_ARR) {
    n->kids = malloc(sizeof(Node *) * (size_t)(kids->len ? kids->len : 1));
    for (int i = 0; i < kids->len; i++) if (kids->items[i]->t == J_OBJ) n->kids[n->nkids++] = node_from_json(app, n, kids->items[i]);
  }
  return n;
}

static void node_free(Node *n) {
  for (int i = 0; i < n->nkids; i++) node_free(n->kids[i]);
  free(n->kids);
  for (int i = 0; i < n->nattrs; i++) { free(n->names[i]); obj_drop(n->vals[i]); }
  free(n->names); free(n->vals);
  for (int i = 0; i < n->nactions; i++) free(n->actions[i]);
  for (int i = 0; i < n->nsettable; i++) free(n->settable[i]);
  free(n->actions); free(n->settable); free(n->id);
  free(n);
}

void tree_reset(void) {
  for (int i = 0; i < g_napps; i++) { procargs_free(g_apps[i]); node_free(g_apps[i]->root); free(g_apps[i]->name); free(g_apps[i]->executable); free(g_apps[i]); }
  free(g_apps);
  g_apps = NULL;
  g_napps = 0;
  g_trusted = true;
  g_global_timeout_s = 0;
  procargs_reset();
  free(g_log);
  g_log = NULL;
  g_loglen = g_logcap = 0;
}

int tree_load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "macos-fake: cannot open %s\n", path); return -1; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  size_t got = fread(text, 1, (size_t)size, f);
  fclose(f);
  text[got] = 0;
  char err[200];
  JVal *j = json_parse(text, err, sizeof err);
  free(text);
  if (!j) { fprintf(stderr, "macos-fake: %s: %s\n", path, err); return -1; }
  JVal *trusted = json_get(j, "trusted");
  if (trusted && trusted->t == J_BOOL) g_trusted = trusted->b;
  security_load(j);
  JVal *apps = json_get(j, "apps");
  for (int i = 0; apps && apps->t == J_ARR && i < apps->len; i++) {
    JVal *a = apps->items[i];
    App *app = calloc(1, sizeof *app);
    JVal *v;
    app->pid = (v = json_get(a, "pid")) ? (int)v->n : 0;
    app->name = strdup((v = json_get(a, "name")) && v->t == J_STR ? v->s : "");
    app->executable = strdup((v = json_get(a, "executable")) && v->t == J_STR ? v->s : "");
    if ((v = json_get(a, "start")) && v->t == J_ARR && v->len == 2) { app->start_sec = (long)v->items[0]->n; app->start_usec = (long)v->items[1]->n; }
    app->uid = (v = json_get(a, "uid")) ? (unsigned)v->n : 501;
    app->hang_ms = (v = json_get(a, "hangMs")) ? (long)v->n : 0;
    procargs_load(app, a);
    JVal *tree = json_get(a, "tree");
    app->root = tree ? node_from_json(app, NULL, tree) : calloc(1, sizeof(Node));
    app->root->app = app;
    g_apps = realloc(g_apps, sizeof(App *) * (size_t)(g_napps + 1));
    g_apps[g_napps++] = app;
  }
  json_free(j);
  return g_napps;
}

__attribute__((constructor)) static void load_from_env(void) {
  const char *path = getenv("FAKE_AX_TREE");
  if (path && *path) tree_load(path);
  const char *trusted = getenv("FAKE_AX_TRUSTED");
  if (trusted && !strcmp(trusted, "0")) g_trusted = false;
}

App *app_by_pid(int pid) {
  for (int i = 0; i < g_napps; i++) if (g_apps[i]->pid == pid) return g_apps[i];
  return NULL;
}

static Node *find_id(Node *n, const char *id) {
  if (n->id && !strcmp(n->id, id)) return n;
  for (int i = 0; i < n->nkids; i++) { Node *hit = find_id(n->kids[i], id); if (hit) return hit; }
  return NULL;
}
Node *node_by_id(const char *id) {
  for (int i = 0; i < g_napps; i++) { Node *hit = find_id(g_apps[i]->root, id); if (hit) return hit; }
  return NULL;
}

/* ---- control calls for tests ---- */

int fake_load(const char *path) { ax_reset(); tree_reset(); security_reset(); pasteboard_reset(); screen_reset(); objects_reset(); return tree_load(path); }
void fake_reset(void) { ax_reset(); tree_reset(); security_reset(); pasteboard_reset(); screen_reset(); objects_reset(); }
long fake_outstanding(char *report, int len) { return objects_outstanding(report, (size_t)(len > 0 ? len : 0)); }
long fake_overreleases(void) { return g_overreleases; }
void fake_set_trusted(int trusted) { g_trusted = trusted != 0; }
int fake_set_hang(int pid, int ms) { App *a = app_by_pid(pid); if (!a) return -1; a->hang_ms = ms; return 0; }
double fake_timeout_s(int pid) { App *a = app_by_pid(pid); return a && a->timeout_s > 0 ? a->timeout_s : g_global_timeout_s; }
/* The log so far (one line per call that changed something or sent input); returns its full length. */
long fake_log(char *buf, int len) {
  if (buf && len > 0) { size_t n = g_loglen < (size_t)len - 1 ? g_loglen : (size_t)len - 1; if (g_log) memcpy(buf, g_log, n); buf[n] = 0; }
  return (long)g_loglen;
}
void fake_clear_log(void) { g_loglen = 0; if (g_log) g_log[0] = 0; }

/* The app changes one of its own attributes (a string) and posts the notification AX would post. */
int fake_app_set_string(const char *id, const char *attr, const char *utf8) {
  Node *n = node_by_id(id);
  if (!n) return -1;
  Obj *v = str_from_utf8(utf8);
  node_set_attr(n, attr, v);
  CFRelease(v);
  post_notification(n->app, n, !strcmp(attr, "AXTitle") ? "AXTitleChanged" : "AXValueChanged");
  return 0;
}

/* The element goes away: every reference to it answers kAXErrorInvalidUIElement from now on. */
int fake_destroy(const char *id) {
  Node *n = node_by_id(id);
  if (!n) return -1;
  n->destroyed = true;
  post_notification(n->app, n, "AXUIElementDestroyed");
  return 0;
}

/* The app quits and another process takes its pid (start time differs): identity must not carry over. */
int fake_reuse_pid(int pid, long start_sec) { App *a = app_by_pid(pid); if (!a) return -1; a->start_sec = start_sec; return 0; }

/* The app's windows come to the front: the system-wide hit test (apps in order) finds them first. */
int fake_raise(int pid) {
  for (int i = 0; i < g_napps; i++) {
    if (g_apps[i]->pid != pid) continue;
    App *a = g_apps[i];
    memmove(g_apps + 1, g_apps, sizeof(App *) * (size_t)i);
    g_apps[0] = a;
    return 0;
  }
  return -1;
}

/* ---- libproc ---- */

int proc_pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int size) {
  (void)arg;
  App *a = app_by_pid(pid);
  if (a && flavor == 9 /* PROC_PIDVNODEPATHINFO */) return procargs_cwd_info(a, buffer, size);
  if (!a || flavor != 3 /* PROC_PIDTBSDINFO */ || size < 136) return 0;
  unsigned char *b = buffer;
  memset(b, 0, 136);
  uint32_t p = (uint32_t)pid, uid = a->uid, ppid = 1; /* launchd starts apps */
  uint64_t sec = (uint64_t)a->start_sec, usec = (uint64_t)a->start_usec;
  memcpy(b + 12, &p, 4);
  memcpy(b + 16, &ppid, 4);
  memcpy(b + 20, &uid, 4);
  memcpy(b + 28, &uid, 4); /* pbi_ruid */
  snprintf((char *)b + 48, 16, "%s", a->name);
  memcpy(b + 120, &sec, 8);
  memcpy(b + 128, &usec, 8);
  return 136;
}

int proc_pidpath(int pid, void *buffer, uint32_t size) {
  App *a = app_by_pid(pid);
  if (!a || !size) return 0;
  snprintf(buffer, size, "%s", a->executable);
  return (int)strlen(buffer);
}
