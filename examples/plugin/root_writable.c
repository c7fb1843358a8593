/*
 * root_writable.c - ACME002: a container that may run as root on a writable
 * root file system.
 *
 * An in-house rule written on sandlint's container model (plugin ABI 1.3):
 * it never reads a file's syntax, so the same code reports on a Docker
 * Compose service, a service of agent-env Helm values, a Kubernetes
 * container, and every kind of file a later sandlint reads.  Build it like
 * host_gateway.c:
 *
 *     cc $(pkg-config --cflags sandlint) -fPIC -fvisibility=hidden -shared \
 *        -o root_writable.so root_writable.c
 *     sandlint --plugin ./root_writable.so .
 *
 * ACME's policy: root in a container is tolerated only on a read-only
 * root file system, so that a process that gets root cannot replace the
 * programs the container runs.  The rule reads what each container ends
 * up with (the effective view): a Compose service's user and read_only
 * after extends, a Kubernetes container's securityContext over its pod's.
 */
#include <sandlint/rule.h>

#define GROUP "acme_hardening"

/* Reads setting id of the container as it ends up (the effective view)
 * and, when it has one, its first value: *has says so. */
static int read_setting(struct sl_context *ctx, const struct sl_scope *scope, int id,
                        struct sl_setting *setting, struct sl_value *value, int *has)
{
    *has = 0;
    if (sl_setting(ctx, scope, id, SL_VIEW_EFFECTIVE, setting) != SL_OK)
        return SL_ERROR;
    if (setting->count == 0)
        return SL_OK;
    *has = 1;
    return sl_setting_value(ctx, scope, id, SL_VIEW_EFFECTIVE, 0, value);
}

static int check_container(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting non_root, user, read_only;
    struct sl_value value;
    char hint[512];
    int has;

    /* A runtime that refuses to start it as root (runAsNonRoot), or a user
     * that is not root, settles it. */
    if (read_setting(ctx, scope, SL_SETTING_RUN_AS_NON_ROOT, &non_root, &value, &has) != SL_OK)
        return SL_ERROR;
    if (has && value.state == SL_VALUE_SET && value.meaning == 1)
        return SL_OK;
    if (read_setting(ctx, scope, SL_SETTING_USER, &user, &value, &has) != SL_OK)
        return SL_ERROR;
    if (has && value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_BY_FORM);
    if (has && value.meaning == SL_USER_NON_ROOT)
        return SL_OK;

    /* Root, or no user (the image's, often root): the root file system
     * must be read-only. */
    if (read_setting(ctx, scope, SL_SETTING_READ_ONLY_ROOT, &read_only, &value, &has) != SL_OK)
        return SL_ERROR;
    if (has && value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_VALUE);
    if ((has && value.meaning == 1) || read_only.state == SL_SETTING_UNSUPPORTED)
        return SL_OK;
    /* The finding points at the container; its hint is the format's own
     * words for adding a read-only root ("add 'read_only: true' ..." in
     * Compose), when the format has them. */
    return sl_reportf_hint(ctx, scope->node, "root-writable", NULL, 0, SL_SEVERITY_DEFAULT,
                           sl_hint_or_allowlist(hint, sizeof(hint), read_only.hint),
                           "the %s may run as root on a writable root file system (no %s)",
                           scope->noun, read_only.label);
}

static const struct sl_rule root_writable_rule = {
    SL_RULE_INIT,
    .code = "ACME002",
    .name = "root-writable",
    .group = GROUP,
    .summary = "a container that may run as root on a writable root file system",
    .description = "Reports every container (a Compose service, an agent-env service "
                   "and its init containers, a Kubernetes container) that may run as "
                   "root - no user, or a root user, and no runAsNonRoot - while its "
                   "root file system is writable.",
    .rationale = "Root that can rewrite the container's own programs can hide there "
                 "and outlive the command that got it.",
    .fix = "Run as a user that is not root, or make the root file system read-only; "
           "or allowlist the key under acme_hardening.",
    .key_format = "CONTAINER:root-writable",
    .example = "services:\n  web:\n    image: example/web",
    .default_severity = SL_SEVERITY_ERROR,
    .kinds = SL_KIND_EVERY,
    .check_container = check_container,
};

static const struct sl_rule *const rules[] = { &root_writable_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "root_writable",
    .version = "1.0.0",
    .summary = "ACME's in-house container rules, on the container model",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
