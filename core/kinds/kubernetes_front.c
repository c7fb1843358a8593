/* kubernetes_front.c - the Kubernetes front-end (see kubernetes_front.h). */
#include "config.h"

#include "kubernetes_front.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "file_kind.h"
#include "host_mounts.h"
#include "xalloc.h"
#include "yaml_model.h"

static const struct sl_node *lookup(const struct sl_node *mapping, const char *key,
                                    const struct sl_node **key_node)
{
    return model_mapping_get(mapping, key, strlen(key), key_node);
}

static bool text_equals(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

/* A value whose findings point at key (the setting) or node (the value):
 * Kubernetes findings about a value point at the value. */
static struct sl_value *new_value(struct model_fill *fill, int form, const char *field,
                                  const char *label, const struct sl_node *key,
                                  const struct sl_node *node)
{
    struct sl_value *value = model_fill_value(fill);
    value->form = form;
    value->field = field;
    value->label = label;
    value->key = key;
    value->node = node;
    return value;
}

/* Takes text from a scalar; Helm template text cannot be checked.
 * Returns whether the value was read (SET). */
static bool take_text(struct sl_value *value, const char *text, size_t length)
{
    value->text = text;
    value->text_length = length;
    if (kubernetes_is_templated(text, length)) {
        value->state = SL_VALUE_TEMPLATED;
        value->template_syntax = SL_TEMPLATE_HELM;
        return false;
    }
    value->parsed = text;
    value->parsed_length = length;
    return true;
}

static const char *collection_text(const struct sl_node *node)
{
    return node->kind == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
}

/* A switch: on when true (as Kubernetes' YAML reads it); one that is not a
 * scalar is not on (the API server refuses it). */
static void flag_value(struct model_fill *fill, const char *field, const char *label,
                       const struct sl_node *key, const struct sl_node *node)
{
    if (node == NULL || (node->kind == SL_NODE_SCALAR && node->null_value))
        return;
    struct sl_value *value = new_value(fill, SL_FORM_FLAG, field, label, key, node);
    if (node->kind != SL_NODE_SCALAR) {
        value->text = collection_text(node);
        value->text_length = strlen(value->text);
        return;
    }
    if (take_text(value, node->u.scalar.text, node->u.scalar.length))
        value->meaning = compose_node_truthy(node);
}

void kubernetes_front_fill_field(struct model_fill *fill, const struct sl_node *mapping,
                                 const char *name, int form)
{
    const struct sl_node *key;
    const struct sl_node *node = lookup(mapping, name, &key);
    if (fill->setting.field == NULL)
        fill->setting.field = fill->setting.label = name;
    if (form == SL_FORM_FLAG) {
        flag_value(fill, name, name, key, node);
    } else if (node != NULL && !compose_node_empty(node)) {
        if (node->kind != SL_NODE_SCALAR) {
            struct sl_value *value = new_value(fill, form, name, name, key, node);
            value->state = SL_VALUE_UNCHECKABLE;
            value->text = collection_text(node);
            value->text_length = strlen(value->text);
        } else if (node->u.scalar.length != 0) {
            struct sl_value *value = new_value(fill, form, name, name, key, node);
            take_text(value, node->u.scalar.text, node->u.scalar.length);
        }
    }
    if (fill->count != 0 && fill->setting.key == NULL)
        fill->setting.key = key;
}

void kubernetes_front_fill_account(struct model_fill *fill, const struct sl_node *mapping,
                                   int id)
{
    if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN) {
        kubernetes_front_fill_field(fill, mapping, "automountServiceAccountToken",
                                    SL_FORM_FLAG);
        return;
    }
    /* serviceAccount is the deprecated name of serviceAccountName. */
    kubernetes_front_fill_field(fill, mapping, "serviceAccountName", SL_FORM_SCALAR);
    kubernetes_front_fill_field(fill, mapping, "serviceAccount", SL_FORM_SCALAR);
}

/* ------------------------------------------------------------------ */
/* securityContext                                                     */
/* ------------------------------------------------------------------ */

/* A securityContext field (below the container's or pod's). */
struct security_field {
    int id;
    const char *path;           /* below securityContext */
    const char *field;          /* the key's field */
    const char *label;          /* what messages call it */
    bool pod;                   /* a pod's securityContext has it too */
    const char *hint;           /* how to add it to a container, or NULL */
};

