/*
 * lifecycle_hooks.c - SBX005: privileged hook commands.
 *
 * pre_start, post_start and pre_stop items with privileged set to a true
 * value (SPEC §7).
 *
 * Compose's hooks are Compose's own (SPEC §18); a dev container's
 * initializeCommand is the one hook of that format that runs on the host
 * (SPEC §15): a warning, since opening the container runs it.
 */
#include <sandlint/rule.h>

struct hook {
    const char *name;
    const char *field;      /* the finding's field: "<hook>.privileged" */
    const char *runs;       /* where the privileged command runs */
};

static const struct hook hooks[] = {
    { "pre_start", "pre_start.privileged",
      "in a temporary container before the service starts" },
    { "post_start", "post_start.privileged",
      "in the service container after it starts" },
    { "pre_stop", "pre_stop.privileged",
      "in the service container before it stops" },
};

static int check_item(struct sl_context *ctx, const struct hook *hook,
                      const struct sl_node *where, const struct sl_node *item)
{
    if (sl_is_empty(item))
        return SL_OK;
    switch (sl_node_kind(item)) {
    case SL_NODE_MAPPING:
        break;
    case SL_NODE_SEQUENCE:
        return sl_report_unchecked(ctx, where, hook->name, item);
    default:
        return SL_OK;   /* a scalar cannot hold privileged */
    }
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_value(item, "privileged", &key);
    if (value == NULL)
        return SL_OK;
    const char *text;
    size_t length;
    char quoted[SL_QUOTE_SIZE];
    switch (sl_flag(value, &text, &length)) {
    case SL_FLAG_ON:
        return sl_reportf(ctx, key, hook->field, NULL, 0, SL_SEVERITY_DEFAULT,
                          "%s hook runs its command in privileged mode %s",
                          hook->name, hook->runs);
    case SL_FLAG_INTERPOLATED:
        return sl_reportf(ctx, key, hook->field, text, length,
                          SL_SEVERITY_WARNING,
                          "%s is set by interpolation '%s' and cannot be "
                          "checked", hook->field,
                          sl_quote(quoted, sizeof(quoted), text, length));
    default:
        return SL_OK;
    }
}

/* A dev container's initializeCommand (a string, a list of words, or an
 * object of commands run in parallel): on the host, whenever the
 * container is opened. */
static int check_initialize_command(struct sl_context *ctx, const struct sl_node *settings)
{
    const struct sl_node *key;
    const struct sl_node *command = sl_mapping_value(settings, "initializeCommand", &key);
    if (command == NULL || sl_is_empty(command))
        return SL_OK;
    return sl_reportf_hint(ctx, key, "initializeCommand", NULL, 0, SL_SEVERITY_WARNING,
                           "move the command to onCreateCommand or postCreateCommand "
                           "(they run inside the container), or review what it runs and "
                           "%e",
                           "initializeCommand runs its command on the host, outside any "
                           "container, every time the dev container is opened");
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    if (sl_kind(ctx) == SL_KIND_DEVCONTAINER)
        return check_initialize_command(ctx, settings);
    for (size_t h = 0; h < sizeof(hooks) / sizeof(hooks[0]); h++) {
        const struct sl_node *key;
        const struct sl_node *value = sl_mapping_value(settings, hooks[h].name, &key);
        size_t count = sl_list_count(value);
        for (size_t i = 0; i < count; i++) {
            const struct sl_node *where;
            const struct sl_node *item = sl_list_entry(value, key, i, &where);
            if (check_item(ctx, &hooks[h], where, item) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

static const struct sl_rule lifecycle_hooks_rule = {
    SL_RULE_INIT,
    .code = "SBX005",
    .name = "lifecycle_hooks",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 9.0,
    .summary = "privileged hook commands",
    .description =
        "Reports each item of a service's pre_start, post_start and "
        "pre_stop hooks whose privileged is set to a true value (true, yes, "
        "on, y in any case), at the privileged line. An interpolated "
        "privileged (${PRIVILEGED}) is a warning: it cannot be checked. "
        "Hooks without privileged, or with a false value, are fine. The "
        "hook is reported even when the service itself is not privileged.\n"
        "In a dev container, initializeCommand is a warning: the "
        "devcontainer CLI, VS Code and Codespaces run it on the host, "
        "outside any container, every time the container is opened.",
    .rationale =
        "A privileged hook runs its command with every capability and the "
        "host's devices: pre_start in a temporary container before the "
        "service starts, post_start and pre_stop inside the service "
        "container. If sandboxed code can change the script or the inputs "
        "the command uses, it borrows those privileges.",
    .fix =
        "Drop privileged from the hook and grant only the capability the "
        "command needs, or move the step into the image build. If the hook "
        "really needs it, make sure sandboxed code cannot alter what the "
        "command runs, write down why, and allowlist the key under "
        "sandbox_privileges for the package; the finding then becomes a "
        "warning.",
    .key_format =
        "service:HOOK.privileged (e.g. default:post_start.privileged)\n"
        "service:HOOK.privileged:VALUE for an interpolated value (e.g. "
        "default:pre_stop.privileged:${PRIVILEGED})\n"
        "dev container: devcontainer:initializeCommand",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    post_start:\n"
        "      - command: /setup/network.sh\n"
        "        privileged: true",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_DEVCONTAINER,
    .url = RULE_DOCS_URL "SBX005.md",
};

static const struct sl_rule *const rules[] = { &lifecycle_hooks_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "lifecycle_hooks",
    .version = "1.0.0",
    .summary = "privileged pre_start, post_start and pre_stop hooks",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
