/* kubernetes_front.c - the Kubernetes front-end (see kubernetes_front.h). */
#include "config.h"

#include "kubernetes_front.h"
#include "kubernetes_shapes.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "file_kind.h"
#include "host_mounts.h"
#include "kubernetes_walk.h"
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

/* Bounds the items of a Kubernetes List read as objects: Lists nest.
 * Aliases let a short file repeat one List many times over, so the
 * objects of a file are bounded too; past either bound the file was not
 * checked, which fails the run. */
#define MAX_LIST_DEPTH 8
#define MAX_OBJECTS_PER_FILE 10000

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

void kubernetes_front_fill_projected_tokens(struct model_fill *fill,
                                            const struct sl_node *pod)
{
    const struct sl_node *volumes = lookup(pod, "volumes", NULL);
    for (size_t i = 0; volumes != NULL && volumes->kind == SL_NODE_SEQUENCE &&
                       i < volumes->u.sequence.count; i++) {
        const struct sl_node *volume = volumes->u.sequence.items[i];
        const struct sl_node *sources = lookup(lookup(volume, "projected", NULL), "sources",
                                               NULL);
        for (size_t j = 0; sources != NULL && sources->kind == SL_NODE_SEQUENCE &&
                           j < sources->u.sequence.count; j++) {
            const struct sl_node *key;
            const struct sl_node *token = lookup(sources->u.sequence.items[j],
                                                 "serviceAccountToken", &key);
            /* Written null or as a scalar: the API server refuses it. */
            if (token == NULL || token->kind != SL_NODE_MAPPING)
                continue;
            const struct sl_node *name = lookup(volume, "name", NULL);
            bool named = name != NULL && name->kind == SL_NODE_SCALAR && !name->null_value &&
                         name->u.scalar.length != 0;
            struct sl_value *value = new_value(fill, SL_FORM_ENTRY,
                                               "projected.serviceAccountToken",
                                               "serviceAccountToken", key, key);
            value->text = value->parsed = named ? name->u.scalar.text : "<unnamed>";
            value->text_length = value->parsed_length =
                named ? name->u.scalar.length : strlen(value->text);
            value->meaning = 1;
            if (fill->setting.field == NULL) {
                fill->setting.field = "projected.serviceAccountToken";
                fill->setting.label = "serviceAccountToken";
            }
            if (fill->setting.key == NULL)
                fill->setting.key = key;
        }
    }
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
    const struct sl_node *mapping;  /* the container, or NULL for one only
                                       an operator adds */
    const struct sl_node *security; /* its securityContext, a mapping, or NULL */
    int kind;                       /* SL_KIND_* of the file */
    int sort;
    const struct sl_node *annotations; /* its pod template's
                                       metadata.annotations, or NULL */
    const char *name;               /* its name, NUL-terminated, or NULL */
    const struct sl_node *kctf;     /* the kCTF challenge container: where
                                       the operator's additions are
                                       reported (the object's kind) */
};

/* The AppArmor annotation a pod template gives a container by name
 * (container.apparmor.security.beta.kubernetes.io/NAME, the form before
 * appArmorProfile): its key, or NULL. */
#define APPARMOR_ANNOTATION "container.apparmor.security.beta.kubernetes.io/"

static const struct model_pair *apparmor_annotation(const struct kube_container *container)
{
    const struct sl_node *annotations = container->annotations;
    if (container->name == NULL || annotations == NULL ||
        annotations->kind != SL_NODE_MAPPING)
        return NULL;
    size_t prefix = strlen(APPARMOR_ANNOTATION), name = strlen(container->name);
    for (size_t i = 0; i < annotations->u.mapping.count; i++) {
        const struct model_pair *pair = &annotations->u.mapping.pairs[i];
        const struct sl_node *key = pair->key;
        if (key->kind == SL_NODE_SCALAR && key->u.scalar.length == prefix + name &&
            memcmp(key->u.scalar.text, APPARMOR_ANNOTATION, prefix) == 0 &&
            memcmp(key->u.scalar.text + prefix, container->name, name) == 0)
            return pair;
    }
    return NULL;
}

/* What an AppArmor annotation's value means: unconfined, runtime/default,
 * localhost/PROFILE. */
static int annotation_confinement(const char *text, size_t length)
{
    if (text_equals(text, length, "unconfined"))
        return SL_CONFINEMENT_OFF;
    if (text_equals(text, length, "runtime/default"))
        return SL_CONFINEMENT_DEFAULT;
    if (length > 10 && memcmp(text, "localhost/", 10) == 0)
        return SL_CONFINEMENT_CUSTOM;
    return SL_CONFINEMENT_OTHER;
}

/* The container's AppArmor annotation, as a value of its own (it names the
 * container, so the container writes it). */
static void annotation_value(struct model_fill *fill, const struct model_pair *pair)
{
    const char *field = pair->key->u.scalar.text;
    struct sl_value *value = new_value(fill, SL_FORM_SCALAR, field, field, pair->key,
                                       pair->value);
    if (fill->setting.key == NULL)
        fill->setting.key = pair->key;
    size_t length;
    const char *text = compose_setting_text(pair->value, &length);
    if (text == NULL) {
        value->state = SL_VALUE_UNCHECKABLE;
        value->text = pair->value->kind == SL_NODE_SCALAR ? "" : collection_text(pair->value);
        value->text_length = strlen(value->text);
    } else if (take_text(value, text, length)) {
        value->meaning = annotation_confinement(text, length);
    }
}

/* What the kCTF operator gives the challenge container whatever the
 * template says (kctf-operator/controllers/deployment/deployment.go):
 * capability SYS_ADMIN and the AppArmor annotation "unconfined". */
static const char kctf_capability[] = "SYS_ADMIN";
static const char kctf_apparmor[] = "unconfined";

/* The operator also makes the challenge container's root file system
 * read-only when the template does not say (readOnlyRootFilesystem nil). */
static void kctf_read_only_root(struct model_fill *fill, const struct kube_container *container)
{
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_FLAG;
    value->field = "securityContext.readOnlyRootFilesystem";
    value->label = "readOnlyRootFilesystem (the kCTF operator's default)";
    value->key = value->node = container->kctf;
    value->text = value->parsed = "true";
    value->text_length = value->parsed_length = 4;
    value->meaning = 1;
    fill->setting.state = SL_SETTING_DEFAULT;
}

