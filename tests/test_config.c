/* Unit tests for the configuration readers (core/config/config_file.c,
 * core/config/config_ini.c, core/config/config_toml.c): what they store, with which
 * positions, and every error at its line and column. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"
#include "terminal.h"

/* ------------------------------------------------------------------ */
/* helpers                                                             */

enum format { INI, TOML };

static int parse(struct config *config, enum format format, const char *text,
                 size_t length, struct config_error *error)
{
    config_init(config);
    error->message = NULL;
    error->redact = false;
    return format == INI ? config_parse_ini(config, text, length, error)
                         : config_parse_toml(config, text, length, error);
}

/* Parses text, which must be accepted. */
static void parse_ok(struct config *config, enum format format, const char *text)
{
    struct config_error error;
    if (parse(config, format, text, strlen(text), &error) != 0)
        fail_msg("rejected at %u:%u: %s\n--- input:\n%s", error.pos.line,
                 error.pos.column, error.message, text);
}

/* Parses length bytes, which must be rejected at line:column with a message
 * that holds needle. */
static void expect_error_n(enum format format, const char *text, size_t length,
                           unsigned line, unsigned column, const char *needle)
{
    struct config config;
    struct config_error error;
    int result = parse(&config, format, text, length, &error);
    if (result == 0)
        fail_msg("accepted:\n%.*s", (int)length, text);
    if (error.pos.line != line || error.pos.column != column ||
        strstr(error.message, needle) == NULL)
        fail_msg("input:\n%.*s\n  got      %u:%u: %s\n  expected %u:%u: ...%s...",
                 (int)length, text, error.pos.line, error.pos.column, error.message,
                 line, column, needle);
    config_error_release(&error);
    config_release(&config);
}

static void expect_error(enum format format, const char *text, unsigned line,
                         unsigned column, const char *needle)
{
    expect_error_n(format, text, strlen(text), line, column, needle);
}

static void assert_item(const struct config_item *item, const char *text,
                        unsigned line, unsigned column)
{
    assert_int_equal(item->length, strlen(text));
    assert_memory_equal(item->text, text, item->length);
    assert_int_equal(item->pos.line, line);
    assert_int_equal(item->pos.column, column);
}

/* ------------------------------------------------------------------ */
/* INI                                                                 */

/* inih keeps the name that a continuation line continues cut at 50 bytes;
 * the entry must still be filed under the whole name. */
static void test_ini_continuation_keeps_long_names(void **state)
{
    (void)state;
    const char *name = "a_package_name_that_is_well_over_fifty_bytes_long_indeed";
    char text[512];
    snprintf(text, sizeof(text), "[allowlist sandbox_privileges]\n%s = web:privileged\n"
             "    web:cap_add:SYS_ADMIN\n", name);
    struct config config;
    parse_ok(&config, INI, text);
    assert_int_equal(config.entry_count, 2);
    assert_item(&config.entries[0].scope, name, 2, 1);
    assert_item(&config.entries[1].scope, name, 2, 1);
    assert_item(&config.entries[1].key, "web:cap_add:SYS_ADMIN", 3, 5);
    config_release(&config);
}

static void test_ini_refuses_what_inih_accepts_silently(void **state)
{
    (void)state;
    expect_error(INI, "[allowlist sandbox_privileges]\n= web:privileged\n", 2, 1,
                 "missing name before '='");
    expect_error(INI, "[allowlist sandbox_privileges]\n  : web:privileged\n", 2, 3,
                 "missing name before ':'");
    expect_error(INI, "[allowlist g] junk\npkg = a:b\n", 1, 15,
                 "text after the section header: 'junk'");
    expect_error(INI, "[sandlint]]\n", 1, 11, "text after the section header: ']'");
    expect_error(INI, "[allowlist g ;x]\n", 1, 1, "without a closing ']'");
    expect_error(INI, "[allowlist]\n", 1, 1, "needs a group");
    expect_error(INI, "[rule ]\n", 1, 1, "needs a rule code");
    /* A comment may follow a header. */
    struct config config;
    parse_ok(&config, INI, "[allowlist g] ; reviewed\npkg = a:b\n[sandlint] # x\n");
    assert_int_equal(config.entry_count, 1);
    assert_item(&config.groups.items[0], "g", 1, 12);
    config_release(&config);
}

