/*
 * test_toml.c - unit tests for core/toml.c (cmocka 1.1).
 *
 * Covers the accessor API, positions of keys and values, error positions
 * and messages, bounded nesting, large inputs, NUL bytes and invalid UTF-8.
 * The conformance suite proper is tests/toml-suite.sh.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toml/toml.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* Parses a copy of len bytes in a buffer of exactly that size (no
 * terminating NUL, so reading past the end is caught by ASan/valgrind). */
static struct toml_doc *parse_exact(const char *text, size_t len, struct toml_error *err)
{
    char *copy = malloc(len ? len : 1);
    struct toml_doc *doc;

    assert_non_null(copy);
    memcpy(copy, text, len);
    doc = toml_parse(copy, len, err);
    free(copy);
    return doc;
}

static struct toml_doc *parse_ok(const char *text)
{
    struct toml_error err;
    struct toml_doc *doc = parse_exact(text, strlen(text), &err);

    if (!doc)
        fail_msg("unexpected error %u:%u: %s\n--- input:\n%s", err.pos.line, err.pos.column,
                 err.message, text);
    assert_int_equal(err.pos.line, 0);
    assert_string_equal(err.message, "");
    return doc;
}

/* Expects text (len bytes) to be rejected at line:col with a message
 * containing needle. */
static void expect_error_n(const char *text, size_t len, unsigned line, unsigned col,
                           const char *needle)
{
    struct toml_error err;
    struct toml_doc *doc = parse_exact(text, len, &err);

    if (doc) {
        toml_doc_free(doc);
        fail_msg("accepted invalid input:\n%.*s", (int)len, text);
    }
    if (err.pos.line != line || err.pos.column != col || !strstr(err.message, needle))
        fail_msg("input %.*s\n  got      %u:%u: %s\n  expected %u:%u: ...%s...", (int)len,
                 text, err.pos.line, err.pos.column, err.message, line, col, needle);
}

static void expect_error(const char *text, unsigned line, unsigned col, const char *needle)
{
    expect_error_n(text, strlen(text), line, col, needle);
}

/* Looks up a dotted path of bare keys ("a.b.c") from the root. */
static const struct toml_value *path(const struct toml_doc *doc, const char *dotted)
{
    const struct toml_value *v = toml_doc_root(doc);
    const char *part = dotted;

    while (v) {
        const char *dot = strchr(part, '.');
        size_t len = dot ? (size_t)(dot - part) : strlen(part);

        v = toml_table_getn(v, part, len, NULL);
        if (!dot)
            break;
        part = dot + 1;
    }
    return v;
}

static void assert_pos(struct toml_pos pos, unsigned line, unsigned col)
{
    if (pos.line != line || pos.column != col)
        fail_msg("position %u:%u, expected %u:%u", pos.line, pos.column, line, col);
}

