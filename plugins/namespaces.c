/*
 * namespaces.c - SBX002: shared namespaces.
 *
 * network_mode, pid, ipc, userns_mode, uts and cgroup set to host, and
 * network_mode, pid and ipc joining a container outside the Compose file
 * (SPEC §7); hostNetwork, hostPID, hostIPC and hostUsers of a Kubernetes
 * pod spec (SPEC §12; the agent-env chart has no such fields).
 */
#include <sandlint/rule.h>

struct namespace_field {
    const char *name;
    const char *host;       /* what "host" does */
    const char *joined;     /* the namespace container:NAME joins, or NULL
                               when the field takes no container: value */
};

static const struct namespace_field fields[] = {
    { "network_mode", "shares the host's network stack, including services "
      "on its loopback interface", "network" },
    { "pid", "shares the host's process namespace, making host processes "
      "visible", "process" },
    { "ipc", "shares the host's IPC namespace: shared memory, semaphores and "
      "message queues", "IPC" },
    { "userns_mode", "turns off user namespace remapping, so container user "
      "IDs are host user IDs", NULL },
    { "uts", "shares the host's hostname and NIS domain name", NULL },
    { "cgroup", "shares the host's cgroup namespace, exposing the host's "
      "cgroup hierarchy", NULL },
};

/*
 * The name of the service of this document whose container_name is name
 * (length bytes), or NULL.  A file without services (the legacy format)
 * holds its services at the top level.
 */
static const char *container_owner(struct sl_context *ctx, const char *name,
                                   size_t length)
{
    const struct sl_node *root = sl_document_root(ctx);
    const struct sl_node *services = sl_mapping_value(root, "services", NULL);
    if (services == NULL)
        services = root;
    if (length == 0 || sl_has_interpolation(name, length))
        return NULL;
    size_t count = sl_node_count(services);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *key, *value;
        if (sl_mapping_entry(services, i, &key, &value) == SL_ERROR)
            break;
        size_t container_length;
        const char *container = sl_setting_text(
            sl_mapping_value(value, "container_name", NULL), &container_length);
        if (container != NULL && container_length == length &&
            memcmp(container, name, length) == 0 &&
            sl_node_kind(key) == SL_NODE_SCALAR)
            return sl_node_text(key, NULL);
    }
    return NULL;
}

static int check_field(struct sl_context *ctx, const struct namespace_field *field,
                       const struct sl_node *key, const struct sl_node *value)
{
    if (sl_is_empty(value))
        return SL_OK;
    if (sl_node_kind(value) != SL_NODE_SCALAR) {
        const char *kind = sl_kind_value(value);
        return sl_reportf(ctx, key, field->name, kind, strlen(kind),
                          SL_SEVERITY_WARNING,
                          "%s is a %s and cannot be checked", field->name,
                          kind[1] == 'm' ? "mapping" : "sequence");
    }
    size_t length;
    const char *text = sl_node_text(value, &length);
    char quoted[SL_QUOTE_SIZE];
    sl_quote(quoted, sizeof(quoted), text, length);
    if (sl_text_equals(text, length, "host"))
        return sl_reportf(ctx, key, field->name, text, length,
                          SL_SEVERITY_DEFAULT, "%s 'host' %s", field->name,
                          field->host);
    if (field->joined != NULL && sl_text_starts_with(text, length, "container:")) {
        static const size_t prefix = sizeof("container:") - 1;
        const char *owner = container_owner(ctx, text + prefix, length - prefix);
        char service[SL_QUOTE_SIZE];
        if (owner != NULL)
            return sl_reportf(ctx, key, field->name, text, length,
                              SL_SEVERITY_DEFAULT,
                              "%s '%s' joins the %s namespace of the container of "
                              "service '%s' in this file",
                              field->name, quoted, field->joined,
                              sl_quote(service, sizeof(service), owner,
                                       strlen(owner)));
        return sl_reportf(ctx, key, field->name, text, length,
                          SL_SEVERITY_DEFAULT,
                          "%s '%s' joins the %s namespace of a container "
                          "outside this Compose file", field->name, quoted,
                          field->joined);
    }
    if (sl_text_starts_with(text, length, "service:"))
        return SL_OK;   /* stays among the declared services */
    if (sl_has_interpolation(text, length))
        return sl_reportf(ctx, key, field->name, text, length,
                          SL_SEVERITY_WARNING,
                          "%s '%s' is interpolated and cannot be checked",
                          field->name, quoted);
    return SL_OK;       /* none, private, shareable, bridge, a network... */
}