/* An indented line after a header is not a continuation (inih forgets the
 * name there), and an indented header after a setting is one. */
static void test_ini_line_kinds_as_inih_sees_them(void **state)
{
    (void)state;
    struct config config;
    parse_ok(&config, INI, "[allowlist g]\npkg = a\n  [not a header]\n\n  ; comment\n"
             "  b\n[sandlint]\n  select = SBX001\n");
    assert_int_equal(config.entry_count, 3);
    assert_item(&config.entries[1].key, "[not a header]", 3, 3);
    assert_item(&config.entries[2].key, "b", 6, 3);
    assert_int_equal(config.select.count, 1);
    assert_item(&config.select.items[0], "SBX001", 8, 12);
    config_release(&config);
    expect_error(INI, "[sandlint]\nselect\n", 2, 1, "syntax error");
    expect_error(INI, "[sandlint]\nselect ; = x\n", 2, 1, "syntax error");
    /* inih versions disagree on whether ';' starts a comment there. */
    expect_error(INI, "[allowlist g]\npkg = a\n  b ;c\n", 3, 5, "';' after a blank");
}

/* The limit is on the text of a line, whatever ends it. */
static void test_ini_line_limit_ignores_the_terminator(void **state)
{
    (void)state;
    char text[512];
    const char *endings[] = { "\n", "\r\n", "" };
    for (size_t e = 0; e < 3; e++) {
        /* "pkg = " and 192 bytes: 198 bytes of text. */
        int used = snprintf(text, sizeof(text), "[allowlist g]\r\npkg = ");
        memset(text + used, 'k', 192);
        snprintf(text + used + 192, sizeof(text) - (size_t)used - 192, "%s", endings[e]);
        struct config config;
        parse_ok(&config, INI, text);
        assert_int_equal(config.entry_count, 1);
        assert_int_equal(config.entries[0].key.length, 192);
        config_release(&config);
        used = snprintf(text, sizeof(text), "[allowlist g]\r\npkg = ");
        memset(text + used, 'k', 193);
        snprintf(text + used + 193, sizeof(text) - (size_t)used - 193, "%s", endings[e]);
        expect_error(INI, text, 2, 1, "line is 199 bytes long");
    }
}

static void test_ini_new_settings(void **state)
{
    (void)state;
    struct config config;
    parse_ok(&config, INI, "[sandlint]\nexclude = vendor/*, tests/bad/*\n"
             "extend-select = sandbox_hardening\n");
    assert_int_equal(config.exclude.count, 2);
    assert_item(&config.exclude.items[0], "vendor/*", 2, 11);
    assert_item(&config.exclude.items[1], "tests/bad/*", 2, 21);
    assert_int_equal(config.extend_select.count, 1);
    assert_item(&config.extend_select.items[0], "sandbox_hardening", 3, 17);
    config_release(&config);
}

