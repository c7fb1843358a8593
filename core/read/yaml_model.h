/*
 * yaml_model.h - a read-only YAML node tree built from libyaml events.
 *
 * The model is what plugins see through the node API of the plugin ABI
 * (struct sl_node is defined here and opaque to plugins).  Properties:
 *  - every node keeps its 1-based start and (exclusive) end line and column;
 *  - anchored nodes are shared by their aliases, never copied, so an alias
 *    bomb costs memory linear in the file;
 *  - an alias to a node that is still open (a node that would contain
 *    itself) is replaced by a null node with a warning, so the graph has no
 *    cycles: every walk terminates;
 *  - merge keys (<<) are resolved when a mapping ends: written keys win over
 *    merged ones, earlier merged mappings over later ones, and a merged pair
 *    keeps the key node where it was written (inside the anchored block);
 *  - of duplicate keys the later one wins, with its position;
 *  - tags are kept as written; multi-document streams give several roots;
 *  - nesting depth, the number of nodes (merged pairs included) and the
 *    parser's work on deeply nested flow collections are bounded by
 *    limits; exceeding one stops the file with an error at the line and
 *    column where it happened, whose message names the limit;
 *  - nothing recurses: building, merging and releasing cost heap and time
 *    linear in the file, never C stack, whatever the nesting.
 */
#ifndef SANDLINT_YAML_MODEL_H
#define SANDLINT_YAML_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "sandlint/plugin.h"

struct sl_node;

/* A resolved mapping pair. */
struct model_pair {
    struct sl_node *key;
    struct sl_node *value;
    unsigned flags;             /* SL_ENTRY_* of plugin.h */
};

struct sl_node {
    uint8_t kind;               /* enum sl_node_kind */
    uint8_t style;              /* enum sl_scalar_style */
    uint8_t open;               /* collection not yet ended (alias check) */
    uint8_t null_value;         /* a plain null scalar: "", "~", "null" */
    uint32_t line, column, end_line, end_column;
    const char *tag;            /* NULL when untagged; arena-owned */
    union {
        struct {
            const char *text;   /* NUL-terminated; arena-owned */
            size_t length;
        } scalar;
        struct {
            struct sl_node **items;
            size_t count;
        } sequence;
        struct {
            struct model_pair *pairs;
            size_t count;
        } mapping;
    } u;
};

/* A problem found while building: the file is still usable (warnings) or
 * not (the error of a failed model_parse). */
struct model_diagnostic {
    unsigned line, column;      /* 1-based; 0 when unknown */
    char *message;              /* owned by the model */
};

struct model_limits {
    size_t max_nodes;           /* nodes plus merged pairs per file
                                   (--max-nodes); 0 = the default */
    unsigned max_depth;         /* collection nesting; 0 = the default */
};

/* Generous defaults for real Compose files.  Docker Compose's YAML parser
 * accepts 10,000 levels of nesting; so does sandlint. */
#define MODEL_DEFAULT_MAX_NODES 10000000u
#define MODEL_DEFAULT_MAX_DEPTH 10000u
/* libyaml's scanner does work proportional to the flow nesting depth for
 * every token, so a few megabytes of tokens inside 10,000 '[' would cost
 * minutes.  The sum of the flow depth over all events is bounded by this
 * many times max_nodes: 2 x 10^8 with the defaults, about a second, twice
 * what a document nested 10,000 deep needs. */
#define MODEL_FLOW_WORK_PER_NODE 20u

enum model_status {
    MODEL_OK = 0,
    MODEL_SYNTAX_ERROR,         /* libyaml rejected the text */
    MODEL_LIMIT_EXCEEDED,       /* depth or node budget */
    MODEL_NO_MEMORY
};

struct yaml_model {
    struct arena arena;         /* owns every node and string */
    struct sl_node **documents; /* roots, one per document; malloc-owned */
    size_t document_count;
    struct model_diagnostic *warnings; /* malloc-owned array */
    size_t warning_count;
    struct model_diagnostic error;     /* set when status != MODEL_OK */
    enum model_status status;
    size_t node_count;
};

/*
 * Builds the model of length bytes of YAML text (UTF-8, or UTF-16 with a
 * BOM, as libyaml reads them).  Always initialises *model; on failure
 * model->status and model->error say why and no documents are kept.
 * limits may be NULL for the defaults.  Release with model_release().
 */
enum model_status model_parse(struct yaml_model *model, const char *text,
                              size_t length, const struct model_limits *limits);

/* Frees everything the model owns; the model may be parsed into again. */
void model_release(struct yaml_model *model);

/*
 * A scalar node made by a front-end that reads no YAML (a JSON reader, a
 * shell-word splitter), so that its settings point at real positions and
 * plugins read it through the same node API: text (length bytes, any
 * bytes) is copied into arena, style is an enum sl_scalar_style (quoted,
 * plain), and span says where it was written (1-based, end exclusive).
 * Owned by arena; NULL when out of memory.
 */
struct sl_node *model_node_scalar(struct arena *arena, const char *text, size_t length,
                                  int style, const struct sl_span *span);

/* Node helpers shared by the host services and the core. */
int model_is_null(const struct sl_node *node);
const struct sl_node *model_mapping_get(const struct sl_node *mapping,
                                        const char *key, size_t key_length,
                                        const struct sl_node **key_node);

#endif
