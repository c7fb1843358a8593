// The SDK header compiles as C++ (-std=c++11 -pedantic -Werror), and a
// plugin can be written in C++.
#include <cstdio>

#include <sandlint/plugin.h>

namespace {

int check_service(struct sl_context *ctx, const char *service,
                  const struct sl_node *key, const struct sl_node *value)
{
    (void)service;
    (void)value;
    struct sl_finding finding = { SL_FINDING_INIT, key, NULL, "field", NULL, 0,
                                  SL_SEVERITY_WARNING, "message", NULL };
    return sandlint_host->report(ctx, &finding);
}

const struct sl_rule rule = {
    SL_RULE_INIT, "HDR002", "header-cxx", "header_tests", NULL,
    "compiles as C++", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0,
};
const struct sl_rule *const rules[] = { &rule, NULL };
const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "header_cxx", "1", NULL, rules,
};

} // namespace

SANDLINT_PLUGIN(plugin)

int main()
{
    bool ok = sandlint_plugin_entry(NULL) == &plugin;
    std::printf("1..1\n%s 1 - the SDK header compiles as C++ and the entry works\n",
                ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