static void test_ini_rule_options(void **state)
{
    (void)state;
    struct config config;
    parse_ok(&config, INI, "[rule SBX003]\ndepth = 3\nstrict = Yes\n"
             "paths = /a, /b\nlabel = x\n[rule  SBX104 ]\nminimum = -1\n");
    assert_int_equal(config.rule_option_count, 5);
    const struct config_rule_option *depth = config_rule_option_find(&config, "SBX003",
                                                                     "depth");
    assert_non_null(depth);
    assert_item(&depth->rule, "SBX003", 1, 7);
    assert_item(&depth->name, "depth", 2, 1);
    assert_int_equal(depth->type, CONFIG_VALUE_TEXT);
    assert_int_equal(depth->value_pos.line, 2);
    assert_int_equal(depth->value_pos.column, 9);

    struct config_error error = { NULL, { 0, 0 }, false };
    int64_t number;
    assert_int_equal(config_rule_option_integer(depth, &number, &error), 0);
    assert_int_equal(number, 3);
    bool flag;
    assert_int_equal(config_rule_option_boolean(
                         config_rule_option_find(&config, "SBX003", "strict"), &flag,
                         &error), 0);
    assert_true(flag);
    struct config_list items = { NULL, 0, 0 };
    assert_int_equal(config_rule_option_list(
                         config_rule_option_find(&config, "SBX003", "paths"), &items,
                         &error), 0);
    assert_int_equal(items.count, 2);
    assert_item(&items.items[1], "/b", 4, 13);
    config_list_release(&items);
    const char *text;
    size_t length;
    assert_int_equal(config_rule_option_string(
                         config_rule_option_find(&config, "SBX003", "label"), &text,
                         &length, &error), 0);
    assert_string_equal(text, "x");
    const struct config_rule_option *minimum =
        config_rule_option_find(&config, "SBX104", "minimum");
    assert_non_null(minimum);
    assert_item(&minimum->rule, "SBX104", 6, 8);
    assert_int_equal(config_rule_option_integer(minimum, &number, &error), 0);
    assert_int_equal(number, -1);
    assert_null(config_rule_option_find(&config, "SBX003", "nope"));
    assert_null(config_rule_option_find(&config, "SBX00", "depth"));

    /* Wrong types, at the value. */
    assert_int_equal(config_rule_option_boolean(depth, &flag, &error), -1);
    assert_non_null(strstr(error.message, "must be a boolean (true/false, yes/no, "
                                          "on/off, 1/0), not '3'"));
    config_error_release(&error);
    assert_int_equal(config_rule_option_integer(
                         config_rule_option_find(&config, "SBX003", "label"), &number,
                         &error), -1);
    assert_non_null(strstr(error.message, "option 'label' of rule SBX003 must be a "
                                          "64-bit integer"));
    assert_non_null(strstr(error.message, "not 'x'"));
    assert_int_equal(error.pos.line, 5);
    assert_int_equal(error.pos.column, 9);
    config_error_release(&error);
    config_release(&config);

    expect_error(INI, "[rule SBX003]\ndepth = 3\n[rule SBX003]\ndepth = 4\n", 4, 1,
                 "option 'depth' of rule SBX003 is set twice (first at 2:1)");
    expect_error(INI, "[rule SBX003]\npaths = /a,\n  /b\n", 3, 3,
                 "a rule option takes one line");
}

static void test_ini_integer_range(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool valid;
        int64_t value;
    } cases[] = {
        { "9223372036854775807", true, INT64_MAX },
        { "-9223372036854775808", true, INT64_MIN },
        { "+7", true, 7 },
        { "9223372036854775808", false, 0 },
        { "1e3", false, 0 },
        { "", false, 0 },
        { "-", false, 0 },
        { "0x10", false, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char text[128];
        snprintf(text, sizeof(text), "[rule R]\nn = %s\n", cases[i].text);
        struct config config;
        parse_ok(&config, INI, text);
        struct config_error error = { NULL, { 0, 0 }, false };
        int64_t value = 0;
        int result = config_rule_option_integer(config_rule_option_find(&config, "R", "n"),
                                                &value, &error);
        if (cases[i].valid) {
            assert_int_equal(result, 0);
            assert_true(value == cases[i].value);
        } else {
            assert_int_equal(result, -1);
            config_error_release(&error);
        }
        config_release(&config);
    }
}

/* ------------------------------------------------------------------ */
/* TOML                                                                */

