/* Unit tests for plugin loading and rule selection (core/check/registry.c). */
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
#include "loader.h"
#include "registry.h"
#include "rule_options.h"

static struct registry registry;
static char *error;

static int setup(void **state)
{
    (void)state;
    registry_init(&registry);
    error = NULL;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    registry_release(&registry);
    free(error);
    error = NULL;
    return 0;
}

static char *test_plugin(const char *name)
{
    const char *dir = getenv("TEST_PLUGIN_DIR");
    if (dir == NULL)
        dir = "tests/plugins/.libs";
    size_t size = strlen(dir) + strlen(name) + 8;
    char *path = malloc(size);
    snprintf(path, size, "%s/%s.so", dir, name);
    return path;
}

/* Loads a test plugin and returns loader_load_file's result. */
static int load(const char *name)
{
    char *path = test_plugin(name);
    free(error);
    error = NULL;
    int result = loader_load_file(&registry, path, &error);
    free(path);
    return result;
}

static void assert_refused(const char *name, const char *reason)
{
    size_t before = registry.rule_count;
    assert_int_equal(load(name), -1);
    assert_non_null(error);
    char *path = test_plugin(name);
    /* The message names the file. */
    assert_non_null(strstr(error, path));
    free(path);
    if (strstr(error, reason) == NULL)
        fail_msg("'%s' not in '%s'", reason, error);
    assert_int_equal(registry.rule_count, before);
}

static void test_good_plugin_loads(void **state)
{
    (void)state;
    assert_int_equal(load("good"), 0);
    assert_null(error);
    size_t index = registry_find_code(&registry, "TST001");
    assert_true(index != (size_t)-1);
    assert_string_equal(registry.rules[index].rule.name, "test-image");
    assert_string_equal(registry.plugins[registry.rules[index].plugin].descriptor.name,
                        "good");
}

static void test_wrong_major_is_refused_with_both_versions(void **state)
{
    (void)state;
    assert_refused("wrong_major", "built for plugin ABI 2.0");
    assert_non_null(strstr(error, "provides ABI 1."));
}

static void test_missing_entry_symbol_is_refused(void **state)
{
    (void)state;
    assert_refused("no_entry", "no sandlint_plugin_entry symbol");
}

static void test_null_descriptor_is_refused(void **state)
{
    (void)state;
    assert_refused("null_descriptor", "returned no descriptor");
}

static void test_descriptor_without_rules_is_refused(void **state)
{
    (void)state;
    assert_refused("no_rules", "descriptor has no rules");
}

static void test_rule_without_code_is_refused(void **state)
{
    (void)state;
    assert_refused("rule_without_code", "has no code");
}

static void test_rule_without_callback_is_refused(void **state)
{
    (void)state;
    assert_refused("no_callback", "has no check_document, check_service, check_container "
                                  "or check_scope");
}

static void test_newer_minor_loads(void **state)
{
    (void)state;
    assert_int_equal(load("newer_minor"), 0);
    size_t last = registry.plugin_count - 1;
    assert_int_equal(registry.plugins[last].declared_minor, SL_ABI_MINOR + 1);
    assert_true(registry_find_code(&registry, "TST005") != (size_t)-1);
}

static void test_missing_file_is_refused(void **state)
{
    (void)state;
    assert_int_equal(load("does_not_exist"), -1);
    assert_non_null(strstr(error, "cannot load plugin"));
}

static void test_same_plugin_twice_is_refused(void **state)
{
    (void)state;
    assert_int_equal(load("good"), 0);
    assert_refused("good", "already loaded");
}

/* Descriptors checked without dlopen. */
static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx; (void)service; (void)key; (void)value;
    return SL_OK;
}

static struct sl_rule make_rule(const char *code, const char *name)
{
    struct sl_rule rule;
    memset(&rule, 0, sizeof(rule));
    rule.struct_size = sizeof(rule);
    rule.code = code;
    rule.name = name;
    rule.group = "group_x";
    rule.summary = "summary";
    rule.check_service = check_service;
    return rule;
}

