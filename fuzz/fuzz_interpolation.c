/*
 * fuzz_interpolation.c - libFuzzer target: a project's .env, an included
 * project's .env read with it as the outer variables, and values resolved
 * with both (core/kinds/dotenv.c, core/kinds/compose_interpolation.c).
 *
 * The input is split at 0xff bytes (never part of UTF-8): the top .env, the
 * included .env, then one value per section.  Besides the sanitizers, it
 * traps when a result breaks what the headers promise: an error always
 * has a message and a position, a text is covered by its parts exactly, a
 * value is FIXED exactly when compose_has_interpolation() says it holds no
 * interpolation, and resolving twice gives the same text.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compose_interpolation.h"
#include "dotenv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEPARATOR 0xff

static void check(int condition)
{
    if (!condition)
        __builtin_trap();
}

/* The next section of [*at, size), moving *at past its separator. */
static const char *section(const uint8_t *data, size_t size, size_t *at, size_t *length)
{
    if (*at > size)
        return NULL;
    const uint8_t *start = data + *at;
    const uint8_t *end = memchr(start, SEPARATOR, size - *at);
    *length = end != NULL ? (size_t)(end - start) : size - *at;
    *at += *length + 1;
    return (const char *)start;
}

static void check_env(const struct dotenv *env, int status, const struct dotenv_error *error)
{
    if (status != 0) {
        check(status == -1 && error->message != NULL && error->line >= 1 &&
              error->column >= 1);
        return;
    }
    check(error->message == NULL);
    for (size_t i = 0; i < env->count; i++) {
        const struct interpolation_definition *definition = env->definitions[i];
        check(definition->name[definition->name_length] == '\0');
        check(definition->value[definition->value_length] == '\0');
        check(definition->value_length <= INTERPOLATION_MAX_LENGTH);
        check(definition->file != NULL && definition->line >= 1 && definition->column >= 1);
        check(definition->has_value || definition->value_length == 0);
        check((definition->status == INTERPOLATION_UNSET) == (definition->unset_name != NULL));
        check(dotenv_lookup(env, definition->name, definition->name_length) != NULL);
    }
}

static void check_result(const char *text, size_t length,
                         const struct interpolation_result *result)
{
    if (result->status == INTERPOLATION_ERROR) {
        check(result->text == NULL && result->parts == NULL);
        check(result->error != INTERPOLATION_ERROR_NONE && result->error_message != NULL);
        check(result->error_offset <= length);
        return;
    }
    check(result->error == INTERPOLATION_ERROR_NONE && result->error_message == NULL);
    check(result->text != NULL && result->text[result->length] == '\0');
    check(result->length <= INTERPOLATION_MAX_LENGTH);
    size_t covered = 0;
    for (size_t i = 0; i < result->part_count; i++) {
        const struct interpolation_part *part = &result->parts[i];
        check(part->offset == covered);
        covered += part->length;
        check(part->source_offset <= length && part->source_length <= length - part->source_offset);
        if (part->kind == INTERPOLATION_PART_TEXT)
            check(memcmp(result->text + part->offset, text + part->source_offset,
                         part->length) == 0);
        if (result->status == INTERPOLATION_FIXED)
            check(part->kind == INTERPOLATION_PART_TEXT ||
                  part->kind == INTERPOLATION_PART_ESCAPE);
    }
    check(covered == result->length);
    check((result->status == INTERPOLATION_UNSET) == (result->unset_name != NULL));
    /* Without interpolation the text is fixed; with one, never. */
    check((result->status == INTERPOLATION_FIXED) == !compose_has_interpolation(text, length));
    char *sentence = interpolation_describe(result);
    check(sentence != NULL);
    free(sentence);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0, length = 0;
    const char *top_text = section(data, size, &at, &length);
    struct dotenv top, included;
    struct dotenv_error error;
    dotenv_init(&top, NULL);
    int status = dotenv_parse(&top, "top/.env", top_text, length, &error);
    check_env(&top, status, &error);
    dotenv_error_release(&error);

    dotenv_init(&included, &top);
    const char *included_text = section(data, size, &at, &length);
    if (included_text != NULL) {
        status = dotenv_parse(&included, "lib/.env", included_text, length, &error);
        check_env(&included, status, &error);
        dotenv_error_release(&error);
    }

    struct interpolation_variables variables = dotenv_variables(&included);
    struct interpolation_budget budget;
    interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
    const char *value;
    while ((value = section(data, size, &at, &length)) != NULL) {
        struct interpolation_result first, second;
        compose_interpolate(value, length, &variables, &budget, &first);
        check_result(value, length, &first);
        /* The same value again: the same answer (unless the budget ran out
         * in between). */
        compose_interpolate(value, length, &variables, &budget, &second);
        if (second.error != INTERPOLATION_ERROR_WORK) {
            check(second.status == first.status && second.length == first.length);
            check(first.text == NULL || memcmp(first.text, second.text, first.length) == 0);
        }
        interpolation_result_release(&first);
        interpolation_result_release(&second);
    }
    dotenv_release(&included);
    dotenv_release(&top);
    return 0;
}
