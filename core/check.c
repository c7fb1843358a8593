/* check.c - run the enabled rules over one file's model (see check.h). */
#include "config.h"

#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "xalloc.h"

void file_check_init(struct file_check *check, const struct registry *registry,
                     const struct sl_host *host, const char *path,
                     const char *package)
{
    memset(check, 0, sizeof(*check));
    check->registry = registry;
    check->host = host;
    check->path = path;
    check->package = package;
    finding_list_init(&check->findings);
}

void file_check_release(struct file_check *check)
{
    finding_list_release(&check->findings);
    free(check->seen.slots);
    memset(&check->seen, 0, sizeof(check->seen));
}

static struct finding *new_finding(struct file_check *check, size_t rule)
{
    struct finding *finding = finding_list_add(&check->findings);
    finding->rule = rule;
    finding->file = xstrdup(check->path);
    finding->package = check->package ? xstrdup(check->package) : NULL;
    return finding;
}

void file_check_core(struct file_check *check, enum core_rule rule,
                     unsigned line, unsigned column, const char *message)
{
    if (!check->registry->rules[rule].enabled)
        return;
    struct finding *finding = new_finding(check, rule);
    finding->severity = SL_SEVERITY_WARNING;
    finding->status = STATUS_WARN;
    finding->line = line;
    finding->column = column;
    finding->message = xstrdup(message);
    if (rule == CORE_RULE_PLUGIN)
        check->plugin_failed = true;
}

/* ------------------------------------------------------------------ */
/* one finding per rule and key                                        */
/* ------------------------------------------------------------------ */

static uint64_t finding_hash(const struct finding *finding)
{
    uint64_t hash = 1469598103934665603ULL ^ finding->rule;
    for (size_t i = 0; i < finding->key_length; i++) {
        hash ^= (unsigned char)finding->key[i];
        hash *= 1099511628211ULL;
    }
    return hash;
}

static bool same_key(const struct finding *a, const struct finding *b)
{
    return a->rule == b->rule && a->key_length == b->key_length &&
           memcmp(a->key, b->key, a->key_length) == 0;
}

static void dedupe_grow(struct file_check *check)
{
    struct dedupe_set *set = &check->seen;
    size_t capacity = set->capacity ? set->capacity * 2 : 64;
    size_t *slots = xcalloc(capacity, sizeof(*slots));
    for (size_t i = 0; i < set->capacity; i++) {
        if (set->slots[i] == 0)
            continue;
        const struct finding *finding = &check->findings.items[set->slots[i] - 1];
        size_t slot = (size_t)finding_hash(finding) & (capacity - 1);
        while (slots[slot] != 0)
            slot = (slot + 1) & (capacity - 1);
        slots[slot] = set->slots[i];
    }
    free(set->slots);
    set->slots = slots;
    set->capacity = capacity;
}

/* The index of an earlier finding with the last finding's rule and key,
 * or (size_t)-1 after remembering the last one as new. */
static size_t find_repeat(struct file_check *check)
{
    struct dedupe_set *set = &check->seen;
    size_t index = check->findings.count - 1;
    const struct finding *finding = &check->findings.items[index];
    if ((set->used + 1) * 2 > set->capacity)
        dedupe_grow(check);
    size_t slot = (size_t)finding_hash(finding) & (set->capacity - 1);
    while (set->slots[slot] != 0) {
        if (same_key(&check->findings.items[set->slots[slot] - 1], finding))
            return set->slots[slot] - 1;
        slot = (slot + 1) & (set->capacity - 1);
    }
    set->slots[slot] = index + 1;
    set->used++;
    return (size_t)-1;
}

/* ------------------------------------------------------------------ */
/* report()                                                            */
/* ------------------------------------------------------------------ */

