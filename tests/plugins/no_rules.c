/* A descriptor with an empty rule list: refused. */
#include "sandlint/plugin.h"

static const struct sl_rule *const rules[] = { NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "no_rules", "0.0.1", NULL, rules,
};
SANDLINT_PLUGIN(plugin)
