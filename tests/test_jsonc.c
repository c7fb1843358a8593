/* Unit tests for the JSON-with-comments reader (core/read/jsonc.c). */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonc.h"
#include "sandlint/plugin.h"
#include "yaml_model.h"

static struct yaml_model model;
static struct comment_list comments;

static int setup(void **state)
{
    (void)state;
    comment_list_init(&comments);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    model_release(&model);
    comment_list_release(&comments);
    return 0;
}

static enum model_status parse_bytes(const char *text, size_t length)
{
    model_release(&model);
    comment_list_release(&comments);
    return jsonc_parse(&model, text, length, NULL, &comments);
}

static const struct sl_node *parse_ok(const char *text)
{
    enum model_status status = parse_bytes(text, strlen(text));
    if (status != MODEL_OK)
        fail_msg("'%s' failed at %u:%u: %s", text, model.error.line, model.error.column,
                 model.error.message);
    assert_int_equal(model.document_count, 1);
    return model.documents[0];
}

static const struct sl_node *get(const struct sl_node *map, const char *key)
{
    return model_mapping_get(map, key, strlen(key), NULL);
}

static void assert_span(const struct sl_node *node, unsigned line, unsigned column,
                        unsigned end_line, unsigned end_column)
{
    assert_non_null(node);
    assert_int_equal(node->line, line);
    assert_int_equal(node->column, column);
    assert_int_equal(node->end_line, end_line);
    assert_int_equal(node->end_column, end_column);
}

static void assert_scalar(const struct sl_node *node, int style, const char *text,
                          size_t length)
{
    assert_non_null(node);
    assert_int_equal(node->kind, SL_NODE_SCALAR);
    assert_int_equal(node->style, style);
    assert_int_equal(node->u.scalar.length, length);
    assert_memory_equal(node->u.scalar.text, text, length);
    assert_int_equal(node->u.scalar.text[length], '\0');
}

/* A growing text for the generated inputs. */
struct text {
    char *data;
    size_t length, capacity;
};

static void text_init(struct text *text)
{
    text->data = NULL;
    text->length = 0;
    text->capacity = 0;
}

static void text_release(struct text *text)
{
    free(text->data);
    text_init(text);
}

static void text_printf(struct text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int needed = vsnprintf(NULL, 0, format, args);
    va_end(args);
    assert_true(needed >= 0);
    if (text->length + (size_t)needed + 1 > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 256;
        while (text->length + (size_t)needed + 1 > capacity)
            capacity *= 2;
        text->data = realloc(text->data, capacity);
        assert_non_null(text->data);
        text->capacity = capacity;
    }
    va_start(args, format);
    vsnprintf(text->data + text->length, (size_t)needed + 1, format, args);
    va_end(args);
    text->length += (size_t)needed;
}

static void text_add(struct text *text, const char *piece)
{
    text_printf(text, "%s", piece);
}

/* ---- a JSON Test Suite-style table -------------------------------------- */

/* y_: must be read; n_: must be refused at line:column with the message
 * holding the fragment.  length 0 means strlen(text). */
struct table_case {
    const char *name;
    const char *text;
    size_t length;
    unsigned line, column;
    const char *fragment;
};

