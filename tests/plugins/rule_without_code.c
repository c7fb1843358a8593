/* A rule without a code: refused, naming the missing field. */
#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx; (void)service; (void)key; (void)value;
    return SL_OK;
}
static const struct sl_rule rule = {
    SL_RULE_INIT, NULL, "no-code", "test_group", NULL,
    "has no code", NULL, NULL, NULL, NULL, NULL, 0, NULL, check_service, NULL, 0, 0.0, 0,
    NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "rule_without_code", "0.0.1", NULL, rules,
};
SANDLINT_PLUGIN(plugin)