static int add(const struct sl_rule *first, const struct sl_rule *second,
               const char *plugin_name)
{
    const struct sl_rule *rules[3] = { first, second, NULL };
    struct sl_plugin plugin = { SL_PLUGIN_INIT, plugin_name, "1", NULL, rules };
    free(error);
    error = NULL;
    return registry_add_descriptor(&registry, "mem", &plugin, &error);
}

static void test_rule_fields_are_validated(void **state)
{
    (void)state;
    struct sl_rule bad_code = make_rule("sbx1", "x");
    assert_int_equal(add(&bad_code, NULL, "p1"), -1);
    assert_non_null(strstr(error, "not upper-case letters followed by digits"));
    struct sl_rule bad_name = make_rule("ABC1", "Bad Name");
    assert_int_equal(add(&bad_name, NULL, "p1"), -1);
    assert_non_null(strstr(error, "invalid name"));
    struct sl_rule no_group = make_rule("ABC1", "x");
    no_group.group = NULL;
    assert_int_equal(add(&no_group, NULL, "p1"), -1);
    assert_non_null(strstr(error, "has no group"));
    struct sl_rule small = make_rule("ABC1", "x");
    small.struct_size = 8;
    assert_int_equal(add(&small, NULL, "p1"), -1);
    assert_non_null(strstr(error, "smaller than ABI 1.0"));
    struct sl_rule severity = make_rule("ABC1", "x");
    severity.default_severity = 7;
    assert_int_equal(add(&severity, NULL, "p1"), -1);
    assert_non_null(strstr(error, "unknown default severity"));
}

static void test_duplicate_codes_are_refused(void **state)
{
    (void)state;
    struct sl_rule one = make_rule("ABC1", "one");
    struct sl_rule same_code = make_rule("ABC1", "two");
    assert_int_equal(add(&one, &same_code, "p1"), -1);
    assert_non_null(strstr(error, "defined twice"));
    assert_int_equal(add(&one, NULL, "p1"), 0);
    struct sl_rule clash = make_rule("ABC1", "three");
    assert_int_equal(add(&clash, NULL, "p2"), -1);
    assert_non_null(strstr(error, "already defined by plugin 'p1'"));
    struct sl_rule core_clash = make_rule("SL001", "four");
    assert_int_equal(add(&core_clash, NULL, "p3"), -1);
}

/* ABI 1.3: a rule's documentation URL is absolute, printable and bounded,
 * because SARIF's helpUri and terminals carry it as it is. */
static void test_rule_url_is_validated(void **state)
{
    (void)state;
    static const char *const refused[] = {
        "docs/rules/ABC1.md", "ftp://example.com/x", "https://", "https:///x",
        "https://example.com/a b", "https://example.com/\x1b[31m",
        "https://example.com/\"x\"", "javascript:alert(1)", "https://ex.com/<x>",
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
        struct sl_rule rule = make_rule("ABC1", "x");
        rule.url = refused[i];
        assert_int_equal(add(&rule, NULL, "p1"), -1);
        if (strstr(error, "rule ABC1 has an invalid url") == NULL)
            fail_msg("'%s' accepted: %s", refused[i], error ? error : "(no error)");
    }
    char *long_url = malloc(2100);
    memcpy(long_url, "https://example.com/", 20);
    memset(long_url + 20, 'a', 2079);
    long_url[2099] = '\0';
    struct sl_rule rule = make_rule("ABC1", "x");
    rule.url = long_url;
    assert_int_equal(add(&rule, NULL, "p1"), -1);
    free(long_url);
    rule.url = "https://wiki.example.com/sandlint/ABC1?v=2#why";
    assert_int_equal(add(&rule, NULL, "p1"), 0);
    size_t index = registry_find_code(&registry, "ABC1");
    assert_string_equal(registry.rules[index].rule.url, rule.url);
    /* The core's own diagnostics have pages of their own. */
    assert_non_null(strstr(registry.rules[0].rule.url, "/docs/rules/SL001.md"));
}

