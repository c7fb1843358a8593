/*
 * runtime_class.c - SBX007: an agent-env service that runs without gVisor.
 *
 * inspect_k8s_sandbox's agent-env chart runs every service under the
 * RuntimeClass named by services.S.runtimeClassName, gvisor when it is
 * null, empty or absent.  Any other class (runc, kata, CLUSTER_DEFAULT,
 * which the chart turns into the cluster's default) drops gVisor's
 * user-space kernel, the layer between sandboxed code and the host's
 * kernel (SPEC §12).  Read on the container model, at the pod the chart
 * makes of each service.  Kubernetes objects are not checked: which classes
 * a cluster has, and what they isolate, cannot be known from a file, so the
 * rule declares the agent-env kind, Compose, whose runtime
 * inspect_k8s_sandbox turns into the class, and the formats of engine
 * command lines, whose --runtime replaces the engine's default (SPEC §15).
 */
#include <sandlint/rule.h>

/* A pod the chart makes of a service: the class it writes (none, null or
 * empty is the chart's default, gvisor). */
static int check_pod(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    char quoted[SL_QUOTE_SIZE];
    if (sl_setting(ctx, scope, SL_SETTING_RUNTIME, SL_VIEW_WRITTEN, &setting) != SL_OK)
        return SL_ERROR;
    if (setting.count == 0)
        return SL_OK;
    if (sl_setting_value(ctx, scope, SL_SETTING_RUNTIME, SL_VIEW_WRITTEN, 0, &value) !=
        SL_OK)
        return SL_ERROR;
    if (value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.key, SL_WORDING_VALUE);
    if (sl_text_equals(value.parsed, value.parsed_length, "gvisor"))
        return SL_OK;
    if (sl_text_equals(value.parsed, value.parsed_length, "CLUSTER_DEFAULT"))
        return sl_report_value(ctx, &value, value.key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s 'CLUSTER_DEFAULT' runs the service under the "
                               "cluster's default runtime, without gVisor's kernel "
                               "sandbox", value.label);
    return sl_report_value(ctx, &value, value.key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                           "%s '%s' runs the service without gVisor's kernel sandbox",
                           value.label,
                           sl_quote(quoted, sizeof(quoted), value.text, value.text_length));
}

/* A Compose service's runtime: inspect_k8s_sandbox copies it verbatim into
 * the runtimeClassName of the pod it makes of the service (SPEC §13), so
 * anything but runsc or gvisor (runc above all) runs it without gVisor; a
 * warning, as the service may also run under Docker, where runc is the
 * default. */
static int check_service(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    char quoted[SL_QUOTE_SIZE], hint[160];
    if (sl_setting(ctx, scope, SL_SETTING_RUNTIME, SL_VIEW_WRITTEN, &setting) != SL_OK)
        return SL_ERROR;
    if (setting.count == 0)
        return SL_OK;
    if (sl_setting_value(ctx, scope, SL_SETTING_RUNTIME, SL_VIEW_WRITTEN, 0, &value) !=
        SL_OK)
        return SL_ERROR;
    if (value.origin != SL_ORIGIN_OWN)
        return SL_OK;   /* a pod's class: check_pod reports it there */
    if (value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.key, SL_WORDING_VALUE);
    if (sl_text_equals(value.parsed, value.parsed_length, "runsc") ||
        sl_text_equals(value.parsed, value.parsed_length, "gvisor"))
        return SL_OK;
    if (scope->kind != SL_KIND_COMPOSE)
        /* An engine's --runtime (a command line, runArgs, a CI job's
         * options, a GitLab Runner's runtime): the named runtime replaces
         * the engine's default, gVisor where it is runsc.  Chosen by kind,
         * not platform: only Compose files reach inspect_k8s_sandbox. */
        return sl_report_value(ctx, &value, value.key, SL_SEVERITY_WARNING,
                               sl_hint_or_allowlist(hint, sizeof(hint),
                                                    "remove the runtime (or name runsc) "
                                                    "for a sandbox that must run under "
                                                    "gVisor"),
                               0.0,
                               "%s '%s' replaces the engine's default runtime: the "
                               "container runs without gVisor's kernel sandbox, even "
                               "where the default is runsc",
                               value.label,
                               sl_quote(quoted, sizeof(quoted), value.text,
                                        value.text_length));
    return sl_report_value(ctx, &value, value.key, SL_SEVERITY_WARNING,
                           sl_hint_or_allowlist(hint, sizeof(hint),
                                                "remove runtime (or set it to runsc) "
                                                "for a sandbox run by "
                                                "inspect_k8s_sandbox"),
                           0.0,
                           "%s '%s' is copied by inspect_k8s_sandbox into the pod's "
                           "runtimeClassName, which then runs the service without "
                           "gVisor's kernel sandbox",
                           value.label,
                           sl_quote(quoted, sizeof(quoted), value.text, value.text_length));
}

