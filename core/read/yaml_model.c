/*
 * yaml_model.c - build the read-only node tree from libyaml events.
 *
 * The builder never recurses: open collections live on an explicit frame
 * stack and their children on one shared child stack, so nesting depth costs
 * heap, not C stack, and is bounded by limits.max_depth.  Merge keys are
 * resolved one mapping at a time when it ends (its sources are finished
 * mappings, already resolved), and every node lives in the arena, which is
 * freed in one piece: no walk over the tree exists that could recurse.
 */
#include "config.h"

#include "yaml_model.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base64.h"
#include "sandlint/plugin.h"
#include "utf8.h"

#define TAG_MERGE "tag:yaml.org,2002:merge"
#define TAG_STR "tag:yaml.org,2002:str"
#define TAG_BINARY "tag:yaml.org,2002:binary"

struct frame {
    struct sl_node *node;
    size_t first_child;         /* index into builder.children */
};

struct anchor_slot {
    const char *name;           /* arena-owned; NULL = empty slot */
    struct sl_node *node;
};

struct builder {
    struct yaml_model *model;
    struct model_limits limits;
    struct frame *frames;
    size_t frame_count, frame_capacity;
    struct sl_node **children;
    size_t child_count, child_capacity;
    struct anchor_slot *anchors;
    size_t anchor_capacity, anchor_count;
    size_t *merge_table;        /* scratch hash of result indices + 1 */
    size_t merge_table_capacity;
    size_t merge_mask;          /* slots in use for this mapping - 1 */
    struct sl_node *document_root;
    unsigned flow_depth;        /* open flow collections */
    uint64_t flow_work;         /* sum of flow_depth over the events */
    uint64_t max_flow_work;
};

/* ------------------------------------------------------------------ */
/* diagnostics                                                         */
/* ------------------------------------------------------------------ */

static char *format_message(const char *format, va_list args)
{
    char buffer[512];
    vsnprintf(buffer, sizeof(buffer), format, args);
    return strdup(buffer);
}

static void set_error(struct builder *b, enum model_status status,
                      unsigned line, unsigned column, const char *format, ...)
{
    struct yaml_model *model = b->model;
    if (model->status != MODEL_OK)
        return;
    va_list args;
    va_start(args, format);
    model->error.message = format_message(format, args);
    va_end(args);
    model->error.line = line;
    model->error.column = column;
    model->status = status;
}

static void add_warning(struct builder *b, unsigned line, unsigned column,
                        const char *format, ...)
{
    struct yaml_model *model = b->model;
    /* A hostile file could produce millions of warnings; a hundred say
     * everything a reviewer needs. */
    if (model->warning_count >= 100)
        return;
    struct model_diagnostic *grown =
        realloc(model->warnings, (model->warning_count + 1) * sizeof(*grown));
    if (grown == NULL)
        return;
    model->warnings = grown;
    va_list args;
    va_start(args, format);
    char *message = format_message(format, args);
    va_end(args);
    if (message == NULL)
        return;
    grown[model->warning_count].line = line;
    grown[model->warning_count].column = column;
    grown[model->warning_count].message = message;
    model->warning_count++;
}

/* ------------------------------------------------------------------ */
/* small helpers                                                       */
/* ------------------------------------------------------------------ */

static int grow(void **array, size_t *capacity, size_t needed, size_t item)
{
    if (needed <= *capacity)
        return 0;
    size_t fresh = *capacity ? *capacity : 16;
    while (fresh < needed)
        fresh *= 2;
    void *memory = realloc(*array, fresh * item);
    if (memory == NULL)
        return -1;
    *array = memory;
    *capacity = fresh;
    return 0;
}

static uint64_t hash_bytes(const char *text, size_t length)
{
    uint64_t hash = 1469598103934665603ULL;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)text[i];
        hash *= 1099511628211ULL;
    }
    return hash;
}

static int is_null_text(const char *text, size_t length)
{
    return length == 0 || (length == 1 && text[0] == '~') ||
           (length == 4 && (memcmp(text, "null", 4) == 0 ||
                            memcmp(text, "Null", 4) == 0 ||
                            memcmp(text, "NULL", 4) == 0));
}

