/*
 * Unit tests for the .env reader (core/kinds/dotenv.c): SPEC §13, §17.
 * The expected values are compose-go's (dotenv package), each case
 * checked against it while writing them.
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

#include "dotenv.h"

/* Parses text as ".env" into a fresh env (outer may be NULL); fails the
 * test on an error. */
static void parse_ok(struct dotenv *env, const struct dotenv *outer, const char *text)
{
    dotenv_init(env, outer);
    struct dotenv_error error;
    if (dotenv_parse(env, ".env", text, strlen(text), &error) != 0) {
        print_error("'%s': %u:%u %s\n", text, error.line, error.column, error.message);
        dotenv_error_release(&error);
        fail();
    }
}

/* The value the project sees for name, or NULL when it is unset. */
static const char *value_of(const struct dotenv *env, const char *name)
{
    const struct interpolation_definition *definition =
        dotenv_lookup(env, name, strlen(name));
    return definition != NULL && definition->has_value ? definition->value : NULL;
}

struct variable {
    const char *name, *value;      /* value NULL: unset */
};

struct reading {
    const char *text;
    struct variable variables[6];
};

static const struct reading readings[] = {
    { "A=1\nB=2", { { "A", "1" }, { "B", "2" } } },
    { "A=1\r\nB=2\r\n", { { "A", "1" }, { "B", "2" } } },
    { "export A=1\nexport\tB=2", { { "A", "1" }, { "B", "2" } } },
    { "exportA=1", { { "exportA", "1" }, { "A", NULL } } },
    { "export\nA=1", { { "A", "1" } } },
    { "A: 1\nB:2", { { "A", "1" }, { "B", "2" } } },
    { "  A  =  1  ", { { "A", "1" } } },
    { "A.b-c[0]=x", { { "A.b-c[0]", "x" } } },
    { "\xc3\x84PFEL=1", { { "\xc3\x84PFEL", "1" } } },
    { "A\tB=1", { { "A\tB", "1" } } },               /* a tab stays in the key */
    /* Comments. */
    { "# A=1\n  # B=2\nC=3", { { "A", NULL }, { "B", NULL }, { "C", "3" } } },
    { "A=1 # c\nB=x#y\nC= #z\nD=x\t# t", { { "A", "1" }, { "B", "x#y" }, { "C", "#z" },
                                           { "D", "x\t# t" } } },
    { "A=", { { "A", "" } } },
    { "A=\nB=2", { { "A", "" }, { "B", "2" } } },
    { "A=  spaced out  \t", { { "A", "spaced out" } } },
    /* Single quotes: literal, "\'" for a quote, several lines. */
    { "A=1\nB='$A ${A}'", { { "B", "$A ${A}" } } },
    { "A='it\\'s'", { { "A", "it's" } } },
    { "A='a\\nb\\\\c'", { { "A", "a\\nb\\\\c" } } },
    { "A='one\ntwo'\nB=3", { { "A", "one\ntwo" }, { "B", "3" } } },
    { "A=' padded '", { { "A", " padded " } } },
    /* Double quotes: escapes, interpolation, several lines. */
    { "A=\"a\\nb\\tc\\\"d\\\\e\"", { { "A", "a\nb\tc\"d\\e" } } },
    { "A=\"\\a\\b\\f\\r\\v\"", { { "A", "\a\b\f\r\v" } } },
    { "A=\"\\$A \\c \\x\"", { { "A", "$A \\c \\x" } } },
    { "A=\"\\0101\\0377\"", { { "A", "A\xc3\xbf" } } },
    { "A=\"\\0400 \\0 \\01 \\0089\"", { { "A", "\\400 \\ \\1 \\089" } } },
    { "A=1\nB=\"<${A}>\"", { { "B", "<1>" } } },
    { "A=\"one\ntwo\"", { { "A", "one\ntwo" } } },
    { "A=\"x\" B=2 C", { { "A", "x" }, { "B", "2 C" } } },  /* a statement after a quote */
    { "A=\"x\" # comment\nB=1", { { "A", "x" }, { "B", "1" } } },
    { "A=\"a\\\\\"", { { "A", "a\\" } } },
    /* Interpolation of what came before. */
    { "A=1\nB=${A}2\nC=$A$$", { { "B", "12" }, { "C", "1$" } } },
    { "A=1\nB=$A\nA=2\nC=$A", { { "A", "2" }, { "B", "1" }, { "C", "2" } } },
    { "B=$A\nA=1", { { "A", "1" }, { "B", "" } } },
    { "A=${X:-fallback}", { { "A", "fallback" } } },
    { "A=$$HOME", { { "A", "$HOME" } } },
    /* A name alone: the environment's, or what the file said before. */
    { "A", { { "A", NULL } } },
    { "A=1\nA", { { "A", "1" } } },
    { "A=1\nA\nB=$A", { { "B", "1" } } },
    /* A last line without '=' or newline is the value of the empty name. */
    { "A=1\nB", { { "A", "1" }, { "B", NULL }, { "", "B" } } },
    /* A byte order mark is skipped. */
    { "\xef\xbb\xbf" "A=1", { { "A", "1" } } },
    { "", { { "A", NULL } } },
    { "  \n\t\n", { { "A", NULL } } },
};

