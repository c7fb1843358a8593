/* Crashes (SIGSEGV) on any service named "crash_me", aborts on one named
 * "abort_me", and reports a warning on every other service: proves that a
 * crashing plugin costs one file, not the run. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)value;
    if (strcmp(service, "crash_me") == 0)
        raise(SIGSEGV);
    if (strcmp(service, "abort_me") == 0)
        abort();
    struct sl_finding finding = { SL_FINDING_INIT, key, NULL, "checked", NULL, 0,
                                  SL_SEVERITY_WARNING, "crasher checked this service",
                                  NULL, 0.0 };
    return sandlint_host->report(ctx, &finding);
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST010", "crasher", "test_group", NULL,
    "crashes on crash_me (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "crasher", "0.0.1", "crashes on purpose", rules,
};
SANDLINT_PLUGIN(plugin)