struct sl_node *model_node_scalar(struct arena *arena, const char *text, size_t length,
                                  int style, const struct sl_span *span)
{
    struct sl_node *node = arena_alloc(arena, sizeof(*node));
    char *copy = arena_strndup(arena, text != NULL ? text : "", text != NULL ? length : 0);
    if (node == NULL || copy == NULL)
        return NULL;
    memset(node, 0, sizeof(*node));
    node->kind = SL_NODE_SCALAR;
    node->style = (uint8_t)style;
    node->line = span->line;
    node->column = span->column;
    node->end_line = span->end_line;
    node->end_column = span->end_column;
    node->u.scalar.text = copy;
    node->u.scalar.length = text != NULL ? length : 0;
    return node;
}

int model_is_null(const struct sl_node *node)
{
    return node == NULL || (node->kind == SL_NODE_SCALAR && node->null_value);
}

static int keys_equal(const struct sl_node *a, const struct sl_node *b)
{
    if (a == b)
        return 1;
    if (a->kind != SL_NODE_SCALAR || b->kind != SL_NODE_SCALAR)
        return 0;
    return a->u.scalar.length == b->u.scalar.length &&
           memcmp(a->u.scalar.text, b->u.scalar.text, a->u.scalar.length) == 0;
}

static uint64_t key_hash(const struct sl_node *key)
{
    if (key->kind == SL_NODE_SCALAR)
        return hash_bytes(key->u.scalar.text, key->u.scalar.length);
    return (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ULL;
}

static void set_start(struct sl_node *node, const yaml_mark_t *mark)
{
    node->line = (uint32_t)mark->line + 1;
    node->column = (uint32_t)mark->column + 1;
}

static void set_end(struct sl_node *node, const yaml_mark_t *mark)
{
    node->end_line = (uint32_t)mark->line + 1;
    node->end_column = (uint32_t)mark->column + 1;
}

static struct sl_node *new_node(struct builder *b, int kind,
                                const yaml_mark_t *start)
{
    struct yaml_model *model = b->model;
    if (model->node_count >= b->limits.max_nodes) {
        set_error(b, MODEL_LIMIT_EXCEEDED, (unsigned)start->line + 1,
                  (unsigned)start->column + 1,
                  "file has more than %zu YAML nodes (the node limit, "
                  "--max-nodes); not checked", b->limits.max_nodes);
        return NULL;
    }
    struct sl_node *node = arena_alloc(&model->arena, sizeof(*node));
    if (node == NULL) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return NULL;
    }
    memset(node, 0, sizeof(*node));
    node->kind = (uint8_t)kind;
    set_start(node, start);
    model->node_count++;
    return node;
}

static int set_tag(struct builder *b, struct sl_node *node,
                   const yaml_char_t *tag)
{
    if (tag == NULL)
        return 0;
    node->tag = arena_strndup(&b->model->arena, (const char *)tag,
                              strlen((const char *)tag));
    if (node->tag == NULL) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* anchors                                                             */
/* ------------------------------------------------------------------ */

static void anchors_clear(struct builder *b)
{
    if (b->anchors != NULL)
        memset(b->anchors, 0, b->anchor_capacity * sizeof(*b->anchors));
    b->anchor_count = 0;
}

static struct anchor_slot *anchor_find(struct builder *b, const char *name)
{
    if (b->anchor_capacity == 0)
        return NULL;
    size_t mask = b->anchor_capacity - 1;
    size_t i = (size_t)hash_bytes(name, strlen(name)) & mask;
    while (b->anchors[i].name != NULL) {
        if (strcmp(b->anchors[i].name, name) == 0)
            return &b->anchors[i];
        i = (i + 1) & mask;
    }
    return &b->anchors[i];
}

static int anchor_define(struct builder *b, const yaml_char_t *anchor,
                         struct sl_node *node)
{
    if (anchor == NULL)
        return 0;
    const char *name = (const char *)anchor;
    if ((b->anchor_count + 1) * 2 > b->anchor_capacity) {
        size_t capacity = b->anchor_capacity ? b->anchor_capacity * 2 : 64;
        struct anchor_slot *old = b->anchors;
        size_t old_capacity = b->anchor_capacity;
        b->anchors = calloc(capacity, sizeof(*b->anchors));
        if (b->anchors == NULL) {
            b->anchors = old;
            set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
            return -1;
        }
        b->anchor_capacity = capacity;
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i].name != NULL)
                *anchor_find(b, old[i].name) = old[i];
        free(old);
    }
    struct anchor_slot *slot = anchor_find(b, name);
    if (slot->name == NULL) {
        slot->name = arena_strndup(&b->model->arena, name, strlen(name));
        if (slot->name == NULL) {
            set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
            return -1;
        }
        b->anchor_count++;
    }
    /* A redefined anchor applies to the aliases that follow it. */
    slot->node = node;
    return 0;
}

