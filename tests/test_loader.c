/* Unit tests for plugin loading and rule selection (core/registry.c). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "registry.h"

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
    assert_refused("no_callback", "has no check_document or check_service");
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
        T(test_select_by_code_prefix_name_group),
        T(test_unknown_selector_is_an_error),
        T(test_ignore_can_silence_core_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
