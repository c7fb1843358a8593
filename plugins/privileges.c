/*
 * privileges.c - SBX001: elevated privileges and device access.
 *
 * What a container (or its pod) writes that widens its reach into the
 * kernel and the hardware: privileged mode, added capabilities, host
 * devices and device cgroup rules, and a security profile switched off
 * (seccomp, AppArmor, SELinux, the masked kernel paths).  Read on the
 * container model, once for every kind (SPEC §7, §12, §18): each finding
 * at the scope that writes the setting.
 */
#include <sandlint/rule.h>

/* What privileged mode gives, in the words of the platform that runs it. */
static const char *privileged_message(int platform)
{
    return platform == SL_PLATFORM_KUBERNETES
               ? "a privileged container gets every capability, the host's devices and "
                 "no seccomp or AppArmor confinement"
               : "privileged mode grants every capability, host devices and relaxed "
                 "security profiles";
}

/* What an entry of a list setting grants. */
static const char *grant_format(int id)
{
    switch (id) {
    case SL_SETTING_CAP_ADD:
        return "%s grants the Linux capability '%s'";
    case SL_SETTING_DEVICES:
        return "%s exposes the host device '%s'";
    default:
        return "%s allows device access '%s'";
    }
}

/* What switching a protection off removes. */
static const char *removes(int id, int platform)
{
    switch (id) {
    case SL_SETTING_SECCOMP:
        return "removes the seccomp system-call filter";
    case SL_SETTING_APPARMOR:
        return "removes AppArmor confinement";
    case SL_SETTING_SELINUX:
        return "removes SELinux label confinement";
    default:
        return platform == SL_PLATFORM_KUBERNETES
                   ? "unmasks the kernel's protected /proc paths"
                   : "unmasks the kernel's protected system paths";
    }
}

/* Whether value is capabilities.add's NET_BIND_SERVICE in a container of a
 * pod that also drops ALL: Pod Security's "restricted" profile allows
 * exactly that (binding a port below 1024, nothing else), so it is no
 * finding on Kubernetes and agent-env (SPEC §13).  An engine keeps its
 * default capabilities beside an added one unless cap_drop says ALL, and
 * is not excused. */
static int restricted_pattern(struct sl_context *ctx, const struct sl_scope *scope,
                              const struct sl_value *value, int *allowed)
{
    struct sl_setting drop;
    *allowed = 0;
    if (scope->platform != SL_PLATFORM_KUBERNETES || value->state != SL_VALUE_SET ||
        !sl_text_equals(value->parsed, value->parsed_length, "NET_BIND_SERVICE"))
        return SL_OK;
    if (sl_setting(ctx, scope, SL_SETTING_CAP_DROP, SL_VIEW_WRITTEN, &drop) != SL_OK)
        return SL_ERROR;
    for (size_t i = 0; i < drop.count && !*allowed; i++) {
        struct sl_value dropped;
        if (sl_setting_value(ctx, scope, SL_SETTING_CAP_DROP, SL_VIEW_WRITTEN, i,
                             &dropped) != SL_OK)
            return SL_ERROR;
        *allowed = dropped.state == SL_VALUE_SET &&
                   sl_text_equals(dropped.parsed, dropped.parsed_length, "ALL");
    }
    return SL_OK;
}

static int check_value(struct sl_context *ctx, const struct sl_scope *scope, int id,
                       const struct sl_value *value)
{
    char quoted[SL_QUOTE_SIZE], hint[160];
    sl_quote(quoted, sizeof(quoted), value->text, value->text_length);
    switch (id) {
    case SL_SETTING_PRIVILEGED:
        /* Critical: privileged mode is root on the host.  A switch that
         * is not a scalar is refused by the format, but what sandlint
         * cannot read is never a pass: it warns, as every setting does. */
        if (value->state == SL_VALUE_TEMPLATED || value->state == SL_VALUE_UNCHECKABLE)
            return sl_report_unresolved(ctx, value, value->key, SL_WORDING_BY_FORM);
        if (value->state == SL_VALUE_SET && value->meaning == 1)
            return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 9.5,
                                   "%s", privileged_message(scope->platform));
        return SL_OK;
    case SL_SETTING_CAP_ADD:
    case SL_SETTING_DEVICES:
    case SL_SETTING_DEVICE_CGROUP_RULES:
        if (id == SL_SETTING_CAP_ADD) {
            int allowed;
            if (restricted_pattern(ctx, scope, value, &allowed) != SL_OK)
                return SL_ERROR;
            if (allowed)
                return SL_OK;
        }
        if (value->state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, value, value->node, SL_WORDING_BY_FORM);
        /* A device is quoted as the host device it hands in, not the whole
         * HOST:CONTAINER:PERMISSIONS entry (the key keeps that). */
        if (id == SL_SETTING_DEVICES)
            sl_quote(quoted, sizeof(quoted), value->parsed, value->parsed_length);
        return sl_report_value(ctx, value, value->node, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               grant_format(id), value->label, quoted);
    case SL_SETTING_BUILD_PRIVILEGED:
        if (value->state == SL_VALUE_TEMPLATED || value->state == SL_VALUE_UNCHECKABLE)
            return sl_report_unresolved(ctx, value, value->key, SL_WORDING_BY_FORM);
        if (value->state == SL_VALUE_SET && value->meaning == 1)
            return sl_report_value(ctx, value, value->key, SL_SEVERITY_DEFAULT, NULL, 9.0,
                                   "%s: true runs the build steps from the repository "
                                   "privileged on the builder", value->label);
        return SL_OK;
    case SL_SETTING_BUILD_ENTITLEMENTS:
        /* network.host is SBX002's; an entry that cannot be read is
         * reported here alone, once. */
        if (value->state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, value, value->node, SL_WORDING_BY_FORM);
        if (!sl_text_equals(value->parsed, value->parsed_length, "security.insecure"))
            return SL_OK;
        return sl_report_value(ctx, value, value->node, SL_SEVERITY_DEFAULT, NULL, 9.0,
                               "%s '%s' lets the build steps from the repository run "
                               "privileged on the builder", value->label, quoted);
    case SL_SETTING_GPUS:
        if (value->state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, value, value->node, SL_WORDING_BY_FORM);
        return sl_report_value(ctx, value, value->node, SL_SEVERITY_WARNING,
                               sl_hint_or_allowlist(hint, sizeof(hint),
                                                    "remove the GPU request if the "
                                                    "sandbox does not need a GPU"),
                               0.0,
                               "%s '%s' hands the host's GPU devices and their driver "
                               "to the container", value->label, quoted);
    default:
        /* A profile, a label, the masked paths, or a security option
         * that may set any of them. */
        if (value->state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, value, value->node, SL_WORDING_BY_FORM);
        if (id == SL_SETTING_SECURITY_OTHER || value->meaning != SL_CONFINEMENT_OFF)
            return SL_OK;
        /* What a platform adds by itself is named by its label (who adds
         * it); what the file writes, by its field. */
        return sl_report_value(ctx, value, value->node, SL_SEVERITY_DEFAULT, NULL, 0.0,
                               "%s '%s' %s",
                               value->origin == SL_ORIGIN_DEFAULT ? value->label
                                                                  : value->field,
                               quoted, removes(id, scope->platform));
    }
}

