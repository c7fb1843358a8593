/* compose_front.c - the Compose front-end (see compose_front.h). */
#include "config.h"

#include "compose_front.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_extends.h"
#include "compose_project.h"
#include "compose_syntax.h"
#include "file_kind.h"
#include "host_mounts.h"
#include "xalloc.h"
#include "yaml_model.h"

/* A service: what its scope's settings are read from. */
struct compose_service {
    const struct sl_node *root;       /* the document: top-level volumes */
    const struct sl_node *services;   /* its services (a legacy file's top
                                         level): extends and container_name */
    const struct sl_node *mapping;    /* the service */
    struct compose_chain chain;       /* built on first use */
    bool chain_built;
    struct compose_project *project;  /* the file's variables (borrowed);
                                         NULL: none known */
};

static const struct compose_chain *chain_of(struct compose_service *service)
{
    if (!service->chain_built) {
        compose_chain_build(&service->chain, service->services, service->mapping);
        service->chain_built = true;
    }
    return &service->chain;
}

static bool text_equals(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

static bool starts_with(const char *text, size_t length, const char *prefix)
{
    size_t prefix_length = strlen(prefix);
    return length >= prefix_length && memcmp(text, prefix, prefix_length) == 0;
}

/* "<mapping>" or "<sequence>": the key value of a collection where a
 * scalar belongs. */
static const char *collection_text(const struct sl_node *node)
{
    return node->kind == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
}

/* ------------------------------------------------------------------ */
/* values                                                              */
/* ------------------------------------------------------------------ */

/* A new value of fill written at key (a finding points there: Compose
 * findings point at the setting's line, or at the list item). */
static struct sl_value *new_value(struct model_fill *fill, size_t depth, int form,
                                  const char *field, const struct sl_node *key)
{
    struct sl_value *value = model_fill_value(fill);
    value->origin = depth == 0 ? SL_ORIGIN_OWN : SL_ORIGIN_BASE;
    value->form = form;
    value->field = value->label = field;
    value->key = value->node = key;
    return value;
}

/* Fills text (and parsed) from a scalar node, or makes the value
 * UNCHECKABLE for a collection; returns whether it is a scalar. */
static bool take_text(struct sl_value *value, const struct sl_node *node)
{
    if (node->kind != SL_NODE_SCALAR) {
        value->state = SL_VALUE_UNCHECKABLE;
        value->text = collection_text(node);
        value->text_length = strlen(value->text);
        return false;
    }
    value->text = value->parsed = node->u.scalar.text;
    value->text_length = value->parsed_length = node->u.scalar.length;
    return true;
}

/* The text of a scalar field of a mapping (NULL when missing, null or
 * not a scalar). */
static const char *field_text_of(const struct sl_node *mapping, const char *name,
                                 size_t *length)
{
    const struct sl_node *node = model_mapping_get(mapping, name, strlen(name), NULL);
    if (node == NULL || node->kind != SL_NODE_SCALAR || node->null_value)
        return NULL;
    *length = node->u.scalar.length;
    return node->u.scalar.text;
}

static void templated(struct sl_value *value)
{
    value->state = SL_VALUE_TEMPLATED;
    value->template_syntax = SL_TEMPLATE_INTERPOLATION;
    value->parsed = NULL;
    value->parsed_length = 0;
}

/* Whether a value still holds an interpolation.  A resolved one holds
 * none: what it resolved to is what Compose uses, even text that looks
 * like "${X}" (a single-quoted .env value, or "$${X}"). */
static bool interpolated(const struct sl_value *value)
{
    return !(value->flags & SL_VALUE_RESOLVED) &&
           compose_has_interpolation(value->text, value->text_length);
}

/* Text as Compose resolves it with the project's .env, defaults and $$
 * escapes (SPEC §13), copied into the scope's group; false when it stays
 * unknown (an unset variable, a refused value, an unreadable .env). */
static bool resolve_text(struct model_fill *fill, const char *text, size_t length,
                         const char **resolved, size_t *resolved_length,
                         const char **from)
{
    const struct compose_service *service = fill->scope->data;
    if (service == NULL || service->project == NULL)
        return false;
    struct compose_resolution resolution;
    if (!compose_project_resolve(service->project, text, length, &resolution))
        return false;
    struct model_group *group = fill->scope->group;
    *resolved = model_group_strndup(group, resolution.text, resolution.length);
    *resolved_length = resolution.length;
    *from = model_group_strndup(group, resolution.from, strlen(resolution.from));
    compose_resolution_release(&resolution);
    return true;
}

/* An interpolated value whose text Compose would know from the project
 * alone: text becomes what it resolves to, written keeps the value as
 * written, and the value is marked SL_VALUE_RESOLVED with where it came
 * from.  The caller then reads the resolved text as it reads a literal.
 * Returns whether it resolved. */
static bool resolve(struct model_fill *fill, struct sl_value *value)
{
    const char *text, *from;
    size_t length;
    if (!interpolated(value) ||
        !resolve_text(fill, value->text, value->text_length, &text, &length, &from))
        return false;
    value->written = value->text;
    value->written_length = value->text_length;
    value->text = value->parsed = text;
    value->text_length = value->parsed_length = length;
    value->flags |= SL_VALUE_RESOLVED;
    value->resolved_from = from;
    value->resolved_from_length = strlen(from);
    return true;
}

/* A switch: on when Compose reads it as true; a value that is not and
 * holds an interpolation cannot be checked, unless it resolves. */
static void flag_value(struct model_fill *fill, struct sl_value *value,
                       const struct sl_node *node)
{
    if (!take_text(value, node))
        return;
    if (compose_node_truthy(node))
        value->meaning = 1;
    else if (resolve(fill, value))
        value->meaning = compose_text_truthy(value->text, value->text_length) ? 1 : 0;
    else if (interpolated(value))
        templated(value);
}

/* ------------------------------------------------------------------ */
/* lookups in either view                                              */
/* ------------------------------------------------------------------ */

/* The setting at path of the service in view: its own as written, or the
 * nearest of its extends chain as Compose merges it.  Returns whether it
 * is present, with its nodes and the depth of the service that wrote it. */
static bool find(struct compose_service *service, int view, const char *const *path,
                 const struct sl_node **key, const struct sl_node **value,
                 size_t *depth)
{
    *depth = 0;
    if (view == SL_VIEW_EFFECTIVE)
        return compose_chain_setting(chain_of(service), path, key, value, depth) ==
               COMPOSE_PRESENT;
    const struct sl_node *node = service->mapping;
    *key = *value = NULL;
    for (size_t i = 0; path[i] != NULL; i++) {
        if (node == NULL || node->kind != SL_NODE_MAPPING)
            return false;
        node = model_mapping_get(node, path[i], strlen(path[i]), key);
    }
    *value = node;
    return node != NULL && !compose_node_empty(node);
}

/* The entries of the list setting name in view; *key receives the key of
 * the (nearest) list written. */
static void each_entry(struct compose_service *service, int view, const char *name,
                       const struct sl_node **key, compose_entry_fn visit, void *data)
{
    if (view == SL_VIEW_EFFECTIVE)
        compose_chain_list(chain_of(service), name, key, visit, data);
    else
        compose_written_list(service->mapping, name, key, visit, data);
}

/* ------------------------------------------------------------------ */
/* the settings                                                        */
/* ------------------------------------------------------------------ */

/* What a setting is called and how to add it, in Compose's words, by id
 * (a setting Compose does not have has no field). */
struct setting_words {
    const char *field;
    const char *label;
    const char *hint;
};

static const struct setting_words words[MODEL_SETTING_LAST + 1] = {
    [SL_SETTING_PRIVILEGED] = { "privileged", "privileged", NULL },
    [SL_SETTING_CAP_ADD] = { "cap_add", "cap_add", NULL },
    [SL_SETTING_CAP_DROP] = { "cap_drop", "cap_drop",
                              "add 'cap_drop: [ALL]' and cap_add only what the sandbox "
                              "needs" },
    [SL_SETTING_SECCOMP] = { "security_opt", "security_opt", NULL },
    [SL_SETTING_APPARMOR] = { "security_opt", "security_opt", NULL },
    [SL_SETTING_SELINUX] = { "security_opt", "security_opt", NULL },
    [SL_SETTING_SYSTEM_PATHS] = { "security_opt", "security_opt", NULL },
    [SL_SETTING_SECURITY_OTHER] = { "security_opt", "security_opt", NULL },
    [SL_SETTING_NO_NEW_PRIVILEGES] = { "security_opt", "security_opt",
                                       "add 'security_opt: [no-new-privileges:true]'" },
    [SL_SETTING_READ_ONLY_ROOT] = { "read_only", "read_only",
                                    "add 'read_only: true' (with tmpfs for the paths the "
                                    "sandbox writes)" },
    [SL_SETTING_USER] = { "user", "user",
                          "add 'user: \"1000:1000\"' (a user the image has)" },
    [SL_SETTING_PIDS_LIMIT] = { "pids_limit", "pids_limit or deploy.resources.limits.pids",
                                "add 'pids_limit: 512' (or deploy.resources.limits.pids)" },
    [SL_SETTING_MEMORY_LIMIT] = { "mem_limit", "mem_limit or deploy.resources.limits.memory",
                                  "add 'mem_limit: 2g' (or deploy.resources.limits.memory)" },
    [SL_SETTING_CPU_LIMIT] = { "cpus", "cpus, cpu_quota or deploy.resources.limits.cpus",
                               "add 'cpus: 2' (or deploy.resources.limits.cpus)" },
    [SL_SETTING_NETWORK_NAMESPACE] = { "network_mode", "network_mode", NULL },
    [SL_SETTING_PID_NAMESPACE] = { "pid", "pid", NULL },
    [SL_SETTING_IPC_NAMESPACE] = { "ipc", "ipc", NULL },
    [SL_SETTING_UTS_NAMESPACE] = { "uts", "uts", NULL },
    [SL_SETTING_USER_NAMESPACE] = { "userns_mode", "userns_mode", NULL },
    [SL_SETTING_CGROUP_NAMESPACE] = { "cgroup", "cgroup", NULL },
    [SL_SETTING_MOUNTS] = { "volumes", "volumes", NULL },
    [SL_SETTING_DEVICES] = { "devices", "devices", NULL },
    [SL_SETTING_DEVICE_CGROUP_RULES] = { "device_cgroup_rules", "device_cgroup_rules", NULL },
    [SL_SETTING_PORTS] = { "ports", "ports",
                           "publish on the loopback interface only ('127.0.0.1:8080:80'), "
                           "or remove the item" },
    [SL_SETTING_RUNTIME] = { "runtime", "runtime", NULL },
    [SL_SETTING_API_SOCKET] = { "use_api_socket", "use_api_socket", NULL },
    [SL_SETTING_GPUS] = { "gpus", "gpus", NULL },
    [SL_SETTING_BUILD_PRIVILEGED] = { "build.privileged", "build.privileged", NULL },
    [SL_SETTING_BUILD_ENTITLEMENTS] = { "build.entitlements", "build.entitlements", NULL },
    [SL_SETTING_BUILD_NETWORK] = { "build.network", "build.network", NULL },
    [SL_SETTING_SERVICE_ACCOUNT_TOKEN] = {
        "x-inspect_k8s_sandbox.automount_service_account_token",
        "x-inspect_k8s_sandbox.automount_service_account_token", NULL },
    [SL_SETTING_SERVICE_ACCOUNT_NAME] = { "x-inspect_k8s_sandbox.service_account_name",
                                          "x-inspect_k8s_sandbox.service_account_name",
                                          NULL },
};

static const struct setting_words *words_of(int id)
{
    if (id < 1 || id > MODEL_SETTING_LAST || words[id].field == NULL)
        return NULL;
    return &words[id];
}

/* A switch: privileged, use_api_socket, read_only, build.privileged. */
static void fill_flag(struct model_fill *fill, struct compose_service *service, int view,
                      const char *const *path, const char *field)
{
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, depth, SL_FORM_FLAG, field, key);
    flag_value(fill, value, node);
}

