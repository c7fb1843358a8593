/*
 * toml.c - sandlint's TOML 1.0 reader.  See toml.h for the interface.
 *
 * Structure: one recursive-descent parser over the whole input.  Errors are
 * raised with longjmp() back to toml_parse(); everything allocated so far is
 * reachable from the document (every value is registered in doc->all as soon
 * as it is allocated) or from the parser's scratch buffers, so an error
 * releases all memory.  Recursion only happens for nested arrays and inline
 * tables and is bounded by TOML_MAX_DEPTH.
 *
 * Table definition rules (TOML 1.0 "Table" and "Keys" sections), as state
 * kept on every table:
 *   F_EXPLICIT  defined by a [header] (or an element of a [[header]] array);
 *               may not be defined again, nor extended with dotted keys from
 *               another section.
 *   F_FROZEN    an inline table or a table created inside one; may not be
 *               extended at all once the inline table is closed.
 *   section     nonzero when the table was created (or claimed) by dotted
 *               keys: the id of the section ([header] block or inline table)
 *               whose dotted keys did so.  Only that section may add keys to
 *               it through dotted keys, and no [header] may define it.
 *   none        implicitly created as a parent by a header path such as
 *               [a.b]; may later be defined once by [a] or extended by
 *               dotted keys (which then claim it).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "toml.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define TOML_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TOML_NOINLINE __attribute__((noinline))
#else
#define TOML_PRINTF(f, a)
#define TOML_NOINLINE
#endif

enum {
    F_EXPLICIT = 1u,
    F_FROZEN = 2u,
    F_AOT = 4u /* array built by [[header]] */
};

struct toml_entry {
    char *key;
    size_t key_len;
    size_t hash;
    struct toml_pos key_pos;
    struct toml_value *val;
};

struct toml_value {
    enum toml_kind kind;
    unsigned flags;
    struct toml_pos pos;
    size_t section;
    union {
        struct {
            char *ptr; /* strings and date/time text */
            size_t len;
        } str;
        int64_t i;
        double f;
        int b;
        struct {
            struct toml_value **items;
            size_t n, cap;
        } arr;
        struct {
            struct toml_entry *ents;
            size_t n, cap;
            size_t *slots; /* open addressing: entry index + 1, 0 = empty */
            size_t nslots; /* 0 or a power of two */
        } tab;
    } u;
};

struct toml_doc {
    struct toml_value *root;
    struct toml_value **all; /* every value, for toml_doc_free() */
    size_t nall, capall;
};

struct sbuf {
    char *buf;
    size_t len, cap;
};

struct keypart {
    size_t off, len; /* into parser.kb */
    struct toml_pos pos;
};

struct parser {
    const unsigned char *s;
    size_t n, i;
    unsigned line, col;
    struct toml_doc *doc;
    struct toml_error *err;
    jmp_buf jb;
    struct toml_value *cur; /* table receiving key/values of the current section */
    size_t section;         /* id of the current section */
    size_t next_section;
    unsigned depth;
    struct sbuf sb; /* string and number scratch */
    struct sbuf kb; /* key text scratch */
    struct keypart *parts;
    size_t nparts, capparts;
};

/* ------------------------------------------------------------------ */
/* Errors                                                              */

static struct toml_pos here(const struct parser *p)
{
    struct toml_pos pos = { p->line, p->col };
    return pos;
}

static struct toml_pos pos_plus(struct toml_pos pos, size_t cols)
{
    pos.column += (unsigned)cols;
    return pos;
}

TOML_PRINTF(3, 4)
static _Noreturn void fail_at(struct parser *p, struct toml_pos pos, const char *fmt, ...)
{
    va_list ap;

    p->err->pos = pos;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

static _Noreturn void fail_oom(struct parser *p)
{
    fail_at(p, here(p), "out of memory");
}

/* Length of the UTF-8 sequence starting with byte c (input is validated). */
static size_t utf8_len(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c < 0xE0)
        return 2;
    if (c < 0xF0)
        return 3;
    return 4;
}

static uint32_t utf8_decode(const unsigned char *s, size_t len)
{
    uint32_t cp;
    size_t k;

    if (len == 1)
        return s[0];
    cp = s[0] & (0x7Fu >> len);
    for (k = 1; k < len; k++)
        cp = (cp << 6) | (s[k] & 0x3Fu);
    return cp;
}

/* A short description of the character at byte offset i, for messages. */
static const char *describe_at(const struct parser *p, size_t i, char *buf, size_t size)
{
    unsigned char c;
    size_t len;

    if (i >= p->n)
        return "end of file";
    c = p->s[i];
    switch (c) {
    case '\n':
        return "newline";
    case '\t':
        return "tab";
    case ' ':
        return "space";
    case '\r':
        if (i + 1 < p->n && p->s[i + 1] == '\n')
            return "newline";
        return "carriage return (U+000D)";
    default:
        break;
    }
    if (c < 0x20 || c == 0x7F) {
        snprintf(buf, size, "control character U+%04X", c);
        return buf;
    }
    if (c < 0x80) {
        snprintf(buf, size, "'%c'", c);
        return buf;
    }
    len = utf8_len(c);
    if (i + len > p->n)
        len = p->n - i;
    snprintf(buf, size, "'%.*s' (U+%04X)", (int)len, (const char *)p->s + i,
             (unsigned)utf8_decode(p->s + i, len));
    return buf;
}

static const char *describe(const struct parser *p, char *buf, size_t size)
{
    return describe_at(p, p->i, buf, size);
}

/* Fails at the current position with "<what>, found <description>".  Kept
 * out of line so the recursive parsing functions need no message buffers. */
static TOML_NOINLINE _Noreturn void fail_found(struct parser *p, const char *what)
{
    char buf[48];

    fail_at(p, here(p), "%s, found %s", what, describe(p, buf, sizeof buf));
}

/* Key text fit for a message: at most ~60 bytes, control characters as '?'. */
static const char *show_key(const char *key, size_t len, char *buf, size_t size)
{
    size_t o = 0, k = 0, lim = size - 4;

    if (lim > 60)
        lim = 60;
    while (k < len) {
        unsigned char c = (unsigned char)key[k];
        size_t l = utf8_len(c);

        if (l > len - k)
            l = len - k;
        if (o + l > lim) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c < 0x20 || c == 0x7F)
            buf[o++] = '?';
        else {
            memcpy(buf + o, key + k, l);
            o += l;
        }
        k += l;
    }
    buf[o] = '\0';
    return buf;
}

static int is_bare_char(int c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* Text of key part k of the current key (not NUL-terminated). */
static const char *part_text(const struct parser *p, size_t k)
{
    return p->kb.buf ? p->kb.buf + p->parts[k].off : ""; /* "" for an empty first key */
}

/* Dotted display of key parts [0, upto] of the current key, for messages. */
static const char *show_path(const struct parser *p, size_t upto, char *buf, size_t size)
{
    size_t o = 0, k;
    const size_t lim = size - 8;

    for (k = 0; k <= upto && k < p->nparts; k++) {
        const char *t = part_text(p, k);
        size_t len = p->parts[k].len, j;
        int bare = len > 0;
        char one[80];

        for (j = 0; j < len && bare; j++)
            bare = is_bare_char((unsigned char)t[j]);
        show_key(t, len, one, sizeof one);
        if (o + strlen(one) + 3 > lim) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        o += (size_t)snprintf(buf + o, size - o, bare ? "%s%s" : "%s\"%s\"", k ? "." : "",
                              one);
    }
    buf[o] = '\0';
    return buf;
}

/* ------------------------------------------------------------------ */
/* Memory                                                              */

/* Ensures *cap >= need for an array of elsize-byte elements at *ptr. */
static void grow(struct parser *p, void **ptr, size_t *cap, size_t need, size_t elsize)
{
    size_t ncap;
    void *np;

    if (need <= *cap)
        return;
    ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            fail_oom(p);
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elsize)
        fail_oom(p);
    np = realloc(*ptr, ncap * elsize);
    if (!np)
        fail_oom(p);
    *ptr = np;
    *cap = ncap;
}