/* A malloc'd string of n copies of s followed by tail. */
static char *repeat(const char *head, const char *s, size_t n, const char *tail)
{
    size_t hl = strlen(head), sl = strlen(s), tl = strlen(tail), k;
    char *buf = malloc(hl + sl * n + tl + 1), *o;

    assert_non_null(buf);
    memcpy(buf, head, hl);
    o = buf + hl;
    for (k = 0; k < n; k++, o += sl)
        memcpy(o, s, sl);
    memcpy(o, tail, tl + 1);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Values and lookups                                                  */

static const char sample[] =
    "# sample\n"
    "title = \"TOML \\u00e9xample\"\n"
    "count = -42\n"
    "hex = 0xDEAD_beef\n"
    "pi = 3.14159\n"
    "big = 1e300\n"
    "yes = true\n"
    "no = false\n"
    "odt = 1979-05-27 07:32:00.5-07:00\n"
    "ldt = 1979-05-27t07:32:00\n"
    "ld = 1979-05-27\n"
    "lt = 07:32:00.123456\n"
    "list = [1, 'two', [3.0], {four = 4}]\n"
    "point = { x = 1, y.z = 2 }\n"
    "\n"
    "[server]\n"
    "host = 'localhost'\n"
    "ports = [ 8000,\n"
    "  8001, # comment\n"
    "]\n"
    "[server.tls]\n"
    "on = true\n"
    "\n"
    "[[fruit]]\n"
    "name = \"apple\"\n"
    "[[fruit]]\n"
    "name = \"banana\"\n"
    "[tool.sandlint]\n"
    "packages = [\"src/*\"]\n";

static void test_scalars(void **state)
{
    struct toml_doc *doc = parse_ok(sample);
    const struct toml_value *v;
    size_t len = 0;

    (void)state;
    v = path(doc, "title");
    assert_int_equal(toml_kind(v), TOML_STRING);
    assert_string_equal(toml_string(v, &len), "TOML \xC3\xA9xample");
    assert_int_equal(len, 13);
    assert_int_equal(toml_integer(path(doc, "count")), -42);
    assert_int_equal(toml_integer(path(doc, "hex")), 0xDEADBEEF);
    assert_true(toml_float(path(doc, "pi")) == 3.14159);
    assert_true(toml_float(path(doc, "big")) == 1e300);
    assert_int_equal(toml_kind(path(doc, "yes")), TOML_BOOLEAN);
    assert_int_equal(toml_boolean(path(doc, "yes")), 1);
    assert_int_equal(toml_boolean(path(doc, "no")), 0);

    v = path(doc, "odt");
    assert_int_equal(toml_kind(v), TOML_OFFSET_DATETIME);
    assert_string_equal(toml_datetime_text(v), "1979-05-27T07:32:00.500-07:00");
    v = path(doc, "ldt");
    assert_int_equal(toml_kind(v), TOML_LOCAL_DATETIME);
    assert_string_equal(toml_datetime_text(v), "1979-05-27T07:32:00");
    v = path(doc, "ld");
    assert_int_equal(toml_kind(v), TOML_LOCAL_DATE);
    assert_string_equal(toml_datetime_text(v), "1979-05-27");
    v = path(doc, "lt");
    assert_int_equal(toml_kind(v), TOML_LOCAL_TIME);
    assert_string_equal(toml_datetime_text(v), "07:32:00.123456");

    /* Accessors of the wrong kind return neutral values. */
    assert_null(toml_string(path(doc, "count"), &len));
    assert_int_equal(toml_integer(path(doc, "title")), 0);
    assert_true(toml_float(path(doc, "count")) == 0.0);
    assert_int_equal(toml_boolean(path(doc, "count")), 0);
    assert_null(toml_datetime_text(path(doc, "title")));
    assert_int_equal(toml_table_size(path(doc, "title")), 0);
    assert_int_equal(toml_array_size(path(doc, "title")), 0);
    assert_null(toml_array_get(path(doc, "title"), 0));
    assert_null(toml_table_get(path(doc, "title"), "x"));
    toml_doc_free(doc);
}

static void test_containers(void **state)
{
    struct toml_doc *doc = parse_ok(sample);
    const struct toml_value *v, *e;
    const char *key;
    size_t key_len;

    (void)state;
    v = path(doc, "list");
    assert_int_equal(toml_kind(v), TOML_ARRAY);
    assert_int_equal(toml_array_size(v), 4);
    assert_false(toml_array_is_table_array(v));
    assert_int_equal(toml_integer(toml_array_get(v, 0)), 1);
    assert_string_equal(toml_string(toml_array_get(v, 1), NULL), "two");
    e = toml_array_get(v, 2);
    assert_int_equal(toml_kind(e), TOML_ARRAY);
    assert_true(toml_float(toml_array_get(e, 0)) == 3.0);
    e = toml_array_get(v, 3);
    assert_int_equal(toml_kind(e), TOML_TABLE);
    assert_int_equal(toml_integer(toml_table_get(e, "four")), 4);
    assert_null(toml_array_get(v, 4));

    assert_int_equal(toml_integer(path(doc, "point.y.z")), 2);
    assert_string_equal(toml_string(path(doc, "server.host"), NULL), "localhost");
    v = path(doc, "server.ports");
    assert_int_equal(toml_array_size(v), 2);
    assert_int_equal(toml_integer(toml_array_get(v, 1)), 8001);
    assert_int_equal(toml_boolean(path(doc, "server.tls.on")), 1);

    v = path(doc, "fruit");
    assert_int_equal(toml_kind(v), TOML_ARRAY);
    assert_true(toml_array_is_table_array(v));
    assert_int_equal(toml_array_size(v), 2);
    assert_string_equal(toml_string(toml_table_get(toml_array_get(v, 1), "name"), NULL),
                        "banana");
    assert_string_equal(toml_string(toml_array_get(path(doc, "tool.sandlint.packages"), 0),
                                    NULL), "src/*");

    /* Document order of the root's keys. */
    v = toml_doc_root(doc);
    assert_int_equal(toml_table_size(v), 16);
    assert_non_null(toml_table_entry(v, 0, &key, &key_len, NULL));
    assert_string_equal(key, "title");
    assert_int_equal(key_len, 5);
    toml_table_entry(v, 13, &key, NULL, NULL);
    assert_string_equal(key, "server");
    toml_table_entry(v, 14, &key, NULL, NULL);
    assert_string_equal(key, "fruit");
    toml_table_entry(v, 15, &key, NULL, NULL);
    assert_string_equal(key, "tool");
    assert_null(toml_table_entry(v, 16, &key, NULL, NULL));
    assert_null(toml_table_get(v, "missing"));
    assert_null(toml_table_get(v, NULL));
    toml_doc_free(doc);
}

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(toml_kind_name(TOML_STRING), "string");
    assert_string_equal(toml_kind_name(TOML_INTEGER), "integer");
    assert_string_equal(toml_kind_name(TOML_FLOAT), "float");
    assert_string_equal(toml_kind_name(TOML_BOOLEAN), "boolean");
    assert_string_equal(toml_kind_name(TOML_OFFSET_DATETIME), "offset date-time");
    assert_string_equal(toml_kind_name(TOML_LOCAL_DATETIME), "local date-time");
    assert_string_equal(toml_kind_name(TOML_LOCAL_DATE), "local date");
    assert_string_equal(toml_kind_name(TOML_LOCAL_TIME), "local time");
    assert_string_equal(toml_kind_name(TOML_ARRAY), "array");
    assert_string_equal(toml_kind_name(TOML_TABLE), "table");
    assert_string_equal(toml_kind_name((enum toml_kind)99), "unknown");
}