static void test_toml_new_settings_and_rule_options(void **state)
{
    (void)state;
    struct config config;
    parse_ok(&config, TOML, "[tool.sandlint]\nexclude = [\"vendor/*\"]\n"
             "extend-select = \"sandbox_hardening, SBX1\"\n"
             "[tool.sandlint.rules.SBX003]\ndepth = 3\nstrict = true\n"
             "paths = [\"/a\", \"/b\"]\nlabel = \"x\\u0000y\"\nratio = 0.5\n"
             "mixed = [\"a\", 1]\n");
    assert_int_equal(config.exclude.count, 1);
    assert_item(&config.exclude.items[0], "vendor/*", 2, 12);
    assert_int_equal(config.extend_select.count, 2);
    assert_item(&config.extend_select.items[1], "SBX1", 3, 36);
    assert_int_equal(config.rule_option_count, 6);

    struct config_error error = { NULL, { 0, 0 }, false };
    const struct config_rule_option *depth = config_rule_option_find(&config, "SBX003",
                                                                     "depth");
    assert_non_null(depth);
    assert_item(&depth->rule, "SBX003", 4, 22);
    assert_item(&depth->name, "depth", 5, 1);
    assert_int_equal(depth->type, CONFIG_VALUE_INTEGER);
    int64_t number;
    assert_int_equal(config_rule_option_integer(depth, &number, &error), 0);
    assert_int_equal(number, 3);
    bool flag;
    assert_int_equal(config_rule_option_boolean(depth, &flag, &error), -1);
    assert_non_null(strstr(error.message, "must be a boolean, not an integer"));
    assert_int_equal(error.pos.line, 5);
    assert_int_equal(error.pos.column, 9);
    config_error_release(&error);

    const struct config_rule_option *paths = config_rule_option_find(&config, "SBX003",
                                                                     "paths");
    assert_int_equal(paths->type, CONFIG_VALUE_STRING_LIST);
    struct config_list items = { NULL, 0, 0 };
    assert_int_equal(config_rule_option_list(paths, &items, &error), 0);
    assert_int_equal(items.count, 2);
    assert_item(&items.items[1], "/b", 7, 16);
    config_list_release(&items);

    const char *text;
    size_t length;
    assert_int_equal(config_rule_option_string(
                         config_rule_option_find(&config, "SBX003", "label"), &text,
                         &length, &error), 0);
    assert_int_equal(length, 3);
    assert_memory_equal(text, "x\0y", 3);

    const struct config_rule_option *ratio = config_rule_option_find(&config, "SBX003",
                                                                     "ratio");
    assert_int_equal(ratio->type, CONFIG_VALUE_OTHER);
    assert_int_equal(config_rule_option_integer(ratio, &number, &error), -1);
    assert_non_null(strstr(error.message, "not a float"));
    config_error_release(&error);
    const struct config_rule_option *mixed = config_rule_option_find(&config, "SBX003",
                                                                     "mixed");
    assert_int_equal(mixed->type, CONFIG_VALUE_OTHER);
    assert_int_equal(config_rule_option_list(mixed, &items, &error), -1);
    assert_non_null(strstr(error.message, "must be an array of strings, not an array "
                                          "that does not hold only strings"));
    assert_int_equal(error.pos.line, 10);
    assert_int_equal(error.pos.column, 9);
    config_error_release(&error);
    config_release(&config);

    expect_error(TOML, "[tool.sandlint]\nrules = 3\n", 2, 9, "tool.sandlint.rules must "
                 "be a table");
    expect_error(TOML, "[tool.sandlint.rules]\nSBX003 = [1]\n", 2, 10,
                 "tool.sandlint.rules.SBX003 must be a table of options");
}

/* A NUL in a name would cut it to another name; in a message it is shown,
 * never cut. */
