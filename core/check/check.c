/* check.c - run the enabled rules over one file's model (see check.h). */
#include "config.h"

#include "check.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "file_kind.h"
#include "kubernetes.h"
#include "sandlint/plugin.h"
#include "xalloc.h"

void file_check_init(struct file_check *check, const struct registry *registry,
                     const char *display, const char *package)
{
    memset(check, 0, sizeof(*check));
    check->registry = registry;
    file_result_init(&check->result, display, package);
}

void file_check_release(struct file_check *check)
{
    file_result_release(&check->result);
}

void file_check_core(struct file_check *check, enum core_rule rule,
                     int severity, unsigned line, unsigned column,
                     const char *message)
{
    if (!check->registry->rules[rule].enabled)
        return;
    struct finding_spec spec = {
        .rule = rule, .severity = severity, .line = line, .column = column,
        .message = message,
    };
    finding_set_add(&check->result.findings, &spec);
}

void file_check_unchecked(struct file_check *check, enum core_rule rule,
                          unsigned line, unsigned column, const char *message)
{
    /* Not subject to --ignore: a file that was not checked must fail the
     * run; the exclude setting is the way to skip a file on purpose. */
    struct finding_spec spec = {
        .rule = rule, .severity = SL_SEVERITY_ERROR, .line = line,
        .column = column, .message = message,
    };
    finding_set_add(&check->result.findings, &spec);
    check->result.incomplete = true;
}

/* ------------------------------------------------------------------ */
/* report()                                                            */
/* ------------------------------------------------------------------ */

void check_set_error(struct sl_context *ctx, const char *message)
{
    free(ctx->error);
    ctx->error = xstrdup(message != NULL ? message : "unknown error");
}

/* A hint of a plugin built for ABI 1.0, which knows no placeholders, with
 * every '%' doubled so that it is written exactly as given. */
static char *literal_hint(const char *hint)
{
    size_t percents = 0;
    for (const char *at = strchr(hint, '%'); at != NULL; at = strchr(at + 1, '%'))
        percents++;
    char *copy = xmalloc(strlen(hint) + percents + 1), *out = copy;
    for (const char *in = hint; *in != '\0'; in++) {
        if (*in == '%')
            *out++ = '%';
        *out++ = *in;
    }
    *out = '\0';
    return copy;
}

/* The key of a finding about the document: "field" or "field:value". */
static char *document_key(const struct sl_finding *finding, size_t *length)
{
    size_t field_length = strlen(finding->field);
    *length = field_length;
    if (finding->value != NULL)
        *length += 1 + finding->value_length;
    char *key = xmalloc(*length + 1);
    memcpy(key, finding->field, field_length);
    if (finding->value != NULL) {
        key[field_length] = ':';
        if (finding->value_length != 0)
            memcpy(key + field_length + 1, finding->value, finding->value_length);
    }
    key[*length] = '\0';
    return key;
}

