/*
 * A plugin written for, and built against, the plugin ABI 1.0 header as
 * sandlint 0.1 installed it (tests/abi-1.0/sandlint/plugin.h, kept as it
 * was).  The 1.1 host must load and run it unchanged:
 *  - rule TST010 reports every service's image with a hint holding '%'
 *    signs and a "%k" that a 1.0 plugin cannot have meant as a
 *    placeholder: the hint is printed exactly as given;
 *  - with a top-level x-abi10-document, its check_document reports
 *    without a service, which ABI 1.0 refuses (SL_ERROR, then SL006): a
 *    1.0 plugin keeps the error it was written against.
 */
#include <string.h>

#include "sandlint/plugin.h"

#if SL_ABI_MAJOR != 1 || SL_ABI_MINOR != 0
#error "tests/plugins/abi10.c must be built against the ABI 1.0 header"
#endif

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    const struct sl_node *image_key;
    const struct sl_node *image = sandlint_host->mapping_value(value, "image", &image_key);
    size_t length;
    const char *text = sandlint_host->node_text(image, &length);
    struct sl_finding finding;
    (void)service;
    (void)key;
    if (text == NULL)
        return SL_OK;
    memset(&finding, 0, sizeof(finding));
    finding.struct_size = SL_FINDING_INIT;
    finding.node = image_key;
    finding.field = "image";
    finding.value = text;
    finding.value_length = length;
    finding.severity = SL_SEVERITY_ERROR;
    finding.message = "abi10 plugin saw an image";
    finding.hint = "100% literal: %k stays, %% stays, %s stays";
    return sandlint_host->report(ctx, &finding);
}

static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    const struct sl_node *key;
    struct sl_finding finding;
    if (sandlint_host->mapping_value(root, "x-abi10-document", &key) == NULL)
        return SL_OK;
    memset(&finding, 0, sizeof(finding));
    finding.struct_size = SL_FINDING_INIT;
    finding.node = key;
    finding.field = "x-abi10-document";
    finding.message = "a finding without service";
    return sandlint_host->report(ctx, &finding);
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST010", "abi10-image", "test_group", NULL,
    "reports images (plugin built for ABI 1.0)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_ERROR, check_document, check_service,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "abi10", "1.0.0", "built against the ABI 1.0 header", rules,
};
SANDLINT_PLUGIN(plugin)
