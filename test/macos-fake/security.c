/*
 * Code signatures (Security.framework), bundles (CFBundle, CFURL) and Launch Services' bundle-id lookup, replayed
 * from the fixture's "code" table: one entry per signed (or unsigned) bundle or executable,
 *   { "path": "/Applications/X.app", "executable": "/Applications/X.app/Contents/MacOS/X", "identifier": "com.x",
 *     "team": "ABCDE12345", "certTeam": "the certificate's OU when it differs", "anchor": "apple" | "developer" | "adhoc" |
 *     "unsigned", "tampered": false }
 * A running process's code (SecCodeCopyGuestWithAttributes by pid) is the entry whose executable is the app's;
 * a process with none is unsigned. Requirements are the two the driver writes ("anchor apple", and
 * "anchor apple generic and certificate leaf[subject.OU] = \"TEAM\""); any other text fails to compile, as a
 * typo would on a Mac. Every returned object is a counted CF object, so the driver's releases are checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

/* OSStatus values of SecCodeHost.h / CSCommon.h. */
enum {
  errSecSuccess = 0, errSecCSUnsigned = -67062, errSecCSSignatureFailed = -67061, errSecCSReqFailed = -67050,
  errSecCSReqInvalid = -67052, errSecCSNoSuchCode = -67065, errSecCSStaticCodeNotFound = -67068, errSecParam = -50,
};
/* kSecCodeSignatureAdhoc (SecCodeSignatureFlags). */
#define SIGNATURE_ADHOC 0x0002u

typedef struct { char *path, *executable, *identifier, *team, *cert_team, *anchor; bool tampered; } CodeEntry;
static CodeEntry *entries;
static int nentries;

static char *dup_or_null(const JVal *v) { return v && v->t == J_STR ? strdup(v->s) : NULL; }

void security_load(const JVal *root) {
  const JVal *code = json_get(root, "code");
  for (int i = 0; code && code->t == J_ARR && i < code->len; i++) {
    const JVal *e = code->items[i];
    entries = realloc(entries, sizeof *entries * (size_t)(nentries + 1));
    CodeEntry *c = &entries[nentries++];
    c->path = dup_or_null(json_get(e, "path"));
    c->executable = dup_or_null(json_get(e, "executable"));
    c->identifier = dup_or_null(json_get(e, "identifier"));
    c->team = dup_or_null(json_get(e, "team"));
    c->cert_team = dup_or_null(json_get(e, "certTeam")); /* the certificate's OU, when it differs from what the code claims */
    c->anchor = dup_or_null(json_get(e, "anchor"));
    const JVal *t = json_get(e, "tampered");
    c->tampered = t && t->t == J_BOOL && t->b;
  }
}

void security_reset(void) {
  for (int i = 0; i < nentries; i++) { free(entries[i].path); free(entries[i].executable); free(entries[i].identifier); free(entries[i].team); free(entries[i].cert_team); free(entries[i].anchor); }
  free(entries);
  entries = NULL;
  nentries = 0;
}

static bool same(const char *a, const char *b) { return a && b && !strcmp(a, b); }
static int entry_by_path(const char *path) {
  for (int i = 0; i < nentries; i++) if (same(entries[i].path, path) || same(entries[i].executable, path)) return i;
  return -1;
}

/* ---- CFURL ---- */

static Obj *url_new(const char *path) { Obj *o = obj_new(T_URL); o->u.url.path = strdup(path); return o; }

const void *CFURLCreateFromFileSystemRepresentation(const void *alloc, const unsigned char *buf, CFIndex len, Boolean isDir) {
  (void)alloc; (void)isDir;
  if (!buf || len < 0) return NULL;
  char *p = malloc((size_t)len + 1);
  memcpy(p, buf, (size_t)len);
  p[len] = 0;
  Obj *o = url_new(p);
  free(p);
  return o;
}

Boolean CFURLGetFileSystemRepresentation(const void *url, Boolean resolve, unsigned char *buf, CFIndex max) {
  (void)resolve;
  if (!is_obj(url, T_URL) || max <= 0) return 0;
  const char *p = ((const Obj *)url)->u.url.path;
  if ((CFIndex)strlen(p) + 1 > max) return 0;
  memcpy(buf, p, strlen(p) + 1);
  return 1;
}

