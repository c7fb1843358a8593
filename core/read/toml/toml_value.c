/* toml_value.c - the document tree of the TOML reader: values, tables
 * (in document order, with a hash index once they grow), arrays, and the
 * public accessors (see toml.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "toml_parser.h"
#include "xalloc.h"

/* Tables up to this many keys are searched in order; larger ones get a
 * hash index, so a table of 200,000 keys still reads in linear time. */
#define LINEAR_SEARCH_LIMIT 8

/* Grows *items (of item_size bytes each) to hold at least needed. */
static void ensure_capacity(void **items, size_t *capacity, size_t needed,
                            size_t item_size)
{
    if (needed <= *capacity)
        return;
    size_t grown = *capacity ? *capacity : 8;
    while (grown < needed)
        grown *= 2;
    *items = xrealloc(*items, grown, item_size);
    *capacity = grown;
}

void byte_buffer_add(struct byte_buffer *buffer, const void *bytes, size_t length)
{
    ensure_capacity((void **)&buffer->bytes, &buffer->capacity,
                    buffer->length + length + 1, 1);
    if (length > 0)
        memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = '\0';
}

void byte_buffer_add_byte(struct byte_buffer *buffer, char byte)
{
    byte_buffer_add(buffer, &byte, 1);
}

struct toml_value *value_new(struct parser *parser, enum toml_kind kind,
                             struct toml_pos pos, size_t start)
{
    struct toml_doc *doc = parser->doc;
    /* About a hundred bytes each: the limit keeps a hostile file of a few
     * megabytes from taking gigabytes before anything is confined. */
    if (doc->value_count >= TOML_MAX_VALUES)
        parser_fail_at(parser, pos, "more than %d values (tables, arrays, keys' values "
                       "and array items): a limit that keeps reading bounded",
                       TOML_MAX_VALUES);
    ensure_capacity((void **)&doc->values, &doc->value_capacity, doc->value_count + 1,
                    sizeof(*doc->values));
    struct toml_value *value = xcalloc(1, sizeof(*value));
    doc->values[doc->value_count++] = value;
    value->kind = kind;
    value->pos = pos;
    value->span.start = start;
    value->span.end = start;
    return value;
}

/* FNV-1a, folded: keys are short and attacker-chosen, and the index is
 * only a speed-up (collisions cost time, never correctness). */
static size_t hash_key(const char *key, size_t length)
{
    uint64_t hash = 1469598103934665603u;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)key[i];
        hash *= 1099511628211u;
    }
    return (size_t)(hash ^ (hash >> 29));
}

struct table_entry *table_find(const struct toml_value *table, const char *key,
                               size_t key_length)
{
    if (table->as.table.slot_count > 0) {
        size_t mask = table->as.table.slot_count - 1;
        size_t hash = hash_key(key, key_length);
        for (size_t slot = hash & mask; table->as.table.slots[slot] != 0;
             slot = (slot + 1) & mask) {
            struct table_entry *entry =
                &table->as.table.entries[table->as.table.slots[slot] - 1];
            if (entry->hash == hash && entry->key_length == key_length &&
                memcmp(entry->key, key, key_length) == 0)
                return entry;
        }
        return NULL;
    }
    for (size_t i = 0; i < table->as.table.count; i++) {
        struct table_entry *entry = &table->as.table.entries[i];
        if (entry->key_length == key_length && memcmp(entry->key, key, key_length) == 0)
            return entry;
    }
    return NULL;
}

static void index_entry(size_t *slots, size_t slot_count, size_t hash, size_t index)
{
    size_t mask = slot_count - 1;
    size_t slot = hash & mask;
    while (slots[slot] != 0)
        slot = (slot + 1) & mask;
    slots[slot] = index + 1;
}

static void table_reindex(struct toml_value *table, size_t slot_count)
{
    size_t *slots = xcalloc(slot_count, sizeof(*slots));
    for (size_t i = 0; i < table->as.table.count; i++)
        index_entry(slots, slot_count, table->as.table.entries[i].hash, i);
    free(table->as.table.slots);
    table->as.table.slots = slots;
    table->as.table.slot_count = slot_count;
}

size_t table_add(struct toml_value *table, const struct key_part *part,
                 const char *key, struct toml_value *value)
{
    size_t index = table->as.table.count;
    ensure_capacity((void **)&table->as.table.entries, &table->as.table.capacity,
                    index + 1, sizeof(*table->as.table.entries));
    struct table_entry *entry = &table->as.table.entries[index];
    entry->key = xmemdup(key, part->length);
    entry->key_length = part->length;
    entry->hash = hash_key(key, part->length);
    entry->key_pos = part->pos;
    entry->key_span = part->span;
    entry->value = value;
    table->as.table.count++;
    /* The index stays at most half full. */
    if (table->as.table.slot_count > 0 &&
        table->as.table.count * 2 > table->as.table.slot_count)
        table_reindex(table, table->as.table.slot_count * 2);
    else if (table->as.table.slot_count > 0)
        index_entry(table->as.table.slots, table->as.table.slot_count, entry->hash, index);
    else if (table->as.table.count > LINEAR_SEARCH_LIMIT)
        table_reindex(table, 32);
    return index;
}

void array_append(struct toml_value *array, struct toml_value *item)
{
    ensure_capacity((void **)&array->as.array.items, &array->as.array.capacity,
                    array->as.array.count + 1, sizeof(*array->as.array.items));
    array->as.array.items[array->as.array.count++] = item;
}