/* "severity" belongs to the host: every rule answers to it. */
static void test_severity_option_is_reserved(void **state)
{
    (void)state;
    static const struct sl_option severity = {
        SL_OPTION_INIT, "severity", SL_OPTION_STRING, "a level", NULL, 0, 0, NULL,
    };
    struct sl_rule rule = make_rule("ABC1", "x");
    const struct sl_option *options[] = { &severity, NULL };
    rule.options = options;
    assert_int_equal(add(&rule, NULL, "p1"), -1);
    assert_non_null(strstr(error, "declares an option named 'severity', which sandlint "
                                  "reserves"));
    assert_int_equal(registry.rule_count, CORE_RULE_COUNT);
}

static void test_descriptor_fields_are_validated(void **state)
{
    (void)state;
    struct sl_rule rule = make_rule("ABC1", "one");
    const struct sl_rule *rules[2] = { &rule, NULL };
    struct sl_plugin nameless = { SL_PLUGIN_INIT, NULL, "1", NULL, rules };
    assert_int_equal(registry_add_descriptor(&registry, "mem", &nameless, &error), -1);
    assert_non_null(strstr(error, "descriptor has no name"));
    free(error);
    struct sl_plugin versionless = { SL_PLUGIN_INIT, "p", NULL, NULL, rules };
    assert_int_equal(registry_add_descriptor(&registry, "mem", &versionless, &error), -1);
    assert_non_null(strstr(error, "descriptor has no version"));
    free(error);
    struct sl_plugin tiny = { 4, SL_ABI_MAJOR, 0, "p", "1", NULL, rules };
    assert_int_equal(registry_add_descriptor(&registry, "mem", &tiny, &error), -1);
    assert_non_null(strstr(error, "too small"));
}

/* ---- options (ABI 1.1) --------------------------------------------------- */

static const char *const default_hosts[] = { "a.example", NULL };
static const struct sl_option opt_hosts = {
    SL_OPTION_INIT, "hosts", SL_OPTION_LIST, "host names", NULL, 0, 0, default_hosts,
};
static const struct sl_option opt_limit = {
    SL_OPTION_INIT, "limit", SL_OPTION_INTEGER, "a number", NULL, 3, 0, NULL,
};
static const struct sl_option opt_label = {
    SL_OPTION_INIT, "label", SL_OPTION_STRING, "a word", "none", 0, 0, NULL,
};
static const struct sl_option opt_strict = {
    SL_OPTION_INIT, "strict", SL_OPTION_BOOLEAN, "a switch", NULL, 0, 1, NULL,
};

/* A rule declaring the given options; refused or accepted, *error says. */
static int add_with_options(const struct sl_option *const *options)
{
    struct sl_rule rule = make_rule("OPT1", "with-options");
    rule.options = options;
    return add(&rule, NULL, "opt");
}

static void assert_option_refused(const struct sl_option *option, const char *reason)
{
    const struct sl_option *options[] = { &opt_limit, option, NULL };
    assert_int_equal(add_with_options(options), -1);
    if (strstr(error, reason) == NULL)
        fail_msg("'%s' not in '%s'", reason, error);
}

static void test_options_are_validated(void **state)
{
    (void)state;
    struct sl_option bad = opt_label;
    bad.name = "Bad Name";
    assert_option_refused(&bad, "option 1 has an invalid name 'Bad Name'");
    bad = opt_label;
    bad.name = NULL;
    assert_option_refused(&bad, "option 1 has no name");
    bad = opt_label;
    bad.type = 9;
    assert_option_refused(&bad, "rule OPT1 option 'label' has an unknown type");
    bad = opt_label;
    bad.summary = "";
    assert_option_refused(&bad, "option 'label' has no summary");
    bad = opt_limit;
    assert_option_refused(&bad, "option 'limit' is declared twice");
    bad = opt_label;
    bad.struct_size = 8;
    assert_option_refused(&bad, "option 1 declares struct_size 8, smaller than ABI 1.1's");
    assert_int_equal(registry.rule_count, CORE_RULE_COUNT);

    const struct sl_option *options[] = { &opt_hosts, &opt_limit, &opt_label,
                                          &opt_strict, NULL };
    assert_int_equal(add_with_options(options), 0);
    const struct rule_entry *entry = &registry.rules[registry_find_code(&registry, "OPT1")];
    assert_int_equal(entry->option_count, 4);
    /* Without configuration every option answers with its default. */
    size_t length;
    assert_string_equal(rule_option_string(rule_entry_option(entry, "label"), &length),
                        "none");
    assert_int_equal(length, 4);
    assert_int_equal(rule_option_integer(rule_entry_option(entry, "limit")), 3);
    assert_true(rule_option_boolean(rule_entry_option(entry, "strict")));
    const struct rule_option *hosts = rule_entry_option(entry, "hosts");
    assert_int_equal(rule_option_list_count(hosts), 1);
    assert_string_equal(rule_option_list_item(hosts, 0, NULL), "a.example");
    assert_null(rule_option_list_item(hosts, 1, NULL));
    assert_null(rule_entry_option(entry, "nope"));
}