/* ------------------------------------------------------------------ */
/* lists: cap_add, cap_drop, devices, device_cgroup_rules, gpus...     */
/* ------------------------------------------------------------------ */

/* The key value of a device request (a gpus item or a device reservation,
 * both mappings): its driver as written ("nvidia"), else its capabilities
 * joined by ',' ("gpu"), else "<mapping>".  An interpolated one cannot be
 * checked. */
static void device_request_text(struct model_fill *fill, struct sl_value *value,
                                const struct sl_node *request)
{
    size_t length;
    const char *driver = field_text_of(request, "driver", &length);
    value->text = "<mapping>";
    value->text_length = strlen(value->text);
    if (driver != NULL) {
        value->text = driver;
        value->text_length = length;
    } else {
        const struct sl_node *capabilities =
            model_mapping_get(request, "capabilities", 12, NULL);
        if (capabilities != NULL && capabilities->kind == SL_NODE_SEQUENCE &&
            capabilities->u.sequence.count > 0) {
            size_t total = 0;
            for (size_t i = 0; i < capabilities->u.sequence.count; i++) {
                const struct sl_node *item = capabilities->u.sequence.items[i];
                if (item->kind != SL_NODE_SCALAR)
                    return;
                total += item->u.scalar.length + 1;
            }
            char *joined = model_group_alloc(fill->scope->group, total);
            size_t used = 0;
            for (size_t i = 0; i < capabilities->u.sequence.count; i++) {
                const struct sl_node *item = capabilities->u.sequence.items[i];
                if (used > 0)
                    joined[used++] = ',';
                memcpy(joined + used, item->u.scalar.text, item->u.scalar.length);
                used += item->u.scalar.length;
            }
            joined[used] = '\0';
            value->text = joined;
            value->text_length = used;
        }
    }
    value->parsed = value->text;
    value->parsed_length = value->text_length;
    if (interpolated(value))
        templated(value);
}

