/* kubernetes.c - pod specs, containers, hostPath volumes (see kubernetes.h). */
#include "config.h"

#include "kubernetes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "host_mounts.h"
#include "sized_out.h"
#include "xalloc.h"
#include "yaml_model.h"

static const struct sl_node *lookup(const struct sl_node *mapping, const char *key,
                                    const struct sl_node **key_node)
{
    return model_mapping_get(mapping, key, strlen(key), key_node);
}

static bool scalar_is(const struct sl_node *node, const char *word)
{
    return node != NULL && node->kind == SL_NODE_SCALAR &&
           node->u.scalar.length == strlen(word) &&
           memcmp(node->u.scalar.text, word, node->u.scalar.length) == 0;
}

const struct sl_node *kubernetes_follow(const struct sl_node *node, const char *path,
                                        const struct sl_node **key)
{
    char step[64];
    *key = NULL;
    while (node != NULL && *path != '\0') {
        const char *dot = strchr(path, '.');
        size_t length = dot ? (size_t)(dot - path) : strlen(path);
        if (length >= sizeof(step))
            return NULL;
        memcpy(step, path, length);
        step[length] = '\0';
        node = lookup(node, step, key);
        path += length + (dot != NULL);
    }
    return node;
}

const struct sl_node *kubernetes_pod_spec(const struct sl_node *object, size_t index,
                                          const struct sl_node **key)
{
    static const char *const paths[KUBERNETES_POD_SHAPES] = {
        "spec", "template.spec", "spec.template.spec",
        "spec.jobTemplate.spec.template.spec", "spec.podTemplate.spec",
    };
    *key = NULL;
    if (object == NULL || object->kind != SL_NODE_MAPPING || index >= KUBERNETES_POD_SHAPES)
        return NULL;
    /* Only a Pod's own spec is a pod spec; other objects' spec is theirs. */
    bool is_pod = scalar_is(lookup(object, "kind", NULL), "Pod");
    if ((index == 0) != is_pod)
        return NULL;
    const struct sl_node *spec = kubernetes_follow(object, paths[index], key);
    if (spec == NULL || spec->kind != SL_NODE_MAPPING) {
        *key = NULL;
        return NULL;
    }
    return spec;
}

static const char *text_of(const struct sl_node *node)
{
    if (node == NULL || node->kind != SL_NODE_SCALAR || node->null_value ||
        node->u.scalar.length == 0)
        return NULL;
    return node->u.scalar.text;
}

char *kubernetes_object_service(const struct sl_node *object)
{
    const char *kind = text_of(lookup(object, "kind", NULL));
    const struct sl_node *metadata = lookup(object, "metadata", NULL);
    const char *name = text_of(lookup(metadata, "name", NULL));
    if (name == NULL)
        name = text_of(lookup(metadata, "generateName", NULL));
    return xasprintf("%s/%s", kind ? kind : "<unknown>", name ? name : "<unnamed>");
}

int kubernetes_pod_specs(struct sl_context *ctx, const struct sl_node *object,
                         size_t pod_size, sl_pod_fn visit, void *data,
                         const char **problem)
{
    *problem = NULL;
    struct sl_pod own;
    struct sized_out sized;
    if (visit == NULL || sized_out_begin(&sized, &own, sizeof(own), pod_size, sizeof(own)) != 0) {
        *problem = "pod_specs(): no callback, or a pod_size that is not the size of a "
                   "struct sl_pod";
        return SL_ERROR;
    }
    int status = SL_OK;
    char *service = NULL;
    for (size_t i = 0; i < KUBERNETES_POD_SHAPES && status == SL_OK; i++) {
        const struct sl_node *key;
        const struct sl_node *spec = kubernetes_pod_spec(object, i, &key);
        if (spec == NULL)
            continue;
        if (service == NULL)
            service = kubernetes_object_service(object);
        struct sl_pod pod = {
            .struct_size = sizeof(pod), .service = service,
            .service_length = strlen(service), .spec = spec, .node = key,
            .object = object,
        };
        struct sl_pod *out = sized_out_fill(&sized, &pod, sizeof(pod));
        status = visit(ctx, out, data) == SL_OK ? SL_OK : SL_ERROR;
    }
    free(service);
    sized_out_end(&sized);
    return status;
}

