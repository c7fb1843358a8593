/* gitlab_runner_front.c - a GitLab Runner config.toml (see gitlab_runner_front.h). */
#include "config.h"

#include "gitlab_runner_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_command.h"
#include "shell_front.h"
#include "toml/toml.h"
#include "xalloc.h"
#include "yaml_model.h"

/* A key of [runners.docker], the engine flag it is, and whether a list
 * (each item one flag) or one value. */
struct runner_key {
    const char *key;
    const char *flag;
    bool build;                 /* applies to the build container */
    bool services;              /* applies to the service containers */
};

static const struct runner_key runner_keys[] = {
    { "privileged", "--privileged", true, false },
    { "services_privileged", "--privileged", false, true },
    { "volumes", "--volume", true, false },
    { "volumes_from", "--volumes-from", true, false },
    { "cap_add", "--cap-add", true, true },
    { "cap_drop", "--cap-drop", true, true },
    { "security_opt", "--security-opt", true, false },
    { "services_security_opt", "--security-opt", false, true },
    { "devices", "--device", true, false },
    { "services_devices", "--device", false, true },
    { "device_cgroup_rules", "--device-cgroup-rule", true, false },
    { "gpus", "--gpus", true, false },
    { "network_mode", "--network", true, false },
    { "ipcmode", "--ipc", true, false },
    { "userns_mode", "--userns", true, false },
    { "runtime", "--runtime", true, false },
    { "sysctls", "--sysctl", true, false },
    { "memory", "--memory", true, false },
    { "cpus", "--cpus", true, false },
    { "service_memory", "--memory", false, true },
    { "service_cpus", "--cpus", false, true },
};

/* The keys of [runners.kubernetes] that the model reads, as the engine
 * flags they amount to on the build pod's containers (the Kubernetes
 * executor gives privileged and cap_add to every container of the pod; a
 * host_path volume is a bind of the node's path). */
static const struct runner_key kubernetes_keys[] = {
    { "privileged", "--privileged", true, false },
    { "cap_add", "--cap-add", true, false },
    { "cap_drop", "--cap-drop", true, false },
    { "volumes.host_path", "--volume", true, false },
};

#define KEY_COUNT (sizeof(runner_keys) / sizeof(*runner_keys))
#define COUNT_OF(array) (sizeof(array) / sizeof(*(array)))

/* The TOML words of each setting the model asks for: field, label, hint. */
struct runner_words {
    int id;
    const char *build_field;
    const char *services_field;
    const char *hint;
};

static const struct runner_words setting_words[] = {
    { SL_SETTING_PRIVILEGED, "privileged", "services_privileged", NULL },
    { SL_SETTING_CAP_ADD, "cap_add", "cap_add", NULL },
    { SL_SETTING_CAP_DROP, "cap_drop", "cap_drop",
      "add 'cap_drop = [\"ALL\"]' under [runners.docker] and cap_add only what jobs need" },
    { SL_SETTING_SECCOMP, "security_opt", "services_security_opt", NULL },
    { SL_SETTING_APPARMOR, "security_opt", "services_security_opt", NULL },
    { SL_SETTING_SELINUX, "security_opt", "services_security_opt", NULL },
    { SL_SETTING_SYSTEM_PATHS, "security_opt", "services_security_opt", NULL },
    { SL_SETTING_SECURITY_OTHER, "security_opt", "services_security_opt", NULL },
    { SL_SETTING_NO_NEW_PRIVILEGES, "security_opt", "services_security_opt",
      "add 'security_opt = [\"no-new-privileges\"]' (services_security_opt for services) "
      "under [runners.docker]" },
    { SL_SETTING_MEMORY_LIMIT, "memory", "service_memory",
      "add 'memory = \"2g\"' (service_memory for services) under [runners.docker]" },
    { SL_SETTING_CPU_LIMIT, "cpus", "service_cpus",
      "add 'cpus = \"2\"' (service_cpus for services) under [runners.docker]" },
    { SL_SETTING_NETWORK_NAMESPACE, "network_mode", "network_mode", NULL },
    { SL_SETTING_IPC_NAMESPACE, "ipcmode", "ipcmode", NULL },
    { SL_SETTING_USER_NAMESPACE, "userns_mode", "userns_mode", NULL },
    { SL_SETTING_MOUNTS, "volumes", "volumes", NULL },
    { SL_SETTING_DEVICES, "devices", "services_devices", NULL },
    { SL_SETTING_DEVICE_CGROUP_RULES, "device_cgroup_rules", "device_cgroup_rules", NULL },
    { SL_SETTING_RUNTIME, "runtime", "runtime", NULL },
    { SL_SETTING_GPUS, "gpus", "gpus", NULL },
};