static const struct security_field security_fields[] = {
    { SL_SETTING_PRIVILEGED, "privileged", "securityContext.privileged", "privileged",
      false, NULL },
    { SL_SETTING_CAP_ADD, "capabilities.add", "securityContext.capabilities.add",
      "capabilities.add", false, NULL },
    { SL_SETTING_CAP_DROP, "capabilities.drop", "securityContext.capabilities.drop",
      "capabilities.drop", false,
      "add 'drop: [ALL]' to its securityContext.capabilities, and add only the "
      "capabilities it needs" },
    { SL_SETTING_SECCOMP, "seccompProfile.type", "securityContext.seccompProfile.type",
      "securityContext.seccompProfile.type", true, NULL },
    { SL_SETTING_APPARMOR, "appArmorProfile.type", "securityContext.appArmorProfile.type",
      "securityContext.appArmorProfile.type", true, NULL },
    { SL_SETTING_SELINUX, "seLinuxOptions.type", "securityContext.seLinuxOptions.type",
      "securityContext.seLinuxOptions.type", true, NULL },
    { SL_SETTING_SYSTEM_PATHS, "procMount", "securityContext.procMount",
      "securityContext.procMount", false, NULL },
    { SL_SETTING_NO_NEW_PRIVILEGES, "allowPrivilegeEscalation",
      "securityContext.allowPrivilegeEscalation", "allowPrivilegeEscalation", false,
      "add 'allowPrivilegeEscalation: false' to its securityContext" },
    { SL_SETTING_READ_ONLY_ROOT, "readOnlyRootFilesystem",
      "securityContext.readOnlyRootFilesystem", "readOnlyRootFilesystem", false,
      "add 'readOnlyRootFilesystem: true' to its securityContext (with an emptyDir "
      "volume for the paths it writes)" },
    { SL_SETTING_USER, "runAsUser", "securityContext.runAsUser", "runAsUser", true,
      "add 'runAsNonRoot: true' and 'runAsUser: 1000' (a user the image has) to its "
      "securityContext" },
    { SL_SETTING_RUN_AS_NON_ROOT, "runAsNonRoot", "securityContext.runAsNonRoot",
      "runAsNonRoot", true, "add 'runAsNonRoot: true' to its securityContext" },
};

static const struct security_field *security_field_of(int id)
{
    for (size_t i = 0; i < sizeof(security_fields) / sizeof(*security_fields); i++)
        if (security_fields[i].id == id)
            return &security_fields[i];
    return NULL;
}

/* capabilities.add or .drop: a list (a scalar given for it is one entry,
 * pointed at by its key). */
static void capabilities(struct model_fill *fill, const struct security_field *field,
                         const struct sl_node *key, const struct sl_node *list)
{
    if (compose_node_empty(list))
        return;
    fill->setting.key = key;
    size_t count = list->kind == SL_NODE_SEQUENCE ? list->u.sequence.count : 1;
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *entry =
            list->kind == SL_NODE_SEQUENCE ? list->u.sequence.items[i] : list;
        const struct sl_node *where = list->kind == SL_NODE_SEQUENCE ? entry : key;
        size_t length;
        const char *text = compose_setting_text(entry, &length);
        if (entry->kind == SL_NODE_SCALAR && text == NULL)
            continue;   /* an empty item is no setting */
        struct sl_value *value = new_value(fill, SL_FORM_ENTRY, field->field, field->label,
                                           where, where);
        if (entry->kind != SL_NODE_SCALAR) {
            value->state = SL_VALUE_UNCHECKABLE;
            value->text = collection_text(entry);
            value->text_length = strlen(value->text);
        } else if (take_text(value, text, length)) {
            model_parse_capability(fill, value);
        }
    }
}

/* What a profile type or a label means. */
static int confinement(int id, const char *text, size_t length)
{
    switch (id) {
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
        return text_equals(text, length, "Unconfined") ? SL_CONFINEMENT_OFF
               : text_equals(text, length, "RuntimeDefault") ? SL_CONFINEMENT_DEFAULT
               : text_equals(text, length, "Localhost") ? SL_CONFINEMENT_CUSTOM
                                                         : SL_CONFINEMENT_OTHER;
    case SL_SETTING_SELINUX:
        return text_equals(text, length, "spc_t") || text_equals(text, length, "unconfined_t")
                   ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_OTHER;
    case SL_SETTING_SYSTEM_PATHS:
        return text_equals(text, length, "Unmasked") ? SL_CONFINEMENT_OFF
               : text_equals(text, length, "Default") ? SL_CONFINEMENT_DEFAULT
                                                       : SL_CONFINEMENT_OTHER;
    default:
        return SL_CONFINEMENT_OTHER;
    }
}