static const struct sl_rule runtime_class_rule = {
    SL_RULE_INIT,
    .code = "SBX007",
    .name = "runtime_class",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 7.5,
    .summary = "a sandbox that runs without gVisor",
    .description =
        "Reports, for each service of an agent-env values file "
        "(inspect_k8s_sandbox's Helm chart), a runtimeClassName other than "
        "gvisor: runc, kata, CLUSTER_DEFAULT (the chart leaves the class "
        "to the cluster's default) or any other name. A runtimeClassName "
        "that is null, empty or absent is the chart's default, gvisor, and "
        "fine. Helm template text ({{ ... }}) is a warning: it cannot be "
        "checked.\n"
        "Compose services (a warning): a runtime other than runsc or gvisor. "
        "inspect_k8s_sandbox copies it verbatim into runtimeClassName, and "
        "runc turns gVisor off.\n"
        "Engine command lines, dev container runArgs, CI job containers and "
        "GitLab Runner (a warning): a --runtime (runtime) other than runsc or "
        "gvisor replaces the engine's default runtime, so a sandbox meant to "
        "run under gVisor runs on the host's kernel.\n"
        "Kubernetes objects are not checked: a cluster's RuntimeClasses, "
        "and what each isolates, cannot be known from a file.",
    .rationale =
        "gVisor runs each container on a kernel of its own, written in a "
        "memory-safe language and running in user space: a kernel exploit "
        "in sandboxed code meets gVisor, not the host's kernel. Under runc "
        "or the cluster's default runtime, the container shares the node's "
        "kernel, so one kernel bug is an escape to the node, its other pods "
        "and its credentials. Agent evaluations run code that is written "
        "to find such bugs.",
    .fix =
        "Remove runtimeClassName (or set it to gvisor). If the service "
        "needs something gVisor does not provide (a device, a system call "
        "it does not implement), write down why and allowlist the key "
        "under sandbox_privileges for the package; the finding then "
        "becomes a warning.",
    .key_format =
        "S:runtimeClassName:CLASS, the class as written (e.g. "
        "default:runtimeClassName:runc)\n"
        "Compose: service:runtime:RUNTIME (e.g. default:runtime:runc)\n"
        "Command lines: SERVICE:--runtime:RUNTIME (e.g. run1:--runtime:runc)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: python:3.12\n"
        "    runtimeClassName: runc",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_AGENT_ENV | SL_KIND_COMPOSE | SL_KIND_DEVCONTAINER | SL_KIND_SHELL |
             SL_KIND_MAKEFILE | SL_KIND_GITHUB_ACTIONS | SL_KIND_GITLAB_CI |
             SL_KIND_GITLAB_RUNNER,
    .check_scope = check_pod,
    .check_container = check_service,
    .url = RULE_DOCS_URL "SBX007.md",
};

static const struct sl_rule *const rules[] = { &runtime_class_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "runtime_class",
    .version = "1.0.0",
    .summary = "sandboxes that run without gVisor's kernel sandbox",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
