/* devcontainer_front.c - the dev container front-end (see devcontainer_front.h). */
#include "config.h"

#include "devcontainer_front.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "compose_syntax.h"
#include "engine_command.h"
#include "engine_flags.h"
#include "host_mounts.h"
#include "sized_out.h"
#include "xalloc.h"
#include "yaml_model.h"

/* One value of a setting, read when the document is read. */
struct stored_value {
    int id;
    struct sl_value value;
};

/* What the scope's reader serves: every value and mount, in the order
 * written: the JSON settings (values and mounts before the *_before_run
 * counts), runArgs (the engine command), features. */
struct devcontainer {
    struct stored_value *values;
    size_t value_count, values_before_run;
    struct sl_mount *mounts;
    size_t mount_count, mounts_before_run;
    const struct engine_command *command;   /* runArgs, or NULL */
    const struct sl_node *keys[MODEL_SETTING_LAST + 1];    /* where each is written */
};

/* The document being read into a struct devcontainer. */
struct collect {
    struct model_reading *reading;
    struct model_group *group;
    struct stored_value *values;        /* malloc'd while reading */
    size_t value_count, value_capacity;
    struct sl_mount *mounts;
    size_t mount_count, mount_capacity;
    size_t values_before_run, mounts_before_run;
    struct engine_command *command;     /* runArgs, in the group */
    const struct sl_node *keys[MODEL_SETTING_LAST + 1];
};

static bool text_equals(const char *text, size_t length, const char *word)
{
    return text != NULL && strlen(word) == length && memcmp(text, word, length) == 0;
}

static bool starts_with(const char *text, size_t length, const char *prefix)
{
    size_t prefix_length = strlen(prefix);
    return length >= prefix_length && memcmp(text, prefix, prefix_length) == 0;
}

static const struct sl_node *lookup(const struct sl_node *mapping, const char *key,
                                    const struct sl_node **key_node)
{
    if (key_node != NULL)
        *key_node = NULL;
    if (mapping == NULL || mapping->kind != SL_NODE_MAPPING)
        return NULL;
    return model_mapping_get(mapping, key, strlen(key), key_node);
}

/* Where the first "${" of a dev container variable is (${localEnv:X},
 * ${localWorkspaceFolder}, ${containerEnv:X}...), or length when none is:
 * the CLI replaces them when it opens the container. */
static size_t variable_at(const char *text, size_t length)
{
    for (size_t i = 0; i + 1 < length; i++)
        if (text[i] == '$' && text[i + 1] == '{')
            return i;
    return length;
}

static bool has_variable(const char *text, size_t length)
{
    return text != NULL && variable_at(text, length) < length;
}

static bool is_text(const struct sl_node *node)
{
    return node != NULL && node->kind == SL_NODE_SCALAR && !model_is_null(node);
}

/* ------------------------------------------------------------------ */
/* collecting                                                          */
/* ------------------------------------------------------------------ */

/* A new value of setting id written at node (a finding points there). */
static struct sl_value *add_value(struct collect *collect, int id, int form,
                                  const char *field, const struct sl_node *key,
                                  const struct sl_node *node, const char *text,
                                  size_t length)
{
    if (collect->value_count == collect->value_capacity) {
        collect->value_capacity = collect->value_capacity ? collect->value_capacity * 2 : 16;
        collect->values = xrealloc(collect->values, collect->value_capacity,
                                   sizeof(*collect->values));
    }
    struct stored_value *stored = &collect->values[collect->value_count++];
    memset(stored, 0, sizeof(*stored));
    stored->id = id;
    struct sl_value *value = &stored->value;
    value->struct_size = sizeof(*value);
    value->state = SL_VALUE_SET;
    value->origin = SL_ORIGIN_OWN;
    value->form = form;
    value->field = value->label = field;
    /* A list entry is its own key: a finding that it is wrong points at
     * it (a runArgs word as much as a capAdd item). */
    value->key = form == SL_FORM_ENTRY ? node : key;
    value->node = node;
    value->text = value->parsed = text;
    value->text_length = value->parsed_length = length;
    if (collect->keys[id] == NULL)
        collect->keys[id] = key;
    return value;
}

static void templated(struct sl_value *value)
{
    value->state = SL_VALUE_TEMPLATED;
    value->template_syntax = SL_TEMPLATE_INTERPOLATION;
    value->parsed = NULL;
    value->parsed_length = 0;
}

/* A mapping or a sequence where a scalar belongs. */
static void uncheckable(struct sl_value *value, const struct sl_node *node)
{
    value->state = SL_VALUE_UNCHECKABLE;
    value->text = node->kind == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
    value->text_length = strlen(value->text);
    value->parsed = NULL;
    value->parsed_length = 0;
}

static void add_mount(struct collect *collect, const struct sl_mount *mount)
{
    if (collect->mount_count == collect->mount_capacity) {
        collect->mount_capacity = collect->mount_capacity ? collect->mount_capacity * 2 : 8;
        collect->mounts = xrealloc(collect->mounts, collect->mount_capacity,
                                   sizeof(*collect->mounts));
    }
    collect->mounts[collect->mount_count++] = *mount;
    if (collect->keys[SL_SETTING_MOUNTS] == NULL)
        collect->keys[SL_SETTING_MOUNTS] = mount->node;
}