/* A boolean written as false (YAML false, or a string Kubernetes' YAML
 * reader takes as false). */
static bool is_false(const char *text, size_t length)
{
    static const char *const words[] = { "false", "no", "off", "n" };
    for (size_t w = 0; text != NULL && w < sizeof(words) / sizeof(*words); w++) {
        if (strlen(words[w]) != length)
            continue;
        size_t i = 0;
        while (i < length && (text[i] | 0x20) == words[w][i])
            i++;
        if (i == length)
            return true;
    }
    return false;
}

/* Fills one securityContext field written in security (a mapping, or
 * NULL). */
static void security_value(struct model_fill *fill, const struct security_field *field,
                           const struct sl_node *security)
{
    const struct sl_node *key;
    const struct sl_node *node = kubernetes_follow(security, field->path, &key);
    size_t length;
    const char *text = compose_setting_text(node, &length);
    struct sl_value *value;
    switch (field->id) {
    case SL_SETTING_PRIVILEGED:
        flag_value(fill, field->field, field->label, key, node);
        break;
    case SL_SETTING_CAP_ADD:
    case SL_SETTING_CAP_DROP:
        capabilities(fill, field, key, node);
        return;
    case SL_SETTING_NO_NEW_PRIVILEGES:
    case SL_SETTING_READ_ONLY_ROOT:
    case SL_SETTING_RUN_AS_NON_ROOT:
        /* Empty is not written; any other value that is not the wanted
         * boolean is read as the other one. */
        if (compose_node_empty(node))
            return;
        value = new_value(fill, SL_FORM_FLAG, field->field, field->label, key, node);
        if (text == NULL) {
            value->text = node->kind == SL_NODE_SCALAR ? node->u.scalar.text
                                                       : collection_text(node);
            value->text_length = strlen(value->text);
        } else if (!take_text(value, text, length)) {
            break;
        }
        value->meaning = field->id == SL_SETTING_NO_NEW_PRIVILEGES
                             ? is_false(text, length) : compose_node_truthy(node);
        break;
    case SL_SETTING_USER:
        if (text == NULL)
            return;     /* not a user: none (Kubernetes refuses it) */
        value = new_value(fill, SL_FORM_SCALAR, field->field, field->label, key, node);
        if (take_text(value, text, length))
            value->meaning = text_equals(text, length, "0") ? SL_USER_ROOT
                                                            : SL_USER_NON_ROOT;
        break;
    default:
        /* Profile types, SELinux type, procMount. */
        if (text == NULL)
            return;
        value = new_value(fill, SL_FORM_SCALAR, field->field, field->label, key, node);
        if (!take_text(value, text, length))
            break;
        value->meaning = confinement(field->id, text, length);
        if (field->id == SL_SETTING_SELINUX) {
            char *parsed = xasprintf("type:%.*s", (int)length, text);
            value->parsed_length = strlen(parsed);
            value->parsed = model_group_strndup(fill->scope->group, parsed,
                                                value->parsed_length);
            free(parsed);
        }
        break;
    }
    if (fill->count != 0)
        fill->setting.key = key;
}

/* Whether security writes field (its container then does not inherit the
 * pod's). */
static bool writes(const struct sl_node *security, const struct security_field *field)
{
    const struct sl_node *key;
    return !compose_node_empty(kubernetes_follow(security, field->path, &key));
}

/* ------------------------------------------------------------------ */
/* containers                                                          */
/* ------------------------------------------------------------------ */

struct kube_container {
    const struct sl_node *mapping;  /* the container */
    const struct sl_node *security; /* its securityContext, a mapping, or NULL */
    int kind;                       /* SL_KIND_* of the file */
    int sort;
};

/* resources.limits.NAME.  agent-env fills the limits itself when a service
 * gives no resources (the chart's defaults set both); ephemeral containers
 * take none. */