/* ---- CFBundle: a bundle exists when the table has an entry for its path with an executable ---- */

const void *CFBundleCreate(const void *alloc, const void *url) {
  (void)alloc;
  if (!is_obj(url, T_URL)) return NULL;
  int e = -1;
  for (int i = 0; i < nentries; i++) if (same(entries[i].path, ((const Obj *)url)->u.url.path) && entries[i].executable) e = i;
  if (e < 0) return NULL;
  Obj *o = obj_new(T_BUNDLE);
  o->u.bundle.entry = e;
  if (entries[e].identifier) { o->u.bundle.ident = str_from_utf8(entries[e].identifier); o->u.bundle.ident->internal = 1; }
  return o;
}

const void *CFBundleCopyExecutableURL(const void *bundle) {
  if (!is_obj(bundle, T_BUNDLE)) return NULL;
  return url_new(entries[((const Obj *)bundle)->u.bundle.entry].executable);
}

/* A Get function: the string belongs to the bundle (freed with it); a caller release of it is an over-release. */
const void *CFBundleGetIdentifier(const void *bundle) {
  if (!is_obj(bundle, T_BUNDLE)) return NULL;
  return ((const Obj *)bundle)->u.bundle.ident;
}

/* ---- Launch Services ---- */

const void *LSCopyApplicationURLsForBundleIdentifier(const void *bundleId, const void **outError) {
  if (outError) *outError = NULL;
  if (!is_obj(bundleId, T_STRING)) return NULL;
  Obj *urls[16];
  int n = 0;
  for (int i = 0; i < nentries && n < 16; i++) if (entries[i].identifier && entries[i].path && str_eq(bundleId, entries[i].identifier)) urls[n++] = url_new(entries[i].path);
  if (!n) return NULL; /* kLSApplicationNotFoundErr: NULL, as on a Mac */
  Obj *arr = arr_new(urls, n);
  for (int i = 0; i < n; i++) CFRelease(urls[i]);
  return arr;
}

/* ---- Security: code objects ---- */

static Obj *code_new(int entry, int pid, bool dynamic) {
  Obj *o = obj_new(T_CODE);
  o->u.code.entry = entry;
  o->u.code.pid = pid;
  o->u.code.dynamic = dynamic;
  return o;
}

/* A constant CFString outside the fake's object list (objects_reset frees that list; constants live on). */
static Obj *constant(const char *text) {
  Obj *o = calloc(1, sizeof *o);
  o->magic = 0xCF0BCAFEu;
  o->type = T_STRING;
  o->rc = 1;
  o->immortal = true;
  size_t n = strlen(text);
  o->u.str.chars = malloc(sizeof(UniChar) * n);
  for (size_t i = 0; i < n; i++) o->u.str.chars[i] = (UniChar)(unsigned char)text[i];
  o->u.str.len = (CFIndex)n;
  return o;
}
const void *kSecGuestAttributePid, *kSecCodeInfoIdentifier, *kSecCodeInfoTeamIdentifier, *kSecCodeInfoFlags;
__attribute__((constructor)) static void init_security_constants(void) {
  kSecGuestAttributePid = constant("pid");
  kSecCodeInfoIdentifier = constant("identifier");
  kSecCodeInfoTeamIdentifier = constant("teamid");
  kSecCodeInfoFlags = constant("flags");
}

int32_t SecCodeCopyGuestWithAttributes(const void *host, const void *attrs, uint32_t flags, const void **guest) {
  (void)flags;
  if (!guest || host || !is_obj(attrs, T_DICT)) return errSecParam;
  *guest = NULL;
  const void *pidv = CFDictionaryGetValue(attrs, kSecGuestAttributePid);
  if (!is_obj(pidv, T_NUMBER)) return errSecParam;
  int pid = (int)((const Obj *)pidv)->u.num.v;
  App *a = app_by_pid(pid);
  if (!a) return errSecCSNoSuchCode;
  *guest = code_new(entry_by_path(a->executable), pid, true);
  return errSecSuccess;
}