static void warn(struct collect *collect, const struct sl_node *at, const char *format,
                 const char *detail, size_t detail_length)
{
    char *message = xasprintf(format, (int)detail_length, detail);
    model_emit_warning(collect->reading, at, message);
    free(message);
}

/* A capability as the engine reads it: upper case, without "CAP_". */
static void parse_capability(struct collect *collect, struct sl_value *value)
{
    const char *text = value->text;
    size_t skip = value->text_length > 4 && (text[0] == 'C' || text[0] == 'c') &&
                          (text[1] == 'A' || text[1] == 'a') &&
                          (text[2] == 'P' || text[2] == 'p') && text[3] == '_'
                      ? 4 : 0;
    char *upper = model_group_strndup(collect->group, text + skip, value->text_length - skip);
    for (char *c = upper; *c != '\0'; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    value->parsed = upper;
    value->parsed_length = value->text_length - skip;
}

/* ------------------------------------------------------------------ */
/* values of every syntax                                              */
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

/* A security option (securityOpt item, --security-opt value) as the
 * engine reads it: NAME=VALUE or NAME:VALUE, or no-new-privileges alone. */
static void security_value(struct collect *collect, const char *field,
                           const struct sl_node *key, const struct sl_node *node,
                           const char *text, size_t length, bool interpolated)
{
    int id = SL_SETTING_SECURITY_OTHER;
    size_t split = 0;
    while (split < length && text[split] != ':' && text[split] != '=')
        split++;
    if (!interpolated) {
        if (text_equals(text, length, "no-new-privileges"))
            id = SL_SETTING_NO_NEW_PRIVILEGES;
        for (size_t i = 0; i < sizeof(security_options) / sizeof(*security_options); i++)
            if (split < length && text_equals(text, split, security_options[i].option))
                id = security_options[i].id;
    }
    struct sl_value *value = add_value(collect, id, SL_FORM_ENTRY, field, key, node, text,
                                       length);
    if (interpolated) {
        templated(value);
        return;
    }
    if (split >= length) {
        value->meaning = id == SL_SETTING_NO_NEW_PRIVILEGES;   /* alone: on */
        return;
    }
    const char *option = text + split + 1;
    size_t option_length = length - split - 1;
    value->parsed = option;
    value->parsed_length = option_length;
    switch (id) {
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
        value->meaning = text_equals(option, option_length, "unconfined")
                             ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_CUSTOM;
        break;
    case SL_SETTING_SELINUX:
        value->meaning = text_equals(option, option_length, "disable") ||
                                 text_equals(option, option_length, "type:spc_t") ||
                                 text_equals(option, option_length, "type:unconfined_t")
                             ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_OTHER;
        break;
    case SL_SETTING_SYSTEM_PATHS:
        value->meaning = text_equals(option, option_length, "unconfined")
                             ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_OTHER;
        break;
    case SL_SETTING_NO_NEW_PRIVILEGES:
        value->meaning = compose_parse_bool(option, option_length) == 1;
        break;
    default:
        break;
    }
}

/* Where a host path lies (host_mounts_place_flags), ${localEnv:HOME}
 * and ${localEnv:USERPROFILE} being the home directory as ${HOME} is. */
static unsigned place_flags(const char *source, size_t length)
{
    static const char *const homes[] = { "${localEnv:HOME}", "${localEnv:USERPROFILE}" };
    for (size_t i = 0; i < sizeof(homes) / sizeof(*homes); i++) {
        size_t home = strlen(homes[i]);
        if (!starts_with(source, length, homes[i]))
            continue;
        char *path = xasprintf("${HOME}%.*s", (int)(length - home), source + home);
        unsigned flags = host_mounts_place_flags(path, strlen(path));
        free(path);
        return flags;
    }
    return host_mounts_place_flags(source, length);
}

/* A host mount, as the Compose walk makes one (host_mounts.c). */
static void host_path_mount(struct collect *collect, struct sl_mount *mount,
                            const char *source, size_t source_length)
{
    mount->kind = SL_MOUNT_HOST_PATH;
    mount->source = source;
    mount->source_length = source_length;
    if (source != NULL) {
        mount->value = source;
        mount->value_length = source_length;
        if (has_variable(source, source_length))
            mount->flags |= SL_MOUNT_SOURCE_INTERPOLATED;
        mount->flags |= place_flags(source, source_length);
    } else {
        mount->value = SL_MOUNT_UNSPECIFIED;
        mount->value_length = strlen(SL_MOUNT_UNSPECIFIED);
    }
    if (compose_is_engine_socket(source, source_length, mount->target,
                                 mount->target_length))
        mount->flags |= SL_MOUNT_ENGINE_API;
    add_mount(collect, mount);
}

static void interpolated_mount(struct collect *collect, struct sl_mount *mount,
                               const char *value, size_t value_length, int part,
                               const char *text, size_t text_length)
{
    mount->kind = SL_MOUNT_INTERPOLATED;
    mount->value = value;
    mount->value_length = value_length;
    mount->part = part;
    mount->interpolated = text;
    mount->interpolated_length = text_length;
    add_mount(collect, mount);
}

static void mount_start(struct sl_mount *mount, int syntax, const char *field,
                        const struct sl_node *node)
{
    memset(mount, 0, sizeof(*mount));
    mount->struct_size = sizeof(*mount);
    mount->syntax = syntax;
    mount->field = field;
    mount->node = mount->entry = node;
}

/* A bind or volume mount of type (NULL: not written, the engine's
 * "volume"), read as Compose's long syntax is: a host path without a type
 * can only be bound. */
static void typed_mount(struct collect *collect, struct sl_mount *mount,
                        const char *whole, size_t whole_length, const char *type,
                        size_t type_length, const char *source, size_t source_length)
{
    mount->type = type;
    mount->type_length = type_length;
    if (source != NULL && source_length == 0)
        source = NULL;
    bool bind;
    if (type == NULL) {
        bind = source != NULL &&
               compose_classify_source(source, source_length) == SL_SOURCE_HOST_PATH;
    } else if (has_variable(type, type_length)) {
        interpolated_mount(collect, mount, whole, whole_length, SL_MOUNT_PART_TYPE, type,
                           type_length);
        return;
    } else if (text_equals(type, type_length, "bind") ||
               text_equals(type, type_length, "npipe")) {
        bind = true;
    } else if (text_equals(type, type_length, "volume")) {
        bind = false;
    } else {
        return;     /* tmpfs, image: no host path */
    }
    if (bind && source != NULL &&
        compose_classify_source(source, source_length) == SL_SOURCE_INTERPOLATED) {
        /* The whole source is a variable (${localWorkspaceFolder}). */
        interpolated_mount(collect, mount, whole, whole_length, SL_MOUNT_PART_SOURCE,
                           source, source_length);
        return;
    }
    if (bind) {
        host_path_mount(collect, mount, source, source_length);
        return;
    }
    if (source != NULL && has_variable(source, source_length))
        interpolated_mount(collect, mount, whole, whole_length, SL_MOUNT_PART_SOURCE,
                           source, source_length);
    /* A named volume: the engine's, no host path. */
}

/* A mount in --mount syntax (a mounts string, workspaceMount, --mount). */
static void mount_string(struct collect *collect, const char *field,
                         const struct sl_node *node, const char *text, size_t length)
{
    struct sl_mount mount;
    mount_start(&mount, SL_MOUNT_LONG, field, node);
    char *buffer = model_group_alloc(collect->group, length + 1);
    struct engine_mount parsed;
    engine_mount_parse(text, length, buffer, &parsed);
    if (parsed.malformed) {
        if (has_variable(text, length))
            interpolated_mount(collect, &mount, text, length, SL_MOUNT_PART_ENTRY, text,
                               length);
        else
            warn(collect, node, "mount '%.*s' is not in --mount syntax "
                 "(type=...,source=...,target=...) and cannot be checked", text, length);
        return;
    }
    mount.target = parsed.target.text;
    mount.target_length = parsed.target.length;
    if (parsed.readonly == 1)
        mount.flags |= SL_MOUNT_READ_ONLY;
    typed_mount(collect, &mount, text, length,
                parsed.type_given ? parsed.type.text : NULL,
                parsed.type_given ? parsed.type.length : 0, parsed.source.text,
                parsed.source.length);
}

/* A mounts object {type, source, target}. */
static void mount_object(struct collect *collect, const struct sl_node *item)
{
    struct sl_mount mount;
    mount_start(&mount, SL_MOUNT_LONG, "mounts", item);
    const struct sl_node *type = lookup(item, "type", NULL);
    const struct sl_node *source = lookup(item, "source", NULL);
    const struct sl_node *target = lookup(item, "target", NULL);
    const struct sl_node *odd = type != NULL && type->kind != SL_NODE_SCALAR ? type
                                : source != NULL && source->kind != SL_NODE_SCALAR ? source
                                                                                   : NULL;
    if (odd != NULL) {
        mount.kind = SL_MOUNT_UNSUPPORTED;
        mount.entry = odd;
        mount.value = odd->kind == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
        mount.value_length = strlen(mount.value);
        add_mount(collect, &mount);
        return;
    }
    if (is_text(target)) {
        mount.target = target->u.scalar.text;
        mount.target_length = target->u.scalar.length;
    }
    const char *source_text = is_text(source) ? source->u.scalar.text : NULL;
    size_t source_length = is_text(source) ? source->u.scalar.length : 0;
    typed_mount(collect, &mount, source_text != NULL ? source_text : "<mapping>",
                source_text != NULL ? source_length : strlen("<mapping>"),
                is_text(type) ? type->u.scalar.text : NULL,
                is_text(type) ? type->u.scalar.length : 0, source_text, source_length);
}

/* ------------------------------------------------------------------ */
/* the JSON settings                                                   */
/* ------------------------------------------------------------------ */

/* A switch as the CLI reads it (JavaScript's truth: true, a non-zero
 * number, a non-empty string). */
static void json_flag(struct collect *collect, int id, const char *field,
                      const struct sl_node *root)
{
    const struct sl_node *key;
    const struct sl_node *node = lookup(root, field, &key);
    if (node == NULL || model_is_null(node))
        return;
    struct sl_value *value = add_value(collect, id, SL_FORM_FLAG, field, key, key, NULL, 0);
    if (node->kind == SL_NODE_MAPPING || node->kind == SL_NODE_SEQUENCE) {
        /* The devcontainer CLI merges flags with JavaScript's truthiness
         * (imageMetadata.some(e => e.privileged)): an object or an array,
         * even an empty one, is true. */
        value->meaning = 1;
        return;
    }
    if (node->kind != SL_NODE_SCALAR) {
        uncheckable(value, node);
        return;
    }
    const char *text = node->u.scalar.text;
    size_t length = node->u.scalar.length;
    value->text = value->parsed = text;
    value->text_length = value->parsed_length = length;
    if (node->style != SL_STYLE_PLAIN) {
        if (has_variable(text, length))
            templated(value);
        else
            value->meaning = length > 0;
        return;
    }
    value->meaning = !(text_equals(text, length, "false") || text_equals(text, length, "0") ||
                       text_equals(text, length, "-0") || text_equals(text, length, "0.0"));
}

/* The string items of a list setting (a lone string counts as one); an
 * item that is no string cannot be checked. */
typedef void (*item_fn)(struct collect *collect, const char *field, const struct sl_node *key,
                        const struct sl_node *item);

static void each_item(struct collect *collect, const char *field, const struct sl_node *key,
                      const struct sl_node *list, item_fn visit)
{
    if (list == NULL || model_is_null(list))
        return;
    if (list->kind != SL_NODE_SEQUENCE) {
        visit(collect, field, key, list);
        return;
    }
    for (size_t i = 0; i < list->u.sequence.count; i++)
        visit(collect, field, key, list->u.sequence.items[i]);
}

static void cap_add_item(struct collect *collect, const char *field,
                         const struct sl_node *key, const struct sl_node *item)
{
    struct sl_value *value = add_value(collect, SL_SETTING_CAP_ADD, SL_FORM_ENTRY, field, key,
                                       item, NULL, 0);
    if (item->kind != SL_NODE_SCALAR) {
        uncheckable(value, item);
        return;
    }
    value->text = item->u.scalar.text;
    value->text_length = item->u.scalar.length;
    if (has_variable(value->text, value->text_length))
        templated(value);
    else
        parse_capability(collect, value);
}

static void security_item(struct collect *collect, const char *field,
                          const struct sl_node *key, const struct sl_node *item)
{
    if (item->kind != SL_NODE_SCALAR) {
        uncheckable(add_value(collect, SL_SETTING_SECURITY_OTHER, SL_FORM_ENTRY, field, key,
                              item, NULL, 0), item);
        return;
    }
    security_value(collect, field, key, item, item->u.scalar.text, item->u.scalar.length,
                   has_variable(item->u.scalar.text, item->u.scalar.length));
}

static void mounts_item(struct collect *collect, const char *field,
                        const struct sl_node *key, const struct sl_node *item)
{
    (void)key;
    if (item->kind == SL_NODE_MAPPING) {
        mount_object(collect, item);
    } else if (item->kind == SL_NODE_SCALAR) {
        if (!model_is_null(item))
            mount_string(collect, field, item, item->u.scalar.text, item->u.scalar.length);
    } else {
        struct sl_mount mount;
        mount_start(&mount, SL_MOUNT_LONG, field, item);
        mount.kind = SL_MOUNT_UNSUPPORTED;
        mount.value = "<sequence>";
        mount.value_length = strlen(mount.value);
        add_mount(collect, &mount);
    }
}

/* containerUser: the user the container runs as. */
static void read_user(struct collect *collect, const struct sl_node *root)
{
    const struct sl_node *key;
    const struct sl_node *node = lookup(root, "containerUser", &key);
    if (node == NULL || model_is_null(node))
        return;
    struct sl_value *value = add_value(collect, SL_SETTING_USER, SL_FORM_SCALAR,
                                       "containerUser", key, key, NULL, 0);
    if (node->kind != SL_NODE_SCALAR) {
        uncheckable(value, node);
        return;
    }
    value->text = value->parsed = node->u.scalar.text;
    value->text_length = value->parsed_length = node->u.scalar.length;
    if (has_variable(value->text, value->text_length))
        templated(value);
    else
        value->meaning = compose_user_is_root(value->text, value->text_length)
                             ? SL_USER_ROOT : SL_USER_NON_ROOT;
}

/* hostRequirements.gpu: true or "optional" make the CLI pass --gpus all
 * (when the host has one). */
static void read_gpu(struct collect *collect, const struct sl_node *root)
{
    const struct sl_node *key;
    const struct sl_node *gpu = lookup(lookup(root, "hostRequirements", NULL), "gpu", &key);
    if (gpu == NULL || model_is_null(gpu))
        return;
    if (gpu->kind == SL_NODE_SCALAR && gpu->style == SL_STYLE_PLAIN &&
        text_equals(gpu->u.scalar.text, gpu->u.scalar.length, "false"))
        return;
    struct sl_value *value = add_value(collect, SL_SETTING_GPUS, SL_FORM_ENTRY,
                                       "hostRequirements.gpu", key, key, "<mapping>",
                                       strlen("<mapping>"));
    if (gpu->kind == SL_NODE_SEQUENCE) {
        uncheckable(value, gpu);
    } else if (gpu->kind == SL_NODE_SCALAR) {
        value->text = value->parsed = gpu->u.scalar.text;
        value->text_length = value->parsed_length = gpu->u.scalar.length;
        if (has_variable(value->text, value->text_length))
            templated(value);
    }
}

/* build.options: flags of the engine's build; --allow ENTITLEMENT (and
 * --allow=ENTITLEMENT) grants what build steps may do. */
static void read_build_options(struct collect *collect, const struct sl_node *root)
{
    const struct sl_node *key;
    const struct sl_node *options = lookup(lookup(root, "build", NULL), "options", &key);
    if (options == NULL || options->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < options->u.sequence.count; i++) {
        const struct sl_node *item = options->u.sequence.items[i];
        if (item->kind != SL_NODE_SCALAR)
            continue;
        const char *text = item->u.scalar.text;
        size_t length = item->u.scalar.length;
        const struct sl_node *at = item;
        /* --network host runs the build steps on the host's network, as
         * Compose's build.network: host does. */
        bool network = false;
        if (text_equals(text, length, "--network") && i + 1 < options->u.sequence.count &&
            options->u.sequence.items[i + 1]->kind == SL_NODE_SCALAR) {
            at = options->u.sequence.items[++i];
            text = at->u.scalar.text;
            length = at->u.scalar.length;
            network = true;
        } else if (starts_with(text, length, "--network=")) {
            text += 10;
            length -= 10;
            network = true;
        }
        if (network) {
            struct sl_value *value = add_value(collect, SL_SETTING_BUILD_NETWORK,
                                               SL_FORM_SCALAR, "build.options", key, at,
                                               text, length);
            if (has_variable(text, length))
                templated(value);
            else
                value->meaning = text_equals(text, length, "host") ? SL_NAMESPACE_HOST
                                                                   : SL_NAMESPACE_PRIVATE;
            continue;
        }
        if (text_equals(text, length, "--allow") && i + 1 < options->u.sequence.count &&
            options->u.sequence.items[i + 1]->kind == SL_NODE_SCALAR) {
            at = options->u.sequence.items[++i];
            text = at->u.scalar.text;
            length = at->u.scalar.length;
        } else if (starts_with(text, length, "--allow=")) {
            text += 8;
            length -= 8;
        } else {
            continue;
        }
        struct sl_value *value = add_value(collect, SL_SETTING_BUILD_ENTITLEMENTS,
                                           SL_FORM_ENTRY, "build.options", key, at, text,
                                           length);
        if (has_variable(text, length))
            templated(value);
    }
}

/* A published port [[IP:]HOST:]CONTAINER: every interface unless an
 * address is written. */
static void port_value(struct sl_value *value)
{
    struct compose_port port;
    compose_port_split(value->text, value->text_length, &port);
    value->meaning = port.ip != NULL && !compose_every_interface(port.ip, port.ip_length)
                         ? SL_PORT_ONE_ADDRESS : SL_PORT_EVERY_INTERFACE;
    if (port.host != NULL)
        value->number = (double)compose_port_number(port.host, port.host_length);
}

/* appPort: a number is published on 127.0.0.1 by the devcontainer CLI
 * ("127.0.0.1:N:N"); a string is handed to the engine as a -p value. */
static void app_port_item(struct collect *collect, const char *field,
                          const struct sl_node *key, const struct sl_node *item)
{
    struct sl_value *value = add_value(collect, SL_SETTING_PORTS, SL_FORM_ENTRY, field, key,
                                       item, NULL, 0);
    if (item->kind != SL_NODE_SCALAR) {
        uncheckable(value, item);
        return;
    }
    value->text = value->parsed = item->u.scalar.text;
    value->text_length = value->parsed_length = item->u.scalar.length;
    if (has_variable(value->text, value->text_length)) {
        templated(value);
    } else if (item->style == SL_STYLE_PLAIN) {
        value->meaning = SL_PORT_ONE_ADDRESS;
        value->number = (double)compose_port_number(value->text, value->text_length);
    } else {
        port_value(value);
    }
}

/* ------------------------------------------------------------------ */
/* runArgs                                                             */
/* ------------------------------------------------------------------ */

/* runArgs: the flags the CLI adds to its "docker run", before the image.
 * They are read by the engine-command front-end (engine_command.h), the
 * one reader of every engine command line (SPEC §15), so a flag here is
 * the finding, key and hint it is in a shell script or a CI step. */
static void read_run_args(struct collect *collect, const struct sl_node *root)
{
    const struct sl_node *key;
    const struct sl_node *list = lookup(root, "runArgs", &key);
    if (list == NULL || model_is_null(list))
        return;
    if (list->kind != SL_NODE_SEQUENCE) {
        warn(collect, key, "runArgs is not a list of strings%.*s; its flags cannot be "
             "checked", "", 0);
        return;
    }
    size_t count = list->u.sequence.count;
    const struct sl_node *const *items = (const struct sl_node *const *)list->u.sequence.items;
    struct engine_word *words = xcalloc(count != 0 ? count : 1, sizeof(*words));
    struct sl_span *spans = xcalloc(count != 0 ? count : 1, sizeof(*spans));
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *item = items[i];
        struct sl_span span = { item->line, item->column, item->end_line, item->end_column };
        spans[i] = span;
        if (item->kind != SL_NODE_SCALAR) {
            /* Not a word: the CLI would fail.  Read as a word that is not
             * known, so that the flags around it keep their places. */
            words[i].text = item->kind == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
            words[i].length = strlen(words[i].text);
            words[i].flags = ENGINE_WORD_INTERPOLATED;
            continue;
        }
        words[i].text = item->u.scalar.text;
        words[i].length = item->u.scalar.length;
        words[i].literal_length = variable_at(words[i].text, words[i].length);
        if (words[i].literal_length < words[i].length)
            words[i].flags = ENGINE_WORD_INTERPOLATED;
    }
    struct engine_command *command = engine_command_new(collect->group, words, spans, count);
    for (size_t i = 0; i < engine_command_problem_count(command); i++) {
        const struct sl_node *node;
        const char *message = engine_command_problem(command, i, &node);
        bool not_a_word = false;
        for (size_t j = 0; j < count && !not_a_word; j++)
            not_a_word = items[j]->kind != SL_NODE_SCALAR && items[j]->line == node->line &&
                         items[j]->column == node->column;
        if (!not_a_word)    /* reported below, in the words of the file */
            model_emit_command_line(collect->reading, node, message);
    }
    size_t image = engine_command_image(command);
    for (size_t i = 0; i < count && i < image; i++)
        if (items[i]->kind != SL_NODE_SCALAR)
            warn(collect, items[i], "runArgs item is not a string%.*s and cannot be "
                 "checked", "", 0);
    if (image != ENGINE_NO_WORD && items[image]->kind == SL_NODE_SCALAR)
        warn(collect, items[image], "runArgs word '%.*s' is not a flag: the engine "
             "takes it as the image and the words after it as the command, which were "
             "not checked", items[image]->u.scalar.text, items[image]->u.scalar.length);
    collect->command = command;
    free(words);
    free(spans);
}

