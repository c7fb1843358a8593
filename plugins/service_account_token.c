/*
 * service_account_token.c - SBX008: a Kubernetes API token in the sandbox.
 *
 * automountServiceAccountToken: true puts a token for the Kubernetes API
 * into every container of the pod; serviceAccountName picks the account
 * whose rights that token carries, which a file cannot show (SPEC §12).
 * agent-env values state both at the top level for every sandbox pod;
 * Kubernetes pod specs state them per pod, and a ServiceAccount object
 * states the default of the pods that use it.
 */
#include <sandlint/rule.h>

/* The service of a finding about a ServiceAccount object, malloc'd (NULL
 * when out of memory): "ServiceAccount/<metadata.name>", as the host names
 * the pods of other objects ("<unnamed>" without a name). */
static char *account_service(const struct sl_node *object)
{
    static const char prefix[] = "ServiceAccount/";
    const struct sl_node *metadata = sl_mapping_value(object, "metadata", NULL);
    size_t length;
    const char *name = sl_setting_text(sl_mapping_value(metadata, "name", NULL), &length);
    char *service;
    if (name == NULL) {
        name = "<unnamed>";
        length = strlen(name);
    }
    service = (char *)malloc(sizeof(prefix) + length);
    if (service == NULL)
        return NULL;
    memcpy(service, prefix, sizeof(prefix) - 1);
    memcpy(service + sizeof(prefix) - 1, name, length);
    service[sizeof(prefix) - 1 + length] = '\0';
    return service;
}

/* automountServiceAccountToken of mapping, for service (NULL: the one
 * being checked, or the document). */
static int check_automount(struct sl_context *ctx, const char *service,
                           const struct sl_node *mapping, const char *whose)
{
    const struct sl_node *key;
    const struct sl_node *value =
        sl_mapping_value(mapping, "automountServiceAccountToken", &key);
    const char *text;
    size_t length;
    char quoted[SL_QUOTE_SIZE];
    if (value == NULL)
        return SL_OK;
    switch (sl_flag_in(ctx, value, &text, &length)) {
    case SL_FLAG_ON:
        return sl_reportf_service(ctx, service, key, "automountServiceAccountToken",
                                  NULL, 0, SL_SEVERITY_DEFAULT,
                                  "automountServiceAccountToken: true mounts a "
                                  "Kubernetes API token into %s", whose);
    case SL_FLAG_INTERPOLATED:
        return sl_reportf_service(ctx, service, key, "automountServiceAccountToken",
                                  text, length, SL_SEVERITY_WARNING,
                                  "automountServiceAccountToken is Helm template "
                                  "text '%s' and cannot be checked",
                                  sl_quote(quoted, sizeof(quoted), text, length));
    default:
        return SL_OK;
    }
}

/* serviceAccountName (and its deprecated alias serviceAccount) of mapping:
 * an account whose rights a file cannot show.  default_is_fine: a pod
 * spec's "default" is the namespace's account, which holds no rights
 * unless someone grants them; agent-env has no default to compare with. */
static int check_account_name(struct sl_context *ctx, const struct sl_node *mapping,
                              int default_is_fine)
{
    static const char *const fields[] = { "serviceAccountName", "serviceAccount" };
    for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
        const struct sl_node *key;
        const struct sl_node *value = sl_mapping_value(mapping, fields[i], &key);
        size_t length;
        const char *text;
        char quoted[SL_QUOTE_SIZE];
        int status;
        if (value == NULL || sl_is_empty(value))
            continue;
        if (sl_node_kind(value) != SL_NODE_SCALAR) {
            const char *kind = sl_kind_value(value);
            status = sl_reportf(ctx, key, fields[i], kind, strlen(kind),
                                SL_SEVERITY_WARNING, "%s is a %s and cannot be "
                                "checked", fields[i],
                                kind[1] == 'm' ? "mapping" : "sequence");
        } else if ((text = sl_setting_text(value, &length)) == NULL ||
                   (default_is_fine && sl_text_equals(text, length, "default"))) {
            continue;
        } else if (sl_is_templated(ctx, text, length)) {
            status = sl_report_templated(ctx, NULL, key, fields[i], text, length);
        } else {
            status = sl_reportf(ctx, key, fields[i], text, length, SL_SEVERITY_WARNING,
                                "%s '%s' names a service account whose rights "
                                "cannot be checked here",
                                fields[i], sl_quote(quoted, sizeof(quoted), text, length));
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* agent-env: the top-level settings of every sandbox pod.  Kubernetes: a
 * ServiceAccount object (pod specs come to check_service). */
static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    size_t length;
    const char *kind;
    char *service;
    int status;
    if (sl_kind(ctx) == SL_KIND_AGENT_ENV) {
        if (check_automount(ctx, NULL, root, "every sandbox pod") != SL_OK)
            return SL_ERROR;
        return check_account_name(ctx, root, 0);
    }
    kind = sl_setting_text(sl_mapping_value(root, "kind", NULL), &length);
    if (kind == NULL || !sl_text_equals(kind, length, "ServiceAccount"))
        return SL_OK;
    service = account_service(root);
    if (service == NULL) {
        sl_set_error(ctx, "out of memory");
        return SL_ERROR;
    }
    status = check_automount(ctx, service, root,
                             "every pod that uses the account and does not opt out");
    free(service);
    return status;
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    if (sl_kind(ctx) != SL_KIND_KUBERNETES)
        return SL_OK;   /* agent-env states these for every pod, at the top */
    if (check_automount(ctx, NULL, settings, "every container of the pod") != SL_OK)
        return SL_ERROR;
    return check_account_name(ctx, settings, 1);
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
        "true, the default of every pod that uses the account.\n"
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
        "ServiceAccount/NAME:automountServiceAccountToken",
    .example =
        "automountServiceAccountToken: true\n"
        "serviceAccountName: evals-runner\n"
        "services:\n"
        "  default:\n"
        "    image: python:3.12",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = check_document,
    .check_service = check_service,
    .kinds = SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
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