int32_t SecStaticCodeCreateWithPath(const void *url, uint32_t flags, const void **code) {
  (void)flags;
  if (!code || !is_obj(url, T_URL)) return errSecParam;
  *code = NULL;
  int e = entry_by_path(((const Obj *)url)->u.url.path);
  if (e < 0) return errSecCSStaticCodeNotFound;
  *code = code_new(e, 0, false);
  return errSecSuccess;
}

static const CodeEntry *entry_of(const void *code) {
  int e = ((const Obj *)code)->u.code.entry;
  return e >= 0 && !same(entries[e].anchor, "unsigned") ? &entries[e] : NULL;
}

int32_t SecCodeCopySigningInformation(const void *code, uint32_t flags, const void **info) {
  (void)flags;
  if (!info || !is_obj(code, T_CODE)) return errSecParam;
  const CodeEntry *c = entry_of(code);
  Obj *keys[3], *vals[3];
  int n = 0;
  if (c && c->identifier) { keys[n] = (Obj *)kSecCodeInfoIdentifier; vals[n++] = str_from_utf8(c->identifier); }
  if (c && c->team) { keys[n] = (Obj *)kSecCodeInfoTeamIdentifier; vals[n++] = str_from_utf8(c->team); }
  if (c) { keys[n] = (Obj *)kSecCodeInfoFlags; vals[n++] = num_new(same(c->anchor, "adhoc") ? SIGNATURE_ADHOC : 0); }
  *info = CFDictionaryCreate(NULL, (const void **)keys, (const void **)vals, n, NULL, NULL);
  for (int i = 0; i < n; i++) CFRelease(vals[i]);
  return errSecSuccess;
}

int32_t SecRequirementCreateWithString(const void *text, uint32_t flags, const void **req) {
  (void)flags;
  if (!req || !is_obj(text, T_STRING)) return errSecParam;
  *req = NULL;
  char *t = str_to_utf8(text);
  static const char team_prefix[] = "anchor apple generic and certificate leaf[subject.OU] = \"";
  size_t tl = strlen(t), pl = sizeof team_prefix - 1;
  bool ok = !strcmp(t, "anchor apple") || (tl > pl + 1 && !strncmp(t, team_prefix, pl) && t[tl - 1] == '"' && !memchr(t + pl, '"', tl - pl - 1));
  if (!ok) { free(t); return errSecCSReqInvalid; }
  Obj *o = obj_new(T_REQUIREMENT);
  o->u.req.text = t;
  *req = o;
  return errSecSuccess;
}

static int32_t check_validity(const void *code, const void *req, const char *fn) {
  if (!is_obj(code, T_CODE) || (req && !is_obj(req, T_REQUIREMENT))) return errSecParam;
  const CodeEntry *c = entry_of(code);
  fake_log_line("%s %s", fn, req ? ((const Obj *)req)->u.req.text : "(no requirement)");
  if (!c) return errSecCSUnsigned;
  if (c->tampered) return errSecCSSignatureFailed;
  if (!req) return errSecSuccess;
  const char *t = ((const Obj *)req)->u.req.text;
  if (!strcmp(t, "anchor apple")) return same(c->anchor, "apple") ? errSecSuccess : errSecCSReqFailed;
  const char *team = strchr(t, '"') + 1;
  size_t n = strlen(team) - 1;
  bool certified = same(c->anchor, "apple") || same(c->anchor, "developer");
  const char *ou = c->cert_team ? c->cert_team : c->team;
  return certified && ou && strlen(ou) == n && !strncmp(ou, team, n) ? errSecSuccess : errSecCSReqFailed;
}

int32_t SecCodeCheckValidity(const void *code, uint32_t flags, const void *req) {
  (void)flags;
  if (is_obj(code, T_CODE) && !((const Obj *)code)->u.code.dynamic) return errSecParam;
  if (is_obj(code, T_CODE) && !app_by_pid(((const Obj *)code)->u.code.pid)) return errSecCSNoSuchCode;
  return check_validity(code, req, "SecCodeCheckValidity");
}

int32_t SecStaticCodeCheckValidity(const void *code, uint32_t flags, const void *req) {
  (void)flags;
  return check_validity(code, req, "SecStaticCodeCheckValidity");
}