static void limit(struct model_fill *fill, const struct kube_container *container,
                  const char *name, const char *field)
{
    const struct sl_node *resources_key;
    const struct sl_node *resources = lookup(container->mapping, "resources", &resources_key);
    fill->setting.field = fill->setting.label = field;
    if (container->sort == SL_CONTAINER_EPHEMERAL) {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    if (container->kind == SL_KIND_AGENT_ENV &&
        (compose_node_empty(resources) || resources->kind == SL_NODE_SCALAR)) {
        fill->setting.state = SL_SETTING_DEFAULT;
        return;
    }
    if (resources_key != NULL)
        fill->setting.node = resources_key;
    const struct sl_node *limits = lookup(resources, "limits", NULL);
    const struct sl_node *key;
    const struct sl_node *node = lookup(limits, name, &key);
    size_t length;
    const char *text = compose_setting_text(node, &length);
    if (text == NULL && (node == NULL || node->kind == SL_NODE_SCALAR))
        return;     /* not written, null or "" */
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, SL_FORM_SCALAR, field, field, key, node);
    if (text == NULL) {
        /* Not a quantity; the API server judges it, not sandlint. */
        value->text = collection_text(node);
        value->text_length = strlen(value->text);
        value->meaning = SL_LIMIT_SET;
    } else if (take_text(value, text, length)) {
        value->meaning = SL_LIMIT_SET;
    }
}

/* The pod-level settings a container takes from its pod. */
static bool from_pod(int id)
{
    switch (id) {
    case SL_SETTING_NETWORK_NAMESPACE:
    case SL_SETTING_PID_NAMESPACE:
    case SL_SETTING_IPC_NAMESPACE:
    case SL_SETTING_USER_NAMESPACE:
    case SL_SETTING_RUNTIME:
    case SL_SETTING_SERVICE_ACCOUNT_TOKEN:
    case SL_SETTING_SERVICE_ACCOUNT_NAME:
        return true;
    default:
        return false;
    }
}

static void fill_container(struct model_fill *fill, const struct model_scope *scope,
                           int view, int id)
{
    const struct kube_container *container = scope->data;
    const struct security_field *field = security_field_of(id);
    if (field != NULL) {
        fill->setting.field = field->field;
        fill->setting.label = field->label;
        fill->setting.hint = field->hint;
        /* The container's own field, else (effective) the pod's. */
        if (view == SL_VIEW_EFFECTIVE && field->pod && !writes(container->security, field))
            model_fill_inherit(fill, id);
        else
            security_value(fill, field, container->security);
        return;
    }
    if (id == SL_SETTING_MEMORY_LIMIT) {
        fill->setting.hint = "add 'memory: 2Gi' to its resources.limits";
        limit(fill, container, "memory", "resources.limits.memory");
    } else if (id == SL_SETTING_CPU_LIMIT) {
        fill->setting.hint = "add 'cpu: \"2\"' to its resources.limits";
        limit(fill, container, "cpu", "resources.limits.cpu");
    } else if (from_pod(id) && view == SL_VIEW_EFFECTIVE) {
        model_fill_inherit(fill, id);
        if (fill->setting.state == SL_SETTING_ABSENT && fill->count == 0 &&
            fill->setting.field == NULL)
            fill->setting.state = SL_SETTING_UNSUPPORTED;
    } else {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
    }
}

static const struct model_reader container_reader = { fill_container, NULL };

struct model_scope *kubernetes_front_container(struct model_group *group,
                                               struct model_scope *parent, int kind,
                                               const char *prefix, const struct sl_node *key,
                                               const struct kubernetes_container *found)
{
    struct kube_container *container = model_group_alloc(group, sizeof(*container));
    const struct sl_node *security = lookup(found->mapping, "securityContext", NULL);
    container->mapping = found->mapping;
    container->security = security != NULL && security->kind == SL_NODE_MAPPING
                              ? security : NULL;
    container->kind = kind;
    container->sort = found->sort;
    char *service = kubernetes_container_service(prefix, found);
    struct model_scope_spec spec = {
        .level = SL_SCOPE_CONTAINER, .sort = found->sort,
        .platform = SL_PLATFORM_KUBERNETES, .kind = kind,
        .service = service, .service_length = strlen(service),
        .name = found->name, .name_length = found->name_length, .noun = "container",
        .node = key != NULL ? key : found->mapping, .mapping = found->mapping,
        .parent = parent,
        .reader = &container_reader, .data = container,
    };
    struct model_scope *scope = model_scope_new(group, &spec);
    free(service);
    return scope;
}

/* ------------------------------------------------------------------ */
/* pods and ServiceAccounts                                            */
/* ------------------------------------------------------------------ */

struct kube_pod {
    const struct sl_node *spec;
    const struct sl_node *security; /* the pod's securityContext, a mapping,
                                       or NULL */
};