/* deploy.resources.reservations.devices: each a device request the
 * engine turns into host devices and their driver (SPEC §13), added to
 * the values of SL_SETTING_GPUS. */
static void fill_device_reservations(struct model_fill *fill,
                                     struct compose_service *service, int view)
{
    static const char *const path[] = { "deploy", "resources", "reservations", "devices",
                                        NULL };
    static const char field[] = "deploy.resources.reservations.devices";
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    if (fill->setting.key == NULL)
        fill->setting.key = key;
    if (node->kind != SL_NODE_SEQUENCE) {
        struct sl_value *value = new_value(fill, depth, SL_FORM_ENTRY, field, key);
        take_text(value, node);
        if (node->kind == SL_NODE_SCALAR)
            templated(value);     /* only an interpolation can stand for a list */
        return;
    }
    for (size_t i = 0; i < node->u.sequence.count; i++) {
        const struct sl_node *item = node->u.sequence.items[i];
        if (compose_node_empty(item))
            continue;
        struct sl_value *value = new_value(fill, depth, SL_FORM_ENTRY, field, item);
        if (item->kind == SL_NODE_MAPPING)
            device_request_text(fill, value, item);
        else if (take_text(value, item) && interpolated(value))
            templated(value);
    }
}

/* build.network: host runs the build steps in the host's network
 * namespace. */
static void fill_build_network(struct model_fill *fill, struct compose_service *service,
                               int view, const char *field)
{
    static const char *const path[] = { "build", "network", NULL };
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, depth, SL_FORM_SCALAR, field, key);
    if (!take_text(value, node))
        return;
    resolve(fill, value);
    if (text_equals(value->text, value->text_length, "host"))
        value->meaning = SL_NAMESPACE_HOST;
    else if (interpolated(value))
        templated(value);
    else
        value->meaning = SL_NAMESPACE_PRIVATE;
}

/* The x-inspect_k8s_sandbox extension (and its alias x-k8s) of a service:
 * what inspect_k8s_sandbox writes into the pod it makes of the service
 * (SPEC §13): automount_service_account_token (a switch) and
 * service_account_name.  Each block written adds its value, keyed by the
 * field as written there. */
static void fill_k8s_extension(struct model_fill *fill, struct compose_service *service,
                               int view, int id)
{
    static const char *const blocks[] = { "x-inspect_k8s_sandbox", "x-k8s" };
    static const char *const fields[][2] = {
        { "x-inspect_k8s_sandbox.automount_service_account_token",
          "x-k8s.automount_service_account_token" },
        { "x-inspect_k8s_sandbox.service_account_name", "x-k8s.service_account_name" },
    };
    bool token = id == SL_SETTING_SERVICE_ACCOUNT_TOKEN;
    for (size_t b = 0; b < 2; b++) {
        const char *const path[] = {
            blocks[b], token ? "automount_service_account_token" : "service_account_name",
            NULL };
        const struct sl_node *key, *node;
        size_t depth;
        if (!find(service, view, path, &key, &node, &depth))
            continue;
        if (fill->setting.key == NULL)
            fill->setting.key = key;
        const char *field = fields[token ? 0 : 1][b];
        struct sl_value *value = new_value(fill, depth,
                                           token ? SL_FORM_FLAG : SL_FORM_SCALAR, field,
                                           key);
        value->label = field;
        if (token)
            flag_value(fill, value, node);
        else if (take_text(value, node) && !resolve(fill, value) && interpolated(value))
            templated(value);
    }
}

struct list_walk {
    struct model_fill *fill;
    int id;
    const char *field;
};

static void list_entry(size_t depth, const struct sl_node *where,
                       const struct sl_node *entry, void *data)
{
    struct list_walk *walk = data;
    const struct sl_node *scalar = entry;
    if (walk->id == SL_SETTING_DEVICES && entry->kind == SL_NODE_MAPPING) {
        /* The long syntax: its source is the host device. */
        scalar = model_mapping_get(entry, "source", 6, NULL);
        if (scalar != NULL && scalar->kind == SL_NODE_SCALAR && scalar->null_value)
            return;     /* an empty source is no setting */
        if (scalar == NULL || scalar->kind != SL_NODE_SCALAR)
            scalar = entry;
    }
    if (walk->id == SL_SETTING_GPUS && entry->kind == SL_NODE_MAPPING) {
        /* A device request (driver, count, device_ids...). */
        struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY, walk->field,
                                           where);
        device_request_text(walk->fill, value, entry);
        return;
    }
    struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY, walk->field, where);
    if (!take_text(value, scalar))
        return;
    resolve(walk->fill, value);
    if (interpolated(value)) {
        templated(value);
    } else if (walk->id == SL_SETTING_CAP_ADD || walk->id == SL_SETTING_CAP_DROP) {
        model_parse_capability(walk->fill, value);
    } else if (walk->id == SL_SETTING_DEVICES) {
        const char *colon = memchr(value->text, ':', value->text_length);
        if (colon != NULL)
            value->parsed_length = (size_t)(colon - value->text);
    }
}

static void fill_list(struct model_fill *fill, struct compose_service *service, int view,
                      int id, const char *name)
{
    struct list_walk walk = { fill, id, name };
    const struct sl_node *key = NULL;
    each_entry(service, view, name, &key, list_entry, &walk);
    fill->setting.key = key;
}

/* A list under build (build.entitlements). */
static void fill_build_list(struct model_fill *fill, struct compose_service *service,
                            int view, int id, const char *name, const char *field)
{
    static const char *const build_path[] = { "build", NULL };
    const struct sl_node *key, *build;
    size_t depth;
    if (!find(service, view, build_path, &key, &build, &depth) ||
        build->kind != SL_NODE_MAPPING)
        return;
    struct list_walk walk = { fill, id, field };
    const struct sl_node *list_key = NULL;
    compose_written_list(build, name, &list_key, list_entry, &walk);
    for (size_t i = 0; i < fill->count; i++)
        fill->values[i].origin = depth == 0 ? SL_ORIGIN_OWN : SL_ORIGIN_BASE;
    fill->setting.key = list_key;
}

/* ------------------------------------------------------------------ */
/* security_opt                                                        */
/* ------------------------------------------------------------------ */

