/*
 * engine_sockets.c - SBX006: container engine API access.
 *
 * use_api_socket, and the host mounts (found by the scope_mounts service,
 * exactly as SBX003 finds them) that expose a Docker, Podman, containerd,
 * CRI-O or BuildKit API socket, or a directory that holds
 * /var/run/docker.sock (SPEC §7); in agent-env values and Kubernetes pod
 * specs, hostPath volumes of the same paths (SPEC §12).
 */
#include <sandlint/rule.h>

/* Whether a host path is the root directory ("/", "//"): more than a
 * socket, the whole host (SPEC §13). */
static int is_host_root(const char *path, size_t length)
{
    size_t i;
    if (length == 0)
        return 0;
    for (i = 0; i < length; i++)
        if (path[i] != '/')
            return 0;
    return 1;
}

static int report_socket(struct sl_context *ctx, const struct sl_mount *mount,
                         void *data)
{
    char quoted[SL_QUOTE_SIZE];
    char described[SL_MOUNT_DESCRIPTION_SIZE];
    (void)data;
    if (mount->kind != SL_MOUNT_HOST_PATH || !(mount->flags & SL_MOUNT_ENGINE_API))
        return SL_OK;   /* SBX003 reports every other entry */
    if (is_host_root(mount->value, mount->value_length))
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_DEFAULT,
                          "bind-mounts host path '%s'%s, which exposes the whole "
                          "host file system (and with it every container engine "
                          "API socket)",
                          sl_quote(quoted, sizeof(quoted), mount->value,
                                   mount->value_length),
                          sl_mount_describe(mount, described, sizeof(described)));
    return sl_reportf(ctx, mount->node, mount->field, mount->value,
                      mount->value_length, SL_SEVERITY_DEFAULT,
                      "bind-mounts host path '%s'%s, which exposes a "
                      "container engine API socket",
                      sl_quote(quoted, sizeof(quoted), mount->value,
                               mount->value_length),
                      sl_mount_describe(mount, described, sizeof(described)));
}

/* use_api_socket, where the format has it: the engine's socket and the
 * user's registry credentials handed to the container. */
static int check_api_socket(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    if (sl_setting(ctx, scope, SL_SETTING_API_SOCKET, SL_VIEW_WRITTEN, &setting) != SL_OK)
        return SL_ERROR;
    if (setting.count == 0)
        return SL_OK;
    if (sl_setting_value(ctx, scope, SL_SETTING_API_SOCKET, SL_VIEW_WRITTEN, 0, &value) !=
        SL_OK)
        return SL_ERROR;
    if (value.state == SL_VALUE_TEMPLATED)
        return sl_report_unresolved(ctx, &value, value.key, SL_WORDING_BY_FORM);
    if (value.state != SL_VALUE_SET || value.meaning != 1)
        return SL_OK;
    if (value.origin == SL_ORIGIN_DEFAULT) {
        /* What the platform adds (a CI runner's socket mount): the file
         * cannot remove it, so it is said as a warning, in its label's
         * words, with a hint of its own (nothing here is interpolated). */
        char hint[256];
        const char *advice = setting.hint != NULL
                                 ? setting.hint
                                 : "run what must not reach the engine in a container the "
                                   "job starts itself, not as the job container";
        return sl_report_value(ctx, &value, value.key, SL_SEVERITY_WARNING,
                               sl_hint_or_allowlist(hint, sizeof(hint), advice),
                               0.0, "%s: the container can use the container engine's API",
                               value.label);
    }
    return sl_report_value(ctx, &value, value.key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                           "%s exposes the container engine API socket and the user's "
                           "registry credentials", value.label);
}

/* A container or pod: its use_api_socket, then its mounts of a socket. */
static int check_scope(struct sl_context *ctx, const struct sl_scope *scope)
{
    if (check_api_socket(ctx, scope) != SL_OK)
        return SL_ERROR;
    return sl_scope_mounts(ctx, scope, report_socket, NULL);
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
        "- a container the platform itself gives the engine's socket (a "
        "GitHub Actions job container, docker:// step or Docker container "
        "action: the runner mounts /var/run/docker.sock into it on Linux "
        "runners): a warning at container:, uses: or the action's using:;\n"
        "- every host mount, found exactly as SBX003 (mounts) finds them "
        "(short syntax, long syntax bind or npipe, named volumes bound to a "
        "host path), whose source or target names docker.sock, "
        "docker_engine, podman.sock, containerd.sock, crio.sock, "
        "cri-dockerd.sock or buildkitd.sock, or whose source is /, /run, "
        "/var or /var/run, or a directory that holds an engine's sockets: "
        "/var/run/docker, /run/docker, /run/containerd, /var/run/containerd, "
        "/run/podman, /run/buildkit, /run/crio, /run/k3s/containerd, "
        "/run/user and /run/user/UID (rootless engines) (a trailing '/' "
        "does not matter; /var/lib/docker is the engine's data: SBX003). A "
        "bind of / is said to expose the whole host file system. Such a mount is "
        "reported here and not by SBX003, with the same key.\n"
        "A mount whose source cannot be checked (an interpolation-only "
        "source) is SBX003's warning, not this rule's.\n"
        "In agent-env values and Kubernetes pod specs, a hostPath volume "
        "(or a PersistentVolume's local.path) whose path is such a socket "
        "or directory, with the key "
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
        "Kubernetes KIND/NAME:volumes:PATH, or KIND/NAME:hostPath:PATH "
        "outside a pod's volumes, PersistentVolume/NAME:local:PATH for a "
        "local volume; NAMESPACE/ leads when the object has one)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    use_api_socket: true\n"
        "    volumes:\n"
        "      - /var/run/docker.sock:/var/run/docker.sock:ro",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_EVERY,
    .check_container = check_scope,
    .check_scope = check_scope,
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
