/* Unit tests for the allowlist (core/exceptions/allowlist.c): scopes as the
 * configuration writes them (core/config/config_file.c), what each scope
 * covers, the cost of matching (candidates compared, never entries times
 * findings), stale entries per scope, and the entries --update-allowlist
 * asks for (core/exceptions/allowlist_update.c). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "allowlist_update.h"
#include "config_file.h"
#include "file_result.h"
#include "finding.h"
#include "registry.h"
#include "sandlint/plugin.h"
#include "string_list.h"
#include "xalloc.h"

static struct registry registry;

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx, (void)service, (void)key, (void)value;
    return SL_OK;
}

static int setup(void **state)
{
    (void)state;
    static const struct sl_rule first = {
        SL_RULE_INIT, .code = "SBX001", .name = "privileges",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "test", .check_service = check_service,
    };
    static const struct sl_rule second = {
        SL_RULE_INIT, .code = "SBX101", .name = "drop",
        .group = "sandbox_hardening", .summary = "test",
        .default_severity = SL_SEVERITY_WARNING, .check_service = check_service,
    };
    static const struct sl_rule *const rules[] = { &first, &second, NULL };
    static const struct sl_plugin plugin = {
        SL_PLUGIN_INIT, .name = "test", .version = "1", .rules = rules,
    };
    char *error = NULL;
    registry_init(&registry);
    assert_int_equal(registry_add_descriptor(&registry, NULL, &plugin, &error), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    registry_release(&registry);
    return 0;
}

#define SBX001 CORE_RULE_COUNT
#define SBX101 (CORE_RULE_COUNT + 1)

/* Adds an entry as a reader would (asserting it is accepted). */
static void entry(struct config *config, const char *group, const char *scope,
                  const char *key, unsigned line)
{
    struct config_item group_item = { (char *)group, strlen(group), { 1, 2 } };
    struct config_item scope_item = { (char *)scope, strlen(scope), { line, 1 } };
    struct config_item key_item = { (char *)key, strlen(key), { line, 10 } };
    struct config_error error = { NULL, { 0, 0 }, false };
    if (config_add_entry(config, &group_item, &scope_item, &key_item, false, &error) != 0)
        fail_msg("scope %s refused: %s", scope, error.message);
}

/* A finding of service web's field, at line. */
static struct finding *add(struct file_result *result, size_t rule, int severity,
                           unsigned line, const char *field, const char *value)
{
    struct finding_spec spec = {
        .rule = rule, .severity = severity, .line = line, .column = 5,
        .service = "web", .service_length = 3, .field = field,
        .value = value, .value_length = value ? strlen(value) : 0, .message = "m",
    };
    return finding_set_add(&result->findings, &spec);
}

/* The entry that accepts web:privileged in a file of a package, or
 * FINDING_NONE. */
static size_t accepted_by(struct config *config, struct allowlist_index *index,
                          const char *display, const char *package)
{
    struct file_result result;
    file_result_init(&result, display, package);
    add(&result, SBX001, SL_SEVERITY_ERROR, 3, "privileged", NULL);
    allowlist_apply(&result, config, index, &registry);
    size_t accepted = result.findings.items[0].allowlist_entry;
    if (accepted != FINDING_NONE)
        assert_int_equal(result.findings.items[0].status, STATUS_WARN);
    file_result_release(&result);
    return accepted;
}

/* ------------------------------------------------------------------ */
/* reading scopes                                                      */