static void value_free(struct toml_value *value)
{
    switch (value->kind) {
    case TOML_STRING:
    case TOML_OFFSET_DATETIME:
    case TOML_LOCAL_DATETIME:
    case TOML_LOCAL_DATE:
    case TOML_LOCAL_TIME:
        free(value->as.string.text);
        break;
    case TOML_ARRAY:
        free(value->as.array.items);
        break;
    case TOML_TABLE:
        for (size_t i = 0; i < value->as.table.count; i++)
            free(value->as.table.entries[i].key);
        free(value->as.table.entries);
        free(value->as.table.slots);
        break;
    default:
        break;
    }
    free(value);
}

/* Every value is in doc->values: no walk of the tree, no recursion. */
void toml_doc_free(struct toml_doc *doc)
{
    if (doc == NULL)
        return;
    for (size_t i = 0; i < doc->value_count; i++)
        value_free(doc->values[i]);
    free(doc->values);
    free(doc);
}

/* ------------------------------------------------------------------ */
/* accessors                                                           */

const struct toml_value *toml_doc_root(const struct toml_doc *doc)
{
    return doc != NULL ? doc->root : NULL;
}

enum toml_kind toml_kind(const struct toml_value *v)
{
    return v->kind;
}

struct toml_pos toml_value_pos(const struct toml_value *v)
{
    return v->pos;
}

struct toml_span toml_value_span(const struct toml_value *v)
{
    return v->span;
}

enum toml_table_origin toml_table_origin(const struct toml_value *table)
{
    return table != NULL && table->kind == TOML_TABLE ? table->as.table.origin
                                                      : TOML_TABLE_ROOT;
}

size_t toml_table_size(const struct toml_value *table)
{
    return table != NULL && table->kind == TOML_TABLE ? table->as.table.count : 0;
}

const struct toml_value *toml_table_entry(const struct toml_value *table, size_t i,
                                          const char **key, size_t *key_len,
                                          struct toml_pos *key_pos)
{
    if (i >= toml_table_size(table))
        return NULL;
    const struct table_entry *entry = &table->as.table.entries[i];
    if (key != NULL)
        *key = entry->key;
    if (key_len != NULL)
        *key_len = entry->key_length;
    if (key_pos != NULL)
        *key_pos = entry->key_pos;
    return entry->value;
}

struct toml_span toml_table_key_span(const struct toml_value *table, size_t i)
{
    struct toml_span none = { 0, 0 };
    return i < toml_table_size(table) ? table->as.table.entries[i].key_span : none;
}

const struct toml_value *toml_table_getn(const struct toml_value *table, const char *key,
                                         size_t key_len, struct toml_pos *key_pos)
{
    if (table == NULL || table->kind != TOML_TABLE || key == NULL)
        return NULL;
    const struct table_entry *entry = table_find(table, key, key_len);
    if (entry == NULL)
        return NULL;
    if (key_pos != NULL)
        *key_pos = entry->key_pos;
    return entry->value;
}

size_t toml_table_index(const struct toml_value *table, const char *key, size_t key_len)
{
    if (table == NULL || table->kind != TOML_TABLE || key == NULL)
        return TOML_NO_INDEX;
    const struct table_entry *entry = table_find(table, key, key_len);
    return entry != NULL ? (size_t)(entry - table->as.table.entries) : TOML_NO_INDEX;
}

const struct toml_value *toml_table_get(const struct toml_value *table, const char *key)
{
    return key != NULL ? toml_table_getn(table, key, strlen(key), NULL) : NULL;
}

size_t toml_array_size(const struct toml_value *array)
{
    return array != NULL && array->kind == TOML_ARRAY ? array->as.array.count : 0;
}

const struct toml_value *toml_array_get(const struct toml_value *array, size_t i)
{
    return i < toml_array_size(array) ? array->as.array.items[i] : NULL;
}

int toml_array_is_table_array(const struct toml_value *array)
{
    return array != NULL && array->kind == TOML_ARRAY && array->as.array.of_tables;
}

const char *toml_string(const struct toml_value *v, size_t *len)
{
    if (v == NULL || v->kind != TOML_STRING)
        return NULL;
    if (len != NULL)
        *len = v->as.string.length;
    return v->as.string.text;
}

int64_t toml_integer(const struct toml_value *v)
{
    return v != NULL && v->kind == TOML_INTEGER ? v->as.integer : 0;
}

double toml_float(const struct toml_value *v)
{
    return v != NULL && v->kind == TOML_FLOAT ? v->as.floating : 0.0;
}

int toml_boolean(const struct toml_value *v)
{
    return v != NULL && v->kind == TOML_BOOLEAN && v->as.boolean;
}

const char *toml_datetime_text(const struct toml_value *v)
{
    if (v == NULL)
        return NULL;
    switch (v->kind) {
    case TOML_OFFSET_DATETIME:
    case TOML_LOCAL_DATETIME:
    case TOML_LOCAL_DATE:
    case TOML_LOCAL_TIME:
        return v->as.string.text;
    default:
        return NULL;
    }
}

const char *toml_kind_name(enum toml_kind k)
{
    switch (k) {
    case TOML_STRING: return "string";
    case TOML_INTEGER: return "integer";
    case TOML_FLOAT: return "float";
    case TOML_BOOLEAN: return "boolean";
    case TOML_OFFSET_DATETIME: return "offset date-time";
    case TOML_LOCAL_DATETIME: return "local date-time";
    case TOML_LOCAL_DATE: return "local date";
    case TOML_LOCAL_TIME: return "local time";
    case TOML_ARRAY: return "array";
    case TOML_TABLE: return "table";
    }
    return "unknown";
}
