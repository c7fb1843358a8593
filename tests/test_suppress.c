/* Unit tests for suppression comments (core/exceptions/suppress.c, SPEC §8): a table
 * of comment texts and what each does to a finding on its line. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "registry.h"
#include "sandlint/plugin.h"
#include "suppress.h"

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
    static const struct sl_rule privileges = {
        SL_RULE_INIT, .code = "SBX001", .name = "privileges",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "test", .check_service = check_service,
    };
    static const struct sl_rule mounts = {
        SL_RULE_INIT, .code = "SBX003", .name = "mounts",
        .group = "sandbox_privileges", .group_code = "IESC001",
        .summary = "test", .check_service = check_service,
    };
    static const struct sl_rule *const rules[] = { &privileges, &mounts, NULL };
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

struct comment_case {
    const char *comment;        /* written after the setting on line 3 */
    bool suppressed;            /* the SBX001 finding on line 3 */
    const char *problem;        /* an SL004 message part, or NULL for none */
};

static const struct comment_case cases[] = {
    { "# sandlint: ignore[SBX001] -- needs it", true, NULL },
    { "#sandlint: ignore[SBX001] -- no blank after '#'", true, NULL },
    { "# sandlint: ignore[IESC001] -- the group code", true, NULL },
    { "# sandlint: ignore[sandbox_privileges] -- the group", true, NULL },
    { "# sandlint: ignore[privileges] -- the name", true, NULL },
    { "# sandlint: ignore[SBX] -- a code prefix", true, NULL },
    { "# sandlint: ignore[SBX003, SBX001] -- two", true, NULL },
    { "# inspect-evals-lint: ignore[IESC001] -- drop-in", true, NULL },
    { "# sandlint: ignore[SBX003] -- another rule", false, "matches no finding" },
    { "# sandlint: ignore[SBX001]", true, "gives no reason" },
    { "# sandlint: ignore[SBX001] --   ", true, "gives no reason" },
    { "# sandlint: ignore[NOPE] -- r", false, "'NOPE' names no rule" },
    { "# sandlint: ignore[NOPE, SBX001] -- r", true, "'NOPE' names no rule" },
    { "# sandlint: ignore[] -- r", false, "empty selector list" },
    { "# sandlint: ignore[ , ] -- r", false, "empty selector list" },
    { "# sandlint: ignored[SBX001] -- r", false, "unknown suppression directive" },
    { "# sandlint: ignore SBX001 -- r", false, "needs a selector list" },
    { "# sandlint: ignore[SBX001 -- r", false, "needs a selector list" },
    { "# SANDLINT: ignore[SBX001] -- r", false, NULL },
    { "# see sandlint: ignore[SBX001] -- r", false, NULL },
    { "# an ordinary comment", false, NULL },
    { "", false, NULL },
};

/* Checks one case: the text, a finding on line 3, the comments applied. */
static void run_case(const struct comment_case *test)
{
    char text[512];
    snprintf(text, sizeof(text), "services:\n  web:\n    privileged: true  %s\n",
             test->comment);
    struct file_check check;
    file_check_init(&check, &registry, "compose.yaml", NULL);
    struct finding_spec spec = {
        .rule = CORE_RULE_COUNT, .severity = SL_SEVERITY_ERROR, .line = 3,
        .column = 5, .service = "web", .service_length = 3,
        .field = "privileged", .message = "privileged",
    };
    finding_set_add(&check.result.findings, &spec);
    suppress_apply(text, strlen(text), &check);

    const struct finding *finding = &check.result.findings.items[0];
    if ((finding->status == STATUS_SUPPRESSED) != test->suppressed)
        fail_msg("'%s': suppressed is %d", test->comment, !test->suppressed);
    const struct finding *problem = NULL;
    for (size_t i = 0; i < check.result.findings.count; i++)
        if (check.result.findings.items[i].rule == CORE_RULE_SUPPRESSION)
            problem = &check.result.findings.items[i];
    if (test->problem == NULL && problem != NULL)
        fail_msg("'%s': unexpected problem '%s'", test->comment, problem->message);
    if (test->problem != NULL &&
        (problem == NULL || strstr(problem->message, test->problem) == NULL))
        fail_msg("'%s': expected a problem with '%s'", test->comment, test->problem);
    if (problem != NULL) {
        assert_int_equal(problem->line, 3);
        assert_int_equal(problem->severity, SL_SEVERITY_WARNING);
    }
    file_check_release(&check);
}

static void test_comment_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i]);
}

