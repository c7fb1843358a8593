/* Unit tests for the configuration glob matcher (core/discover/path_glob.c). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"

struct match_case {
    const char *pattern;
    const char *path;
    bool matches;
};

static void check_cases(const struct match_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        bool got = glob_match(cases[i].pattern, cases[i].path, false);
        if (got != cases[i].matches)
            fail_msg("glob_match(\"%s\", \"%s\") is %s, expected %s", cases[i].pattern,
                     cases[i].path, got ? "true" : "false",
                     cases[i].matches ? "true" : "false");
    }
}

#define CHECK(cases) check_cases(cases, sizeof(cases) / sizeof(cases[0]))

static void test_literal_and_anchored(void **state)
{
    (void)state;
    static const struct match_case cases[] = {
        { "a", "a", true },
        { "a", "b", false },
        { "a/b", "a/b", true },
        { "a/b", "a/b/c", false },          /* whole paths only */
        { "a", "x/a", false },              /* anchored at the root */
        { "b", "a/b", false },
        { "./a/b", "a/b", true },           /* "./" and "//" ignored */
        { "a//b", "a/b", true },
        { "", "a", false },                 /* an empty glob matches nothing */
        { ".", "a", false },
        { "a", "", false },
        { "évals/ü", "évals/ü", true },
    };
    CHECK(cases);
}

static void test_star_and_question_stay_in_a_component(void **state)
{
    (void)state;
    static const struct match_case cases[] = {
        { "*", "a", true },
        { "*", ".hidden", true },           /* no dotfile rule */
        { "*", "a/b", false },
        { "src/*", "src/cybench", true },
        { "src/*", "src/cybench/x", false },
        { "src/*", "src", false },
        { "*/compose.yaml", "a/compose.yaml", true },
        { "*/compose.yaml", "a/b/compose.yaml", false },
        { "a*b", "ab", true },
        { "a*b", "axxb", true },
        { "a*b", "axxbc", false },
        { "a*b*c", "abxbc", true },
        { "*.y*ml", "compose.yaml", true },
        { "*.y*ml", "compose.yml", true },
        { "*.y*ml", "compose.json", false },
        { "?", "a", true },
        { "?", "é", true },                 /* one code point, two bytes */
        { "??", "é", false },
        { "?", "", false },
        { "a?c", "a/c", false },
        { "a**b", "axyb", true },           /* not a whole component: a star */
        { "a**b", "ax/yb", false },
    };
    CHECK(cases);
}

static void test_brackets(void **state)
{
    (void)state;
    static const struct match_case cases[] = {
        { "[abc]", "b", true },
        { "[abc]", "d", false },
        { "[a-c]x", "bx", true },
        { "[a-c]x", "dx", false },
        { "[!a-c]", "d", true },
        { "[!a-c]", "b", false },
        { "[^a-c]", "d", true },
        { "[]a]", "]", true },              /* ']' first belongs to the set */
        { "[!]a]", "]", false },
        { "[!]a]", "b", true },
        { "[a-]", "-", true },              /* '-' last is literal */
        { "[\\]]", "]", true },
        { "[é-ü]", "ö", true },             /* ranges of code points */
        { "[é-ü]", "e", false },
        { "[ab", "[ab", true },             /* unclosed: literal '[' */
        { "[ab", "a", false },
        { "[/]", "/", false },
        { "a[/]b", "a/b", false },
    };
    CHECK(cases);
}

static void test_escapes(void **state)
{
    (void)state;
    static const struct match_case cases[] = {
        { "\\*", "*", true },
        { "\\*", "a", false },
        { "a\\?", "a?", true },
        { "a\\?", "ab", false },
        { "\\[a]", "[a]", true },
        { "a\\", "a\\", true },             /* a trailing '\' is itself */
    };
    CHECK(cases);
}

static void test_globstar(void **state)
{
    (void)state;
    static const struct match_case cases[] = {
        { "**/compose.yaml", "compose.yaml", true },
        { "**/compose.yaml", "a/compose.yaml", true },
        { "**/compose.yaml", "a/b/c/compose.yaml", true },
        { "**/compose.yaml", "a/b/c/compose.yml", false },
        { "a/**/b", "a/b", true },
        { "a/**/b", "a/x/b", true },
        { "a/**/b", "a/x/y/b", true },
        { "a/**/b", "a/x/y/c", false },
        { "a/**/b", "b", false },
        { "a/**", "a/x", true },            /* everything inside ... */
        { "a/**", "a/x/y", true },
        { "a/**", "a", false },             /* ... not the directory itself */
        { "a/**", "b/x", false },
        { "**", "a", true },
        { "**", "a/b/c", true },
        { "**/**/x", "x", true },
        { "**/tests/**", "a/tests/b/c", true },
        { "**/tests/**", "a/tests", false },
        { "src/**/*.yml", "src/x/y/z.yml", true },
        { "src/**/*.yml", "src/z.yml", true },
        { "src/**/*.yml", "src/z.yaml", false },
        /* Backtracking: the first candidate for b is not the right one. */
        { "**/b/c", "b/x/b/c", true },
        { "**/b/**/c", "a/b/x/b/y/c", true },
        { "**/b/**/c", "a/b/x/b/y/d", false },
    };
    CHECK(cases);
}

