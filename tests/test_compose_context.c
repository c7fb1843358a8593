/*
 * Unit tests for the variables handed on through include and extends
 * (core/kinds/compose_context.c): SPEC §13 "include items", §17.
 */
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

#include "compose_context.h"
#include "dotenv.h"

static void parse(struct dotenv *env, const struct dotenv *outer, const char *file,
                  const char *text)
{
    dotenv_init(env, outer);
    struct dotenv_error error;
    assert_int_equal(dotenv_parse(env, file, text, strlen(text), &error), 0);
}

static const char *value_of(const struct dotenv *env, const char *name)
{
    const struct interpolation_definition *definition =
        dotenv_lookup(env, name, strlen(name));
    return definition != NULL && definition->has_value ? definition->value : NULL;
}

/* What the including project defines arrives, with where it was written;
 * a handed-on value wins over the including file's own outer-less
 * definition only when it has a value, as dotenv_lookup says. */
static void test_round_trip(void **state)
{
    (void)state;
    struct dotenv outer, own, decoded;
    parse(&outer, NULL, "top/.env", "PRIV=true\nUNSET_HERE\n");
    parse(&own, &outer, "mid/.env", "PRIV=false\nCAP=SYS_ADMIN\nEMPTY=\n");
    size_t length;
    char *context = compose_context_encode(&own, CONTEXT_INCLUDED, "mid/compose.yaml",
                                           &length);
    assert_int_equal(compose_context_kind(context, length), CONTEXT_INCLUDED);
    assert_false(compose_context_is_empty(context, length));
    char *origin = compose_context_origin(context, length);
    assert_string_equal(origin, "mid/compose.yaml");
    free(origin);
    dotenv_init(&decoded, NULL);
    assert_true(compose_context_decode(context, length, &decoded));
    assert_string_equal(value_of(&decoded, "PRIV"), "true");
    assert_string_equal(value_of(&decoded, "CAP"), "SYS_ADMIN");
    assert_string_equal(value_of(&decoded, "EMPTY"), "");
    const struct interpolation_definition *cap = dotenv_lookup(&decoded, "CAP", 3);
    assert_string_equal(cap->file, "mid/.env");
    assert_int_equal(cap->line, 2);
    free(context);
    dotenv_release(&decoded);
    dotenv_release(&own);
    dotenv_release(&outer);
}

static void test_empty_and_unknown(void **state)
{
    (void)state;
    struct dotenv none;
    dotenv_init(&none, NULL);
    size_t length;
    char *context = compose_context_encode(&none, CONTEXT_EXTENDED, "a.yaml", &length);
    assert_int_equal(compose_context_kind(context, length), CONTEXT_EXTENDED);
    assert_true(compose_context_is_empty(context, length));
    free(context);
    context = compose_context_encode(NULL, CONTEXT_INCLUDED, "a.yaml", &length);
    assert_int_equal(compose_context_kind(context, length), CONTEXT_OVERFLOW);
    assert_false(compose_context_is_empty(context, length));
    assert_false(compose_context_decode(context, length, &none));
    free(context);
    dotenv_release(&none);
}

/* More than COMPOSE_CONTEXT_MAX_BYTES of variables cannot be handed on. */
static void test_overflow(void **state)
{
    (void)state;
    size_t size = COMPOSE_CONTEXT_MAX_BYTES + 100;
    char *text = malloc(size + 1);
    size_t n = 0;
    for (unsigned i = 0; n + 40 < size; i++)
        n += (size_t)snprintf(text + n, size + 1 - n, "V%u=xxxxxxxxxxxxxxxxxxxxxxxx\n", i);
    struct dotenv env;
    parse(&env, NULL, ".env", text);
    size_t length;
    char *context = compose_context_encode(&env, CONTEXT_INCLUDED, "a.yaml", &length);
    assert_int_equal(compose_context_kind(context, length), CONTEXT_OVERFLOW);
    assert_true(length < 64);
    free(context);
    free(text);
    dotenv_release(&env);
}

/* The fingerprint tells contexts apart by kind and variables, not by the
 * file that hands them on. */
static void test_fingerprint(void **state)
{
    (void)state;
    struct dotenv a, b;
    parse(&a, NULL, ".env", "PRIV=true\n");
    parse(&b, NULL, ".env", "PRIV=false\n");
    size_t la, lb, lc, ld;
    char *ca = compose_context_encode(&a, CONTEXT_INCLUDED, "one.yaml", &la);
    char *cb = compose_context_encode(&b, CONTEXT_INCLUDED, "one.yaml", &lb);
    char *cc = compose_context_encode(&a, CONTEXT_INCLUDED, "two.yaml", &lc);
    char *cd = compose_context_encode(&a, CONTEXT_EXTENDED, "one.yaml", &ld);
    char *fa = compose_context_fingerprint(ca, la);
    char *fb = compose_context_fingerprint(cb, lb);
    char *fc = compose_context_fingerprint(cc, lc);
    char *fd = compose_context_fingerprint(cd, ld);
    assert_string_not_equal(fa, fb);
    assert_string_equal(fa, fc);
    assert_string_not_equal(fa, fd);
    free(fa), free(fb), free(fc), free(fd);
    free(ca), free(cb), free(cc), free(cd);
    dotenv_release(&a);
    dotenv_release(&b);
}

