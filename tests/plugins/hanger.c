/* Loops forever on any service named "hang_me"; fails with an error
 * message on one named "fail_me": proves the per-file time limit and
 * plugin error reporting. */
#include <string.h>

#include "sandlint/plugin.h"

static volatile unsigned long spins;

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)key;
    (void)value;
    if (strcmp(service, "hang_me") == 0)
        for (;;)
            spins++;
    if (strcmp(service, "fail_me") == 0) {
        sandlint_host->set_error(ctx, "refusing to check fail_me");
        return SL_ERROR;
    }
    return SL_OK;
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST011", "hanger", "test_group", NULL,
    "hangs on hang_me (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "hanger", "0.0.1", "hangs on purpose", rules,
};
SANDLINT_PLUGIN(plugin)
