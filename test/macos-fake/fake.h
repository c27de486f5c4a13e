/*
 * A fake of the macOS C APIs the macOS driver binds (src/drivers/macos/ffi.ts), for replay tests on Linux.
 * It replays an AX tree read from a JSON file ($FAKE_AX_TREE or fake_load) with real reference counting:
 * every object counts the references the fake holds itself (`internal`) apart from the caller's, so a leak
 * (a caller reference never released) and an over-release (a release of a reference the caller does not hold)
 * are both seen exactly. Written from Apple's public headers (AXUIElement.h, AXError.h, AXValue.h,
 * CFBase.h, CGEvent.h, libproc.h); no Apple code.
 */
#ifndef MACOS_FAKE_H
#define MACOS_FAKE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef long CFIndex;
typedef unsigned long CFTypeID;
typedef unsigned long CFHashCode;
typedef uint16_t UniChar;
typedef unsigned char Boolean;
typedef struct { CFIndex location, length; } CFRange;
typedef int32_t AXError;

enum {
  kAXErrorSuccess = 0, kAXErrorFailure = -25200, kAXErrorIllegalArgument = -25201, kAXErrorInvalidUIElement = -25202,
  kAXErrorCannotComplete = -25204, kAXErrorAttributeUnsupported = -25205, kAXErrorActionUnsupported = -25206,
  kAXErrorNotificationUnsupported = -25207, kAXErrorNotificationAlreadyRegistered = -25209,
  kAXErrorNotificationNotRegistered = -25210, kAXErrorAPIDisabled = -25211, kAXErrorNoValue = -25212,
};
/* AXValueType */
enum { kAXValueCGPointType = 1, kAXValueCGSizeType = 2, kAXValueCGRectType = 3, kAXValueCFRangeType = 4, kAXValueAXErrorType = 5 };

typedef enum { T_STRING = 1, T_NUMBER, T_BOOLEAN, T_ARRAY, T_DICT, T_AXVALUE, T_ELEMENT, T_OBSERVER, T_SOURCE, T_EVENT, T_RUNLOOP, T_URL, T_CODE, T_REQUIREMENT, T_BUNDLE, T_DATA, T_PASTEBOARD, T_IMAGE, T_IMAGEDEST } ObjType;

typedef struct Node Node;
typedef struct App App;
typedef struct Obj Obj;

struct Obj {
  uint32_t magic;
  ObjType type;
  long rc;        /* every reference */
  long internal;  /* references the fake itself holds (a node's attribute, a container's item) */
  bool immortal;  /* constants: kCFBooleanTrue, the run loop */
  bool dead;
  union {
    struct { UniChar *chars; CFIndex len; } str;
    struct { double v; } num;
    struct { bool v; } b;
    struct { Obj **items; CFIndex n; } arr;
    struct { Obj **keys, **vals; CFIndex n; } dict;
    struct { int kind; double d[4]; } axv;
    struct { Node *node; App *app; bool system; } el;
    struct { int pid; void *cb; Obj *source; } obs;
    struct { Obj *observer; bool added; } src;
    struct { uint16_t key; bool down; uint64_t flags; UniChar *text; CFIndex tlen; int mouse; double x, y; int button, clicks, wheel1, wheel2; } ev; /* mouse: CGEventType, 0 = a key event; -1 = a scroll */
    struct { char *path; } url;
    struct { int entry; int pid; bool dynamic; } code; /* entry: index into the code table, -1 = unsigned */
    struct { char *text; } req;
    struct { int entry; Obj *ident; } bundle; /* ident: CFBundleGetIdentifier's string, the bundle's own */
    struct { unsigned char *bytes; CFIndex len; } data;
    struct { long width, height; int number; } image;
    struct { Obj *data; Obj *image; long max_pixel; bool png; } dest;
  } u;
};

struct Node {
  App *app;
  Node *parent;
  Node **kids;
  int nkids;
  char **names;     /* attribute names */
  Obj **vals;       /* attribute values (internal references) */
  int nattrs;
  char **actions;
  int nactions;
  char **settable;
  int nsettable;
  char *id;         /* the fixture's handle for fake_* control calls */
  bool destroyed;
};

struct App {
  int pid;
  char *name;
  char *executable;
  long start_sec, start_usec;
  unsigned uid;
  long hang_ms;      /* every AX call on this app blocks this long (a hung app) */
  double timeout_s;  /* AXUIElementSetMessagingTimeout on the app element; 0 = the global one */
  Node *root;        /* AXApplication */
  Node *focused;
  struct ProcArgs *args; /* procargs.c: KERN_PROCARGS2 bytes and the working directory */
};

/* objects.c */
Obj *obj_new(ObjType t);
Obj *obj_hold(Obj *o);          /* an internal reference */
void obj_drop(Obj *o);          /* releases an internal reference */
Obj *str_from_utf8(const char *s);
char *str_to_utf8(const Obj *s); /* malloc'd */
bool str_eq(const Obj *s, const char *utf8);
Obj *num_new(double v);
Obj *bool_obj(bool v);
Obj *arr_new(Obj **items, CFIndex n); /* holds each item */
Obj *axv_new(int kind, const double *d);
Obj *element_new(App *app, Node *node);
bool is_obj(const void *p, ObjType t);
void objects_reset(void);
long objects_outstanding(char *report, size_t len);
extern long g_overreleases;

/* tree.c */
extern App **g_apps;
extern int g_napps;
extern bool g_trusted;
extern double g_global_timeout_s;
int tree_load(const char *path);
void tree_reset(void);
App *app_by_pid(int pid);
Obj *node_attr(Node *n, const char *name); /* borrowed, or NULL */
void node_set_attr(Node *n, const char *name, Obj *v); /* takes an internal reference */
bool node_has(char **list, int n, const char *name);
Node *node_by_id(const char *id);
const char *node_role(Node *n);
void fake_log_line(const char *fmt, ...);

/* security.c: code signatures, bundles and Launch Services from the fixture's "code" table */
struct JVal;
void security_load(const struct JVal *root);
void security_reset(void);

/* procargs.c: a process's arguments (sysctl KERN_PROCARGS2) and working directory */
void procargs_load(App *app, const struct JVal *a);
void procargs_free(App *app);
void procargs_reset(void);
int procargs_cwd_info(App *a, void *buffer, int size);

/* pasteboard.c: the general pasteboard and CFData */
void pasteboard_reset(void);
void data_append(Obj *data, const void *bytes, size_t len);

/* screen.c: the window list, window images and their PNG encoding */
void screen_reset(void);

/* ax.c */
void post_notification(App *app, Node *n, const char *name);
void ax_reset(void);

/* objects.c: the CoreFoundation calls the other files use */
const void *CFRetain(const void *cf);
void CFRelease(const void *cf);
const void *CFStringCreateWithCharacters(const void *alloc, const UniChar *chars, CFIndex n);
const void *CFDictionaryCreate(const void *alloc, const void **keys, const void **values, CFIndex n, const void *kcb, const void *vcb);
const void *CFDictionaryGetValue(const void *d, const void *key);

/* json.c: a small JSON reader, enough for the fixtures */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;
typedef struct JVal {
  JType t;
  bool b;
  double n;
  char *s;
  struct JVal **items; /* J_ARR items, J_OBJ values */
  char **keys;         /* J_OBJ keys */
  int len;
} JVal;
JVal *json_parse(const char *text, char *err, size_t errlen);
void json_free(JVal *v);
JVal *json_get(const JVal *o, const char *key);
#endif