static void test_empty_and_null(void **state)
{
    struct toml_error err;
    struct toml_doc *doc;

    (void)state;
    doc = toml_parse(NULL, 0, &err);
    assert_non_null(doc);
    assert_int_equal(toml_kind(toml_doc_root(doc)), TOML_TABLE);
    assert_int_equal(toml_table_size(toml_doc_root(doc)), 0);
    assert_pos(toml_value_pos(toml_doc_root(doc)), 1, 1);
    toml_doc_free(doc);

    doc = toml_parse("a = 1", 5, NULL); /* err may be NULL */
    assert_non_null(doc);
    toml_doc_free(doc);
    assert_null(toml_parse("a = ", 4, NULL));
    assert_null(toml_parse(NULL, 3, &err));
    toml_doc_free(NULL);
    assert_null(toml_doc_root(NULL));
}

static void test_integer_limits(void **state)
{
    struct toml_doc *doc = parse_ok("max = 9_223_372_036_854_775_807\n"
                                    "min = -9223372036854775808\n"
                                    "hmax = 0x7FFFFFFFFFFFFFFF\n"
                                    "oct = 0o0755\n"
                                    "bin = 0b0000_0101\n"
                                    "plus = +0\n"
                                    "minus = -0\n");

    (void)state;
    assert_true(toml_integer(path(doc, "max")) == INT64_MAX);
    assert_true(toml_integer(path(doc, "min")) == INT64_MIN);
    assert_true(toml_integer(path(doc, "hmax")) == INT64_MAX);
    assert_int_equal(toml_integer(path(doc, "oct")), 0755);
    assert_int_equal(toml_integer(path(doc, "bin")), 5);
    assert_int_equal(toml_integer(path(doc, "plus")), 0);
    assert_int_equal(toml_integer(path(doc, "minus")), 0);
    toml_doc_free(doc);

    expect_error("a = 9223372036854775808\n", 1, 5, "integer out of range");
    expect_error("a = -9223372036854775809\n", 1, 5, "integer out of range");
    expect_error("a = 0x8000000000000000\n", 1, 5, "integer out of range");
    expect_error("a = 1e400\n", 1, 5, "float out of range");
}

static void test_floats(void **state)
{
    struct toml_doc *doc = parse_ok("a = inf\nb = -inf\nc = nan\nd = -0.0\ne = 1_000.5e-3\n"
                                    "f = 5e-324\n");

    (void)state;
    assert_true(isinf(toml_float(path(doc, "a"))) && toml_float(path(doc, "a")) > 0);
    assert_true(isinf(toml_float(path(doc, "b"))) && toml_float(path(doc, "b")) < 0);
    assert_true(isnan(toml_float(path(doc, "c"))));
    assert_true(toml_float(path(doc, "d")) == 0.0 && signbit(toml_float(path(doc, "d"))));
    assert_true(toml_float(path(doc, "e")) == 1.0005);
    assert_true(toml_float(path(doc, "f")) > 0.0);
    toml_doc_free(doc);
}

/* Floats are read in TOML syntax whatever LC_NUMERIC says. */
static void test_float_locale(void **state)
{
    static const char *const locales[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                                       "C.UTF-8", "C" };
    const char *cur = setlocale(LC_NUMERIC, NULL);
    char *old = NULL;
    size_t k;

    (void)state;
    if (cur) {
        old = strdup(cur);
        assert_non_null(old);
    }
    for (k = 0; k < sizeof locales / sizeof *locales; k++) {
        struct toml_doc *doc;

        if (!setlocale(LC_NUMERIC, locales[k]))
            continue;
        doc = parse_ok("a = 3.25\nb = 1.5e3\n");
        assert_true(toml_float(path(doc, "a")) == 3.25);
        assert_true(toml_float(path(doc, "b")) == 1500.0);
        toml_doc_free(doc);
    }
    setlocale(LC_NUMERIC, old ? old : "C");
    free(old);
}