/* The engine's security options and the settings they hold. */
static const struct {
    const char *option;
    int id;
} security_options[] = {
    { "seccomp", SL_SETTING_SECCOMP },
    { "apparmor", SL_SETTING_APPARMOR },
    { "label", SL_SETTING_SELINUX },
    { "systempaths", SL_SETTING_SYSTEM_PATHS },
    { "no-new-privileges", SL_SETTING_NO_NEW_PRIVILEGES },
};

/* Which setting a security_opt entry (a scalar) holds, and the part after
 * its name (the first ':' or '=').  An interpolated name, or one the engine
 * does not know, is SL_SETTING_SECURITY_OTHER. */
static int security_option(const char *text, size_t length, const char **option_value,
                           size_t *option_value_length)
{
    static const char nnp[] = "no-new-privileges";
    *option_value = NULL;
    *option_value_length = 0;
    if (text_equals(text, length, nnp))
        return SL_SETTING_NO_NEW_PRIVILEGES;
    size_t split = 0;
    while (split < length && text[split] != ':' && text[split] != '=')
        split++;
    if (split == length)
        return SL_SETTING_SECURITY_OTHER;
    for (size_t i = 0; i < sizeof(security_options) / sizeof(*security_options); i++)
        if (text_equals(text, split, security_options[i].option)) {
            *option_value = text + split + 1;
            *option_value_length = length - split - 1;
            return security_options[i].id;
        }
    return SL_SETTING_SECURITY_OTHER;
}

/* What an option's value means for the setting it holds. */
static int security_meaning(int id, const char *text, size_t length)
{
    switch (id) {
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
        return text_equals(text, length, "unconfined") ? SL_CONFINEMENT_OFF
                                                       : SL_CONFINEMENT_CUSTOM;
    case SL_SETTING_SELINUX:
        return text_equals(text, length, "disable") ||
                       text_equals(text, length, "type:spc_t") ||
                       text_equals(text, length, "type:unconfined_t")
                   ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_OTHER;
    case SL_SETTING_SYSTEM_PATHS:
        return text_equals(text, length, "unconfined") ? SL_CONFINEMENT_OFF
                                                       : SL_CONFINEMENT_OTHER;
    case SL_SETTING_NO_NEW_PRIVILEGES:
        /* Docker reads the value as Go's ParseBool; anything but true lets
         * processes gain privileges. */
        return compose_parse_bool(text, length) == 1;
    default:
        return 0;
    }
}

struct security_walk {
    struct model_fill *fill;
    int id;
    bool effective;
    bool decided;               /* effective: a literal value is kept */
    size_t decided_depth;
    size_t decided_index;       /* its place in fill->values */
};

/* Drops the value at index of the fill (a literal one a later entry
 * overrides). */
static void drop_value(struct model_fill *fill, size_t index)
{
    memmove(&fill->values[index], &fill->values[index + 1],
            (fill->count - index - 1) * sizeof(*fill->values));
    fill->count--;
}

static void security_entry(size_t depth, const struct sl_node *where,
                           const struct sl_node *entry, void *data)
{
    struct security_walk *walk = data;
    int id = SL_SETTING_SECURITY_OTHER;
    const char *option_value = NULL;
    size_t option_value_length = 0;
    /* An interpolated entry that resolves is read, and routed to its
     * setting, as it resolves ("${OPT:-seccomp=unconfined}"). */
    const char *resolved = NULL, *from = NULL;
    size_t resolved_length = 0;
    bool literal = false;
    if (entry->kind == SL_NODE_SCALAR) {
        const char *text = entry->u.scalar.text;
        size_t length = entry->u.scalar.length;
        literal = !compose_has_interpolation(text, length);
        if (!literal && resolve_text(walk->fill, text, length, &resolved, &resolved_length,
                                     &from)) {
            text = resolved;
            length = resolved_length;
            literal = true;
        }
        id = security_option(text, length, &option_value, &option_value_length);
    }
    if (id != walk->id)
        return;
    if (walk->effective && literal) {
        /* Docker reads the items in order and the later wins; of merged
         * lists, the nearest service's own items win. */
        if (walk->decided && depth > walk->decided_depth)
            return;
        if (walk->decided)
            drop_value(walk->fill, walk->decided_index);
    }
    struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY, "security_opt",
                                       where);
    if (!take_text(value, entry))
        return;
    if (resolved != NULL) {
        value->written = value->text;
        value->written_length = value->text_length;
        value->text = value->parsed = resolved;
        value->text_length = value->parsed_length = resolved_length;
        value->flags |= SL_VALUE_RESOLVED;
        value->resolved_from = from;
        value->resolved_from_length = strlen(from);
    }
    if (!literal) {
        templated(value);
        return;
    }
    if (id == SL_SETTING_NO_NEW_PRIVILEGES && option_value == NULL)
        value->meaning = 1;
    else
        value->meaning = security_meaning(id, option_value, option_value_length);
    if (option_value != NULL) {
        value->parsed = option_value;
        value->parsed_length = option_value_length;
    }
    if (walk->effective) {
        walk->decided = true;
        walk->decided_depth = depth;
        walk->decided_index = walk->fill->count - 1;
    }
}

static void fill_security(struct model_fill *fill, struct compose_service *service,
                          int view, int id)
{
    struct security_walk walk = { fill, id, view == SL_VIEW_EFFECTIVE, false, 0, 0 };
    const struct sl_node *key = NULL;
    each_entry(service, view, "security_opt", &key, security_entry, &walk);
    /* The list holds the setting even when it lacks it. */
    fill->setting.key = key;
}

/* ------------------------------------------------------------------ */
/* user, limits, namespaces                                            */
/* ------------------------------------------------------------------ */

static void fill_user(struct model_fill *fill, struct compose_service *service, int view)
{
    static const char *const path[] = { "user", NULL };
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    if (node->kind == SL_NODE_SCALAR && node->u.scalar.length == 0)
        return;     /* user: "" sets no user */
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, depth, SL_FORM_SCALAR, "user", key);
    if (!take_text(value, node))
        return;
    resolve(fill, value);
    if (interpolated(value))
        templated(value);
    else
        value->meaning = compose_user_is_root(value->text, value->text_length)
                             ? SL_USER_ROOT : SL_USER_NON_ROOT;
}

/* One place a limit can be set. */
struct limit_source {
    const char *const *path;
    const char *field;
    enum compose_number_form form;
};

static const char *const pids_limit_path[] = { "pids_limit", NULL };
static const char *const deploy_pids_path[] = { "deploy", "resources", "limits",
                                                "pids", NULL };
static const char *const mem_limit_path[] = { "mem_limit", NULL };
static const char *const deploy_memory_path[] = { "deploy", "resources", "limits",
                                                  "memory", NULL };
static const char *const cpus_path[] = { "cpus", NULL };
static const char *const cpu_quota_path[] = { "cpu_quota", NULL };
static const char *const deploy_cpus_path[] = { "deploy", "resources", "limits",
                                                "cpus", NULL };

