/*
 * engine_sockets.c - SBX006: container engine API access.
 *
 * use_api_socket, and the host mounts (found by the host_mounts service,
 * exactly as SBX003 finds them) that expose a Docker, Podman, containerd,
 * CRI-O or BuildKit API socket, or a directory that holds
 * /var/run/docker.sock (SPEC §7); in agent-env values and Kubernetes pod
 * specs, hostPath volumes of the same paths (SPEC §12).
 */
#include <sandlint/rule.h>

static int check_use_api_socket(struct sl_context *ctx, const struct sl_node *key,
                                const struct sl_node *value)
{
    const char *text;
    size_t length;
    char quoted[SL_QUOTE_SIZE];
    switch (sl_flag(value, &text, &length)) {
    case SL_FLAG_ON:
        return sl_reportf(ctx, key, "use_api_socket", NULL, 0,
                          SL_SEVERITY_DEFAULT,
                          "use_api_socket exposes the container engine API "
                          "socket and the user's registry credentials");
    case SL_FLAG_INTERPOLATED:
        return sl_reportf(ctx, key, "use_api_socket", text, length,
                          SL_SEVERITY_WARNING,
                          "use_api_socket is set by interpolation '%s' and "
                          "cannot be checked",
                          sl_quote(quoted, sizeof(quoted), text, length));
    default:
        return SL_OK;
    }
}

static int report_socket(struct sl_context *ctx, const struct sl_mount *mount,
                         void *data)
{
    char quoted[SL_QUOTE_SIZE];
    char described[SL_MOUNT_DESCRIPTION_SIZE];
    (void)data;
    if (mount->kind != SL_MOUNT_HOST_PATH || !(mount->flags & SL_MOUNT_ENGINE_API))
        return SL_OK;   /* SBX003 reports every other entry */
    return sl_reportf(ctx, mount->node, mount->field, mount->value,
                      mount->value_length, SL_SEVERITY_DEFAULT,
                      "bind-mounts host path '%s'%s, which exposes a "
                      "container engine API socket",
                      sl_quote(quoted, sizeof(quoted), mount->value,
                               mount->value_length),
                      sl_mount_describe(mount, described, sizeof(described)));
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    const struct sl_node *key;
    const struct sl_node *value = sl_kind(ctx) == SL_KIND_COMPOSE
                                      ? sl_mapping_value(settings, "use_api_socket", &key)
                                      : NULL;   /* a Compose setting only */
    if (value != NULL && check_use_api_socket(ctx, key, value) != SL_OK)
        return SL_ERROR;
    return sl_host_mounts(ctx, settings, report_socket, NULL);
}

static const struct sl_rule engine_sockets_rule = {
    SL_RULE_INIT,
    .code = "SBX006",
    .name = "engine_sockets",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 9.8,
    .summary = "container engine API access",
    .description =
        "Reports, for each service:\n"
        "- use_api_socket set to a true value (true, yes, on, y in any "
        "case); an interpolated value is a warning;\n"
        "- every host mount, found exactly as SBX003 (mounts) finds them "
        "(short syntax, long syntax bind or npipe, named volumes bound to a "
        "host path), whose source or target names docker.sock, "
        "docker_engine, podman.sock, containerd.sock, crio.sock, "
        "cri-dockerd.sock or buildkitd.sock, or whose source is /, /run, "
        "/var or /var/run (a trailing '/' does not matter). Such a mount is "
        "reported here and not by SBX003, with the same key.\n"
        "A mount whose source cannot be checked (an interpolation-only "
        "source) is SBX003's warning, not this rule's.\n"
        "In agent-env values and Kubernetes pod specs, a hostPath volume "
        "whose path is such a socket or directory, with the key "
        "service:volumes:PATH that SBX003 would use.",
    .rationale =
        "Whoever can talk to a container engine's API can start a new "
        "container with the host's root directory mounted, or in privileged "
        "mode, and so controls the host. Mounting the socket read-only does "
        "not help: the API is used over the socket, not by writing the file, "
        "and the engine allows every operation by default. A directory such "
        "as /var/run or /run holds the socket too. use_api_socket also "
        "passes the user's registry credentials into the container.",
    .fix =
        "Remove the socket mount or use_api_socket. If the sandbox needs an "
        "engine, give it its own (rootless, or Docker-in-Docker on a private "
        "network) or a proxy that allows only the API calls it needs. If "
        "the host socket really is required, write down why and allowlist "
        "the key under sandbox_privileges for the package; the finding then "
        "becomes a warning.",
    .key_format =
        "service:use_api_socket\n"
        "service:use_api_socket:VALUE for an interpolated value (e.g. "
        "web:use_api_socket:${USE_SOCKET})\n"
        "service:volumes:SOURCE, the host source as written, the same key "
        "SBX003 would use (e.g. default:volumes:/var/run/docker.sock); "
        "for a hostPath volume its path (agent-env S:volumes:PATH, "
        "Kubernetes KIND/NAME:volumes:PATH)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    use_api_socket: true\n"
        "    volumes:\n"
        "      - /var/run/docker.sock:/var/run/docker.sock:ro",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX006.md",
};

static const struct sl_rule *const rules[] = { &engine_sockets_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "engine_sockets",
    .version = "1.0.0",
    .summary = "use_api_socket and mounts of container engine API sockets",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