/* The settings the rule reads, in the order it reports them. */
static const int settings[] = {
    SL_SETTING_PRIVILEGED, SL_SETTING_CAP_ADD, SL_SETTING_DEVICES,
    SL_SETTING_DEVICE_CGROUP_RULES, SL_SETTING_SECCOMP, SL_SETTING_APPARMOR,
    SL_SETTING_SELINUX, SL_SETTING_SYSTEM_PATHS, SL_SETTING_SECURITY_OTHER,
    SL_SETTING_BUILD_PRIVILEGED, SL_SETTING_BUILD_ENTITLEMENTS, SL_SETTING_GPUS,
};

/* A container, or a pod (whose securityContext holds profiles too): what it
 * writes itself. */
static int check_scope(struct sl_context *ctx, const struct sl_scope *scope)
{
    for (size_t s = 0; s < sizeof(settings) / sizeof(*settings); s++) {
        struct sl_setting setting;
        if (sl_setting(ctx, scope, settings[s], SL_VIEW_WRITTEN, &setting) != SL_OK)
            return SL_ERROR;
        for (size_t i = 0; i < setting.count; i++) {
            struct sl_value value;
            if (sl_setting_value(ctx, scope, settings[s], SL_VIEW_WRITTEN, i, &value) !=
                    SL_OK ||
                check_value(ctx, scope, settings[s], &value) != SL_OK)
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
        "checked. cap_drop, no-new-privileges and custom profiles are "
        "fine.\n"
        "Compose builds: build.privileged true and the build.entitlements "
        "entry security.insecure (build steps from the repository run "
        "privileged on the builder).\n"
        "GPUs (a warning): every gpus item and every "
        "deploy.resources.reservations.devices item hands host GPU devices "
        "and their driver to the container (key: the item's driver, else "
        "its capabilities).\n"
        "In agent-env values (each service and its initContainers) and "
        "Kubernetes objects (every container, init container and ephemeral "
        "container of every pod spec), the same in securityContext: "
        "privileged true, every capabilities.add item, seccompProfile.type "
        "or appArmorProfile.type Unconfined, seLinuxOptions.type spc_t or "
        "unconfined_t and procMount Unmasked; a pod spec's own "
        "securityContext is checked for the profile types too; the AppArmor "
        "annotation container.apparmor.security.beta.kubernetes.io/NAME: "
        "unconfined is reported for that container, and a kCTF Challenge's "
        "challenge container for the SYS_ADMIN and unconfined AppArmor "
        "profile the kCTF operator always adds (at the object). Pod "
        "Security's restricted pattern, capabilities.add NET_BIND_SERVICE "
        "with capabilities.drop ALL in the same container, is fine. Helm "
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
        "seccomp:unconfined are different keys)\n"        "service:build.privileged, "
        "service:build.entitlements:security.insecure, service:gpus:all, "
        "service:deploy.resources.reservations.devices:DRIVER\n"
        "agent-env: S:securityContext.privileged, "
        "S:securityContext.capabilities.add:CAPABILITY, "
        "S/INIT:securityContext.FIELD:VALUE for an init container\n"
        "Kubernetes: KIND/NAME/CONTAINER:securityContext.FIELD[:VALUE], "
        "KIND/NAME:securityContext.seccompProfile.type:Unconfined for the "
        "pod, KIND/NAME/CONTAINER:container.apparmor.security.beta."
        "kubernetes.io/CONTAINER:unconfined for an AppArmor annotation; "
        "NAMESPACE/ leads when the object has one",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    privileged: true\n"
        "    cap_add: [SYS_ADMIN]\n"
        "    security_opt:\n"
        "      - seccomp=unconfined",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_EVERY,
    .check_container = check_scope,
    .check_scope = check_scope,
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