static const struct table_case accepted[] = {
    { "y_object_empty", "{}", 0, 0, 0, NULL },
    { "y_array_empty", "[]", 0, 0, 0, NULL },
    { "y_nested_empty", "[[],[[]],{},{\"a\":{}}]", 0, 0, 0, NULL },
    { "y_string_empty", "\"\"", 0, 0, 0, NULL },
    { "y_number_zero", "0", 0, 0, 0, NULL },
    { "y_number_minus_zero", "-0", 0, 0, 0, NULL },
    { "y_number_negative", "-123", 0, 0, 0, NULL },
    { "y_number_fraction", "1.5", 0, 0, 0, NULL },
    { "y_number_exponent", "[1e10,1E+10,1e-10,-0.0e-0,2E5]", 0, 0, 0, NULL },
    { "y_number_huge", "123456789012345678901234567890e999999", 0, 0, 0, NULL },
    { "y_true", "true", 0, 0, 0, NULL },
    { "y_false", "false", 0, 0, 0, NULL },
    { "y_null", "null", 0, 0, 0, NULL },
    { "y_whitespace", " \t\r\n[ 1 ,\t2\r\n]\n\n", 0, 0, 0, NULL },
    { "y_escapes", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", 0, 0, 0, NULL },
    { "y_unicode_escapes", "\"\\u0041\\u00e9\\u20AC\\uFFFF\"", 0, 0, 0, NULL },
    { "y_surrogate_pair", "\"\\ud83d\\ude00\"", 0, 0, 0, NULL },
    { "y_surrogate_pair_upper", "\"\\uD834\\uDD1E\"", 0, 0, 0, NULL },
    { "y_escaped_nul", "\"\\u0000\"", 0, 0, 0, NULL },
    { "y_raw_utf8", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", 0, 0, 0, NULL },
    { "y_raw_del", "\"\x7f\"", 0, 0, 0, NULL },
    { "y_raw_line_separator", "\"a\xe2\x80\xa8" "b\"", 0, 0, 0, NULL },
    { "y_bom", "\xef\xbb\xbf{}", 0, 0, 0, NULL },
    { "y_trailing_comma_array", "[1,]", 0, 0, 0, NULL },
    { "y_trailing_comma_object", "{\"a\":1,}", 0, 0, 0, NULL },
    { "y_trailing_comma_nested", "[[1,],{\"a\":[],},]", 0, 0, 0, NULL },
    { "y_line_comment_before", "// c\n{}", 0, 0, 0, NULL },
    { "y_line_comment_at_end", "{} // c", 0, 0, 0, NULL },
    { "y_line_comment_cr", "[1, // c\r2]", 0, 0, 0, NULL },
    { "y_block_comment", "/* c */{}", 0, 0, 0, NULL },
    { "y_block_comment_empty", "/**/[]", 0, 0, 0, NULL },
    { "y_block_comment_stars", "/* ** / * */[]", 0, 0, 0, NULL },
    { "y_block_comment_lines", "/*\n a\n*/\n[]", 0, 0, 0, NULL },
    { "y_comments_between_tokens",
      "{\"a\"/*x*/:/*y*/1/*z*/,/*w*/\"b\"//v\n:2}", 0, 0, 0, NULL },
    { "y_comment_markers_in_string", "\"http://x/*y*/ // z\"", 0, 0, 0, NULL },
    { "y_duplicate_keys", "{\"a\":1,\"a\":2}", 0, 0, 0, NULL },
    { "y_key_with_nul", "{\"a\\u0000b\":1}", 0, 0, 0, NULL },
    { "y_top_level_string_with_spaces", "  \"x\"  ", 0, 0, 0, NULL },
};

static const struct table_case refused[] = {
    { "n_empty", "", 0, 1, 1, "holds no value" },
    { "n_only_space", "  \n ", 0, 2, 2, "holds no value" },
    { "n_only_comment", "// x", 0, 1, 5, "holds no value" },
    { "n_comma_only_array", "[,]", 0, 1, 2, "unexpected ','" },
    { "n_comma_only_object", "{,}", 0, 1, 2, "unexpected ','" },
    { "n_double_comma", "[1,,2]", 0, 1, 4, "unexpected ','" },
    { "n_leading_comma", "[,1]", 0, 1, 2, "unexpected ','" },
    { "n_double_trailing_comma", "{\"a\":1,,}", 0, 1, 8, "unexpected ','" },
    { "n_missing_comma", "[1 2]", 0, 1, 4, "',' or ']'" },
    { "n_missing_colon", "{\"a\" 1}", 0, 1, 6, "':' after the key" },
    { "n_key_unquoted", "{a:1}", 0, 1, 2, "a key in double quotes" },
    { "n_key_number", "{1:1}", 0, 1, 2, "a key in double quotes" },
    { "n_single_quotes", "['a']", 0, 1, 2, "unexpected '''" },
    { "n_unclosed_array", "[1", 0, 1, 3, "text ends" },
    { "n_unclosed_array_empty", "[", 0, 1, 2, "text ends" },
    { "n_unclosed_object", "{\"a\":1", 0, 1, 7, "text ends" },
    { "n_unclosed_object_value", "{\"a\":", 0, 1, 6, "text ends" },
    { "n_unclosed_string", "[\"abc", 0, 1, 2, "string is not closed" },
    { "n_unclosed_string_escape", "\"abc\\", 0, 1, 5, "string is not closed" },
    { "n_escape_x", "\"\\x41\"", 0, 1, 2, "invalid escape" },
    { "n_escape_a", "\"a\\a\"", 0, 1, 3, "invalid escape" },
    { "n_escape_capital_u", "\"\\U0041\"", 0, 1, 2, "invalid escape" },
    { "n_escape_short_u", "\"\\u12\"", 0, 1, 2, "four hexadecimal digits" },
    { "n_escape_bad_hex", "\"\\u12G4\"", 0, 1, 2, "four hexadecimal digits" },
    { "n_lone_high_surrogate", "\"\\ud83d\"", 0, 1, 2, "high surrogate" },
    { "n_high_then_text", "\"\\ud83dx\"", 0, 1, 2, "high surrogate" },
    { "n_high_then_bmp", "\"\\ud83d\\u0041\"", 0, 1, 2, "high surrogate" },
    { "n_two_highs", "\"\\ud83d\\ud83d\"", 0, 1, 2, "high surrogate" },
    { "n_lone_low_surrogate", "[\"ab\\ude00\"]", 0, 1, 5, "low surrogate" },
    { "n_raw_newline_in_string", "\"a\nb\"", 0, 1, 3, "control character U+000A" },
    { "n_raw_tab_in_string", "\"a\tb\"", 0, 1, 3, "control character U+0009" },
    { "n_raw_control_in_string", "\"\x01\"", 0, 1, 2, "control character U+0001" },
    { "n_leading_zero", "01", 0, 1, 1, "cannot start with 0" },
    { "n_minus_alone", "-", 0, 1, 1, "'-' must be followed" },
    { "n_minus_minus", "--1", 0, 1, 1, "'-' must be followed" },
    { "n_plus", "+1", 0, 1, 1, "unexpected '+'" },
    { "n_dot_first", ".5", 0, 1, 1, "unexpected '.'" },
    { "n_dot_last", "1.", 0, 1, 1, "'.' in a number" },
    { "n_exponent_empty", "1e", 0, 1, 1, "exponent" },
    { "n_exponent_sign_only", "[1e+]", 0, 1, 2, "exponent" },
    { "n_hex", "0x10", 0, 1, 1, "cannot follow it" },
    { "n_two_dots", "1.5.5", 0, 1, 1, "cannot follow it" },
    { "n_underscore", "1_000", 0, 1, 1, "cannot follow it" },
    { "n_infinity", "Infinity", 0, 1, 1, "expected a value" },
    { "n_nan", "[NaN]", 0, 1, 2, "expected a value" },
    { "n_true_capital", "True", 0, 1, 1, "expected a value" },
    { "n_nul_word", "nul", 0, 1, 1, "expected a value" },
    { "n_nulls", "nulls", 0, 1, 1, "expected a value" },
    { "n_undefined", "{\"a\":undefined}", 0, 1, 6, "expected a value" },
    { "n_two_values", "[] []", 0, 1, 4, "one JSON value per file" },
    { "n_trailing_word", "{}x", 0, 1, 3, "one JSON value per file" },
    { "n_two_numbers", "1 2", 0, 1, 3, "one JSON value per file" },
    { "n_unclosed_comment", "/* x", 0, 1, 1, "comment is not closed" },
    { "n_unclosed_comment_in_array", "[1 /* x ]", 0, 1, 4, "comment is not closed" },
    { "n_slash_alone", "/ {}", 0, 1, 1, "does not start a comment" },
    { "n_slash_division", "[1/2]", 0, 1, 3, "does not start a comment" },
    { "n_hash_comment", "# c\n{}", 0, 1, 1, "unexpected '#'" },
    { "n_nul_outside", "[\0]", 3, 1, 2, "NUL byte" },
    { "n_nul_in_string", "\"a\0\"", 4, 1, 3, "NUL byte" },
    { "n_nul_in_comment", "// \0\n{}", 7, 1, 4, "NUL byte" },
    { "n_invalid_utf8_in_string", "\"a\xff\"", 0, 1, 3, "not valid UTF-8" },
    { "n_truncated_utf8_in_string", "\"\xc3\"", 0, 1, 2, "not valid UTF-8" },
    { "n_invalid_utf8_outside", "[\xff]", 0, 1, 2, "not valid UTF-8" },
    { "n_invalid_utf8_in_comment", "/* \xc0\xaf */{}", 0, 1, 4, "not valid UTF-8" },
    { "n_surrogate_utf8_in_string", "\"\xed\xa0\x80\"", 0, 1, 2, "not valid UTF-8" },
    { "n_bom_inside", "[\xef\xbb\xbf]", 0, 1, 2, "U+FEFF" },
    { "n_nbsp_as_space", "\xc2\xa0[]", 0, 1, 1, "U+00A0" },
    { "n_mismatched_close_array", "[1}", 0, 1, 3, "',' or ']'" },
    { "n_mismatched_close_object", "{\"a\":1]", 0, 1, 7, "',' or '}'" },
    { "n_close_in_key_position", "{]", 0, 1, 2, "a key in double quotes or '}'" },
    { "n_close_in_item_position", "[}", 0, 1, 2, "unexpected '}'" },
    { "n_colon_in_array", "[1:2]", 0, 1, 3, "',' or ']'" },
    { "n_close_only", "]", 0, 1, 1, "unexpected ']'" },
    { "n_error_on_later_line", "{\n  \"a\": 1,\n  \"b\" 2\n}", 0, 3, 7, "':' after the key" },
    { "n_error_after_multibyte", "[\"\xc3\xa9\xe2\x82\xac\" x]", 0, 1, 7, "',' or ']'" },
};

static void test_table_accepted(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
        const struct table_case *c = &accepted[i];
        size_t length = c->length ? c->length : strlen(c->text);
        if (parse_bytes(c->text, length) != MODEL_OK)
            fail_msg("%s: refused at %u:%u: %s", c->name, model.error.line,
                     model.error.column, model.error.message);
        assert_int_equal(model.document_count, 1);
    }
}

static void test_table_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        const struct table_case *c = &refused[i];
        size_t length = c->length ? c->length : strlen(c->text);
        if (parse_bytes(c->text, length) == MODEL_OK)
            fail_msg("%s: accepted", c->name);
        assert_int_equal(model.status, MODEL_SYNTAX_ERROR);
        assert_int_equal(model.document_count, 0);
        assert_null(model.documents);
        if (model.error.line != c->line || model.error.column != c->column ||
            strstr(model.error.message, c->fragment) == NULL)
            fail_msg("%s: got %u:%u '%s', expected %u:%u '%s'", c->name, model.error.line,
                     model.error.column, model.error.message, c->line, c->column,
                     c->fragment);
    }
}

