/* agent_env_front.c - the agent-env front-end (see agent_env_front.h). */
#include "config.h"

#include "agent_env_front.h"

#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "file_kind.h"
#include "kubernetes.h"
#include "kubernetes_front.h"
#include "kubernetes_shapes.h"
#include "xalloc.h"
#include "yaml_model.h"

/* automountServiceAccountToken written as null: Helm drops the chart's
 * false, the chart renders the field empty, and Kubernetes mounts a token
 * (its default; SPEC §13).  Returns whether it was. */
static bool token_nulled(struct model_fill *fill, const struct sl_node *mapping)
{
    static const char name[] = "automountServiceAccountToken";
    const struct sl_node *key = NULL;
    const struct sl_node *node = model_mapping_get(mapping, name, sizeof(name) - 1, &key);
    if (key == NULL || !model_is_null(node))
        return false;
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_FLAG;
    value->field = value->label = "automountServiceAccountToken";
    value->key = value->node = key;
    value->text = value->parsed = "null";
    value->text_length = value->parsed_length = 4;
    value->meaning = 1;
    fill->setting.field = fill->setting.label = "automountServiceAccountToken";
    fill->setting.key = key;
    return true;
}

/* The project: the top-level values every sandbox pod gets. */
static void fill_project(struct model_fill *fill, const struct model_scope *scope,
                         int view, int id)
{
    (void)view;
    if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN && token_nulled(fill, scope->public.mapping))
        return;
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
    } else if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN) {
        /* The chart passes a service's volumes to its pod: a projected
         * serviceAccountToken source is a token whatever the top-level
         * automountServiceAccountToken says. */
        if (view == SL_VIEW_EFFECTIVE)
            model_fill_inherit(fill, id);
        kubernetes_front_fill_projected_tokens(fill, scope->public.mapping);
        if (view == SL_VIEW_WRITTEN && fill->count == 0)
            fill->setting.state = SL_SETTING_UNSUPPORTED;
    } else if (view == SL_VIEW_EFFECTIVE && id == SL_SETTING_SERVICE_ACCOUNT_NAME) {
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
    kubernetes_front_check_shapes(walk->reading, walk->pod->public.service, found);
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

/* ------------------------------------------------------------------ */
/* the CoreDNS sidecar                                                 */
/* ------------------------------------------------------------------ */

/* corednsSecurityContext as chart 0.14's values.yaml sets it: non-root
 * 65532, read-only root, RuntimeDefault seccomp, no privilege escalation,
 * every capability dropped but NET_BIND_SERVICE (Pod Security's restricted
 * pattern: the binary carries that file capability). */
static const char coredns_default_text[] =
    "allowPrivilegeEscalation: false\n"
    "capabilities:\n"
    "  drop: [ALL]\n"
    "  add: [NET_BIND_SERVICE]\n"
    "readOnlyRootFilesystem: true\n"
    "runAsGroup: 65532\n"
    "runAsNonRoot: true\n"
    "runAsUser: 65532\n"
    "seccompProfile:\n"
    "  type: RuntimeDefault\n";

/* The defaults' tree, parsed once per process (every values document of a
 * run has a CoreDNS sidecar; the text is ours, so it parses) and kept,
 * read-only, until the process ends.  NULL when out of memory. */
static const struct sl_node *coredns_defaults(void)
{
    static struct yaml_model model;
    static int parsed;          /* 0 not yet, 1 parsed, -1 failed */
    if (parsed == 0) {
        parsed = model_parse(&model, coredns_default_text, sizeof(coredns_default_text) - 1,
                             NULL) == MODEL_OK && model.document_count == 1 ? 1 : -1;
        if (parsed < 0)
            model_release(&model);
    }
    return parsed > 0 ? model.documents[0] : NULL;
}

/* A copy of a node of the chart's defaults, placed at where: the file
 * does not write it, so a finding about it points at the value that
 * brought it in (corednsSecurityContext).  The defaults are three levels
 * deep: the copy's recursion is bounded by them. */
static struct sl_node *place_default(struct model_group *group, const struct sl_node *node,
                                     const struct sl_node *where)
{
    struct sl_node *copy = model_group_alloc(group, sizeof(*copy));
    *copy = *node;
    copy->line = copy->end_line = where->line;
    copy->column = where->column;
    copy->end_column = where->end_column;
    if (node->kind == SL_NODE_SEQUENCE) {
        copy->u.sequence.items = model_group_alloc(
            group, (node->u.sequence.count + 1) * sizeof(*copy->u.sequence.items));
        for (size_t i = 0; i < node->u.sequence.count; i++)
            copy->u.sequence.items[i] = place_default(group, node->u.sequence.items[i],
                                                      where);
    } else if (node->kind == SL_NODE_MAPPING) {
        copy->u.mapping.pairs = model_group_alloc(
            group, (node->u.mapping.count + 1) * sizeof(*copy->u.mapping.pairs));
        for (size_t i = 0; i < node->u.mapping.count; i++) {
            copy->u.mapping.pairs[i].key =
                place_default(group, node->u.mapping.pairs[i].key, where);
            copy->u.mapping.pairs[i].value =
                place_default(group, node->u.mapping.pairs[i].value, where);
        }
    }
    return copy;
}

/*
 * The file's value merged over the chart's default, as Helm merges user
 * values into a chart's: mappings key by key (recursively), anything else
 * replaced by the file's (lists too), a key the file sets to null removed.
 * Recursion follows the defaults, so it is as bounded as they are.
 */
static struct sl_node *helm_merge(struct model_group *group, const struct sl_node *defaults,
                                  const struct sl_node *file, const struct sl_node *where)
{
    if (file->kind != SL_NODE_MAPPING || defaults->kind != SL_NODE_MAPPING)
        return (struct sl_node *)file;
    struct sl_node *merged = model_group_alloc(group, sizeof(*merged));
    *merged = *file;
    size_t capacity = defaults->u.mapping.count + file->u.mapping.count + 1;
    merged->u.mapping.pairs = model_group_alloc(group, capacity *
                                                           sizeof(*merged->u.mapping.pairs));
    size_t count = 0;
    for (size_t i = 0; i < defaults->u.mapping.count; i++) {
        const struct model_pair *pair = &defaults->u.mapping.pairs[i];
        const struct sl_node *key = NULL;
        const struct sl_node *written = model_mapping_get(file, pair->key->u.scalar.text,
                                                          pair->key->u.scalar.length, &key);
        struct model_pair *out = &merged->u.mapping.pairs[count];
        if (key == NULL) {
            out->key = place_default(group, pair->key, where);
            out->value = place_default(group, pair->value, where);
        } else if (model_is_null(written)) {
            continue;   /* null removes the default */
        } else {
            out->key = (struct sl_node *)key;
            out->value = helm_merge(group, pair->value, written, key);
        }
        count++;
    }
    for (size_t i = 0; i < file->u.mapping.count; i++) {
        const struct model_pair *pair = &file->u.mapping.pairs[i];
        if (pair->key->kind == SL_NODE_SCALAR &&
            model_mapping_get(defaults, pair->key->u.scalar.text,
                              pair->key->u.scalar.length, NULL) != NULL)
            continue;   /* merged above */
        if (model_is_null(pair->value))
            continue;
        merged->u.mapping.pairs[count++] = *pair;
    }
    merged->u.mapping.count = count;
    return merged;
}

/* A mapping of one pair, name: value, placed at where. */
static struct sl_node *one_pair(struct model_group *group, const char *name,
                                struct sl_node *value, const struct sl_node *where)
{
    struct sl_node *key = model_group_alloc(group, sizeof(*key));
    key->kind = SL_NODE_SCALAR;
    key->style = SL_STYLE_PLAIN;
    key->u.scalar.text = model_group_strndup(group, name, strlen(name));
    key->u.scalar.length = strlen(name);
    key->line = key->end_line = where->line;
    key->column = where->column;
    key->end_column = where->end_column;
    struct sl_node *mapping = model_group_alloc(group, sizeof(*mapping));
    *mapping = *key;
    mapping->kind = SL_NODE_MAPPING;
    mapping->u.mapping.pairs = model_group_alloc(group, sizeof(*mapping->u.mapping.pairs));
    mapping->u.mapping.pairs[0].key = key;
    mapping->u.mapping.pairs[0].value = value;
    mapping->u.mapping.count = value != NULL;
    return mapping;
}

/*
 * The CoreDNS sidecar the chart puts in every sandbox pod (SPEC §13): one
 * container scope, "coredns", whose securityContext is the chart's default
 * with corednsSecurityContext merged over it.  Its image and command are
 * the file's to choose and grant nothing; its resources are the chart's
 * (limits set).  Its pod is the chart's pod, not read again: the services'
 * pods carry the pod's settings.
 */
static void read_coredns(struct model_reading *reading, struct model_scope *project,
                         const struct sl_node *root, struct model_group *group)
{
    const struct sl_node *key = NULL;
    const struct sl_node *written =
        model_mapping_get(root, "corednsSecurityContext", 22, &key);
    struct sl_node *security = NULL;
    if (written != NULL && !model_is_null(written) && written->kind != SL_NODE_MAPPING) {
        if (written->kind == SL_NODE_SCALAR &&
            kubernetes_is_templated(written->u.scalar.text, written->u.scalar.length))
            model_emit_templated(reading, written, "corednsSecurityContext is Helm template "
                               "text and cannot be checked");
        else
            /* A security setting of the wrong type fails the run (SL008,
             * as a service's securityContext does). */
            model_emit_not_understood(reading, written, "corednsSecurityContext is not a "
                                      "mapping (the chart renders it as the CoreDNS "
                                      "container's securityContext); not checked");
        return;
    }
    kubernetes_shapes_security(reading, "coredns", written);
    const struct sl_node *defaults = coredns_defaults();
    if (defaults == NULL) {
        model_emit_not_checked(reading, key != NULL ? key : root, "the CoreDNS sidecar's "
                               "securityContext could not be modelled (out of memory); "
                               "not checked");
        return;
    }
    const struct sl_node *where = key != NULL ? key : root;
    if (written == NULL)
        security = place_default(group, defaults, where);
    else if (!model_is_null(written))
        security = helm_merge(group, defaults, written, where);
    struct sl_node *mapping = one_pair(group, "securityContext", security, where);
    struct sl_node *pod_mapping = one_pair(group, "containers", NULL, where);
    struct model_scope_spec pod_spec = {
        .level = SL_SCOPE_POD, .platform = SL_PLATFORM_KUBERNETES,
        .kind = SL_KIND_AGENT_ENV, .service = "coredns", .service_length = 7,
        .name = "coredns", .name_length = 7, .noun = "pod", .node = where,
        .mapping = pod_mapping, .parent = project, .reader = &pod_reader,
    };
    struct model_scope *pod = model_scope_new(group, &pod_spec);
    struct kubernetes_container container = {
        .sort = SL_CONTAINER_SIDECAR, .list = NULL, .mapping = mapping,
        .name = "coredns", .name_length = 7,
    };
    model_emit_scope(reading, kubernetes_front_container(group, pod, SL_KIND_AGENT_ENV,
                                                         "coredns", where, &container));
}

/* ------------------------------------------------------------------ */
/* additionalResources                                                 */
/* ------------------------------------------------------------------ */

/* Where text parsed out of a string item lies in the file: a block scalar
 * (| or >) maps line for line from the line after its indicator, its
 * content indented as far as the indicator stands (the usual "- |"
 * layout); a flow scalar written on one line ("...\n..." escapes) puts
 * everything on that line, at the string for the lines after the first;
 * one written over several lines maps from its own line, the first line
 * shifted by its column (and opening quote). */
struct string_origin {
    unsigned line_offset;       /* added to every line */
    unsigned column_offset;     /* added to columns (of the first line only
                                   for a flow scalar) */
    bool block;
    unsigned one_line;          /* the flow scalar's line when it is on one,
                                   else 0 */
    unsigned column;            /* its column */
};

static struct string_origin string_origin(const struct sl_node *item)
{
    struct string_origin origin = { 0, 0, false, 0, 0 };
    origin.block = item->style == SL_STYLE_LITERAL || item->style == SL_STYLE_FOLDED;
    bool quoted = item->style == SL_STYLE_SINGLE_QUOTED ||
                  item->style == SL_STYLE_DOUBLE_QUOTED;
    origin.line_offset = origin.block ? item->line : item->line - 1;
    origin.column_offset = item->column - 1 + (quoted ? 1 : 0);
    origin.one_line = !origin.block && item->end_line == item->line ? item->line : 0;
    origin.column = item->column;
    return origin;
}

static void place_position(const struct string_origin *origin, uint32_t *line,
                           uint32_t *column)
{
    if (origin->one_line != 0 && *line > 1) {
        *line = origin->one_line;
        *column = origin->column;
        return;
    }
    if (origin->block || *line == 1)
        *column += origin->column_offset;
    *line += origin->line_offset;
}

/* Moves every node of a model parsed from a string to where the string
 * lies in the file.  Aliases share nodes: each is moved once (marked in
 * its 'open' byte, which a finished model no longer uses).  No recursion:
 * an explicit stack, as long as the model has nodes. */
static void place_model(struct yaml_model *model, const struct string_origin *origin)
{
    size_t capacity = 64, depth = 0;
    struct sl_node **stack = xcalloc(capacity, sizeof(*stack));
    for (size_t d = 0; d < model->document_count; d++) {
        stack[depth++] = model->documents[d];
        while (depth > 0) {
            struct sl_node *node = stack[--depth];
            if (node == NULL || node->open == 2)
                continue;
            node->open = 2;
            place_position(origin, &node->line, &node->column);
            place_position(origin, &node->end_line, &node->end_column);
            size_t children = node->kind == SL_NODE_SEQUENCE ? node->u.sequence.count
                              : node->kind == SL_NODE_MAPPING ? 2 * node->u.mapping.count
                                                              : 0;
            if (depth + children > capacity) {
                capacity = (depth + children) * 2;
                stack = xrealloc(stack, capacity, sizeof(*stack));
            }
            for (size_t i = 0; node->kind == SL_NODE_SEQUENCE && i < children; i++)
                stack[depth++] = node->u.sequence.items[i];
            for (size_t i = 0; node->kind == SL_NODE_MAPPING && i < children / 2; i++) {
                stack[depth++] = node->u.mapping.pairs[i].key;
                stack[depth++] = node->u.mapping.pairs[i].value;
            }
        }
    }
    free(stack);
}

/* An additionalResources string without template text: the chart renders
 * it with tpl, which leaves it as it is, into the release's manifest, so
 * it is a YAML stream of objects (SPEC §13): each one is read as a
 * Kubernetes object, at its place in the file. */
static void read_resource_string(struct model_reading *reading, const struct sl_node *item)
{
    struct yaml_model parsed;
    struct string_origin origin = string_origin(item);
    if (model_parse(&parsed, item->u.scalar.text, item->u.scalar.length, NULL) != MODEL_OK) {
        struct sl_node at = *item;
        if (parsed.error.line != 0) {
            at.line = parsed.error.line;
            at.column = parsed.error.column;
            place_position(&origin, &at.line, &at.column);
        }
        char *message = xasprintf("additionalResources item is a string the chart renders "
                                  "as YAML, and it is not valid YAML: %s; not checked",
                                  parsed.error.message != NULL ? parsed.error.message
                                                               : "it could not be read");
        model_emit_not_checked(reading, &at, message);
        free(message);
        model_release(&parsed);
        return;
    }
    place_model(&parsed, &origin);
    for (size_t d = 0; d < parsed.document_count; d++) {
        const struct sl_node *document = parsed.documents[d];
        if (model_is_null(document))
            continue;
        if (file_kind_is_object(document)) {
            if (!file_kind_is_schema_object(document))
                kubernetes_front_read_object(reading, document, 0);
        } else {
            model_emit_warning(reading, document, "additionalResources item holds a "
                               "document that is not a Kubernetes object (no apiVersion and "
                               "kind); not checked");
        }
    }
    model_release(&parsed);
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
        else if (item->kind == SL_NODE_SCALAR &&
                 kubernetes_is_templated(item->u.scalar.text, item->u.scalar.length))
            model_emit_templated(reading, item, "additionalResources item is Helm "
                               "template text and cannot be checked");
        else if (item->kind == SL_NODE_SCALAR)
            read_resource_string(reading, item);
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
    read_coredns(reading, project, root, &group);
    read_additional_resources(reading, model_mapping_get(root, "additionalResources", 19,
                                                         NULL));
    model_group_release(&group);
}
