/* Unit tests for path helpers and Compose file names (core/util/paths.c,
 * core/discover/discover.c). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover.h"
#include "paths.h"

static void check(char *got, const char *want)
{
    assert_string_equal(got, want);
    free(got);
}

static void test_absolute_normalises(void **state)
{
    (void)state;
    check(path_absolute("/a/./b//c/../d/"), "/a/b/d");
    check(path_absolute("/.."), "/");
    check(path_absolute("/"), "/");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    char *joined = path_join(cwd, "x/y");
    check(path_absolute("./x/z/../y"), joined);
    free(joined);
}

static void test_relative(void **state)
{
    (void)state;
    check(path_relative("/a/b", "/a/b/c/d.yaml"), "c/d.yaml");
    check(path_relative("/a/b", "/a/b"), ".");
    check(path_relative("/a/b", "/a/c/d"), "../c/d");
    check(path_relative("/a/b", "/a/bc"), "../bc");
    check(path_relative("/a/b/c", "/x"), "../../../x");
    check(path_relative("/", "/etc/x"), "etc/x");
    check(path_relative("/a", "/"), "..");
}

static void test_basename_dirname(void **state)
{
    (void)state;
    check(path_basename("/a/b/"), "b");
    check(path_basename("b"), "b");
    check(path_basename("/"), "/");
    check(path_dirname("/a/b/c"), "/a/b");
    check(path_dirname("/a"), "/");
    check(path_dirname("a"), ".");
    check(path_join("a/", "b"), "a/b");
    check(path_join("a", "b"), "a/b");
    assert_true(path_is_within("/a/b", "/a/b/c"));
    assert_true(path_is_within("/a/b", "/a/b"));
    assert_false(path_is_within("/a/b", "/a/bc"));
    assert_true(path_is_within("/", "/x"));
}

static void test_compose_names(void **state)
{
    (void)state;
    static const char *const yes[] = {
        "compose.yaml", "compose.yml", "compose.override.yml",
        "docker-compose.yml", "docker-compose.prod.yaml", "compose-dev.yml",
        "composer.yml", "docker-compose.yaml",
        /* SPEC §15: *-compose, *_compose, *.compose */
        "my-compose.yml", "docker_compose.yml", "ctf.compose.yaml",
    };
    static const char *const no[] = {
        "Compose.yaml", "compose.yaml.bak", "compose.json",
        "docker-compose", "compose.yml~", "compose.YML",
        "xcompose.yml", ".compose.yml", "-compose.yml", "compose.tyml", "my-compose.json",
    };
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
        assert_true(discover_is_compose_name(yes[i]));
    for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
        assert_false(discover_is_compose_name(no[i]));
}

static void test_report_order(void **state)
{
    (void)state;
    /* Component by component: a directory's files stay together. */
    assert_true(discover_compare("a/b/x.yml", "a/b.c/compose.yml") < 0);
    assert_true(discover_compare("a/b.c/compose.yml", "a/bc/compose.yml") < 0);
    assert_true(discover_compare("a/b-c/compose.yml", "a/b/compose.yml") > 0);
    assert_true(discover_compare("a", "a/b") < 0);
    assert_true(discover_compare("a/b", "a/b") == 0);
    assert_true(discover_compare("../x/compose.yml", "compose.yml") < 0);
    assert_true(discover_compare("Z/compose.yml", "a/compose.yml") < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_absolute_normalises),
        cmocka_unit_test(test_relative),
        cmocka_unit_test(test_basename_dirname),
        cmocka_unit_test(test_compose_names),
        cmocka_unit_test(test_report_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
