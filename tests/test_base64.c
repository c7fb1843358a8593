/*
 * Unit tests for the base64 decoder (core/util/base64.c) that reads YAML's
 * !!binary scalars.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "base64.h"

/* Decodes text; returns the decoded bytes as a NUL-terminated string in
 * buffer, or NULL when the text is refused. */
static const char *decode(const char *text, char *buffer)
{
    size_t decoded = 0;
    if (!base64_decode(text, strlen(text), (unsigned char *)buffer, &decoded))
        return NULL;
    buffer[decoded] = '\0';
    return buffer;
}

static void test_words(void **state)
{
    (void)state;
    char buffer[64];
    assert_string_equal(decode("dHJ1ZQ==", buffer), "true");
    assert_string_equal(decode("aG9zdA==", buffer), "host");
    assert_string_equal(decode("LzovaA==", buffer), "/:/h");
    assert_string_equal(decode("VW5jb25maW5lZA==", buffer), "Unconfined");
    assert_string_equal(decode("Lw==", buffer), "/");
    assert_string_equal(decode("", buffer), "");
    /* Without padding, and with white space as YAML folds it. */
    assert_string_equal(decode("dHJ1ZQ", buffer), "true");
    assert_string_equal(decode("aG9z\n  dA==\n", buffer), "host");
    assert_string_equal(decode("U1lTX0FETUlO", buffer), "SYS_ADMIN");
    assert_string_equal(decode("+/+/", buffer), "\xfb\xff\xbf");
}

static void test_refused(void **state)
{
    (void)state;
    char buffer[64];
    assert_null(decode("dHJ1ZQ=", buffer));      /* padding short */
    assert_null(decode("dHJ1ZQ===", buffer));    /* padding long */
    assert_null(decode("d", buffer));            /* one character */
    assert_null(decode("dHJ1Z", buffer));        /* five: a lone sextet */
    assert_null(decode("dH=J1", buffer));        /* data after padding */
    assert_null(decode("dHJ1ZQ-_", buffer));     /* the URL alphabet */
    /* Plain words may well be base64: "true" is three bytes. */
    size_t decoded = 0;
    unsigned char bytes[8];
    assert_true(base64_decode("true", 4, bytes, &decoded));
    assert_int_equal(decoded, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