static void test_readings(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(readings) / sizeof(*readings); i++) {
        struct dotenv env;
        parse_ok(&env, NULL, readings[i].text);
        for (size_t v = 0; v < 6 && readings[i].variables[v].name != NULL; v++) {
            const struct variable *expected = &readings[i].variables[v];
            const char *value = value_of(&env, expected->name);
            int same = expected->value == NULL ? value == NULL
                                               : value != NULL &&
                                                     strcmp(value, expected->value) == 0;
            if (!same) {
                print_error("'%s': %s is '%s', expected '%s'\n", readings[i].text,
                            expected->name, value ? value : "(unset)",
                            expected->value ? expected->value : "(unset)");
                fail();
            }
        }
        dotenv_release(&env);
    }
}

static void test_positions_and_statuses(void **state)
{
    (void)state;
    struct dotenv env;
    parse_ok(&env, NULL,
             "# settings\n"
             "SANDBOX_PID=host\n"
             "  export  SECCOMP='unconfined'\n"
             "\xc3\xa9t\xc3\xa9=1 B=${UNSET_HERE}\n"
             "C=${SANDBOX_PID:-x}\n"
             "D=$$\n"
             "E\n");
    const struct interpolation_definition *pid = dotenv_lookup(&env, "SANDBOX_PID", 11);
    assert_non_null(pid);
    assert_string_equal(pid->file, ".env");
    assert_int_equal(pid->line, 2);
    assert_int_equal(pid->column, 1);
    assert_int_equal(pid->status, INTERPOLATION_FIXED);
    const struct interpolation_definition *seccomp = dotenv_lookup(&env, "SECCOMP", 7);
    assert_int_equal(seccomp->line, 3);
    assert_int_equal(seccomp->column, 11);
    assert_string_equal(seccomp->value, "unconfined");
    /* "été=1 B=..." is one statement: the value runs to the end of line. */
    const struct interpolation_definition *ete = dotenv_lookup(&env, "\xc3\xa9t\xc3\xa9", 5);
    assert_int_equal(ete->line, 4);
    assert_int_equal(ete->column, 1);
    assert_int_equal(ete->status, INTERPOLATION_UNSET);
    assert_string_equal(ete->unset_name, "UNSET_HERE");
    assert_string_equal(ete->value, "1 B=");
    const struct interpolation_definition *c = dotenv_lookup(&env, "C", 1);
    assert_int_equal(c->status, INTERPOLATION_RESOLVED);
    assert_string_equal(c->value, "host");
    const struct interpolation_definition *d = dotenv_lookup(&env, "D", 1);
    assert_int_equal(d->status, INTERPOLATION_FIXED);
    assert_string_equal(d->value, "$");
    const struct interpolation_definition *e = dotenv_lookup(&env, "E", 1);
    assert_non_null(e);
    assert_int_equal(e->has_value, 0);
    assert_int_equal(e->line, 7);
    assert_int_equal(env.count, 6);
    assert_null(dotenv_lookup(&env, "F", 1));
    dotenv_release(&env);
    dotenv_release(&env);       /* a released env is empty */
}

/* What a Compose file sees through the variables of its .env. */
static void test_feeds_the_engine(void **state)
{
    (void)state;
    struct dotenv env;
    parse_ok(&env, NULL, "# sandbox\n\nSANDBOX_PID=host\n");
    struct interpolation_variables variables = dotenv_variables(&env);
    struct interpolation_budget budget;
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    struct interpolation_result result;
    assert_int_equal(compose_interpolate("${SANDBOX_PID}", 14, &variables, &budget, &result),
                     INTERPOLATION_RESOLVED);
    assert_string_equal(result.text, "host");
    char *sentence = interpolation_describe(&result);
    assert_string_equal(sentence, "SANDBOX_PID from .env:3");
    free(sentence);
    interpolation_result_release(&result);
    dotenv_release(&env);
}

