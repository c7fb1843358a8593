/*
 * service_account_token.c - SBX008: a Kubernetes API token in the sandbox.
 *
 * automountServiceAccountToken: true puts a token for the Kubernetes API
 * into every container of the pod; serviceAccountName picks the account
 * whose rights that token carries, which a file cannot show (SPEC §12).
 * agent-env values state both at the top level for every sandbox pod (the
 * model's project scope); Kubernetes pod specs state them per pod, and a
 * ServiceAccount object states the default of the pods that use it (an
 * account scope).  Read on the container model where each scope writes
 * them; formats without these settings say so, and nothing is reported.
 */
#include <sandlint/rule.h>

/* Who gets the token a scope's automountServiceAccountToken: true mounts. */
static const char *whose(const struct sl_scope *scope)
{
    switch (scope->level) {
    case SL_SCOPE_PROJECT:
        return "every sandbox pod";
    case SL_SCOPE_ACCOUNT:
        return "every pod that uses the account and does not opt out";
    default:
        /* A Compose service: inspect_k8s_sandbox makes a pod of it. */
        return scope->platform == SL_PLATFORM_ENGINE
                   ? "the pod inspect_k8s_sandbox makes of the service"
                   : "every container of the pod";
    }
}

static int check_token(struct sl_context *ctx, const struct sl_scope *scope,
                       const struct sl_value *value)
{
    if (value->state == SL_VALUE_TEMPLATED)
        return sl_report_unresolved(ctx, value, value->key, SL_WORDING_VALUE);
    if (value->state != SL_VALUE_SET || value->meaning != 1)
        return SL_OK;   /* false, or not a switch */
    char buffer[256];
    if (value->form == SL_FORM_ENTRY) {
        /* A projected volume's serviceAccountToken source: the token is
         * mounted where a container mounts the volume, whatever
         * automountServiceAccountToken says. */
        char quoted[SL_QUOTE_SIZE];
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT,
                               sl_hint_or_allowlist(buffer, sizeof(buffer),
                                                    "remove the serviceAccountToken "
                                                    "source from the projected volume"),
                               0.0,
                               "projected volume '%s' holds a Kubernetes API token "
                               "(serviceAccountToken) that its containers can mount, "
                               "whatever automountServiceAccountToken says",
                               sl_quote(quoted, sizeof(quoted), value->text,
                                        value->text_length));
    }
    if (value->origin == SL_ORIGIN_DEFAULT && scope->level == SL_SCOPE_POD)
        /* Not written: Kubernetes' default, which the pod (or its account
         * in the same file) did not turn off. */
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_WARNING,
                               sl_hint_or_allowlist(buffer, sizeof(buffer),
                                                    "add 'automountServiceAccountToken: "
                                                    "false' to the pod spec (or to its "
                                                    "ServiceAccount)"),
                               0.0,
                               "the pod gets a Kubernetes API token by default: neither "
                               "it nor its service account in this file sets "
                               "%s: false", value->label);
    if (value->origin == SL_ORIGIN_DEFAULT)
        /* Written away (agent-env's null): Kubernetes' own default. */
        return sl_report_value(ctx, value, value->key, SL_SEVERITY_WARNING,
                               sl_hint_or_allowlist(buffer, sizeof(buffer),
                                                    "write 'automountServiceAccountToken: "
                                                    "false', the chart's default"),
                               0.0,
                               "%s: null removes the chart's false, and Kubernetes' default "
                               "mounts a Kubernetes API token into %s", value->label,
                               whose(scope));
    return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 0.0,
                           "%s: true mounts a Kubernetes API token into %s", value->label,
                           whose(scope));
}

/* serviceAccountName (or its deprecated alias serviceAccount): an account
 * whose rights a file cannot show.  A pod's "default" is the namespace's
 * account, which holds no rights unless someone grants them; a file's
 * project-wide values have no default to compare with. */
static int check_name(struct sl_context *ctx, const struct sl_scope *scope,
                      const struct sl_value *value)
{
    char quoted[SL_QUOTE_SIZE];
    if (value->state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, value, value->key, SL_WORDING_VALUE);
    if (scope->level == SL_SCOPE_POD &&
        sl_text_equals(value->parsed, value->parsed_length, "default"))
        return SL_OK;
    /* The name is literal: what to do is review the account's rights or
     * give the pod no token, in the format's own key (SPEC 18); "use a
     * literal value" would be no advice. */
    char hint[256];
    sl_hint_or_allowlist(hint, sizeof(hint),
                         sl_kind(ctx) == SL_KIND_COMPOSE
                             ? "review the RBAC rights bound to this service account, or "
                               "set 'automount_service_account_token: false' beside it"
                             : "review the RBAC rights bound to this service account, or "
                               "set 'automountServiceAccountToken: false'");
    return sl_report_value(ctx, value, value->key, SL_SEVERITY_WARNING, hint, 0.0,
                           "%s '%s' names a service account whose rights cannot be "
                           "checked here", value->label,
                           sl_quote(quoted, sizeof(quoted), value->text, value->text_length));
}

/* A pod, a ServiceAccount, or agent-env's project-wide values: the token
 * and the account they write. */
