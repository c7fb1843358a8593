/*
 * Unit tests for Compose interpolation (core/kinds/compose_interpolation.c):
 * SPEC §13.  The expected values are compose-go's (template package), each
 * case checked against it while writing them.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose_interpolation.h"

/* --- a fixed set of variables ---------------------------------------------- */

/* A=1, E="" (set, empty), V=value, SANDBOX_PID=host (.env:3), N listed
 * without a value, ſ=long-s, U="" whose own value used the unset Q, and a
 * value with a NUL byte. */
static struct interpolation_definition definitions[] = {
    { "A", 1, "1", 1, 1, ".env", 1, 1, INTERPOLATION_FIXED, NULL },
    { "E", 1, "", 0, 1, ".env", 2, 1, INTERPOLATION_FIXED, NULL },
    { "SANDBOX_PID", 11, "host", 4, 1, ".env", 3, 1, INTERPOLATION_FIXED, NULL },
    { "V", 1, "value", 5, 1, ".env", 4, 1, INTERPOLATION_FIXED, NULL },
    { "N", 1, "", 0, 0, ".env", 5, 1, INTERPOLATION_FIXED, NULL },
    { "\xc5\xbf", 2, "long-s", 6, 1, ".env", 6, 1, INTERPOLATION_FIXED, NULL },
    { "U", 1, "", 0, 1, ".env", 7, 1, INTERPOLATION_UNSET, "Q" },
    { "Z", 1, "a\0b", 3, 1, ".env", 8, 1, INTERPOLATION_FIXED, NULL },
    { "BRACES", 6, "${A}", 4, 1, ".env", 9, 1, INTERPOLATION_FIXED, NULL },
};

static const struct interpolation_definition *find(const void *context, const char *name,
                                                   size_t length)
{
    (void)context;
    for (size_t i = 0; i < sizeof(definitions) / sizeof(*definitions); i++)
        if (definitions[i].name_length == length &&
            memcmp(definitions[i].name, name, length) == 0)
            return &definitions[i];
    return NULL;
}

static const struct interpolation_variables variables = { find, NULL };

static enum interpolation_status resolve(const char *text, struct interpolation_result *result)
{
    struct interpolation_budget budget;
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    return compose_interpolate(text, strlen(text), &variables, &budget, result);
}

/* --- the table --------------------------------------------------------------- */

struct resolution {
    const char *text;
    enum interpolation_status status;
    const char *expected;           /* the text; the error kind's name for errors */
    enum interpolation_error error;
    const char *unset;              /* INTERPOLATION_UNSET: the variable */
};

#define FIXED(t, e) { t, INTERPOLATION_FIXED, e, INTERPOLATION_ERROR_NONE, NULL }
#define RESOLVED(t, e) { t, INTERPOLATION_RESOLVED, e, INTERPOLATION_ERROR_NONE, NULL }
#define UNSET(t, e, v) { t, INTERPOLATION_UNSET, e, INTERPOLATION_ERROR_NONE, v }
#define ERROR(t, k) { t, INTERPOLATION_ERROR, NULL, k, NULL }

