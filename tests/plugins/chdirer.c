/* Changes the current directory to "/" in every check callback: a plugin
 * may do anything its process allows, and checking must not depend on the
 * current directory after discovery has started (tests/discovery.sh). */
#include <unistd.h>

#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)ctx;
    (void)service;
    (void)key;
    (void)value;
    return chdir("/") == 0 ? SL_OK : SL_ERROR;
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST030", "chdirer", "test_group", NULL,
    "changes the current directory (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "chdirer", "0.0.1", "changes the current directory on purpose",
    rules,
};
SANDLINT_PLUGIN(plugin)
