/* Unit tests for package rules (core/config/packages.c): SPEC §3. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_file.h"
#include "packages.h"
#include "paths.h"

static char root[64];

static void make_directory(const char *relative)
{
    char *path = path_join(root, relative);
    char *cursor = path + strlen(root);
    for (;;) {
        cursor = strchr(cursor + 1, '/');
        if (cursor != NULL)
            *cursor = '\0';
        if (mkdir(path, 0755) != 0)
            assert_true(access(path, F_OK) == 0);
        if (cursor == NULL)
            break;
        *cursor = '/';
    }
    free(path);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/sandlint-packages-XXXXXX");
    if (mkdtemp(root) == NULL)
        return -1;
    make_directory("evals/alpha/sub");
    make_directory("evals/beta");
    make_directory("more/deep/alpha");
    make_directory("src/inspect_evals/cybench/challenges");
    make_directory("src/tools");
    make_directory("other/.git/evals/x");
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    return system(command) == 0 ? 0 : -1;
}

/* A configuration with these packages globs (NULL: none set). */
static void configure(struct config *config, const char *const *globs, size_t count,
                      bool inspect_evals)
{
    memset(config, 0, sizeof(*config));
    struct config_pos pos = { 1, 1 };
    config->has_packages = globs != NULL;
    for (size_t i = 0; i < count; i++)
        config_list_add(&config->packages, globs[i], strlen(globs[i]), pos);
    config->inspect_evals = inspect_evals;
}

static void expect_package(const struct package_directories *packages,
                           const char *relative, const char *want)
{
    char *absolute = path_join(root, relative);
    char *got = packages_name(packages, absolute);
    if (strcmp(got, want) != 0)
        fail_msg("package of %s is '%s', expected '%s'", relative, got, want);
    free(got);
    free(absolute);
}

static void test_without_packages_everything_is_any(void **state)
{
    (void)state;
    struct config config;
    configure(&config, NULL, 0, false);
    struct package_directories packages;
    packages_find(&config, root, &packages);
    assert_false(packages.configured);
    expect_package(&packages, "evals/alpha/compose.yaml", "*");
    expect_package(&packages, "compose.yaml", "*");
    packages_release(&packages);
    config_release(&config);
}

static void test_globs_name_the_deepest_directory(void **state)
{
    (void)state;
    static const char *const globs[] = { "evals/*", "evals/alpha/sub", "**/deep/*" };
    struct config config;
    configure(&config, globs, 3, false);
    struct package_directories packages;
    packages_find(&config, root, &packages);
    expect_package(&packages, "evals/alpha/compose.yaml", "alpha");
    expect_package(&packages, "evals/alpha/x/y/compose.yaml", "alpha");
    expect_package(&packages, "evals/alpha/sub/compose.yaml", "sub");
    expect_package(&packages, "evals/beta/compose.yaml", "beta");
    expect_package(&packages, "more/deep/alpha/compose.yaml", "alpha");
    /* Outside every package directory, or outside the root. */
    expect_package(&packages, "evals/compose.yaml", "*");
    expect_package(&packages, "compose.yaml", "*");
    expect_package(&packages, "../elsewhere/evals/alpha/compose.yaml", "*");
    /* The directories on disk: .git is not searched. */
    assert_int_equal(packages.list.count, 4);
    packages_release(&packages);
    config_release(&config);
}

static void test_absolute_globs(void **state)
{
    (void)state;
    char *glob = path_join(root, "evals/*");
    const char *const globs[] = { glob };
    struct config config;
    configure(&config, globs, 1, false);
    struct package_directories packages;
    packages_find(&config, "/", &packages);
    expect_package(&packages, "evals/beta/compose.yaml", "beta");
    assert_int_equal(packages.list.count, 2);
    packages_release(&packages);
    config_release(&config);
    free(glob);
}

static void test_inspect_evals_layout(void **state)
{
    (void)state;
    struct config config;
    configure(&config, NULL, 0, true);
    struct package_directories packages;
    packages_find(&config, root, &packages);
    assert_true(packages.configured);
    expect_package(&packages, "src/inspect_evals/cybench/challenges/a/compose.yaml",
                   "cybench");
    expect_package(&packages, "src/tools/compose.yaml", "*");
    packages_release(&packages);
    /* Without src/inspect_evals/, the directories under src/. */
    char *inspect = path_join(root, "src/inspect_evals");
    char *moved = path_join(root, "src/renamed");
    assert_int_equal(rename(inspect, moved), 0);
    packages_find(&config, root, &packages);
    expect_package(&packages, "src/tools/compose.yaml", "tools");
    expect_package(&packages, "src/renamed/cybench/compose.yaml", "renamed");
    packages_release(&packages);
    assert_int_equal(rename(moved, inspect), 0);
    free(inspect);
    free(moved);
    /* An explicit packages setting, even empty, replaces the layout. */
    config.has_packages = true;
    packages_find(&config, root, &packages);
    expect_package(&packages, "src/inspect_evals/cybench/compose.yaml", "*");
    packages_release(&packages);
    config_release(&config);
}

