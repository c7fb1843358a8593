/*
 * fuzz_jsonc.c - libFuzzer target: the JSON-with-comments reader.
 *
 * Beyond "no crash, no leak, no undefined behaviour" (the sanitizers), it
 * checks what the rest of sandlint relies on: a refused text leaves no tree
 * and an error with a position; an accepted one is a single well-formed
 * tree whose spans nest and whose mappings hold no duplicate key; comments
 * come in order without overlapping; and where libyaml reads the same text
 * (plain ASCII without comments), the YAML model gives the identical tree.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jsonc.h"
#include "sandlint/plugin.h"
#include "yaml_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(condition)                                                     \
    do {                                                                     \
        if (!(condition)) {                                                  \
            fprintf(stderr, "fuzz_jsonc: %s:%d: %s\n", __FILE__, __LINE__,   \
                    #condition);                                             \
            __builtin_trap();                                                \
        }                                                                    \
    } while (0)

static bool before_or_at(unsigned line_a, unsigned column_a, unsigned line_b,
                         unsigned column_b)
{
    return line_a < line_b || (line_a == line_b && column_a <= column_b);
}

/* At most this many nodes (the reader's limit here): every node is pushed
 * once, so this is also the walk's stack. */
enum { MAX_NODES = 100000, STACK = MAX_NODES + 1 };

/* Visits the tree with an explicit stack (the fuzzer's nesting can exceed
 * what recursion would survive). */
static void check_tree(const struct sl_node *root)
{
    static const struct sl_node *stack[STACK];
    size_t depth = 0;
    stack[depth++] = root;
    while (depth > 0) {
        const struct sl_node *node = stack[--depth];
        CHECK(node->line >= 1 && node->column >= 1);
        CHECK(before_or_at(node->line, node->column, node->end_line, node->end_column));
        CHECK(node->open == 0 && node->tag == NULL);
        if (node->kind == SL_NODE_SCALAR) {
            CHECK(node->u.scalar.text[node->u.scalar.length] == '\0');
            CHECK(node->style == SL_STYLE_PLAIN || node->style == SL_STYLE_DOUBLE_QUOTED);
            CHECK(!node->null_value || node->style == SL_STYLE_PLAIN);
            continue;
        }
        CHECK(node->style == SL_STYLE_FLOW);
        if (node->kind == SL_NODE_SEQUENCE) {
            for (size_t i = 0; i < node->u.sequence.count; i++) {
                const struct sl_node *item = node->u.sequence.items[i];
                CHECK(before_or_at(node->line, node->column, item->line, item->column));
                CHECK(before_or_at(item->end_line, item->end_column, node->end_line,
                                   node->end_column));
                CHECK(depth < STACK);
                stack[depth++] = item;
            }
            continue;
        }
        CHECK(node->kind == SL_NODE_MAPPING);
        for (size_t i = 0; i < node->u.mapping.count; i++) {
            const struct model_pair *pair = &node->u.mapping.pairs[i];
            CHECK(pair->key->kind == SL_NODE_SCALAR);
            CHECK(pair->key->style == SL_STYLE_DOUBLE_QUOTED);
            CHECK(pair->flags == 0);
            CHECK(before_or_at(node->line, node->column, pair->key->line, pair->key->column));
            CHECK(before_or_at(pair->value->end_line, pair->value->end_column, node->end_line,
                               node->end_column));
            /* Quadratic, but the fuzzer's inputs are small. */
            for (size_t j = 0; j < i && j < 64; j++) {
                const struct sl_node *other = node->u.mapping.pairs[j].key;
                CHECK(other->u.scalar.length != pair->key->u.scalar.length ||
                      memcmp(other->u.scalar.text, pair->key->u.scalar.text,
                             other->u.scalar.length) != 0);
            }
            CHECK(depth < STACK);
            stack[depth++] = pair->value;
        }
    }
}

static bool same_tree(const struct sl_node *a, const struct sl_node *b, unsigned depth)
{
    if (depth > 200)
        return true;    /* deep enough to have compared what matters */
    if (a->kind != b->kind || a->style != b->style || a->null_value != b->null_value ||
        a->line != b->line || a->column != b->column || a->end_line != b->end_line ||
        a->end_column != b->end_column)
        return false;
    if (a->kind == SL_NODE_SCALAR)
        return a->u.scalar.length == b->u.scalar.length &&
               memcmp(a->u.scalar.text, b->u.scalar.text, a->u.scalar.length) == 0;
    if (a->kind == SL_NODE_SEQUENCE) {
        if (a->u.sequence.count != b->u.sequence.count)
            return false;
        for (size_t i = 0; i < a->u.sequence.count; i++)
            if (!same_tree(a->u.sequence.items[i], b->u.sequence.items[i], depth + 1))
                return false;
        return true;
    }
    if (a->u.mapping.count != b->u.mapping.count)
        return false;
    for (size_t i = 0; i < a->u.mapping.count; i++)
        if (!same_tree(a->u.mapping.pairs[i].key, b->u.mapping.pairs[i].key, depth + 1) ||
            !same_tree(a->u.mapping.pairs[i].value, b->u.mapping.pairs[i].value, depth + 1))
            return false;
    return true;
}

/* Printable ASCII and plain line breaks, no comment and no tab: text that
 * libyaml reads as JSON reads it. */
static bool yaml_comparable(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (data[i] == '/' || data[i] >= 0x7F || (data[i] < 0x20 && data[i] != '\n'))
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct yaml_model model;
    struct comment_list comments;
    comment_list_init(&comments);
    struct model_limits limits = { MAX_NODES, 20000 };
    enum model_status status = jsonc_parse(&model, text, size, &limits, &comments);

    size_t end = 0;
    for (size_t i = 0; i < comments.count; i++) {
        const struct comment_span *span = &comments.items[i];
        CHECK(span->offset >= end && span->length >= 2 && span->offset + span->length <= size);
        CHECK(span->text_offset == span->offset + 2);
        CHECK(span->text_offset + span->text_length <= span->offset + span->length);
        CHECK(before_or_at(span->line, span->column, span->end_line, span->end_column));
        end = span->offset + span->length;
    }

    if (status != MODEL_OK) {
        CHECK(model.document_count == 0 && model.documents == NULL);
        CHECK(model.error.message != NULL);
        CHECK(status == MODEL_NO_MEMORY || model.error.line >= 1);
    } else {
        CHECK(model.document_count == 1);
        check_tree(model.documents[0]);
        if (comments.count == 0 && yaml_comparable(data, size)) {
            struct yaml_model yaml;
            if (model_parse(&yaml, text, size, &limits) == MODEL_OK &&
                yaml.document_count == 1)
                CHECK(same_tree(model.documents[0], yaml.documents[0], 0));
            model_release(&yaml);
        }
    }
    model_release(&model);
    comment_list_release(&comments);
    return 0;
}
