/*
 * host_gateway.c - ACME001: extra_hosts entries that reach the host.
 *
 * An in-house sandlint rule, built outside the sandlint tree against the
 * installed SDK (<sandlint/rule.h> includes <sandlint/plugin.h>):
 *
 *     cc $(pkg-config --cflags sandlint) -fPIC -fvisibility=hidden -shared \
 *        -o host_gateway.so host_gateway.c
 *     sandlint --plugin ./host_gateway.so .
 *
 * It reports extra_hosts entries that map a name to the magic address
 * "host-gateway": the container can then reach services on the host's own
 * interfaces.  Names the team has reviewed go in the rule's option
 * allowed_hosts:
 *
 *     [rule ACME001]                      # .sandlint.ini
 *     allowed_hosts = host.docker.internal, metrics.local
 */
#include <sandlint/rule.h>

#define HINT "if the sandbox must reach the host, add the name to allowed_hosts " \
             "under [rule ACME001], or allowlist '%k' under acme_network"

/* The entry's host name when it maps to host-gateway, else NULL. */
static const char *gateway_name(const char *text, size_t length, size_t *name_length)
{
    static const char gateway[] = "host-gateway";
    size_t tail = sizeof(gateway) - 1;
    if (length <= tail || !sl_text_equals(text + length - tail, tail, gateway) ||
        (text[length - tail - 1] != ':' && text[length - tail - 1] != '='))
        return NULL;
    *name_length = length - tail - 1;
    return text;
}

/* Reports the entry unless its name is allowed.  value is the key value:
 * the list item as written, or the name of a mapping entry. */
static int check_entry(struct sl_context *ctx, const struct sl_node *where,
                       const char *name, size_t name_length,
                       const char *value, size_t value_length)
{
    char quoted[SL_QUOTE_SIZE];
    int allowed;
    if (sl_option_list_contains(ctx, "allowed_hosts", name, name_length,
                                &allowed) != SL_OK)
        return SL_ERROR;
    if (allowed)
        return SL_OK;
    return sl_reportf_hint(ctx, where, "extra_hosts", value, value_length,
                           SL_SEVERITY_DEFAULT, HINT,
                           "extra_hosts maps '%s' to the host's own address",
                           sl_quote(quoted, sizeof(quoted), name, name_length));
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    const struct sl_node *hosts = sl_mapping_value(settings, "extra_hosts", NULL);
    size_t i, length, name_length;
    (void)service;
    (void)service_key;
    if (sl_node_kind(hosts) == SL_NODE_SEQUENCE) {
        /* The list form: ["name:host-gateway", ...] */
        for (i = 0; i < sl_node_count(hosts); i++) {
            const struct sl_node *item = sl_sequence_item(hosts, i);
            const char *text = sl_setting_text(item, &length);
            const char *name = text ? gateway_name(text, length, &name_length) : NULL;
            if (name != NULL &&
                check_entry(ctx, item, name, name_length, text, length) != SL_OK)
                return SL_ERROR;
        }
    } else if (sl_node_kind(hosts) == SL_NODE_MAPPING) {
        /* The mapping form: {name: host-gateway}; the key names the entry
         * by its host name. */
        for (i = 0; i < sl_node_count(hosts); i++) {
            const struct sl_node *name, *address;
            const char *text, *name_text;
            if (sl_mapping_entry(hosts, i, &name, &address) < 0)
                continue;
            text = sl_setting_text(address, &length);
            name_text = sl_node_text(name, &name_length);
            if (name_text != NULL && sl_text_equals(text, length, "host-gateway") &&
                check_entry(ctx, name, name_text, name_length, name_text,
                            name_length) != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

static const struct sl_option allowed_hosts = {
    .struct_size = SL_OPTION_INIT,
    .name = "allowed_hosts",
    .type = SL_OPTION_LIST,
    .summary = "host names that may map to host-gateway (reviewed by the team)",
};
static const struct sl_option *const options[] = { &allowed_hosts, NULL };

static const struct sl_rule host_gateway_rule = {
    SL_RULE_INIT,
    .code = "ACME001",
    .name = "host-gateway",
    .group = "acme_network",
    .summary = "extra_hosts entries that reach the host",
    .description = "Reports extra_hosts entries whose address is host-gateway, "
                   "except names listed in the option allowed_hosts.",
    .rationale = "The container can connect to every service listening on "
                 "the host, including ones bound to private interfaces.",
    .fix = "Remove the entry; add a reviewed name to allowed_hosts; or "
           "allowlist its key under acme_network.",
    .key_format = "service:extra_hosts:ENTRY (list form)\n"
                  "service:extra_hosts:NAME (mapping form)",
    .example = "services:\n  web:\n    extra_hosts:\n"
               "      - \"host.docker.internal:host-gateway\"",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_service,
    .options = options,
    /* ABI 1.3: where the rule is documented (--explain, SARIF helpUri). */
    .url = "https://wiki.example.com/sandlint/ACME001",
};

static const struct sl_rule *const rules[] = { &host_gateway_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "host_gateway",
    .version = "1.1.0",
    .summary = "ACME's in-house network rules",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