static const struct limit_source pids_sources[] = {
    { pids_limit_path, "pids_limit", COMPOSE_INTEGER },
    { deploy_pids_path, "deploy.resources.limits.pids", COMPOSE_INTEGER },
    { NULL, NULL, COMPOSE_INTEGER },
};
static const struct limit_source memory_sources[] = {
    { mem_limit_path, "mem_limit", COMPOSE_BYTES },
    { deploy_memory_path, "deploy.resources.limits.memory", COMPOSE_BYTES },
    { NULL, NULL, COMPOSE_BYTES },
};
static const struct limit_source cpu_sources[] = {
    { cpus_path, "cpus", COMPOSE_DECIMAL },
    { cpu_quota_path, "cpu_quota", COMPOSE_INTEGER },
    { deploy_cpus_path, "deploy.resources.limits.cpus", COMPOSE_DECIMAL },
    { NULL, NULL, COMPOSE_DECIMAL },
};

static void fill_limit(struct model_fill *fill, struct compose_service *service, int view,
                       const struct limit_source *sources)
{
    for (const struct limit_source *source = sources; source->path != NULL; source++) {
        const struct sl_node *key, *node;
        size_t depth;
        if (!find(service, view, source->path, &key, &node, &depth))
            continue;
        if (fill->setting.key == NULL)
            fill->setting.key = key;
        struct sl_value *value = new_value(fill, depth, SL_FORM_SCALAR, source->field, key);
        if (!take_text(value, node))
            continue;
        resolve(fill, value);
        if (interpolated(value))
            templated(value);
        else
            value->meaning = compose_limit(value->text, value->text_length, source->form,
                                           &value->number);
    }
}

/* The namespaces a container: value may join (network_mode, pid, ipc). */
static bool joins_containers(int id)
{
    return id == SL_SETTING_NETWORK_NAMESPACE || id == SL_SETTING_PID_NAMESPACE ||
           id == SL_SETTING_IPC_NAMESPACE;
}

/* The name of the service of this document whose container_name is name
 * (length bytes), or NULL. */
static const struct sl_node *container_owner(const struct sl_node *services,
                                             const char *name, size_t length)
{
    if (length == 0 || compose_has_interpolation(name, length) ||
        services == NULL || services->kind != SL_NODE_MAPPING)
        return NULL;
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct model_pair *pair = &services->u.mapping.pairs[i];
        const struct sl_node *container =
            model_mapping_get(pair->value, "container_name", 14, NULL);
        if (container != NULL && container->kind == SL_NODE_SCALAR &&
            !container->null_value && container->u.scalar.length == length &&
            memcmp(container->u.scalar.text, name, length) == 0 &&
            pair->key->kind == SL_NODE_SCALAR)
            return pair->key;
    }
    return NULL;
}

static void fill_namespace(struct model_fill *fill, struct compose_service *service,
                           int view, int id, const char *field)
{
    const char *const path[] = { field, NULL };
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, depth, SL_FORM_SCALAR, field, key);
    if (!take_text(value, node))
        return;
    static const char container[] = "container:";
    /* container:NAME and service:NAME are judged as written (the key keeps
     * an interpolated NAME); anything else that is interpolated is read as
     * it resolves, if it does. */
    if (!(joins_containers(id) && starts_with(value->text, value->text_length, container)) &&
        !starts_with(value->text, value->text_length, "service:"))
        resolve(fill, value);
    if (text_equals(value->text, value->text_length, "host")) {
        value->meaning = SL_NAMESPACE_HOST;
    } else if (joins_containers(id) &&
               starts_with(value->text, value->text_length, container)) {
        /* Joined by name even when the name is interpolated. */
        const size_t prefix = sizeof(container) - 1;
        const struct sl_node *owner = container_owner(
            service->services, value->text + prefix, value->text_length - prefix);
        value->meaning = SL_NAMESPACE_CONTAINER;
        if (owner != NULL) {
            value->peer = owner->u.scalar.text;
            value->peer_length = owner->u.scalar.length;
        }
    } else if (starts_with(value->text, value->text_length, "service:")) {
        value->meaning = SL_NAMESPACE_SERVICE;
    } else if (interpolated(value)) {
        templated(value);
    } else {
        value->meaning = SL_NAMESPACE_PRIVATE;
    }
}

/* ------------------------------------------------------------------ */
/* networks: the engine's network named host                          */
/* ------------------------------------------------------------------ */

/* The networks a service joins run it in the engine network their
 * top-level definition names (its name, else the key of an external one,
 * else PROJECT_KEY), and Docker Compose hands the first of them to the
 * engine as the container's network mode: the network named host is the
 * host's network stack, as network_mode host is (SPEC §13).  The values
 * are entries of SL_SETTING_NETWORK_NAMESPACE: text the network's key as
 * the service names it, parsed the engine network's name. */
struct network_walk {
    struct model_fill *fill;
    const struct compose_service *service;
    const char *label;          /* "networks", or "the default network" */
};

/* The value of network key (length bytes) of the service, at where; only
 * one the engine's host network or an unknown name makes a value. */
static void network_value(struct network_walk *walk, size_t depth,
                          const struct sl_node *where, const char *network, size_t length)
{
    const struct sl_node *networks = model_mapping_get(walk->service->root, "networks", 8,
                                                       NULL);
    if (networks == NULL || networks->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *definition = model_mapping_get(networks, network, length, NULL);
    if (definition == NULL || definition->kind != SL_NODE_MAPPING)
        return;     /* undeclared (Compose refuses it) or PROJECT_KEY */
    const struct sl_node *name_node = model_mapping_get(definition, "name", 4, NULL);
    const struct sl_node *external = model_mapping_get(definition, "external", 8, NULL);
    if (compose_node_empty(name_node) && external != NULL &&
        external->kind == SL_NODE_MAPPING)
        name_node = model_mapping_get(external, "name", 4, NULL);   /* external.name */
    const char *name = NULL;
    size_t name_length = 0;
    const struct sl_node *deciding = name_node;
    if (!compose_node_empty(name_node)) {
        name = compose_setting_text(name_node, &name_length);
        if (name == NULL)
            return;     /* not a scalar: Compose refuses it */
    } else {
        /* No name: an external network is called by its key. */
        deciding = external;
        if (text_equals(network, length, "host") && external != NULL &&
            external->kind == SL_NODE_SCALAR && !external->null_value) {
            name = external->u.scalar.text;
            name_length = external->u.scalar.length;
        }
        if (name == NULL)
            return;
    }
    /* The value is keyed by the network's key, which is literal: how its
     * name resolved is not what the key says, so it is not marked
     * resolved. */
    const char *text = name, *from;
    size_t text_length = name_length;
    if (compose_has_interpolation(name, name_length)) {
        if (!resolve_text(walk->fill, name, name_length, &text, &text_length, &from)) {
            /* Which network the engine is handed cannot be known. */
            struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY,
                                               "networks", deciding);
            value->text = name;
            value->text_length = name_length;
            templated(value);
            return;
        }
    }
    bool host = deciding == external ? compose_text_truthy(text, text_length) == 1
                                     : text_equals(text, text_length, "host");
    if (!host)
        return;
    struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY, "networks", where);
    value->label = walk->label;
    value->text = network;
    value->text_length = length;
    value->parsed = "host";
    value->parsed_length = 4;
    value->meaning = SL_NAMESPACE_HOST;
}