static void test_strings(void **state)
{
    static const char text[] =
        "nul = \"a\\u0000b\"\n"
        "esc = \"\\b\\t\\n\\f\\r\\\"\\\\\\U0001F600\"\n"
        "ml = \"\"\"\r\nline1\r\n  line2 \\\r\n   \t joined\"\"\"\n"
        "lit = 'C:\\path'\n"
        "mll = '''\n'quoted' '' '''\n"
        "q5 = \"\"\"x\"\"\"\"\"\n"
        "\"\\u0000key\" = 1\n";
    struct toml_doc *doc = parse_ok(text);
    const struct toml_value *v;
    const char *s;
    size_t len;

    (void)state;
    s = toml_string(path(doc, "nul"), &len);
    assert_int_equal(len, 3);
    assert_memory_equal(s, "a\0b", 4);
    s = toml_string(path(doc, "esc"), &len);
    assert_string_equal(s, "\b\t\n\f\r\"\\\xF0\x9F\x98\x80");
    assert_string_equal(toml_string(path(doc, "ml"), NULL), "line1\n  line2 joined");
    assert_string_equal(toml_string(path(doc, "lit"), NULL), "C:\\path");
    assert_string_equal(toml_string(path(doc, "mll"), NULL), "'quoted' '' ");
    assert_string_equal(toml_string(path(doc, "q5"), NULL), "x\"\"");

    /* A key containing U+0000 is reachable with toml_table_getn(). */
    v = toml_table_getn(toml_doc_root(doc), "\0key", 4, NULL);
    assert_non_null(v);
    assert_int_equal(toml_integer(v), 1);
    assert_null(toml_table_get(toml_doc_root(doc), "key"));
    toml_doc_free(doc);
}

/* ------------------------------------------------------------------ */
/* Positions                                                           */

