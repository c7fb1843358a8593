/*
 * privileges.c - SBX001: elevated privileges and device access.
 *
 * privileged, cap_add, devices, device_cgroup_rules and the security_opt
 * values that switch a confinement mechanism off (SPEC §7); in agent-env
 * values and Kubernetes objects, the securityContext fields that mean the
 * same (SPEC §12).
 */
#include <sandlint/rule.h>

static int check_privileged(struct sl_context *ctx, const struct sl_node *key,
                            const struct sl_node *value)
{
    const char *text;
    size_t length;
    char quoted[SL_QUOTE_SIZE];
    switch (sl_flag(value, &text, &length)) {
    case SL_FLAG_ON:
        /* Critical: privileged mode is root on the host. */
        return sl_reportf_scored(ctx, key, "privileged", NULL, 0, SL_SEVERITY_DEFAULT,
                                 9.5, "privileged mode grants every capability, "
                                 "host devices and relaxed security profiles");
    case SL_FLAG_INTERPOLATED:
        return sl_reportf(ctx, key, "privileged", text, length,
                          SL_SEVERITY_WARNING,
                          "privileged is set by interpolation '%s' and "
                          "cannot be checked",
                          sl_quote(quoted, sizeof(quoted), text, length));
    default:
        return SL_OK;
    }
}

/* What a security_opt entry disables, or NULL when it disables nothing. */
static const char *disabled_protection(const char *text, size_t length)
{
    size_t split = 0;
    while (split < length && text[split] != ':' && text[split] != '=')
        split++;
    if (split == length)
        return NULL;
    const char *option = text, *value = text + split + 1;
    size_t option_length = split, value_length = length - split - 1;
    if (sl_text_equals(option, option_length, "seccomp") &&
        sl_text_equals(value, value_length, "unconfined"))
        return "removes the seccomp system-call filter";
    if (sl_text_equals(option, option_length, "apparmor") &&
        sl_text_equals(value, value_length, "unconfined"))
        return "removes AppArmor confinement";
    if (sl_text_equals(option, option_length, "label") &&
        (sl_text_equals(value, value_length, "disable") ||
         sl_text_equals(value, value_length, "type:spc_t") ||
         sl_text_equals(value, value_length, "type:unconfined_t")))
        return "removes SELinux label confinement";
    if (sl_text_equals(option, option_length, "systempaths") &&
        sl_text_equals(value, value_length, "unconfined"))
        return "unmasks the kernel's protected system paths";
    return NULL;
}

enum list_field { CAP_ADD, DEVICES, DEVICE_CGROUP_RULES, SECURITY_OPT };

static const char *const field_names[] = {
    "cap_add", "devices", "device_cgroup_rules", "security_opt",
};

static int check_entry(struct sl_context *ctx, enum list_field field,
                       const struct sl_node *where, const struct sl_node *entry)
{
    const char *name = field_names[field];
    const struct sl_node *scalar = entry;
    if (field == DEVICES && sl_node_kind(entry) == SL_NODE_MAPPING)
        scalar = sl_mapping_value(entry, "source", NULL);
    size_t length;
    const char *text = sl_node_text(scalar, &length);
    if (text == NULL || sl_node_kind(scalar) != SL_NODE_SCALAR)
        return sl_report_unchecked(ctx, where, name, entry);
    if (sl_is_empty(scalar))
        return SL_OK;   /* an empty item is no setting */

    char quoted[SL_QUOTE_SIZE];
    sl_quote(quoted, sizeof(quoted), text, length);
    if (field == SECURITY_OPT) {
        const char *what = disabled_protection(text, length);
        if (what != NULL)
            return sl_reportf(ctx, where, name, text, length,
                              SL_SEVERITY_DEFAULT, "security_opt '%s' %s",
                              quoted, what);
    }
    if (sl_has_interpolation(text, length))
        return sl_reportf(ctx, where, name, text, length, SL_SEVERITY_WARNING,
                          "%s entry '%s' is interpolated and cannot be "
                          "checked", name, quoted);
    switch (field) {
    case CAP_ADD:
        return sl_reportf(ctx, where, name, text, length, SL_SEVERITY_DEFAULT,
                          "cap_add grants the Linux capability '%s'", quoted);
    case DEVICES:
        return sl_reportf(ctx, where, name, text, length, SL_SEVERITY_DEFAULT,
                          "devices exposes the host device '%s'", quoted);
    case DEVICE_CGROUP_RULES:
        return sl_reportf(ctx, where, name, text, length, SL_SEVERITY_DEFAULT,
                          "device_cgroup_rules allows device access '%s'",
                          quoted);
    case SECURITY_OPT:
        break;
    }
    return SL_OK;
}


/* ---------------------------------------------------------------------- */
/* agent-env services and pod specs (SPEC §12)                             */
/* ---------------------------------------------------------------------- */