/* ---- the tree ----------------------------------------------------------- */

static void test_styles_and_nulls(void **state)
{
    (void)state;
    const struct sl_node *root =
        parse_ok("{\"s\": \"x\", \"n\": 12.50, \"t\": true, \"f\": false, \"z\": null, "
                 "\"e\": \"\", \"q\": \"null\", \"a\": [], \"o\": {}}");
    assert_int_equal(root->kind, SL_NODE_MAPPING);
    assert_int_equal(root->style, SL_STYLE_FLOW);
    assert_int_equal(root->u.mapping.count, 9);
    assert_scalar(get(root, "s"), SL_STYLE_DOUBLE_QUOTED, "x", 1);
    assert_scalar(get(root, "n"), SL_STYLE_PLAIN, "12.50", 5);
    assert_scalar(get(root, "t"), SL_STYLE_PLAIN, "true", 4);
    assert_scalar(get(root, "f"), SL_STYLE_PLAIN, "false", 5);
    assert_scalar(get(root, "z"), SL_STYLE_PLAIN, "null", 4);
    assert_true(model_is_null(get(root, "z")));
    /* An empty or a quoted "null" string is a string, as in YAML. */
    assert_false(model_is_null(get(root, "e")));
    assert_false(model_is_null(get(root, "q")));
    assert_false(model_is_null(get(root, "t")));
    assert_int_equal(get(root, "a")->kind, SL_NODE_SEQUENCE);
    assert_int_equal(get(root, "a")->style, SL_STYLE_FLOW);
    assert_int_equal(get(root, "a")->u.sequence.count, 0);
    assert_int_equal(get(root, "o")->kind, SL_NODE_MAPPING);
    assert_int_equal(get(root, "o")->u.mapping.count, 0);
    for (size_t i = 0; i < root->u.mapping.count; i++) {
        assert_int_equal(root->u.mapping.pairs[i].flags, 0);
        assert_null(root->u.mapping.pairs[i].key->tag);
        assert_int_equal(root->u.mapping.pairs[i].key->style, SL_STYLE_DOUBLE_QUOTED);
    }
}

