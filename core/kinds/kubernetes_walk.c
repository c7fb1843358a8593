/* kubernetes_walk.c - what an object holds, wherever (see kubernetes_walk.h). */
#include "config.h"

#include "kubernetes_walk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Where the walk is: the path so far, within a fixed buffer (a path longer
 * than that is cut and ends in "..."; it only names a place in messages). */
#define PATH_SIZE 256
#define SEGMENT_MAX 64

struct walker {
    struct kubernetes_walk *walk;
    const struct sl_node *const *skip;
    size_t skip_count;
    bool host_disk;
    size_t visited;
    char path[PATH_SIZE];
    size_t length;
};

static bool key_is(const struct sl_node *key, const char *word)
{
    return key->kind == SL_NODE_SCALAR && key->u.scalar.length == strlen(word) &&
           memcmp(key->u.scalar.text, word, key->u.scalar.length) == 0;
}

/* A list of mappings of which at least one holds image. */
static bool containers_list(const struct sl_node *list)
{
    if (list == NULL || list->kind != SL_NODE_SEQUENCE)
        return false;
    for (size_t i = 0; i < list->u.sequence.count; i++)
        if (model_mapping_get(list->u.sequence.items[i], "image", 5, NULL) != NULL)
            return true;
    return false;
}

bool kubernetes_is_pod_spec_shape(const struct sl_node *mapping)
{
    return mapping != NULL && mapping->kind == SL_NODE_MAPPING &&
           (containers_list(model_mapping_get(mapping, "containers", 10, NULL)) ||
            containers_list(model_mapping_get(mapping, "initContainers", 14, NULL)));
}

static void add_found(struct walker *walker, enum kubernetes_found_kind kind,
                      const struct sl_node *node, const struct sl_node *key,
                      const struct sl_node *parent, const char *holder_key)
{
    struct kubernetes_walk *walk = walker->walk;
    if (walk->count == walk->capacity) {
        walk->capacity = walk->capacity ? walk->capacity * 2 : 8;
        walk->items = xrealloc(walk->items, walk->capacity, sizeof(*walk->items));
    }
    struct kubernetes_found *found = &walk->items[walk->count++];
    found->kind = kind;
    found->node = node;
    found->key = key;
    found->parent = parent;
    found->holder_key = holder_key;
    found->path = xstrdup(walker->length != 0 ? walker->path : "(the object)");
}

/* Appends segment to the path, or "..." once when it no longer fits;
 * returns the length before, to restore. */
static size_t push(struct walker *walker, const char *segment, size_t add)
{
    size_t before = walker->length;
    if (before + add + 4 < PATH_SIZE) {
        memcpy(walker->path + before, segment, add);
        walker->length = before + add;
    } else if (before < 3 || memcmp(walker->path + before - 3, "...", 3) != 0) {
        memcpy(walker->path + before, "...", 3);
        walker->length = before + 3;
    }
    walker->path[walker->length] = '\0';
    return before;
}

/* ".KEY" ("KEY" first; a long key cut). */
static size_t push_key(struct walker *walker, const struct sl_node *key)
{
    const char *text = key->kind == SL_NODE_SCALAR ? key->u.scalar.text : "<key>";
    size_t length = key->kind == SL_NODE_SCALAR ? key->u.scalar.length : 5;
    /* Built by hand: snprintf here was a tenth of the walk (every key of
     * every object passes through). A key stops at a NUL, as "%.*s" did. */
    char segment[SEGMENT_MAX + 8];
    size_t used = 0;
    if (walker->length != 0)
        segment[used++] = '.';
    size_t shown = length > SEGMENT_MAX ? SEGMENT_MAX : length;
    const char *nul = memchr(text, '\0', shown);
    if (nul != NULL)
        shown = (size_t)(nul - text);
    memcpy(segment + used, text, shown);
    used += shown;
    if (length > SEGMENT_MAX) {
        memcpy(segment + used, "...", 3);
        used += 3;
    }
    return push(walker, segment, used);
}

/* "[INDEX]". */
static size_t push_index(struct walker *walker, size_t index)
{
    char digits[24], segment[32];
    size_t count = 0, used = 0;
    do {
        digits[count++] = (char)('0' + index % 10);
        index /= 10;
    } while (index != 0);
    segment[used++] = '[';
    while (count > 0)
        segment[used++] = digits[--count];
    segment[used++] = ']';
    return push(walker, segment, used);
}

static void pop(struct walker *walker, size_t before)
{
    walker->length = before;
    walker->path[before] = '\0';
}