/* Every truncation of a valid context, and flipped bytes, are refused or
 * read without a crash. */
static void test_malformed(void **state)
{
    (void)state;
    struct dotenv env;
    parse(&env, NULL, "x/.env", "A=1\nB=two\n");
    size_t length;
    char *context = compose_context_encode(&env, CONTEXT_INCLUDED, "o.yaml", &length);
    for (size_t cut = 0; cut < length; cut++) {
        struct dotenv decoded;
        dotenv_init(&decoded, NULL);
        assert_false(compose_context_decode(context, cut, &decoded));
        free(compose_context_origin(context, cut));
        free(compose_context_fingerprint(context, cut));
        dotenv_release(&decoded);
    }
    for (size_t at = 0; at < length; at++) {
        char *copy = malloc(length);
        memcpy(copy, context, length);
        copy[at] = (char)0xff;
        struct dotenv decoded;
        dotenv_init(&decoded, NULL);
        (void)compose_context_decode(copy, length, &decoded);
        dotenv_release(&decoded);
        free(copy);
    }
    free(context);
    dotenv_release(&env);
}

/* An include item's project_directory: the worker's request, replaced
 * by the coordinator's place; the variables stay; the fingerprint tells
 * directories apart; a request never reads as a place. */
static void test_directory_records(void **state)
{
    (void)state;
    struct dotenv env, decoded;
    parse(&env, NULL, "a/.env", "PRIV=true\n");
    size_t length, requested_length, placed_length, stripped_length;
    char *context = compose_context_encode(&env, CONTEXT_INCLUDED, "a/c.yaml", &length);
    assert_int_equal(compose_context_directory_record(context, length),
                     CONTEXT_NO_DIRECTORY);
    char *requested = compose_context_request_directory(context, length, "../shared", true,
                                                        &requested_length);
    assert_int_equal(compose_context_directory_record(requested, requested_length),
                     CONTEXT_DIRECTORY_REQUESTED);
    bool resolved = false;
    char *text = compose_context_requested_directory(requested, requested_length, &resolved);
    assert_string_equal(text, "../shared");
    assert_true(resolved);
    free(text);
    struct compose_directory place = { "shared", "/r/shared", "shared" }, read;
    assert_false(compose_context_directory(requested, requested_length, &read));
    char *placed = compose_context_with_directory(requested, requested_length, &place,
                                                  &placed_length);
    assert_int_equal(compose_context_directory_record(placed, placed_length),
                     CONTEXT_DIRECTORY_RESOLVED);
    assert_null(compose_context_requested_directory(placed, placed_length, &resolved));
    assert_true(compose_context_directory(placed, placed_length, &read));
    assert_string_equal(read.relative, "shared");
    assert_string_equal(read.real, "/r/shared");
    assert_string_equal(read.display, "shared");
    compose_directory_release(&read);
    dotenv_init(&decoded, NULL);
    assert_true(compose_context_decode(placed, placed_length, &decoded));
    assert_string_equal(value_of(&decoded, "PRIV"), "true");
    dotenv_release(&decoded);
    /* Two directories check the file differently; no directory is the
     * context as it was. */
    struct compose_directory other = { "", "/r", "." };
    size_t other_length;
    char *elsewhere = compose_context_with_directory(requested, requested_length, &other,
                                                     &other_length);
    char *fa = compose_context_fingerprint(placed, placed_length);
    char *fb = compose_context_fingerprint(elsewhere, other_length);
    assert_string_not_equal(fa, fb);
    free(fa), free(fb);
    char *stripped = compose_context_with_directory(placed, placed_length, NULL,
                                                    &stripped_length);
    assert_int_equal(stripped_length, length);
    assert_memory_equal(stripped, context, length);
    /* An unresolved request keeps its text as written. */
    char *unresolved = compose_context_request_directory(context, length, "${D}", false,
                                                         &requested_length);
    text = compose_context_requested_directory(unresolved, requested_length, &resolved);
    assert_string_equal(text, "${D}");
    assert_false(resolved);
    free(text);
    /* Every truncation of a placed context is malformed or has no record
     * of a directory; none crashes. */
    for (size_t cut = 0; cut < placed_length; cut++) {
        assert_false(compose_context_directory(placed, cut, &read));
        int record = compose_context_directory_record(placed, cut);
        assert_true(record == CONTEXT_DIRECTORY_MALFORMED || record == CONTEXT_NO_DIRECTORY);
    }
    /* An overflowed context takes no request. */
    char *overflow = compose_context_encode(NULL, CONTEXT_INCLUDED, "a/c.yaml", &length);
    char *same = compose_context_request_directory(overflow, length, "x", true,
                                                   &requested_length);
    assert_int_equal(requested_length, length);
    free(overflow), free(same), free(unresolved), free(stripped), free(elsewhere);
    free(placed), free(requested), free(context);
    dotenv_release(&env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_empty_and_unknown),
        cmocka_unit_test(test_overflow),
        cmocka_unit_test(test_fingerprint),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_directory_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