static const struct resolution resolutions[] = {
    /* No variable. */
    FIXED("", ""),
    FIXED("plain text", "plain text"),
    FIXED("$$", "$"),
    FIXED("$$$$", "$$"),
    FIXED("$$evil.yml", "$evil.yml"),
    FIXED("$${A}", "${A}"),
    FIXED("a$", "a$"),
    FIXED("$", "$"),
    FIXED("$1", "$1"),
    FIXED("$-x", "$-x"),
    FIXED("cost: 5$ {x}", "cost: 5$ {x}"),
    FIXED("$\xc3\x84", "$\xc3\x84"),            /* a letter Go does not fold: text */
    /* Named and braced. */
    RESOLVED("$A", "1"),
    RESOLVED("${A}", "1"),
    RESOLVED("x$A.y", "x1.y"),
    RESOLVED("$A$A${A}", "111"),
    RESOLVED("$$$A", "$1"),
    RESOLVED("${SANDBOX_PID}", "host"),
    RESOLVED("$E", ""),
    RESOLVED("$BRACES", "${A}"),                /* values are not interpolated again */
    RESOLVED("$\xc5\xbf", "long-s"),            /* U+017F folds to 's': a name */
    UNSET("$\xe2\x84\xaa", "", "\xe2\x84\xaa"),  /* U+212A folds to 'k' */
    UNSET("$A_", "", "A_"),                     /* names are as long as they go */
    UNSET("$Ab", "", "Ab"),
    UNSET("$X", "", "X"),
    UNSET("${X}", "", "X"),
    UNSET("x${X}y", "xy", "X"),
    UNSET("$N", "", "N"),                       /* listed without a value: unset */
    UNSET("${X}${A:-d}", "1", "X"),
    /* Defaults: ":-" for unset or empty, "-" for unset only. */
    RESOLVED("${X:-d}", "d"),
    RESOLVED("${E:-d}", "d"),
    RESOLVED("${A:-d}", "1"),
    RESOLVED("${X-d}", "d"),
    RESOLVED("${E-d}", ""),
    RESOLVED("${A-d}", "1"),
    RESOLVED("${X:-}", ""),
    RESOLVED("seccomp=${P:-unconfined}", "seccomp=unconfined"),
    RESOLVED("${X:-a b:c}", "a b:c"),
    RESOLVED("${X:-a-b}", "a-b"),
    /* Alternatives: ":+" for set and not empty, "+" for set. */
    RESOLVED("${X:+r}", ""),
    RESOLVED("${E:+r}", ""),
    RESOLVED("${A:+r}", "r"),
    RESOLVED("${X+r}", ""),
    RESOLVED("${E+r}", "r"),
    RESOLVED("${A+r}", "r"),
    /* Required: ":?" for unset or empty, "?" for unset only. */
    RESOLVED("${A:?e}", "1"),
    RESOLVED("${A?e}", "1"),
    RESOLVED("${E?e}", ""),
    ERROR("${X:?e}", INTERPOLATION_ERROR_REQUIRED),
    ERROR("${E:?e}", INTERPOLATION_ERROR_REQUIRED),
    ERROR("${X?e}", INTERPOLATION_ERROR_REQUIRED),
    ERROR("${X:?}", INTERPOLATION_ERROR_REQUIRED),
    ERROR("ok ${X?need it} too", INTERPOLATION_ERROR_REQUIRED),
    /* Nesting. */
    RESOLVED("${X:-${A}}", "1"),
    RESOLVED("${X:-x${A}y}", "x1y"),
    RESOLVED("${X:-${Y:-${V}}}", "value"),
    RESOLVED("${X:-${Y:-${W:-deep}}}", "deep"),
    RESOLVED("${A:+${X:-alt}}", "alt"),
    RESOLVED("${A:+$$}", "$"),
    UNSET("${X:-${Y}}", "", "Y"),
    RESOLVED("${X:-a}${Y:-b}", "ab"),
    RESOLVED("${X:-a} and ${Y:-b}", "a and b"),
    /* Braces: the first balancing '}', counting as compose-go counts. */
    RESOLVED("${X:-a}b}", "ab}"),
    RESOLVED("${X:-{x}}", "{x}"),
    RESOLVED("${X:-{}x}", "{}x"),               /* '}' right after '{' is skipped */
    RESOLVED("${X:-}}", "}"),
    RESOLVED("${X:-{}", "{"),                   /* ... yet ends the line's last */
    RESOLVED("${X:-{}}x", "{}x"),
    RESOLVED("${X:-a}\n${Y:-b}", "a\nb"),
    /* A default that is not used is not read: its error does not count. */
    RESOLVED("${A:-${}}", "1"),
    ERROR("${X:-${}}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A:+${}}", INTERPOLATION_ERROR_SYNTAX),
    /* What compose-go refuses. */
    ERROR("${}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${1}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${ A}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A }", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A:x}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A:}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A::-x}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A:-x", INTERPOLATION_ERROR_SYNTAX),
    ERROR("${A:-x\n}", INTERPOLATION_ERROR_SYNTAX),  /* the '}' must be on the line */
    ERROR("${A.B}", INTERPOLATION_ERROR_SYNTAX),
    ERROR("$A ${}", INTERPOLATION_ERROR_SYNTAX),
};

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(resolutions) / sizeof(*resolutions); i++) {
        const struct resolution *c = &resolutions[i];
        struct interpolation_result result;
        enum interpolation_status status = resolve(c->text, &result);
        if (status != c->status || result.error != c->error ||
            (c->expected != NULL &&
             (result.length != strlen(c->expected) ||
              memcmp(result.text, c->expected, result.length) != 0)) ||
            (c->unset != NULL &&
             (result.unset_name_length != strlen(c->unset) ||
              memcmp(result.unset_name, c->unset, result.unset_name_length) != 0))) {
            print_error("case '%s': status %d error %d text '%s' (expected %d %d '%s')\n",
                        c->text, status, result.error, result.text ? result.text : "(none)",
                        c->status, c->error, c->expected ? c->expected : "(none)");
            fail();
        }
        if (status == INTERPOLATION_ERROR) {
            assert_null(result.text);
            assert_non_null(result.error_message);
        } else {
            assert_non_null(result.text);
            assert_int_equal(result.text[result.length], '\0');
            /* The parts cover the text exactly, in order. */
            size_t covered = 0;
            for (size_t p = 0; p < result.part_count; p++) {
                assert_int_equal(result.parts[p].offset, covered);
                covered += result.parts[p].length;
            }
            assert_int_equal(covered, result.length);
        }
        interpolation_result_release(&result);
    }
}