/* The settings a [runners.kubernetes] table can say; the others only
 * take away (limits in Kubernetes quantities, the security contexts'
 * users, allow_privilege_escalation: Kubernetes allows it by default) and
 * are not read. */
static const struct runner_words kubernetes_words[] = {
    { SL_SETTING_PRIVILEGED, "privileged", "privileged", NULL },
    { SL_SETTING_CAP_ADD, "cap_add", "cap_add", NULL },
    { SL_SETTING_CAP_DROP, "cap_drop", "cap_drop",
      "add 'cap_drop = [\"ALL\"]' under [runners.kubernetes] and cap_add only what jobs need" },
    { SL_SETTING_MOUNTS, "volumes.host_path", "volumes.host_path", NULL },
};

/* The keys and words of one executor's table. */
struct runner_table {
    const struct runner_key *keys;
    size_t key_count;
    const struct runner_words *words;
    size_t word_count;
};

static const struct runner_table docker_table = {
    runner_keys, KEY_COUNT, setting_words, COUNT_OF(setting_words),
};

static const struct runner_table kubernetes_table = {
    kubernetes_keys, COUNT_OF(kubernetes_keys), kubernetes_words, COUNT_OF(kubernetes_words),
};

/* One container of a runner. */
struct runner_container {
    const struct engine_command *command;
    const struct runner_table *table;
    bool services;
};

/* The TOML key a flag was written as, for this container. */
static const char *key_of_flag(const struct runner_container *container, const char *flag)
{
    if (flag == NULL)
        return NULL;
    const struct runner_table *table = container->table;
    for (size_t i = 0; i < table->key_count; i++)
        if (strcmp(table->keys[i].flag, flag) == 0 &&
            (container->services ? table->keys[i].services : table->keys[i].build))
            return table->keys[i].key;
    return NULL;
}

