/* The SDK headers compile as strict C99 (-std=c99 -pedantic -Werror), with
 * a plugin declared the way an in-house plugin would: <sandlint/plugin.h>
 * alone, and the helpers of <sandlint/rule.h>. */
#include <stdio.h>

#include <sandlint/rule.h>

/* ABI 1.2: a pod spec of a Kubernetes object, reported at its key. */
static int visit_pod(struct sl_context *ctx, const struct sl_pod *pod, void *data)
{
    const char *text;
    size_t length;
    (void)data;
    text = sl_node_text(sl_mapping_value(pod->spec, "runtimeClassName", NULL), &length);
    if (text == NULL || sl_is_templated(ctx, text, length))
        return SL_OK;
    return sl_reportf_service_scored(ctx, pod->service, pod->node, "runtimeClassName",
                                     text, length, SL_SEVERITY_WARNING, 5.0,
                                     "runtime class '%.*s'", (int)length, text);
}

static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    struct sl_finding finding = { SL_FINDING_INIT, NULL, "svc", "field", NULL, 0,
                                  SL_SEVERITY_DEFAULT, "message", NULL, 0.0 };
    finding.node = root;
    if (sl_kind(ctx) == SL_KIND_KUBERNETES)
        return sl_pod_specs(ctx, root, visit_pod, NULL);
    return sandlint_host->report(ctx, &finding);
}

static int visit(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    char quoted[SL_QUOTE_SIZE];
    char described[SL_MOUNT_DESCRIPTION_SIZE];
    (void)data;
    if (mount->kind != SL_MOUNT_HOST_PATH || (mount->flags & SL_MOUNT_READ_ONLY))
        return SL_OK;
    return sl_reportf_hint(ctx, mount->node, mount->field, mount->value,
                           mount->value_length, SL_SEVERITY_DEFAULT,
                           "allowlist '%k' (100%% reviewed)", "writable '%s'%s",
                           sl_quote(quoted, sizeof(quoted), mount->value,
                                    mount->value_length),
                           sl_mount_describe(mount, described, sizeof(described)));
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *settings)
{
    const struct sl_node *cap_key;
    const struct sl_node *caps = sl_mapping_value(settings, "cap_add", &cap_key);
    size_t i, length, count;
    const char *text;
    long long limit;
    int found;
    (void)service;
    for (i = 0; i < sl_list_count(caps); i++) {
        const struct sl_node *where;
        const struct sl_node *entry = sl_list_entry(caps, cap_key, i, &where);
        if (sl_node_kind(entry) != SL_NODE_SCALAR &&
            sl_report_unchecked(ctx, where, "cap_add", entry) != SL_OK)
            return SL_ERROR;
    }
    if (sl_flag(sl_mapping_value(settings, "privileged", NULL), &text, &length) ==
            SL_FLAG_ON &&
        sl_reportf(ctx, key, "privileged", NULL, 0, SL_SEVERITY_DEFAULT, "on") != SL_OK)
        return SL_ERROR;
    if (sl_option_integer(ctx, "limit", &limit) != SL_OK ||
        sl_option_list_count(ctx, "hosts", &count) != SL_OK ||
        sl_option_list_contains(ctx, "hosts", "x", 1, &found) != SL_OK)
        return SL_ERROR;
    (void)sl_text_equals(text, length, "yes");
    return sl_host_mounts(ctx, settings, visit, NULL);
}

/* ABI 1.3: the container model, read the same way for every kind. */
static int check_container(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    char hint[256];
    size_t i, length;
    if (!SL_SCOPE_HAS(scope, parent) ||
        sl_setting(ctx, scope, SL_SETTING_CAP_DROP, SL_VIEW_EFFECTIVE, &setting) != SL_OK)
        return SL_ERROR;
    for (i = 0; i < setting.count; i++) {
        if (sl_setting_value(ctx, scope, SL_SETTING_CAP_DROP, SL_VIEW_EFFECTIVE, i,
                             &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_BY_FORM);
        if (value.origin == SL_ORIGIN_OWN && value.meaning == 0 &&
            sl_report_value(ctx, &value, value.key, SL_SEVERITY_WARNING,
                            sl_hint_or_allowlist(hint, sizeof(hint), setting.hint),
                            0.0, "%s drops '%.*s'", value.label,
                            (int)value.parsed_length, value.parsed) != SL_OK)
            return SL_ERROR;
    }
    if (scope->level == SL_SCOPE_POD && sl_object_service(ctx, scope->mapping, &length) == NULL)
        return SL_ERROR;
    return sl_scope_mounts(ctx, scope, visit, NULL);
}

static const char *const hosts[] = { "a", NULL };
static const struct sl_option limit_option = {
    SL_OPTION_INIT, "limit", SL_OPTION_INTEGER, "a limit", NULL, 3, 0, NULL,
};
static const struct sl_option hosts_option = {
    SL_OPTION_INIT, "hosts", SL_OPTION_LIST, "hosts", NULL, 0, 0, hosts,
};
static const struct sl_option *const options[] = { &limit_option, &hosts_option, NULL };

static const struct sl_rule rule = {
    SL_RULE_INIT,
    .code = "HDR001",
    .name = "header-c99",
    .group = "header_tests",
    .summary = "compiles as C99",
    .check_document = check_document,
    .check_service = check_service,
    .options = options,
    .flags = SL_RULE_OPT_IN,
    .kinds = SL_KIND_COMPOSE | SL_KIND_KUBERNETES,
    .url = "https://example.com/rules/HDR001",
    .check_container = check_container,
    .check_scope = check_container,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "header_c99",
    .version = "1",
    .rules = rules,
};
SANDLINT_PLUGIN(plugin)

int main(void)
{
    int ok = sandlint_plugin_entry(NULL) == &plugin && !SL_HOST_HAS(host_mounts);
    printf("1..1\n%s 1 - the SDK headers compile as C99 and the entry works\n",
           ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
