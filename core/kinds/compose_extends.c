/* compose_extends.c - extends chains, !reset and !override (see compose_extends.h). */
#include "config.h"

#include "compose_extends.h"

#include <stdbool.h>
#include <string.h>

#include "compose.h"
#include "sandlint/plugin.h"
#include "yaml_model.h"

int compose_tagged(const struct sl_node *node, const char *tag)
{
    return node != NULL && node->tag != NULL && strcmp(node->tag, tag) == 0;
}

int compose_lookup(const struct sl_node *mapping, const char *name,
                   const struct sl_node **key, const struct sl_node **value)
{
    *value = model_mapping_get(mapping, name, strlen(name), key);
    if (*value == NULL)
        return COMPOSE_ABSENT;
    if (compose_tagged(*value, "!reset"))
        return COMPOSE_RESET;
    return compose_node_empty(*value) ? COMPOSE_ABSENT : COMPOSE_PRESENT;
}

void compose_chain_build(struct compose_chain *chain, const struct sl_node *services,
                         const struct sl_node *service)
{
    memset(chain, 0, sizeof(*chain));
    chain->services[chain->count++] = service;
    const struct sl_node *current = service;
    while (chain->count < COMPOSE_CHAIN_MAX) {
        const struct sl_node *key, *extends;
        if (compose_lookup(current, "extends", &key, &extends) != COMPOSE_PRESENT)
            return;
        const struct sl_node *service_node = extends;
        if (extends->kind == SL_NODE_MAPPING) {
            size_t file_length;
            const char *file = compose_setting_text(model_mapping_get(extends, "file", 4, NULL),
                                            &file_length);
            if (file != NULL) {
                chain->external = file;
                chain->external_length = file_length;
                return;
            }
            service_node = model_mapping_get(extends, "service", 7, NULL);
        }
        size_t name_length;
        const char *name = compose_setting_text(service_node, &name_length);
        if (name == NULL)
            return;     /* Compose refuses it */
        if (compose_has_interpolation(name, name_length)) {
            chain->external = name;
            chain->external_length = name_length;
            return;
        }
        /* Service names hold no NUL: a name that does is nobody's. */
        if (strlen(name) != name_length)
            return;
        const struct sl_node *base = model_mapping_get(services, name, name_length, NULL);
        if (base == NULL || base->kind != SL_NODE_MAPPING)
            return;
        for (size_t i = 0; i < chain->count; i++)
            if (chain->services[i] == base)
                return;     /* a cycle */
        chain->services[chain->count++] = base;
        current = base;
    }
}

int compose_chain_setting(const struct compose_chain *chain, const char *const *path,
                          const struct sl_node **key, const struct sl_node **value,
                          size_t *depth)
{
    *key = *value = NULL;
    for (size_t s = 0; s < chain->count; s++) {
        const struct sl_node *node = chain->services[s];
        int found = COMPOSE_PRESENT;
        for (size_t i = 0; path[i] != NULL && found == COMPOSE_PRESENT; i++) {
            found = compose_lookup(node, path[i], key, value);
            if (found == COMPOSE_PRESENT && path[i + 1] != NULL) {
                if ((*value)->kind != SL_NODE_MAPPING)
                    found = COMPOSE_ABSENT;
                node = *value;
            }
        }
        if (found != COMPOSE_ABSENT) {
            *depth = s;
            return found;
        }
    }
    return COMPOSE_ABSENT;
}

/* Hands each entry of one list setting (value, under key) to visit: the
 * items of a sequence, or a scalar given for the list, pointed at by its
 * key.  Null entries are no setting. */
static void each_entry(size_t depth, const struct sl_node *key, const struct sl_node *value,
                       compose_entry_fn visit, void *data)
{
    if (compose_node_empty(value))
        return;
    if (value->kind != SL_NODE_SEQUENCE) {
        visit(depth, key, value, data);
        return;
    }
    for (size_t i = 0; i < value->u.sequence.count; i++) {
        const struct sl_node *item = value->u.sequence.items[i];
        if (item->kind == SL_NODE_SCALAR && item->null_value)
            continue;
        visit(depth, item, item, data);
    }
}

void compose_chain_list(const struct compose_chain *chain, const char *name,
                        const struct sl_node **first_key, compose_entry_fn visit,
                        void *data)
{
    *first_key = NULL;
    for (size_t s = 0; s < chain->count; s++) {
        const struct sl_node *key, *value;
        int found = compose_lookup(chain->services[s], name, &key, &value);
        if (found == COMPOSE_RESET)
            return;
        if (found == COMPOSE_ABSENT)
            continue;
        if (*first_key == NULL)
            *first_key = key;
        each_entry(s, key, value, visit, data);
        if (compose_tagged(value, "!override"))
            return;
    }
}

void compose_written_list(const struct sl_node *mapping, const char *name,
                          const struct sl_node **key, compose_entry_fn visit,
                          void *data)
{
    const struct sl_node *value = model_mapping_get(mapping, name, strlen(name), key);
    if (compose_node_empty(value))
        *key = NULL;    /* null or empty: not written */
    each_entry(0, *key, value, visit, data);
}
