// The SDK headers compile as C++ (-std=c++11 -pedantic -Werror), and a
// plugin can be written in C++ with the helpers of <sandlint/rule.h>.
#include <cstdio>

#include <sandlint/rule.h>

namespace {

int visit(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    char quoted[SL_QUOTE_SIZE];
    (void)data;
    if (mount->kind != SL_MOUNT_HOST_PATH)
        return SL_OK;
    return sl_reportf(ctx, mount->node, mount->field, mount->value,
                      mount->value_length, SL_SEVERITY_DEFAULT, "mounts '%s'",
                      sl_quote(quoted, sizeof(quoted), mount->value,
                               mount->value_length));
}

// ABI 1.2: every container of a pod spec or an agent-env service.
int visit_container(struct sl_context *ctx, const struct sl_container *container,
                    void *data)
{
    const struct sl_node *key;
    (void)data;
    if (sl_flag_in(ctx, sl_mapping_path(container->container,
                                        "securityContext.privileged", &key),
                   NULL, NULL) != SL_FLAG_ON)
        return SL_OK;
    return sl_reportf_service(ctx, container->service, key,
                              "securityContext.privileged", NULL, 0,
                              SL_SEVERITY_DEFAULT, "privileged (%d)", container->sort);
}

// ABI 1.3: a setting of the container model, for every kind.
int check_container(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    if (sl_setting(ctx, scope, SL_SETTING_PRIVILEGED, SL_VIEW_WRITTEN, &setting) != SL_OK)
        return SL_ERROR;
    if (setting.count == 0 ||
        sl_setting_value(ctx, scope, SL_SETTING_PRIVILEGED, SL_VIEW_WRITTEN, 0, &value) !=
            SL_OK)
        return setting.count == 0 ? SL_OK : SL_ERROR;
    if (value.state == SL_VALUE_TEMPLATED)
        return sl_report_unresolved(ctx, &value, value.key, SL_WORDING_SET_BY);
    return sl_report_value(ctx, &value, value.key, SL_SEVERITY_DEFAULT, NULL, 9.5,
                           "privileged on %s", scope->platform == SL_PLATFORM_KUBERNETES
                                                   ? "Kubernetes" : "an engine");
}

int check_service(struct sl_context *ctx, const char *service,
                  const struct sl_node *key, const struct sl_node *value)
{
    if (sl_kind(ctx) != SL_KIND_COMPOSE)
        return sl_containers(ctx, service, value, visit_container, NULL);
    struct sl_finding finding = { SL_FINDING_INIT, key, NULL, "field", NULL, 0,
                                  SL_SEVERITY_WARNING, "message", NULL, 0.0 };
    const char *label;
    size_t length;
    int strict;
    if (sl_option_string(ctx, "label", &label, &length) != SL_OK ||
        sl_option_boolean(ctx, "strict", &strict) != SL_OK)
        return SL_ERROR;
    if (sl_report(ctx, &finding) != SL_OK)
        return SL_ERROR;
    return sl_host_mounts(ctx, value, visit, NULL);
}

const struct sl_option label_option = {
    SL_OPTION_INIT, "label", SL_OPTION_STRING, "a label", "none", 0, 0, NULL,
};
const struct sl_option strict_option = {
    SL_OPTION_INIT, "strict", SL_OPTION_BOOLEAN, "a switch", NULL, 0, 1, NULL,
};
const struct sl_option *const options[] = { &label_option, &strict_option, NULL };

const struct sl_rule rule = {
    SL_RULE_INIT, "HDR002", "header-cxx", "header_tests", NULL,
    "compiles as C++", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, options, SL_RULE_OPT_IN, 9.0,
    SL_KIND_EVERY, "https://example.com/rules/HDR002", check_container, NULL,
};
const struct sl_rule *const rules[] = { &rule, NULL };
const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "header_cxx", "1", NULL, rules,
};

} // namespace

SANDLINT_PLUGIN(plugin)

int main()
{
    bool ok = sandlint_plugin_entry(NULL) == &plugin && !SL_HOST_HAS(option_string);
    std::printf("1..1\n%s 1 - the SDK headers compile as C++ and the entry works\n",
                ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
