/* fuzz_toml.c - libFuzzer target: the TOML 1.0 reader, parse and walk;
 * the pyproject.toml settings reader; and the allowlist editor on what
 * reads. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "config_file.h"
#include "fuzz_edit.h"
#include "toml/toml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touches every value with an explicit stack (the reader bounds nesting
 * of arrays and inline tables, not of dotted tables). */
static void walk(const struct toml_value *root)
{
    const struct toml_value *stack[512];
    size_t depth = 0;
    stack[depth++] = root;
    while (depth > 0) {
        const struct toml_value *value = stack[--depth];
        (void)toml_value_pos(value);
        switch (toml_kind(value)) {
        case TOML_TABLE:
            for (size_t i = 0; i < toml_table_size(value); i++) {
                const char *key;
                size_t length;
                struct toml_pos pos;
                const struct toml_value *child = toml_table_entry(value, i, &key, &length, &pos);
                if (toml_table_get(value, key) == NULL && memchr(key, '\0', length) == NULL)
                    __builtin_trap();   /* every key must be found again */
                if (depth < 512)
                    stack[depth++] = child;
            }
            break;
        case TOML_ARRAY:
            for (size_t i = 0; i < toml_array_size(value); i++)
                if (depth < 512)
                    stack[depth++] = toml_array_get(value, i);
            break;
        case TOML_STRING: {
            size_t length;
            (void)toml_string(value, &length);
            break;
        }
        case TOML_INTEGER:
            (void)toml_integer(value);
            break;
        case TOML_FLOAT:
            (void)toml_float(value);
            break;
        case TOML_BOOLEAN:
            (void)toml_boolean(value);
            break;
        default:
            (void)toml_datetime_text(value);
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct toml_error error;
    struct toml_doc *doc = toml_parse((const char *)data, size, &error);
    if (doc != NULL) {
        walk(toml_doc_root(doc));
        toml_doc_free(doc);
    } else if (error.pos.line == 0 || error.message[0] == '\0') {
        __builtin_trap();   /* every error has a position and a message */
    }
    struct config config;
    struct config_error config_error = { NULL, { 0, 0 }, false };
    config_init(&config);
    if (config_parse_toml(&config, (const char *)data, size, &config_error) == 0)
        fuzz_edit_allowlist(CONFIG_TOML, (const char *)data, size, &config);
    config_error_release(&config_error);
    config_release(&config);
    return 0;
}