static char *build_key(const char *service, size_t service_length,
                       const char *field, const char *value,
                       size_t value_length, size_t *key_length)
{
    size_t field_length = strlen(field);
    size_t length = service_length + 1 + field_length;
    if (value != NULL)
        length += 1 + value_length;
    char *key = xmalloc(length + 1);
    char *cursor = key;
    memcpy(cursor, service, service_length);
    cursor += service_length;
    *cursor++ = ':';
    memcpy(cursor, field, field_length);
    cursor += field_length;
    if (value != NULL) {
        *cursor++ = ':';
        if (value_length != 0)
            memcpy(cursor, value, value_length);
        cursor += value_length;
    }
    *cursor = '\0';
    *key_length = length;
    return key;
}

static void record_error(struct sl_context *ctx, const char *message)
{
    free(ctx->error);
    ctx->error = xstrdup(message);
}

int check_report(struct sl_context *ctx, const struct sl_finding *reported)
{
    if (ctx == NULL || reported == NULL)
        return SL_ERROR;
    struct sl_finding finding;
    memset(&finding, 0, sizeof(finding));
    if (reported->struct_size < offsetof(struct sl_finding, hint) + sizeof(char *)) {
        record_error(ctx, "report(): finding struct_size too small");
        return SL_ERROR;
    }
    memcpy(&finding, reported, reported->struct_size < sizeof(finding)
                                   ? reported->struct_size : sizeof(finding));
    const char *service = finding.service ? finding.service : ctx->service;
    size_t service_length = finding.service ? strlen(finding.service)
                                            : ctx->service_length;
    if (finding.node == NULL || finding.field == NULL || finding.field[0] == '\0' ||
        finding.message == NULL || service == NULL ||
        (finding.value == NULL && finding.value_length != 0)) {
        record_error(ctx, "report(): a finding needs node, field, message and "
                     "(in check_document) service");
        return SL_ERROR;
    }
    if (finding.severity < SL_SEVERITY_DEFAULT ||
        finding.severity > SL_SEVERITY_WARNING) {
        record_error(ctx, "report(): unknown severity");
        return SL_ERROR;
    }

    struct file_check *check = ctx->check;
    const struct rule_entry *entry = &check->registry->rules[ctx->rule];
    struct finding *out = new_finding(check, ctx->rule);
    out->severity = finding.severity != SL_SEVERITY_DEFAULT
                        ? finding.severity : entry->rule.default_severity;
    out->status = out->severity == SL_SEVERITY_ERROR ? STATUS_FAIL : STATUS_WARN;
    out->line = finding.node->line;
    out->column = finding.node->column;
    out->end_line = finding.node->end_line;
    out->end_column = finding.node->end_column;
    out->service = xmemdup(service, service_length);
    out->field = xstrdup(finding.field);
    if (finding.value != NULL) {
        out->value = xmemdup(finding.value, finding.value_length);
        out->value_length = finding.value_length;
    }
    out->key = build_key(service, service_length, finding.field, finding.value,
                         finding.value_length, &out->key_length);
    size_t earlier = find_repeat(check);
    if (earlier != (size_t)-1) {
        /* One finding per service, field and value: keep the first, unless
         * the first was only a warning and this one is an error (a warning
         * must never hide an error with the same key). */
        struct finding *kept = &check->findings.items[earlier];
        if (kept->severity == SL_SEVERITY_WARNING &&
            out->severity == SL_SEVERITY_ERROR) {
            finding_release(kept);
            *kept = *out;
            memset(out, 0, sizeof(*out));
            check->findings.count--;
            out = kept;
        } else {
            finding_release(out);
            check->findings.count--;
            return SL_OK;
        }
    }
    out->message = xstrdup(finding.message);
    if (finding.hint != NULL)
        out->hint = xstrdup(finding.hint);
    else if (out->severity == SL_SEVERITY_ERROR)
        out->hint = xasprintf("remove the setting, or review the required "
                              "access and allowlist it as '%s' under %s",
                              out->key, entry->rule.group);
    else
        out->hint = xasprintf("use a literal value so it can be checked, or "
                              "review every value it can take and allowlist "
                              "it as '%s' under %s", out->key,
                              entry->rule.group);
    return SL_OK;
}