static int check_scope(struct sl_context *ctx, const struct sl_scope *scope)
{
    static const int ids[] = { SL_SETTING_SERVICE_ACCOUNT_TOKEN,
                               SL_SETTING_SERVICE_ACCOUNT_NAME };
    for (size_t s = 0; s < sizeof(ids) / sizeof(*ids); s++) {
        struct sl_setting setting;
        if (sl_setting(ctx, scope, ids[s], SL_VIEW_WRITTEN, &setting) != SL_OK)
            return SL_ERROR;
        for (size_t i = 0; i < setting.count; i++) {
            struct sl_value value;
            if (sl_setting_value(ctx, scope, ids[s], SL_VIEW_WRITTEN, i, &value) != SL_OK)
                return SL_ERROR;
            if ((ids[s] == SL_SETTING_SERVICE_ACCOUNT_TOKEN
                     ? check_token(ctx, scope, &value)
                     : check_name(ctx, scope, &value)) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

/* A container that writes the settings itself (a Compose service's
 * x-inspect_k8s_sandbox block, which inspect_k8s_sandbox writes into the
 * pod it makes of the service); what a container inherits from its pod is
 * reported at the pod. */
static int check_container(struct sl_context *ctx, const struct sl_scope *scope)
{
    static const int ids[] = { SL_SETTING_SERVICE_ACCOUNT_TOKEN,
                               SL_SETTING_SERVICE_ACCOUNT_NAME };
    for (size_t s = 0; s < sizeof(ids) / sizeof(*ids); s++) {
        struct sl_setting setting;
        if (sl_setting(ctx, scope, ids[s], SL_VIEW_WRITTEN, &setting) != SL_OK)
            return SL_ERROR;
        for (size_t i = 0; i < setting.count; i++) {
            struct sl_value value;
            if (sl_setting_value(ctx, scope, ids[s], SL_VIEW_WRITTEN, i, &value) != SL_OK)
                return SL_ERROR;
            if (value.origin != SL_ORIGIN_OWN)
                continue;
            if ((ids[s] == SL_SETTING_SERVICE_ACCOUNT_TOKEN
                     ? check_token(ctx, scope, &value)
                     : check_name(ctx, scope, &value)) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

static const struct sl_rule service_account_token_rule = {
    SL_RULE_INIT,
    .code = "SBX008",
    .name = "service_account_token",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 8.0,
    .summary = "a Kubernetes API token inside the sandbox",
    .description =
        "Reports automountServiceAccountToken: true (an error) and a "
        "serviceAccountName (a warning: the account's rights cannot be "
        "checked from the file):\n"
        "- agent-env values: the top-level settings, which apply to every "
        "sandbox pod;\n"
        "- Kubernetes pod specs: the pod's own settings; serviceAccountName "
        "default, the namespace's own account, is fine, and the deprecated "
        "serviceAccount is read like serviceAccountName;\n"
        "- Kubernetes ServiceAccount objects: automountServiceAccountToken: "
        "true, the default of every pod that uses the account;\n"
        "- a projected volume with a serviceAccountToken source (Kubernetes "
        "pod specs, agent-env services' volumes): an API token whatever "
        "automountServiceAccountToken says (an error);\n"
        "- a Kubernetes pod that does not set automountServiceAccountToken "
        "gets a token by default (a warning), unless its ServiceAccount in "
        "the same file (serviceAccountName, else default, in the pod's "
        "namespace) sets false; pods made from an agent-sandbox "
        "SandboxTemplate get none (its controller's default);\n"
        "- Compose services: x-inspect_k8s_sandbox (or x-k8s) "
        "automount_service_account_token: true and service_account_name, "
        "which inspect_k8s_sandbox writes into the service's pod.\n"
        "false, an absent setting and null are fine. Helm template text "
        "({{ ... }}) is a warning: it cannot be checked.",
    .rationale =
        "A mounted service account token lets whatever runs in the "
        "container call the cluster's API with the account's rights. "
        "Sandboxed code that finds "
        "/var/run/secrets/kubernetes.io/serviceaccount/token can list "
        "secrets, start pods on other nodes or read other evaluations' "
        "data, as far as the account's RBAC bindings allow - and those "
        "bindings are not in the file.",
    .fix =
        "Set automountServiceAccountToken: false (the agent-env chart's "
        "default) and drop serviceAccountName. For cloud workload identity "
        "(IRSA, GKE Workload Identity) the provider injects its own token; "
        "keep the Kubernetes one off. If the sandbox really needs the API, "
        "bind the account to the least rights it needs, write down why, and "
        "allowlist the key under sandbox_privileges for the package.",
    .key_format =
        "agent-env: automountServiceAccountToken and "
        "serviceAccountName:NAME (document-level keys, no service)\n"
        "Kubernetes: KIND/NAME:automountServiceAccountToken, "
        "KIND/NAME:serviceAccountName:ACCOUNT (e.g. "
        "Pod/runner:serviceAccountName:builder), "
        "ServiceAccount/NAME:automountServiceAccountToken, "
        "KIND/NAME:projected.serviceAccountToken:VOLUME (agent-env: "
        "SERVICE:projected.serviceAccountToken:VOLUME); NAMESPACE/ "
        "leads when the object has one\n"
        "Compose: "
        "service:x-inspect_k8s_sandbox.automount_service_account_token, "
        "service:x-inspect_k8s_sandbox.service_account_name:NAME",
    .example =
        "automountServiceAccountToken: true\n"
        "serviceAccountName: evals-runner\n"
        "services:\n"
        "  default:\n"
        "    image: python:3.12",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_EVERY,
    .check_scope = check_scope,
    .check_container = check_container,
    .url = RULE_DOCS_URL "SBX008.md",
};

static const struct sl_rule *const rules[] = { &service_account_token_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "service_account_token",
    .version = "1.0.0",
    .summary = "Kubernetes API tokens mounted into sandbox pods",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