/* A networks entry of the service: a key of the list, or the mapping of
 * the long syntax (its keys). */
static void network_entry(size_t depth, const struct sl_node *where,
                          const struct sl_node *entry, void *data)
{
    struct network_walk *walk = data;
    if (entry->kind == SL_NODE_MAPPING) {
        for (size_t i = 0; i < entry->u.mapping.count; i++) {
            const struct sl_node *key = entry->u.mapping.pairs[i].key;
            if (key->kind == SL_NODE_SCALAR)
                network_value(walk, depth, key, key->u.scalar.text, key->u.scalar.length);
        }
        return;
    }
    if (entry->kind != SL_NODE_SCALAR || entry->null_value)
        return;
    const char *network = entry->u.scalar.text, *from;
    size_t length = entry->u.scalar.length;
    if (compose_has_interpolation(network, length) &&
        !resolve_text(walk->fill, network, length, &network, &length, &from)) {
        struct sl_value *value = new_value(walk->fill, depth, SL_FORM_ENTRY, "networks",
                                           where);
        take_text(value, entry);
        templated(value);
        return;
    }
    network_value(walk, depth, where, network, length);
}

static void fill_networks(struct model_fill *fill, struct compose_service *service,
                          int view)
{
    if (service->services == service->root)
        return;     /* the legacy format has no top-level networks */
    struct network_walk walk = { fill, service, "networks" };
    const struct sl_node *key = NULL;
    each_entry(service, view, "networks", &key, network_entry, &walk);
    if (fill->setting.key == NULL)
        fill->setting.key = key;
    /* A service that names neither a network_mode nor networks (as it
     * runs, after extends) joins the project's network default. */
    static const char *const mode_path[] = { "network_mode", NULL };
    static const char *const networks_path[] = { "networks", NULL };
    const struct sl_node *found_key, *found;
    size_t depth;
    const struct compose_chain *chain = chain_of(service);
    if (compose_chain_setting(chain, mode_path, &found_key, &found, &depth) !=
            COMPOSE_PRESENT &&
        compose_chain_setting(chain, networks_path, &found_key, &found, &depth) !=
            COMPOSE_PRESENT) {
        walk.label = "the default network";
        network_value(&walk, 0, fill->scope->public.node, "default", 7);
    }
}

/* ------------------------------------------------------------------ */
/* ports                                                               */
/* ------------------------------------------------------------------ */

/* A short-syntax item: published on every interface unless a host IP is
 * written.  An interpolation where the host IP is, or could be (a host
 * port or a lone item may expand to IP:PORT), cannot be checked. */
static void short_port(struct sl_value *value)
{
    struct compose_port port;
    compose_port_split(value->text, value->text_length, &port);
    const char *deciding = port.ip != NULL ? port.ip
                           : port.host != NULL ? port.host : port.container;
    size_t deciding_length = port.ip != NULL ? port.ip_length
                             : port.host != NULL ? port.host_length
                                                 : port.container_length;
    if (compose_has_interpolation(deciding, deciding_length)) {
        templated(value);
        return;
    }
    value->meaning = port.ip != NULL && !compose_every_interface(port.ip, port.ip_length)
                         ? SL_PORT_ONE_ADDRESS : SL_PORT_EVERY_INTERFACE;
    if (port.host != NULL && !compose_has_interpolation(port.host, port.host_length))
        value->number = (double)compose_port_number(port.host, port.host_length);
}

/* The text of a field of a mapping that holds a setting, or NULL. */
static const char *field_text(const struct sl_node *mapping, const char *name,
                              size_t *length)
{
    return compose_setting_text(model_mapping_get(mapping, name, strlen(name), NULL),
                                length);
}

/* A long-syntax item {target, published, host_ip, protocol}: its text is
 * the short syntax it stands for, [HOST_IP:][PUBLISHED:]TARGET[/PROTOCOL]
 * from its fields as written. */
static void long_port(struct model_fill *fill, struct sl_value *value,
                      const struct sl_node *item)
{
    size_t ip_length, published_length, target_length, protocol_length;
    const struct sl_node *ip_node = model_mapping_get(item, "host_ip", 7, NULL);
    const char *ip = field_text(item, "host_ip", &ip_length);
    const char *published = field_text(item, "published", &published_length);
    const char *target = field_text(item, "target", &target_length);
    const char *protocol = field_text(item, "protocol", &protocol_length);
    if (target == NULL) {
        value->text = "<mapping>";
        value->text_length = strlen(value->text);
    } else {
        char *text = xasprintf("%.*s%s%.*s%s%.*s%s%.*s",
                               (int)ip_length, ip != NULL ? ip : "", ip != NULL ? ":" : "",
                               (int)published_length, published != NULL ? published : "",
                               ip != NULL || published != NULL ? ":" : "",
                               (int)target_length, target, protocol != NULL ? "/" : "",
                               (int)protocol_length, protocol != NULL ? protocol : "");
        value->text_length = strlen(text);
        value->text = model_group_strndup(fill->scope->group, text, value->text_length);
        free(text);
    }
    value->parsed = value->text;
    value->parsed_length = value->text_length;
    if (!compose_node_empty(ip_node) && ip_node->kind != SL_NODE_SCALAR) {
        value->state = SL_VALUE_UNCHECKABLE;
        value->flags |= SL_VALUE_IN_PART;
        value->text = collection_text(ip_node);
        value->text_length = strlen(value->text);
        value->parsed = NULL;
        value->parsed_length = 0;
        return;
    }
    if (ip != NULL && compose_has_interpolation(ip, ip_length)) {
        templated(value);
        return;
    }
    value->meaning = ip != NULL && !compose_every_interface(ip, ip_length)
                         ? SL_PORT_ONE_ADDRESS : SL_PORT_EVERY_INTERFACE;
    if (published != NULL && !compose_has_interpolation(published, published_length))
        value->number = (double)compose_port_number(published, published_length);
}

/* Why an item of ports is not one the engine accepts, or NULL: a short
 * item it cannot parse, or a long one whose published port is not a port
 * ('127.0.0.1:8080': the address belongs in host_ip).  Such an item is a
 * structure warning (compose_port_warnings), never a published port. */