/* --- parts and descriptions ---------------------------------------------- */

static void test_parts_of_a_default(void **state)
{
    (void)state;
    struct interpolation_result result;
    const char *text = "seccomp=${P:-unconfined}";
    assert_int_equal(resolve(text, &result), INTERPOLATION_RESOLVED);
    assert_int_equal(result.part_count, 2);
    assert_int_equal(result.parts[0].kind, INTERPOLATION_PART_TEXT);
    assert_int_equal(result.parts[0].length, 8);
    assert_int_equal(result.parts[1].kind, INTERPOLATION_PART_DEFAULT);
    assert_int_equal(result.parts[1].offset, 8);
    assert_int_equal(result.parts[1].length, 10);
    assert_int_equal(result.parts[1].source_offset, 13);    /* "unconfined" */
    assert_int_equal(result.parts[1].name_length, 1);
    assert_memory_equal(result.parts[1].name, "P", 1);
    assert_null(result.parts[1].definition);
    char *sentence = interpolation_describe(&result);
    assert_string_equal(sentence, "the default of P, which is unset");
    free(sentence);
    interpolation_result_release(&result);
}

static void test_parts_of_a_value(void **state)
{
    (void)state;
    struct interpolation_result result;
    assert_int_equal(resolve("${SANDBOX_PID}", &result), INTERPOLATION_RESOLVED);
    assert_int_equal(result.part_count, 1);
    assert_int_equal(result.parts[0].kind, INTERPOLATION_PART_VALUE);
    assert_int_equal(result.parts[0].source_offset, 0);
    assert_int_equal(result.parts[0].source_length, 14);
    assert_ptr_equal(result.parts[0].definition, &definitions[2]);
    char *sentence = interpolation_describe(&result);
    assert_string_equal(sentence, "SANDBOX_PID from .env:3");
    free(sentence);
    interpolation_result_release(&result);
}

struct description {
    const char *text;
    const char *sentence;
};

static void test_descriptions(void **state)
{
    (void)state;
    static const struct description descriptions[] = {
        { "plain", "" },
        { "$$evil.yml", "'$$' written for '$'" },
        { "$A$A$A", "A from .env:1" },
        { "${E:-d}", "the default of E, which is empty in .env:2" },
        { "${A:+r}", "the alternative of A, which is set in .env:1" },
        { "${X:+r}", "X is unset, so its alternative is not used" },
        { "${E:+r}", "E is empty in .env:2, so its alternative is not used" },
        { "${X}", "X is unset" },
        { "$N", "N is unset (listed without a value in .env:5)" },
        { "${X:-}", "the default of X, which is unset" },
        { "${X:-a${A}b}", "the default of X, which is unset; A from .env:1" },
        { "$U", "U from .env:7; U used Q, which is unset" },
        { "$A$E$V$SANDBOX_PID$Z$$${X:-d}${Y:-d}",
          "A from .env:1; E from .env:2; V from .env:4; SANDBOX_PID from .env:3; "
          "Z from .env:8; '$$' written for '$'; ..." },
    };
    for (size_t i = 0; i < sizeof(descriptions) / sizeof(*descriptions); i++) {
        struct interpolation_result result;
        assert_int_not_equal(resolve(descriptions[i].text, &result), INTERPOLATION_ERROR);
        char *sentence = interpolation_describe(&result);
        if (strcmp(sentence, descriptions[i].sentence) != 0) {
            print_error("'%s' described as '%s'\n", descriptions[i].text, sentence);
            fail();
        }
        free(sentence);
        interpolation_result_release(&result);
    }
}

static void test_unset_through_a_variable(void **state)
{
    (void)state;
    struct interpolation_result result;
    /* U's own value used the unset Q ("U=${Q}" in .env): whatever this
     * value does with U, the deploy environment decides it. */
    assert_int_equal(resolve("${U:-safe}", &result), INTERPOLATION_UNSET);
    assert_string_equal(result.text, "safe");
    assert_int_equal(result.unset_name_length, 1);
    assert_memory_equal(result.unset_name, "Q", 1);
    assert_ptr_equal(result.unset_through, &definitions[6]);
    interpolation_result_release(&result);
}