static void fill_runner_setting(struct model_fill *fill, const struct model_scope *scope,
                                int view, int id)
{
    const struct runner_container *container = scope->data;
    const struct runner_words *named = NULL;
    for (size_t i = 0; i < container->table->word_count; i++)
        if (container->table->words[i].id == id)
            named = &container->table->words[i];
    if (named == NULL) {
        /* Not a key of [runners.docker]: user, read-only root, limits of
         * processes... are up to the job's image, not the file. */
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    engine_command_fill(fill, container->command, view, id);
    const char *field = container->services ? named->services_field : named->build_field;
    fill->setting.field = fill->setting.label = field;
    fill->setting.hint = named->hint;
    for (size_t i = 0; i < fill->count; i++) {
        const char *key = key_of_flag(container, fill->values[i].field);
        if (key != NULL)
            fill->values[i].field = fill->values[i].label = key;
    }
}

struct mount_relay {
    const struct runner_container *container;
    sl_mount_fn visit;
    void *data;
    size_t mount_size;
};

static int relay_mount(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    struct mount_relay *relay = data;
    struct sl_mount copy;
    memset(&copy, 0, sizeof(copy));
    memcpy(&copy, mount, relay->mount_size < sizeof(copy) ? relay->mount_size : sizeof(copy));
    const char *key = key_of_flag(relay->container, mount->field);
    if (key != NULL)
        copy.field = key;
    return relay->visit(ctx, &copy, relay->data);
}

static int runner_mounts(const struct model_scope *scope, struct sl_context *ctx,
                         size_t mount_size, sl_mount_fn visit, void *data, const char **problem)
{
    const struct runner_container *container = scope->data;
    struct mount_relay relay = { container, visit, data, mount_size };
    return engine_command_mounts(container->command, ctx, mount_size, relay_mount, &relay,
                                 problem);
}

static const struct model_reader runner_reader = { fill_runner_setting, runner_mounts };

/* ------------------------------------------------------------------ */
/* the TOML                                                            */
/* ------------------------------------------------------------------ */

/* Where a value was written, as a span of lines and columns (a one-line
 * value's end from its bytes). */
static struct sl_span value_span(const struct toml_value *value)
{
    struct toml_pos pos = toml_value_pos(value);
    struct toml_span bytes = toml_value_span(value);
    struct sl_span span = { pos.line, pos.column, pos.line,
                            pos.column + (unsigned)(bytes.end - bytes.start) };
    return span;
}

/* Appends flag and the text of a scalar value (a boolean flag as
 * --flag=true|false). */
static void add_value(struct shell_word_list *words, struct model_reading *reading,
                      struct model_group *group, const char *flag,
                      const struct toml_value *value)
{
    struct sl_span span = value_span(value);
    char buffer[64];
    const char *text = NULL;
    size_t length = 0;
    switch (toml_kind(value)) {
    case TOML_STRING:
        text = toml_string(value, &length);
        break;
    case TOML_BOOLEAN:
        snprintf(buffer, sizeof(buffer), "%s=%s", flag, toml_boolean(value) ? "true" : "false");
        shell_word_list_add(words, buffer, strlen(buffer), 0, &span);
        return;
    case TOML_INTEGER:
        snprintf(buffer, sizeof(buffer), "%lld", (long long)toml_integer(value));
        text = buffer;
        length = strlen(buffer);
        break;
    case TOML_FLOAT:
        snprintf(buffer, sizeof(buffer), "%g", toml_float(value));
        text = buffer;
        length = strlen(buffer);
        break;
    default: {
        struct model_group local;
        model_group_init(&local);
        struct sl_node *node = model_node_scalar(&local.arena, "", 0, SL_STYLE_PLAIN, &span);
        if (node == NULL)
            xalloc_out_of_memory();
        char *message = xasprintf("%s: a %s where the runner expects a string; not checked",
                                  flag, toml_kind_name(toml_kind(value)));
        model_emit_warning(reading, node, message);
        free(message);
        model_group_release(&local);
        (void)group;
        return;
    }
    }
    shell_word_list_add(words, flag, strlen(flag), 0, &span);
    shell_word_list_add(words, text, length, 0, &span);
}

static void add_key(struct shell_word_list *words, struct model_reading *reading,
                    struct model_group *group, const struct runner_key *key,
                    const struct toml_value *value)
{
    if (toml_kind(value) == TOML_ARRAY) {
        for (size_t i = 0; i < toml_array_size(value); i++)
            add_value(words, reading, group, key->flag, toml_array_get(value, i));
        return;
    }
    if (toml_kind(value) == TOML_TABLE && strcmp(key->key, "services_devices") == 0) {
        /* The runner's services_devices maps a service image pattern
         * ("emulator:*") to the devices its containers get: each list is
         * the service containers' --device flags. */
        for (size_t i = 0; i < toml_table_size(value); i++) {
            const struct toml_value *devices = toml_table_entry(value, i, NULL, NULL, NULL);
            if (toml_kind(devices) != TOML_ARRAY) {
                add_value(words, reading, group, key->flag, devices);
                continue;
            }
            for (size_t j = 0; j < toml_array_size(devices); j++)
                add_value(words, reading, group, key->flag, toml_array_get(devices, j));
        }
        return;
    }
    if (toml_kind(value) == TOML_TABLE && strcmp(key->key, "sysctls") == 0)
        return;     /* no rule reads sysctls yet */
    add_value(words, reading, group, key->flag, value);
}

/* Hands on the container that words (released here) describe. */
static void emit_container(struct model_reading *reading, struct model_group *group,
                           struct shell_word_list *words, const struct runner_table *table,
                           const char *service, const struct sl_node *at, bool services)
{
    struct engine_command *command =
        engine_command_new(group, words->words, words->spans, words->count);
    /* The runner hands these to the daemon's API, not to the docker CLI. */
    engine_command_set_daemon_options(command);
    shell_word_list_release(words);
    struct runner_container *container = model_group_alloc(group, sizeof(*container));
    container->command = command;
    container->table = table;
    container->services = services;
    struct model_scope_spec spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = SL_KIND_GITLAB_RUNNER,
        .service = service, .service_length = strlen(service),
        .name = NULL, .name_length = 0, .noun = services ? "service container" : "build container",
        .node = at, .mapping = NULL,
        .reader = &runner_reader, .data = container,
    };
    struct model_scope *scope = model_scope_new(group, &spec);
    model_emit_service(reading, SL_KIND_GITLAB_RUNNER, scope->public.service,
                       scope->public.service_length, at,
                       model_group_empty_mapping(group, at));
    model_emit_scope(reading, scope);
}