/* ------------------------------------------------------------------ */
/* tree building                                                       */
/* ------------------------------------------------------------------ */

/* Attaches a finished node to the open collection, or makes it the root. */
static int attach(struct builder *b, struct sl_node *node)
{
    if (b->frame_count == 0) {
        b->document_root = node;
        return 0;
    }
    if (grow((void **)&b->children, &b->child_capacity, b->child_count + 1,
             sizeof(*b->children)) != 0) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    b->children[b->child_count++] = node;
    return 0;
}

static int open_collection(struct builder *b, struct sl_node *node)
{
    if (b->frame_count >= b->limits.max_depth) {
        set_error(b, MODEL_LIMIT_EXCEEDED, node->line, node->column,
                  "YAML nesting deeper than %u levels (the nesting limit, "
                  "as in Docker Compose); not checked", b->limits.max_depth);
        return -1;
    }
    if (grow((void **)&b->frames, &b->frame_capacity, b->frame_count + 1,
             sizeof(*b->frames)) != 0) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    node->open = 1;
    if (node->style == SL_STYLE_FLOW)
        b->flow_depth++;
    b->frames[b->frame_count].node = node;
    b->frames[b->frame_count].first_child = b->child_count;
    b->frame_count++;
    return 0;
}

static int is_merge_key(const struct sl_node *key)
{
    if (key->kind != SL_NODE_SCALAR)
        return 0;
    if (key->tag != NULL)
        return strcmp(key->tag, TAG_MERGE) == 0;
    return key->style == SL_STYLE_PLAIN && key->u.scalar.length == 2 &&
           memcmp(key->u.scalar.text, "<<", 2) == 0;
}

/* Adds the mappings named by a << value to sources; returns their total
 * number of pairs through *pairs. */
static int collect_merge_sources(struct builder *b, const struct sl_node *key,
                                 const struct sl_node *value,
                                 const struct sl_node ***sources,
                                 size_t *source_count, size_t *source_capacity,
                                 size_t *pairs)
{
    size_t count = 1;
    if (value->kind == SL_NODE_SEQUENCE)
        count = value->u.sequence.count;
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *source =
            value->kind == SL_NODE_SEQUENCE ? value->u.sequence.items[i] : value;
        if (source->kind != SL_NODE_MAPPING) {
            if (!model_is_null(source))
                add_warning(b, key->line, key->column,
                            "merge key '<<' needs a mapping or a list of "
                            "mappings; ignored");
            continue;
        }
        if (grow((void **)sources, source_capacity, *source_count + 1,
                 sizeof(**sources)) != 0) {
            set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
            return -1;
        }
        (*sources)[(*source_count)++] = source;
        *pairs += source->u.mapping.count;
    }
    return 0;
}

/* Finds key among result[0..count) through the scratch hash; returns its
 * index or count when absent (and then records it at that index). */
static size_t merge_lookup_or_add(struct builder *b, struct model_pair *result,
                                  size_t count, const struct sl_node *key)
{
    size_t mask = b->merge_mask;
    size_t slot = (size_t)key_hash(key) & mask;
    while (b->merge_table[slot] != 0) {
        size_t index = b->merge_table[slot] - 1;
        if (keys_equal(result[index].key, key))
            return index;
        slot = (slot + 1) & mask;
    }
    b->merge_table[slot] = count + 1;
    return count;
}

static int finish_mapping(struct builder *b, struct sl_node *node,
                          struct sl_node **children, size_t child_count)
{
    /* libyaml always pairs keys with values; be defensive anyway. */
    size_t written = child_count / 2;
    const struct sl_node **sources = NULL;
    size_t source_count = 0, source_capacity = 0, merged_pairs = 0;

    for (size_t i = 0; i < written; i++) {
        const struct sl_node *key = children[2 * i];
        if (is_merge_key(key) &&
            collect_merge_sources(b, key, children[2 * i + 1], &sources,
                                  &source_count, &source_capacity,
                                  &merged_pairs) != 0) {
            free(sources);
            return -1;
        }
    }