/* A pod spec's host namespace switches. */
struct pod_namespace {
    const char *name;
    const char *what;           /* what setting it to true does */
};

static const struct pod_namespace pod_namespaces[] = {
    { "hostNetwork", "shares the host's network stack, including services on "
      "its loopback interface" },
    { "hostPID", "shares the host's process namespace, making host processes "
      "visible" },
    { "hostIPC", "shares the host's IPC namespace: shared memory, semaphores "
      "and message queues" },
    { "hostUsers", "is stated, so the pod runs in the host's user namespace "
      "and container user IDs are host user IDs" },
};

static int check_pod_spec(struct sl_context *ctx, const struct sl_node *spec)
{
    for (size_t i = 0; i < sizeof(pod_namespaces) / sizeof(*pod_namespaces); i++) {
        const struct sl_node *key;
        const struct sl_node *value = sl_mapping_value(spec, pod_namespaces[i].name, &key);
        const char *text;
        size_t length;
        int status = SL_OK;
        if (value == NULL)
            continue;
        switch (sl_flag_in(ctx, value, &text, &length)) {
        case SL_FLAG_ON:
            status = sl_reportf(ctx, key, pod_namespaces[i].name, NULL, 0,
                                SL_SEVERITY_DEFAULT, "%s: true %s",
                                pod_namespaces[i].name, pod_namespaces[i].what);
            break;
        case SL_FLAG_INTERPOLATED:
            status = sl_report_templated(ctx, NULL, key, pod_namespaces[i].name, text,
                                         length);
            break;
        default:
            break;
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    if (sl_kind(ctx) == SL_KIND_KUBERNETES)
        return check_pod_spec(ctx, settings);
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        const struct sl_node *key;
        const struct sl_node *value = sl_mapping_value(settings, fields[i].name, &key);
        if (value != NULL && check_field(ctx, &fields[i], key, value) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static const struct sl_rule namespaces_rule = {
    SL_RULE_INIT,
    .code = "SBX002",
    .name = "namespaces",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 8.0,
    .summary = "shared namespaces",
    .description =
        "Reports, for each service:\n"
        "- network_mode, pid, ipc, userns_mode, uts or cgroup set to exactly "
        "host;\n"
        "- network_mode, pid or ipc set to container:NAME, which joins a "
        "container that this file does not declare (also when NAME is "
        "interpolated). When NAME is the container_name of a service of the "
        "same file, the message names that service; it is still reported, "
        "with the same key: service:NAME says the same without depending on "
        "a fixed container name.\n"
        "service:NAME references, none, private, shareable and other "
        "literal values are fine. Any other interpolated value (${NET_MODE}, "
        "${PID:-host}) is a warning: it cannot be checked.\n"
        "In a Kubernetes pod spec: hostNetwork, hostPID or hostIPC set to "
        "true, and hostUsers: true stated (the field is written only to opt "
        "out of a user namespace). Helm template text ({{ ... }}) is a "
        "warning. agent-env values have no such fields.",
    .rationale =
        "A namespace is one of the walls between a container and the host. "
        "Sharing the host's network lets sandboxed code reach services that "
        "listen only on the host's loopback interface and bind host ports; "
        "the host's PID namespace shows every host process and, with enough "
        "privilege, lets it signal or trace them; the IPC namespace exposes "
        "shared memory of host programs; userns_mode host gives up user "
        "namespace remapping; uts and cgroup reveal or change host "
        "identifiers and the cgroup tree. Joining a container: namespace "
        "connects the sandbox to a container whose configuration this file "
        "does not show.",
    .fix =
        "Remove the setting, or use the private default. To share a "
        "namespace with a sibling, use service:NAME. If the sandbox really "
        "needs the host's namespace, write down why and allowlist the key "
        "under sandbox_privileges for the package; the finding then becomes "
        "a warning.",
    .key_format =
        "service:FIELD:host (e.g. default:network_mode:host)\n"
        "service:FIELD:container:NAME, the whole value as written (e.g. "
        "default:pid:container:monitor)\n"
        "service:FIELD:VALUE for an interpolated value (e.g. "
        "default:ipc:${IPC_MODE})\n"
        "Kubernetes: KIND/NAME:hostNetwork (e.g. Pod/runner:hostPID)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    network_mode: host\n"
        "    pid: container:monitor",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX002.md",
};

static const struct sl_rule *const rules[] = { &namespaces_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "namespaces",
    .version = "1.0.0",
    .summary = "host and container namespaces shared with a service",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