static const char *port_problem(const struct sl_node *entry)
{
    if (entry->kind == SL_NODE_SCALAR && !entry->null_value)
        return compose_port_problem(entry->u.scalar.text, entry->u.scalar.length);
    if (entry->kind != SL_NODE_MAPPING)
        return NULL;
    size_t length;
    const char *published = field_text(entry, "published", &length);
    if (published == NULL || compose_published_valid(published, length))
        return NULL;
    return memchr(published, ':', length) != NULL
               ? "its published port holds a host address (the engine rejects it: "
                 "the address belongs in host_ip)"
               : "its published port is not a port or a range";
}

static void port_entry(size_t depth, const struct sl_node *where,
                       const struct sl_node *entry, void *data)
{
    struct model_fill *fill = data;
    if (compose_node_empty(entry) || port_problem(entry) != NULL)
        return;
    struct sl_value *value = new_value(fill, depth, SL_FORM_ENTRY, "ports", where);
    if (entry->kind == SL_NODE_MAPPING)
        long_port(fill, value, entry);
    else if (take_text(value, entry)) {
        resolve(fill, value);
        short_port(value);
    }
}

static void fill_ports(struct model_fill *fill, struct compose_service *service, int view)
{
    const struct sl_node *key = NULL;
    each_entry(service, view, "ports", &key, port_entry, fill);
    fill->setting.key = key;
}

/* ------------------------------------------------------------------ */
/* runtime, mounts                                                     */
/* ------------------------------------------------------------------ */

static void fill_scalar(struct model_fill *fill, struct compose_service *service, int view,
                        const char *field)
{
    const char *const path[] = { field, NULL };
    const struct sl_node *key, *node;
    size_t depth;
    if (!find(service, view, path, &key, &node, &depth))
        return;
    fill->setting.key = key;
    struct sl_value *value = new_value(fill, depth, SL_FORM_SCALAR, field, key);
    if (take_text(value, node) && !resolve(fill, value) && interpolated(value))
        templated(value);
}

/* Volume items resolved while a service's mounts are walked: the last
 * one, so that the value made of its mount can say how it was written. */
struct mount_resolving {
    struct model_fill *fill;    /* the scope's fill: its group keeps texts */
    const char *resolved;       /* the last item resolved, as resolved */
    size_t resolved_length;
    const char *written;        /* and as written */
    size_t written_length;
    const char *from;
};

static bool resolve_mount_item(void *data, const char *text, size_t length,
                               const char **resolved, size_t *resolved_length)
{
    struct mount_resolving *resolving = data;
    const char *from;
    if (!resolve_text(resolving->fill, text, length, resolved, resolved_length, &from))
        return false;
    resolving->resolved = *resolved;
    resolving->resolved_length = *resolved_length;
    resolving->written = text;
    resolving->written_length = length;
    resolving->from = from;
    return true;
}

/* One mount as a value of SL_SETTING_MOUNTS; a host mount whose source
 * lies in the item resolved last is that resolved value. */
static int mount_value(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    struct mount_resolving *resolving = data;
    model_fill_mount(resolving->fill, mount, SL_TEMPLATE_INTERPOLATION);
    if (resolving->resolved != NULL && mount->kind == SL_MOUNT_HOST_PATH &&
        mount->value >= resolving->resolved &&
        mount->value < resolving->resolved + resolving->resolved_length) {
        struct sl_value *value = &resolving->fill->values[resolving->fill->count - 1];
        value->written = resolving->written;
        value->written_length = resolving->written_length;
        value->flags |= SL_VALUE_RESOLVED;
        value->resolved_from = resolving->from;
        value->resolved_from_length = strlen(resolving->from);
    }
    resolving->resolved = NULL;
    return SL_OK;
}

/* The walk for rules (sl_scope_mounts): interpolated items resolved as in
 * the values (the texts live in the scope's group). */
static int service_mounts(const struct model_scope *scope, struct sl_context *ctx,
                          size_t mount_size, sl_mount_fn visit, void *data,
                          const char **problem)
{
    const struct compose_service *service = scope->data;
    struct model_fill fill = { (struct model_scope *)scope, { 0 }, NULL, 0, 0 };
    struct mount_resolving resolving = { &fill, NULL, 0, NULL, 0, NULL };
    struct host_mount_resolver resolver = { resolve_mount_item, &resolving };
    return host_mounts_each_resolved(ctx, service->root, service->mapping, mount_size,
                                     visit, data, &resolver, problem);
}

static void fill_mounts(struct model_fill *fill, struct compose_service *service)
{
    const char *problem;
    struct mount_resolving resolving = { fill, NULL, 0, NULL, 0, NULL };
    struct host_mount_resolver resolver = { resolve_mount_item, &resolving };
    host_mounts_each_resolved(NULL, service->root, service->mapping,
                              sizeof(struct sl_mount), mount_value, &resolving, &resolver,
                              &problem);
}

/* ------------------------------------------------------------------ */
/* the reader                                                          */
/* ------------------------------------------------------------------ */