static void test_nul_bytes_pass_through(void **state)
{
    (void)state;
    struct interpolation_result result;
    assert_int_equal(resolve("<$Z>", &result), INTERPOLATION_RESOLVED);
    assert_int_equal(result.length, 5);
    assert_memory_equal(result.text, "<a\0b>", 5);
    interpolation_result_release(&result);
}

static void test_required_message(void **state)
{
    (void)state;
    struct interpolation_result result;
    const char *text = "x ${X:?set X to $A}";
    assert_int_equal(resolve(text, &result), INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_REQUIRED);
    assert_int_equal(result.error_offset, 2);
    assert_non_null(strstr(result.error_message, "X is required and unset"));
    assert_non_null(strstr(result.error_message, "set X to 1"));
    assert_int_equal(result.unset_name_length, 1);
    assert_memory_equal(result.unset_name, "X", 1);
    interpolation_result_release(&result);
    /* A message that fails on its own is that failure. */
    assert_int_equal(resolve("${X:?${}}", &result), INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_SYNTAX);
    interpolation_result_release(&result);
}

static void test_syntax_error_position(void **state)
{
    (void)state;
    struct interpolation_result result;
    assert_int_equal(resolve("ok $A then ${A:x} end", &result), INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_SYNTAX);
    assert_int_equal(result.error_offset, 11);
    assert_non_null(strstr(result.error_message, "'${A:x} end'"));
    interpolation_result_release(&result);
}

static void test_no_variables(void **state)
{
    (void)state;
    struct interpolation_budget budget;
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    struct interpolation_result result;
    assert_int_equal(compose_interpolate("${A:-d}$A", 9, NULL, &budget, &result),
                     INTERPOLATION_UNSET);
    assert_string_equal(result.text, "d");
    interpolation_result_release(&result);
    assert_int_equal(compose_interpolate(NULL, 0, NULL, &budget, &result),
                     INTERPOLATION_FIXED);
    assert_string_equal(result.text, "");
    interpolation_result_release(&result);
    interpolation_result_release(&result);      /* twice is fine */
}

/* --- limits ------------------------------------------------------------- */

static char *nested_defaults(unsigned levels)
{
    size_t length = (size_t)levels * 6 + 2;
    char *text = malloc(length);
    size_t at = 0;
    for (unsigned i = 0; i < levels; i++)
        at += (size_t)snprintf(text + at, length - at, "${X:-");
    text[at++] = 'x';
    memset(text + at, '}', levels);
    text[at + levels] = '\0';
    return text;
}

static void test_depth_limit(void **state)
{
    (void)state;
    struct interpolation_result result;
    char *deep_enough = nested_defaults(INTERPOLATION_MAX_DEPTH);
    assert_int_equal(resolve(deep_enough, &result), INTERPOLATION_RESOLVED);
    assert_string_equal(result.text, "x");
    interpolation_result_release(&result);
    free(deep_enough);
    char *too_deep = nested_defaults(INTERPOLATION_MAX_DEPTH + 1);
    assert_int_equal(resolve(too_deep, &result), INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_DEPTH);
    interpolation_result_release(&result);
    free(too_deep);
}

/* A variable whose value is 600 KiB: once fits, twice is over the limit. */
static struct interpolation_definition big = { "BIG", 3, NULL, 600 << 10, 1, ".env", 1, 1,
                                               INTERPOLATION_FIXED, NULL };

static const struct interpolation_definition *find_big(const void *context, const char *name,
                                                       size_t length)
{
    (void)context;
    return length == 3 && memcmp(name, "BIG", 3) == 0 ? &big : NULL;
}