/* An included project: the including project's variables win, its .env
 * fills in what they leave unset, and its values see them first. */
static void test_outer_variables_come_first(void **state)
{
    (void)state;
    struct dotenv outer, inner;
    parse_ok(&outer, NULL, "A=outer\nN\n");
    parse_ok(&inner, &outer, "A=inner\nB=$A\nC=own\nN=filled\nA\nD\n");
    assert_string_equal(value_of(&inner, "A"), "outer");
    assert_string_equal(value_of(&inner, "B"), "outer");
    assert_string_equal(value_of(&inner, "C"), "own");
    /* Listed without a value outside: the inner value fills it. */
    assert_string_equal(value_of(&inner, "N"), "filled");
    const struct interpolation_definition *d = dotenv_lookup(&inner, "D", 1);
    assert_non_null(d);
    assert_int_equal(d->has_value, 0);
    /* The outer project does not see the inner one's. */
    assert_null(value_of(&outer, "C"));
    const struct interpolation_definition *a = dotenv_lookup(&inner, "A", 1);
    assert_int_equal(a->line, 1);
    dotenv_release(&inner);
    dotenv_release(&outer);
}

/* An include item's env_file list: read in order into one set, the later
 * file's definition winning, each remembering its file. */
static void test_several_files(void **state)
{
    (void)state;
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, "a.env", "A=1\nB=1\n", 8, &error), 0);
    assert_int_equal(dotenv_parse(&env, "b.env", "B=$A$A\n", 7, &error), 0);
    const struct interpolation_definition *b = dotenv_lookup(&env, "B", 1);
    assert_string_equal(b->value, "11");
    assert_string_equal(b->file, "b.env");
    assert_string_equal(dotenv_lookup(&env, "A", 1)->file, "a.env");
    dotenv_release(&env);
}

struct failure {
    const char *text;
    size_t length;                  /* 0: strlen */
    unsigned line, column;
    const char *words;              /* in the message */
};

static const struct failure failures[] = {
    { "A B=1", 0, 1, 1, "cannot contain a space" },
    { "A=1\n  B$=2", 0, 2, 4, "unexpected character '$'" },
    { "A=1\nB#=2", 0, 2, 2, "unexpected character '#'" },
    { "\xe3\x80\x80" "A=1\nA\xe3\x80\x80=1", 0, 2, 2, "unexpected character" },
    { "A=\"x", 0, 1, 3, "unterminated quoted value" },
    { "A=1\nB='x\n\ny", 0, 2, 3, "unterminated quoted value" },
    { "A=1\nexport ", 0, 2, 8, "'export' without a variable" },
    { "A=${", 0, 1, 3, "invalid interpolation" },
    { "A=ok ${B:x}", 0, 1, 6, "invalid interpolation" },
    { "A=\"\\n${\"", 0, 1, 6, "invalid interpolation" },
    { "A=\"a\nb${X:?needed}\"", 0, 2, 2, "X is required and unset" },
    { "A=1\nB=${A:+${}}", 0, 2, 8, "invalid interpolation" },
    { "A=1\0B=2", 7, 1, 4, "NUL byte" },
    { "A=1\nB=\xff", 0, 2, 3, "invalid UTF-8" },
    { "A=\xc0\xaf", 0, 1, 3, "invalid UTF-8" },
};

static void test_failures(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(failures) / sizeof(*failures); i++) {
        const struct failure *f = &failures[i];
        struct dotenv env;
        dotenv_init(&env, NULL);
        struct dotenv_error error;
        size_t length = f->length ? f->length : strlen(f->text);
        int status = dotenv_parse(&env, ".env", f->text, length, &error);
        if (status != -1 || error.line != f->line || error.column != f->column ||
            error.message == NULL || strstr(error.message, f->words) == NULL) {
            print_error("case %zu: %d at %u:%u '%s' (expected %u:%u '%s')\n", i, status,
                        error.line, error.column, error.message ? error.message : "",
                        f->line, f->column, f->words);
            fail();
        }
        dotenv_error_release(&error);
        dotenv_release(&env);
    }
}

/* --- hostile files ---------------------------------------------------------- */

static void expect_failure(const char *text, size_t length, unsigned line, const char *words)
{
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, ".env", text, length, &error), -1);
    if (error.line != line || strstr(error.message, words) == NULL) {
        print_error("%u: %s (expected line %u, '%s')\n", error.line, error.message, line,
                    words);
        fail();
    }
    dotenv_error_release(&error);
    dotenv_release(&env);
}

