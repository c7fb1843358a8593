/*
 * toml_decode - decode a TOML file to toml-test's tagged JSON.
 *
 * Usage: toml_decode FILE
 *
 * Prints the document as JSON on stdout and exits 0, or prints
 * "FILE:LINE:COL: message" on stderr and exits 1.  Exits 2 on usage or I/O
 * errors.
 *
 * Encoding (https://github.com/toml-lang/toml-test, "JSON encoding"): a table
 * is a JSON object, an array a JSON array, and every other value an object
 * {"type": T, "value": S} where S is a string and T one of string, integer,
 * float, bool, datetime, datetime-local, date-local, time-local.  Floats are
 * printed in the shortest form that reads back to the same double ("nan",
 * "inf", "-inf" for the special values, "-0" for negative zero); date/times
 * use toml_datetime_text().
 *
 * The tree is walked with an explicit stack, so arbitrarily deep tables
 * (from long dotted keys or headers) cannot overflow the C stack.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toml/toml.h"

static void put_json_string(FILE *out, const char *s, size_t len)
{
    size_t k;

    putc('"', out);
    for (k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];

        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20 || c == 0x7F)
                fprintf(out, "\\u%04x", c);
            else
                putc(c, out);
        }
    }
    putc('"', out);
}

/*
 * The shortest decimal text that reads back to exactly d, written like
 * JavaScript's Number.prototype.toString: plain notation when the decimal
 * exponent is in -7..20 (300, 0.0123, 9007199254740991), else d.ddde+XX
 * (5e+22, 6.626e-34).  "nan", "inf", "-inf" for the special values and "-0"
 * for negative zero, as toml-test spells them.
 */
static void format_float(double d, char *buf, size_t size)
{
    char sci[40], digits[24];
    const char *sign = signbit(d) ? "-" : "";
    size_t nd = 0, o = 0;
    int prec, exp;
    char *e;

    if (isnan(d)) {
        snprintf(buf, size, "nan");
        return;
    }
    if (isinf(d)) {
        snprintf(buf, size, "%sinf", sign);
        return;
    }
    if (d == 0) {
        snprintf(buf, size, "%s0", sign);
        return;
    }
    if (d < 0)
        d = -d; /* the sign is in sign; no fabs() so no libm */
    for (prec = 1; prec <= 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, d);
        if (strtod(sci, NULL) == d)
            break;
    }
    /* sci is "D[.DDD]e[+-]XX": collect the significant digits. */
    e = strchr(sci, 'e');
    exp = atoi(e + 1);
    for (const char *c = sci; c < e; c++)
        if (*c != '.')
            digits[nd++] = *c;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = '\0';
    if (exp < -7 || exp > 20) {
        snprintf(buf, size, "%s%c%s%.*se%c%d", sign, digits[0], nd > 1 ? "." : "",
                 (int)(nd - 1), digits + 1, exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
        return;
    }
    o = (size_t)snprintf(buf, size, "%s", sign);
    if (exp < 0) {
        o += (size_t)snprintf(buf + o, size - o, "0.");
        for (int z = -1; z > exp && o + 1 < size; z--)
            buf[o++] = '0';
        snprintf(buf + o, size - o, "%s", digits);
        return;
    }
    for (int k = 0; k <= exp && o + 1 < size; k++)
        buf[o++] = (size_t)k < nd ? digits[k] : '0';
    buf[o] = '\0';
    if ((size_t)exp + 1 < nd)
        snprintf(buf + o, size - o, ".%s", digits + exp + 1);
}

static void put_scalar(FILE *out, const struct toml_value *v)
{
    const char *type = NULL;
    char buf[64];
    const char *text = buf;
    size_t len;

    switch (toml_kind(v)) {
    case TOML_STRING:
        type = "string";
        text = toml_string(v, &len);
        break;
    case TOML_INTEGER:
        type = "integer";
        snprintf(buf, sizeof buf, "%" PRId64, toml_integer(v));
        break;
    case TOML_FLOAT:
        type = "float";
        format_float(toml_float(v), buf, sizeof buf);
        break;
    case TOML_BOOLEAN:
        type = "bool";
        snprintf(buf, sizeof buf, "%s", toml_boolean(v) ? "true" : "false");
        break;
    case TOML_OFFSET_DATETIME: type = "datetime"; text = toml_datetime_text(v); break;
    case TOML_LOCAL_DATETIME: type = "datetime-local"; text = toml_datetime_text(v); break;
    case TOML_LOCAL_DATE: type = "date-local"; text = toml_datetime_text(v); break;
    case TOML_LOCAL_TIME: type = "time-local"; text = toml_datetime_text(v); break;
    case TOML_ARRAY:
    case TOML_TABLE:
        abort();
    }
    if (toml_kind(v) != TOML_STRING)
        len = strlen(text);
    fprintf(out, "{\"type\":\"%s\",\"value\":", type);
    put_json_string(out, text, len);
    putc('}', out);
}

struct frame {
    const struct toml_value *v;
    size_t next;
};

static int encode(FILE *out, const struct toml_value *root)
{
    struct frame *stack = NULL;
    size_t depth = 0, cap = 0;

    for (const struct toml_value *v = root;;) {
        /* v, if not NULL, is a container to open and push. */
        if (v) {
            if (depth == cap) {
                size_t ncap = cap ? cap * 2 : 64;
                struct frame *ns = realloc(stack, ncap * sizeof *ns);

                if (!ns) {
                    free(stack);
                    return -1;
                }
                stack = ns;
                cap = ncap;
            }
            stack[depth].v = v;
            stack[depth].next = 0;
            depth++;
            putc(toml_kind(v) == TOML_TABLE ? '{' : '[', out);
            v = NULL;
        }
        if (depth == 0)
            break;
        struct frame *f = &stack[depth - 1];
        int is_table = toml_kind(f->v) == TOML_TABLE;
        size_t size = is_table ? toml_table_size(f->v) : toml_array_size(f->v);

        if (f->next == size) {
            putc(is_table ? '}' : ']', out);
            depth--;
            if (depth == 0)
                break;
            continue;
        }
        if (f->next > 0)
            putc(',', out);
        const struct toml_value *child;
        if (is_table) {
            const char *key;
            size_t key_len;

            child = toml_table_entry(f->v, f->next, &key, &key_len, NULL);
            put_json_string(out, key, key_len);
            putc(':', out);
        } else {
            child = toml_array_get(f->v, f->next);
        }
        f->next++;
        if (toml_kind(child) == TOML_TABLE || toml_kind(child) == TOML_ARRAY)
            v = child;
        else
            put_scalar(out, child);
    }
    putc('\n', out);
    free(stack);
    return 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f)
        return NULL;
    for (;;) {
        size_t got;

        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, ncap);

            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    struct toml_error err;
    struct toml_doc *doc;
    size_t len = 0;
    char *text;
    int rc = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: toml_decode FILE\n");
        return 2;
    }
    text = read_file(argv[1], &len);
    if (!text) {
        perror(argv[1]);
        return 2;
    }
    doc = toml_parse(text, len, &err);
    free(text);
    if (!doc) {
        fprintf(stderr, "%s:%u:%u: %s\n", argv[1], err.pos.line, err.pos.column, err.message);
        return 1;
    }
    if (encode(stdout, toml_doc_root(doc)) != 0) {
        fprintf(stderr, "toml_decode: out of memory\n");
        rc = 2;
    }
    toml_doc_free(doc);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("toml_decode: stdout");
        rc = 2;
    }
    return rc;
}
