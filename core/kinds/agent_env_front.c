/* agent_env_front.c - the agent-env front-end (see agent_env_front.h). */
#include "config.h"

#include "agent_env_front.h"

#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "file_kind.h"
#include "kubernetes.h"
#include "kubernetes_front.h"
#include "xalloc.h"
#include "yaml_model.h"

/* The project: the top-level values every sandbox pod gets. */
static void fill_project(struct model_fill *fill, const struct model_scope *scope,
                         int view, int id)
{
    (void)view;
    if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN || id == SL_SETTING_SERVICE_ACCOUNT_NAME)
        kubernetes_front_fill_account(fill, scope->public.mapping, id);
    else
        fill->setting.state = SL_SETTING_UNSUPPORTED;
}

static const struct model_reader project_reader = { fill_project, NULL };

/* The runtime class the chart gives a service that names none (null,
 * empty or absent). */
static const char default_runtime_class[] = "gvisor";

static void fill_runtime(struct model_fill *fill, const struct model_scope *scope, int view)
{
    kubernetes_front_fill_field(fill, scope->public.mapping, "runtimeClassName",
                                SL_FORM_SCALAR);
    if (view != SL_VIEW_EFFECTIVE || fill->setting.state != SL_SETTING_ABSENT)
        return;
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_SCALAR;
    value->field = value->label = "runtimeClassName";
    value->key = value->node = scope->public.node;
    value->text = value->parsed = default_runtime_class;
    value->text_length = value->parsed_length = sizeof(default_runtime_class) - 1;
    fill->setting.state = SL_SETTING_DEFAULT;
}

/* The pod the chart makes of a service: its runtime class and its
 * volumes (the chart has no pod-level securityContext or host switches). */
static void fill_pod(struct model_fill *fill, const struct model_scope *scope, int view,
                     int id)
{
    if (id == SL_SETTING_RUNTIME) {
        fill_runtime(fill, scope, view);
    } else if (id == SL_SETTING_MOUNTS) {
        kubernetes_front_fill_mounts(fill, scope->public.mapping);
    } else if (view == SL_VIEW_EFFECTIVE && (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN ||
                                             id == SL_SETTING_SERVICE_ACCOUNT_NAME)) {
        model_fill_inherit(fill, id);
    } else {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
    }
}

static const struct model_reader pod_reader = { fill_pod, kubernetes_front_pod_mounts };

/* The containers of a service: one scope each, in the service's group. */
struct service_walk {
    struct model_reading *reading;
    struct model_group *group;
    struct model_scope *pod;
};

/* A finding about the service's own container points at the service's
 * key, so that a suppression comment above the service covers it; one
 * about an init container at its list item. */
static int read_container(const struct kubernetes_container *found, void *data)
{
    struct service_walk *walk = data;
    const struct sl_node *key = found->list == NULL ? walk->pod->public.node : NULL;
    model_emit_scope(walk->reading,
                     kubernetes_front_container(walk->group, walk->pod, SL_KIND_AGENT_ENV,
                                                walk->pod->public.service, key, found));
    return SL_OK;
}

/* One service: its step for rules of ABI 1.0-1.2, then its pod and
 * containers. */
static void read_service(struct model_reading *reading, struct model_scope *project,
                         const struct model_pair *pair)
{
    if (!model_service_pair(reading, pair))
        return;
    const char *name = pair->key->u.scalar.text;
    size_t name_length = pair->key->u.scalar.length;
    model_emit_service(reading, SL_KIND_AGENT_ENV, name, name_length, pair->key,
                       pair->value);
    struct model_group group;
    model_group_init(&group);
    struct model_scope_spec spec = {
        .level = SL_SCOPE_POD, .platform = SL_PLATFORM_KUBERNETES,
        .kind = SL_KIND_AGENT_ENV, .service = name, .service_length = name_length,
        .name = name, .name_length = name_length, .noun = "pod", .node = pair->key,
        .mapping = pair->value, .parent = project, .reader = &pod_reader,
    };
    struct service_walk walk = { reading, &group, model_scope_new(&group, &spec) };
    model_emit_scope(reading, walk.pod);
    kubernetes_each_container(SL_KIND_AGENT_ENV, pair->value, read_container, &walk);
    model_group_release(&group);
}

/* additionalResources: objects the chart deploys beside the services, each
 * read as a Kubernetes object. */
static void read_additional_resources(struct model_reading *reading,
                                      const struct sl_node *resources)
{
    if (model_is_null(resources) || resources->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < resources->u.sequence.count; i++) {
        const struct sl_node *item = resources->u.sequence.items[i];
        if (model_is_null(item))
            continue;
        if (file_kind_is_object(item))
            kubernetes_front_read_object(reading, item, 0);
        else if (item->kind == SL_NODE_SCALAR)
            model_emit_warning(reading, item, "additionalResources item is Helm "
                               "template text and cannot be checked");
        else
            model_emit_warning(reading, item, "additionalResources item is not a "
                               "Kubernetes object (no apiVersion and kind); not "
                               "checked");
    }
}

void agent_env_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (model_is_null(root))
        return;
    if (root->kind != SL_NODE_MAPPING) {
        model_emit_warning(reading, root, "expected a mapping of agent-env values");
        return;
    }
    model_emit_document(reading, SL_KIND_AGENT_ENV, root);
    struct model_group group;
    model_group_init(&group);
    struct model_scope_spec spec = {
        .level = SL_SCOPE_PROJECT, .platform = SL_PLATFORM_KUBERNETES,
        .kind = SL_KIND_AGENT_ENV, .noun = "sandbox", .node = root, .mapping = root,
        .reader = &project_reader,
    };
    struct model_scope *project = model_scope_new(&group, &spec);
    model_emit_scope(reading, project);
    const struct sl_node *services = model_mapping_get(root, "services", 8, NULL);
    if (!model_is_null(services) && services->kind != SL_NODE_MAPPING)
        model_emit_warning(reading, services, "expected a mapping of services");
    else if (!model_is_null(services))
        for (size_t i = 0; i < services->u.mapping.count; i++)
            read_service(reading, project, &services->u.mapping.pairs[i]);
    read_additional_resources(reading, model_mapping_get(root, "additionalResources", 19,
                                                         NULL));
    model_group_release(&group);
}