static void read_container(struct model_reading *reading, const struct toml_value *docker,
                           const char *service, const struct sl_node *at, bool services)
{
    struct model_group group;
    model_group_init(&group);
    struct shell_word_list words = { NULL, NULL, 0, 0 };
    bool services_privileged_set = toml_table_get(docker, "services_privileged") != NULL;
    for (size_t i = 0; i < KEY_COUNT; i++) {
        const struct runner_key *key = &runner_keys[i];
        bool applies = services ? key->services : key->build;
        /* services_privileged unset: the service containers get privileged. */
        if (services && !services_privileged_set && strcmp(key->key, "privileged") == 0)
            applies = true;
        if (!applies)
            continue;
        const struct toml_value *value = toml_table_get(docker, key->key);
        if (value != NULL)
            add_key(&words, reading, &group, key, value);
    }
    emit_container(reading, &group, &words, &docker_table, service, at, services);
    model_group_release(&group);
}

/* A node at a TOML key's position, for a step's location. */
static struct sl_node *node_at(struct model_group *group, struct toml_pos pos, size_t width)
{
    struct sl_span span = { pos.line, pos.column, pos.line, pos.column + (unsigned)width };
    struct sl_node *node = model_node_scalar(&group->arena, "", 0, SL_STYLE_PLAIN, &span);
    if (node == NULL)
        xalloc_out_of_memory();
    return node;
}

/* SL008 at a key of [runners.kubernetes] (path names it) whose effect
 * the model does not hold. */
static void not_understood(struct model_reading *reading, struct model_group *group,
                           struct toml_pos pos, const char *path, const char *what)
{
    char *message = xasprintf("[runners.kubernetes] %s %s; not checked", path, what);
    model_emit_not_understood(reading, node_at(group, pos, strlen(path)), message);
    free(message);
}

/* The string at key of table, or NULL. */
static const char *table_string(const struct toml_value *table, const char *key,
                                size_t *length)
{
    const struct toml_value *value = toml_table_get(table, key);
    return value != NULL && toml_kind(value) == TOML_STRING ? toml_string(value, length) : NULL;
}

/* [[runners.kubernetes.volumes.host_path]]: each a bind of the node's
 * host_path (mount_path when unset, the runner's default; sub_path below
 * it) at mount_path, as --volume HOST:MOUNT[:ro]. */