static void test_positions(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok("{\n  \"runArgs\": [\"--privileged\", 1],\n"
                                          "  \"x\": {\"y\": null}\n}\n");
    assert_span(root, 1, 1, 4, 2);
    const struct sl_node *key;
    const struct sl_node *args = model_mapping_get(root, "runArgs", 7, &key);
    assert_span(key, 2, 3, 2, 12);
    assert_span(args, 2, 14, 2, 33);
    assert_span(args->u.sequence.items[0], 2, 15, 2, 29);
    assert_span(args->u.sequence.items[1], 2, 31, 2, 32);
    const struct sl_node *x = get(root, "x");
    assert_span(x, 3, 8, 3, 19);
    assert_span(get(x, "y"), 3, 14, 3, 18);
}

/* Columns count code points, as libyaml's do; CR LF is one line break. */
static void test_columns_count_code_points(void **state)
{
    (void)state;
    const struct sl_node *root =
        parse_ok("\xef\xbb\xbf[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\", \"\\u00e9\",\r\n 2]");
    assert_span(root, 1, 1, 2, 4);
    assert_span(root->u.sequence.items[0], 1, 2, 1, 7);
    assert_scalar(root->u.sequence.items[0], SL_STYLE_DOUBLE_QUOTED,
                  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9);
    assert_span(root->u.sequence.items[1], 1, 9, 1, 17);
    assert_span(root->u.sequence.items[2], 2, 2, 2, 3);
}