/* hostNetwork, hostPID, hostIPC, hostUsers: the pod's switches. */
static const char *host_switch(int id)
{
    switch (id) {
    case SL_SETTING_NETWORK_NAMESPACE:
        return "hostNetwork";
    case SL_SETTING_PID_NAMESPACE:
        return "hostPID";
    case SL_SETTING_IPC_NAMESPACE:
        return "hostIPC";
    case SL_SETTING_USER_NAMESPACE:
        return "hostUsers";
    default:
        return NULL;
    }
}

static int pod_mount(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    model_fill_mount(data, mount, SL_TEMPLATE_HELM);
    return SL_OK;
}

void kubernetes_front_fill_mounts(struct model_fill *fill, const struct sl_node *pod)
{
    const char *problem;
    fill->setting.field = fill->setting.label = "volumes";
    host_mounts_path_volumes(NULL, pod, sizeof(struct sl_mount), pod_mount, fill, &problem);
}

int kubernetes_front_pod_mounts(const struct model_scope *scope, struct sl_context *ctx,
                                size_t mount_size, sl_mount_fn visit, void *data,
                                const char **problem)
{
    return host_mounts_path_volumes(ctx, scope->public.mapping, mount_size, visit, data,
                                  problem);
}

static void fill_pod(struct model_fill *fill, const struct model_scope *scope, int view,
                     int id)
{
    const struct kube_pod *pod = scope->data;
    const struct security_field *field = security_field_of(id);
    const char *name = host_switch(id);
    (void)view;     /* a pod inherits nothing modelled */
    if (field != NULL && field->pod) {
        fill->setting.field = field->field;
        fill->setting.label = field->label;
        security_value(fill, field, pod->security);
    } else if (name != NULL) {
        kubernetes_front_fill_field(fill, pod->spec, name, SL_FORM_FLAG);
    } else if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN ||
               id == SL_SETTING_SERVICE_ACCOUNT_NAME) {
        kubernetes_front_fill_account(fill, pod->spec, id);
    } else if (id == SL_SETTING_RUNTIME) {
        kubernetes_front_fill_field(fill, pod->spec, "runtimeClassName", SL_FORM_SCALAR);
    } else if (id == SL_SETTING_MOUNTS) {
        kubernetes_front_fill_mounts(fill, pod->spec);
    } else {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
    }
}

static const struct model_reader pod_reader = { fill_pod, kubernetes_front_pod_mounts };

static void fill_account(struct model_fill *fill, const struct model_scope *scope,
                         int view, int id)
{
    (void)view;
    if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN)
        kubernetes_front_fill_account(fill, scope->public.mapping, id);
    else
        fill->setting.state = SL_SETTING_UNSUPPORTED;
}

static const struct model_reader account_reader = { fill_account, NULL };

/* ------------------------------------------------------------------ */
/* objects                                                             */
/* ------------------------------------------------------------------ */

/* Bounds the items of a Kubernetes List read as objects: Lists nest.
 * Aliases let a short file repeat one List many times over, so the
 * objects of a file are bounded too; past either bound the file was not
 * checked, which fails the run. */
#define MAX_LIST_DEPTH 8
#define MAX_OBJECTS_PER_FILE 10000

/* The first List limit a file reaches is its error; the objects past it
 * are left unchecked without repeating it. */
static void objects_not_checked(struct model_reading *reading, const struct sl_node *at,
                                const char *message)
{
    if (reading->file->objects_limit_reported)
        return;
    reading->file->objects_limit_reported = true;
    model_emit_not_checked(reading, at, message);
}

/* The containers of a pod: one scope each, in the pod's group. */
struct pod_walk {
    struct model_reading *reading;
    struct model_group *group;
    struct model_scope *pod;
};

static int read_container(const struct kubernetes_container *found, void *data)
{
    struct pod_walk *walk = data;
    model_emit_scope(walk->reading,
                     kubernetes_front_container(walk->group, walk->pod, SL_KIND_KUBERNETES,
                                                walk->pod->public.service, NULL, found));
    return SL_OK;
}

/* The scopes of one object that is not a List: its ServiceAccount, or its
 * pod specs with their containers. */