/* A securityContext field that names a profile type and the values of it
 * that switch a protection off. */
struct unconfined_type {
    const char *path;            /* below securityContext */
    const char *field;           /* the finding's field */
    const char *values[3];       /* NULL-terminated */
    const char *what;            /* what such a value does */
    int container_only;          /* not a pod-level field */
};

static const struct unconfined_type unconfined_types[] = {
    { "seccompProfile.type", "securityContext.seccompProfile.type",
      { "Unconfined", NULL, NULL }, "removes the seccomp system-call filter", 0 },
    { "appArmorProfile.type", "securityContext.appArmorProfile.type",
      { "Unconfined", NULL, NULL }, "removes AppArmor confinement", 0 },
    { "seLinuxOptions.type", "securityContext.seLinuxOptions.type",
      { "spc_t", "unconfined_t", NULL }, "removes SELinux label confinement", 0 },
    { "procMount", "securityContext.procMount",
      { "Unmasked", NULL, NULL }, "unmasks the kernel's protected /proc paths", 1 },
};

/* An item that is a collection where a scalar is expected. */
static int report_collection(struct sl_context *ctx, const char *service,
                             const struct sl_node *where, const char *field,
                             const struct sl_node *entry)
{
    const char *kind = sl_kind_value(entry);
    return sl_reportf_service(ctx, service, where, field, kind, strlen(kind),
                              SL_SEVERITY_WARNING, "%s entry is a %s and cannot be "
                              "checked", field,
                              kind[1] == 'm' ? "mapping" : "sequence");
}

static int check_kube_privileged(struct sl_context *ctx, const char *service,
                                 const struct sl_node *security)
{
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_value(security, "privileged", &key);
    const char *text;
    size_t length;
    if (value == NULL)
        return SL_OK;
    switch (sl_flag_in(ctx, value, &text, &length)) {
    case SL_FLAG_ON:
        return sl_reportf_service_scored(ctx, service, key,
                                         "securityContext.privileged", NULL, 0,
                                         SL_SEVERITY_DEFAULT, 9.5,
                                         "a privileged container gets every "
                                         "capability, the host's devices and no "
                                         "seccomp or AppArmor confinement");
    case SL_FLAG_INTERPOLATED:
        return sl_report_templated(ctx, service, key, "securityContext.privileged",
                                text, length);
    default:
        return SL_OK;
    }
}