static void test_scope_syntax(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int kind;               /* -1: refused */
        const char *path;
    } cases[] = {
        { "*", SCOPE_ANY, NULL },
        { "cybench", SCOPE_PACKAGE, NULL },
        { "cy[bench]?", SCOPE_PACKAGE, NULL },
        { "evals/a/", SCOPE_DIRECTORY, "evals/a/" },
        { "evals/a/x/compose.yaml", SCOPE_FILE, "evals/a/x/compose.yaml" },
        { "./compose.yaml", SCOPE_FILE, "compose.yaml" },
        { "./evals/a/", SCOPE_DIRECTORY, "evals/a/" },
        { "./", SCOPE_DIRECTORY, "" },
        { "", -1, NULL },
        { "**", -1, NULL },
        { "a*", -1, NULL },
        { "evals/*/", -1, NULL },
        { "evals/*/compose.yaml", -1, NULL },
        { "/etc/compose.yaml", -1, NULL },
        { "evals/../x/", -1, NULL },
        { "evals/./x/", -1, NULL },
        { "evals//x/", -1, NULL },
        { "../compose.yaml", -1, NULL },
        { "././compose.yaml", -1, NULL },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        enum allowlist_scope kind;
        char *path;
        const char *problem;
        int status = allowlist_scope_parse(cases[i].text, strlen(cases[i].text), &kind,
                                           &path, &problem);
        if (cases[i].kind < 0) {
            if (status == 0)
                fail_msg("scope '%s' accepted", cases[i].text);
            assert_non_null(problem);
            continue;
        }
        if (status != 0)
            fail_msg("scope '%s' refused: %s", cases[i].text, problem);
        assert_int_equal(kind, cases[i].kind);
        if (cases[i].path == NULL)
            assert_null(path);
        else
            assert_string_equal(path, cases[i].path);
        free(path);
    }
    /* The scope --update-allowlist writes for a file. */
    char *scope = allowlist_scope_of_file("compose.yaml");
    assert_string_equal(scope, "./compose.yaml");
    free(scope);
    scope = allowlist_scope_of_file("evals/a/compose.yaml");
    assert_string_equal(scope, "evals/a/compose.yaml");
    free(scope);
    assert_null(allowlist_scope_of_file("../elsewhere/compose.yaml"));
    assert_null(allowlist_scope_of_file("evals/*/compose.yaml"));
    assert_true(allowlist_name_is_wildcard("*", 1));
    assert_true(allowlist_name_is_wildcard("a*b", 3));
    assert_false(allowlist_name_is_wildcard("a[1]", 4));
}

/* ------------------------------------------------------------------ */
/* what each scope covers                                              */

static void test_scopes_cover(void **state)
{
    (void)state;
    struct config config;
    config_init(&config);
    entry(&config, "sandbox_privileges", "evals/a/compose.yaml", "web:privileged", 2);
    entry(&config, "sandbox_privileges", "evals/b/", "web:privileged", 3);
    entry(&config, "sandbox_privileges", "./compose.yaml", "web:privileged", 4);
    entry(&config, "IESC001", "pkg", "web:privileged", 5);
    struct allowlist_index index;
    allowlist_index_build(&index, &config, &registry);

    /* A file scope: that file only, not its siblings or subdirectories. */
    assert_int_equal(accepted_by(&config, &index, "evals/a/compose.yaml", "a"), 0);
    assert_int_equal(accepted_by(&config, &index, "evals/a/other.yaml", "a"), FINDING_NONE);
    assert_int_equal(accepted_by(&config, &index, "evals/a/x/compose.yaml", "a"),
                     FINDING_NONE);
    /* A directory scope: every file below it, and nothing beside it. */
    assert_int_equal(accepted_by(&config, &index, "evals/b/compose.yaml", "b"), 1);
    assert_int_equal(accepted_by(&config, &index, "evals/b/x/y/compose.yaml", "b"), 1);
    assert_int_equal(accepted_by(&config, &index, "evals/bb/compose.yaml", "bb"),
                     FINDING_NONE);
    assert_int_equal(accepted_by(&config, &index, "evals/compose.yaml", "*"), FINDING_NONE);
    /* "./compose.yaml": the file at the root, not one of that name below. */
    assert_int_equal(accepted_by(&config, &index, "compose.yaml", "*"), 2);
    assert_int_equal(accepted_by(&config, &index, "x/compose.yaml", "*"), FINDING_NONE);
    /* A package scope, by the group's code: every file of the package. */
    assert_int_equal(accepted_by(&config, &index, "src/pkg/deep/compose.yaml", "pkg"), 3);
    assert_int_equal(accepted_by(&config, &index, "src/other/compose.yaml", "other"),
                     FINDING_NONE);
    /* Files outside the root are covered by no path. */
    assert_int_equal(accepted_by(&config, &index, "../evals/b/compose.yaml", "b"),
                     FINDING_NONE);
    allowlist_index_release(&index);

    /* '*' covers every file; "./" every file below the root. */
    entry(&config, "sandbox_privileges", "*", "web:cap_add:SYS_ADMIN", 6);
    entry(&config, "sandbox_privileges", "./", "web:cap_add:NET_ADMIN", 7);
    allowlist_index_build(&index, &config, &registry);
    struct file_result result;
    file_result_init(&result, "deep/er/compose.yaml", "*");
    add(&result, SBX001, SL_SEVERITY_ERROR, 3, "cap_add", "SYS_ADMIN");
    add(&result, SBX001, SL_SEVERITY_ERROR, 4, "cap_add", "NET_ADMIN");
    /* Another group's rule with the same key is not covered. */
    add(&result, SBX101, SL_SEVERITY_WARNING, 5, "cap_add", "SYS_ADMIN");
    allowlist_apply(&result, &config, &index, &registry);
    assert_int_equal(result.findings.items[0].allowlist_entry, 4);
    assert_int_equal(result.findings.items[1].allowlist_entry, 5);
    assert_int_equal(result.findings.items[2].allowlist_entry, FINDING_NONE);
    file_result_release(&result);
    file_result_init(&result, "../outside/compose.yaml", "*");
    add(&result, SBX001, SL_SEVERITY_ERROR, 4, "cap_add", "NET_ADMIN");
    allowlist_apply(&result, &config, &index, &registry);
    assert_int_equal(result.findings.items[0].allowlist_entry, FINDING_NONE);
    file_result_release(&result);
    allowlist_index_release(&index);
    config_release(&config);
}