static void test_positions(void **state)
{
    static const char text[] =
        "\xEF\xBB\xBF" "a = 1\n"               /* 1: BOM is not a column */
        "\t\"\xC3\xA9t\xC3\xA9\" = 'x'  # c\n" /* 2: tab and multi-byte key */
        "s.t .\tu = [ 10,\r\n"                 /* 3: dotted key, CRLF */
        "   20 ]\n"                             /* 4 */
        "ml = \"\"\"\n\xE2\x82\xAC\n\"\"\"\n"   /* 5-7: multi-line string */
        "after = { x = 1 }\n"                   /* 8 */
        "\n"                                    /* 9 */
        "[tab . \"sub\"]\n"                     /* 10 */
        "k = 2\n"                               /* 11 */
        "[[aot]]\n"                             /* 12 */
        "[[aot]]\n"                             /* 13 */
        "[imp.child]\n"                         /* 14 */
        "[imp]\n";                              /* 15 */
    struct toml_doc *doc = parse_ok(text);
    const struct toml_value *root = toml_doc_root(doc), *v;
    struct toml_pos kp;
    const char *key;

    (void)state;
    v = toml_table_getn(root, "a", 1, &kp);
    assert_pos(kp, 1, 1);
    assert_pos(toml_value_pos(v), 1, 5);

    v = toml_table_getn(root, "\xC3\xA9t\xC3\xA9", 5, &kp);
    assert_non_null(v);
    assert_pos(kp, 2, 2);
    assert_pos(toml_value_pos(v), 2, 10); /* column counts code points */

    v = toml_table_getn(root, "s", 1, &kp);
    assert_pos(kp, 3, 1);
    assert_pos(toml_value_pos(v), 3, 1); /* implicit table: the key creating it */
    toml_table_entry(v, 0, &key, NULL, &kp);
    assert_string_equal(key, "t");
    assert_pos(kp, 3, 3);
    v = path(doc, "s.t");
    toml_table_entry(v, 0, &key, NULL, &kp);
    assert_string_equal(key, "u");
    assert_pos(kp, 3, 7);
    v = path(doc, "s.t.u");
    assert_pos(toml_value_pos(v), 3, 11);
    assert_pos(toml_value_pos(toml_array_get(v, 0)), 3, 13);
    assert_pos(toml_value_pos(toml_array_get(v, 1)), 4, 4);

    assert_pos(toml_value_pos(path(doc, "ml")), 5, 6);
    assert_string_equal(toml_string(path(doc, "ml"), NULL), "\xE2\x82\xAC\n");
    toml_table_getn(root, "after", 5, &kp);
    assert_pos(kp, 8, 1);
    assert_pos(toml_value_pos(path(doc, "after")), 8, 9);
    assert_pos(toml_value_pos(path(doc, "after.x")), 8, 15);

    /* [tab . "sub"]: "tab" is implicit (key position), "sub" explicit ('['). */
    assert_pos(toml_value_pos(path(doc, "tab")), 10, 2);
    toml_table_getn(path(doc, "tab"), "sub", 3, &kp);
    assert_pos(kp, 10, 8);
    assert_pos(toml_value_pos(path(doc, "tab.sub")), 10, 1);
    assert_pos(toml_value_pos(path(doc, "tab.sub.k")), 11, 5);

    v = path(doc, "aot");
    assert_pos(toml_value_pos(v), 12, 1);
    assert_pos(toml_value_pos(toml_array_get(v, 0)), 12, 1);
    assert_pos(toml_value_pos(toml_array_get(v, 1)), 13, 1);

    /* An implicit table later defined explicitly takes the header's position. */
    assert_pos(toml_value_pos(path(doc, "imp")), 15, 1);
    toml_table_getn(root, "imp", 3, &kp);
    assert_pos(kp, 14, 2);
    assert_pos(toml_value_pos(path(doc, "imp.child")), 14, 1);
    toml_doc_free(doc);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

struct error_case {
    const char *text;
    unsigned line, col;
    const char *needle;
};

static const struct error_case error_cases[] = {
    { "a = 1\na = 2\n", 2, 1, "duplicate key 'a' (first defined at 1:1)" },
    { "\"\" = 1\n\"\" = 2\n", 2, 1, "duplicate key '\"\"' (first defined at 1:1)" },
    { "x = \"\\q\"\n", 1, 6, "invalid escape '\\q'" },
    { "n = 012\n", 1, 5, "leading zero in integer" },
    { "f = 01.5\n", 1, 5, "leading zero in float" },
    { "key value\n", 1, 5, "expected '=' after key" },
    { "key\n", 1, 4, "expected '=' after key" },
    { "a = \n", 1, 5, "expected a value after '='" },
    { "a = 1 b = 2\n", 1, 7, "expected a newline after a key/value pair" },
    { "[a]\nx = 1\n[a]\n", 3, 1, "duplicate table [a] (first defined at 1:1)" },
    { "[a]\nb.c = 1\n[a.b]\n", 3, 1, "already created by dotted keys at 2:1" },
    { "a = {b = 1}\na.c = 2\n", 2, 1, "cannot add keys to inline table 'a'" },
    { "a = {b = 1}\n[a.c]\n", 2, 2, "cannot extend inline table 'a'" },
    { "a = [1]\n[[a]]\n", 2, 1, "static array" },
    { "a = 1\n[a.b]\n", 2, 2, "already defined as an integer at 1:1" },
    { "a = [1 2]\n", 1, 8, "expected ',' or ']'" },
    { "a = {x = 1,}\n", 1, 12, "trailing comma" },
    { "a = {x = 1\n}\n", 1, 11, "newline not allowed inside an inline table" },
    { "a = \"abc\n", 1, 9, "unterminated string" },
    { "a = '''abc\n\n", 3, 1, "unterminated multi-line string (opened at 1:5)" },
    { "a = \"\\uD800\"\n", 1, 6, "not a Unicode scalar value" },
    { "a = 1979-02-29\n", 1, 13, "day 29 out of range" },
    { "a = 25:00:00\n", 1, 5, "hour 25 out of range" },
    { "a = 07:32\n", 1, 10, "seconds are required" },
    { "a = 1__0\n", 1, 6, "'_' in a number must be between two digits" },
    { "a = True\n", 1, 5, "must be written in lowercase" },
    { "a = bare\n", 1, 5, "strings must be quoted" },
    { "a = 1\r\nb = 2\rc = 3\n", 2, 6, "carriage return" },
    { "# comment \x01\n", 1, 11, "control character U+0001 is not allowed in a comment" },
    { "a = \"\x7f\"\n", 1, 6, "control character U+007F is not allowed in a string" },
    { "[a\nb = 1\n", 1, 3, "expected '.' or ']' in table header" },
    { "[[a]\n", 1, 5, "expected ']]'" },
    { "\"\"\"k\"\"\" = 1\n", 1, 1, "multi-line strings cannot be used as keys" },
    { "= 1\n", 1, 1, "expected a key before '='" },
    { "a = 0X10\n", 1, 6, "base prefixes are lowercase" },
    { "a = -0x10\n", 1, 5, "a sign is not allowed on a hexadecimal integer" },
    { "\xC3\xA9\xC3\xA9 = 1\n", 1, 1, "found '\xC3\xA9' (U+00E9)" },
    { "a = '\xC3\xA9\xC3\xA9\n", 1, 8, "unterminated string" },
    { "a = \"\"\"x\"\"\"\"\"\"\n", 1, 14, "too many consecutive quotes" },
};

static void test_error_positions(void **state)
{
    size_t k;

    (void)state;
    for (k = 0; k < sizeof error_cases / sizeof *error_cases; k++)
        expect_error(error_cases[k].text, error_cases[k].line, error_cases[k].col,
                     error_cases[k].needle);
}

/* Long keys are shortened in messages, which always fit in the buffer. */
static void test_error_message_bounds(void **state)
{
    char *key = repeat("", "k", 5000, "");
    size_t len = strlen(key) * 2 + 16;
    char *text = malloc(len);
    struct toml_error err;

    (void)state;
    assert_non_null(text);
    snprintf(text, len, "%s = 1\n%s = 2\n", key, key);
    assert_null(toml_parse(text, strlen(text), &err));
    assert_pos(err.pos, 2, 1);
    assert_non_null(strstr(err.message, "duplicate key 'kkkk"));
    assert_non_null(strstr(err.message, "...' (first defined at 1:1)"));
    assert_true(strlen(err.message) < sizeof err.message);
    free(text);
    free(key);
}

/* ------------------------------------------------------------------ */
/* Encoding: NUL bytes and invalid UTF-8                               */

static void test_nul_bytes(void **state)
{
    (void)state;
    expect_error_n("a = 1\0", 6, 1, 6, "control character U+0000");
    expect_error_n("\0", 1, 1, 1, "control character U+0000");
    expect_error_n("a = \"x\0y\"\n", 10, 1, 7,
                   "control character U+0000 is not allowed in a string");
    expect_error_n("a = '''x\0'''\n", 13, 1, 9,
                   "control character U+0000 is not allowed in a string");
    expect_error_n("# \0\n", 4, 1, 3, "control character U+0000 is not allowed in a comment");
    expect_error_n("a = 1\nb = 2\n\0", 13, 3, 1, "U+0000");
    expect_error_n("k\0 = 1\n", 7, 1, 2, "expected '=' after key");
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    expect_error("a = \"\xC3\xA9\xFF\"\n", 1, 7, "invalid UTF-8: unexpected byte 0xFF");
    expect_error("# \xC0\x80 overlong\n", 1, 3, "invalid UTF-8");
    expect_error("# \xE0\x80\x80 overlong\n", 1, 3, "invalid UTF-8");
    expect_error("a = 1\n# \xED\xA0\x80\n", 2, 3, "surrogate");
    expect_error("# \xF4\x90\x80\x80 above U+10FFFF\n", 1, 3, "invalid UTF-8");
    expect_error("# \xF5\x80\x80\x80\n", 1, 3, "unexpected byte 0xF5");
    expect_error("x = 'ok'\n\xE2\x82", 2, 1, "truncated");
    expect_error("\xE2\x82\xAC\xE2\x82\xAC = \x80\n", 1, 6, "unexpected byte 0x80");
    expect_error("\xEF\xBB\xBF\xFF", 1, 1, "unexpected byte 0xFF"); /* after a BOM */
    expect_error("\xFF\xFE#\0", 1, 1, "invalid UTF-8");
}

/* ------------------------------------------------------------------ */
/* Limits: nesting and size                                            */

static void test_deep_arrays(void **state)
{
    const size_t n = 100000;
    char *text;
    struct toml_doc *doc;
    size_t k;

    (void)state;
    /* 100,000 unclosed '[' are rejected at the first one over the limit. */
    text = repeat("a = ", "[", n, "");
    expect_error(text, 1, 5 + TOML_MAX_DEPTH, "nested too deeply");
    free(text);

    /* Closed, too: still the same error, not a stack overflow. */
    text = malloc(4 + 2 * n + 2);
    assert_non_null(text);
    memcpy(text, "a = ", 4);
    memset(text + 4, '[', n);
    memset(text + 4 + n, ']', n);
    memcpy(text + 4 + 2 * n, "\n", 2);
    expect_error(text, 1, 5 + TOML_MAX_DEPTH, "limit 256");
    free(text);

    /* Exactly TOML_MAX_DEPTH levels are fine. */
    text = malloc(4 + 2 * TOML_MAX_DEPTH + 2);
    assert_non_null(text);
    memcpy(text, "a = ", 4);
    memset(text + 4, '[', TOML_MAX_DEPTH);
    memset(text + 4 + TOML_MAX_DEPTH, ']', TOML_MAX_DEPTH);
    memcpy(text + 4 + 2 * TOML_MAX_DEPTH, "\n", 2);
    doc = parse_ok(text);
    {
        const struct toml_value *v = path(doc, "a");

        for (k = 1; k < TOML_MAX_DEPTH; k++) {
            assert_int_equal(toml_array_size(v), 1);
            v = toml_array_get(v, 0);
        }
        assert_int_equal(toml_kind(v), TOML_ARRAY);
        assert_int_equal(toml_array_size(v), 0);
    }
    toml_doc_free(doc);
    free(text);
}

static void test_deep_inline_tables(void **state)
{
    const size_t n = 100000;
    char *text;

    (void)state;
    /* a={a={a={... : every level is "a={" (3 columns) after "x = ". */
    text = repeat("x = ", "{a=", n, "");
    expect_error(text, 1, 5 + 3 * TOML_MAX_DEPTH, "nested too deeply");
    free(text);
    /* Mixed arrays and inline tables share the limit. */
    text = repeat("x = ", "[{a=", n, "");
    expect_error(text, 1, 5 + 4 * (TOML_MAX_DEPTH / 2), "nested too deeply");
    free(text);
}

/* Tables nested by long headers and dotted keys need no recursion. */
static void test_deep_tables(void **state)
{
    /* As deep as a header or a dotted key may go (each part is a table). */
    const size_t n = TOML_MAX_KEY_PARTS;
    char *text, *dotted, *both;
    struct toml_doc *doc;
    const struct toml_value *v;
    size_t k;

    (void)state;
    text = repeat("[a", ".a", n - 1, "]\nx = 1\n");
    doc = parse_ok(text);
    v = toml_doc_root(doc);
    for (k = 0; k < n; k++) {
        v = toml_table_get(v, "a");
        assert_non_null(v);
    }
    assert_int_equal(toml_integer(toml_table_get(v, "x")), 1);
    toml_doc_free(doc);

    dotted = repeat("b", ".b", n - 1, " = 2\n");
    doc = parse_ok(dotted);
    toml_doc_free(doc);

    /* Errors deep inside still report positions. */
    size_t length = strlen(text);
    both = malloc(2 * length + 1);
    assert_non_null(both);
    memcpy(both, text, length);
    memcpy(both + length, text, length + 1);
    expect_error(both, 3, 1, "duplicate table");
    free(both);
    free(text);
    free(dotted);

    /* One part more is refused at that part: two million parts took over
     * a gigabyte before the limit. */
    text = repeat("[a", ".a", n, "]\n");
    expect_error(text, 1, (unsigned)(2 + 2 * n), "of more than 128 parts");
    dotted = repeat("b", ".b", n, " = 2\n");
    expect_error(dotted, 1, (unsigned)(1 + 2 * n), "of more than 128 parts");
    free(dotted);
    free(text);
}

static void test_huge_inputs(void **state)
{
    const size_t nkeys = 200000, nelems = TOML_MAX_VALUES, slen = 8u << 20;
    size_t len = nkeys * 32 + 64, o = 0, k;
    char *text = malloc(len);
    struct toml_doc *doc;
    const struct toml_value *root, *v;

    (void)state;
    assert_non_null(text);
    /* Many keys in one table: lookups must stay fast and order kept. */
    for (k = 0; k < nkeys; k++)
        o += (size_t)snprintf(text + o, len - o, "key%zu = %zu\n", k, k);
    doc = parse_exact(text, o, NULL);
    assert_non_null(doc);
    root = toml_doc_root(doc);
    assert_int_equal(toml_table_size(root), nkeys);
    for (k = 0; k < nkeys; k += 997) {
        char name[32];
        const char *key;

        snprintf(name, sizeof name, "key%zu", k);
        assert_int_equal(toml_integer(toml_table_get(root, name)), (int64_t)k);
        toml_table_entry(root, k, &key, NULL, NULL);
        assert_string_equal(key, name);
    }
    toml_doc_free(doc);
    /* ... and a duplicate at the very end is found. */
    o += (size_t)snprintf(text + o, len - o, "key12345 = 0\n");
    expect_error_n(text, o, (unsigned)nkeys + 1, 1, "first defined at 12346:1");
    free(text);

    /* One array with as many elements as fit (the root and the array are
     * values too) on one line. */
    text = repeat("a = [", "1,", nelems - 3, "2]\n");
    doc = parse_ok(text);
    v = path(doc, "a");
    assert_int_equal(toml_array_size(v), nelems - 2);
    assert_pos(toml_value_pos(toml_array_get(v, nelems - 3)), 1,
               (unsigned)(6 + 2 * (nelems - 3)));
    toml_doc_free(doc);
    free(text);
    /* One more is refused where it starts. */
    text = repeat("a = [", "1,", nelems - 2, "2]\n");
    expect_error(text, 1, (unsigned)(6 + 2 * (nelems - 2)), "more than 1000000 values");
    free(text);

    /* An 8 MiB string, and an error after it on the same line. */
    text = malloc(slen + 32);
    assert_non_null(text);
    memcpy(text, "s = \"", 5);
    memset(text + 5, 'x', slen);
    memcpy(text + 5 + slen, "\"\n", 3);
    doc = parse_ok(text);
    {
        size_t l;

        toml_string(path(doc, "s"), &l);
        assert_int_equal(l, slen);
    }
    toml_doc_free(doc);
    memcpy(text + 5 + slen, "\" x\n", 5);
    expect_error(text, 1, (unsigned)(slen + 8), "expected a newline");
    free(text);
}

/* ------------------------------------------------------------------ */
/* Spans and table origins, which the allowlist editor relies on      */

static void assert_span(const char *text, struct toml_span span, const char *want)
{
    size_t length = strlen(want);

    if (span.end - span.start != length || memcmp(text + span.start, want, length) != 0)
        fail_msg("span [%zu, %zu) is '%.*s', expected '%s'", span.start, span.end,
                 (int)(span.end - span.start), text + span.start, want);
}

static void test_spans_and_origins(void **state)
{
    static const char text[] =
        "\xEF\xBB\xBF" "top = 'x'  # c\n"
        "[a.b]\n"
        "list = [ 1,\n  \"two\" , ]\n"
        "inl = { k = 1979-05-27, d.e = true }\n"
        "x.y = 1e3\n"
        "\"quoted key\" = 0x0\n"
        "[[arr]]\n"
        "[a]\n";
    struct toml_error err;
    struct toml_doc *doc = toml_parse(text, sizeof text - 1, &err);
    const struct toml_value *root, *ab, *list, *v;

    (void)state;
    if (!doc)
        fail_msg("%u:%u: %s", err.pos.line, err.pos.column, err.message);
    root = toml_doc_root(doc);
    assert_int_equal(toml_table_origin(root), TOML_TABLE_ROOT);
    assert_span(text, toml_value_span(path(doc, "top")), "'x'");
    assert_span(text, toml_table_key_span(root, 0), "top");
    ab = path(doc, "a.b");
    assert_int_equal(toml_table_origin(ab), TOML_TABLE_HEADER);
    assert_span(text, toml_value_span(ab), "[a.b]");
    /* a was implicit, then defined by [a] at the end. */
    assert_int_equal(toml_table_origin(path(doc, "a")), TOML_TABLE_HEADER);
    assert_span(text, toml_value_span(path(doc, "a")), "[a]");
    list = path(doc, "a.b.list");
    assert_span(text, toml_value_span(list), "[ 1,\n  \"two\" , ]");
    assert_span(text, toml_value_span(toml_array_get(list, 1)), "\"two\"");
    v = path(doc, "a.b.inl");
    assert_int_equal(toml_table_origin(v), TOML_TABLE_INLINE);
    assert_span(text, toml_value_span(v), "{ k = 1979-05-27, d.e = true }");
    assert_span(text, toml_value_span(path(doc, "a.b.inl.k")), "1979-05-27");
    assert_int_equal(toml_table_origin(path(doc, "a.b.inl.d")), TOML_TABLE_INLINE);
    v = path(doc, "a.b.x");
    assert_int_equal(toml_table_origin(v), TOML_TABLE_DOTTED);
    assert_span(text, toml_value_span(v), "x");
    assert_span(text, toml_value_span(path(doc, "a.b.x.y")), "1e3");
    assert_span(text, toml_table_key_span(ab, 3), "\"quoted key\"");
    assert_span(text, toml_value_span(toml_table_get(ab, "quoted key")), "0x0");
    assert_int_equal(toml_table_key_span(ab, 4).end, 0);
    v = path(doc, "arr");
    assert_span(text, toml_value_span(v), "[[arr]]");
    assert_int_equal(toml_table_origin(toml_array_get(v, 0)), TOML_TABLE_HEADER);
    assert_int_equal(toml_table_origin(list), TOML_TABLE_ROOT); /* not a table */
    toml_doc_free(doc);

    doc = toml_parse("[p.q]\n", 6, &err);
    assert_non_null(doc);
    assert_int_equal(toml_table_origin(path(doc, "p")), TOML_TABLE_IMPLICIT);
    assert_span("[p.q]\n", toml_value_span(path(doc, "p")), "p");
    toml_doc_free(doc);
}

/* Text quoted in messages is escaped: no terminal control, no bidi
 * override, and nothing cut inside a character. */
static void test_messages_are_escaped(void **state)
{
    (void)state;
    expect_error("'x\xE2\x80\xAE' = 1\n'x\xE2\x80\xAE' = 2\n", 2, 1,
                 "duplicate key '\"x\\u202e\"'");
    expect_error("\xE2\x80\xAE = 1\n", 1, 1, "found '\\u202e' (U+202E)");
    expect_error("\"\\u001b[2J\" = 1\n\"\\u001b[2J\" = 2\n", 2, 1,
                 "duplicate key '\"\\x1b[2J\"'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_containers),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_empty_and_null),
        cmocka_unit_test(test_integer_limits),
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_float_locale),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_error_positions),
        cmocka_unit_test(test_error_message_bounds),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_deep_arrays),
        cmocka_unit_test(test_deep_inline_tables),
        cmocka_unit_test(test_deep_tables),
        cmocka_unit_test(test_huge_inputs),
        cmocka_unit_test(test_spans_and_origins),
        cmocka_unit_test(test_messages_are_escaped),
    };

    return cmocka_run_group_tests_name("toml", tests, NULL, NULL);
}