static void add_host_paths(struct shell_word_list *words, struct model_reading *reading,
                           struct model_group *group, const struct toml_value *host_paths,
                           struct toml_pos at)
{
    if (toml_kind(host_paths) != TOML_ARRAY) {
        not_understood(reading, group, at, "volumes.host_path",
                       "is not an array of tables");
        return;
    }
    for (size_t i = 0; i < toml_array_size(host_paths); i++) {
        const struct toml_value *volume = toml_array_get(host_paths, i);
        size_t host_length = 0, mount_length = 0, sub_length = 0;
        const char *host = table_string(volume, "host_path", &host_length);
        const char *mount = table_string(volume, "mount_path", &mount_length);
        const char *sub = table_string(volume, "sub_path", &sub_length);
        const struct toml_value *where = toml_table_get(volume, "host_path");
        if (host == NULL) {
            host = mount;
            host_length = mount_length;
            where = toml_table_get(volume, "mount_path");
        }
        if (host == NULL || mount == NULL || host_length == 0 ||
            memchr(host, ':', host_length) != NULL || memchr(mount, ':', mount_length) != NULL ||
            memchr(host, '\0', host_length) != NULL || memchr(mount, '\0', mount_length) != NULL ||
            (sub != NULL && (memchr(sub, ':', sub_length) != NULL ||
                             memchr(sub, '\0', sub_length) != NULL))) {
            struct toml_pos pos = toml_kind(volume) == TOML_TABLE && where != NULL
                                      ? toml_value_pos(where) : at;
            not_understood(reading, group, pos, "volumes.host_path",
                           "entry: host_path or mount_path is missing or holds a colon, "
                           "which the model cannot read");
            continue;
        }
        const struct toml_value *read_only = toml_table_get(volume, "read_only");
        bool ro = read_only != NULL && toml_kind(read_only) == TOML_BOOLEAN &&
                  toml_boolean(read_only);
        char *text = xasprintf("%.*s%s%.*s:%.*s%s", (int)host_length, host,
                               sub != NULL && sub_length > 0 && host[host_length - 1] != '/'
                                   ? "/" : "",
                               sub != NULL ? (int)sub_length : 0, sub != NULL ? sub : "",
                               (int)mount_length, mount, ro ? ":ro" : "");
        struct sl_span span = value_span(where);
        shell_word_list_add(words, "--volume", 8, 0, &span);
        shell_word_list_add(words, text, strlen(text), 0, &span);
        free(text);
    }
}

/* The keys of a container security context that can grant: what the
 * model does not read there is SL008 (the user and read-only root keys,
 * capabilities that only drop and allow_privilege_escalation, Kubernetes'
 * default, only take away). */
static void check_security_context(struct model_reading *reading, struct model_group *group,
                                   const char *table_key, const struct toml_value *context,
                                   struct toml_pos at)
{
    static const char *const granting[] = {
        "privileged", "capabilities", "proc_mount", "selinux_type",
    };
    if (toml_kind(context) != TOML_TABLE) {
        not_understood(reading, group, at, table_key, "is not a table");
        return;
    }
    for (size_t i = 0; i < toml_table_size(context); i++) {
        const char *key;
        struct toml_pos pos;
        const struct toml_value *value = toml_table_entry(context, i, &key, NULL, &pos);
        /* capabilities that only drop take away. */
        if (strcmp(key, "capabilities") == 0 && toml_kind(value) == TOML_TABLE &&
            toml_table_get(value, "add") == NULL)
            continue;
        for (size_t j = 0; j < COUNT_OF(granting); j++)
            if (strcmp(key, granting[j]) == 0) {
                char *path = xasprintf("%s.%s", table_key, key);
                not_understood(reading, group, pos, path,
                               "sets a container's privileges, which sandlint does not "
                               "read yet");
                free(path);
            }
    }
}