/* ------------------------------------------------------------------ */
/* the walk                                                            */
/* ------------------------------------------------------------------ */

static volatile uint32_t *rule_slot;

void check_set_rule_slot(volatile uint32_t *slot)
{
    rule_slot = slot;
}

/* Publishes the running rule (or none) for the coordinator. */
static void publish_rule(size_t rule)
{
    if (rule_slot != NULL)
        *rule_slot = rule == (size_t)-1 ? UINT32_MAX : (uint32_t)rule;
}

static void plugin_failed(struct file_check *check, struct sl_context *ctx)
{
    const struct rule_entry *entry = &check->registry->rules[ctx->rule];
    const char *plugin = check->registry->plugins[entry->plugin].descriptor.name;
    char *message = xasprintf("plugin %s failed on %s (rule %s): %s", plugin,
                              check->path, entry->rule.code,
                              ctx->error ? ctx->error : "no reason given");
    file_check_core(check, CORE_RULE_PLUGIN, 0, 0, message);
    free(message);
}

static void run_document_rules(struct file_check *check,
                               const struct sl_node *root)
{
    const struct registry *registry = check->registry;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        if (!entry->enabled || entry->rule.check_document == NULL)
            continue;
        struct sl_context ctx = { check, i, root, NULL, 0, NULL };
        publish_rule(i);
        int result = entry->rule.check_document(&ctx, root);
        publish_rule((size_t)-1);
        if (result != SL_OK)
            plugin_failed(check, &ctx);
        free(ctx.error);
    }
}

static void run_service_rules(struct file_check *check,
                              const struct sl_node *root,
                              const struct sl_node *key,
                              const struct sl_node *service)
{
    const struct registry *registry = check->registry;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        if (!entry->enabled || entry->rule.check_service == NULL)
            continue;
        struct sl_context ctx = { check, i, root, key->u.scalar.text,
                                  key->u.scalar.length, NULL };
        publish_rule(i);
        int result = entry->rule.check_service(&ctx, key->u.scalar.text, key, service);
        publish_rule((size_t)-1);
        if (result != SL_OK)
            plugin_failed(check, &ctx);
        free(ctx.error);
    }
}

static void structure_warning(struct file_check *check,
                              const struct sl_node *node, const char *message)
{
    file_check_core(check, CORE_RULE_STRUCTURE, node ? node->line : 0,
                    node ? node->column : 0, message);
}

static void check_document(struct file_check *check, const struct sl_node *root)
{
    if (model_is_null(root))
        return;     /* an empty document holds no settings */
    if (root->kind != SL_NODE_MAPPING) {
        structure_warning(check, root, "expected a mapping of services");
        return;
    }
    run_document_rules(check, root);

    const struct sl_node *services = model_mapping_get(root, "services", 8, NULL);
    if (model_is_null(services))
        return;
    if (services->kind != SL_NODE_MAPPING) {
        structure_warning(check, services, "expected a mapping of services");
        return;
    }
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct model_pair *pair = &services->u.mapping.pairs[i];
        if (pair->key->kind != SL_NODE_SCALAR) {
            structure_warning(check, pair->key, "a service name must be a "
                              "scalar; service not checked");
            continue;
        }
        if (pair->value->kind != SL_NODE_MAPPING) {
            char *message = xasprintf("service '%s' is not a mapping; not "
                                      "checked", pair->key->u.scalar.text);
            structure_warning(check, pair->key, message);
            free(message);
            continue;
        }
        check->services++;
        run_service_rules(check, root, pair->key, pair->value);
    }
}

void file_check_run(struct file_check *check, const struct yaml_model *model)
{
    for (size_t i = 0; i < model->document_count; i++)
        check_document(check, model->documents[i]);
}