/* Two entries that cover one finding: the one written first names it, and
 * both are used (neither is stale). */
static void test_first_entry_names_it(void **state)
{
    (void)state;
    struct config config;
    config_init(&config);
    entry(&config, "sandbox_privileges", "pkg", "web:privileged", 2);
    entry(&config, "sandbox_privileges", "evals/pkg/compose.yaml", "web:privileged", 3);
    entry(&config, "sandbox_privileges", "other", "web:privileged", 4);
    struct allowlist_index index;
    allowlist_index_build(&index, &config, &registry);
    assert_int_equal(accepted_by(&config, &index, "evals/pkg/compose.yaml", "pkg"), 0);
    assert_true(config.entries[0].used);
    assert_true(config.entries[1].used);
    assert_false(config.entries[2].used);
    allowlist_index_release(&index);
    config_release(&config);
}

/* A finding a comment suppressed stays suppressed; the entry is used. */
static void test_only_state_changes(void **state)
{
    (void)state;
    struct config config;
    config_init(&config);
    entry(&config, "IESC001", "pkg", "web:cap_add:SYS_ADMIN", 3);
    entry(&config, "IESC001", "pkg", "web:cap_add:${X}", 4);
    struct allowlist_index index;
    allowlist_index_build(&index, &config, &registry);
    struct file_result result;
    file_result_init(&result, "a/compose.yaml", "pkg");
    add(&result, SBX001, SL_SEVERITY_ERROR, 3, "cap_add", "SYS_ADMIN");
    struct finding *suppressed = add(&result, SBX001, SL_SEVERITY_WARNING, 4, "cap_add",
                                     "${X}");
    suppressed->status = STATUS_SUPPRESSED;
    allowlist_apply(&result, &config, &index, &registry);
    const struct finding *listed = &result.findings.items[0];
    assert_int_equal(listed->allowlist_entry, 0);
    assert_int_equal(listed->status, STATUS_WARN);
    assert_int_equal(listed->severity, SL_SEVERITY_ERROR);   /* a fact */
    assert_int_equal(finding_effective_severity(listed), SL_SEVERITY_WARNING);
    assert_string_equal(listed->message, "m");                /* not rewritten */
    assert_int_equal(result.findings.items[1].status, STATUS_SUPPRESSED);
    assert_int_equal(result.findings.items[1].allowlist_entry, 1);
    assert_true(config.entries[1].used);
    file_result_release(&result);
    allowlist_index_release(&index);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* the cost of matching                                                */

/* Many entries, many findings: each finding compares only the entries
 * whose hash it looks up - none when none accepts it, one when one does -
 * never every entry (0.2 compared entries times findings). */
static void test_matching_cost(void **state)
{
    (void)state;
    enum { ENTRIES = 60000, FINDINGS = 6000 };
    struct config config;
    config_init(&config);
    char scope[64], key[64];
    for (size_t e = 0; e < ENTRIES; e++) {
        switch (e % 3) {
        case 0: snprintf(scope, sizeof(scope), "evals/e%zu/compose.yaml", e); break;
        case 1: snprintf(scope, sizeof(scope), "evals/d%zu/", e); break;
        default: snprintf(scope, sizeof(scope), "package%zu", e); break;
        }
        snprintf(key, sizeof(key), "web:cap_add:CAP_%zu", e);
        entry(&config, "sandbox_privileges", scope, key, (unsigned)e + 2);
    }
    entry(&config, "sandbox_privileges", "evals/one/compose.yaml", "web:cap_add:MATCH", 1);
    struct allowlist_index index;
    allowlist_index_build(&index, &config, &registry);
    struct file_result result;
    file_result_init(&result, "evals/one/compose.yaml", "one");
    char value[32];
    for (size_t f = 0; f < FINDINGS; f++) {
        snprintf(value, sizeof(value), "OTHER_%zu", f);
        add(&result, SBX001, SL_SEVERITY_ERROR, (unsigned)f + 1, "cap_add", value);
    }
    add(&result, SBX001, SL_SEVERITY_ERROR, FINDINGS + 1, "cap_add", "MATCH");
    allowlist_apply(&result, &config, &index, &registry);
    assert_int_equal(result.findings.items[FINDINGS].allowlist_entry, ENTRIES);
    /* One true match; a stray 64-bit hash collision would be a miracle. */
    if (index.compared > 2)
        fail_msg("%zu candidates compared for %d findings against %d entries",
                 index.compared, FINDINGS + 1, ENTRIES + 1);
    file_result_release(&result);
    allowlist_index_release(&index);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* stale entries per scope                                             */

struct coverage_lists {
    struct string_list packages;    /* fully checked packages ("*": the root) */
    struct string_list paths;       /* covered paths ("a/", "a/x.yaml", "") */
};

static bool package_listed(void *data, const char *package)
{
    return string_list_has(&((struct coverage_lists *)data)->packages, package);
}

static bool path_listed(void *data, const char *path)
{
    return string_list_has(&((struct coverage_lists *)data)->paths, path);
}

static size_t stale_count(const struct config *config, const struct allowlist_coverage *coverage,
                          const struct allowlist_incomplete *incomplete, const char *first_scope)
{
    struct file_result *stale = NULL;
    size_t count = allowlist_report_stale(config, &registry, ".sandlint.ini", coverage,
                                          incomplete, &stale);
    size_t findings = 0;
    for (size_t i = 0; i < count; i++) {
        findings += stale[i].findings.count;
        file_result_release(&stale[i]);
    }
    free(stale);
    if (first_scope != NULL)
        assert_true(count > 0);
    return findings;
}

static void test_stale_per_scope(void **state)
{
    (void)state;
    struct config config;
    config_init(&config);
    entry(&config, "sandbox_privileges", "evals/a/compose.yaml", "web:privileged", 2);
    entry(&config, "sandbox_privileges", "evals/b/", "web:privileged", 3);
    entry(&config, "sandbox_privileges", "pkg", "web:privileged", 4);
    entry(&config, "sandbox_privileges", "*", "web:privileged", 5);
    struct coverage_lists lists = { STRING_LIST_INIT, STRING_LIST_INIT };
    struct allowlist_coverage coverage = { package_listed, path_listed, &lists };
    struct allowlist_incomplete incomplete = ALLOWLIST_INCOMPLETE_INIT;

    /* Nothing covered: nothing judged. */
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 0);
    /* A file entry is stale once a run covers the file. */
    string_list_add(&lists.paths, "evals/a/compose.yaml");
    assert_int_equal(stale_count(&config, &coverage, &incomplete, "evals/a/compose.yaml"), 1);
    /* A directory entry once a run covers the directory. */
    string_list_add(&lists.paths, "evals/b/");
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 2);
    /* ... unless a file below it could not be checked. */
    struct file_result unread;
    file_result_init(&unread, "evals/b/deep/compose.yaml", "b");
    unread.incomplete = true;
    allowlist_incomplete_add(&incomplete, &unread);
    file_result_release(&unread);
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 1);
    /* Package and '*' entries as in 0.2: a fully checked package, the root
     * (with nothing unread anywhere, for '*'). */
    string_list_add(&lists.packages, "pkg");
    string_list_add(&lists.packages, "*");
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 2);
    allowlist_incomplete_release(&incomplete);
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 4);
    /* No coverage at all (standard input, --untrusted): none. */
    assert_int_equal(stale_count(&config, NULL, &incomplete, NULL), 0);
    /* A used entry is never stale. */
    config.entries[3].used = true;
    assert_int_equal(stale_count(&config, &coverage, &incomplete, NULL), 3);

    string_list_release(&lists.packages);
    string_list_release(&lists.paths);
    config_release(&config);
}

