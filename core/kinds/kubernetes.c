/* kubernetes.c - pod specs and containers (see kubernetes.h). */
#include "config.h"

#include "kubernetes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kubernetes_walk.h"
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

bool kubernetes_api_group_is(const struct sl_node *object, const char *group)
{
    const struct sl_node *version = lookup(object, "apiVersion", NULL);
    if (version == NULL || version->kind != SL_NODE_SCALAR || version->null_value)
        return false;
    const char *text = version->u.scalar.text;
    size_t length = version->u.scalar.length;
    const char *slash = memchr(text, '/', length);
    if (*group == '\0')
        return slash == NULL && length != 0;
    size_t group_length = strlen(group);
    return slash != NULL && (size_t)(slash - text) == group_length &&
           memcmp(text, group, group_length) == 0;
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
    /* Only a Pod's own spec is a pod spec; other objects' spec is theirs
     * (a Pod of another API group is another controller's: its pod specs
     * are found by their shape). */
    bool is_pod = scalar_is(lookup(object, "kind", NULL), "Pod") &&
                  kubernetes_api_group_is(object, "");
    if ((index == 0) != is_pod)
        return NULL;
    const struct sl_node *spec = kubernetes_follow(object, paths[index], key);
    if (spec == NULL || spec->kind != SL_NODE_MAPPING) {
        *key = NULL;
        return NULL;
    }
    return spec;
}

const struct sl_node *kubernetes_pod_template_metadata(const struct sl_node *object,
                                                       size_t index)
{
    static const char *const paths[KUBERNETES_POD_SHAPES] = {
        "metadata", "template.metadata", "spec.template.metadata",
        "spec.jobTemplate.spec.template.metadata", "spec.podTemplate.metadata",
    };
    const struct sl_node *key;
    if (index >= KUBERNETES_POD_SHAPES)
        return NULL;
    const struct sl_node *metadata = kubernetes_follow(object, paths[index], &key);
    return metadata != NULL && metadata->kind == SL_NODE_MAPPING ? metadata : NULL;
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
    const char *namespace = text_of(lookup(metadata, "namespace", NULL));
    if (name == NULL)
        name = text_of(lookup(metadata, "generateName", NULL));
    /* Objects of the same kind and name in two namespaces are two objects
     * (SPEC §13, §17): the namespace leads when written. */
    return xasprintf("%s%s%s/%s", namespace ? namespace : "", namespace ? "/" : "",
                     kind ? kind : "<unknown>", name ? name : "<unnamed>");
}

/* pod_specs(): hands one pod spec to the caller's visit. */
struct pod_delivery {
    struct sl_context *ctx;
    struct sized_out sized;
    const struct sl_node *object;
    char *service;              /* made on first use */
    sl_pod_fn visit;
    void *data;
};

static int deliver_pod(struct pod_delivery *delivery, const struct sl_node *spec,
                       const struct sl_node *key)
{
    if (delivery->service == NULL)
        delivery->service = kubernetes_object_service(delivery->object);
    struct sl_pod pod = {
        .struct_size = sizeof(pod), .service = delivery->service,
        .service_length = strlen(delivery->service), .spec = spec, .node = key,
        .object = delivery->object,
    };
    struct sl_pod *out = sized_out_fill(&delivery->sized, &pod, sizeof(pod));
    return delivery->visit(delivery->ctx, out, delivery->data) == SL_OK ? SL_OK : SL_ERROR;
}

int kubernetes_pod_specs(struct sl_context *ctx, const struct sl_node *object,
                         size_t pod_size, sl_pod_fn visit, void *data,
                         const char **problem)
{
    *problem = NULL;
    struct sl_pod own;
    struct pod_delivery delivery = { ctx, { NULL, 0, NULL }, object, NULL, visit, data };
    if (visit == NULL ||
        sized_out_begin(&delivery.sized, &own, sizeof(own), pod_size, sizeof(own)) != 0) {
        *problem = "pod_specs(): no callback, or a pod_size that is not the size of a "
                   "struct sl_pod";
        return SL_ERROR;
    }
    int status = SL_OK;
    /* The known paths first, then the pod specs the shape walk finds
     * elsewhere (SPEC §13), as the front-end reads them. */
    const struct sl_node *known[KUBERNETES_POD_SHAPES];
    size_t known_count = 0;
    for (size_t i = 0; i < KUBERNETES_POD_SHAPES && status == SL_OK; i++) {
        const struct sl_node *key;
        const struct sl_node *spec = kubernetes_pod_spec(object, i, &key);
        if (spec == NULL)
            continue;
        known[known_count++] = spec;
        status = deliver_pod(&delivery, spec, key);
    }
    if (status == SL_OK && object != NULL && object->kind == SL_NODE_MAPPING) {
        struct kubernetes_walk walk = { NULL, 0, 0, false };
        kubernetes_walk_object(&walk, object, known, known_count, false);
        for (size_t i = 0; i < walk.count && status == SL_OK; i++)
            if (walk.items[i].kind == KUBERNETES_FOUND_POD_SPEC)
                status = deliver_pod(&delivery, walk.items[i].node, walk.items[i].key);
        kubernetes_walk_release(&walk);
    }
    free(delivery.service);
    sized_out_end(&delivery.sized);
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