/* Two checkouts of the same repository name their packages alike. */
static void test_names_do_not_depend_on_the_checkout(void **state)
{
    (void)state;
    static const char *const globs[] = { "evals/*" };
    struct config config;
    configure(&config, globs, 1, false);
    struct package_directories here, there;
    packages_find(&config, root, &here);
    packages_find(&config, "/nonexistent/checkout", &there);
    char *a = packages_name(&here, "/tmp/x/evals/alpha/compose.yaml");
    char *b = packages_name(&there, "/nonexistent/checkout/evals/alpha/compose.yaml");
    char *c = path_join(root, "evals/alpha/compose.yaml");
    char *d = packages_name(&here, c);
    assert_string_equal(a, "*");    /* /tmp/x is not this root */
    assert_string_equal(b, "alpha");
    assert_string_equal(d, "alpha");
    free(a);
    free(b);
    free(c);
    free(d);
    packages_release(&here);
    packages_release(&there);
    config_release(&config);
}

static void test_covered(void **state)
{
    (void)state;
    const char *const operands[] = { "/r/evals/alpha", "/r/more/compose.yaml" };
    assert_true(packages_covered(operands, 2, "/r/evals/alpha"));
    assert_true(packages_covered(operands, 2, "/r/evals/alpha/sub"));
    assert_false(packages_covered(operands, 2, "/r/evals"));
    assert_false(packages_covered(operands, 2, "/r/evals/alphabet"));
    assert_false(packages_covered(operands, 2, "/r/more"));
    assert_false(packages_covered(operands, 0, "/r"));
    const char *const everything[] = { "/" };
    assert_true(packages_covered(everything, 1, "/r/evals"));
}

static void test_fully_checked(void **state)
{
    (void)state;
    static const char *const globs[] = { "evals/*", "**/deep/*" };
    struct config config;
    configure(&config, globs, 2, false);
    struct package_directories packages;
    packages_find(&config, root, &packages);
    char *evals = path_join(root, "evals");
    char *evals_alpha = path_join(root, "evals/alpha");
    char *evals_beta = path_join(root, "evals/beta");
    char *deep_alpha = path_join(root, "more/deep/alpha");
    char *file = path_join(root, "evals/alpha/compose.yaml");
    /* alpha has two directories: both must be covered. */
    const char *const one[] = { evals_alpha };
    assert_false(packages_fully_checked(&packages, "alpha", one, 1));
    assert_false(packages_fully_checked(&packages, "beta", one, 1));
    const char *const both[] = { deep_alpha, evals };
    assert_true(packages_fully_checked(&packages, "alpha", both, 2));
    assert_true(packages_fully_checked(&packages, "beta", both, 2));
    /* A file operand (a pre-commit hook) never fully checks a package. */
    const char *const hook[] = { file };
    assert_false(packages_fully_checked(&packages, "alpha", hook, 1));
    /* "*" and packages without a directory: only with the root covered. */
    assert_false(packages_fully_checked(&packages, "*", both, 2));
    assert_false(packages_fully_checked(&packages, "gone", both, 2));
    const char *const whole[] = { root };
    assert_true(packages_fully_checked(&packages, "*", whole, 1));
    assert_true(packages_fully_checked(&packages, "gone", whole, 1));
    assert_true(packages_fully_checked(&packages, "alpha", whole, 1));
    (void)evals_beta;
    free(evals);
    free(evals_alpha);
    free(evals_beta);
    free(deep_alpha);
    free(file);
    packages_release(&packages);
    config_release(&config);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_without_packages_everything_is_any),
        cmocka_unit_test(test_globs_name_the_deepest_directory),
        cmocka_unit_test(test_absolute_globs),
        cmocka_unit_test(test_inspect_evals_layout),
        cmocka_unit_test(test_names_do_not_depend_on_the_checkout),
        cmocka_unit_test(test_covered),
        cmocka_unit_test(test_fully_checked),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
