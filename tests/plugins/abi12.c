/*
 * A plugin written for ABI 1.2 (file kinds), through <sandlint/rule.h>:
 *   TST120 checks every kind and reports, per service, the kind it was
 *          given and each container sl_containers() walks;
 *   TST121 checks Kubernetes objects only and reports each pod spec
 *          sl_pod_specs() finds, from check_document;
 *   TST122 reports what check_service receives for every kind.
 */
#include <stdio.h>

#include "sandlint/rule.h"

static const char *kind_name(int kind)
{
    return kind == SL_KIND_COMPOSE ? "compose"
           : kind == SL_KIND_AGENT_ENV ? "agent-env"
           : kind == SL_KIND_KUBERNETES ? "kubernetes" : "?";
}

static int report_container(struct sl_context *ctx, const struct sl_container *container,
                            void *data)
{
    (void)data;
    return sl_reportf_service(ctx, container->service, container->node, "container",
                              NULL, 0, SL_SEVERITY_WARNING, "%s container (sort %d)",
                              kind_name(sl_kind(ctx)), container->sort);
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)key;
    return sl_containers(ctx, service, value, report_container, NULL);
}

static const struct sl_rule containers_rule = {
    SL_RULE_INIT,
    .code = "TST120",
    .name = "containers",
    .group = "test_group",
    .summary = "reports every container of every kind (test plugin)",
    .default_severity = SL_SEVERITY_WARNING,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
};

static int report_pod(struct sl_context *ctx, const struct sl_pod *pod, void *data)
{
    (void)data;
    return sl_reportf_service(ctx, pod->service, pod->node, "pod", NULL, 0,
                              SL_SEVERITY_WARNING, "pod spec of %s", pod->service);
}

static int check_document(struct sl_context *ctx, const struct sl_node *root)
{
    return sl_pod_specs(ctx, root, report_pod, NULL);
}

static const struct sl_rule pods_rule = {
    SL_RULE_INIT,
    .code = "TST121",
    .name = "pods",
    .group = "test_group",
    .summary = "reports every pod spec of Kubernetes objects (test plugin)",
    .default_severity = SL_SEVERITY_WARNING,
    .check_document = check_document,
    .kinds = SL_KIND_KUBERNETES,
};

/* What check_service receives, for every kind: the service's name, the
 * node it points at (its key: a Compose or agent-env service's, a pod
 * spec's spec key) and the document root the host answers with. */
static int report_service(struct sl_context *ctx, const char *service,
                          const struct sl_node *key, const struct sl_node *value)
{
    struct sl_span span;
    size_t length;
    const char *root_kind = sl_node_text(sl_mapping_value(sl_document_root(ctx), "kind", NULL),
                                         &length);
    sl_node_span(key, &span);
    return sl_reportf(ctx, key, "service", NULL, 0, SL_SEVERITY_WARNING,
                      "%s service %s at %u:%u, %zu settings, root kind %s",
                      kind_name(sl_kind(ctx)), service, span.line, span.column,
                      sl_node_count(value), root_kind != NULL ? root_kind : "-");
}

static const struct sl_rule services_rule = {
    SL_RULE_INIT,
    .code = "TST122",
    .name = "services",
    .group = "test_group",
    .summary = "reports what check_service receives, for every kind (test plugin)",
    .default_severity = SL_SEVERITY_WARNING,
    .check_service = report_service,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
};

static const struct sl_rule *const rules[] = { &containers_rule, &pods_rule, &services_rule,
                                               NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "abi12",
    .version = "0.0.1",
    .summary = "file kinds, pod specs and containers (test plugin)",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