static void test_escapes_decode(void **state)
{
    (void)state;
    const struct sl_node *root = parse_ok(
        "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\ud83d\\ude00\", \"\\uD834\\uDD1E\", "
        "\"a\\u0000b\", \"\\u00e9\\u20ac\\uffff\"]");
    assert_scalar(root->u.sequence.items[0], SL_STYLE_DOUBLE_QUOTED, "\"\\/\b\f\n\r\t", 8);
    assert_scalar(root->u.sequence.items[1], SL_STYLE_DOUBLE_QUOTED,
                  "\xf0\x9f\x98\x80", 4);
    assert_scalar(root->u.sequence.items[2], SL_STYLE_DOUBLE_QUOTED,
                  "\xf0\x9d\x84\x9e", 4);
    assert_scalar(root->u.sequence.items[3], SL_STYLE_DOUBLE_QUOTED, "a\0b", 3);
    assert_scalar(root->u.sequence.items[4], SL_STYLE_DOUBLE_QUOTED,
                  "\xc3\xa9\xe2\x82\xac\xef\xbf\xbf", 8);
    /* Positions are those of the text as written, escapes and all. */
    assert_span(root->u.sequence.items[1], 1, 22, 1, 36);
}

/* The later of duplicate keys wins, with its own key node, at the place
 * of the first - what the YAML model does. */
static void test_duplicate_keys(void **state)
{
    (void)state;
    const struct sl_node *root =
        parse_ok("{\"a\": 1, \"b\": 2, \"a\": 3, \"c\": 4, \"b\": 5, \"a\": 6}");
    assert_int_equal(root->u.mapping.count, 3);
    const struct model_pair *pairs = root->u.mapping.pairs;
    assert_scalar(pairs[0].key, SL_STYLE_DOUBLE_QUOTED, "a", 1);
    assert_scalar(pairs[0].value, SL_STYLE_PLAIN, "6", 1);
    assert_int_equal(pairs[0].key->column, 42);
    assert_scalar(pairs[1].key, SL_STYLE_DOUBLE_QUOTED, "b", 1);
    assert_scalar(pairs[1].value, SL_STYLE_PLAIN, "5", 1);
    assert_scalar(pairs[2].key, SL_STYLE_DOUBLE_QUOTED, "c", 1);

    /* The same answer from the sorting path of large mappings. */
    struct text text;
    text_init(&text);
    text_add(&text, "{");
    for (int i = 0; i < 50; i++)
        text_printf(&text, "\"k%d\": %d, ", i % 20, i);
    text_add(&text, "\"k\\u0000\": 1, \"k\": 2}");
    root = parse_ok(text.data);
    assert_int_equal(root->u.mapping.count, 22);
    for (int i = 0; i < 20; i++) {
        char key[8];
        snprintf(key, sizeof(key), "k%d", i);
        const struct model_pair *pair = &root->u.mapping.pairs[i];
        assert_string_equal(pair->key->u.scalar.text, key);
        char value[8];
        snprintf(value, sizeof(value), "%d", i < 10 ? i + 40 : i + 20);
        assert_string_equal(pair->value->u.scalar.text, value);
    }
    /* A key with a NUL byte is not the key before the NUL. */
    assert_int_equal(root->u.mapping.pairs[20].key->u.scalar.length, 2);
    assert_int_equal(root->u.mapping.pairs[21].key->u.scalar.length, 1);
    text_release(&text);
}

/* libyaml refuses keys over 1,024 characters; JSON has no such limit. */
static void test_long_keys(void **state)
{
    (void)state;
    size_t length = 200000;
    char *text = malloc(length + 32);
    assert_non_null(text);
    size_t at = 0;
    text[at++] = '{';
    text[at++] = '"';
    memset(text + at, 'k', length);
    at += length;
    memcpy(text + at, "\": true}", 9);
    assert_int_equal(parse_bytes(text, strlen(text)), MODEL_OK);
    const struct sl_node *key = model.documents[0]->u.mapping.pairs[0].key;
    assert_int_equal(key->u.scalar.length, length);
    assert_span(key, 1, 2, 1, (unsigned)length + 4);
    /* The YAML model cannot read it: the reason for this reader. */
    struct yaml_model yaml;
    assert_int_not_equal(model_parse(&yaml, text, strlen(text), NULL), MODEL_OK);
    model_release(&yaml);
    free(text);
}