    size_t capacity = written + merged_pairs;
    if (merged_pairs > b->limits.max_nodes ||
        b->model->node_count + merged_pairs > b->limits.max_nodes) {
        free(sources);
        set_error(b, MODEL_LIMIT_EXCEEDED, node->line, node->column,
                  "merge keys ('<<') expand the file to more than %zu YAML "
                  "nodes (the node limit, --max-nodes); not checked",
                  b->limits.max_nodes);
        return -1;
    }
    struct model_pair *result =
        capacity ? arena_alloc(&b->model->arena, capacity * sizeof(*result))
                 : NULL;
    if (capacity != 0 && result == NULL) {
        free(sources);
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }

    size_t table = 16;
    while (table < capacity * 2)
        table *= 2;
    if (grow((void **)&b->merge_table, &b->merge_table_capacity, table,
             sizeof(*b->merge_table)) != 0) {
        free(sources);
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    /* Clear only the slots this mapping uses: one huge mapping must not make
     * every later small one pay for its table. */
    memset(b->merge_table, 0, table * sizeof(*b->merge_table));
    b->merge_mask = table - 1;

    size_t count = 0;
    for (size_t i = 0; i < written; i++) {
        struct sl_node *key = children[2 * i];
        if (is_merge_key(key))
            continue;
        size_t index = merge_lookup_or_add(b, result, count, key);
        /* Of duplicate keys the later wins, with its own position. */
        result[index].key = key;
        result[index].value = children[2 * i + 1];
        result[index].flags = 0;
        if (index == count)
            count++;
    }
    size_t before_merge = count;
    for (size_t s = 0; s < source_count; s++) {
        const struct sl_node *source = sources[s];
        for (size_t i = 0; i < source->u.mapping.count; i++) {
            const struct model_pair *pair = &source->u.mapping.pairs[i];
            size_t index = merge_lookup_or_add(b, result, count, pair->key);
            if (index != count)
                continue;   /* written keys and earlier sources win */
            result[count].key = pair->key;
            result[count].value = pair->value;
            result[count].flags = SL_ENTRY_MERGED;
            count++;
        }
    }
    free(sources);
    b->model->node_count += count - before_merge;
    node->u.mapping.pairs = result;
    node->u.mapping.count = count;
    return 0;
}

static int close_collection(struct builder *b, const yaml_mark_t *end)
{
    struct frame *frame = &b->frames[b->frame_count - 1];
    struct sl_node *node = frame->node;
    /* No child was ever attached when the first collection is empty. */
    struct sl_node **children =
        b->children ? b->children + frame->first_child : NULL;
    size_t child_count = b->child_count - frame->first_child;

    if (node->style == SL_STYLE_FLOW || child_count == 0) {
        set_end(node, end);
    } else {
        /* libyaml ends a block collection at the next token, possibly lines
         * later; the end of the last child is where it really ends. */
        const struct sl_node *last = children[child_count - 1];
        node->end_line = last->end_line;
        node->end_column = last->end_column;
    }

    if (node->kind == SL_NODE_SEQUENCE) {
        if (child_count != 0) {
            node->u.sequence.items = arena_alloc(
                &b->model->arena, child_count * sizeof(*children));
            if (node->u.sequence.items == NULL) {
                set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
                return -1;
            }
            memcpy(node->u.sequence.items, children,
                   child_count * sizeof(*children));
        }
        node->u.sequence.count = child_count;
    } else if (finish_mapping(b, node, children, child_count) != 0) {
        return -1;
    }
    node->open = 0;
    if (node->style == SL_STYLE_FLOW)
        b->flow_depth--;
    b->child_count = frame->first_child;
    b->frame_count--;
    return attach(b, node);
}

/* Whether bytes are text a setting can hold: UTF-8 without NUL. */
static bool is_text(const unsigned char *p, size_t length)
{
    for (size_t i = 0; i < length;) {
        size_t step = p[i] == 0 ? 0 : utf8_decode(p + i, length - i, NULL);
        if (step == 0)
            return false;
        i += step;
    }
    return true;
}

/* A !!binary scalar as the tools read it: compose-go and the Kubernetes
 * YAML readers decode the base64 and use the bytes, so sandlint checks
 * them ("privileged: !!binary dHJ1ZQ==" is privileged).  Text that is not
 * base64, or bytes that are not text, stay as written, with a warning. */
static int decode_binary(struct builder *b, struct sl_node *node)
{
    unsigned char *bytes = arena_alloc(&b->model->arena, node->u.scalar.length / 4 * 3 + 4);
    if (bytes == NULL) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    size_t decoded = 0;
    if (!base64_decode(node->u.scalar.text, node->u.scalar.length, bytes, &decoded)) {
        add_warning(b, node->line, node->column,
                    "a !!binary scalar that is not base64; read as written");
        return 0;
    }
    if (!is_text(bytes, decoded)) {
        add_warning(b, node->line, node->column,
                    "a !!binary scalar whose bytes are not UTF-8 text; read as written");
        return 0;
    }
    bytes[decoded] = '\0';
    node->u.scalar.text = (char *)bytes;
    node->u.scalar.length = decoded;
    return 0;
}

static int add_scalar(struct builder *b, const yaml_event_t *event)
{
    struct sl_node *node = new_node(b, SL_NODE_SCALAR, &event->start_mark);
    if (node == NULL)
        return -1;
    set_end(node, &event->end_mark);
    node->style = (uint8_t)event->data.scalar.style;
    if (set_tag(b, node, event->data.scalar.tag) != 0)
        return -1;
    node->u.scalar.length = event->data.scalar.length;
    node->u.scalar.text = arena_strndup(&b->model->arena,
                                        (const char *)event->data.scalar.value,
                                        event->data.scalar.length);
    if (node->u.scalar.text == NULL) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    if (node->tag != NULL && strcmp(node->tag, TAG_BINARY) == 0 &&
        decode_binary(b, node) != 0)
        return -1;
    node->null_value =
        node->style == SL_STYLE_PLAIN &&
        is_null_text(node->u.scalar.text, node->u.scalar.length) &&
        (node->tag == NULL || strcmp(node->tag, TAG_STR) != 0);
    if (anchor_define(b, event->data.scalar.anchor, node) != 0)
        return -1;
    return attach(b, node);
}

static int add_alias(struct builder *b, const yaml_event_t *event)
{
    const char *name = (const char *)event->data.alias.anchor;
    struct anchor_slot *slot = anchor_find(b, name);
    struct sl_node *target = slot != NULL && slot->name != NULL ? slot->node : NULL;
    unsigned line = (unsigned)event->start_mark.line + 1;
    unsigned column = (unsigned)event->start_mark.column + 1;
    if (target == NULL || target->open) {
        if (target == NULL)
            add_warning(b, line, column, "alias '*%s' names no anchor; "
                        "read as null", name);
        else
            add_warning(b, line, column, "alias '*%s' refers to a node that "
                        "contains it; read as null", name);
        target = new_node(b, SL_NODE_SCALAR, &event->start_mark);
        if (target == NULL)
            return -1;
        set_end(target, &event->end_mark);
        target->style = SL_STYLE_PLAIN;
        target->u.scalar.text = "";
        target->null_value = 1;
    }
    return attach(b, target);
}

static int start_collection(struct builder *b, const yaml_event_t *event,
                            int kind)
{
    struct sl_node *node = new_node(b, kind, &event->start_mark);
    if (node == NULL)
        return -1;
    const yaml_char_t *tag, *anchor;
    int flow;
    if (kind == SL_NODE_SEQUENCE) {
        tag = event->data.sequence_start.tag;
        anchor = event->data.sequence_start.anchor;
        flow = event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    } else {
        tag = event->data.mapping_start.tag;
        anchor = event->data.mapping_start.anchor;
        flow = event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    }
    node->style = flow ? SL_STYLE_FLOW : SL_STYLE_NONE;
    if (set_tag(b, node, tag) != 0 || anchor_define(b, anchor, node) != 0)
        return -1;
    return open_collection(b, node);
}

static int add_document(struct builder *b)
{
    struct yaml_model *model = b->model;
    if (b->document_root == NULL)
        return 0;
    struct sl_node **grown = realloc(model->documents,
                                     (model->document_count + 1) * sizeof(*grown));
    if (grown == NULL) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return -1;
    }
    model->documents = grown;
    grown[model->document_count++] = b->document_root;
    b->document_root = NULL;
    return 0;
}