/* Hands each mapping of list (containers, initContainers...) to visit. */
static int each_in_list(int sort, const char *list_name, const struct sl_node *list,
                        kubernetes_container_fn visit, void *data)
{
    if (list == NULL || list->kind != SL_NODE_SEQUENCE)
        return SL_OK;
    for (size_t i = 0; i < list->u.sequence.count; i++) {
        const struct sl_node *item = list->u.sequence.items[i];
        if (item->kind != SL_NODE_MAPPING)
            continue;
        const struct sl_node *name_node = lookup(item, "name", NULL);
        const char *name = text_of(name_node);
        struct kubernetes_container container = {
            .sort = sort, .list = list_name, .index = i, .mapping = item,
            .name = name, .name_length = name ? name_node->u.scalar.length : 0,
        };
        int status = visit(&container, data);
        if (status != SL_OK)
            return status;
    }
    return SL_OK;
}

int kubernetes_each_container(int kind, const struct sl_node *service,
                              kubernetes_container_fn visit, void *data)
{
    static const char *const lists[] = { "containers", "initContainers",
                                         "ephemeralContainers" };
    int status = SL_OK;
    if (service == NULL || service->kind != SL_NODE_MAPPING)
        return SL_OK;
    if (kind == SL_KIND_KUBERNETES) {
        for (int i = 0; i < 3 && status == SL_OK; i++)
            status = each_in_list(SL_CONTAINER_MAIN + i, lists[i],
                                  lookup(service, lists[i], NULL), visit, data);
        return status;
    }
    struct kubernetes_container itself = {
        .sort = SL_CONTAINER_MAIN, .mapping = service,
    };
    status = visit(&itself, data);
    if (status == SL_OK && kind == SL_KIND_AGENT_ENV)
        status = each_in_list(SL_CONTAINER_INIT, lists[1], lookup(service, lists[1], NULL),
                              visit, data);
    return status;
}

char *kubernetes_container_service(const char *prefix,
                                   const struct kubernetes_container *container)
{
    if (container->list == NULL)
        return xstrdup(prefix);
    if (container->name != NULL)
        return xasprintf("%s/%s", prefix, container->name);
    return xasprintf("%s/%s[%zu]", prefix, container->list, container->index);
}

/* containers(): one walk's caller and what it wants. */
struct container_delivery {
    struct sl_context *ctx;
    struct sized_out sized;
    const char *prefix;
    sl_container_fn visit;
    void *data;
};

static int deliver_container(const struct kubernetes_container *found, void *data)
{
    struct container_delivery *delivery = data;
    char *service = kubernetes_container_service(delivery->prefix, found);
    struct sl_container container = {
        .struct_size = sizeof(container), .sort = found->sort, .service = service,
        .service_length = strlen(service), .container = found->mapping,
        .node = found->mapping, .name = found->name, .name_length = found->name_length,
    };
    struct sl_container *out = sized_out_fill(&delivery->sized, &container,
                                              sizeof(container));
    int status = delivery->visit(delivery->ctx, out, delivery->data);
    free(service);
    return status == SL_OK ? SL_OK : SL_ERROR;
}

int kubernetes_containers(struct sl_context *ctx, int kind, const char *service_name,
                          const struct sl_node *service, size_t container_size,
                          sl_container_fn visit, void *data, const char **problem)
{
    *problem = NULL;
    struct sl_container own;
    struct container_delivery delivery = { ctx, { NULL, 0, NULL }, service_name, visit,
                                           data };
    if (visit == NULL || service_name == NULL ||
        sized_out_begin(&delivery.sized, &own, sizeof(own), container_size,
                        sizeof(own)) != 0) {
        *problem = "containers(): no callback or service name, or a container_size that "
                   "is not the size of a struct sl_container";
        return SL_ERROR;
    }
    int status = kubernetes_each_container(kind, service, deliver_container, &delivery);
    sized_out_end(&delivery.sized);
    return status;
}