int check_report(struct sl_context *ctx, const struct sl_finding *reported)
{
    if (ctx == NULL || reported == NULL)
        return SL_ERROR;
    struct sl_finding finding;
    memset(&finding, 0, sizeof(finding));
    if (reported->struct_size < offsetof(struct sl_finding, hint) + sizeof(char *)) {
        check_set_error(ctx, "report(): finding struct_size too small");
        return SL_ERROR;
    }
    memcpy(&finding, reported, reported->struct_size < sizeof(finding)
                                   ? reported->struct_size : sizeof(finding));
    const struct registry *registry = ctx->check->registry;
    const struct rule_entry *entry = &registry->rules[ctx->rule];
    bool built_for_1_0 = registry->plugins[entry->plugin].declared_minor < 1;
    const char *service = finding.service ? finding.service : ctx->service;
    size_t service_length = finding.service ? strlen(finding.service)
                                            : ctx->service_length;
    /* Since ABI 1.1 a finding of check_document without a service is
     * about the document (top-level networks, volumes...). */
    bool about_document = service == NULL && !built_for_1_0;
    if (finding.node == NULL || finding.field == NULL || finding.field[0] == '\0' ||
        finding.message == NULL || (service == NULL && !about_document) ||
        (finding.value == NULL && finding.value_length != 0)) {
        check_set_error(ctx, "report(): a finding needs node, field, message and "
                             "(in check_document, for ABI 1.0) service");
        return SL_ERROR;
    }
    if (finding.severity < SL_SEVERITY_DEFAULT ||
        finding.severity > SL_SEVERITY_WARNING) {
        check_set_error(ctx, "report(): unknown severity");
        return SL_ERROR;
    }

    char *hint = NULL;
    if (finding.hint != NULL && built_for_1_0)
        hint = literal_hint(finding.hint);
    size_t key_length = 0;
    char *key = about_document ? document_key(&finding, &key_length) : NULL;
    struct finding_spec spec = {
        .rule = ctx->rule,
        .severity = finding.severity != SL_SEVERITY_DEFAULT
                        ? finding.severity : entry->rule.default_severity,
        .line = finding.node->line,
        .column = finding.node->column,
        .end_line = finding.node->end_line,
        .end_column = finding.node->end_column,
        .service = service,
        .service_length = service_length,
        .field = finding.field,
        .value = finding.value,
        .value_length = finding.value_length,
        .key = key,
        .key_length = key_length,
        .message = finding.message,
        .hint = hint != NULL ? hint : finding.hint,
        .score = (unsigned)(finding.security_severity * 10.0 + 0.5),
        /* What a configured severity may change (finding.h). */
        .at_rule_default = finding.severity == SL_SEVERITY_DEFAULT ||
                           (finding.severity == SL_SEVERITY_ERROR &&
                            entry->rule.default_severity == SL_SEVERITY_ERROR),
    };
    finding_set_add(&ctx->check->result.findings, &spec);
    free(key);
    free(hint);
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

void file_result_add_failure(struct file_result *result,
                             const struct registry *registry, size_t rule,
                             const char *what)
{
    char *message;
    if (rule < registry->rule_count && rule >= CORE_RULE_COUNT) {
        const struct rule_entry *entry = &registry->rules[rule];
        message = xasprintf("plugin %s %s on %s (rule %s); the file was not "
                            "completely checked",
                            registry->plugins[entry->plugin].descriptor.name,
                            what, result->display, entry->rule.code);
    } else {
        message = xasprintf("sandlint %s while checking %s; the file was not "
                            "completely checked", what, result->display);
    }
    struct finding_spec spec = {
        .rule = CORE_RULE_PLUGIN,
        .severity = SL_SEVERITY_ERROR,
        .message = message,
        .hint = "report the problem to the plugin's authors; --no-isolation "
                "runs checks in one process for debugging",
    };
    finding_set_add(&result->findings, &spec);
    result->plugin_failed = true;
    result->incomplete = true;
    free(message);
}

static void plugin_failed(struct file_check *check, struct sl_context *ctx)
{
    char *what = xasprintf("failed (%s)", ctx->error ? ctx->error : "no reason given");
    file_result_add_failure(&check->result, check->registry, ctx->rule, what);
    free(what);
}

/* Whether a rule checks documents and services of kind: its declared
 * kinds, Compose for a rule built before ABI 1.2 or declaring none. */
static bool rule_checks_kind(const struct registry *registry,
                             const struct rule_entry *entry, int kind)
{
    unsigned kinds = registry->plugins[entry->plugin].declared_minor >= 2
                         ? entry->rule.kinds : 0;
    if (kinds == 0)
        kinds = SL_KIND_COMPOSE;
    return (kinds & (unsigned)kind) != 0;
}

static void run_document_rules(struct file_check *check,
                               const struct sl_node *root, int kind)
{
    const struct registry *registry = check->registry;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        if (!entry->enabled || entry->rule.check_document == NULL ||
            !rule_checks_kind(registry, entry, kind))
            continue;
        struct sl_context ctx = { check, i, root, NULL, 0, NULL, kind };
        publish_rule(i);
        int result = entry->rule.check_document(&ctx, root);
        publish_rule((size_t)-1);
        if (result != SL_OK)
            plugin_failed(check, &ctx);
        free(ctx.error);
    }
}

/* Runs the service rules on one service: name (name_length bytes,
 * NUL-terminated) for a Compose or agent-env service, "<kind>/<name>" for
 * a pod spec; key is where the service is written. */
static void run_service_rules(struct file_check *check,
                              const struct sl_node *root, const char *name,
                              size_t name_length, const struct sl_node *key,
                              const struct sl_node *service, int kind)
{
    const struct registry *registry = check->registry;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        if (!entry->enabled || entry->rule.check_service == NULL ||
            !rule_checks_kind(registry, entry, kind))
            continue;
        struct sl_context ctx = { check, i, root, name, name_length, NULL, kind };
        publish_rule(i);
        int result = entry->rule.check_service(&ctx, name, key, service);
        publish_rule((size_t)-1);
        if (result != SL_OK)
            plugin_failed(check, &ctx);
        free(ctx.error);
    }
}