/* A rule built for ABI 1.0 is as large as 1.0's struct: whatever lies past
 * it (here: a pointer and flags of a 1.1 rule) is not read. */
static void test_rule_of_abi_1_0_is_zero_filled(void **state)
{
    (void)state;
    static const struct sl_option *const options[] = { &opt_label, NULL };
    struct sl_rule rule = make_rule("OLD1", "old");
    rule.struct_size = offsetof(struct sl_rule, check_service) + sizeof(void *);
    rule.options = options;
    rule.flags = SL_RULE_OPT_IN;
    assert_int_equal(add(&rule, NULL, "old"), 0);
    const struct rule_entry *entry = &registry.rules[registry_find_code(&registry, "OLD1")];
    assert_int_equal(entry->option_count, 0);
    assert_null(entry->rule.options);
    assert_int_equal(entry->rule.flags, 0);
    assert_true(entry->enabled);
}

/* Options from an INI text checked against the loaded rules. */
static int apply_ini(const char *text, struct config_error *config_error)
{
    struct config config;
    config_init(&config);
    memset(config_error, 0, sizeof(*config_error));
    int result = config_parse_ini(&config, text, strlen(text), config_error);
    if (result == 0)
        result = rule_options_apply(&registry, &config, config_error);
    config_release(&config);
    return result;
}

static void expect_option_error(const char *text, unsigned line, unsigned column,
                                const char *message)
{
    struct config_error config_error;
    assert_int_equal(apply_ini(text, &config_error), -1);
    assert_non_null(config_error.message);
    if (strstr(config_error.message, message) == NULL)
        fail_msg("'%s' not in '%s'", message, config_error.message);
    assert_int_equal(config_error.pos.line, line);
    assert_int_equal(config_error.pos.column, column);
    config_error_release(&config_error);
}

static void test_configured_options(void **state)
{
    (void)state;
    const struct sl_option *options[] = { &opt_hosts, &opt_limit, &opt_label,
                                          &opt_strict, NULL };
    assert_int_equal(add_with_options(options), 0);
    struct config_error config_error;
    assert_int_equal(apply_ini("[rule OPT1]\nlabel = hi\nlimit = -7\nstrict = off\n"
                               "hosts = x, y ,z\n", &config_error), 0);
    assert_null(config_error.message);
    const struct rule_entry *entry = &registry.rules[registry_find_code(&registry, "OPT1")];
    assert_string_equal(rule_option_string(rule_entry_option(entry, "label"), NULL), "hi");
    assert_int_equal(rule_option_integer(rule_entry_option(entry, "limit")), -7);
    assert_false(rule_option_boolean(rule_entry_option(entry, "strict")));
    const struct rule_option *hosts = rule_entry_option(entry, "hosts");
    assert_int_equal(rule_option_list_count(hosts), 3);
    assert_string_equal(rule_option_list_item(hosts, 1, NULL), "y");
    assert_string_equal(rule_option_list_item(hosts, 2, NULL), "z");

    expect_option_error("[rule OPT1]\nlimit = ten\n", 2, 9, "must be a 64-bit integer, not 'ten'");
    expect_option_error("[rule OPT1]\nstrict = 2\n", 2, 10, "must be a boolean");
    expect_option_error("[rule OPT1]\nlimt = 1\n", 2, 1,
                        "rule OPT1 has no option 'limt' (its options: hosts, limit, "
                        "label, strict)");
    expect_option_error("[rule OPT9]\nlimit = 1\n", 1, 7,
                        "options for rule 'OPT9', but no loaded rule has that code");
    expect_option_error("[rule with-options]\nlimit = 1\n", 1, 7,
                        "no loaded rule has that code");
}