static void test_directory_only(void **state)
{
    (void)state;
    assert_true(glob_match("vendor/", "vendor", true));
    assert_false(glob_match("vendor/", "vendor", false));
    assert_true(glob_match("vendor", "vendor", false));
    assert_true(glob_match("**/build/", "a/build", true));
}

/* A path deeper than any fixed array: still matched. */
static void test_deep_paths(void **state)
{
    (void)state;
    size_t levels = 5000;
    char *path = malloc(levels * 2 + 16);
    size_t used = 0;
    for (size_t i = 0; i < levels; i++) {
        path[used++] = 'a';
        path[used++] = '/';
    }
    memcpy(path + used, "compose.yaml", 13);
    assert_true(glob_match("**/compose.yaml", path, false));
    assert_true(glob_match("a/**", path, false));
    assert_false(glob_match("**/b/**", path, false));
    free(path);
}

/* The classic worst case of naive backtracking: must stay fast. */
static void test_no_exponential_backtracking(void **state)
{
    (void)state;
    char pattern[256], path[256];
    size_t used = 0;
    for (int i = 0; i < 30; i++)
        used += (size_t)snprintf(pattern + used, sizeof(pattern) - used, "a*");
    snprintf(pattern + used, sizeof(pattern) - used, "b");
    memset(path, 'a', 100);
    path[100] = '\0';
    assert_false(glob_match(pattern, path, false));
    used = 0;
    for (int i = 0; i < 30; i++)
        used += (size_t)snprintf(pattern + used, sizeof(pattern) - used, "**/a/");
    snprintf(pattern + used, sizeof(pattern) - used, "b");
    used = 0;
    for (int i = 0; i < 60; i++)
        used += (size_t)snprintf(path + used, sizeof(path) - used, "a/");
    snprintf(path + used, sizeof(path) - used, "c");
    assert_false(glob_match(pattern, path, false));
}

static void test_match_below(void **state)
{
    (void)state;
    assert_int_equal(glob_match_below("src/*", ""), GLOB_BELOW_BOUNDED);
    assert_int_equal(glob_match_below("src/*", "src"), GLOB_BELOW_BOUNDED);
    assert_int_equal(glob_match_below("src/*", "src/x"), GLOB_BELOW_NONE);
    assert_int_equal(glob_match_below("src/*", "lib"), GLOB_BELOW_NONE);
    assert_int_equal(glob_match_below("s*/a/b", "src/a"), GLOB_BELOW_BOUNDED);
    assert_int_equal(glob_match_below("s*/a/b", "src/c"), GLOB_BELOW_NONE);
    assert_int_equal(glob_match_below("**/pkg", ""), GLOB_BELOW_ANY);
    assert_int_equal(glob_match_below("**/pkg", "x/y"), GLOB_BELOW_ANY);
    assert_int_equal(glob_match_below("a/**/pkg", "a"), GLOB_BELOW_ANY);
    assert_int_equal(glob_match_below("a/**/pkg", "b"), GLOB_BELOW_NONE);
    assert_int_equal(glob_match_below("a/**", "a"), GLOB_BELOW_BOUNDED);
    assert_int_equal(glob_match_below("a/**", "a/b"), GLOB_BELOW_ANY);
}

static void test_list_relative_and_absolute(void **state)
{
    (void)state;
    struct string_list patterns = STRING_LIST_INIT;
    assert_false(glob_list_match(NULL, "a", "/r/a", false));
    assert_false(glob_list_match(&patterns, "a", "/r/a", false));
    string_list_add(&patterns, "vendor/**");
    string_list_add(&patterns, "/opt/*/compose.yaml");
    assert_true(glob_list_match(&patterns, "vendor/x/compose.yaml",
                                "/r/vendor/x/compose.yaml", false));
    assert_false(glob_list_match(&patterns, "src/compose.yaml", "/r/src/compose.yaml",
                                 false));
    /* An absolute glob is matched against the absolute path, even outside
     * the root; a relative one never matches outside the root. */
    assert_true(glob_list_match(&patterns, NULL, "/opt/x/compose.yaml", false));
    assert_false(glob_list_match(&patterns, NULL, "/elsewhere/vendor/x/compose.yaml",
                                 false));
    assert_false(glob_list_match(&patterns, "opt/x/compose.yaml", "/r/opt/x/compose.yaml",
                                 false));
    string_list_release(&patterns);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_and_anchored),
        cmocka_unit_test(test_star_and_question_stay_in_a_component),
        cmocka_unit_test(test_brackets),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_globstar),
        cmocka_unit_test(test_directory_only),
        cmocka_unit_test(test_deep_paths),
        cmocka_unit_test(test_no_exponential_backtracking),
        cmocka_unit_test(test_match_below),
        cmocka_unit_test(test_list_relative_and_absolute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