/* [runners.kubernetes]: the build pod's containers, as the flags its keys
 * amount to; the keys whose effect is not modelled are SL008. */
static void read_kubernetes(struct model_reading *reading, const struct toml_value *kubernetes,
                            const char *service, const struct sl_node *at)
{
    struct model_group group;
    model_group_init(&group);
    struct shell_word_list words = { NULL, NULL, 0, 0 };
    for (size_t i = 0; i < toml_table_size(kubernetes); i++) {
        const char *key;
        struct toml_pos pos;
        const struct toml_value *value = toml_table_entry(kubernetes, i, &key, NULL, &pos);
        if (strcmp(key, "privileged") == 0 || strcmp(key, "cap_add") == 0 ||
            strcmp(key, "cap_drop") == 0) {
            const struct runner_key *entry = NULL;
            for (size_t j = 0; j < COUNT_OF(kubernetes_keys); j++)
                if (strcmp(kubernetes_keys[j].key, key) == 0)
                    entry = &kubernetes_keys[j];
            add_key(&words, reading, &group, entry, value);
        } else if (strcmp(key, "volumes") == 0 && toml_kind(value) == TOML_TABLE) {
            struct toml_pos host_pos;
            for (size_t j = 0; j < toml_table_size(value); j++) {
                const char *kind;
                const struct toml_value *volumes =
                    toml_table_entry(value, j, &kind, NULL, &host_pos);
                if (strcmp(kind, "host_path") == 0)
                    add_host_paths(&words, reading, &group, volumes, host_pos);
            }
        } else if (strcmp(key, "volumes") == 0) {
            not_understood(reading, &group, pos, key, "is not a table");
        } else if (strcmp(key, "build_container_security_context") == 0 ||
                   strcmp(key, "helper_container_security_context") == 0 ||
                   strcmp(key, "service_container_security_context") == 0 ||
                   strcmp(key, "init_permissions_container_security_context") == 0) {
            check_security_context(reading, &group, key, value, pos);
        } else if (strcmp(key, "pod_security_context") == 0 && toml_kind(value) == TOML_TABLE) {
            struct toml_pos type_pos;
            for (size_t j = 0; j < toml_table_size(value); j++) {
                const char *name;
                toml_table_entry(value, j, &name, NULL, &type_pos);
                if (strcmp(name, "selinux_type") == 0)
                    not_understood(reading, &group, type_pos, "pod_security_context.selinux_type",
                                   "sets the pods' SELinux type, which sandlint does not "
                                   "read yet");
            }
        } else if (strcmp(key, "pod_spec") == 0) {
            not_understood(reading, &group, pos, key,
                           "patches the build pod's spec, which sandlint does not read yet");
        }
    }
    emit_container(reading, &group, &words, &kubernetes_table, service, at, false);
    model_group_release(&group);
}