/* ---- comments ----------------------------------------------------------- */

static void test_comment_spans(void **state)
{
    (void)state;
    const char *text =
        "// sandlint: ignore[SBX001] -- lab machine\n"      /* 1 */
        "{\n"                                               /* 2 */
        "  \"privileged\": true, // trailing\n"             /* 3 */
        "  /* block\n"                                      /* 4 */
        "     over lines */ \"init\": \"/* not */ // not\"\n" /* 5 */
        "  /**/ /* two */ // three\n"                       /* 6 */
        "}";
    parse_ok(text);
    assert_int_equal(comments.count, 6);
    const struct comment_span *c = comments.items;
    assert_int_equal(c[0].offset, 0);
    assert_int_equal(c[0].length, 42);
    assert_false(c[0].block);
    assert_true(c[0].own_line);
    assert_int_equal(c[0].line, 1);
    assert_int_equal(c[0].column, 1);
    assert_int_equal(c[0].end_line, 1);
    assert_int_equal(c[0].end_column, 43);
    assert_int_equal(c[0].text_length, 40);
    assert_memory_equal(text + c[0].text_offset, " sandlint: ignore[SBX001] -- lab machine", 40);

    assert_false(c[1].own_line);
    assert_int_equal(c[1].line, 3);
    assert_int_equal(c[1].column, 23);
    assert_memory_equal(text + c[1].text_offset, " trailing", 9);

    assert_true(c[2].block);
    assert_true(c[2].own_line);
    assert_int_equal(c[2].line, 4);
    assert_int_equal(c[2].column, 3);
    assert_int_equal(c[2].end_line, 5);
    assert_int_equal(c[2].end_column, 19);
    assert_memory_equal(text + c[2].text_offset, " block\n     over lines ", 23);
    assert_int_equal(c[2].text_length, 23);

    /* Comments after a comment on a line of no JSON still stand alone. */
    assert_int_equal(c[3].text_length, 0);
    assert_true(c[3].own_line);
    assert_true(c[4].own_line);
    assert_true(c[5].own_line);
    assert_int_equal(c[5].line, 6);
    assert_int_equal(c[5].column, 18);
    assert_memory_equal(text + c[5].text_offset, " three", 6);
    /* Nothing inside the string was taken for a comment. */
    assert_scalar(get(model.documents[0], "init"), SL_STYLE_DOUBLE_QUOTED,
                  "/* not */ // not", 16);
}

static void test_comments_without_a_list(void **state)
{
    (void)state;
    model_release(&model);
    assert_int_equal(jsonc_parse(&model, "// a\n[1] /* b */", 16, NULL, NULL), MODEL_OK);
}

/* ---- the YAML model as the oracle --------------------------------------- */

struct generator {
    uint64_t state;
    struct text text;
};

static unsigned random_below(struct generator *g, unsigned bound)
{
    g->state = g->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((g->state >> 33) % bound);
}

static void random_space(struct generator *g)
{
    static const char *const spaces[] = { "", "", "", " ", "  ", "\n", "\n  ", "\r\n", " \n " };
    text_add(&g->text, spaces[random_below(g, 9)]);
}

static void random_string(struct generator *g)
{
    static const char *const pieces[] = {
        "a", "b", "Z", "0", " ", "-", ":", "#", "'", "\\\"", "\\\\", "\\n", "\\t", "\\/",
        "\\u00e9", "\\u20AC", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "{", "]", ",",
    };
    text_add(&g->text, "\"");
    unsigned count = random_below(g, 8);
    for (unsigned i = 0; i < count; i++)
        text_add(&g->text, pieces[random_below(g, sizeof(pieces) / sizeof(pieces[0]))]);
    text_add(&g->text, "\"");
}