/* A '#' inside a scalar is not a comment; a comment's reason is kept. */
static void test_only_real_comments(void **state)
{
    (void)state;
    static const char text[] =
        "services:\n"
        "  web:\n"
        "    privileged: \"x # sandlint: ignore[SBX001] -- in a string\"\n"
        "    cap_add: [A]  # sandlint: ignore[SBX001] -- reviewed (SEC-1)\n";
    struct file_check check;
    file_check_init(&check, &registry, "compose.yaml", NULL);
    for (unsigned line = 3; line <= 4; line++) {
        struct finding_spec spec = {
            .rule = CORE_RULE_COUNT, .severity = SL_SEVERITY_ERROR, .line = line,
            .column = 5, .service = "web", .service_length = 3,
            .field = line == 3 ? "privileged" : "cap_add", .message = "m",
        };
        finding_set_add(&check.result.findings, &spec);
    }
    suppress_apply(text, strlen(text), &check);
    assert_int_equal(check.result.findings.items[0].status, STATUS_FAIL);
    const struct finding *suppressed = &check.result.findings.items[1];
    assert_int_equal(suppressed->status, STATUS_SUPPRESSED);
    assert_int_equal(check.result.comment_count, 1);
    assert_string_equal(check.result.comments[suppressed->comment].reason,
                        "reviewed (SEC-1)");
    file_check_release(&check);
}

/* A comment alone on its line covers the next line that holds YAML; an
 * unused one is reported at the comment, unless its rule did not run. */
static void test_own_line_comments(void **state)
{
    (void)state;
    static const char text[] =
        "services:\n"                                              /* 1 */
        "  web:\n"                                                 /* 2 */
        "    # sandlint: ignore[SBX001] -- covers line 6\n"        /* 3 */
        "\n"                                                       /* 4 */
        "    # just a comment\n"                                   /* 5 */
        "    privileged: true\n"                                   /* 6 */
        "    # sandlint: ignore[SBX003] -- nothing on line 8\n"    /* 7 */
        "    image: x\n";                                          /* 8 */
    struct file_check check;
    file_check_init(&check, &registry, "compose.yaml", NULL);
    struct finding_spec spec = {
        .rule = CORE_RULE_COUNT, .severity = SL_SEVERITY_ERROR, .line = 6,
        .column = 5, .service = "web", .service_length = 3,
        .field = "privileged", .message = "m",
    };
    finding_set_add(&check.result.findings, &spec);
    suppress_apply(text, strlen(text), &check);
    assert_int_equal(check.result.findings.items[0].status, STATUS_SUPPRESSED);
    assert_int_equal(check.result.findings.count, 2);
    const struct finding *unused = &check.result.findings.items[1];
    assert_int_equal(unused->rule, CORE_RULE_SUPPRESSION);
    assert_int_equal(unused->line, 7);
    assert_string_equal(unused->message, "suppression comment matches no finding");
    file_check_release(&check);

    /* With SBX003 switched off, its unused comment cannot be judged. */
    registry.rules[CORE_RULE_COUNT + 1].enabled = false;
    file_check_init(&check, &registry, "compose.yaml", NULL);
    finding_set_add(&check.result.findings, &spec);
    suppress_apply(text, strlen(text), &check);
    assert_int_equal(check.result.findings.count, 1);
    file_check_release(&check);
}

/* ignore-file covers the whole file within the first 10 lines only. */
static void test_ignore_file(void **state)
{
    (void)state;
    for (unsigned at = 1; at <= 12; at += 11) {
        char text[512] = "";
        size_t used = 0;
        for (unsigned line = 1; line < at; line++)
            used += (size_t)snprintf(text + used, sizeof(text) - used, "# filler\n");
        snprintf(text + used, sizeof(text) - used,
                 "# sandlint: ignore-file[SBX001] -- whole file\n"
                 "services:\n  web:\n    privileged: true\n");
        struct file_check check;
        file_check_init(&check, &registry, "compose.yaml", NULL);
        struct finding_spec spec = {
            .rule = CORE_RULE_COUNT, .severity = SL_SEVERITY_ERROR,
            .line = at + 3, .column = 5, .service = "web", .service_length = 3,
            .field = "privileged", .message = "m",
        };
        finding_set_add(&check.result.findings, &spec);
        suppress_apply(text, strlen(text), &check);
        bool suppressed = check.result.findings.items[0].status == STATUS_SUPPRESSED;
        assert_int_equal(suppressed, at <= 10);
        file_check_release(&check);
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_comment_table),
        T(test_only_real_comments),
        T(test_own_line_comments),
        T(test_ignore_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
