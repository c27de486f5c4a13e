/* A small recursive-descent JSON reader for the fake's fixtures (UTF-8 in, UTF-8 strings out). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake.h"

typedef struct { const char *p; char *err; size_t errlen; int depth; } Parser;

static void ws(Parser *ps) { while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t') ps->p++; }
static JVal *fail(Parser *ps, const char *what) {
  if (ps->err && !ps->err[0]) snprintf(ps->err, ps->errlen, "%s at '%.20s'", what, ps->p);
  return NULL;
}
static JVal *jnew(JType t) { JVal *v = calloc(1, sizeof *v); v->t = t; return v; }

static void put_utf8(char **out, size_t *len, size_t *cap, unsigned cp) {
  if (*len + 5 > *cap) { *cap = *cap * 2 + 8; *out = realloc(*out, *cap); }
  char *o = *out + *len;
  if (cp < 0x80) { o[0] = (char)cp; *len += 1; }
  else if (cp < 0x800) { o[0] = (char)(0xc0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3f)); *len += 2; }
  else if (cp < 0x10000) { o[0] = (char)(0xe0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[2] = (char)(0x80 | (cp & 0x3f)); *len += 3; }
  else { o[0] = (char)(0xf0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3f)); o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (char)(0x80 | (cp & 0x3f)); *len += 4; }
}

static int hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i]; v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return 0;
  }
  *out = v;
  return 1;
}

static char *string(Parser *ps) {
  if (*ps->p != '"') return NULL;
  ps->p++;
  size_t len = 0, cap = 16;
  char *out = malloc(cap);
  while (*ps->p && *ps->p != '"') {
    if (*ps->p == '\\') {
      ps->p++;
      char c = *ps->p++;
      unsigned cp;
      switch (c) {
        case 'n': cp = '\n'; break; case 't': cp = '\t'; break; case 'r': cp = '\r'; break;
        case 'b': cp = '\b'; break; case 'f': cp = '\f'; break; case '/': cp = '/'; break;
        case '\\': cp = '\\'; break; case '"': cp = '"'; break;
        case 'u':
          if (!hex4(ps->p, &cp)) { free(out); return NULL; }
          ps->p += 4;
          if (cp >= 0xd800 && cp < 0xdc00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
            unsigned lo;
            if (hex4(ps->p + 2, &lo) && lo >= 0xdc00 && lo < 0xe000) { cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00); ps->p += 6; }
          }
          break;
        default: free(out); return NULL;
      }
      put_utf8(&out, &len, &cap, cp);
    } else {
      if (len + 2 > cap) { cap *= 2; out = realloc(out, cap); }
      out[len++] = *ps->p++;
    }
  }
  if (*ps->p != '"') { free(out); return NULL; }
  ps->p++;
  out[len] = 0;
  return out;
}

static JVal *value(Parser *ps);

static JVal *array(Parser *ps) {
  JVal *v = jnew(J_ARR);
  ps->p++;
  ws(ps);
  if (*ps->p == ']') { ps->p++; return v; }
  for (;;) {
    JVal *item = value(ps);
    if (!item) { json_free(v); return NULL; }
    v->items = realloc(v->items, sizeof(JVal *) * (size_t)(v->len + 1));
    v->items[v->len++] = item;
    ws(ps);
    if (*ps->p == ',') { ps->p++; continue; }
    if (*ps->p == ']') { ps->p++; return v; }
    json_free(v);
    return fail(ps, "expected , or ]");
  }
}

static JVal *object(Parser *ps) {
  JVal *v = jnew(J_OBJ);
  ps->p++;
  ws(ps);
  if (*ps->p == '}') { ps->p++; return v; }
  for (;;) {
    ws(ps);
    char *key = string(ps);
    if (!key) { json_free(v); return fail(ps, "expected a key"); }
    ws(ps);
    if (*ps->p != ':') { free(key); json_free(v); return fail(ps, "expected :"); }
    ps->p++;
    JVal *item = value(ps);
    if (!item) { free(key); json_free(v); return NULL; }
    v->items = realloc(v->items, sizeof(JVal *) * (size_t)(v->len + 1));
    v->keys = realloc(v->keys, sizeof(char *) * (size_t)(v->len + 1));
    v->keys[v->len] = key;
    v->items[v->len++] = item;
    ws(ps);
    if (*ps->p == ',') { ps->p++; continue; }
    if (*ps->p == '}') { ps->p++; return v; }
    json_free(v);
    return fail(ps, "expected , or }");
  }
}

static JVal *value(Parser *ps) {
  ws(ps);
  if (++ps->depth > 200) return fail(ps, "too deep");
  JVal *v = NULL;
  const char *p = ps->p;
  if (*p == '{') v = object(ps);
  else if (*p == '[') v = array(ps);
  else if (*p == '"') { char *s = string(ps); if (!s) return fail(ps, "bad string"); v = jnew(J_STR); v->s = s; }
  else if (!strncmp(p, "true", 4)) { v = jnew(J_BOOL); v->b = true; ps->p += 4; }
  else if (!strncmp(p, "false", 5)) { v = jnew(J_BOOL); ps->p += 5; }
  else if (!strncmp(p, "null", 4)) { v = jnew(J_NULL); ps->p += 4; }
  else {
    char *end;
    double n = strtod(p, &end);
    if (end == p) return fail(ps, "unexpected character");
    v = jnew(J_NUM); v->n = n; ps->p = end;
  }
  ps->depth--;
  return v;
}

JVal *json_parse(const char *text, char *err, size_t errlen) {
  Parser ps = { text, err, errlen, 0 };
  if (err && errlen) err[0] = 0;
  JVal *v = value(&ps);
  if (!v) return fail(&ps, "invalid JSON");
  ws(&ps);
  if (*ps.p) { json_free(v); return fail(&ps, "trailing text"); }
  return v;
}

void json_free(JVal *v) {
  if (!v) return;
  for (int i = 0; i < v->len; i++) { json_free(v->items[i]); if (v->keys) free(v->keys[i]); }
  free(v->items);
  free(v->keys);
  free(v->s);
  free(v);
}

JVal *json_get(const JVal *o, const char *key) {
  if (!o || o->t != J_OBJ) return NULL;
  for (int i = 0; i < o->len; i++) if (!strcmp(o->keys[i], key)) return o->items[i];
  return NULL;
}
