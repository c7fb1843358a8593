/*
 * host_gateway.c - an in-house sandlint rule, built outside the sandlint
 * tree against the installed SDK:
 *
 *     cc $(pkg-config --cflags sandlint) -fPIC -fvisibility=hidden -shared \
 *        -o host_gateway.so host_gateway.c
 *     sandlint --plugin ./host_gateway.so .
 *
 * Rule ACME001 reports extra_hosts entries that map a name to the magic
 * address "host-gateway": the container can then reach services on the
 * host's own interfaces.
 */
#include <string.h>

#include <sandlint/plugin.h>

/* "name:host-gateway" or "name=host-gateway" */
static int points_at_host(const char *text, size_t length)
{
    static const char gateway[] = "host-gateway";
    size_t tail = sizeof(gateway) - 1;
    return length > tail && memcmp(text + length - tail, gateway, tail) == 0 &&
           (text[length - tail - 1] == ':' || text[length - tail - 1] == '=');
}

static int report_entry(struct sl_context *ctx, const struct sl_node *where,
                        const char *text, size_t length)
{
    struct sl_finding finding;
    memset(&finding, 0, sizeof(finding));
    finding.struct_size = SL_FINDING_INIT;
    finding.node = where;
    finding.field = "extra_hosts";
    finding.value = text;
    finding.value_length = length;
    finding.message = "extra_hosts maps a name to the host's own address";
    return sandlint_host->report(ctx, &finding);
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    const struct sl_host *host = sandlint_host;
    (void)service;
    (void)service_key;
    const struct sl_node *key;
    const struct sl_node *hosts = host->mapping_value(settings, "extra_hosts", &key);
    if (host->node_kind(hosts) == SL_NODE_SEQUENCE) {
        /* The list form: ["name:host-gateway", ...] */
        for (size_t i = 0; i < host->node_count(hosts); i++) {
            const struct sl_node *item = host->sequence_item(hosts, i);
            size_t length;
            const char *text = host->node_text(item, &length);
            if (text != NULL && points_at_host(text, length) &&
                report_entry(ctx, item, text, length) != SL_OK)
                return SL_ERROR;
        }
    } else if (host->node_kind(hosts) == SL_NODE_MAPPING) {
        /* The mapping form: {name: host-gateway} */
        for (size_t i = 0; i < host->node_count(hosts); i++) {
            const struct sl_node *name, *address;
            if (host->mapping_entry(hosts, i, &name, &address) < 0)
                continue;
            size_t length, name_length;
            const char *text = host->node_text(address, &length);
            const char *name_text = host->node_text(name, &name_length);
            /* The key names the entry by its host name. */
            if (text != NULL && name_text != NULL && length == 12 &&
                memcmp(text, "host-gateway", 12) == 0 &&
                report_entry(ctx, name, name_text, name_length) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

static const struct sl_rule host_gateway_rule = {
    SL_RULE_INIT,
    .code = "ACME001",
    .name = "host-gateway",
    .group = "acme_network",
    .summary = "extra_hosts entries that reach the host",
    .description = "Reports extra_hosts entries whose address is host-gateway.",
    .rationale = "The container can connect to every service listening on "
                 "the host, including ones bound to private interfaces.",
    .fix = "Remove the entry, or allowlist its key under acme_network.",
    .key_format = "service:extra_hosts:ENTRY",
    .example = "services:\n  web:\n    extra_hosts:\n      - \"host.docker.internal:host-gateway\"",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_service,
};

static const struct sl_rule *const rules[] = { &host_gateway_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "host_gateway",
    .version = "1.0.0",
    .summary = "ACME's in-house network rules",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