static void fill_setting(struct model_fill *fill, const struct model_scope *scope,
                         int view, int id)
{
    static const char *const privileged_path[] = { "privileged", NULL };
    static const char *const api_socket_path[] = { "use_api_socket", NULL };
    static const char *const read_only_path[] = { "read_only", NULL };
    static const char *const build_privileged_path[] = { "build", "privileged", NULL };
    struct compose_service *service = (struct compose_service *)scope->data;
    const struct setting_words *named = words_of(id);
    if (named == NULL) {
        /* No such setting in Compose: runAsNonRoot, service accounts. */
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    fill->setting.field = named->field;
    fill->setting.label = named->label;
    fill->setting.hint = named->hint;
    switch (id) {
    case SL_SETTING_PRIVILEGED:
        fill_flag(fill, service, view, privileged_path, named->field);
        break;
    case SL_SETTING_API_SOCKET:
        fill_flag(fill, service, view, api_socket_path, named->field);
        break;
    case SL_SETTING_READ_ONLY_ROOT:
        fill_flag(fill, service, view, read_only_path, named->field);
        break;
    case SL_SETTING_BUILD_PRIVILEGED:
        fill_flag(fill, service, view, build_privileged_path, named->field);
        break;
    case SL_SETTING_CAP_ADD:
    case SL_SETTING_CAP_DROP:
    case SL_SETTING_DEVICES:
    case SL_SETTING_DEVICE_CGROUP_RULES:
        fill_list(fill, service, view, id, named->field);
        break;
    case SL_SETTING_GPUS:
        fill_list(fill, service, view, id, named->field);
        fill_device_reservations(fill, service, view);
        break;
    case SL_SETTING_BUILD_ENTITLEMENTS:
        fill_build_list(fill, service, view, id, "entitlements", named->field);
        break;
    case SL_SETTING_BUILD_NETWORK:
        fill_build_network(fill, service, view, named->field);
        break;
    case SL_SETTING_SERVICE_ACCOUNT_TOKEN:
    case SL_SETTING_SERVICE_ACCOUNT_NAME:
        fill_k8s_extension(fill, service, view, id);
        break;
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
    case SL_SETTING_SELINUX:
    case SL_SETTING_SYSTEM_PATHS:
    case SL_SETTING_SECURITY_OTHER:
    case SL_SETTING_NO_NEW_PRIVILEGES:
        fill_security(fill, service, view, id);
        break;
    case SL_SETTING_USER:
        fill_user(fill, service, view);
        break;
    case SL_SETTING_PIDS_LIMIT:
        fill_limit(fill, service, view, pids_sources);
        break;
    case SL_SETTING_MEMORY_LIMIT:
        fill_limit(fill, service, view, memory_sources);
        break;
    case SL_SETTING_CPU_LIMIT:
        fill_limit(fill, service, view, cpu_sources);
        break;
    case SL_SETTING_NETWORK_NAMESPACE:
    case SL_SETTING_PID_NAMESPACE:
    case SL_SETTING_IPC_NAMESPACE:
    case SL_SETTING_UTS_NAMESPACE:
    case SL_SETTING_USER_NAMESPACE:
    case SL_SETTING_CGROUP_NAMESPACE:
        fill_namespace(fill, service, view, id, named->field);
        if (id == SL_SETTING_NETWORK_NAMESPACE)
            fill_networks(fill, service, view);
        break;
    case SL_SETTING_PORTS:
        fill_ports(fill, service, view);
        break;
    case SL_SETTING_RUNTIME:
        fill_scalar(fill, service, view, named->field);
        break;
    case SL_SETTING_MOUNTS:
        /* The service's own mounts; what it extends is checked there. */
        fill_mounts(fill, service);
        break;
    default:
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    /* A base in another file may set what the chain lacks. */
    if (view == SL_VIEW_EFFECTIVE && fill->setting.state == SL_SETTING_ABSENT &&
        chain_of(service)->external != NULL) {
        fill->setting.state = SL_SETTING_UNSEEN;
        fill->setting.unseen = service->chain.external;
        fill->setting.unseen_length = service->chain.external_length;
    }
}

static const struct model_reader service_reader = { fill_setting, service_mounts };

/* ------------------------------------------------------------------ */
/* the document                                                        */
/* ------------------------------------------------------------------ */

/* A structure warning for each ports item the service writes that is not
 * a valid port (SPEC §13): never read as a published port. */
static void port_warnings(struct model_reading *reading, const struct sl_node *service)
{
    const struct sl_node *ports = model_mapping_get(service, "ports", 5, NULL);
    if (ports == NULL || ports->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < ports->u.sequence.count; i++) {
        const struct sl_node *entry = ports->u.sequence.items[i];
        const char *problem = port_problem(entry);
        if (problem == NULL)
            continue;
        const char *text = entry->kind == SL_NODE_SCALAR ? entry->u.scalar.text : NULL;
        size_t length = entry->kind == SL_NODE_SCALAR ? entry->u.scalar.length : 0;
        if (text == NULL)
            text = field_text(entry, "published", &length);
        /* Quoted as rules quote values: at most 160 bytes. */
        char *message = xasprintf("ports item '%.*s%s' is not a valid port: %s",
                                  (int)(length > 160 ? 160 : length), text,
                                  length > 160 ? "..." : "", problem);
        model_emit_warning(reading, entry, message);
        free(message);
    }
}

/* One service (a mapping under a scalar key): its step for rules of ABI
 * 1.0-1.2, then its container scope. */
static void read_service(struct model_reading *reading, const struct sl_node *services,
                         const struct model_pair *pair)
{
    if (!model_service_pair(reading, pair))
        return;
    const char *name = pair->key->u.scalar.text;
    size_t name_length = pair->key->u.scalar.length;
    model_emit_service(reading, SL_KIND_COMPOSE, name, name_length, pair->key,
                       pair->value);
    port_warnings(reading, pair->value);
    struct model_group group;
    model_group_init(&group);
    struct compose_service *service = model_group_alloc(&group, sizeof(*service));
    service->root = reading->root;
    service->services = services;
    service->mapping = pair->value;
    service->project = reading->file->compose_project;
    struct model_scope_spec spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = SL_KIND_COMPOSE,
        .service = name, .service_length = name_length,
        .name = name, .name_length = name_length, .noun = "service",
        .node = pair->key, .mapping = pair->value,
        .reader = &service_reader, .data = service,
    };
    model_emit_scope(reading, model_scope_new(&group, &spec));
    model_group_release(&group);
}

/* Whether a top-level mapping is a service of the legacy format 1 (no
 * services: key; every top-level mapping with image or build is one, but
 * for x- extension fields). */
static bool is_legacy_service(const struct model_pair *pair)
{
    return pair->key->kind == SL_NODE_SCALAR && pair->value->kind == SL_NODE_MAPPING &&
           strncmp(pair->key->u.scalar.text, "x-", 2) != 0 &&
           (model_mapping_get(pair->value, "image", 5, NULL) != NULL ||
            model_mapping_get(pair->value, "build", 5, NULL) != NULL);
}

void compose_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (model_is_null(root))
        return;     /* an empty document holds no settings */
    if (root->kind != SL_NODE_MAPPING) {
        model_emit_warning(reading, root, "expected a mapping of services");
        return;
    }
    const struct sl_node *services = model_mapping_get(root, "services", 8, NULL);
    /* Not Compose is never a silent pass (SPEC §4): said once per file. */
    const struct sl_node *sign = file_kind_kubernetes_sign(root);
    if (sign != NULL) {
        if (!reading->file->not_compose_reported)
            model_emit_warning(reading, sign, "not a Compose file (Kubernetes: a "
                               "manifest or a Helm values file) and not checked");
        reading->file->not_compose_reported = true;
        return;
    }
    model_emit_document(reading, SL_KIND_COMPOSE, root);
    if (services == NULL) {
        /* The legacy format 1: the services are at the top level. */
        bool warned = false;
        for (size_t i = 0; i < root->u.mapping.count; i++) {
            const struct model_pair *pair = &root->u.mapping.pairs[i];
            if (!is_legacy_service(pair))
                continue;
            if (!warned)
                model_emit_warning(reading, pair->key, "legacy Compose file format "
                                   "without 'services'; its top-level services are "
                                   "checked");
            warned = true;
            read_service(reading, root, pair);
        }
        return;
    }
    if (model_is_null(services))
        return;
    if (services->kind != SL_NODE_MAPPING) {
        model_emit_warning(reading, services, "expected a mapping of services");
        return;
    }
    for (size_t i = 0; i < services->u.mapping.count; i++)
        read_service(reading, services, &services->u.mapping.pairs[i]);
}