/* Charges the parser's work for this event; -1 once over the budget. */
static int charge_flow_work(struct builder *b, const yaml_event_t *event)
{
    b->flow_work += b->flow_depth;
    if (b->flow_work <= b->max_flow_work)
        return 0;
    set_error(b, MODEL_LIMIT_EXCEEDED, (unsigned)event->start_mark.line + 1,
              (unsigned)event->start_mark.column + 1,
              "flow collections ('[', '{') nested %u deep hold too many "
              "nodes to parse in bounded time (the parse budget, %u x "
              "--max-nodes); not checked", b->flow_depth,
              MODEL_FLOW_WORK_PER_NODE);
    return -1;
}

static int handle_event(struct builder *b, const yaml_event_t *event)
{
    if (charge_flow_work(b, event) != 0)
        return -1;
    switch (event->type) {
    case YAML_DOCUMENT_START_EVENT:
        anchors_clear(b);   /* anchors are scoped to their document */
        b->document_root = NULL;
        return 0;
    case YAML_DOCUMENT_END_EVENT:
        return add_document(b);
    case YAML_SCALAR_EVENT:
        return add_scalar(b, event);
    case YAML_ALIAS_EVENT:
        return add_alias(b, event);
    case YAML_SEQUENCE_START_EVENT:
        return start_collection(b, event, SL_NODE_SEQUENCE);
    case YAML_MAPPING_START_EVENT:
        return start_collection(b, event, SL_NODE_MAPPING);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        if (b->frame_count == 0)
            return 0;
        return close_collection(b, &event->end_mark);
    default:
        return 0;
    }
}