static int compare_nodes(const void *a, const void *b)
{
    uintptr_t left = (uintptr_t)*(const struct sl_node *const *)a;
    uintptr_t right = (uintptr_t)*(const struct sl_node *const *)b;
    return left < right ? -1 : left > right;
}

/* The skip list is sorted once, so each node costs a binary search. */
static bool skipped(const struct walker *walker, const struct sl_node *node)
{
    return walker->skip_count != 0 &&
           bsearch(&node, walker->skip, walker->skip_count, sizeof(*walker->skip),
                   compare_nodes) != NULL;
}

/* A host switch written false or null says nothing a controller could
 * turn into access; anything else may. */
static bool says_nothing(const struct sl_node *value)
{
    if (value->kind != SL_NODE_SCALAR)
        return false;
    if (value->null_value)
        return true;
    return value->u.scalar.length == 5 && memcmp(value->u.scalar.text, "false", 5) == 0;
}

static bool security_key(const struct sl_node *key, const struct sl_node *value)
{
    if (key_is(key, "securityContext"))
        return !(value->kind == SL_NODE_SCALAR && value->null_value) &&
               !(value->kind == SL_NODE_MAPPING && value->u.mapping.count == 0);
    return (key_is(key, "hostNetwork") || key_is(key, "hostPID") || key_is(key, "hostIPC")) &&
           !says_nothing(value);
}

static void visit(struct walker *walker, const struct sl_node *node,
                  const struct sl_node *key, const struct sl_node *parent, unsigned depth)
{
    if (walker->walk->over_limit)
        return;
    if (++walker->visited > KUBERNETES_WALK_MAX_NODES || depth > KUBERNETES_WALK_MAX_DEPTH) {
        walker->walk->over_limit = true;
        return;
    }
    if (skipped(walker, node))
        return;
    if (node->kind == SL_NODE_SEQUENCE) {
        for (size_t i = 0; i < node->u.sequence.count && !walker->walk->over_limit; i++) {
            size_t before = push_index(walker, i);
            visit(walker, node->u.sequence.items[i], NULL, NULL, depth + 1);
            pop(walker, before);
        }
        return;
    }
    if (node->kind != SL_NODE_MAPPING)
        return;
    if (depth > 0 && kubernetes_is_pod_spec_shape(node)) {
        add_found(walker, KUBERNETES_FOUND_POD_SPEC, node, key, parent, NULL);
        return;
    }
    /* A host path the caller read already (a pod's volume that an alias
     * repeats elsewhere) is not found twice. */
    const struct sl_node *host = model_mapping_get(node, "hostPath", 8, NULL);
    const struct sl_node *disk =
        walker->host_disk ? model_mapping_get(node, "hostDisk", 8, NULL) : NULL;
    if (host != NULL && !skipped(walker, host))
        add_found(walker, KUBERNETES_FOUND_HOST_PATH, node, key, parent, "hostPath");
    else if (host == NULL && disk != NULL)
        add_found(walker, KUBERNETES_FOUND_HOST_PATH, node, key, parent, "hostDisk");
    for (size_t i = 0; i < node->u.mapping.count && !walker->walk->over_limit; i++) {
        const struct model_pair *pair = &node->u.mapping.pairs[i];
        size_t before = push_key(walker, pair->key);
        if (security_key(pair->key, pair->value))
            add_found(walker, KUBERNETES_FOUND_SECURITY_KEY, pair->value, pair->key, node,
                      NULL);
        else if (!key_is(pair->key, "hostPath") &&
                 !(walker->host_disk && key_is(pair->key, "hostDisk")))
            visit(walker, pair->value, pair->key, node, depth + 1);
        pop(walker, before);
    }
}

void kubernetes_walk_object(struct kubernetes_walk *walk, const struct sl_node *object,
                            const struct sl_node *const *skip, size_t skip_count,
                            bool host_disk)
{
    const struct sl_node **sorted = NULL;
    if (skip_count != 0) {
        sorted = xcalloc(skip_count, sizeof(*sorted));
        memcpy(sorted, skip, skip_count * sizeof(*sorted));
        qsort(sorted, skip_count, sizeof(*sorted), compare_nodes);
    }
    struct walker walker = { walk, sorted, skip_count, host_disk, 0, { 0 }, 0 };
    if (object != NULL)
        visit(&walker, object, NULL, NULL, 0);
    free(sorted);
}

void kubernetes_walk_release(struct kubernetes_walk *walk)
{
    for (size_t i = 0; i < walk->count; i++)
        free(walk->items[i].path);
    free(walk->items);
    walk->items = NULL;
    walk->count = walk->capacity = 0;
    walk->over_limit = false;
}