static int check_capabilities_add(struct sl_context *ctx, const char *service,
                                  const struct sl_node *security)
{
    static const char field[] = "securityContext.capabilities.add";
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_path(security, "capabilities.add", &key);
    size_t count = sl_list_count(value);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *entry = sl_list_entry(value, key, i, &where);
        size_t length;
        const char *text = sl_setting_text(entry, &length);
        char quoted[SL_QUOTE_SIZE];
        int status;
        if (sl_node_kind(entry) != SL_NODE_SCALAR)
            status = report_collection(ctx, service, where, field, entry);
        else if (text == NULL)
            status = SL_OK;     /* an empty item is no setting */
        else if (sl_is_templated(ctx, text, length))
            status = sl_report_templated(ctx, service, where, field, text, length);
        else
            status = sl_reportf_service(ctx, service, where, field, text, length,
                                        SL_SEVERITY_DEFAULT,
                                        "capabilities.add grants the Linux "
                                        "capability '%s'",
                                        sl_quote(quoted, sizeof(quoted), text, length));
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static int check_unconfined_types(struct sl_context *ctx, const char *service,
                                  const struct sl_node *security, int pod_level)
{
    for (size_t i = 0; i < sizeof(unconfined_types) / sizeof(*unconfined_types); i++) {
        const struct unconfined_type *type = &unconfined_types[i];
        const struct sl_node *key;
        const struct sl_node *value;
        size_t length;
        const char *text;
        char quoted[SL_QUOTE_SIZE];
        int status = SL_OK;
        if (pod_level && type->container_only)
            continue;
        value = sl_mapping_path(security, type->path, &key);
        text = sl_setting_text(value, &length);
        if (text == NULL)
            continue;
        if (sl_is_templated(ctx, text, length)) {
            status = sl_report_templated(ctx, service, value, type->field, text, length);
        } else {
            for (size_t v = 0; type->values[v] != NULL; v++)
                if (sl_text_equals(text, length, type->values[v]))
                    status = sl_reportf_service(
                        ctx, service, value, type->field, text, length,
                        SL_SEVERITY_DEFAULT, "%s '%s' %s", type->field,
                        sl_quote(quoted, sizeof(quoted), text, length), type->what);
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static int check_container(struct sl_context *ctx, const struct sl_container *container,
                           void *data)
{
    const struct sl_node *security =
        sl_mapping_value(container->container, "securityContext", NULL);
    (void)data;
    if (sl_node_kind(security) != SL_NODE_MAPPING)
        return SL_OK;
    if (check_kube_privileged(ctx, container->service, security) != SL_OK ||
        check_capabilities_add(ctx, container->service, security) != SL_OK ||
        check_unconfined_types(ctx, container->service, security, 0) != SL_OK)
        return SL_ERROR;
    return SL_OK;
}

/* An agent-env service (its container and init containers) or a pod spec
 * (its own securityContext, then every container). */
static int check_kubernetes_service(struct sl_context *ctx, const char *service,
                                    const struct sl_node *settings)
{
    if (sl_kind(ctx) == SL_KIND_KUBERNETES) {
        const struct sl_node *security = sl_mapping_value(settings, "securityContext", NULL);
        if (sl_node_kind(security) == SL_NODE_MAPPING &&
            check_unconfined_types(ctx, NULL, security, 1) != SL_OK)
            return SL_ERROR;
    }
    return sl_containers(ctx, service, settings, check_container, NULL);
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service_key;
    if (sl_kind(ctx) != SL_KIND_COMPOSE)
        return check_kubernetes_service(ctx, service, settings);
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_value(settings, "privileged", &key);
    if (value != NULL && check_privileged(ctx, key, value) != SL_OK)
        return SL_ERROR;
    for (int field = CAP_ADD; field <= SECURITY_OPT; field++) {
        value = sl_mapping_value(settings, field_names[field], &key);
        size_t count = sl_list_count(value);
        for (size_t i = 0; i < count; i++) {
            const struct sl_node *where;
            const struct sl_node *entry = sl_list_entry(value, key, i, &where);
            if (check_entry(ctx, (enum list_field)field, where, entry) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

static const struct sl_rule privileges_rule = {
    SL_RULE_INIT,
    .code = "SBX001",
    .name = "privileges",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 8.0,
    .summary = "elevated privileges and device access",
    .description =
        "Reports, for each service:\n"
        "- privileged set to a true value (true, yes, on, y in any case);\n"
        "- every cap_add entry;\n"
        "- every devices entry (a string, or the source of a long-syntax "
        "mapping);\n"
        "- every device_cgroup_rules entry;\n"
        "- security_opt entries that switch a protection off: "
        "seccomp unconfined, apparmor unconfined, label disable, "
        "label type:spc_t or type:unconfined_t, systempaths unconfined "
        "(with ':' or '=' as the separator).\n"
        "Interpolated values (${VAR}, $VAR) are warnings: they cannot be "
        "checked. cap_drop, no-new-privileges, custom profiles and GPU "
        "reservations under deploy.resources are fine.\n"
        "In agent-env values (each service and its initContainers) and "
        "Kubernetes objects (every container, init container and ephemeral "
        "container of every pod spec), the same in securityContext: "
        "privileged true, every capabilities.add item, seccompProfile.type "
        "or appArmorProfile.type Unconfined, seLinuxOptions.type spc_t or "
        "unconfined_t and procMount Unmasked; a pod spec's own "
        "securityContext is checked for the profile types too. Helm "
        "template text ({{ ... }}) is a warning: it cannot be checked.",
    .rationale =
        "Privileged mode hands the container every capability and the "
        "host's devices; added capabilities, devices and device rules each "
        "widen what sandboxed code may do to the kernel and the hardware; "
        "an unconfined seccomp, AppArmor or SELinux profile, or unmasked "
        "system paths, remove a layer that stops a container escape.",
    .fix =
        "Remove the setting. When the sandbox really needs it, keep it, "
        "write down why, and allowlist its key under sandbox_privileges for "
        "the package; the finding then becomes a warning.",
    .key_format =
        "service:privileged\n"
        "service:cap_add:CAPABILITY (e.g. default:cap_add:SYS_PTRACE)\n"
        "service:devices:ENTRY\n"
        "service:device_cgroup_rules:RULE\n"
        "service:security_opt:ENTRY (seccomp=unconfined and "
        "seccomp:unconfined are different keys)\n"
        "agent-env: S:securityContext.privileged, "
        "S:securityContext.capabilities.add:CAPABILITY, "
        "S/INIT:securityContext.FIELD:VALUE for an init container\n"
        "Kubernetes: KIND/NAME/CONTAINER:securityContext.FIELD[:VALUE], "
        "KIND/NAME:securityContext.seccompProfile.type:Unconfined for the "
        "pod",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    privileged: true\n"
        "    cap_add: [SYS_ADMIN]\n"
        "    security_opt:\n"
        "      - seccomp=unconfined",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX001.md",
};

static const struct sl_rule *const rules[] = { &privileges_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "privileges",
    .version = "1.0.0",
    .summary = "privileged mode, capabilities, devices, disabled security options",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
