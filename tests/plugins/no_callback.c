/* A rule with neither check callback: refused. */
#include "sandlint/plugin.h"

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST004", "no-callback", "test_group", NULL,
    "checks nothing", NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0, 0.0, 0, NULL,
    NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "no_callback", "0.0.1", NULL, rules,
};
SANDLINT_PLUGIN(plugin)