static void test_toml_nul_bytes(void **state)
{
    (void)state;
    expect_error(TOML, "[tool.sandlint]\n\"col\\u0000our\" = 1\n", 2, 1,
                 "unknown setting 'col\\x00our'");
    expect_error(TOML, "[tool.sandlint]\nselect = [\"SBX\\u0000x\"]\n", 2, 11,
                 "rule selector 'SBX\\x00x' holds a NUL byte");
    expect_error(TOML, "[tool.sandlint]\n\"select\\u0000\" = [\"SBX001\"]\n", 2, 1,
                 "unknown setting 'select\\x00'");
    expect_error(TOML, "[tool.sandlint.allowlists.\"sandbox_privileges\\u0000\"]\n", 1, 27,
                 "allowlist group 'sandbox_privileges\\x00' holds a NUL byte");
    expect_error(TOML, "[tool.sandlint.allowlists.g]\n\"p\\u0000\" = [\"k\"]\n", 2, 1,
                 "allowlist scope 'p\\x00' holds a NUL byte");
    /* Every byte of the file that a message shows is escaped. */
    expect_error(TOML, "[tool.sandlint.allowlists.\"g\\u001b[2J\"]\np = 1\n", 2, 5,
                 "tool.sandlint.allowlists.g\\x1b[2J must be a string");
    expect_error(TOML, "[tool.sandlint.rules]\n\"R\\u009b\" = 1\n", 2, 13,
                 "tool.sandlint.rules.R\\u009b must be a table");
    expect_error(INI, "[rule R]\n\xe2\x80\xae" "ab = 1\n  2\n", 3, 3,
                 "would continue '\\u202eab'");
    expect_error(INI, "[\x1b[31mred]\n", 1, 1, "unknown section [\\x1b[31mred]");
    /* Keys may hold any byte. */
    struct config config;
    parse_ok(&config, TOML, "[tool.sandlint.allowlists.g]\np = [\"a\\u0000b\"]\n");
    assert_int_equal(config.entries[0].key.length, 3);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* escaping and trust                                                  */

static void check_escape(const char *text, size_t length, const char *want)
{
    char *shown = terminal_escape(text, length);
    assert_string_equal(shown, want);
    free(shown);
}

static void test_escape(void **state)
{
    (void)state;
    check_escape("plain é ✓", strlen("plain é ✓"), "plain é ✓");
    check_escape("a\0b", 3, "a\\x00b");
    check_escape("\x1b[2J\x7f", 5, "\\x1b[2J\\x7f");
    check_escape("\xc2\x85", 2, "\\u0085");                  /* NEL, a C1 control */
    check_escape("x\xe2\x80\xaey", 5, "x\\u202ey");     /* U+202E */
    check_escape("\xe2\x81\xa6", 3, "\\u2066");         /* U+2066 */
    check_escape("\xff\xc3", 2, "\\xff\\xc3");                  /* not UTF-8 */
}

static void test_trust(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        unsigned line, column;
        const char *needle;
    } refused[] = {
        { "[sandlint]\nplugins = ./evil.so\n", 2, 11, "plugin './evil.so' is a path" },
        { "[sandlint]\nplugins = good, evil.so\n", 2, 17, "plugin 'evil.so' is a path" },
        { "[sandlint]\nplugins = sub/evil\n", 2, 11, "is a path" },
        { "[sandlint]\nplugins = ..\n", 2, 11, "is a path" },
        { "[sandlint]\nplugin-dir = .\n", 2, 14, "plugin-dir is not allowed" },
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        struct config config;
        parse_ok(&config, INI, refused[i].text);
        struct config_error error = { NULL, { 0, 0 }, false };
        assert_int_equal(config_check_trust(&config, &error), -1);
        assert_int_equal(error.pos.line, refused[i].line);
        assert_int_equal(error.pos.column, refused[i].column);
        assert_non_null(strstr(error.message, refused[i].needle));
        assert_non_null(strstr(error.message, "--config FILE"));
        config_error_release(&error);
        config.named_explicitly = true;
        assert_int_equal(config_check_trust(&config, &error), 0);
        config_release(&config);
    }
    struct config config;
    parse_ok(&config, TOML, "[tool.sandlint]\nplugins = [\"good\", \"acme-net\"]\n"
             "plugin-dir = []\n");
    struct config_error error = { NULL, { 0, 0 }, false };
    assert_int_equal(config_check_trust(&config, &error), 0);
    config_release(&config);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ini_continuation_keeps_long_names),
        cmocka_unit_test(test_ini_refuses_what_inih_accepts_silently),
        cmocka_unit_test(test_ini_line_kinds_as_inih_sees_them),
        cmocka_unit_test(test_ini_line_limit_ignores_the_terminator),
        cmocka_unit_test(test_ini_new_settings),
        cmocka_unit_test(test_ini_rule_options),
        cmocka_unit_test(test_ini_integer_range),
        cmocka_unit_test(test_toml_new_settings_and_rule_options),
        cmocka_unit_test(test_toml_nul_bytes),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_trust),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