static void read_workload(struct model_reading *reading, const struct sl_node *object)
{
    const struct sl_node *kind = lookup(object, "kind", NULL);
    struct model_group group;
    model_group_init(&group);
    char *service = NULL;
    if (kind->u.scalar.length == 14 && strcmp(kind->u.scalar.text, "ServiceAccount") == 0) {
        service = kubernetes_object_service(object);
        struct model_scope_spec spec = {
            .level = SL_SCOPE_ACCOUNT, .platform = SL_PLATFORM_KUBERNETES,
            .kind = SL_KIND_KUBERNETES, .service = service,
            .service_length = strlen(service), .noun = "service account",
            .node = object, .mapping = object, .reader = &account_reader,
        };
        model_emit_scope(reading, model_scope_new(&group, &spec));
    }
    for (size_t i = 0; i < KUBERNETES_POD_SHAPES; i++) {
        const struct sl_node *key;
        const struct sl_node *spec_node = kubernetes_pod_spec(object, i, &key);
        if (spec_node == NULL)
            continue;
        if (service == NULL)
            service = kubernetes_object_service(object);
        model_emit_service(reading, SL_KIND_KUBERNETES, service, strlen(service), key,
                           spec_node);
        struct kube_pod *pod = model_group_alloc(&group, sizeof(*pod));
        const struct sl_node *security = lookup(spec_node, "securityContext", NULL);
        pod->spec = spec_node;
        pod->security = security != NULL && security->kind == SL_NODE_MAPPING ? security
                                                                               : NULL;
        const struct sl_node *metadata = lookup(object, "metadata", NULL);
        const struct sl_node *name = lookup(metadata, "name", NULL);
        struct model_scope_spec spec = {
            .level = SL_SCOPE_POD, .platform = SL_PLATFORM_KUBERNETES,
            .kind = SL_KIND_KUBERNETES, .service = service,
            .service_length = strlen(service),
            .name = name != NULL && name->kind == SL_NODE_SCALAR ? name->u.scalar.text : NULL,
            .name_length = name != NULL && name->kind == SL_NODE_SCALAR
                               ? name->u.scalar.length : 0,
            .noun = "pod", .node = key, .mapping = spec_node, .reader = &pod_reader,
            .data = pod,
        };
        struct pod_walk walk = { reading, &group, model_scope_new(&group, &spec) };
        model_emit_scope(reading, walk.pod);
        kubernetes_each_container(SL_KIND_KUBERNETES, spec_node, read_container, &walk);
    }
    free(service);
    model_group_release(&group);
}

/* A scalar of Helm template text where an object belongs (SL009). */
static bool is_template_scalar(const struct sl_node *node)
{
    return node->kind == SL_NODE_SCALAR &&
           kubernetes_is_templated(node->u.scalar.text, node->u.scalar.length);
}

void kubernetes_front_read_object(struct model_reading *reading,
                                  const struct sl_node *object, unsigned depth)
{
    struct model_file_state *file = reading->file;
    if (file->objects_read >= MAX_OBJECTS_PER_FILE) {
        objects_not_checked(reading, object, "more than 10000 Kubernetes objects "
                            "(Lists, with their aliases); the rest were not checked");
        return;
    }
    file->objects_read++;
    const struct sl_node *kind = lookup(object, "kind", NULL);
    const struct sl_node *items = lookup(object, "items", NULL);
    if (kind->u.scalar.length >= 4 &&
        strcmp(kind->u.scalar.text + kind->u.scalar.length - 4, "List") == 0 &&
        items != NULL && items->kind == SL_NODE_SEQUENCE) {
        if (depth >= MAX_LIST_DEPTH) {
            objects_not_checked(reading, object, "Kubernetes Lists nested more than 8 "
                                "deep; the objects inside were not checked");
            return;
        }
        for (size_t i = 0; i < items->u.sequence.count && !file->objects_limit_reported;
             i++) {
            const struct sl_node *item = items->u.sequence.items[i];
            if (file_kind_is_object(item))
                kubernetes_front_read_object(reading, item, depth + 1);
            else if (is_template_scalar(item))
                model_emit_templated(reading, item, "List item is Helm template text and "
                                     "cannot be checked");
            else
                model_emit_warning(reading, item, "List item is not a Kubernetes "
                                   "object (no apiVersion and kind); not checked");
        }
        return;
    }
    const struct sl_node *outer = reading->root;
    reading->root = object;
    model_emit_document(reading, SL_KIND_KUBERNETES, object);
    read_workload(reading, object);
    reading->root = outer;
}

void kubernetes_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (model_is_null(root))
        return;
    if (is_template_scalar(root)) {
        model_emit_templated(reading, root, "document is Helm template text and cannot "
                             "be checked");
        return;
    }
    if (!file_kind_is_object(root)) {
        model_emit_warning(reading, root, "document is not a Kubernetes object (no "
                           "apiVersion and kind); not checked");
        return;
    }
    kubernetes_front_read_object(reading, root, 0);
}
