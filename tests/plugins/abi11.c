/*
 * A plugin built for ABI 1.1 that uses what 1.1 added, one rule each:
 *   TST101 findings about the document (no service), '%k' in hints;
 *   TST102 per-rule options of the four types, echoed in a finding;
 *   TST103 an opt-in rule, which runs only when a selector names it.
 * Written with <sandlint/rule.h>, as an in-house plugin would be.
 */
#include <stdio.h>
#include <string.h>

#include "sandlint/rule.h"

/* TST101: every top-level network with driver host, and a top-level
 * x-test-flag; each reported twice, to show that the host keeps one. */
static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    const struct sl_node *networks = sl_mapping_value(root, "networks", NULL);
    for (size_t i = 0; i < sl_node_count(networks); i++) {
        const struct sl_node *name, *definition;
        size_t length, driver_length;
        if (sl_mapping_entry(networks, i, &name, &definition) < 0)
            continue;
        const char *text = sl_node_text(name, &length);
        const char *driver = sl_setting_text(sl_mapping_value(definition, "driver", NULL),
                                             &driver_length);
        if (text == NULL || !sl_text_equals(driver, driver_length, "host"))
            continue;
        for (int twice = 0; twice < 2; twice++)
            if (sl_reportf_hint(ctx, name, "networks", text, length,
                                SL_SEVERITY_DEFAULT,
                                "allowlist '%k' under test_group (100%% sure)",
                                "network '%s' uses the host's network stack",
                                text) != SL_OK)
                return SL_ERROR;
    }
    const struct sl_node *flag_key;
    if (sl_mapping_value(root, "x-test-flag", &flag_key) != NULL)
        return sl_reportf(ctx, flag_key, "x-test-flag", NULL, 0, SL_SEVERITY_WARNING,
                          "x-test-flag is set");
    return SL_OK;
}

static const struct sl_rule document_rule = {
    SL_RULE_INIT,
    .code = "TST101",
    .name = "document-level",
    .group = "test_group",
    .summary = "findings about the whole document (test plugin)",
    .check_document = check_document,
};

/* TST102: the options as the rule sees them; with x-wrong-type in the
 * service, it asks for a string option as an integer and fails. */
static int check_options(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    const char *label;
    size_t label_length, count;
    long long limit;
    int strict;
    (void)service;
    if (sl_mapping_value(settings, "x-wrong-type", NULL) != NULL)
        return sl_option_integer(ctx, "label", &limit);
    if (sl_mapping_value(settings, "x-unknown-option", NULL) != NULL)
        return sl_option_boolean(ctx, "no_such_option", &strict);
    if (sl_option_string(ctx, "label", &label, &label_length) != SL_OK ||
        sl_option_integer(ctx, "limit", &limit) != SL_OK ||
        sl_option_boolean(ctx, "strict", &strict) != SL_OK ||
        sl_option_list_count(ctx, "hosts", &count) != SL_OK)
        return SL_ERROR;
    char hosts[256] = "";
    for (size_t i = 0; i < count; i++) {
        const char *item;
        size_t length;
        if (sl_option_list_item(ctx, "hosts", i, &item, &length) != SL_OK)
            return SL_ERROR;
        size_t used = strlen(hosts);
        snprintf(hosts + used, sizeof(hosts) - used, "%s%.*s", i ? "|" : "",
                 (int)length, item);
    }
    const char *past_end;
    if (sl_option_list_item(ctx, "hosts", count, &past_end, NULL) != SL_ERROR)
        return SL_ERROR;
    int found = 0;
    if (sl_option_list_contains(ctx, "hosts", "b.example", 9, &found) != SL_OK)
        return SL_ERROR;
    return sl_reportf(ctx, service_key, "options", NULL, 0, SL_SEVERITY_WARNING,
                      "label=%.*s limit=%lld strict=%d hosts=%s has_b=%d",
                      (int)label_length, label, limit, strict, hosts, found);
}

static const char *const default_hosts[] = { "a.example", "b.example", NULL };
static const struct sl_option label_option = {
    SL_OPTION_INIT, "label", SL_OPTION_STRING, "a word shown in the finding",
    "none", 0, 0, NULL,
};
static const struct sl_option limit_option = {
    SL_OPTION_INIT, "limit", SL_OPTION_INTEGER, "a number", NULL, 3, 0, NULL,
};
static const struct sl_option strict_option = {
    SL_OPTION_INIT, "strict", SL_OPTION_BOOLEAN, "a switch", NULL, 0, 0, NULL,
};
static const struct sl_option hosts_option = {
    SL_OPTION_INIT, "hosts", SL_OPTION_LIST, "host names", NULL, 0, 0,
    default_hosts,
};
static const struct sl_option *const options[] = {
    &label_option, &limit_option, &strict_option, &hosts_option, NULL,
};

static const struct sl_rule options_rule = {
    SL_RULE_INIT,
    .code = "TST102",
    .name = "options-echo",
    .group = "test_group",
    .summary = "shows its options (test plugin)",
    .check_service = check_options,
    .options = options,
};

/* TST103: off unless selected. */
static int check_opt_in(struct sl_context *ctx, const char *service,
                        const struct sl_node *service_key,
                        const struct sl_node *settings)
{
    (void)settings;
    return sl_reportf(ctx, service_key, "opt_in", NULL, 0, SL_SEVERITY_DEFAULT,
                      "opt-in rule ran on %s", service);
}

static const struct sl_rule opt_in_rule = {
    SL_RULE_INIT,
    .code = "TST103",
    .name = "opt-in-rule",
    .group = "test_hardening",
    .summary = "runs only when selected (test plugin)",
    .check_service = check_opt_in,
    .flags = SL_RULE_OPT_IN,
};

static const struct sl_rule *const rules[] = {
    &document_rule, &options_rule, &opt_in_rule, NULL,
};
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "abi11", "0.0.1", "uses what ABI 1.1 added", rules,
};
SANDLINT_PLUGIN(plugin)