static void sb_add(struct parser *p, struct sbuf *b, const void *data, size_t len)
{
    if (len > SIZE_MAX - b->len - 1)
        fail_oom(p);
    grow(p, (void **)&b->buf, &b->cap, b->len + len + 1, 1);
    memcpy(b->buf + b->len, data, len);
    b->len += len;
    b->buf[b->len] = '\0';
}

static void sb_addc(struct parser *p, struct sbuf *b, char c)
{
    sb_add(p, b, &c, 1);
}

static char *dup_mem(struct parser *p, const char *s, size_t len)
{
    char *d;

    if (len == SIZE_MAX)
        fail_oom(p);
    d = malloc(len + 1);
    if (!d)
        fail_oom(p);
    if (len)
        memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

static struct toml_value *new_value(struct parser *p, enum toml_kind kind, struct toml_pos pos)
{
    struct toml_doc *doc = p->doc;
    struct toml_value *v;

    grow(p, (void **)&doc->all, &doc->capall, doc->nall + 1, sizeof *doc->all);
    v = calloc(1, sizeof *v);
    if (!v)
        fail_oom(p);
    doc->all[doc->nall++] = v;
    v->kind = kind;
    v->pos = pos;
    return v;
}

static size_t hash_key(const char *key, size_t len)
{
    uint64_t h = 1469598103934665603u;
    size_t k;

    for (k = 0; k < len; k++) {
        h ^= (unsigned char)key[k];
        h *= 1099511628211u;
    }
    return (size_t)(h ^ (h >> 29));
}

static struct toml_entry *table_find(const struct toml_value *t, const char *key, size_t len)
{
    size_t k;

    if (t->u.tab.nslots) {
        size_t mask = t->u.tab.nslots - 1, h = hash_key(key, len);

        for (k = h & mask; t->u.tab.slots[k]; k = (k + 1) & mask) {
            struct toml_entry *e = &t->u.tab.ents[t->u.tab.slots[k] - 1];

            if (e->hash == h && e->key_len == len && memcmp(e->key, key, len) == 0)
                return e;
        }
        return NULL;
    }
    for (k = 0; k < t->u.tab.n; k++) {
        struct toml_entry *e = &t->u.tab.ents[k];

        if (e->key_len == len && memcmp(e->key, key, len) == 0)
            return e;
    }
    return NULL;
}

static void table_reindex(struct parser *p, struct toml_value *t, size_t nslots)
{
    size_t *slots, k, mask = nslots - 1;

    if (nslots > SIZE_MAX / sizeof *slots)
        fail_oom(p);
    slots = calloc(nslots, sizeof *slots);
    if (!slots)
        fail_oom(p);
    for (k = 0; k < t->u.tab.n; k++) {
        size_t j = t->u.tab.ents[k].hash & mask;

        while (slots[j])
            j = (j + 1) & mask;
        slots[j] = k + 1;
    }
    free(t->u.tab.slots);
    t->u.tab.slots = slots;
    t->u.tab.nslots = nslots;
}

/* Appends key (copied) to table t with value val (may be NULL for now);
 * returns the entry's index.  The key must not be present. */
static size_t table_add(struct parser *p, struct toml_value *t, const char *key, size_t len,
                        struct toml_pos key_pos, struct toml_value *val)
{
    struct toml_entry *e;
    size_t idx = t->u.tab.n;

    grow(p, (void **)&t->u.tab.ents, &t->u.tab.cap, idx + 1, sizeof *t->u.tab.ents);
    e = &t->u.tab.ents[idx];
    e->key = dup_mem(p, key, len);
    e->key_len = len;
    e->hash = hash_key(key, len);
    e->key_pos = key_pos;
    e->val = val;
    t->u.tab.n++;
    if (t->u.tab.nslots) {
        if (t->u.tab.n * 2 > t->u.tab.nslots) {
            if (t->u.tab.nslots > SIZE_MAX / 2)
                fail_oom(p);
            table_reindex(p, t, t->u.tab.nslots * 2);
        } else {
            size_t mask = t->u.tab.nslots - 1, j = e->hash & mask;

            while (t->u.tab.slots[j])
                j = (j + 1) & mask;
            t->u.tab.slots[j] = idx + 1;
        }
    } else if (t->u.tab.n > 8) {
        table_reindex(p, t, 32);
    }
    return idx;
}

static void array_push(struct parser *p, struct toml_value *a, struct toml_value *v)
{
    grow(p, (void **)&a->u.arr.items, &a->u.arr.cap, a->u.arr.n + 1, sizeof *a->u.arr.items);
    a->u.arr.items[a->u.arr.n++] = v;
}

static void value_release(struct toml_value *v)
{
    size_t k;

    switch (v->kind) {
    case TOML_STRING:
    case TOML_OFFSET_DATETIME:
    case TOML_LOCAL_DATETIME:
    case TOML_LOCAL_DATE:
    case TOML_LOCAL_TIME:
        free(v->u.str.ptr);
        break;
    case TOML_ARRAY:
        free(v->u.arr.items);
        break;
    case TOML_TABLE:
        for (k = 0; k < v->u.tab.n; k++)
            free(v->u.tab.ents[k].key);
        free(v->u.tab.ents);
        free(v->u.tab.slots);
        break;
    default:
        break;
    }
    free(v);
}

void toml_doc_free(struct toml_doc *doc)
{
    size_t k;

    if (!doc)
        return;
    for (k = 0; k < doc->nall; k++)
        value_release(doc->all[k]);
    free(doc->all);
    free(doc);
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

static int peek(const struct parser *p)
{
    return p->i < p->n ? p->s[p->i] : -1;
}

static int peek_at(const struct parser *p, size_t k)
{
    return p->i + k < p->n ? p->s[p->i + k] : -1;
}

/* Advances over k ASCII characters that are not newlines. */
static void adv(struct parser *p, size_t k)
{
    p->i += k;
    p->col += (unsigned)k;
}

/* Advances over one character (any, not a newline). */
static void adv_char(struct parser *p)
{
    p->i += utf8_len(p->s[p->i]);
    p->col++;
}

/* Advances over a newline of len bytes (1 for LF, 2 for CRLF). */
static void adv_newline(struct parser *p, size_t len)
{
    p->i += len;
    p->line++;
    p->col = 1;
}

/* Length of the newline at the current position: 1 (LF), 2 (CRLF) or 0. */
static size_t newline_len(const struct parser *p)
{
    int c = peek(p);

    if (c == '\n')
        return 1;
    if (c == '\r' && peek_at(p, 1) == '\n')
        return 2;
    return 0;
}

static int is_control(int c)
{
    return (c >= 0 && c < 0x20 && c != '\t') || c == 0x7F;
}

/* Checks that the whole input is well-formed UTF-8 (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF). */
static void check_utf8(struct parser *p)
{
    const unsigned char *s = p->s;
    size_t i = p->i, n = p->n;
    unsigned line = 1, col = 1;

    while (i < n) {
        unsigned char c = s[i];
        size_t len, k;
        unsigned char lo = 0x80, hi = 0xBF;
        struct toml_pos pos = { line, col };

        if (c < 0x80) {
            i++;
            if (c == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        } else {
            fail_at(p, pos, "invalid UTF-8: unexpected byte 0x%02X", c);
        }
        for (k = 1; k < len; k++) {
            unsigned char lim_lo = k == 1 ? lo : 0x80, lim_hi = k == 1 ? hi : 0xBF;

            if (i + k >= n)
                fail_at(p, pos, "invalid UTF-8: sequence starting with byte 0x%02X "
                        "is truncated by the end of the file", c);
            if (s[i + k] < lim_lo || s[i + k] > lim_hi) {
                if (c == 0xED && k == 1 && s[i + k] >= 0xA0 && s[i + k] <= 0xBF)
                    fail_at(p, pos, "invalid UTF-8: encoded surrogate (U+D800..U+DFFF)");
                fail_at(p, pos, "invalid UTF-8: byte 0x%02X cannot follow 0x%02X here",
                        s[i + k], s[i + k - 1]);
            }
        }
        i += len;
        col++;
    }
}

/* ------------------------------------------------------------------ */
/* Whitespace, comments, newlines                                      */

static void skip_ws(struct parser *p)
{
    int c;

    while ((c = peek(p)) == ' ' || c == '\t')
        adv(p, 1);
}

/* At '#': skips the comment up to (not including) the newline. */
static void skip_comment(struct parser *p)
{
    char buf[48];

    adv(p, 1);
    for (;;) {
        int c = peek(p);

        if (c < 0 || c == '\n')
            return;
        if (c == '\r') {
            if (peek_at(p, 1) == '\n')
                return;
            fail_at(p, here(p), "carriage return (U+000D) not followed by a line feed in comment");
        }
        if (is_control(c))
            fail_at(p, here(p), "%s is not allowed in a comment", describe(p, buf, sizeof buf));
        adv_char(p);
    }
}

/* Skips whitespace, comments and newlines (inside arrays). */
static void skip_ws_nl(struct parser *p)
{
    for (;;) {
        size_t nl;

        skip_ws(p);
        if (peek(p) == '#')
            skip_comment(p);
        nl = newline_len(p);
        if (!nl)
            return;
        adv_newline(p, nl);
    }
}

/* After a header or key/value pair: whitespace, an optional comment, then a
 * newline or the end of the input. */
static void expect_eol(struct parser *p, const char *after)
{
    char buf[48];
    size_t nl;

    skip_ws(p);
    if (peek(p) == '#')
        skip_comment(p);
    if (peek(p) < 0)
        return;
    nl = newline_len(p);
    if (nl) {
        adv_newline(p, nl);
        return;
    }
    if (peek(p) == '\r')
        fail_at(p, here(p), "carriage return (U+000D) not followed by a line feed");
    fail_at(p, here(p), "expected a newline after %s, found %s", after,
            describe(p, buf, sizeof buf));
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */

static int hex_val(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void add_utf8(struct parser *p, struct sbuf *b, uint32_t cp)
{
    char u[4];
    size_t len;

    if (cp < 0x80) {
        u[0] = (char)cp;
        len = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        len = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        len = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        len = 4;
    }
    sb_add(p, b, u, len);
}

/* Copies the (non-newline) character at the current position to b. */
static void copy_char(struct parser *p, struct sbuf *b)
{
    size_t len = utf8_len(p->s[p->i]);

    sb_add(p, b, p->s + p->i, len);
    adv_char(p);
}

/* At a backslash in a basic string: decodes one escape sequence into b. */
static void parse_escape(struct parser *p, struct sbuf *b)
{
    struct toml_pos epos = here(p);
    char buf[48];
    int c;

    adv(p, 1);
    c = peek(p);
    switch (c) {
    case 'b': sb_addc(p, b, '\b'); break;
    case 't': sb_addc(p, b, '\t'); break;
    case 'n': sb_addc(p, b, '\n'); break;
    case 'f': sb_addc(p, b, '\f'); break;
    case 'r': sb_addc(p, b, '\r'); break;
    case '"': sb_addc(p, b, '"'); break;
    case '\\': sb_addc(p, b, '\\'); break;
    case 'u':
    case 'U': {
        int nd = c == 'u' ? 4 : 8, k;
        uint32_t cp = 0;

        adv(p, 1);
        for (k = 0; k < nd; k++) {
            int h = hex_val(peek(p));

            if (h < 0)
                fail_at(p, epos, "invalid unicode escape '\\%c': expected %d hexadecimal "
                        "digits, found %s", c, nd, describe(p, buf, sizeof buf));
            cp = cp * 16 + (uint32_t)h;
            adv(p, 1);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            fail_at(p, epos, "invalid unicode escape '\\%c%0*X': not a Unicode scalar value",
                    c, nd, (unsigned)cp);
        add_utf8(p, b, cp);
        return;
    }
    default:
        if (c < 0)
            fail_at(p, epos, "unterminated string: backslash at end of file");
        if (c > 0x20 && c < 0x7F)
            fail_at(p, epos, "invalid escape '\\%c'", c);
        fail_at(p, epos, "invalid escape: backslash followed by %s",
                describe(p, buf, sizeof buf));
    }
    adv(p, 1);
}

/* Fails for a character that may not appear raw inside a string. */
static _Noreturn void fail_string_char(struct parser *p, struct toml_pos start, int literal)
{
    char buf[48];
    int c = peek(p);

    if (c < 0)
        fail_at(p, here(p), "unterminated string (opened at %u:%u)", start.line, start.column);
    if (newline_len(p))
        fail_at(p, here(p), "unterminated string: newline before the closing quote (string "
                "opened at %u:%u)", start.line, start.column);
    fail_at(p, here(p), "%s is not allowed in a string%s", describe(p, buf, sizeof buf),
            literal ? "" : " (it must be escaped)");
}

/* At '"': a single-line basic string. */
static void parse_basic(struct parser *p, struct sbuf *b)
{
    struct toml_pos start = here(p);

    adv(p, 1);
    for (;;) {
        int c = peek(p);

        if (c == '"') {
            adv(p, 1);
            return;
        }
        if (c == '\\') {
            parse_escape(p, b);
            continue;
        }
        if (c < 0 || c == '\n' || is_control(c))
            fail_string_char(p, start, 0);
        copy_char(p, b);
    }
}

/* At "'": a single-line literal string. */
static void parse_literal(struct parser *p, struct sbuf *b)
{
    struct toml_pos start = here(p);

    adv(p, 1);
    for (;;) {
        int c = peek(p);

        if (c == '\'') {
            adv(p, 1);
            return;
        }
        if (c < 0 || c == '\n' || is_control(c))
            fail_string_char(p, start, 1);
        copy_char(p, b);
    }
}

/* At a run of quote characters q inside a multi-line string: returns 1 and
 * consumes the closing delimiter when the run closes the string (appending
 * up to two quotes that belong to the content), else appends the run. */
static int ml_quotes(struct parser *p, struct sbuf *b, char q)
{
    size_t run = 0, k;

    while (peek_at(p, run) == q)
        run++;
    if (run < 3) {
        for (k = 0; k < run; k++)
            sb_addc(p, b, q);
        adv(p, run);
        return 0;
    }
    if (run > 5)
        fail_at(p, pos_plus(here(p), 5), "too many consecutive %s in multi-line string: "
                "at most two may precede the closing %s",
                q == '"' ? "quotes" : "apostrophes", q == '"' ? "\"\"\"" : "'''");
    for (k = 3; k < run; k++)
        sb_addc(p, b, q);
    adv(p, run);
    return 1;
}

/* At '"""' or "'''": a multi-line string. */
static void parse_multiline(struct parser *p, struct sbuf *b, char q)
{
    struct toml_pos start = here(p);
    size_t nl;

    adv(p, 3);
    nl = newline_len(p);
    if (nl)
        adv_newline(p, nl); /* a newline right after the delimiter is trimmed */
    for (;;) {
        int c = peek(p);

        if (c == q) {
            if (ml_quotes(p, b, q))
                return;
            continue;
        }
        if (c < 0)
            fail_at(p, here(p), "unterminated multi-line string (opened at %u:%u)",
                    start.line, start.column);
        nl = newline_len(p);
        if (nl) {
            sb_addc(p, b, '\n');
            adv_newline(p, nl);
            continue;
        }
        if (c == '\\' && q == '"') {
            size_t j = 1;
            int d;

            while ((d = peek_at(p, j)) == ' ' || d == '\t')
                j++;
            if (d == '\n' || (d == '\r' && peek_at(p, j + 1) == '\n')) {
                /* line-ending backslash: drop all whitespace and newlines */
                adv(p, j);
                for (;;) {
                    skip_ws(p);
                    nl = newline_len(p);
                    if (!nl)
                        break;
                    adv_newline(p, nl);
                }
                continue;
            }
            parse_escape(p, b);
            continue;
        }
        if (c == '\r') {
            fail_at(p, here(p), "carriage return (U+000D) not followed by a line feed in "
                    "multi-line string");
        }
        if (is_control(c))
            fail_string_char(p, start, q == '\'');
        copy_char(p, b);
    }
}

/* ------------------------------------------------------------------ */
/* Keys                                                                */

static int is_key_start(int c)
{
    return is_bare_char(c) || c == '"' || c == '\'';
}

/* Parses one simple key into p->kb and appends it to p->parts. */
static void parse_simple_key(struct parser *p, const char *context)
{
    struct keypart *kp;
    struct toml_pos pos = here(p);
    size_t off = p->kb.len;
    char buf[48];
    int c = peek(p);

    if (is_bare_char(c)) {
        size_t start = p->i;

        while (is_bare_char(peek(p)))
            adv(p, 1);
        sb_add(p, &p->kb, p->s + start, p->i - start);
    } else if (c == '"' || c == '\'') {
        if (peek_at(p, 1) == c && peek_at(p, 2) == c)
            fail_at(p, pos, "multi-line strings cannot be used as keys");
        if (c == '"')
            parse_basic(p, &p->kb);
        else
            parse_literal(p, &p->kb);
    } else {
        fail_at(p, pos, "expected a key%s, found %s", context, describe(p, buf, sizeof buf));
    }
    grow(p, (void **)&p->parts, &p->capparts, p->nparts + 1, sizeof *p->parts);
    kp = &p->parts[p->nparts++];
    kp->off = off;
    kp->len = p->kb.len - off;
    kp->pos = pos;
}

/* Parses a possibly dotted key; leaves whitespace after it consumed. */
static void parse_key(struct parser *p, const char *context)
{
    p->kb.len = 0;
    p->nparts = 0;
    parse_simple_key(p, context);
    for (;;) {
        skip_ws(p);
        if (peek(p) != '.')
            return;
        adv(p, 1);
        skip_ws(p);
        parse_simple_key(p, " after '.'");
    }
}

/* ------------------------------------------------------------------ */
/* Scalars: numbers, booleans, dates and times                         */

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_token_char(int c)
{
    return is_bare_char(c) || c == '+' || c == '.' || c == ':';
}

/* Scans digits of the given base with single underscores between them,
 * starting at t[*k] which the caller has checked is a digit.  Appends the
 * digits to b when b is not NULL. */
static void scan_digits(struct parser *p, const char *t, size_t n, size_t *k, int base,
                        struct toml_pos pos, struct sbuf *b)
{
    for (;;) {
        size_t j = *k;
        int c = j < n ? (unsigned char)t[j] : -1;
        int v = hex_val(c);

        if (v >= 0 && v < base) {
            if (b)
                sb_addc(p, b, (char)c);
            (*k)++;
            continue;
        }
        if (c == '_') {
            int d = j + 1 < n ? hex_val((unsigned char)t[j + 1]) : -1;

            if (d < 0 || d >= base)
                fail_at(p, pos_plus(pos, j), "'_' in a number must be between two digits");
            (*k)++;
            continue;
        }
        return;
    }
}

static struct toml_value *make_float(struct parser *p, struct toml_pos pos, double f)
{
    struct toml_value *v = new_value(p, TOML_FLOAT, pos);

    v->u.f = f;
    return v;
}

/* strtod() in the C locale's syntax whatever LC_NUMERIC says. */
static double c_strtod(struct parser *p, char *text, struct toml_pos pos)
{
    const char *dp = localeconv()->decimal_point;
    char *end, *dot = strchr(text, '.');
    double d;

    if (dot && dp && strcmp(dp, ".") != 0) {
        size_t before = (size_t)(dot - text);
        char *buf;

        /* Build the localised copy by hand so a failure cannot leak it. */
        buf = malloc(strlen(text) + strlen(dp) + 1);
        if (!buf)
            fail_oom(p);
        size_t point = strlen(dp), after = strlen(dot + 1);
        memcpy(buf, text, before);
        memcpy(buf + before, dp, point);
        memcpy(buf + before + point, dot + 1, after + 1);
        errno = 0;
        d = strtod(buf, &end);
        free(buf);
    } else {
        errno = 0;
        d = strtod(text, &end);
    }
    if (errno == ERANGE && isinf(d))
        fail_at(p, pos, "float out of range (larger than a 64-bit IEEE 754 float)");
    return d;
}

static struct toml_value *parse_number(struct parser *p, const char *t, size_t n,
                                       struct toml_pos pos)
{
    struct sbuf *b = &p->sb;
    size_t k = 0;
    int neg = 0, sign = 0, is_float = 0;
    struct toml_value *v;

    if (t[0] == '+' || t[0] == '-') {
        sign = 1;
        neg = t[0] == '-';
        k = 1;
    }
    if (n - k == 3 && (memcmp(t + k, "inf", 3) == 0 || memcmp(t + k, "nan", 3) == 0)) {
        if (t[k] == 'i')
            return make_float(p, pos, neg ? -HUGE_VAL : HUGE_VAL);
        return make_float(p, pos, neg ? -NAN : NAN);
    }
    if (n - k >= 2 && t[k] == '0' && (t[k + 1] == 'x' || t[k + 1] == 'o' || t[k + 1] == 'b')) {
        int base = t[k + 1] == 'x' ? 16 : t[k + 1] == 'o' ? 8 : 2;
        const char *name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
        uint64_t u = 0;
        int d;

        if (sign)
            fail_at(p, pos, "a sign is not allowed on %s %s integer",
                    base == 8 ? "an" : "a", name);
        k += 2;
        d = k < n ? hex_val((unsigned char)t[k]) : -1;
        if (d < 0 || d >= base)
            fail_at(p, pos_plus(pos, k), "expected %s %s digit after '0%c'",
                    base == 8 ? "an" : "a", name, t[1]);
        b->len = 0;
        scan_digits(p, t, n, &k, base, pos, b);
        if (k != n)
            fail_at(p, pos_plus(pos, k), "invalid character '%c' in %s integer", t[k], name);
        for (size_t j = 0; j < b->len; j++) {
            d = hex_val((unsigned char)b->buf[j]);
            if (u > ((uint64_t)INT64_MAX - (uint64_t)d) / (uint64_t)base)
                fail_at(p, pos, "integer out of range (does not fit in 64 bits)");
            u = u * (uint64_t)base + (uint64_t)d;
        }
        v = new_value(p, TOML_INTEGER, pos);
        v->u.i = (int64_t)u;
        return v;
    }
    if (n - k >= 2 && t[k] == '0' && (t[k + 1] == 'X' || t[k + 1] == 'O' || t[k + 1] == 'B'))
        fail_at(p, pos_plus(pos, k + 1), "invalid character '%c' in number (base prefixes "
                "are lowercase: 0x, 0o, 0b)", t[k + 1]);
    if (k == n || !is_digit((unsigned char)t[k])) {
        if (k < n && t[k] == '.')
            fail_at(p, pos_plus(pos, k), "a float needs a digit before the decimal point");
        if (k < n)
            fail_at(p, pos_plus(pos, k), "invalid number: expected a digit after the sign, "
                    "found '%c'", t[k]);
        fail_at(p, pos, "invalid number: expected a digit after the sign");
    }
    for (size_t j = k; j < n; j++)
        if (t[j] == '.' || t[j] == 'e' || t[j] == 'E')
            is_float = 1;
    if (t[k] == '0' && k + 1 < n && (is_digit((unsigned char)t[k + 1]) || t[k + 1] == '_'))
        fail_at(p, pos_plus(pos, k), "leading zero in %s", is_float ? "float" : "integer");
    b->len = 0;
    if (neg)
        sb_addc(p, b, '-');
    scan_digits(p, t, n, &k, 10, pos, b);
    if (k < n && t[k] == '.') {
        sb_addc(p, b, '.');
        k++;
        if (k == n || !is_digit((unsigned char)t[k]))
            fail_at(p, pos_plus(pos, k), "expected a digit after the decimal point");
        scan_digits(p, t, n, &k, 10, pos, b);
    }
    if (k < n && (t[k] == 'e' || t[k] == 'E')) {
        sb_addc(p, b, 'e');
        k++;
        if (k < n && (t[k] == '+' || t[k] == '-'))
            sb_addc(p, b, t[k++]);
        if (k == n || !is_digit((unsigned char)t[k]))
            fail_at(p, pos_plus(pos, k), "expected a digit in the exponent");
        scan_digits(p, t, n, &k, 10, pos, b);
    }
    if (k != n) {
        if (t[k] == '.')
            fail_at(p, pos_plus(pos, k), "unexpected '.' in number");
        fail_at(p, pos_plus(pos, k), "invalid character '%c' in number", t[k]);
    }
    if (is_float)
        return make_float(p, pos, c_strtod(p, b->buf, pos));
    {
        uint64_t u = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;

        for (size_t j = neg ? 1 : 0; j < b->len; j++) {
            unsigned d = (unsigned)(b->buf[j] - '0');

            if (u > (lim - d) / 10)
                fail_at(p, pos, "integer out of range (64-bit signed integers are "
                        "-9223372036854775808 to 9223372036854775807)");
            u = u * 10 + d;
        }
        v = new_value(p, TOML_INTEGER, pos);
        if (neg)
            v->u.i = u == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)u;
        else
            v->u.i = (int64_t)u;
        return v;
    }
}

/* Two digits at t[k] (k + 2 <= n checked by caller); -1 if not digits. */
static int two_digits(const char *t, size_t n, size_t k)
{
    if (k + 2 > n || !is_digit((unsigned char)t[k]) || !is_digit((unsigned char)t[k + 1]))
        return -1;
    return (t[k] - '0') * 10 + (t[k + 1] - '0');
}

static int days_in_month(int y, int m)
{
    static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

    if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
        return 29;
    return days[m - 1];
}

/* Parses HH:MM:SS[.frac] at t[*k], appending the normalised text to b. */
static void parse_time(struct parser *p, const char *t, size_t n, size_t *k,
                       struct toml_pos pos, struct sbuf *b)
{
    size_t s = *k, fs;
    int hh = two_digits(t, n, s), mm, ss;

    if (hh < 0)
        fail_at(p, pos_plus(pos, s), "invalid time: expected a 2-digit hour");
    if (s + 2 >= n || t[s + 2] != ':')
        fail_at(p, pos_plus(pos, s + 2), "invalid time: expected ':' after the hour");
    mm = two_digits(t, n, s + 3);
    if (mm < 0)
        fail_at(p, pos_plus(pos, s + 3), "invalid time: expected a 2-digit minute");
    if (s + 5 >= n || t[s + 5] != ':')
        fail_at(p, pos_plus(pos, s + 5), "invalid time: expected ':' and seconds after the "
                "minute (seconds are required in TOML 1.0)");
    ss = two_digits(t, n, s + 6);
    if (ss < 0)
        fail_at(p, pos_plus(pos, s + 6), "invalid time: expected 2-digit seconds");
    if (hh > 23)
        fail_at(p, pos_plus(pos, s), "invalid time: hour %02d out of range 00-23", hh);
    if (mm > 59)
        fail_at(p, pos_plus(pos, s + 3), "invalid time: minute %02d out of range 00-59", mm);
    if (ss > 60)
        fail_at(p, pos_plus(pos, s + 6), "invalid time: second %02d out of range 00-60", ss);
    sb_add(p, b, t + s, 8);
    *k = s + 8;
    if (*k < n && t[*k] == '.') {
        (*k)++;
        fs = *k;
        while (*k < n && is_digit((unsigned char)t[*k]))
            (*k)++;
        if (*k == fs)
            fail_at(p, pos_plus(pos, fs), "invalid time: expected digits after '.'");
        sb_addc(p, b, '.');
        sb_add(p, b, t + fs, *k - fs);
        for (size_t d = *k - fs; d < 3; d++)
            sb_addc(p, b, '0');
    }
}

/* Parses a date, date-time or time token; t has n bytes, all ASCII. */
static struct toml_value *parse_datetime(struct parser *p, const char *t, size_t n,
                                         struct toml_pos pos)
{
    struct sbuf *b = &p->sb;
    enum toml_kind kind;
    struct toml_value *v;
    size_t k = 0, yd = 0;
    int y, m, d;

    b->len = 0;
    while (yd < n && is_digit((unsigned char)t[yd]))
        yd++;
    if (yd < n && t[yd] == ':') {
        parse_time(p, t, n, &k, pos, b);
        kind = TOML_LOCAL_TIME;
        goto done;
    }
    if (yd != 4)
        fail_at(p, pos, "invalid date: the year must have exactly 4 digits");
    if (t[4] != '-')
        fail_at(p, pos_plus(pos, 4), "invalid date: expected '-' after the year");
    m = two_digits(t, n, 5);
    if (m < 0 || (n > 7 && is_digit((unsigned char)t[7])))
        fail_at(p, pos_plus(pos, 5), "invalid date: expected a 2-digit month");
    if (n <= 7 || t[7] != '-')
        fail_at(p, pos_plus(pos, 7), "invalid date: expected '-' after the month");
    d = two_digits(t, n, 8);
    if (d < 0)
        fail_at(p, pos_plus(pos, 8), "invalid date: expected a 2-digit day");
    y = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
    if (m < 1 || m > 12)
        fail_at(p, pos_plus(pos, 5), "invalid date: month %02d out of range 01-12", m);
    if (d < 1 || d > days_in_month(y, m))
        fail_at(p, pos_plus(pos, 8), "invalid date: day %02d out of range for %04d-%02d "
                "(01-%02d)", d, y, m, days_in_month(y, m));
    sb_add(p, b, t, 10);
    k = 10;
    if (k == n) {
        kind = TOML_LOCAL_DATE;
        goto done;
    }
    if (t[k] != 'T' && t[k] != 't' && t[k] != ' ') {
        if (is_digit((unsigned char)t[k]))
            fail_at(p, pos_plus(pos, k), "invalid date-time: expected 'T' or a space "
                    "between the date and the time");
        fail_at(p, pos_plus(pos, k), "invalid date: unexpected '%c' after the date", t[k]);
    }
    k++;
    if (k == n)
        fail_at(p, pos_plus(pos, k), "invalid date-time: expected a time after '%c'",
                t[k - 1]);
    sb_addc(p, b, 'T');
    parse_time(p, t, n, &k, pos, b);
    kind = TOML_LOCAL_DATETIME;
    if (k < n && (t[k] == 'Z' || t[k] == 'z')) {
        sb_addc(p, b, 'Z');
        k++;
        kind = TOML_OFFSET_DATETIME;
    } else if (k < n && (t[k] == '+' || t[k] == '-')) {
        int oh = two_digits(t, n, k + 1), om = two_digits(t, n, k + 4);

        if (oh < 0 || k + 3 >= n || t[k + 3] != ':' || om < 0 ||
            (k + 6 < n && is_digit((unsigned char)t[k + 6])))
            fail_at(p, pos_plus(pos, k), "invalid time offset: expected %cHH:MM", t[k]);
        if (oh > 23)
            fail_at(p, pos_plus(pos, k + 1), "invalid time offset: hour %02d out of range "
                    "00-23", oh);
        if (om > 59)
            fail_at(p, pos_plus(pos, k + 4), "invalid time offset: minute %02d out of "
                    "range 00-59", om);
        sb_add(p, b, t + k, 6);
        k += 6;
        kind = TOML_OFFSET_DATETIME;
    }
done:
    if (k != n) {
        if (kind == TOML_LOCAL_TIME && (t[k] == 'Z' || t[k] == 'z' || t[k] == '+' ||
                                        t[k] == '-'))
            fail_at(p, pos_plus(pos, k), "a local time cannot have a time offset");
        fail_at(p, pos_plus(pos, k), "invalid %s: unexpected '%c'", toml_kind_name(kind),
                t[k]);
    }
    v = new_value(p, kind, pos);
    v->u.str.ptr = dup_mem(p, b->buf, b->len);
    v->u.str.len = b->len;
    return v;
}

/* A bare (unquoted) scalar: boolean, number, inf/nan or date/time. */
static struct toml_value *parse_scalar(struct parser *p)
{
    struct toml_pos pos = here(p);
    const char *t = (const char *)p->s + p->i;
    size_t n = 0, j;
    char buf[48];
    int dt = 0;

    while (p->i + n < p->n && is_token_char(p->s[p->i + n]))
        n++;
    if (n == 0)
        fail_at(p, pos, "expected a value, found %s", describe(p, buf, sizeof buf));
    /* A date followed by a space and a time is one value. */
    if (n == 10 && t[4] == '-' && t[7] == '-' && p->i + 12 < p->n && t[10] == ' ' &&
        is_digit((unsigned char)t[11]) && is_digit((unsigned char)t[12])) {
        n = 11;
        while (p->i + n < p->n && is_token_char(p->s[p->i + n]))
            n++;
    }
    if (n == 4 && memcmp(t, "true", 4) == 0) {
        struct toml_value *v = new_value(p, TOML_BOOLEAN, pos);

        v->u.b = 1;
        adv(p, n);
        return v;
    }
    if (n == 5 && memcmp(t, "false", 5) == 0) {
        struct toml_value *v = new_value(p, TOML_BOOLEAN, pos);

        adv(p, n);
        return v;
    }
    if (t[0] == '.' && n > 1 && is_digit((unsigned char)t[1]))
        fail_at(p, pos, "a float needs a digit before the decimal point");
    if (!is_digit((unsigned char)t[0]) && t[0] != '+' && t[0] != '-' &&
        !(n == 3 && (memcmp(t, "inf", 3) == 0 || memcmp(t, "nan", 3) == 0))) {
        static const char *const words[] = { "true", "false", "inf", "nan" };
        char shown[80];

        show_key(t, n, shown, sizeof shown);
        for (j = 0; j < 4; j++) {
            size_t l = strlen(words[j]), q;

            if (l != n)
                continue;
            for (q = 0; q < l; q++)
                if ((t[q] | 0x20) != words[j][q])
                    break;
            if (q == l)
                fail_at(p, pos, "invalid value '%s': '%s' must be written in lowercase",
                        shown, words[j]);
        }
        fail_at(p, pos, "invalid value '%s' (strings must be quoted)", shown);
    }
    if (is_digit((unsigned char)t[0]) && !(n > 1 && (t[1] == 'x' || t[1] == 'o' || t[1] == 'b'))) {
        for (j = 1; j < n && !dt; j++)
            dt = t[j] == ':' || (t[j] == '-' && t[j - 1] != 'e' && t[j - 1] != 'E');
    }
    {
        struct toml_value *v = dt ? parse_datetime(p, t, n, pos) : parse_number(p, t, n, pos);

        adv(p, n);
        return v;
    }
}

/* ------------------------------------------------------------------ */
/* Values                                                              */

static struct toml_value *parse_value(struct parser *p);
static void parse_keyval(struct parser *p, struct toml_value *tab, size_t section, int in_inline);

static void enter_nesting(struct parser *p, struct toml_pos pos)
{
    if (p->depth >= TOML_MAX_DEPTH)
        fail_at(p, pos, "arrays and inline tables nested too deeply (limit %d)",
                TOML_MAX_DEPTH);
    p->depth++;
}

static struct toml_value *string_value(struct parser *p, struct toml_pos pos)
{
    struct toml_value *v = new_value(p, TOML_STRING, pos);

    v->u.str.ptr = dup_mem(p, p->sb.buf, p->sb.len);
    v->u.str.len = p->sb.len;
    return v;
}

/* At '[': an array value. */
static struct toml_value *parse_array(struct parser *p)
{
    struct toml_pos pos = here(p);
    struct toml_value *a;

    enter_nesting(p, pos);
    a = new_value(p, TOML_ARRAY, pos);
    adv(p, 1);
    for (;;) {
        int c;

        skip_ws_nl(p);
        if (peek(p) == ']')
            break;
        if (peek(p) == ',')
            fail_at(p, here(p), "expected a value or ']' in array, found ','");
        if (peek(p) < 0)
            fail_at(p, here(p), "unterminated array (opened at %u:%u)", pos.line, pos.column);
        array_push(p, a, parse_value(p));
        skip_ws_nl(p);
        c = peek(p);
        if (c == ',') {
            adv(p, 1);
            continue;
        }
        if (c == ']')
            break;
        if (c < 0)
            fail_at(p, here(p), "unterminated array (opened at %u:%u)", pos.line, pos.column);
        if (c == '\r')
            fail_at(p, here(p), "carriage return (U+000D) not followed by a line feed");
        fail_found(p, "expected ',' or ']' after an array element");
    }
    adv(p, 1);
    p->depth--;
    return a;
}

/* At '{': an inline table. */
static struct toml_value *parse_inline_table(struct parser *p)
{
    struct toml_pos pos = here(p);
    struct toml_value *t;
    size_t section;

    enter_nesting(p, pos);
    t = new_value(p, TOML_TABLE, pos);
    t->flags = F_FROZEN;
    section = ++p->next_section;
    t->section = section;
    adv(p, 1);
    skip_ws(p);
    if (peek(p) == '}') {
        adv(p, 1);
        p->depth--;
        return t;
    }
    for (;;) {
        int c;

        skip_ws(p);
        c = peek(p);
        if (newline_len(p) || c == '\r')
            fail_at(p, here(p), "newline not allowed inside an inline table (TOML 1.0)");
        if (c < 0)
            fail_at(p, here(p), "unterminated inline table (opened at %u:%u)", pos.line,
                    pos.column);
        if (!is_key_start(c))
            fail_found(p, "expected a key in inline table");
        parse_keyval(p, t, section, 1);
        skip_ws(p);
        c = peek(p);
        if (c == ',') {
            adv(p, 1);
            skip_ws(p);
            if (peek(p) == '}')
                fail_at(p, here(p), "trailing comma not allowed in an inline table");
            continue;
        }
        if (c == '}')
            break;
        if (c < 0)
            fail_at(p, here(p), "unterminated inline table (opened at %u:%u)", pos.line,
                    pos.column);
        if (newline_len(p) || c == '\r')
            fail_at(p, here(p), "newline not allowed inside an inline table (TOML 1.0)");
        if (c == '#')
            fail_at(p, here(p), "comment not allowed inside an inline table");
        fail_found(p, "expected ',' or '}' after a key/value pair in inline table");
    }
    adv(p, 1);
    p->depth--;
    return t;
}

/* Any value that is not an array or inline table. */
static TOML_NOINLINE struct toml_value *parse_leaf(struct parser *p)
{
    struct toml_pos pos = here(p);
    int c = peek(p);

    if (c != '"' && c != '\'')
        return parse_scalar(p);
    p->sb.len = 0;
    if (peek_at(p, 1) == c && peek_at(p, 2) == c)
        parse_multiline(p, &p->sb, (char)c);
    else if (c == '"')
        parse_basic(p, &p->sb);
    else
        parse_literal(p, &p->sb);
    return string_value(p, pos);
}

/* The only recursion in the parser: parse_value -> parse_array or
 * parse_inline_table (-> parse_keyval) -> parse_value, bounded by
 * TOML_MAX_DEPTH. */
static struct toml_value *parse_value(struct parser *p)
{
    switch (peek(p)) {
    case '[':
        return parse_array(p);
    case '{':
        return parse_inline_table(p);
    default:
        return parse_leaf(p);
    }
}

/* ------------------------------------------------------------------ */
/* Key/value pairs and table headers                                   */

static const char *article_kind(enum toml_kind k)
{
    switch (k) {
    case TOML_INTEGER:
    case TOML_OFFSET_DATETIME:
    case TOML_ARRAY:
        return "an";
    default:
        return "a";
    }
}

/* Fails because key part k names an existing non-table value (or a
 * value that cannot be extended). */
static _Noreturn void fail_not_table(struct parser *p, size_t k, const struct toml_entry *e)
{
    char path[160];
    const struct toml_value *v = e->val;

    show_path(p, k, path, sizeof path);
    fail_at(p, p->parts[k].pos, "cannot use '%s' as a table: it is already defined as %s %s "
            "at %u:%u", path, article_kind(v->kind), toml_kind_name(v->kind),
            e->key_pos.line, e->key_pos.column);
}

/* Parses "key =" of a key/value pair in table tab, where section identifies
 * the [header] block or inline table that the pair belongs to; creates the
 * tables named by a dotted key and an entry (with no value yet) for the last
 * component.  Returns the entry's index in *tp. */
static TOML_NOINLINE size_t parse_key_eq(struct parser *p, struct toml_value *tab,
                                          size_t section, int in_inline, struct toml_value **tp)
{
    struct toml_value *t = tab, *v;
    struct keypart last;
    struct toml_entry *e;
    char buf[48], path[160];
    size_t k;

    parse_key(p, "");
    if (peek(p) != '=') {
        if (peek(p) < 0 || newline_len(p) || peek(p) == '#')
            fail_at(p, here(p), "expected '=' after key, found %s (a key needs a value)",
                    describe(p, buf, sizeof buf));
        fail_at(p, here(p), "expected '=' after key, found %s", describe(p, buf, sizeof buf));
    }
    adv(p, 1);
    skip_ws(p);

    for (k = 0; k + 1 < p->nparts; k++) {
        const struct keypart *kp = &p->parts[k];

        e = table_find(t, part_text(p, k), kp->len);
        if (!e) {
            v = new_value(p, TOML_TABLE, kp->pos);
            v->section = section;
            if (in_inline)
                v->flags |= F_FROZEN;
            table_add(p, t, part_text(p, k), kp->len, kp->pos, v);
            t = v;
            continue;
        }
        v = e->val;
        if (!v || v->kind != TOML_TABLE)
            fail_not_table(p, k, e);
        if (v->section != section) {
            if (v->flags & F_FROZEN)
                fail_at(p, kp->pos, "cannot add keys to inline table '%s' (defined at "
                        "%u:%u): inline tables are complete once closed",
                        show_path(p, k, path, sizeof path), v->pos.line, v->pos.column);
            if (v->flags & F_EXPLICIT)
                fail_at(p, kp->pos, "cannot add keys to table '%s' with dotted keys: "
                        "it was defined by a table header at %u:%u",
                        show_path(p, k, path, sizeof path), v->pos.line, v->pos.column);
            if (v->section != 0)
                fail_at(p, kp->pos, "cannot add keys to table '%s' with dotted keys: "
                        "it was created by dotted keys under another table header at "
                        "%u:%u", show_path(p, k, path, sizeof path), v->pos.line,
                        v->pos.column);
            v->section = section; /* an implicit table, now owned by this section */
        }
        t = v;
    }
    last = p->parts[p->nparts - 1];
    e = table_find(t, part_text(p, p->nparts - 1), last.len);
    if (e)
        fail_at(p, last.pos, "duplicate key '%s' (first defined at %u:%u)",
                show_path(p, p->nparts - 1, path, sizeof path), e->key_pos.line,
                e->key_pos.column);
    if (peek(p) < 0 || newline_len(p) || peek(p) == '#')
        fail_at(p, here(p), "expected a value after '=', found %s",
                describe(p, buf, sizeof buf));
    *tp = t;
    return table_add(p, t, part_text(p, p->nparts - 1), last.len, last.pos, NULL);
}

/* key = value; see parse_key_eq(). */
static void parse_keyval(struct parser *p, struct toml_value *tab, size_t section, int in_inline)
{
    struct toml_value *t;
    size_t idx = parse_key_eq(p, tab, section, in_inline, &t);
    struct toml_value *v = parse_value(p);

    /* Nothing in the value can add to t, so idx is still this entry. */
    t->u.tab.ents[idx].val = v;
}

/* At '[': a [table] or [[array of tables]] header. */
static void parse_header(struct parser *p)
{
    struct toml_pos hpos = here(p);
    struct toml_value *t = p->doc->root, *v;
    struct toml_entry *e;
    char buf[48], path[160];
    int aot = 0;
    size_t k, last;

    adv(p, 1);
    if (peek(p) == '[') {
        aot = 1;
        adv(p, 1);
    }
    skip_ws(p);
    parse_key(p, aot ? " in array-of-tables header" : " in table header");
    if (peek(p) != ']')
        fail_at(p, here(p), "expected '.' or ']' in table header, found %s",
                describe(p, buf, sizeof buf));
    adv(p, 1);
    if (aot) {
        if (peek(p) != ']')
            fail_at(p, here(p), "expected ']]' to close the array-of-tables header, found "
                    "%s", describe(p, buf, sizeof buf));
        adv(p, 1);
    }

    last = p->nparts - 1;
    for (k = 0; k < last; k++) {
        const struct keypart *kp = &p->parts[k];

        e = table_find(t, part_text(p, k), kp->len);
        if (!e) {
            v = new_value(p, TOML_TABLE, kp->pos);
            table_add(p, t, part_text(p, k), kp->len, kp->pos, v);
            t = v;
            continue;
        }
        v = e->val;
        if (v->kind == TOML_ARRAY && (v->flags & F_AOT)) {
            t = v->u.arr.items[v->u.arr.n - 1];
            continue;
        }
        if (v->kind == TOML_ARRAY)
            fail_at(p, kp->pos, "cannot extend '%s': it is a static array (defined at "
                    "%u:%u), not an array of tables", show_path(p, k, path, sizeof path),
                    v->pos.line, v->pos.column);
        if (v->kind != TOML_TABLE)
            fail_not_table(p, k, e);
        if (v->flags & F_FROZEN)
            fail_at(p, kp->pos, "cannot extend inline table '%s' (defined at %u:%u): "
                    "inline tables are complete once closed",
                    show_path(p, k, path, sizeof path), v->pos.line, v->pos.column);
        t = v;
    }

    e = table_find(t, part_text(p, last), p->parts[last].len);
    show_path(p, last, path, sizeof path);
    if (aot) {
        struct toml_value *arr;

        if (!e) {
            arr = new_value(p, TOML_ARRAY, hpos);
            arr->flags = F_AOT;
            table_add(p, t, part_text(p, last), p->parts[last].len, p->parts[last].pos, arr);
        } else {
            arr = e->val;
            if (arr->kind != TOML_ARRAY || !(arr->flags & F_AOT)) {
                if (arr->kind == TOML_ARRAY)
                    fail_at(p, hpos, "cannot append to '%s' with [[%s]]: it is a static "
                            "array (defined at %u:%u)", path, path, arr->pos.line,
                            arr->pos.column);
                fail_at(p, hpos, "cannot define array of tables [[%s]]: '%s' is already "
                        "defined as %s %s at %u:%u", path, path, article_kind(arr->kind),
                        toml_kind_name(arr->kind), e->key_pos.line, e->key_pos.column);
            }
        }
        v = new_value(p, TOML_TABLE, hpos);
        v->flags = F_EXPLICIT;
        array_push(p, arr, v);
    } else {
        if (!e) {
            v = new_value(p, TOML_TABLE, hpos);
            table_add(p, t, part_text(p, last), p->parts[last].len, p->parts[last].pos, v);
        } else {
            v = e->val;
            if (v->kind != TOML_TABLE) {
                if (v->kind == TOML_ARRAY && (v->flags & F_AOT))
                    fail_at(p, hpos, "cannot define table [%s]: '%s' is an array of "
                            "tables (defined at %u:%u)", path, path, v->pos.line,
                            v->pos.column);
                fail_at(p, hpos, "cannot define table [%s]: '%s' is already defined as %s "
                        "%s at %u:%u", path, path, article_kind(v->kind),
                        toml_kind_name(v->kind), e->key_pos.line, e->key_pos.column);
            }
            if (v->flags & F_EXPLICIT)
                fail_at(p, hpos, "duplicate table [%s] (first defined at %u:%u)", path,
                        v->pos.line, v->pos.column);
            if (v->flags & F_FROZEN)
                fail_at(p, hpos, "cannot define table [%s]: it is an inline table "
                        "(defined at %u:%u)", path, v->pos.line, v->pos.column);
            if (v->section != 0)
                fail_at(p, hpos, "cannot define table [%s]: it was already created by "
                        "dotted keys at %u:%u", path, v->pos.line, v->pos.column);
            v->pos = hpos;
        }
        v->flags |= F_EXPLICIT;
    }
    p->cur = v;
    p->section = ++p->next_section;
}

static void parse_document(struct parser *p)
{
    char buf[48];

    for (;;) {
        int c;
        size_t nl;

        skip_ws(p);
        c = peek(p);
        if (c < 0)
            return;
        if (c == '#') {
            skip_comment(p);
            continue;
        }
        nl = newline_len(p);
        if (nl) {
            adv_newline(p, nl);
            continue;
        }
        if (c == '[') {
            parse_header(p);
            expect_eol(p, "a table header");
        } else if (is_key_start(c)) {
            parse_keyval(p, p->cur, p->section, 0);
            expect_eol(p, "a key/value pair");
        } else if (c == '\r') {
            fail_at(p, here(p), "carriage return (U+000D) not followed by a line feed");
        } else if (c == '=') {
            fail_at(p, here(p), "expected a key before '='");
        } else {
            fail_at(p, here(p), "expected a key, a [table] header or a comment, found %s",
                    describe(p, buf, sizeof buf));
        }
    }
}

/* Runs the parser; returns 0 on success, -1 after an error (p->err set).
 * Kept apart from toml_parse() so that no local variable of the function
 * calling setjmp() changes afterwards. */
static int run_parser(struct parser *p)
{
    static const struct toml_pos origin = { 1, 1 };

    if (setjmp(p->jb))
        return -1;
    if (p->n >= 3 && memcmp(p->s, "\xEF\xBB\xBF", 3) == 0)
        p->i = 3; /* byte order mark */
    check_utf8(p);
    p->doc->root = new_value(p, TOML_TABLE, origin);
    p->cur = p->doc->root;
    p->section = p->next_section = 1;
    parse_document(p);
    return 0;
}

struct toml_doc *toml_parse(const char *text, size_t len, struct toml_error *err)
{
    struct toml_error dummy;
    struct parser *p;
    struct toml_doc *doc;
    int rc;

    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    err->pos.line = err->pos.column = 1;
    if (!text && len) {
        snprintf(err->message, sizeof err->message, "no input text");
        return NULL;
    }
    p = calloc(1, sizeof *p);
    doc = calloc(1, sizeof *doc);
    if (!p || !doc) {
        free(p);
        free(doc);
        snprintf(err->message, sizeof err->message, "out of memory");
        return NULL;
    }
    p->s = (const unsigned char *)text;
    p->n = len;
    p->line = 1;
    p->col = 1;
    p->doc = doc;
    p->err = err;
    rc = run_parser(p);
    free(p->sb.buf);
    free(p->kb.buf);
    free(p->parts);
    free(p);
    if (rc != 0) {
        toml_doc_free(doc);
        return NULL;
    }
    memset(err, 0, sizeof *err);
    return doc;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

const struct toml_value *toml_doc_root(const struct toml_doc *doc)
{
    return doc ? doc->root : NULL;
}

enum toml_kind toml_kind(const struct toml_value *v)
{
    return v->kind;
}

struct toml_pos toml_value_pos(const struct toml_value *v)
{
    return v->pos;
}

size_t toml_table_size(const struct toml_value *table)
{
    return table && table->kind == TOML_TABLE ? table->u.tab.n : 0;
}

const struct toml_value *toml_table_entry(const struct toml_value *table, size_t i,
                                          const char **key, size_t *key_len,
                                          struct toml_pos *key_pos)
{
    const struct toml_entry *e;

    if (!table || table->kind != TOML_TABLE || i >= table->u.tab.n)
        return NULL;
    e = &table->u.tab.ents[i];
    if (key)
        *key = e->key;
    if (key_len)
        *key_len = e->key_len;
    if (key_pos)
        *key_pos = e->key_pos;
    return e->val;
}

const struct toml_value *toml_table_getn(const struct toml_value *table, const char *key,
                                         size_t key_len, struct toml_pos *key_pos)
{
    const struct toml_entry *e;

    if (!table || table->kind != TOML_TABLE || !key)
        return NULL;
    e = table_find(table, key, key_len);
    if (!e)
        return NULL;
    if (key_pos)
        *key_pos = e->key_pos;
    return e->val;
}

const struct toml_value *toml_table_get(const struct toml_value *table, const char *key)
{
    return key ? toml_table_getn(table, key, strlen(key), NULL) : NULL;
}

size_t toml_array_size(const struct toml_value *array)
{
    return array && array->kind == TOML_ARRAY ? array->u.arr.n : 0;
}

const struct toml_value *toml_array_get(const struct toml_value *array, size_t i)
{
    if (!array || array->kind != TOML_ARRAY || i >= array->u.arr.n)
        return NULL;
    return array->u.arr.items[i];
}

int toml_array_is_table_array(const struct toml_value *array)
{
    return array && array->kind == TOML_ARRAY && (array->flags & F_AOT) != 0;
}

const char *toml_string(const struct toml_value *v, size_t *len)
{
    if (!v || v->kind != TOML_STRING)
        return NULL;
    if (len)
        *len = v->u.str.len;
    return v->u.str.ptr;
}

int64_t toml_integer(const struct toml_value *v)
{
    return v && v->kind == TOML_INTEGER ? v->u.i : 0;
}

double toml_float(const struct toml_value *v)
{
    return v && v->kind == TOML_FLOAT ? v->u.f : 0.0;
}

int toml_boolean(const struct toml_value *v)
{
    return v && v->kind == TOML_BOOLEAN ? v->u.b : 0;
}

const char *toml_datetime_text(const struct toml_value *v)
{
    if (!v)
        return NULL;
    switch (v->kind) {
    case TOML_OFFSET_DATETIME:
    case TOML_LOCAL_DATETIME:
    case TOML_LOCAL_DATE:
    case TOML_LOCAL_TIME:
        return v->u.str.ptr;
    default:
        return NULL;
    }
}

const char *toml_kind_name(enum toml_kind k)
{
    switch (k) {
    case TOML_STRING: return "string";
    case TOML_INTEGER: return "integer";
    case TOML_FLOAT: return "float";
    case TOML_BOOLEAN: return "boolean";
    case TOML_OFFSET_DATETIME: return "offset date-time";
    case TOML_LOCAL_DATETIME: return "local date-time";
    case TOML_LOCAL_DATE: return "local date";
    case TOML_LOCAL_TIME: return "local time";
    case TOML_ARRAY: return "array";
    case TOML_TABLE: return "table";
    }
    return "unknown";
}