static void random_value(struct generator *g, unsigned depth)
{
    static const char *const scalars[] = {
        "0", "-1", "12.5", "1e5", "-0.25E-3", "true", "false", "null", "123456789012",
    };
    unsigned choice = random_below(g, depth > 4 ? 6 : 10);
    if (choice < 3) {
        text_add(&g->text, scalars[random_below(g, 9)]);
    } else if (choice < 6) {
        random_string(g);
    } else if (choice < 8) {
        text_add(&g->text, "[");
        unsigned count = random_below(g, 5);
        for (unsigned i = 0; i < count; i++) {
            random_space(g);
            random_value(g, depth + 1);
            random_space(g);
            if (i + 1 < count)
                text_add(&g->text, ",");
        }
        text_add(&g->text, "]");
    } else {
        text_add(&g->text, "{");
        unsigned count = random_below(g, 5);
        for (unsigned i = 0; i < count; i++) {
            random_space(g);
            /* Few distinct keys, so duplicates happen. */
            text_printf(&g->text, "\"k%u\"", random_below(g, 6));
            random_space(g);
            text_add(&g->text, ":");
            random_space(g);
            random_value(g, depth + 1);
            random_space(g);
            if (i + 1 < count)
                text_add(&g->text, ",");
        }
        text_add(&g->text, "}");
    }
}

/* Whether two trees are the same: kinds, styles, texts, positions. */
static bool same_tree(const struct sl_node *a, const struct sl_node *b, char *why, size_t size)
{
    if (a->kind != b->kind || a->style != b->style || a->null_value != b->null_value ||
        a->line != b->line || a->column != b->column || a->end_line != b->end_line ||
        a->end_column != b->end_column) {
        snprintf(why, size, "node at %u:%u-%u:%u kind %d style %d, YAML %u:%u-%u:%u kind %d "
                 "style %d", a->line, a->column, a->end_line, a->end_column, a->kind,
                 a->style, b->line, b->column, b->end_line, b->end_column, b->kind, b->style);
        return false;
    }
    if (a->kind == SL_NODE_SCALAR) {
        if (a->u.scalar.length != b->u.scalar.length ||
            memcmp(a->u.scalar.text, b->u.scalar.text, a->u.scalar.length) != 0) {
            snprintf(why, size, "scalar at %u:%u differs", a->line, a->column);
            return false;
        }
        return true;
    }
    if (a->kind == SL_NODE_SEQUENCE) {
        if (a->u.sequence.count != b->u.sequence.count) {
            snprintf(why, size, "sequence at %u:%u has another length", a->line, a->column);
            return false;
        }
        for (size_t i = 0; i < a->u.sequence.count; i++)
            if (!same_tree(a->u.sequence.items[i], b->u.sequence.items[i], why, size))
                return false;
        return true;
    }
    if (a->u.mapping.count != b->u.mapping.count) {
        snprintf(why, size, "mapping at %u:%u has another length", a->line, a->column);
        return false;
    }
    for (size_t i = 0; i < a->u.mapping.count; i++)
        if (!same_tree(a->u.mapping.pairs[i].key, b->u.mapping.pairs[i].key, why, size) ||
            !same_tree(a->u.mapping.pairs[i].value, b->u.mapping.pairs[i].value, why, size))
            return false;
    return true;
}

/* Where libyaml reads the same JSON, the trees must be identical. */
static void test_same_tree_as_yaml_model(void **state)
{
    (void)state;
    struct generator g = { 20260519, { NULL, 0, 0 } };
    unsigned compared = 0;
    for (unsigned round = 0; round < 3000; round++) {
        text_release(&g.text);
        text_init(&g.text);
        random_space(&g);
        random_value(&g, 0);
        random_space(&g);
        const char *text = g.text.data;
        if (parse_bytes(text, g.text.length) != MODEL_OK)
            fail_msg("generated JSON refused (%s): %s", model.error.message, text);
        struct yaml_model yaml;
        if (model_parse(&yaml, text, g.text.length, NULL) == MODEL_OK &&
            yaml.document_count == 1) {
            char why[200];
            if (!same_tree(model.documents[0], yaml.documents[0], why, sizeof(why)))
                fail_msg("differs from the YAML model: %s in %s", why, text);
            compared++;
        }
        model_release(&yaml);
    }
    text_release(&g.text);
    /* The comparison must have happened, not been skipped. */
    assert_true(compared > 2000);
}

/* ---- limits and hostile input ------------------------------------------- */

static char *repeat(const char *open, size_t count, const char *middle, const char *close)
{
    size_t open_length = strlen(open), close_length = strlen(close);
    size_t total = count * (open_length + close_length) + strlen(middle) + 1;
    char *text = malloc(total);
    assert_non_null(text);
    size_t at = 0;
    for (size_t i = 0; i < count; i++, at += open_length)
        memcpy(text + at, open, open_length);
    memcpy(text + at, middle, strlen(middle));
    at += strlen(middle);
    for (size_t i = 0; i < count; i++, at += close_length)
        memcpy(text + at, close, close_length);
    text[at] = '\0';
    return text;
}