/* ------------------------------------------------------------------ */
/* features                                                            */
/* ------------------------------------------------------------------ */

/* The id of a feature reference: ghcr.io/devcontainers/features/ID:VERSION
 * (or @sha256:...), or the bare ID of the first dev container features. */
static bool feature_id(const char *text, size_t length, const char **id, size_t *id_length)
{
    static const char registry[] = "ghcr.io/devcontainers/features/";
    if (starts_with(text, length, registry)) {
        text += sizeof(registry) - 1;
        length -= sizeof(registry) - 1;
    } else if (memchr(text, '/', length) != NULL) {
        return false;   /* another publisher's feature */
    }
    size_t end = 0;
    while (end < length && text[end] != ':' && text[end] != '@')
        end++;
    *id = text;
    *id_length = end;
    return true;
}

static void read_features(struct collect *collect, const struct sl_node *root)
{
    const struct sl_node *features = lookup(root, "features", NULL);
    if (features == NULL || features->kind != SL_NODE_MAPPING)
        return;
    for (size_t i = 0; i < features->u.mapping.count; i++) {
        const struct sl_node *key = features->u.mapping.pairs[i].key;
        const char *id;
        size_t id_length;
        if (key->kind != SL_NODE_SCALAR ||
            !feature_id(key->u.scalar.text, key->u.scalar.length, &id, &id_length))
            continue;
        if (text_equals(id, id_length, "docker-outside-of-docker") ||
            text_equals(id, id_length, "docker-from-docker")) {
            /* The feature's own devcontainer-feature.json: the host's
             * socket bound in, SELinux labels off. */
            const char *field = text_equals(id, id_length, "docker-from-docker")
                                    ? "features.docker-from-docker"
                                    : "features.docker-outside-of-docker";
            struct sl_mount mount;
            mount_start(&mount, SL_MOUNT_LONG, field, key);
            mount.type = "bind";
            mount.type_length = 4;
            mount.target = "/var/run/docker-host.sock";
            mount.target_length = strlen(mount.target);
            host_path_mount(collect, &mount, "/var/run/docker.sock",
                            strlen("/var/run/docker.sock"));
            struct sl_value *value = add_value(collect, SL_SETTING_SELINUX, SL_FORM_ENTRY,
                                               field, key, key, "label=disable",
                                               strlen("label=disable"));
            value->parsed = "disable";
            value->parsed_length = strlen("disable");
            value->meaning = SL_CONFINEMENT_OFF;
        } else if (text_equals(id, id_length, "docker-in-docker")) {
            struct sl_value *value = add_value(collect, SL_SETTING_PRIVILEGED, SL_FORM_FLAG,
                                               "features.docker-in-docker", key, key,
                                               "true", 4);
            value->meaning = 1;
        }
    }
}

