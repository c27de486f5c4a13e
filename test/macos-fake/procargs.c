/*
 * A process's arguments and working directory as macOS hands them out: sysctl KERN_ARGMAX and KERN_PROCARGS2
 * (int argc, the executable path, NUL padding, argc NUL-terminated arguments, then the environment, the layout
 * ps reads), and proc_pidinfo PROC_PIDVNODEPATHINFO (struct proc_vnodepathinfo: the working directory's
 * vnode_info, then its path in MAXPATHLEN bytes). From a fixture app's "argv", "env" and "cwd"; tests replace
 * the bytes with hostile ones (fake_set_procargs, fake_set_cwd) and shrink kern.argmax (fake_set_argmax).
 * Written from the public sys/sysctl.h and sys/proc_info.h; no Apple code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

struct ProcArgs {
  unsigned char *raw;   /* the KERN_PROCARGS2 bytes */
  size_t len;
  bool none;            /* sysctl refuses (another user's process) */
  unsigned char cwd[1024];
  bool cwd_none;        /* proc_pidinfo refuses */
};

static int g_argmax = 1024 * 1024;
static void put(unsigned char **b, size_t *n, size_t *cap, const void *p, size_t len) {
  if (*n + len > *cap) { *cap = (*n + len) * 2 + 64; *b = realloc(*b, *cap); }
  memcpy(*b + *n, p, len);
  *n += len;
}

void procargs_load(App *app, const JVal *a) {
  struct ProcArgs *pa = calloc(1, sizeof *pa);
  app->args = pa;
  const JVal *argv = json_get(a, "argv"), *env = json_get(a, "env"), *cwd = json_get(a, "cwd");
  size_t cap = 0;
  int32_t argc = argv && argv->t == J_ARR ? argv->len : 1;
  put(&pa->raw, &pa->len, &cap, &argc, 4);
  put(&pa->raw, &pa->len, &cap, app->executable, strlen(app->executable) + 1);
  static const unsigned char pad[8];
  put(&pa->raw, &pa->len, &cap, pad, 8 - (pa->len % 8)); /* NULs to the next 8-byte boundary, at least one */
  if (argv && argv->t == J_ARR) { for (int i = 0; i < argv->len; i++) if (argv->items[i]->t == J_STR) put(&pa->raw, &pa->len, &cap, argv->items[i]->s, strlen(argv->items[i]->s) + 1); }
  else put(&pa->raw, &pa->len, &cap, app->executable, strlen(app->executable) + 1);
  for (int i = 0; env && env->t == J_ARR && i < env->len; i++) if (env->items[i]->t == J_STR) put(&pa->raw, &pa->len, &cap, env->items[i]->s, strlen(env->items[i]->s) + 1);
  if (cwd && cwd->t == J_STR) strncpy((char *)pa->cwd, cwd->s, sizeof pa->cwd - 1);
  else pa->cwd_none = true;
}

void procargs_free(App *app) { if (app->args) { free(app->args->raw); free(app->args); app->args = NULL; } }
void procargs_reset(void) { g_argmax = 1024 * 1024; }

int sysctl(int *name, unsigned namelen, void *oldp, size_t *oldlenp, void *newp, size_t newlen) {
  (void)newp; (void)newlen;
  if (namelen == 2 && name[0] == 1 && name[1] == 8 /* KERN_ARGMAX */) {
    if (!oldlenp || *oldlenp < sizeof(int)) { errno = ENOMEM; return -1; }
    if (oldp) memcpy(oldp, &g_argmax, sizeof(int));
    *oldlenp = sizeof(int);
    return 0;
  }
  if (namelen != 3 || name[0] != 1 || name[1] != 49 /* KERN_PROCARGS2 */ || !oldlenp) { errno = EINVAL; return -1; }
  App *a = app_by_pid(name[2]);
  if (!a || !a->args || a->args->none) { errno = EINVAL; return -1; }
  /* The copy is what fits: at most kern.argmax and the caller's buffer (a longer area is cut at its end). */
  size_t n = a->args->len;
  if (n > (size_t)g_argmax) n = (size_t)g_argmax;
  if (n > *oldlenp) n = *oldlenp;
  if (oldp) memcpy(oldp, a->args->raw, n);
  *oldlenp = n;
  fake_log_line("sysctl KERN_PROCARGS2 %d", name[2]);
  return 0;
}

/* proc_pidinfo PROC_PIDVNODEPATHINFO: 2 × (152 bytes of vnode_info + 1024 of path); only pvi_cdir is filled. */
int procargs_cwd_info(App *a, void *buffer, int size) {
  if (!a->args || a->args->cwd_none || size < 2 * (152 + 1024)) return 0;
  memset(buffer, 0, 2 * (152 + 1024));
  memcpy((unsigned char *)buffer + 152, a->args->cwd, 1024);
  return 2 * (152 + 1024);
}

/* The KERN_PROCARGS2 bytes of a process as given (len < 0: sysctl refuses, as for another user's process). */
int fake_set_procargs(int pid, const unsigned char *bytes, int len) {
  App *a = app_by_pid(pid);
  if (!a || !a->args) return -1;
  free(a->args->raw);
  a->args->raw = NULL;
  a->args->none = len < 0;
  a->args->len = len > 0 ? (size_t)len : 0;
  if (len > 0) { a->args->raw = malloc((size_t)len); memcpy(a->args->raw, bytes, (size_t)len); }
  return 0;
}

/* The 1024 path bytes of the working directory as given, unterminated if so (len < 0: proc_pidinfo refuses). */
int fake_set_cwd(int pid, const unsigned char *bytes, int len) {
  App *a = app_by_pid(pid);
  if (!a || !a->args) return -1;
  a->args->cwd_none = len < 0;
  memset(a->args->cwd, 0, sizeof a->args->cwd);
  if (len > 0) memcpy(a->args->cwd, bytes, (size_t)len < sizeof a->args->cwd ? (size_t)len : sizeof a->args->cwd);
  return 0;
}

void fake_set_argmax(int n) { g_argmax = n; }