static void structure_warning(struct file_check *check,
                              const struct sl_node *node, const char *message)
{
    file_check_core(check, CORE_RULE_STRUCTURE, SL_SEVERITY_WARNING,
                    node ? node->line : 0, node ? node->column : 0, message);
}

/* Checks one service (a mapping under a scalar key) of a Compose or
 * agent-env document. */
static void check_service(struct file_check *check, const struct sl_node *root,
                          const struct model_pair *pair, int kind)
{
    if (pair->key->kind != SL_NODE_SCALAR) {
        structure_warning(check, pair->key, "a service name must be a "
                          "scalar; service not checked");
        return;
    }
    if (pair->value->kind != SL_NODE_MAPPING) {
        char *message = xasprintf("service '%s' is not a mapping; not "
                                  "checked", pair->key->u.scalar.text);
        structure_warning(check, pair->key, message);
        free(message);
        return;
    }
    check->result.services++;
    run_service_rules(check, root, pair->key->u.scalar.text, pair->key->u.scalar.length,
                      pair->key, pair->value, kind);
}

static const struct sl_node *value_of(const struct sl_node *mapping, const char *key,
                                      const struct sl_node **key_node)
{
    return model_mapping_get(mapping, key, strlen(key), key_node);
}

/* Whether a top-level mapping is a service of the legacy format 1 (no
 * services: key; every top-level mapping with image or build is one, but
 * for x- extension fields). */
static bool is_legacy_service(const struct model_pair *pair)
{
    return pair->key->kind == SL_NODE_SCALAR && pair->value->kind == SL_NODE_MAPPING &&
           strncmp(pair->key->u.scalar.text, "x-", 2) != 0 &&
           (value_of(pair->value, "image", NULL) != NULL ||
            value_of(pair->value, "build", NULL) != NULL);
}

static void check_compose_document(struct file_check *check, const struct sl_node *root)
{
    if (model_is_null(root))
        return;     /* an empty document holds no settings */
    if (root->kind != SL_NODE_MAPPING) {
        structure_warning(check, root, "expected a mapping of services");
        return;
    }
    const struct sl_node *services = value_of(root, "services", NULL);
    /* Not Compose is never a silent pass (SPEC §4): said once per file. */
    const struct sl_node *sign = file_kind_kubernetes_sign(root);
    if (sign != NULL) {
        if (!check->not_compose_reported)
            structure_warning(check, sign, "not a Compose file (Kubernetes: a "
                              "manifest or a Helm values file) and not checked");
        check->not_compose_reported = true;
        return;
    }
    run_document_rules(check, root, SL_KIND_COMPOSE);

    if (services == NULL) {
        /* The legacy format 1: the services are at the top level. */
        bool warned = false;
        for (size_t i = 0; i < root->u.mapping.count; i++) {
            const struct model_pair *pair = &root->u.mapping.pairs[i];
            if (!is_legacy_service(pair))
                continue;
            if (!warned)
                structure_warning(check, pair->key, "legacy Compose file format "
                                  "without 'services'; its top-level services are "
                                  "checked");
            warned = true;
            check_service(check, root, pair, SL_KIND_COMPOSE);
        }
        return;
    }
    if (model_is_null(services))
        return;
    if (services->kind != SL_NODE_MAPPING) {
        structure_warning(check, services, "expected a mapping of services");
        return;
    }
    for (size_t i = 0; i < services->u.mapping.count; i++)
        check_service(check, root, &services->u.mapping.pairs[i], SL_KIND_COMPOSE);
}

/* Bounds the items of a Kubernetes List checked as objects: Lists nest.
 * Aliases let a short file repeat one List many times over, so the
 * objects of a file are bounded too; past either bound the file was not
 * checked, which fails the run. */
#define MAX_LIST_DEPTH 8
#define MAX_OBJECTS_PER_FILE 10000

/* The first List limit a file reaches is its error; the objects past it
 * are left unchecked without repeating it. */
static void objects_not_checked(struct file_check *check, const struct sl_node *at,
                                const char *message)
{
    if (check->objects_limit_reported)
        return;
    check->objects_limit_reported = true;
    file_check_unchecked(check, CORE_RULE_YAML, at->line, at->column, message);
}

/* Checks one Kubernetes object: its document rules, then the service rules
 * on each of its pod specs.  A List's items are objects of their own. */
