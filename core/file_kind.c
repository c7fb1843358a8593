/* file_kind.c - which kind of file a discovered file is (see file_kind.h). */
#include "config.h"

#include "file_kind.h"

#include <string.h>

#include "sandlint/plugin.h"

static bool ends_with(const char *name, size_t length, const char *suffix)
{
    size_t suffix_length = strlen(suffix);
    return length >= suffix_length &&
           memcmp(name + length - suffix_length, suffix, suffix_length) == 0;
}

bool file_name_is_yaml(const char *name)
{
    size_t length = strlen(name);
    return (length > 4 && ends_with(name, length, ".yml")) ||
           (length > 5 && ends_with(name, length, ".yaml"));
}

static bool is_compose_name(const char *name)
{
    if (strncmp(name, "docker-", 7) == 0)
        name += 7;
    if (strncmp(name, "compose", 7) != 0)
        return false;
    size_t length = strlen(name);
    return (length >= 11 && ends_with(name, length, ".yml")) ||
           (length >= 12 && ends_with(name, length, ".yaml"));
}

/* values.y{a,}ml, helm-values*.y{a,}ml, *-values.y{a,}ml */
static bool is_values_name(const char *name)
{
    size_t length = strlen(name);
    size_t stem = ends_with(name, length, ".yaml") ? length - 5
                  : ends_with(name, length, ".yml") ? length - 4 : (size_t)-1;
    if (stem == (size_t)-1)
        return false;
    if (stem == 6 && memcmp(name, "values", 6) == 0)
        return true;
    if (strncmp(name, "helm-values", 11) == 0 && stem >= 11)
        return true;
    return stem >= 7 && memcmp(name + stem - 7, "-values", 7) == 0;
}

unsigned file_name_candidates(const char *name)
{
    unsigned candidates = 0;
    if (is_compose_name(name))
        candidates |= CANDIDATE_COMPOSE;
    if (is_values_name(name))
        candidates |= CANDIDATE_VALUES;
    return candidates;
}

static const struct sl_node *value_of(const struct sl_node *mapping, const char *key)
{
    return model_mapping_get(mapping, key, strlen(key), NULL);
}

static bool is_text(const struct sl_node *node)
{
    return node != NULL && node->kind == SL_NODE_SCALAR && !node->null_value;
}

bool file_kind_agent_env_shape(const struct sl_node *root)
{
    const struct sl_node *services = value_of(root, "services");
    if (services == NULL || services->kind != SL_NODE_MAPPING ||
        services->u.mapping.count == 0)
        return false;
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct sl_node *service = services->u.mapping.pairs[i].value;
        if (service->kind != SL_NODE_MAPPING || !is_text(value_of(service, "image")))
            return false;
    }
    return true;
}

bool file_kind_is_object(const struct sl_node *root)
{
    return root != NULL && root->kind == SL_NODE_MAPPING &&
           is_text(value_of(root, "apiVersion")) && is_text(value_of(root, "kind"));
}

int file_kind_decide(const struct yaml_model *model, unsigned candidates)
{
    if (candidates == 0 || (candidates & CANDIDATE_COMPOSE) != 0)
        return SL_KIND_COMPOSE;
    if ((candidates & (CANDIDATE_VALUES | CANDIDATE_NAMED)) != 0) {
        for (size_t i = 0; i < model->document_count; i++) {
            if (model_is_null(model->documents[i]))
                continue;
            if (file_kind_agent_env_shape(model->documents[i]))
                return SL_KIND_AGENT_ENV;
            break;
        }
    }
    if ((candidates & (CANDIDATE_KUBERNETES | CANDIDATE_NAMED)) != 0)
        for (size_t i = 0; i < model->document_count; i++)
            if (file_kind_is_object(model->documents[i]))
                return SL_KIND_KUBERNETES;
    return (candidates & CANDIDATE_NAMED) != 0 ? SL_KIND_COMPOSE : 0;
}

const char *file_kind_name(int kind)
{
    switch (kind) {
    case SL_KIND_COMPOSE:
        return "compose";
    case SL_KIND_AGENT_ENV:
        return "agent-env";
    case SL_KIND_KUBERNETES:
        return "kubernetes";
    default:
        return "unknown";
    }
}