static void test_nesting_limit(void **state)
{
    (void)state;
    char *text = repeat("[", MODEL_DEFAULT_MAX_DEPTH, "1", "]");
    assert_int_equal(parse_bytes(text, strlen(text)), MODEL_OK);
    free(text);
    text = repeat("{\"a\":", MODEL_DEFAULT_MAX_DEPTH + 1, "1", "}");
    assert_int_equal(parse_bytes(text, strlen(text)), MODEL_LIMIT_EXCEEDED);
    assert_int_equal(model.error.line, 1);
    assert_int_equal(model.error.column, 5 * MODEL_DEFAULT_MAX_DEPTH + 1);
    assert_non_null(strstr(model.error.message, "nesting"));
    free(text);
    /* A million unclosed brackets: refused at the limit, no stack used. */
    text = repeat("[", 1000000, "", "");
    assert_int_equal(parse_bytes(text, strlen(text)), MODEL_LIMIT_EXCEEDED);
    free(text);
    struct model_limits limits = { 0, 3 };
    model_release(&model);
    assert_int_equal(jsonc_parse(&model, "[[[1]]]", 7, &limits, NULL), MODEL_OK);
    model_release(&model);
    assert_int_equal(jsonc_parse(&model, "[[[[1]]]]", 9, &limits, NULL), MODEL_LIMIT_EXCEEDED);
}

static void test_node_limit(void **state)
{
    (void)state;
    struct model_limits limits = { 5, 0 };
    model_release(&model);
    assert_int_equal(jsonc_parse(&model, "[1,2,3,4]", 9, &limits, NULL), MODEL_OK);
    assert_int_equal(model.node_count, 5);
    model_release(&model);
    assert_int_equal(jsonc_parse(&model, "[1,2,3,4,5]", 11, &limits, NULL),
                     MODEL_LIMIT_EXCEEDED);
    assert_int_equal(model.error.column, 10);
    assert_non_null(strstr(model.error.message, "node limit"));
}

/* Many keys, all the same or all different, a huge string and a huge
 * comment: read (in time linear in the text; make bench has no part in
 * this test, the sizes only make a quadratic reader obvious). */
static void test_large_inputs(void **state)
{
    (void)state;
    struct text text;
    text_init(&text);
    text_add(&text, "{");
    for (int i = 0; i < 200000; i++)
        text_add(&text, "\"same\":1,");
    text_add(&text, "\"same\":2}");
    assert_int_equal(parse_bytes(text.data, text.length), MODEL_OK);
    assert_int_equal(model.documents[0]->u.mapping.count, 1);
    assert_string_equal(model.documents[0]->u.mapping.pairs[0].value->u.scalar.text, "2");
    text_release(&text);

    text_init(&text);
    text_add(&text, "{");
    for (int i = 0; i < 200000; i++)
        text_printf(&text, "\"%d\":[],", (i * 7919) % 200000);
    text_add(&text, "}");
    assert_int_equal(parse_bytes(text.data, text.length), MODEL_OK);
    assert_int_equal(model.documents[0]->u.mapping.count, 200000);
    text_release(&text);

    text_init(&text);
    text_add(&text, "/*");
    for (int i = 0; i < 100000; i++)
        text_add(&text, "* / /* \xe2\x82\xac\n");
    text_add(&text, "*/ [\"");
    for (int i = 0; i < 100000; i++)
        text_add(&text, "\\ud83d\\ude00\xc3\xa9 ");
    text_add(&text, "\"]");
    assert_int_equal(parse_bytes(text.data, text.length), MODEL_OK);
    assert_int_equal(comments.count, 1);
    assert_int_equal(comments.items[0].end_line, 100001);
    const struct sl_node *string = model.documents[0]->u.sequence.items[0];
    assert_int_equal(string->u.scalar.length, 700000);
    assert_span(string, 100001, 5, 100001, 5 + 2 + 100000 * 14);
    text_release(&text);
}

/* A refused text leaves nothing behind but the error, and the model can be
 * released and read into again. */
static void test_error_leaves_no_tree(void **state)
{
    (void)state;
    assert_int_equal(parse_bytes("[1, 2, {\"a\": [3, }", 18), MODEL_SYNTAX_ERROR);
    assert_null(model.documents);
    assert_int_equal(model.document_count, 0);
    assert_null(model.arena.head);
    assert_int_equal(model.error.column, 18);
    parse_ok("[1]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_table_accepted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_styles_and_nulls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_positions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_columns_count_code_points, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escapes_decode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_duplicate_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_long_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comment_spans, setup, teardown),
        cmocka_unit_test_setup_teardown(test_comments_without_a_list, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_tree_as_yaml_model, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nesting_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_node_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large_inputs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_leaves_no_tree, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