static void test_length_limit(void **state)
{
    (void)state;
    char *value = malloc(big.value_length);
    memset(value, 'v', big.value_length);
    big.value = value;
    struct interpolation_variables with_big = { find_big, NULL };
    struct interpolation_budget budget;
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    struct interpolation_result result;
    assert_int_equal(compose_interpolate("$BIG", 4, &with_big, &budget, &result),
                     INTERPOLATION_RESOLVED);
    assert_int_equal(result.length, big.value_length);
    interpolation_result_release(&result);
    assert_int_equal(compose_interpolate("$BIG$BIG", 8, &with_big, &budget, &result),
                     INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_LENGTH);
    interpolation_result_release(&result);
    /* A value written longer than the limit keeps its length, and may not
     * grow. */
    size_t long_length = (size_t)2 << 20;
    char *long_text = malloc(long_length + 4);
    memset(long_text, 'w', long_length);
    memcpy(long_text + long_length - 2, "$$", 2);
    assert_int_equal(compose_interpolate(long_text, long_length, &with_big, &budget, &result),
                     INTERPOLATION_FIXED);
    assert_int_equal(result.length, long_length - 1);
    interpolation_result_release(&result);
    memcpy(long_text + long_length, "$BIG", 4);
    assert_int_equal(compose_interpolate(long_text, long_length + 4, &with_big, &budget,
                                         &result),
                     INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_LENGTH);
    interpolation_result_release(&result);
    free(long_text);
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    /* The work adds up over a file's values: 64 MiB is about a hundred
     * of them. */
    enum interpolation_status status = INTERPOLATION_RESOLVED;
    unsigned values = 0;
    while (status != INTERPOLATION_ERROR && values < 1000) {
        status = compose_interpolate("$BIG", 4, &with_big, &budget, &result);
        if (status == INTERPOLATION_ERROR)
            assert_int_equal(result.error, INTERPOLATION_ERROR_WORK);
        interpolation_result_release(&result);
        values++;
    }
    assert_true(values > 50 && values < 200);
    /* And once spent, every later value fails, even an empty one. */
    assert_int_equal(compose_interpolate("", 0, &with_big, &budget, &result),
                     INTERPOLATION_ERROR);
    assert_int_equal(result.error, INTERPOLATION_ERROR_WORK);
    interpolation_result_release(&result);
    free(value);
}

/*
 * Hostile shapes stay linear: each is resolved within a budget of a few
 * units per byte, which a quadratic walk (every expression scanning to the
 * end of its line) would exhaust.
 */
static void test_hostile_shapes_are_linear(void **state)
{
    (void)state;
    static const char *const units[] = {
        "${X:-a}",      /* many expressions on one long line */
        "${X:-{",       /* braces that never balance */
        "$$",           /* escapes */
        "$A",           /* values */
        "${X:-}}",      /* stray closing braces */
        "${X:-$",
    };
    size_t length = (size_t)1 << 20;
    char *text = malloc(length + 1);
    for (size_t u = 0; u < sizeof(units) / sizeof(*units); u++) {
        size_t unit = strlen(units[u]), at = 0;
        while (at + unit <= length) {
            memcpy(text + at, units[u], unit);
            at += unit;
        }
        text[at] = '\0';
        struct interpolation_budget budget;
        interpolation_budget_init(&budget, 64 * at);
        struct interpolation_result result;
        compose_interpolate(text, at, &variables, &budget, &result);
        if (result.status == INTERPOLATION_ERROR && result.error == INTERPOLATION_ERROR_WORK) {
            print_error("'%s' repeated: out of budget\n", units[u]);
            fail();
        }
        interpolation_result_release(&result);
    }
    free(text);
}

/* --- the 0.2 helpers, now here ------------------------------------------ */

static void test_has_interpolation(void **state)
{
    (void)state;
    static const char *const yes[] = { "${A}", "$A", "$_", "x$A", "${", "${}", "${1}",
                                       "$$$A", "$\xc5\xbf", "$\xe2\x84\xaa" };
    static const char *const no[] = { "", "a", "$", "$$", "$$A", "$1", "$-", "a$", "$$$$",
                                      "$\xc3\x84", "$\xc5" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
        assert_true(compose_has_interpolation(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
        assert_false(compose_has_interpolation(no[i], strlen(no[i])));
    assert_false(compose_has_interpolation(NULL, 3));
}

static void test_span(void **state)
{
    (void)state;
    assert_int_equal(compose_interpolation_span("$$", 2, 0), -2);
    assert_int_equal(compose_interpolation_span("$A/b", 4, 0), 2);
    assert_int_equal(compose_interpolation_span("${A:-${B}}/c", 12, 0), 10);
    assert_int_equal(compose_interpolation_span("${A/b", 5, 0), 5);
    assert_int_equal(compose_interpolation_span("$/", 2, 0), 0);
    assert_int_equal(compose_interpolation_span("$", 1, 0), 0);
    assert_int_equal(compose_interpolation_span("$\xc5\xbfx/", 5, 0), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_parts_of_a_default),
        cmocka_unit_test(test_parts_of_a_value),
        cmocka_unit_test(test_descriptions),
        cmocka_unit_test(test_unset_through_a_variable),
        cmocka_unit_test(test_nul_bytes_pass_through),
        cmocka_unit_test(test_required_message),
        cmocka_unit_test(test_syntax_error_position),
        cmocka_unit_test(test_no_variables),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_length_limit),
        cmocka_unit_test(test_hostile_shapes_are_linear),
        cmocka_unit_test(test_has_interpolation),
        cmocka_unit_test(test_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
