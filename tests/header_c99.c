/* The SDK header compiles as strict C99 (-std=c99 -pedantic -Werror), with
 * a plugin declared the way an in-house plugin would. */
#include <stdio.h>

#include <sandlint/plugin.h>

static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    struct sl_finding finding = { SL_FINDING_INIT, NULL, "svc", "field", NULL, 0,
                                  SL_SEVERITY_DEFAULT, "message", NULL };
    finding.node = root;
    return sandlint_host->report(ctx, &finding);
}

static const struct sl_rule rule = {
    SL_RULE_INIT,
    .code = "HDR001",
    .name = "header-c99",
    .group = "header_tests",
    .summary = "compiles as C99",
    .check_document = check_document,
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
    int ok = sandlint_plugin_entry(NULL) == &plugin;
    printf("1..1\n%s 1 - the SDK header compiles as C99 and the entry works\n",
           ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
