/*
 * yaml_json - print a YAML file as JSON, read with sandlint's own YAML model
 * (core/read/yaml_model.c on libyaml), for tests that check YAML the project
 * ships (.pre-commit-hooks.yaml, action.yml) without needing a YAML module
 * in python3.
 *
 * Usage: yaml_json FILE
 *
 * Prints the first document on stdout and exits 0: mappings as objects (keys
 * as written, merge keys resolved), sequences as arrays, every scalar as a
 * string (plain `true` stays "true"), null scalars as null.  Prints
 * "FILE:LINE:COL: message" on stderr and exits 1 when the YAML is invalid;
 * exits 2 on usage or I/O errors.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "json_writer.h"
#include "sandlint/plugin.h"
#include "xalloc.h"
#include "yaml_model.h"

/* Shipped files are small and shallow: recursion is fine here. */
static void write_node(FILE *out, const struct sl_node *node)
{
    if (node == NULL || model_is_null(node)) {
        fputs("null", out);
        return;
    }
    switch (node->kind) {
    case SL_NODE_SCALAR:
        json_write_string(out, node->u.scalar.text, node->u.scalar.length);
        break;
    case SL_NODE_SEQUENCE:
        putc('[', out);
        for (size_t i = 0; i < node->u.sequence.count; i++) {
            if (i > 0)
                fputs(", ", out);
            write_node(out, node->u.sequence.items[i]);
        }
        putc(']', out);
        break;
    case SL_NODE_MAPPING:
        putc('{', out);
        for (size_t i = 0; i < node->u.mapping.count; i++) {
            const struct model_pair *pair = &node->u.mapping.pairs[i];
            if (i > 0)
                fputs(", ", out);
            if (pair->key != NULL && pair->key->kind == SL_NODE_SCALAR)
                json_write_string(out, pair->key->u.scalar.text, pair->key->u.scalar.length);
            else
                json_write_cstring(out, "<non-scalar key>");
            fputs(": ", out);
            write_node(out, pair->value);
        }
        putc('}', out);
        break;
    default:
        fputs("null", out);
    }
}

static char *read_file(const char *path, size_t *length)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    size_t capacity = 4096, used = 0, got;
    char *text = xmalloc(capacity);
    while ((got = fread(text + used, 1, capacity - used, in)) > 0) {
        used += got;
        if (used == capacity) {
            capacity *= 2;
            text = xrealloc(text, capacity, 1);
        }
    }
    if (ferror(in)) {
        free(text);
        text = NULL;
    }
    fclose(in);
    *length = used;
    return text;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: yaml_json FILE\n", stderr);
        return 2;
    }
    size_t length = 0;
    char *text = read_file(argv[1], &length);
    if (text == NULL) {
        perror(argv[1]);
        return 2;
    }
    struct yaml_model model;
    enum model_status status = model_parse(&model, text, length, NULL);
    int result = 0;
    if (status != MODEL_OK) {
        fprintf(stderr, "%s:%u:%u: %s\n", argv[1], model.error.line, model.error.column,
                model.error.message != NULL ? model.error.message : "cannot read the YAML");
        result = 1;
    } else if (model.document_count == 0) {
        fprintf(stderr, "%s:1:1: no YAML document\n", argv[1]);
        result = 1;
    } else {
        write_node(stdout, model.documents[0]);
        putc('\n', stdout);
        if (fflush(stdout) != 0)
            result = 2;
    }
    model_release(&model);
    free(text);
    return result;
}