static void kctf_value(struct model_fill *fill, const struct kube_container *container,
                       int id)
{
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->key = value->node = container->kctf;
    if (id == SL_SETTING_CAP_ADD) {
        value->form = SL_FORM_ENTRY;
        value->field = "securityContext.capabilities.add";
        value->label = "capabilities.add that the kCTF operator adds to every challenge "
                       "container";
        value->text = value->parsed = kctf_capability;
        value->text_length = value->parsed_length = sizeof(kctf_capability) - 1;
    } else {
        value->form = SL_FORM_SCALAR;
        value->field = APPARMOR_ANNOTATION "challenge";
        value->label = "the AppArmor annotation that the kCTF operator adds to every "
                       "challenge container";
        value->text = value->parsed = kctf_apparmor;
        value->text_length = value->parsed_length = sizeof(kctf_apparmor) - 1;
        value->meaning = SL_CONFINEMENT_OFF;
    }
    if (fill->setting.key == NULL)
        fill->setting.key = container->kctf;
}

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
        /* The container's own field, else (effective) the pod's; an
         * AppArmor annotation that names it is its own too. */
        const struct model_pair *annotation =
            id == SL_SETTING_APPARMOR ? apparmor_annotation(container) : NULL;
        if (view == SL_VIEW_EFFECTIVE && field->pod && annotation == NULL &&
            container->kctf == NULL && !writes(container->security, field))
            model_fill_inherit(fill, id);
        else
            security_value(fill, field, container->security);
        if (annotation != NULL)
            annotation_value(fill, annotation);
        if (container->kctf != NULL && (id == SL_SETTING_CAP_ADD || id == SL_SETTING_APPARMOR))
            kctf_value(fill, container, id);
        else if (container->kctf != NULL && id == SL_SETTING_READ_ONLY_ROOT &&
                 view == SL_VIEW_EFFECTIVE && fill->setting.state == SL_SETTING_ABSENT)
            kctf_read_only_root(fill, container);
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

/* What a pod tells its containers beyond the pod spec. */
struct container_extras {
    const struct sl_node *annotations;  /* the template's annotations */
    const struct sl_node *kctf;         /* a kCTF Challenge's kind node */
};