static void read_runner(struct model_reading *reading, const struct toml_value *runner,
                        size_t ordinal)
{
    const struct toml_value *docker = NULL, *kubernetes = NULL;
    struct toml_pos docker_pos = { 0, 0 }, kubernetes_pos = { 0, 0 };
    for (size_t i = 0; i < toml_table_size(runner); i++) {
        const char *key;
        struct toml_pos pos;
        const struct toml_value *value = toml_table_entry(runner, i, &key, NULL, &pos);
        if (strcmp(key, "docker") == 0 && toml_kind(value) == TOML_TABLE) {
            docker = value;
            docker_pos = pos;
        } else if (strcmp(key, "kubernetes") == 0 && toml_kind(value) == TOML_TABLE) {
            kubernetes = value;
            kubernetes_pos = pos;
        }
    }
    /* The runner reads [runners.kubernetes] only for its executor. */
    size_t executor_length = 0;
    const char *executor = table_string(runner, "executor", &executor_length);
    if (executor != NULL && !(executor_length == 10 && memcmp(executor, "kubernetes", 10) == 0))
        kubernetes = NULL;
    if (docker == NULL && kubernetes == NULL)
        return;     /* a shell or ssh executor: no container settings */
    char name[64];
    const struct toml_value *named = toml_table_get(runner, "name");
    size_t name_length = 0;
    const char *name_text = named != NULL && toml_kind(named) == TOML_STRING
                                ? toml_string(named, &name_length) : NULL;
    bool usable = name_text != NULL && name_length > 0 && name_length < 200 &&
                  memchr(name_text, ':', name_length) == NULL &&
                  memchr(name_text, '\0', name_length) == NULL;
    snprintf(name, sizeof(name), "runner%zu", ordinal);
    int shown_length = usable ? (int)name_length : (int)strlen(name);
    const char *shown = usable ? name_text : name;
    struct model_group group;
    model_group_init(&group);
    if (docker != NULL) {
        struct sl_span span = { docker_pos.line, docker_pos.column, docker_pos.line,
                                docker_pos.column + 6 };
        struct sl_node *at = model_node_scalar(&group.arena, "docker", 6, SL_STYLE_PLAIN,
                                               &span);
        if (at == NULL)
            xalloc_out_of_memory();
        for (int services = 0; services < 2; services++) {
            char *service = xasprintf("%.*s/%s", shown_length, shown,
                                      services ? "services" : "build");
            read_container(reading, docker, service, at, services != 0);
            free(service);
        }
    }
    if (kubernetes != NULL) {
        struct sl_span span = { kubernetes_pos.line, kubernetes_pos.column,
                                kubernetes_pos.line, kubernetes_pos.column + 10 };
        struct sl_node *at = model_node_scalar(&group.arena, "kubernetes", 10, SL_STYLE_PLAIN,
                                               &span);
        if (at == NULL)
            xalloc_out_of_memory();
        char *service = xasprintf("%.*s/build", shown_length, shown);
        read_kubernetes(reading, kubernetes, service, at);
        free(service);
    }
    model_group_release(&group);
}

bool gitlab_runner_front_read(struct model_reading *reading, const char *text, size_t length)
{
    struct toml_error error;
    struct toml_doc *doc = toml_parse(text, length, &error);
    struct model_group group;
    model_group_init(&group);
    struct sl_node *root = model_group_alloc(&group, sizeof(*root));
    root->kind = SL_NODE_MAPPING;
    root->line = root->column = root->end_line = root->end_column = 1;
    reading->root = root;
    bool runner = false;
    if (doc == NULL) {
        /* Another program's TOML is not ours to judge; a runner's is. */
        static const char marker[] = "[runners.";
        bool looks_like_runner = false;
        for (size_t i = 0; i + sizeof(marker) - 1 <= length && !looks_like_runner; i++)
            looks_like_runner = memcmp(text + i, marker, sizeof(marker) - 1) == 0;
        if (looks_like_runner) {
            struct sl_span span = { error.pos.line, error.pos.column, error.pos.line,
                                    error.pos.column + 1 };
            struct sl_node *node =
                model_node_scalar(&group.arena, "", 0, SL_STYLE_PLAIN, &span);
            if (node == NULL)
                xalloc_out_of_memory();
            char *message = xasprintf("not valid TOML: %s; not checked", error.message);
            model_emit_not_checked(reading, node, message);
            free(message);
            runner = true;
        }
    } else {
        const struct toml_value *runners = toml_table_get(toml_doc_root(doc), "runners");
        if (runners != NULL && toml_kind(runners) == TOML_ARRAY) {
            runner = true;
            for (size_t i = 0; i < toml_array_size(runners); i++) {
                const struct toml_value *item = toml_array_get(runners, i);
                if (toml_kind(item) == TOML_TABLE)
                    read_runner(reading, item, i + 1);
            }
        }
        toml_doc_free(doc);
    }
    reading->root = NULL;
    model_group_release(&group);
    return runner;
}
