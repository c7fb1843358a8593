/*
 * privileges.c - SBX001: elevated privileges and device access.
 *
 * privileged, cap_add, devices, device_cgroup_rules and the security_opt
 * values that switch a confinement mechanism off (SPEC §7).
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

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
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
        "reservations under deploy.resources are fine.",
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
        "seccomp:unconfined are different keys)",
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