static struct model_scope *new_container(struct model_group *group,
                                         struct model_scope *parent, int kind,
                                         const char *prefix, const struct sl_node *key,
                                         const struct kubernetes_container *found,
                                         const struct container_extras *extras)
{
    struct kube_container *container = model_group_alloc(group, sizeof(*container));
    const struct sl_node *security = lookup(found->mapping, "securityContext", NULL);
    container->mapping = found->mapping;
    container->security = security != NULL && security->kind == SL_NODE_MAPPING
                              ? security : NULL;
    container->kind = kind;
    container->sort = found->sort;
    if (found->name != NULL)
        container->name = model_group_strndup(group, found->name, found->name_length);
    if (extras != NULL) {
        container->annotations = extras->annotations;
        if (container->name != NULL && strcmp(container->name, "challenge") == 0 &&
            found->sort == SL_CONTAINER_MAIN)
            container->kctf = extras->kctf;
    }
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

void kubernetes_front_check_shapes(struct model_reading *reading, const char *prefix,
                                   const struct kubernetes_container *found)
{
    if (found->mapping == NULL)
        return;
    char *name = kubernetes_container_service(prefix, found);
    kubernetes_shapes_container(reading, name, found->mapping);
    free(name);
}

struct model_scope *kubernetes_front_container(struct model_group *group,
                                               struct model_scope *parent, int kind,
                                               const char *prefix, const struct sl_node *key,
                                               const struct kubernetes_container *found)
{
    return new_container(group, parent, kind, prefix, key, found, NULL);
}

/* ------------------------------------------------------------------ */
/* pods and ServiceAccounts                                            */
/* ------------------------------------------------------------------ */

struct kube_pod {
    const struct sl_node *spec;
    const struct sl_node *security; /* the pod's securityContext, a mapping,
                                       or NULL */
    const struct sl_node *object;   /* the object that holds it */
    bool token_default;             /* Kubernetes mounts a token unless the
                                       pod or its account says false */
    struct model_file_state *file;  /* where the file's accounts are */
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

/* ------------------------------------------------------------------ */
/* the token Kubernetes mounts by default                              */
/* ------------------------------------------------------------------ */

/* The text of a scalar, or NULL (null, empty, not a scalar). */
static const char *scalar_text(const struct sl_node *node, size_t *length)
{
    if (node == NULL || node->kind != SL_NODE_SCALAR || node->null_value ||
        node->u.scalar.length == 0)
        return NULL;
    *length = node->u.scalar.length;
    return node->u.scalar.text;
}

/* "NAMESPACE/NAME" of an account named name in the namespace of object
 * (empty when it states none); malloc'd. */
static char *account_id(const struct sl_node *object, const char *name, size_t length)
{
    size_t namespace_length = 0;
    const char *namespace = scalar_text(
        lookup(lookup(object, "metadata", NULL), "namespace", NULL), &namespace_length);
    return xasprintf("%.*s/%.*s", (int)namespace_length, namespace ? namespace : "",
                     (int)length, name);
}

/* Adds the ServiceAccounts of object (a List's items too) that turn the
 * token off; *budget bounds the objects looked at. */
static void collect_accounts(struct string_set *set, const struct sl_node *object,
                             unsigned depth, size_t *budget)
{
    if (*budget == 0 || !file_kind_is_object(object))
        return;
    (*budget)--;
    const struct sl_node *kind = lookup(object, "kind", NULL);
    const struct sl_node *items = lookup(object, "items", NULL);
    if (items != NULL && items->kind == SL_NODE_SEQUENCE && depth < MAX_LIST_DEPTH) {
        for (size_t i = 0; i < items->u.sequence.count && *budget != 0; i++)
            collect_accounts(set, items->u.sequence.items[i], depth + 1, budget);
        return;
    }
    if (kind->u.scalar.length != 14 || memcmp(kind->u.scalar.text, "ServiceAccount", 14) != 0 ||
        !kubernetes_api_group_is(object, ""))
        return;
    size_t length = 0, name_length = 0;
    const char *text = scalar_text(lookup(object, "automountServiceAccountToken", NULL),
                                   &length);
    const char *name = scalar_text(lookup(lookup(object, "metadata", NULL), "name", NULL),
                                   &name_length);
    if (name == NULL || !is_false(text, length))
        return;
    char *id = account_id(object, name, name_length);
    string_set_add(set, id, strlen(id));
    free(id);
}

/* Whether the file's ServiceAccount of that id says false (the set made on
 * first use, for every pod of the file). */
static bool account_turns_token_off(struct model_file_state *file, const char *id)
{
    if (file == NULL)
        return false;
    if (file->accounts_without_token == NULL) {
        file->accounts_without_token = xcalloc(1, sizeof(*file->accounts_without_token));
        size_t budget = MAX_OBJECTS_PER_FILE;
        for (size_t d = 0; d < file->document_count && budget != 0; d++)
            collect_accounts(file->accounts_without_token, file->documents[d], 0, &budget);
    }
    return string_set_has(file->accounts_without_token, id, strlen(id));
}

/* A pod that says nothing of the token gets one, unless its account (in
 * the same file) says false: a warning-worthy default of Kubernetes. */
static void default_token(struct model_fill *fill, const struct model_scope *scope)
{
    const struct kube_pod *pod = scope->data;
    size_t length = 0;
    const char *name = scalar_text(lookup(pod->spec, "serviceAccountName", NULL), &length);
    if (name == NULL)
        name = scalar_text(lookup(pod->spec, "serviceAccount", NULL), &length);
    if (name == NULL) {
        name = "default";
        length = 7;
    }
    char *id = account_id(pod->object, name, length);
    bool off = account_turns_token_off(pod->file, id);
    free(id);
    if (off)
        return;
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_FLAG;
    value->field = "automountServiceAccountToken";
    value->label = "automountServiceAccountToken";
    value->key = value->node = scope->public.node;
    value->text = value->parsed = "true";
    value->text_length = value->parsed_length = 4;
    value->meaning = 1;
    fill->setting.state = SL_SETTING_DEFAULT;
}

static void fill_pod(struct model_fill *fill, const struct model_scope *scope, int view,
                     int id)
{
    const struct kube_pod *pod = scope->data;
    const struct security_field *field = security_field_of(id);
    const char *name = host_switch(id);
    if (field != NULL && field->pod) {
        fill->setting.field = field->field;
        fill->setting.label = field->label;
        security_value(fill, field, pod->security);
        /* An Argo template's pod takes what the workflow sets (its
         * parent); other pods have none. */
        if (view == SL_VIEW_EFFECTIVE && fill->setting.state == SL_SETTING_ABSENT)
            model_fill_inherit(fill, id);
    } else if (name != NULL) {
        kubernetes_front_fill_field(fill, pod->spec, name, SL_FORM_FLAG);
        if (view == SL_VIEW_EFFECTIVE && fill->setting.state == SL_SETTING_ABSENT)
            model_fill_inherit(fill, id);
    } else if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN ||
               id == SL_SETTING_SERVICE_ACCOUNT_NAME) {
        kubernetes_front_fill_account(fill, pod->spec, id);
        if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN && pod->token_default &&
            fill->setting.state == SL_SETTING_ABSENT)
            default_token(fill, scope);
        if (id == SL_SETTING_SERVICE_ACCOUNT_TOKEN)
            kubernetes_front_fill_projected_tokens(fill, pod->spec);
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

/* How an object's pods and containers are read: its group, its service,
 * the nodes read so far (which the shape walk skips). */
struct object_reading {
    struct model_reading *reading;
    struct model_group *group;
    const struct sl_node *object;
    const char *service;
    const struct sl_node *kctf;     /* a kCTF Challenge's kind node */
    bool token_default;
    const struct sl_node **read;    /* malloc'd: what the walk skips */
    size_t read_count, read_capacity;
    const struct sl_node **pods;    /* malloc'd: the pod specs read */
    size_t pod_count;
    bool pods_limit_reported;
    bool inline_limit_reported;     /* Argo inline templates too deep */
    struct yaml_model *patches;     /* malloc'd: Argo podSpecPatch strings,
                                       parsed; released after the group */
    size_t patch_count;
    unsigned depth;                 /* how many Lists or manifests hold it */
};

/* Bounds the podSpecPatch strings of one object read as pods. */
#define MAX_PATCHES_PER_OBJECT 100

/* Bounds the pod specs of one object (a custom resource may hold many):
 * past it the object was not checked, which fails the run. */
#define MAX_PODS_PER_OBJECT 1000

static void mark_read(struct object_reading *object, const struct sl_node *node)
{
    if (object->read_count == object->read_capacity) {
        object->read_capacity = object->read_capacity ? object->read_capacity * 2 : 8;
        object->read = xrealloc(object->read, object->read_capacity, sizeof(*object->read));
    }
    object->read[object->read_count++] = node;
}

/* Whether spec was read already (aliases repeat nodes); false and
 * remembered if not.  Past the bound, true after its error. */
static bool pod_already_read(struct object_reading *object, const struct sl_node *spec)
{
    for (size_t i = 0; i < object->pod_count; i++)
        if (object->pods[i] == spec)
            return true;
    if (object->pod_count == MAX_PODS_PER_OBJECT) {
        if (!object->pods_limit_reported)
            model_emit_not_checked(object->reading, spec, "more than 1000 pod specs in one "
                                   "Kubernetes object; the rest were not checked");
        object->pods_limit_reported = true;
        return true;
    }
    if (object->pods == NULL)
        object->pods = xcalloc(MAX_PODS_PER_OBJECT, sizeof(*object->pods));
    object->pods[object->pod_count++] = spec;
    mark_read(object, spec);
    return false;
}

/* The containers of a pod: one scope each, in the pod's group. */
struct pod_walk {
    struct object_reading *object;
    struct model_scope *pod;
    struct container_extras extras;
    bool challenge_seen;
};

static int read_container(const struct kubernetes_container *found, void *data)
{
    struct pod_walk *walk = data;
    struct object_reading *object = walk->object;
    if (found->sort == SL_CONTAINER_MAIN && found->name != NULL &&
        text_equals(found->name, found->name_length, "challenge"))
        walk->challenge_seen = true;
    kubernetes_front_check_shapes(object->reading, walk->pod->public.service, found);
    model_emit_scope(object->reading,
                     new_container(object->group, walk->pod, SL_KIND_KUBERNETES,
                                   walk->pod->public.service, NULL, found, &walk->extras));
    return SL_OK;
}

/* A pod scope for spec (a mapping), found under key, in a template whose
 * metadata is template_metadata (or NULL); service: its name in keys. */
static struct model_scope *new_pod(struct object_reading *object, const char *service,
                                   const struct sl_node *key, const struct sl_node *spec,
                                   struct model_scope *parent, bool token_default)
{
    model_emit_service(object->reading, SL_KIND_KUBERNETES, service, strlen(service), key,
                       spec);
    struct kube_pod *pod = model_group_alloc(object->group, sizeof(*pod));
    const struct sl_node *security = lookup(spec, "securityContext", NULL);
    pod->spec = spec;
    pod->security = security != NULL && security->kind == SL_NODE_MAPPING ? security : NULL;
    pod->object = object->object;
    pod->token_default = token_default;
    pod->file = object->reading->file;
    const struct sl_node *metadata = lookup(object->object, "metadata", NULL);
    const struct sl_node *name = lookup(metadata, "name", NULL);
    struct model_scope_spec scope = {
        .level = SL_SCOPE_POD, .platform = SL_PLATFORM_KUBERNETES,
        .kind = SL_KIND_KUBERNETES, .service = service, .service_length = strlen(service),
        .name = name != NULL && name->kind == SL_NODE_SCALAR ? name->u.scalar.text : NULL,
        .name_length = name != NULL && name->kind == SL_NODE_SCALAR ? name->u.scalar.length
                                                                    : 0,
        .noun = "pod", .node = key != NULL ? key : spec, .mapping = spec,
        .parent = parent, .reader = &pod_reader, .data = pod,
    };
    return model_scope_new(object->group, &scope);
}

/* Reads a pod spec and its containers (once, whatever path reaches it);
 * template_metadata holds the AppArmor annotations of its containers. */
static void read_pod(struct object_reading *object, const struct sl_node *key,
                     const struct sl_node *spec, const struct sl_node *template_metadata)
{
    if (pod_already_read(object, spec))
        return;
    /* Its hostPath volumes are its own mounts; the walk must not find
     * them again where an alias repeats them. */
    const struct sl_node *volumes = lookup(spec, "volumes", NULL);
    for (size_t i = 0; volumes != NULL && volumes->kind == SL_NODE_SEQUENCE &&
                       i < volumes->u.sequence.count; i++) {
        const struct sl_node *host = lookup(volumes->u.sequence.items[i], "hostPath", NULL);
        if (host != NULL)
            mark_read(object, host);
    }
    struct pod_walk walk = {
        object, new_pod(object, object->service, key, spec, NULL, object->token_default),
        { lookup(template_metadata, "annotations", NULL), object->kctf }, false,
    };
    model_emit_scope(object->reading, walk.pod);
    kubernetes_shapes_pod(object->reading, object->service, spec);
    kubernetes_each_container(SL_KIND_KUBERNETES, spec, read_container, &walk);
    if (object->kctf != NULL && !walk.challenge_seen) {
        /* The operator adds a container named challenge when the template
         * has none; it gets the same additions. */
        struct kubernetes_container added = {
            .sort = SL_CONTAINER_MAIN, .list = "containers", .mapping = NULL,
            .name = "challenge", .name_length = 9,
        };
        model_emit_scope(object->reading,
                         new_container(object->group, walk.pod, SL_KIND_KUBERNETES,
                                       walk.pod->public.service, object->kctf, &added,
                                       &walk.extras));
    }
}

/* ------------------------------------------------------------------ */
/* controllers sandlint models                                         */
/* ------------------------------------------------------------------ */

static bool has_prefix(const struct sl_node *node, const char *prefix)
{
    size_t length = strlen(prefix);
    return node != NULL && node->kind == SL_NODE_SCALAR && node->u.scalar.length >= length &&
           memcmp(node->u.scalar.text, prefix, length) == 0;
}

static bool scalar_is(const struct sl_node *node, const char *word)
{
    return node != NULL && node->kind == SL_NODE_SCALAR &&
           text_equals(node->u.scalar.text, node->u.scalar.length, word);
}

/* The kinds whose controllers sandlint models, each with its API group
 * ("" the core group): what their objects hold outside a pod spec is
 * understood (or is a pod spec it reads).  A kind of the same name in
 * another group is another controller's, read as any unknown object. */
static const struct {
    const char *kind;
    const char *group;
} modelled_kinds[] = {
    /* Kubernetes itself (with the groups of its older releases) */
    { "Pod", "" }, { "PodTemplate", "" }, { "ReplicationController", "" },
    { "ServiceAccount", "" }, { "PersistentVolume", "" }, { "Service", "" },
    { "Deployment", "apps" }, { "Deployment", "extensions" },
    { "StatefulSet", "apps" }, { "DaemonSet", "apps" }, { "DaemonSet", "extensions" },
    { "ReplicaSet", "apps" }, { "ReplicaSet", "extensions" },
    { "Job", "batch" }, { "CronJob", "batch" },
    /* OpenShift's DeploymentConfig (its legacy API had no group) */
    { "DeploymentConfig", "apps.openshift.io" }, { "DeploymentConfig", "" },
    /* kCTF, JobSet, Argo Workflows, KubeVirt, Knative, agent-sandbox */
    { "Challenge", "kctf.dev" }, { "JobSet", "jobset.x-k8s.io" },
    { "Workflow", "argoproj.io" }, { "CronWorkflow", "argoproj.io" },
    { "WorkflowTemplate", "argoproj.io" }, { "ClusterWorkflowTemplate", "argoproj.io" },
    { "VirtualMachine", "kubevirt.io" }, { "VirtualMachineInstance", "kubevirt.io" },
    { "VirtualMachineInstanceReplicaSet", "kubevirt.io" },
    { "Service", "serving.knative.dev" }, { "Sandbox", "agents.x-k8s.io" },
    { "SandboxTemplate", "extensions.agents.x-k8s.io" },
};

/* Whether kind names a modelled kind in some group. */
static bool kind_name_modelled(const struct sl_node *kind)
{
    for (size_t i = 0; i < sizeof(modelled_kinds) / sizeof(*modelled_kinds); i++)
        if (scalar_is(kind, modelled_kinds[i].kind))
            return true;
    return false;
}

static bool kind_modelled(const struct sl_node *object)
{
    const struct sl_node *kind = lookup(object, "kind", NULL);
    for (size_t i = 0; i < sizeof(modelled_kinds) / sizeof(*modelled_kinds); i++)
        if (scalar_is(kind, modelled_kinds[i].kind) &&
            kubernetes_api_group_is(object, modelled_kinds[i].group))
            return true;
    return false;
}

static bool is_argo(const struct sl_node *object)
{
    const struct sl_node *kind = lookup(object, "kind", NULL);
    return has_prefix(lookup(object, "apiVersion", NULL), "argoproj.io/") &&
           (scalar_is(kind, "Workflow") || scalar_is(kind, "CronWorkflow") ||
            scalar_is(kind, "WorkflowTemplate") || scalar_is(kind, "ClusterWorkflowTemplate"));
}

/* An Argo template's containers: container and script run as the pod's
 * main container ("main", as Argo names it), then sidecars, init
 * containers and a containerSet's containers. */
static void read_argo_containers(struct pod_walk *walk, const struct sl_node *template)
{
    static const char *const single[] = { "container", "script" };
    for (size_t i = 0; i < 2; i++) {
        const struct sl_node *key;
        const struct sl_node *mapping = lookup(template, single[i], &key);
        if (mapping == NULL || mapping->kind != SL_NODE_MAPPING)
            continue;
        const struct sl_node *name = lookup(mapping, "name", NULL);
        bool named = name != NULL && name->kind == SL_NODE_SCALAR && !name->null_value &&
                     name->u.scalar.length != 0;
        struct kubernetes_container found = {
            .sort = SL_CONTAINER_MAIN, .list = single[i], .mapping = mapping,
            .name = named ? name->u.scalar.text : "main",
            .name_length = named ? name->u.scalar.length : 4,
        };
        read_container(&found, walk);
    }
    static const char *const lists[] = { "sidecars", "initContainers" };
    for (size_t i = 0; i < 2; i++) {
        const struct sl_node *list = lookup(template, lists[i], NULL);
        for (size_t j = 0; list != NULL && list->kind == SL_NODE_SEQUENCE &&
                           j < list->u.sequence.count; j++) {
            const struct sl_node *item = list->u.sequence.items[j];
            if (item->kind != SL_NODE_MAPPING)
                continue;
            const struct sl_node *name = lookup(item, "name", NULL);
            bool named = name != NULL && name->kind == SL_NODE_SCALAR && !name->null_value;
            struct kubernetes_container found = {
                .sort = i == 0 ? SL_CONTAINER_MAIN : SL_CONTAINER_INIT, .list = lists[i],
                .index = j, .mapping = item, .name = named ? name->u.scalar.text : NULL,
                .name_length = named ? name->u.scalar.length : 0,
            };
            read_container(&found, walk);
        }
    }
    const struct sl_node *set = lookup(template, "containerSet", NULL);
    if (set != NULL && set->kind == SL_NODE_MAPPING) {
        mark_read(walk->object, set);
        kubernetes_each_container(SL_KIND_KUBERNETES, set, read_container, walk);
    }
}

/* ------------------------------------------------------------------ */
/* Argo's podSpecPatch                                                 */
/* ------------------------------------------------------------------ */

/* A podSpecPatch is YAML (or JSON) text that Argo merges into the pod it
 * makes: read as a pod spec of its own.  Bounds: the patch's nodes, and
 * the work of placing them in the file. */
#define PATCH_MAX_NODES 10000
#define PATCH_MAX_VISITS 100000

/* Places a patch's nodes in the file: a block scalar's lines follow its
 * indicator line, indented by indent (libyaml drops the indentation; YAML
 * writers indent a block two columns past its key); anything else is
 * pointed at the patch's start.  Each node once (aliases repeat nodes:
 * placed, the set of their addresses).  Returns false past the bound. */
static bool place_patch(struct sl_node *node, const struct sl_node *patch, unsigned indent,
                        struct string_set *placed, size_t *visits)
{
    if (++*visits > PATCH_MAX_VISITS)
        return false;
    if (!string_set_add(placed, (const char *)&node, sizeof(node)))
        return true;
    if (patch->style == SL_STYLE_LITERAL || patch->style == SL_STYLE_FOLDED) {
        node->line += patch->line;
        node->end_line += patch->line;
        node->column += indent;
        node->end_column += indent;
    } else {
        node->line = node->end_line = patch->line;
        node->column = patch->column;
        node->end_column = patch->end_column;
    }
    if (node->kind == SL_NODE_SEQUENCE) {
        for (size_t i = 0; i < node->u.sequence.count; i++)
            if (!place_patch(node->u.sequence.items[i], patch, indent, placed, visits))
                return false;
    } else if (node->kind == SL_NODE_MAPPING) {
        for (size_t i = 0; i < node->u.mapping.count; i++)
            if (!place_patch(node->u.mapping.pairs[i].key, patch, indent, placed, visits) ||
                !place_patch(node->u.mapping.pairs[i].value, patch, indent, placed, visits))
                return false;
    }
    return true;
}

/* Reads the podSpecPatch of mapping (a workflow spec or a template) as a
 * pod of service under parent; the parsed patch lives in object->patches
 * until the object's scopes are released. */
static void read_pod_spec_patch(struct object_reading *object, const struct sl_node *mapping,
                                const char *service, struct model_scope *parent)
{
    const struct sl_node *key;
    const struct sl_node *patch = lookup(mapping, "podSpecPatch", &key);
    if (patch == NULL || (patch->kind == SL_NODE_SCALAR && patch->null_value))
        return;
    if (patch->kind != SL_NODE_SCALAR) {
        model_emit_not_understood(object->reading, key, "podSpecPatch is not a string of "
                                  "YAML or JSON; not checked");
        return;
    }
    if (kubernetes_is_templated(patch->u.scalar.text, patch->u.scalar.length)) {
        model_emit_templated(object->reading, patch, "podSpecPatch holds template text "
                             "({{ ... }}) that Argo fills in when it runs: cannot be "
                             "checked");
        return;
    }
    if (object->patch_count == MAX_PATCHES_PER_OBJECT) {
        model_emit_not_checked(object->reading, key, "more than 100 podSpecPatch strings in "
                               "one object; the rest were not checked");
        return;
    }
    struct yaml_model *model = &object->patches[object->patch_count];
    struct model_limits limits = { PATCH_MAX_NODES, 64 };
    size_t visits = 0;
    if (model_parse(model, patch->u.scalar.text, patch->u.scalar.length, &limits) !=
            MODEL_OK ||
        model->document_count != 1 ||
        (model->documents[0]->kind != SL_NODE_MAPPING && !model_is_null(model->documents[0]))) {
        model_release(model);
        model_emit_not_understood(object->reading, patch, "podSpecPatch is not one YAML or "
                                  "JSON mapping (or exceeds 10000 nodes); what Argo merges "
                                  "into the pod was not checked");
        return;
    }
    object->patch_count++;
    struct sl_node *root = model->documents[0];
    if (model_is_null(root))
        return;
    struct string_set placed = STRING_SET_INIT;
    bool whole = place_patch(root, patch, key->column + 1, &placed, &visits);
    string_set_release(&placed);
    if (!whole) {
        model_emit_not_understood(object->reading, patch, "podSpecPatch repeats its nodes "
                                  "too often (aliases); not checked");
        return;
    }
    struct pod_walk walk = {
        object, new_pod(object, service, key, root, parent, false), { NULL, NULL }, false,
    };
    model_emit_scope(object->reading, walk.pod);
    kubernetes_each_container(SL_KIND_KUBERNETES, root, read_container, &walk);
}

/* The spec that holds an Argo object's templates: a Workflow's and a
 * WorkflowTemplate's spec, a CronWorkflow's spec.workflowSpec. */
static const struct sl_node *argo_workflow_spec(const struct sl_node *object,
                                                const struct sl_node **key)
{
    const struct sl_node *spec = lookup(object, "spec", key);
    const struct sl_node *inner_key;
    const struct sl_node *inner = lookup(spec, "workflowSpec", &inner_key);
    if (inner != NULL && inner->kind == SL_NODE_MAPPING) {
        *key = inner_key;
        return inner;
    }
    return spec != NULL && spec->kind == SL_NODE_MAPPING ? spec : NULL;
}

/* An Argo resource template's manifest: YAML text of the objects Argo
 * creates, read as objects of the file (placed at its lines).  One
 * from an artifact (manifestFrom) is known only when the workflow runs. */
static void read_resource_manifest(struct object_reading *object,
                                   const struct sl_node *template)
{
    const struct sl_node *resource = lookup(template, "resource", NULL);
    const struct sl_node *from_key;
    if (lookup(resource, "manifestFrom", &from_key) != NULL)
        model_emit_warning(object->reading, from_key, "resource.manifestFrom: the objects "
                           "come from an artifact when the workflow runs; not checked");
    const struct sl_node *key;
    const struct sl_node *manifest = lookup(resource, "manifest", &key);
    if (manifest == NULL || (manifest->kind == SL_NODE_SCALAR && manifest->null_value))
        return;
    if (manifest->kind != SL_NODE_SCALAR) {
        model_emit_not_understood(object->reading, key, "resource.manifest is not a string "
                                  "of YAML; not checked");
        return;
    }
    if (kubernetes_is_templated(manifest->u.scalar.text, manifest->u.scalar.length)) {
        model_emit_templated(object->reading, manifest, "resource.manifest holds template "
                             "text ({{ ... }}) that Argo fills in when it runs: cannot be "
                             "checked");
        return;
    }
    struct yaml_model model;
    struct model_limits limits = { PATCH_MAX_NODES, 64 };
    if (model_parse(&model, manifest->u.scalar.text, manifest->u.scalar.length, &limits) !=
        MODEL_OK) {
        model_release(&model);
        model_emit_not_understood(object->reading, manifest, "resource.manifest is not "
                                  "valid YAML (or exceeds 10000 nodes); the objects Argo "
                                  "creates from it were not checked");
        return;
    }
    struct string_set placed = STRING_SET_INIT;
    size_t visits = 0;
    bool whole = true;
    for (size_t d = 0; d < model.document_count && whole; d++)
        whole = place_patch(model.documents[d], manifest, key->column + 1, &placed, &visits);
    string_set_release(&placed);
    if (!whole) {
        model_emit_not_understood(object->reading, manifest, "resource.manifest repeats its "
                                  "nodes too often (aliases); not checked");
    } else if (object->depth >= MAX_LIST_DEPTH) {
        model_emit_not_checked(object->reading, manifest, "resource manifests nested more "
                               "than 8 deep; the objects inside were not checked");
    } else {
        for (size_t d = 0; d < model.document_count; d++) {
            const struct sl_node *document = model.documents[d];
            if (model_is_null(document))
                continue;
            if (file_kind_is_object(document))
                kubernetes_front_read_object(object->reading, document, object->depth + 1);
            else
                model_emit_warning(object->reading, document, "resource.manifest document is "
                                   "not a Kubernetes object (no apiVersion and kind); not "
                                   "checked");
        }
    }
    model_release(&model);
}

/* Bounds inline templates inside inline templates (Argo's validation
 * refuses them, but a file may hold them): past it they were not checked. */
#define MAX_INLINE_DEPTH 8

static struct model_scope *read_argo_template(struct object_reading *object,
                                              const struct sl_node *key,
                                              const struct sl_node *template,
                                              const char *service,
                                              struct model_scope *parent,
                                              unsigned inline_depth);

/* One step or DAG task's inline template (steps[][].inline,
 * dag.tasks[].inline): a template like any other, named after the step. */
static void read_argo_inline(struct object_reading *object, const struct sl_node *step,
                             const char *owner, const char *place,
                             struct model_scope *parent, unsigned inline_depth)
{
    const struct sl_node *key;
    const struct sl_node *inline_template = lookup(step, "inline", &key);
    if (inline_template == NULL || inline_template->kind != SL_NODE_MAPPING)
        return;
    if (inline_depth >= MAX_INLINE_DEPTH) {
        if (!object->inline_limit_reported)
            model_emit_not_checked(object->reading, key, "Argo inline templates nested "
                                   "more than 8 deep; the rest were not checked");
        object->inline_limit_reported = true;
        return;
    }
    /* Once each (aliases repeat them, nested: a few lines could make
     * millions), and within the object's bound on pod specs. */
    if (pod_already_read(object, inline_template))
        return;
    const struct sl_node *name = lookup(step, "name", NULL);
    char *service = name != NULL && name->kind == SL_NODE_SCALAR && !name->null_value
                        ? xasprintf("%s/%s", owner, name->u.scalar.text)
                        : xasprintf("%s/%s", owner, place);
    read_argo_template(object, key, inline_template, service, parent, inline_depth + 1);
    free(service);
}

/* The inline templates of a template's steps and DAG tasks. */
static void read_argo_inlines(struct object_reading *object, const struct sl_node *template,
                              const char *service, struct model_scope *parent,
                              unsigned inline_depth)
{
    char place[64];
    const struct sl_node *steps = lookup(template, "steps", NULL);
    for (size_t i = 0; steps != NULL && steps->kind == SL_NODE_SEQUENCE &&
                       i < steps->u.sequence.count; i++) {
        const struct sl_node *group = steps->u.sequence.items[i];
        /* A parallel group is a list of steps; Argo reads a lone step too. */
        size_t count = group->kind == SL_NODE_SEQUENCE ? group->u.sequence.count : 1;
        for (size_t j = 0; j < count; j++) {
            const struct sl_node *step =
                group->kind == SL_NODE_SEQUENCE ? group->u.sequence.items[j] : group;
            snprintf(place, sizeof(place), "steps[%zu][%zu]", i, j);
            read_argo_inline(object, step, service, place, parent, inline_depth);
        }
    }
    const struct sl_node *tasks = lookup(lookup(template, "dag", NULL), "tasks", NULL);
    for (size_t i = 0; tasks != NULL && tasks->kind == SL_NODE_SEQUENCE &&
                       i < tasks->u.sequence.count; i++) {
        snprintf(place, sizeof(place), "dag.tasks[%zu]", i);
        read_argo_inline(object, tasks->u.sequence.items[i], service, place, parent,
                         inline_depth);
    }
}

/* One Argo template (a mapping) as a pod of service under parent: its
 * containers, podSpecPatch, resource manifest and inline templates.
 * Returns its pod scope. */
static struct model_scope *read_argo_template(struct object_reading *object,
                                              const struct sl_node *key,
                                              const struct sl_node *template,
                                              const char *service,
                                              struct model_scope *parent,
                                              unsigned inline_depth)
{
    mark_read(object, template);
    struct pod_walk walk = {
        object, new_pod(object, service, key, template, parent, false),
        { lookup(lookup(template, "metadata", NULL), "annotations", NULL), NULL },
        false,
    };
    model_emit_scope(object->reading, walk.pod);
    read_argo_containers(&walk, template);
    read_pod_spec_patch(object, template, service, walk.pod);
    read_resource_manifest(object, template);
    read_argo_inlines(object, template, service, parent, inline_depth);
    return walk.pod;
}

/* Argo: the workflow-level settings are a pod of their own (every pod of
 * the workflow takes them), and each template that runs containers is a
 * pod whose parent it is.  spec.templateDefaults is merged into every
 * template: read as a template of its own (what it adds is reported
 * there), and the parent of the others, which take its pod-level
 * settings. */
static void read_argo(struct object_reading *object)
{
    const struct sl_node *spec_key;
    const struct sl_node *spec = argo_workflow_spec(object->object, &spec_key);
    if (spec == NULL)
        return;
    mark_read(object, spec);
    struct model_scope *workflow = new_pod(object, object->service, spec_key, spec, NULL,
                                           object->token_default);
    model_emit_scope(object->reading, workflow);
    object->patches = xcalloc(MAX_PATCHES_PER_OBJECT, sizeof(*object->patches));
    read_pod_spec_patch(object, spec, object->service, NULL);
    struct model_scope *parent = workflow;
    const struct sl_node *defaults_key;
    const struct sl_node *defaults = lookup(spec, "templateDefaults", &defaults_key);
    if (defaults != NULL && defaults->kind == SL_NODE_MAPPING) {
        char *service = xasprintf("%s/templateDefaults", object->service);
        parent = read_argo_template(object, defaults_key, defaults, service, workflow, 0);
        free(service);
    }
    const struct sl_node *templates = lookup(spec, "templates", NULL);
    for (size_t i = 0; templates != NULL && templates->kind == SL_NODE_SEQUENCE &&
                       i < templates->u.sequence.count; i++) {
        const struct sl_node *template = templates->u.sequence.items[i];
        if (template->kind != SL_NODE_MAPPING)
            continue;
        const struct sl_node *name = lookup(template, "name", NULL);
        char *service = name != NULL && name->kind == SL_NODE_SCALAR && !name->null_value
                            ? xasprintf("%s/%s", object->service, name->u.scalar.text)
                            : xasprintf("%s/templates[%zu]", object->service, i);
        read_argo_template(object, template, template, service, parent, 0);
        free(service);
    }
}

/* kCTF: spec.podTemplate.template (a PodTemplate's template): its
 * containers may omit image (the operator fills it from spec.image), so
 * the shape walk would not find it. */
static void read_challenge(struct object_reading *object)
{
    const struct sl_node *key;
    const struct sl_node *template = kubernetes_follow(object->object,
                                                       "spec.podTemplate.template", &key);
    const struct sl_node *spec = lookup(template, "spec", &key);
    if (spec != NULL && spec->kind == SL_NODE_MAPPING) {
        read_pod(object, key, spec, lookup(template, "metadata", NULL));
        return;
    }
    /* No template: the operator's pod holds only its challenge container. */
    struct model_scope *pod = new_pod(object, object->service, object->kctf, object->object,
                                      NULL, false);
    model_emit_scope(object->reading, pod);
    struct pod_walk walk = { object, pod, { NULL, object->kctf }, false };
    struct kubernetes_container added = {
        .sort = SL_CONTAINER_MAIN, .list = "containers", .name = "challenge",
        .name_length = 9,
    };
    model_emit_scope(object->reading,
                     new_container(object->group, pod, SL_KIND_KUBERNETES,
                                   object->service, object->kctf, &added, &walk.extras));
}

/* ------------------------------------------------------------------ */
/* what the shape walk finds                                           */
/* ------------------------------------------------------------------ */

/* The host paths an object holds outside its pod specs' volumes: a scope
 * of the object whose only setting is its mounts. */
struct object_paths {
    const struct sl_node **holders;
    const char **keys;
    size_t count;
};

static int object_mounts(const struct model_scope *scope, struct sl_context *ctx,
                         size_t mount_size, sl_mount_fn visit, void *data,
                         const char **problem)
{
    const struct object_paths *paths = scope->data;
    return host_mounts_path_holders(ctx, paths->holders, paths->keys, paths->count,
                                    mount_size, visit, data, problem);
}

static void fill_object_paths(struct model_fill *fill, const struct model_scope *scope,
                              int view, int id)
{
    (void)view;
    if (id != SL_SETTING_MOUNTS) {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    const char *problem;
    fill->setting.field = fill->setting.label = "hostPath";
    object_mounts(scope, NULL, sizeof(struct sl_mount), pod_mount, fill, &problem);
}

static const struct model_reader object_paths_reader = { fill_object_paths, object_mounts };

/* A PersistentVolume's spec.local.path is a directory of the node, as a
 * hostPath is: the spec holds it under local.  NULL for other objects. */
static const struct sl_node *local_volume_holder(const struct sl_node *object)
{
    if (!scalar_is(lookup(object, "kind", NULL), "PersistentVolume") ||
        !kubernetes_api_group_is(object, ""))
        return NULL;
    const struct sl_node *spec = lookup(object, "spec", NULL);
    return lookup(spec, "local", NULL) != NULL ? spec : NULL;
}

static void read_object_paths(struct object_reading *object, const struct kubernetes_walk *walk)
{
    const struct sl_node *local = local_volume_holder(object->object);
    size_t count = local != NULL;
    for (size_t i = 0; i < walk->count; i++)
        count += walk->items[i].kind == KUBERNETES_FOUND_HOST_PATH;
    if (count == 0)
        return;
    struct object_paths *paths = model_group_alloc(object->group, sizeof(*paths));
    paths->holders = model_group_alloc(object->group, count * sizeof(*paths->holders));
    paths->keys = model_group_alloc(object->group, count * sizeof(*paths->keys));
    for (size_t i = 0; i < walk->count; i++) {
        if (walk->items[i].kind != KUBERNETES_FOUND_HOST_PATH)
            continue;
        paths->holders[paths->count] = walk->items[i].node;
        paths->keys[paths->count++] = walk->items[i].holder_key;
    }
    if (local != NULL) {
        paths->holders[paths->count] = local;
        paths->keys[paths->count++] = "local";
    }
    struct model_scope_spec spec = {
        .level = SL_SCOPE_POD, .platform = SL_PLATFORM_KUBERNETES,
        .kind = SL_KIND_KUBERNETES, .service = object->service,
        .service_length = strlen(object->service), .noun = "object",
        .node = lookup(object->object, "kind", NULL), .mapping = object->object,
        .reader = &object_paths_reader, .data = paths,
    };
    model_emit_scope(object->reading, model_scope_new(object->group, &spec));
}

/* Security keys of an object whose kind sandlint does not model, outside
 * anything it read as a pod spec: SL008, naming where. */
static void report_not_understood(struct object_reading *object,
                                  const struct kubernetes_walk *walk)
{
    const struct sl_node *kind = lookup(object->object, "kind", NULL);
    /* A modelled kind's name in another group: say whose it is. */
    const struct sl_node *version = lookup(object->object, "apiVersion", NULL);
    bool foreign = kind_name_modelled(kind);
    for (size_t i = 0; i < walk->count; i++) {
        const struct kubernetes_found *found = &walk->items[i];
        if (found->kind != KUBERNETES_FOUND_SECURITY_KEY)
            continue;
        char *message = xasprintf("%s: %s is outside anything sandlint reads as a pod "
                                  "spec, and what the controller of a %.*s%s%.*s does with "
                                  "it is unknown; not checked", object->service, found->path,
                                  (int)kind->u.scalar.length, kind->u.scalar.text,
                                  foreign ? " of " : "",
                                  foreign ? (int)version->u.scalar.length : 0,
                                  foreign ? version->u.scalar.text : "");
        model_emit_not_understood(object->reading, found->key, message);
        free(message);
    }
}

/* The scopes of one object that is not a List: its ServiceAccount, its pod
 * specs (at the known paths, where a modelled controller keeps them, and
 * wherever their shape shows them) with their containers, its host paths,
 * and what it holds that sandlint cannot place. */
static void read_workload(struct model_reading *reading, const struct sl_node *object,
                          unsigned depth)
{
    const struct sl_node *kind = lookup(object, "kind", NULL);
    struct model_group group;
    model_group_init(&group);
    char *service = kubernetes_object_service(object);
    struct object_reading objects = {
        .reading = reading, .group = &group, .object = object, .service = service,
        .depth = depth,
        .kctf = scalar_is(kind, "Challenge") &&
                        has_prefix(lookup(object, "apiVersion", NULL), "kctf.dev/")
                    ? kind : NULL,
        /* agent-sandbox's controller turns the token off in pods made from
         * a SandboxTemplate (extensions/controllers/utils.go); a kCTF
         * challenge's pod is the operator's. */
        .token_default = !(scalar_is(kind, "SandboxTemplate") &&
                           has_prefix(lookup(object, "apiVersion", NULL),
                                      "extensions.agents.x-k8s.io/")),
    };
    if (scalar_is(kind, "ServiceAccount") && kubernetes_api_group_is(object, "")) {
        struct model_scope_spec spec = {
            .level = SL_SCOPE_ACCOUNT, .platform = SL_PLATFORM_KUBERNETES,
            .kind = SL_KIND_KUBERNETES, .service = service,
            .service_length = strlen(service), .noun = "service account",
            .node = object, .mapping = object, .reader = &account_reader,
        };
        model_emit_scope(reading, model_scope_new(&group, &spec));
    }
    /* KubeVirt's spec.template.spec is a virtual machine's, not a pod's:
     * its volumes (hostDisk) are found by the walk. */
    bool kubevirt = has_prefix(lookup(object, "apiVersion", NULL), "kubevirt.io/");
    for (size_t i = 0; i < KUBERNETES_POD_SHAPES && !kubevirt; i++) {
        const struct sl_node *key;
        const struct sl_node *spec_node = kubernetes_pod_spec(object, i, &key);
        if (spec_node != NULL)
            read_pod(&objects, key, spec_node, kubernetes_pod_template_metadata(object, i));
    }
    if (objects.kctf != NULL)
        read_challenge(&objects);
    if (is_argo(object))
        read_argo(&objects);
    struct kubernetes_walk walk = { NULL, 0, 0, false };
    kubernetes_walk_object(&walk, object, objects.read, objects.read_count, kubevirt);
    for (size_t i = 0; i < walk.count; i++)
        if (walk.items[i].kind == KUBERNETES_FOUND_POD_SPEC)
            read_pod(&objects, walk.items[i].key, walk.items[i].node,
                     walk.items[i].parent != NULL ? lookup(walk.items[i].parent, "metadata",
                                                           NULL)
                                                  : NULL);
    read_object_paths(&objects, &walk);
    if (!kind_modelled(object))
        report_not_understood(&objects, &walk);
    if (walk.over_limit)
        model_emit_not_checked(reading, object, "Kubernetes object nested deeper than 64 "
                               "levels or holding more than 200000 nodes (with its "
                               "aliases); the rest was not checked");
    kubernetes_walk_release(&walk);
    free(objects.read);
    free(objects.pods);
    free(service);
    model_group_release(&group);
    for (size_t i = 0; i < objects.patch_count; i++)
        model_release(&objects.patches[i]);
    free(objects.patches);
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
    read_workload(reading, object, depth);
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