/* `severity = error|warning` under [rule CODE], for every rule. */
static void test_configured_severity(void **state)
{
    (void)state;
    struct sl_rule warns = make_rule("ABC1", "warns");
    warns.default_severity = SL_SEVERITY_WARNING;
    assert_int_equal(add(&warns, NULL, "p1"), 0);
    const struct rule_entry *entry = &registry.rules[registry_find_code(&registry, "ABC1")];
    assert_int_equal(entry->severity, SL_SEVERITY_DEFAULT);
    assert_int_equal(rule_entry_severity(entry), SL_SEVERITY_WARNING);
    struct config_error config_error;
    assert_int_equal(apply_ini("[rule ABC1]\nseverity = error\n[rule SL005]\n"
                               "severity = error\n", &config_error), 0);
    assert_int_equal(entry->severity, SL_SEVERITY_ERROR);
    assert_int_equal(rule_entry_severity(entry), SL_SEVERITY_ERROR);
    assert_int_equal(registry.rules[CORE_RULE_STALE].severity, SL_SEVERITY_ERROR);

    expect_option_error("[rule ABC1]\nseverity = fatal\n", 2, 12,
                        "severity of rule ABC1 must be \"error\" or \"warning\", not "
                        "'fatal'");
    expect_option_error("[rule ABC1]\nseverity = Error\n", 2, 12, "not 'Error'");
    /* What says that a file was not checked never becomes a warning. */
    static const char *const unchecked[] = { "SL001", "SL002", "SL006", "SL007" };
    for (size_t i = 0; i < sizeof(unchecked) / sizeof(*unchecked); i++) {
        char text[64];
        snprintf(text, sizeof(text), "[rule %s]\nseverity = warning\n", unchecked[i]);
        expect_option_error(text, 2, 12, "cannot be lowered");
    }
    assert_int_equal(apply_ini("[rule SL001]\nseverity = error\n", &config_error), 0);
}

/* ---- selection --------------------------------------------------------- */

static void add_sample_rules(void)
{
    static struct sl_rule a, b, c;
    a = make_rule("SBX001", "privileges");
    a.group = "sandbox_privileges";
    a.group_code = "IESC001";
    b = make_rule("SBX003", "mounts");
    b.group = "sandbox_privileges";
    b.group_code = "IESC001";
    c = make_rule("ABC010", "other");
    assert_int_equal(add(&a, &b, "pa"), 0);
    assert_int_equal(add(&c, NULL, "pc"), 0);
}

/* Splits a comma-separated list into single selectors. */
static void split(const char *text, struct string_list *list)
{
    char *copy = strdup(text);
    for (char *item = strtok(copy, ", "); item != NULL; item = strtok(NULL, ", "))
        string_list_add(list, item);
    free(copy);
}

/* Applies --select and --ignore as the driver does (NULL: not given). */
static int select_rules(const char *select, const char *ignore)
{
    struct string_list selected = STRING_LIST_INIT, ignored = STRING_LIST_INIT;
    if (select != NULL)
        split(select, &selected);
    if (ignore != NULL)
        split(ignore, &ignored);
    struct rule_selection selection = { select ? &selected : NULL, NULL, &ignored };
    free(error);
    error = NULL;
    int result = registry_apply_selection(&registry, &selection, &error);
    string_list_release(&selected);
    string_list_release(&ignored);
    return result;
}

static bool enabled(const char *code)
{
    return registry.rules[registry_find_code(&registry, code)].enabled;
}