/* ------------------------------------------------------------------ */
/* the reader                                                          */
/* ------------------------------------------------------------------ */

/* What each setting is called and how to add it, in the file's words. */
struct setting_words {
    const char *field;
    const char *hint;
};

static const struct setting_words words[MODEL_SETTING_LAST + 1] = {
    [SL_SETTING_PRIVILEGED] = { "privileged", NULL },
    [SL_SETTING_CAP_ADD] = { "capAdd", NULL },
    [SL_SETTING_CAP_DROP] = { "--cap-drop",
                              "add '\"runArgs\": [\"--cap-drop\", \"ALL\"]' and capAdd only "
                              "what the sandbox needs" },
    [SL_SETTING_SECCOMP] = { "securityOpt", NULL },
    [SL_SETTING_APPARMOR] = { "securityOpt", NULL },
    [SL_SETTING_SELINUX] = { "securityOpt", NULL },
    [SL_SETTING_SYSTEM_PATHS] = { "securityOpt", NULL },
    [SL_SETTING_SECURITY_OTHER] = { "securityOpt", NULL },
    [SL_SETTING_NO_NEW_PRIVILEGES] = { "securityOpt",
                                       "add '\"securityOpt\": [\"no-new-privileges:true\"]'" },
    [SL_SETTING_READ_ONLY_ROOT] = { "--read-only",
                                    "add '\"runArgs\": [\"--read-only\"]' (with --tmpfs for "
                                    "the paths the sandbox writes)" },
    [SL_SETTING_USER] = { "containerUser",
                          "add '\"containerUser\": \"1000:1000\"' (a user the image has)" },
    [SL_SETTING_PIDS_LIMIT] = { "--pids-limit",
                                "add '\"runArgs\": [\"--pids-limit\", \"512\"]'" },
    [SL_SETTING_MEMORY_LIMIT] = { "--memory", "add '\"runArgs\": [\"--memory\", \"2g\"]'" },
    [SL_SETTING_CPU_LIMIT] = { "--cpus", "add '\"runArgs\": [\"--cpus\", \"2\"]'" },
    [SL_SETTING_NETWORK_NAMESPACE] = { "--network", NULL },
    [SL_SETTING_PID_NAMESPACE] = { "--pid", NULL },
    [SL_SETTING_IPC_NAMESPACE] = { "--ipc", NULL },
    [SL_SETTING_UTS_NAMESPACE] = { "--uts", NULL },
    [SL_SETTING_USER_NAMESPACE] = { "--userns", NULL },
    [SL_SETTING_CGROUP_NAMESPACE] = { "--cgroupns", NULL },
    [SL_SETTING_MOUNTS] = { "mounts", NULL },
    [SL_SETTING_DEVICES] = { "--device", NULL },
    [SL_SETTING_DEVICE_CGROUP_RULES] = { "--device-cgroup-rule", NULL },
    [SL_SETTING_PORTS] = { "--publish",
                           "publish on the loopback interface only (an appPort number, "
                           "or '\"-p\", \"127.0.0.1:8080:80\"' in runArgs), or remove "
                           "it" },
    [SL_SETTING_RUNTIME] = { "--runtime", NULL },
    [SL_SETTING_API_SOCKET] = { "--use-api-socket", NULL },
    [SL_SETTING_GPUS] = { "hostRequirements.gpu", NULL },
    [SL_SETTING_BUILD_ENTITLEMENTS] = { "build.options", NULL },
    [SL_SETTING_BUILD_NETWORK] = { "build.options", NULL },
};