/* ------------------------------------------------------------------ */
/* the entries --update-allowlist asks for                             */

/* Runs the update's decision on results (no file is written). */
static void run_update(struct allowlist_update *update, struct config *config,
                       struct file_result *results, size_t count)
{
    struct allowlist_index index;
    allowlist_index_build(&index, config, &registry);
    for (size_t i = 0; i < count; i++)
        allowlist_apply(&results[i], config, &index, &registry);
    update->target.format = CONFIG_INI;
    update->target.path = xstrdup("/nonexistent/.sandlint.ini");
    update->target.display = xstrdup(".sandlint.ini");
    update->target.root_display = xstrdup(".sandlint.ini");
    assert_int_equal(allowlist_update_edit(update, config, &registry, &index, results, count,
                                           NULL, NULL), 0);
    allowlist_index_release(&index);
}

/* Two files of one package with the same key ask for one package entry
 * (the update's own check; the editor's is test_config_edit's). */
static void test_update_one_entry_per_package_key(void **state)
{
    (void)state;
    struct file_result results[2];
    file_result_init(&results[0], "evals/a/x/compose.yaml", "a");
    file_result_init(&results[1], "evals/a/y/compose.yaml", "a");
    add(&results[0], SBX001, SL_SEVERITY_ERROR, 3, "privileged", NULL);
    add(&results[1], SBX001, SL_SEVERITY_ERROR, 3, "privileged", NULL);
    struct allowlist_update update;
    allowlist_update_init(&update);
    update.settings.scope = UPDATE_SCOPE_PACKAGE;
    struct config config;
    config_init(&config);
    run_update(&update, &config, results, 2);
    assert_int_equal(update.requested, 1);
    assert_int_equal(update.added, 1);
    assert_non_null(strstr(update.edited, "\na = web:privileged\n"));
    allowlist_update_release(&update);
    config_release(&config);

    /* By default, each file gets its own entry. */
    allowlist_update_init(&update);
    config_init(&config);
    run_update(&update, &config, results, 2);
    assert_int_equal(update.requested, 2);
    assert_non_null(strstr(update.edited, "evals/a/x/compose.yaml = web:privileged\n"));
    assert_non_null(strstr(update.edited, "evals/a/y/compose.yaml = web:privileged\n"));
    allowlist_update_release(&update);
    config_release(&config);
    file_result_release(&results[0]);
    file_result_release(&results[1]);
}