static void test_select_by_code_prefix_name_group(void **state)
{
    (void)state;
    add_sample_rules();
    assert_int_equal(select_rules("SBX003", NULL), 0);
    assert_false(enabled("SBX001"));
    assert_true(enabled("SBX003"));
    assert_false(enabled("ABC010"));
    assert_true(enabled("SL001"));     /* core diagnostics stay on */
    assert_int_equal(select_rules("SBX", NULL), 0);
    assert_true(enabled("SBX001") && enabled("SBX003") && !enabled("ABC010"));
    assert_int_equal(select_rules("IESC001", NULL), 0);
    assert_true(enabled("SBX001") && enabled("SBX003") && !enabled("ABC010"));
    assert_int_equal(select_rules("other, mounts", NULL), 0);
    assert_true(!enabled("SBX001") && enabled("SBX003") && enabled("ABC010"));
    assert_int_equal(select_rules("sandbox_privileges", "SBX003"), 0);
    assert_true(enabled("SBX001") && !enabled("SBX003"));
}

static void test_unknown_selector_is_an_error(void **state)
{
    (void)state;
    add_sample_rules();
    assert_int_equal(select_rules("NOPE", NULL), -1);
    assert_non_null(strstr(error, "unknown rule selector 'NOPE'"));
    free(error);
    error = NULL;
    assert_int_equal(select_rules(NULL, "SBX9"), -1);
    assert_non_null(strstr(error, "'SBX9'"));
}

static void test_opt_in_rules_run_only_when_selected(void **state)
{
    (void)state;
    add_sample_rules();
    struct sl_rule hardening = make_rule("SBX101", "cap_drop_all");
    hardening.group = "sandbox_hardening";
    hardening.flags = SL_RULE_OPT_IN;
    assert_int_equal(add(&hardening, NULL, "ph"), 0);
    assert_false(enabled("SBX101"));
    assert_int_equal(select_rules(NULL, NULL), 0);
    assert_true(enabled("SBX001") && enabled("ABC010") && !enabled("SBX101"));
    assert_int_equal(select_rules(NULL, "SBX003"), 0);
    assert_false(enabled("SBX101"));
    const char *selectors[] = { "SBX101", "cap_drop_all", "sandbox_hardening", "SBX1" };
    for (size_t i = 0; i < sizeof(selectors) / sizeof(selectors[0]); i++) {
        assert_int_equal(select_rules(selectors[i], NULL), 0);
        assert_true(enabled("SBX101"));
        assert_false(enabled("SBX001"));
    }
    assert_int_equal(select_rules("sandbox_privileges", NULL), 0);
    assert_false(enabled("SBX101"));
    assert_int_equal(select_rules("SBX", "SBX001"), 0);
    assert_true(enabled("SBX101") && enabled("SBX003") && !enabled("SBX001"));
}

static void test_ignore_can_silence_core_rules(void **state)
{
    (void)state;
    assert_int_equal(select_rules(NULL, "SL005"), 0);
    assert_false(enabled("SL005"));
    assert_true(enabled("SL001"));
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_good_plugin_loads),
        T(test_wrong_major_is_refused_with_both_versions),
        T(test_missing_entry_symbol_is_refused),
        T(test_null_descriptor_is_refused),
        T(test_descriptor_without_rules_is_refused),
        T(test_rule_without_code_is_refused),
        T(test_rule_without_callback_is_refused),
        T(test_newer_minor_loads),
        T(test_missing_file_is_refused),
        T(test_same_plugin_twice_is_refused),
        T(test_rule_fields_are_validated),
        T(test_duplicate_codes_are_refused),
        T(test_descriptor_fields_are_validated),
        T(test_rule_url_is_validated),
        T(test_severity_option_is_reserved),
        T(test_configured_severity),
        T(test_select_by_code_prefix_name_group),
        T(test_unknown_selector_is_an_error),
        T(test_ignore_can_silence_core_rules),
        T(test_options_are_validated),
        T(test_rule_of_abi_1_0_is_zero_filled),
        T(test_configured_options),
        T(test_opt_in_rules_run_only_when_selected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
