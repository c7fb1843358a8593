/* A well-formed test plugin: rule TST001 reports every service's "image". */
#include "sandlint/plugin.h"

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)service;
    (void)key;
    const struct sl_node *image_key;
    const struct sl_node *image =
        sandlint_host->mapping_value(value, "image", &image_key);
    size_t length;
    const char *text = sandlint_host->node_text(image, &length);
    if (text == NULL)
        return SL_OK;
    struct sl_finding finding = { SL_FINDING_INIT, image, NULL, "image", text,
                                  length, SL_SEVERITY_WARNING,
                                  "test plugin saw an image", NULL, 0.0 };
    return sandlint_host->report(ctx, &finding);
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST001", "test-image", "test_group", NULL,
    "reports images (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0,
    "https://example.com/sandlint-rules/TST001", NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "good", "0.0.1", "a well-formed test plugin", rules,
};
SANDLINT_PLUGIN(plugin)