/* Warnings get entries only with --strict; suppressed findings only with
 * --allowlist-suppressed; a file at the root gets "./NAME"; a file outside
 * the root and every package gets none. */
static void test_update_what_gets_entries(void **state)
{
    (void)state;
    struct file_result results[2];
    file_result_init(&results[0], "compose.yaml", "*");
    add(&results[0], SBX001, SL_SEVERITY_ERROR, 3, "privileged", NULL);
    add(&results[0], SBX101, SL_SEVERITY_WARNING, 4, "cap_drop", NULL);
    struct finding *suppressed = add(&results[0], SBX001, SL_SEVERITY_ERROR, 5, "pid", "host");
    suppressed->status = STATUS_SUPPRESSED;
    file_result_init(&results[1], "../outside/compose.yaml", "*");
    add(&results[1], SBX001, SL_SEVERITY_ERROR, 3, "privileged", NULL);

    struct allowlist_update update;
    allowlist_update_init(&update);
    struct config config;
    config_init(&config);
    run_update(&update, &config, results, 2);
    assert_int_equal(update.requested, 1);
    assert_non_null(strstr(update.edited, "./compose.yaml = web:privileged\n"));
    allowlist_update_release(&update);
    config_release(&config);

    allowlist_update_init(&update);
    update.settings.strict = true;
    update.settings.suppressed = true;
    config_init(&config);
    run_update(&update, &config, results, 2);
    assert_int_equal(update.requested, 3);
    assert_non_null(strstr(update.edited, "[allowlist sandbox_hardening]\n"
                                          "./compose.yaml = web:cap_drop\n"));
    assert_non_null(strstr(update.edited, "./compose.yaml = web:pid:host\n"));
    allowlist_update_release(&update);
    config_release(&config);
    file_result_release(&results[0]);
    file_result_release(&results[1]);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_scope_syntax),
        T(test_scopes_cover),
        T(test_first_entry_names_it),
        T(test_only_state_changes),
        T(test_matching_cost),
        T(test_stale_per_scope),
        T(test_update_one_entry_per_package_key),
        T(test_update_what_gets_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
