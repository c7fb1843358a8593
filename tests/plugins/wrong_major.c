/* Declares plugin ABI 2.0: the host must refuse it, naming both versions. */
#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx; (void)service; (void)key; (void)value;
    return SL_OK;
}
static const struct sl_rule rule = {
    SL_RULE_INIT, "TST002", "wrong-major", "test_group", NULL,
    "never loads", NULL, NULL, NULL, NULL, NULL, 0, NULL, check_service, NULL, 0, 0.0, 0,
    NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    sizeof(struct sl_plugin), SL_ABI_MAJOR + 1, 0, "wrong_major", "0.0.1",
    NULL, rules,
};
SANDLINT_PLUGIN(plugin)
