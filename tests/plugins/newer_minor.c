/*
 * Built as if for plugin ABI 1.(current+1): the descriptor and rule are
 * larger than this host knows, with extra slots at the end left zero.  A
 * newer minor that uses no new slots must load.
 */
#include <stddef.h>

#include "sandlint/plugin.h"

struct future_rule {
    struct sl_rule base;
    void *slot_from_the_future;
};
struct future_plugin {
    struct sl_plugin base;
    void *slot_from_the_future;
};

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)service;
    struct sl_finding finding = { SL_FINDING_INIT, key, NULL, "seen", NULL, 0,
                                  SL_SEVERITY_WARNING,
                                  "newer-minor plugin checked this service",
                                  NULL, 0.0 };
    (void)value;
    return sandlint_host->report(ctx, &finding);
}

static const struct future_rule rule = {
    { sizeof(struct future_rule), "TST005", "newer-minor", "test_group", NULL,
      "from a newer minor ABI", NULL, NULL, NULL, NULL, NULL,
      SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL },
    NULL,
};
static const struct sl_rule *const rules[] = { &rule.base, NULL };
static const struct future_plugin plugin = {
    { sizeof(struct future_plugin), SL_ABI_MAJOR, SL_ABI_MINOR + 1,
      "newer_minor", "0.0.1", NULL, rules },
    NULL,
};
SANDLINT_PLUGIN(plugin.base)
