/* mounts.c - placeholder, being written. */
#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx; (void)service; (void)key; (void)value;
    return SL_OK;
}
static const struct sl_rule rule = {
    SL_RULE_INIT, .code = "SBX003", .name = "mounts", .group = "sandbox_privileges",
    .summary = "placeholder", .check_service = check_service,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, .name = "mounts", .version = "0.0.0", .rules = rules,
};
SANDLINT_PLUGIN(plugin)