int kubernetes_is_templated(const char *text, size_t length)
{
    for (size_t i = 0; i + 1 < length; i++)
        if (text[i] == '{' && text[i + 1] == '{')
            return 1;
    return 0;
}

int kubernetes_host_mounts(struct sl_context *ctx, const struct sl_node *service,
                           size_t mount_size, sl_mount_fn visit, void *data,
                           const char **problem)
{
    *problem = NULL;
    struct sl_mount own;
    struct sized_out sized;
    if (visit == NULL || sized_out_begin(&sized, &own, sizeof(own), mount_size,
                                     HOST_MOUNT_SIZE_1_1) != 0) {
        *problem = "host_mounts(): no callback, or a mount_size that is not the size "
                   "of a struct sl_mount";
        return SL_ERROR;
    }
    const struct sl_node *volumes = lookup(service, "volumes", NULL);
    int status = SL_OK;
    for (size_t i = 0; volumes != NULL && volumes->kind == SL_NODE_SEQUENCE &&
                       i < volumes->u.sequence.count && status == SL_OK; i++) {
        const struct sl_node *item = volumes->u.sequence.items[i];
        const struct sl_node *host_key = NULL;
        const struct sl_node *host_path = lookup(item, "hostPath", &host_key);
        if (host_path == NULL || compose_node_empty(host_path))
            continue;   /* not a hostPath volume (or an agent-env string) */
        struct sl_mount mount;
        memset(&mount, 0, sizeof(mount));
        mount.struct_size = sizeof(mount);
        mount.syntax = SL_MOUNT_HOST_PATH_VOLUME;
        mount.field = "volumes";
        mount.entry = item;
        if (host_path->kind != SL_NODE_MAPPING) {
            mount.kind = SL_MOUNT_UNSUPPORTED;
            mount.node = host_key;
            mount.entry = host_path;
            mount.value = host_path->kind == SL_NODE_SEQUENCE ? "<sequence>" : "<scalar>";
            mount.value_length = strlen(mount.value);
        } else {
            const struct sl_node *path_key = NULL;
            const struct sl_node *path = lookup(host_path, "path", &path_key);
            const char *text = text_of(path);
            size_t length = text ? path->u.scalar.length : 0;
            mount.node = text ? path : host_key;
            mount.kind = SL_MOUNT_HOST_PATH;
            mount.value = text ? text : SL_MOUNT_UNSPECIFIED;
            mount.value_length = text ? length : strlen(SL_MOUNT_UNSPECIFIED);
            mount.source = text;
            mount.source_length = length;
            if (path != NULL && path->kind != SL_NODE_SCALAR) {
                mount.kind = SL_MOUNT_UNSUPPORTED;
                mount.node = path_key;
                mount.entry = path;
                mount.value = path->kind == SL_NODE_SEQUENCE ? "<sequence>" : "<mapping>";
                mount.value_length = strlen(mount.value);
                mount.source = NULL;
                mount.source_length = 0;
            } else if (text != NULL && kubernetes_is_templated(text, length)) {
                mount.kind = SL_MOUNT_INTERPOLATED;
                mount.part = SL_MOUNT_PART_SOURCE;
                mount.interpolated = text;
                mount.interpolated_length = length;
            } else if (text != NULL) {
                mount.flags |= host_mounts_place_flags(text, length);
                if (compose_is_engine_socket(text, length, NULL, 0))
                    mount.flags |= SL_MOUNT_ENGINE_API;
            }
        }
        struct sl_mount *out = sized_out_fill(&sized, &mount, sizeof(mount));
        status = visit(ctx, out, data) == SL_OK ? SL_OK : SL_ERROR;
    }
    sized_out_end(&sized);
    return status;
}
