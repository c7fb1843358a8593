/*
 * namespaces.c - SBX002: shared namespaces.
 *
 * A container or pod that shares a namespace of the host (network_mode,
 * pid, ipc, userns_mode, uts or cgroup host; hostNetwork, hostPID,
 * hostIPC, hostUsers true) or joins one of a container outside the file
 * (container:NAME), or whose Compose network is the engine's network host,
 * read on the container model where the scope writes it
 * (SPEC §7, §12, §18).  The agent-env chart has no such fields: its scopes
 * say so, and nothing is reported.
 */
#include <sandlint/rule.h>

/* The namespaces, in the order they are reported. */
static const struct {
    int id;
    const char *host;           /* what sharing the host's does */
    const char *joined;         /* the namespace container:NAME joins */
} namespaces[] = {
    { SL_SETTING_NETWORK_NAMESPACE, "shares the host's network stack, including "
      "services on its loopback interface", "network" },
    { SL_SETTING_PID_NAMESPACE, "shares the host's process namespace, making host "
      "processes visible", "process" },
    { SL_SETTING_IPC_NAMESPACE, "shares the host's IPC namespace: shared memory, "
      "semaphores and message queues", "IPC" },
    { SL_SETTING_USER_NAMESPACE, "turns off user namespace remapping, so container user "
      "IDs are host user IDs", NULL },
    { SL_SETTING_UTS_NAMESPACE, "shares the host's hostname and NIS domain name", NULL },
    { SL_SETTING_CGROUP_NAMESPACE, "shares the host's cgroup namespace, exposing the "
      "host's cgroup hierarchy", NULL },
    { SL_SETTING_BUILD_NETWORK, "runs the build steps from the repository on the "
      "builder's host network stack", NULL },
};

/* build.entitlements network.host: build steps may use the host's
 * network (SBX001 reports the entries it cannot read). */
static int check_entitlements(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    char quoted[SL_QUOTE_SIZE];
    if (sl_setting(ctx, scope, SL_SETTING_BUILD_ENTITLEMENTS, SL_VIEW_WRITTEN, &setting) !=
        SL_OK)
        return SL_ERROR;
    for (size_t i = 0; i < setting.count; i++) {
        struct sl_value value;
        if (sl_setting_value(ctx, scope, SL_SETTING_BUILD_ENTITLEMENTS, SL_VIEW_WRITTEN, i,
                             &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_SET ||
            !sl_text_equals(value.parsed, value.parsed_length, "network.host"))
            continue;
        if (sl_report_value(ctx, &value, value.node, SL_SEVERITY_DEFAULT, NULL, 0.0,
                            "%s '%s' lets the build steps from the repository use the "
                            "builder's host network stack", value.label,
                            sl_quote(quoted, sizeof(quoted), value.text,
                                     value.text_length)) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* hostUsers: true is the switch a pod writes only to leave its own user
 * namespace: said so. */
static const char host_users[] = "is stated, so the pod runs in the host's user namespace "
                                 "and container user IDs are host user IDs";

static int check_value(struct sl_context *ctx, size_t n, const struct sl_value *value)
{
    char quoted[SL_QUOTE_SIZE], service[SL_QUOTE_SIZE];
    if (value->state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, value, value->key, SL_WORDING_VALUE);
    sl_quote(quoted, sizeof(quoted), value->text, value->text_length);
    if (value->meaning == SL_NAMESPACE_HOST && value->form == SL_FORM_FLAG)
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s: true %s", value->label,
                               namespaces[n].id == SL_SETTING_USER_NAMESPACE
                                   ? host_users : namespaces[n].host);
    if (value->meaning == SL_NAMESPACE_HOST && value->form == SL_FORM_ENTRY &&
        value->parsed != NULL) {
        /* A network the container joins whose engine name is host. */
        char name[SL_QUOTE_SIZE];
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s '%s' is the engine's network '%s': the container runs "
                               "as with network_mode host and %s", value->label, quoted,
                               sl_quote(name, sizeof(name), value->parsed,
                                        value->parsed_length),
                               namespaces[n].host);
    }
    if (value->meaning == SL_NAMESPACE_HOST)
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s '%s' %s", value->label, quoted, namespaces[n].host);
    if (value->meaning != SL_NAMESPACE_CONTAINER)
        return SL_OK;   /* none, private, service:NAME, a network... */
    if (value->peer != NULL)
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s '%s' joins the %s namespace of the container of "
                               "service '%s' in this file", value->label, quoted,
                               namespaces[n].joined,
                               sl_quote(service, sizeof(service), value->peer,
                                        value->peer_length));
    /* Only a Compose file has other services it could be one of. */
    if (sl_kind(ctx) != SL_KIND_COMPOSE)
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s '%s' joins the %s namespace of another container",
                               value->label, quoted, namespaces[n].joined);
    return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                           "%s '%s' joins the %s namespace of a container outside this "
                           "Compose file", value->label, quoted, namespaces[n].joined);
}

/* A container or pod: the namespaces it writes itself. */
static int check_scope(struct sl_context *ctx, const struct sl_scope *scope)
{
    for (size_t n = 0; n < sizeof(namespaces) / sizeof(*namespaces); n++) {
        struct sl_setting setting;
        if (sl_setting(ctx, scope, namespaces[n].id, SL_VIEW_WRITTEN, &setting) != SL_OK)
            return SL_ERROR;
        for (size_t i = 0; i < setting.count; i++) {
            struct sl_value value;
            if (sl_setting_value(ctx, scope, namespaces[n].id, SL_VIEW_WRITTEN, i,
                                 &value) != SL_OK ||
                check_value(ctx, n, &value) != SL_OK)
                return SL_ERROR;
        }
    }
    return check_entitlements(ctx, scope);
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
        "- networks: each network the service joins (without networks or "
        "network_mode, the project's network default) whose engine name is "
        "host: name: host, or the key host of an external network. Docker "
        "Compose hands that name to the engine as the network mode, so the "
        "container runs in the host's network stack, as with network_mode "
        "host. A network name interpolated from an unset variable is a "
        "warning.\n"
        "- Compose builds: build.network host and the build.entitlements "
        "entry network.host (build steps from the repository on the "
        "builder's host network).\n"
        "service:NAME references, none, private, shareable and other "
        "literal values are fine. An interpolated value is resolved with the "
        "project's .env and defaults: one that resolves to host (${PID:-host}) "
        "is an error keyed by host; one that stays unknown (${NET_MODE}) is a "
        "warning: it cannot be checked.\n"
        "Engine command lines, dev container runArgs and CI job options: "
        "--network (--net), --pid, --ipc, --uts, --userns and --cgroupns set "
        "to host, or to podman's ns:PATH (a namespace named by a host path, "
        "read as the host's); container:NAME joins as above.\n"
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
        "service:networks:NETWORK, the network's key (e.g. web:networks:hostnet, "
        "web:networks:default)\n"
        "service:build.network:host, service:build.entitlements:network.host\n"
        "Kubernetes: KIND/NAME:hostNetwork (e.g. Pod/runner:hostPID), led "
        "by NAMESPACE/ when the object has one",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    network_mode: host\n"
        "    pid: container:monitor",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_EVERY,
    .check_container = check_scope,
    .check_scope = check_scope,
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