static void syntax_error(struct builder *b, const yaml_parser_t *parser)
{
    const yaml_mark_t *mark = &parser->problem_mark;
    const char *problem = parser->problem ? parser->problem : "invalid YAML";
    if (parser->error == YAML_MEMORY_ERROR) {
        set_error(b, MODEL_NO_MEMORY, 0, 0, "out of memory while parsing YAML");
        return;
    }
    if (parser->context != NULL)
        set_error(b, MODEL_SYNTAX_ERROR, (unsigned)mark->line + 1,
                  (unsigned)mark->column + 1, "YAML syntax error: %s %s",
                  problem, parser->context);
    else
        set_error(b, MODEL_SYNTAX_ERROR, (unsigned)mark->line + 1,
                  (unsigned)mark->column + 1, "YAML syntax error: %s", problem);
}

enum model_status model_parse(struct yaml_model *model, const char *text,
                              size_t length, const struct model_limits *limits)
{
    memset(model, 0, sizeof(*model));
    arena_init(&model->arena);

    struct builder b;
    memset(&b, 0, sizeof(b));
    b.model = model;
    b.limits.max_nodes = MODEL_DEFAULT_MAX_NODES;
    b.limits.max_depth = MODEL_DEFAULT_MAX_DEPTH;
    if (limits != NULL) {
        if (limits->max_nodes != 0)
            b.limits.max_nodes = limits->max_nodes;
        if (limits->max_depth != 0)
            b.limits.max_depth = limits->max_depth;
    }
    b.max_flow_work = (uint64_t)b.limits.max_nodes * MODEL_FLOW_WORK_PER_NODE;

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        set_error(&b, MODEL_NO_MEMORY, 0, 0, "out of memory");
        return model->status;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, length);

    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) {
            syntax_error(&b, &parser);
            break;
        }
        int failed = handle_event(&b, &event);
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (failed != 0 || done)
            break;
    }
    yaml_parser_delete(&parser);

    free(b.frames);
    free(b.children);
    free(b.anchors);
    free(b.merge_table);

    if (model->status != MODEL_OK) {
        /* A broken file is reported once and not checked: drop the
         * partial tree. */
        free(model->documents);
        model->documents = NULL;
        model->document_count = 0;
        arena_release(&model->arena);
    }
    return model->status;
}

void model_release(struct yaml_model *model)
{
    if (model == NULL)
        return;
    arena_release(&model->arena);
    free(model->documents);
    for (size_t i = 0; i < model->warning_count; i++)
        free(model->warnings[i].message);
    free(model->warnings);
    free(model->error.message);
    memset(model, 0, sizeof(*model));
}

const struct sl_node *model_mapping_get(const struct sl_node *mapping,
                                        const char *key, size_t key_length,
                                        const struct sl_node **key_node)
{
    if (key_node != NULL)
        *key_node = NULL;
    if (mapping == NULL || mapping->kind != SL_NODE_MAPPING)
        return NULL;
    for (size_t i = 0; i < mapping->u.mapping.count; i++) {
        const struct model_pair *pair = &mapping->u.mapping.pairs[i];
        const struct sl_node *k = pair->key;
        if (k->kind == SL_NODE_SCALAR && k->u.scalar.length == key_length &&
            memcmp(k->u.scalar.text, key, key_length) == 0) {
            if (key_node != NULL)
                *key_node = k;
            return pair->value;
        }
    }
    return NULL;
}