static void check_object(struct file_check *check, const struct sl_node *object,
                         unsigned depth)
{
    if (check->objects_checked >= MAX_OBJECTS_PER_FILE) {
        objects_not_checked(check, object, "more than 10000 Kubernetes objects "
                            "(Lists, with their aliases); the rest were not checked");
        return;
    }
    check->objects_checked++;
    const struct sl_node *kind = value_of(object, "kind", NULL);
    const struct sl_node *items = value_of(object, "items", NULL);
    if (kind->u.scalar.length >= 4 &&
        strcmp(kind->u.scalar.text + kind->u.scalar.length - 4, "List") == 0 &&
        items != NULL && items->kind == SL_NODE_SEQUENCE) {
        if (depth >= MAX_LIST_DEPTH) {
            objects_not_checked(check, object, "Kubernetes Lists nested more than 8 "
                                "deep; the objects inside were not checked");
            return;
        }
        for (size_t i = 0; i < items->u.sequence.count && !check->objects_limit_reported;
             i++) {
            const struct sl_node *item = items->u.sequence.items[i];
            if (file_kind_is_object(item))
                check_object(check, item, depth + 1);
            else
                structure_warning(check, item, "List item is not a Kubernetes "
                                  "object (no apiVersion and kind); not checked");
        }
        return;
    }
    run_document_rules(check, object, SL_KIND_KUBERNETES);
    char *service = NULL;
    for (size_t i = 0; i < KUBERNETES_POD_SHAPES; i++) {
        const struct sl_node *key;
        const struct sl_node *spec = kubernetes_pod_spec(object, i, &key);
        if (spec == NULL)
            continue;
        if (service == NULL)
            service = kubernetes_object_service(object);
        check->result.services++;
        run_service_rules(check, object, service, strlen(service), key, spec,
                          SL_KIND_KUBERNETES);
    }
    free(service);
}

static void check_kubernetes_document(struct file_check *check,
                                      const struct sl_node *root)
{
    if (model_is_null(root))
        return;
    if (!file_kind_is_object(root)) {
        structure_warning(check, root, "document is not a Kubernetes object (no "
                          "apiVersion and kind); not checked");
        return;
    }
    check_object(check, root, 0);
}

/* additionalResources of an agent-env file: objects the chart deploys
 * beside the services, each checked as a Kubernetes object. */
static void check_additional_resources(struct file_check *check,
                                       const struct sl_node *resources)
{
    if (model_is_null(resources) || resources->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < resources->u.sequence.count; i++) {
        const struct sl_node *item = resources->u.sequence.items[i];
        if (model_is_null(item))
            continue;
        if (file_kind_is_object(item))
            check_object(check, item, 0);
        else if (item->kind == SL_NODE_SCALAR)
            structure_warning(check, item, "additionalResources item is Helm "
                              "template text and cannot be checked");
        else
            structure_warning(check, item, "additionalResources item is not a "
                              "Kubernetes object (no apiVersion and kind); not "
                              "checked");
    }
}

static void check_agent_env_document(struct file_check *check,
                                     const struct sl_node *root)
{
    if (model_is_null(root))
        return;
    if (root->kind != SL_NODE_MAPPING) {
        structure_warning(check, root, "expected a mapping of agent-env values");
        return;
    }
    run_document_rules(check, root, SL_KIND_AGENT_ENV);
    const struct sl_node *services = value_of(root, "services", NULL);
    if (!model_is_null(services) && services->kind != SL_NODE_MAPPING)
        structure_warning(check, services, "expected a mapping of services");
    else if (!model_is_null(services))
        for (size_t i = 0; i < services->u.mapping.count; i++)
            check_service(check, root, &services->u.mapping.pairs[i], SL_KIND_AGENT_ENV);
    check_additional_resources(check, value_of(root, "additionalResources", NULL));
}

void file_check_run(struct file_check *check, const struct yaml_model *model)
{
    check->kind = file_kind_decide(model, check->candidates);
    if (check->kind == 0) {
        check->result.skipped = true;
        return;
    }
    for (size_t i = 0; i < model->document_count; i++) {
        if (check->kind == SL_KIND_AGENT_ENV)
            check_agent_env_document(check, model->documents[i]);
        else if (check->kind == SL_KIND_KUBERNETES)
            check_kubernetes_document(check, model->documents[i]);
        else
            check_compose_document(check, model->documents[i]);
    }
}
