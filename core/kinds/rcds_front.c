/* rcds_front.c - the rCDS challenge front-end (see rcds_front.h). */
#include "config.h"

#include "rcds_front.h"

#include "kubernetes_front.h"
#include "yaml_model.h"

/* One entry of containers: its service step, then its container scope. */
static void read_container(struct model_reading *reading, const struct model_pair *pair)
{
    if (!model_service_pair(reading, pair))
        return;
    const char *name = pair->key->u.scalar.text;
    size_t name_length = pair->key->u.scalar.length;
    model_emit_service(reading, SL_KIND_RCDS, name, name_length, pair->key, pair->value);
    struct model_group group;
    model_group_init(&group);
    struct kubernetes_container found = {
        .sort = SL_CONTAINER_MAIN, .list = NULL, .index = 0, .mapping = pair->value,
        .name = name, .name_length = name_length,
    };
    kubernetes_front_check_shapes(reading, name, &found);
    /* Findings about the container as a whole point at its key, so that a
     * suppression comment above it covers them. */
    model_emit_scope(reading, kubernetes_front_container(&group, NULL, SL_KIND_RCDS, name,
                                                         pair->key, &found));
    model_group_release(&group);
}

void rcds_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (model_is_null(root))
        return;
    model_emit_document(reading, SL_KIND_RCDS, root);
    const struct sl_node *containers = model_mapping_get(root, "containers", 10, NULL);
    if (containers == NULL || model_is_null(containers))
        return;
    if (containers->kind != SL_NODE_MAPPING) {
        model_emit_not_checked(reading, containers, "rCDS containers must be a mapping of "
                               "container names to containers; not checked");
        return;
    }
    for (size_t i = 0; i < containers->u.mapping.count; i++)
        read_container(reading, &containers->u.mapping.pairs[i]);
}