static void test_size_limit(void **state)
{
    (void)state;
    size_t length = DOTENV_MAX_BYTES + 1;
    char *text = malloc(length);
    memset(text, '#', length);
    expect_failure(text, length, 1, "larger than 1048576 bytes");
    /* At the limit it is read. */
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, ".env", text, DOTENV_MAX_BYTES, &error), 0);
    dotenv_release(&env);
    free(text);
}

static void test_statement_limit(void **state)
{
    (void)state;
    /* 262,144 one-character statements: the 10,001st is refused. */
    size_t length = DOTENV_MAX_BYTES;
    char *text = malloc(length);
    for (size_t i = 0; i < length; i += 4)
        memcpy(text + i, "A=1\n", 4);
    expect_failure(text, length, DOTENV_MAX_VARIABLES + 1, "more than 10000 variables");
    free(text);
}

static void test_growing_values(void **state)
{
    (void)state;
    /* Each value doubles the one before: the 21st is over 1 MiB. */
    struct {
        char bytes[4096];
        size_t length;
    } text = { .length = 0 };
    text.length += (size_t)snprintf(text.bytes, sizeof(text.bytes), "V0=x\n");
    for (int i = 1; i < 40; i++)
        text.length += (size_t)snprintf(text.bytes + text.length,
                                        sizeof(text.bytes) - text.length,
                                        "V%d=${V%d}$V%d\n", i, i - 1, i - 1);
    expect_failure(text.bytes, text.length, 22, "resolves to more than");
}

static void test_work_limit(void **state)
{
    (void)state;
    /* A 512 KiB value, then many lines that use it four times (2 MiB each,
     * over the value limit) - or twice: 1 MiB each, 64 of them exhaust the
     * file's budget. */
    size_t big = (size_t)512 << 10;
    size_t capacity = big + 64 * 16 + 64;
    char *text = malloc(capacity);
    memcpy(text, "A=", 2);
    memset(text + 2, 'a', big - 2);
    size_t length = big;
    text[length++] = '\n';
    for (int i = 0; i < 64; i++)
        length += (size_t)snprintf(text + length, capacity - length, "B%02d=$A$A\n", i);
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, ".env", text, length, &error), -1);
    assert_non_null(strstr(error.message, "more work than the limit"));
    assert_true(error.line > 40 && error.line < 66);
    dotenv_error_release(&error);
    dotenv_release(&env);
    free(text);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* "${${${..." and "${X:-${X:-..." a thousand deep, on line 2. */
    char text[8192] = "A=1\nB=";
    size_t length = strlen(text);
    for (int i = 0; i < 1000; i++) {
        memcpy(text + length, "${X:-", 5);
        length += 5;
    }
    memset(text + length, '}', 1000);
    length += 1000;
    expect_failure(text, length, 2, "nest more than 32 levels");
    memcpy(text + 6, "${${${${", 8);
    expect_failure(text, length, 2, "invalid interpolation");
}

static void test_binary(void **state)
{
    (void)state;
    unsigned char text[4096];
    for (size_t i = 0; i < sizeof(text); i++)
        text[i] = (unsigned char)(i * 7 + 1);
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, ".env", (const char *)text, sizeof(text), &error), -1);
    assert_true(error.line >= 1 && error.column >= 1);
    assert_non_null(error.message);
    dotenv_error_release(&error);
    dotenv_release(&env);
}

/* Many distinct keys are looked up through the table, not a list. */
static void test_many_keys(void **state)
{
    (void)state;
    size_t capacity = (size_t)DOTENV_MAX_VARIABLES * 16;
    char *text = malloc(capacity);
    size_t length = 0;
    for (int i = 0; i < DOTENV_MAX_VARIABLES; i++)
        length += (size_t)snprintf(text + length, capacity - length, "K%d=%d\n", i, i);
    struct dotenv env;
    dotenv_init(&env, NULL);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(&env, ".env", text, length, &error), 0);
    assert_int_equal(env.count, DOTENV_MAX_VARIABLES);
    assert_string_equal(value_of(&env, "K9999"), "9999");
    assert_string_equal(value_of(&env, "K0"), "0");
    assert_int_equal(dotenv_lookup(&env, "K5000", 5)->line, 5001);
    assert_null(value_of(&env, "K10000"));
    dotenv_release(&env);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readings),
        cmocka_unit_test(test_positions_and_statuses),
        cmocka_unit_test(test_feeds_the_engine),
        cmocka_unit_test(test_outer_variables_come_first),
        cmocka_unit_test(test_several_files),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_statement_limit),
        cmocka_unit_test(test_growing_values),
        cmocka_unit_test(test_work_limit),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_many_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