static void fill_values(struct model_fill *fill, const struct devcontainer *container,
                        int id, size_t from, size_t to)
{
    if (id == SL_SETTING_MOUNTS) {
        for (size_t i = from; i < to && i < container->mount_count; i++)
            model_fill_mount(fill, &container->mounts[i], SL_TEMPLATE_INTERPOLATION);
        return;
    }
    for (size_t i = from; i < to && i < container->value_count; i++) {
        if (container->values[i].id != id)
            continue;
        struct sl_value *value = model_fill_value(fill);
        *value = container->values[i].value;
    }
}

static void fill_setting(struct model_fill *fill, const struct model_scope *scope,
                         int view, int id)
{
    const struct devcontainer *container = scope->data;
    if (id < 1 || id > MODEL_SETTING_LAST || words[id].field == NULL) {
        /* runAsNonRoot, service accounts, build.privileged: not a dev
         * container's. */
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    bool mounts = id == SL_SETTING_MOUNTS;
    size_t before_run = mounts ? container->mounts_before_run : container->values_before_run;
    fill_values(fill, container, id, 0, before_run);
    if (container->command != NULL) {
        /* The engine-command front-end's values of runArgs; what the
         * setting is called and how to add it stay the file's own. */
        int state = fill->setting.state;
        size_t count = fill->count;
        engine_command_fill(fill, container->command, view, id);
        if (fill->setting.state == SL_SETTING_UNSUPPORTED)
            fill->setting.state = state;    /* build.options: no run flag */
        /* A setting runArgs does not hold is missing from the dev
         * container, not from a flag that holds another one (the
         * engine points a missing no-new-privileges at --security-opt). */
        if (fill->count == count)
            fill->setting.key = NULL;
    }
    fill_values(fill, container, id, before_run, SIZE_MAX);
    fill->setting.field = fill->setting.label = words[id].field;
    fill->setting.hint = words[id].hint;
    if (container->keys[id] != NULL || fill->setting.key == NULL)
        fill->setting.key = container->keys[id];
}

/* The own mounts from .. to of container, each as a struct of mount_size. */
static int visit_own_mounts(const struct devcontainer *container, size_t from, size_t to,
                            struct sl_context *ctx, size_t mount_size, sl_mount_fn visit,
                            void *data, const char **problem)
{
    struct sl_mount own;
    struct sized_out out;
    if (visit == NULL ||
        sized_out_begin(&out, &own, sizeof(own), mount_size, HOST_MOUNT_SIZE_1_1) != 0) {
        *problem = "host_mounts(): no callback, or a mount_size that is not the size "
                   "of a struct sl_mount";
        return SL_ERROR;
    }
    int status = SL_OK;
    for (size_t i = from; i < to && i < container->mount_count && status == SL_OK; i++) {
        struct sl_mount *given = sized_out_fill(&out, &container->mounts[i],
                                                sizeof(container->mounts[i]));
        given->struct_size = sizeof(container->mounts[i]);
        status = visit(ctx, given, data) == SL_OK ? SL_OK : SL_ERROR;
    }
    sized_out_end(&out);
    return status;
}

static int container_mounts(const struct model_scope *scope, struct sl_context *ctx,
                            size_t mount_size, sl_mount_fn visit, void *data,
                            const char **problem)
{
    const struct devcontainer *container = scope->data;
    *problem = NULL;
    int status = visit_own_mounts(container, 0, container->mounts_before_run, ctx,
                                  mount_size, visit, data, problem);
    if (status == SL_OK && container->command != NULL)
        status = engine_command_mounts(container->command, ctx, mount_size, visit, data,
                                       problem);
    if (status == SL_OK)
        status = visit_own_mounts(container, container->mounts_before_run, SIZE_MAX, ctx,
                                  mount_size, visit, data, problem);
    return status;
}

static const struct model_reader container_reader = { fill_setting, container_mounts };

/* Copies what was collected into the group, where the scope's reader
 * finds it. */
static struct devcontainer *keep(struct collect *collect)
{
    struct devcontainer *container = model_group_alloc(collect->group, sizeof(*container));
    container->value_count = collect->value_count;
    container->values = model_group_alloc(collect->group,
                                          collect->value_count * sizeof(*collect->values));
    if (collect->value_count != 0)
        memcpy(container->values, collect->values,
               collect->value_count * sizeof(*collect->values));
    container->mount_count = collect->mount_count;
    container->mounts = model_group_alloc(collect->group,
                                          collect->mount_count * sizeof(*collect->mounts));
    if (collect->mount_count != 0)
        memcpy(container->mounts, collect->mounts,
               collect->mount_count * sizeof(*collect->mounts));
    container->values_before_run = collect->values_before_run;
    container->mounts_before_run = collect->mounts_before_run;
    container->command = collect->command;
    memcpy(container->keys, collect->keys, sizeof(container->keys));
    return container;
}

void devcontainer_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (root->kind != SL_NODE_MAPPING) {
        model_emit_not_checked(reading, root, "a dev container file holds one JSON object "
                               "of settings; this one was not checked");
        return;
    }
    static const char service[] = DEVCONTAINER_SERVICE;
    model_emit_document(reading, SL_KIND_DEVCONTAINER, root);
    model_emit_service(reading, SL_KIND_DEVCONTAINER, service, sizeof(service) - 1, root,
                       root);
    struct model_group group;
    model_group_init(&group);
    struct collect collect;
    memset(&collect, 0, sizeof(collect));
    collect.reading = reading;
    collect.group = &group;
    json_flag(&collect, SL_SETTING_PRIVILEGED, "privileged", root);
    const struct sl_node *key;
    const struct sl_node *list = lookup(root, "capAdd", &key);
    each_item(&collect, "capAdd", key, list, cap_add_item);
    list = lookup(root, "securityOpt", &key);
    each_item(&collect, "securityOpt", key, list, security_item);
    list = lookup(root, "mounts", &key);
    each_item(&collect, "mounts", key, list, mounts_item);
    list = lookup(root, "workspaceMount", &key);
    if (list != NULL && list->kind == SL_NODE_SCALAR && !model_is_null(list))
        mount_string(&collect, "workspaceMount", list, list->u.scalar.text,
                     list->u.scalar.length);
    list = lookup(root, "appPort", &key);
    each_item(&collect, "appPort", key, list, app_port_item);
    read_user(&collect, root);
    read_gpu(&collect, root);
    read_build_options(&collect, root);
    collect.values_before_run = collect.value_count;
    collect.mounts_before_run = collect.mount_count;
    read_run_args(&collect, root);
    read_features(&collect, root);
    struct model_scope_spec spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = SL_KIND_DEVCONTAINER,
        .service = service, .service_length = sizeof(service) - 1,
        .name = service, .name_length = sizeof(service) - 1, .noun = "dev container",
        .node = root, .mapping = root,
        .reader = &container_reader, .data = keep(&collect),
    };
    free(collect.values);
    free(collect.mounts);
    model_emit_scope(reading, model_scope_new(&group, &spec));
    model_group_release(&group);
}
