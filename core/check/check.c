/* check.c - run the enabled rules over one file's model (see check.h). */
#include "config.h"

#include "check.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "file_kind.h"
#include "front_ends.h"
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
    model_file_state_release(&check->front);
    file_result_release(&check->result);
    resolved_uses_release(&check->resolved);
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

/* A hint of a plugin built before the placeholders it may hold: every '%'
 * doubled (ABI 1.0, which knows none), or only that of a "%e" (1.1 and
 * 1.2, which know "%k" and "%%"), so that it is written as given. */
static char *literal_hint(const char *hint, bool knows_key)
{
    size_t percents = 0;
    for (const char *at = strchr(hint, '%'); at != NULL; at = strchr(at + 1, '%'))
        percents++;
    char *copy = xmalloc(strlen(hint) + percents + 1), *out = copy;
    for (const char *in = hint; *in != '\0'; in++) {
        if (knows_key && in[0] == '%' && in[1] == '%') {
            *out++ = *in++;     /* "%%" stays a placeholder pair */
        } else if (*in == '%' && (!knows_key || in[1] == 'e')) {
            *out++ = '%';
        }
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
    unsigned minor = registry->plugins[entry->plugin].declared_minor;
    bool built_for_1_0 = minor < 1;
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

    /* Run again for one value (unchecked_resolved): only its findings. */
    const struct sl_value *only = ctx->check->only_about;
    if (only != NULL && finding.node != only->node && finding.node != only->key)
        return SL_OK;
    /* A finding about a value resolved from the project's variables says
     * how it was written and where it resolved from. */
    char *resolved_message = resolved_uses_message(&ctx->check->resolved, finding.node,
                                                   finding.value, finding.value_length,
                                                   finding.message);
    if (resolved_message != NULL)
        finding.message = resolved_message;
    char *hint = NULL;
    if (finding.hint != NULL && minor < 3)
        hint = literal_hint(finding.hint, !built_for_1_0);
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
    free(resolved_message);
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

/* Whether a rule checks documents, services and scopes of kind: its
 * declared kinds, Compose for a rule built before ABI 1.2 or declaring
 * none.  A rule built for 1.2 never sees a kind added later (1.2 knew
 * three). */
static bool rule_checks_kind(const struct registry *registry,
                             const struct rule_entry *entry, int kind)
{
    unsigned minor = registry->plugins[entry->plugin].declared_minor;
    unsigned kinds = minor >= 2 ? entry->rule.kinds : 0;
    if (minor < 3)
        kinds &= SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES;
    if (kinds == 0)
        kinds = SL_KIND_COMPOSE;
    return (kinds & (unsigned)kind) != 0;
}

/* After a rule's callback: no rule runs now; a failure is recorded; what
 * the context held is freed. */
static void callback_done(struct file_check *check, struct sl_context *ctx, int result)
{
    publish_rule((size_t)-1);
    if (result != SL_OK)
        plugin_failed(check, ctx);
    free(ctx->error);
    string_list_release(&ctx->owned);
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
        struct sl_context ctx = { check, i, root, NULL, 0, NULL, kind, STRING_LIST_INIT };
        publish_rule(i);
        callback_done(check, &ctx, entry->rule.check_document(&ctx, root));
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
        struct sl_context ctx = { check, i, root, name, name_length, NULL, kind,
                                  STRING_LIST_INIT };
        publish_rule(i);
        callback_done(check, &ctx, entry->rule.check_service(&ctx, name, key, service));
    }
}

/* After a scope's rules: a value resolved from the project's variables
 * that no rule reported is no more checked than before (the deploy
 * environment can change it), so it gets what the first rule that read it
 * reports about it as written: that rule runs again on the scope with the
 * value as it is written (TEMPLATED), keeping only the findings about it
 * (resolved_use.h).  Rare: only resolved values that are harmless. */
static void unchecked_resolved(struct file_check *check, const struct sl_node *root,
                               const struct model_scope *scope)
{
    const struct sl_scope *public = &scope->public;
    /* Taken out: the runs below must neither match nor add to them. */
    struct resolved_uses taken = check->resolved;
    memset(&check->resolved, 0, sizeof(check->resolved));
    for (size_t i = 0; i < taken.count; i++) {
        const struct resolved_use *use = &taken.items[i];
        if (use->reported)
            continue;
        check->resolved.count = 0;  /* what an earlier run read again */
        const struct rule_entry *entry = &check->registry->rules[use->rule];
        sl_check_scope_fn callback = public->level == SL_SCOPE_CONTAINER
                                         ? entry->rule.check_container
                                         : entry->rule.check_scope;
        /* The model's own value (the scope's group owns it). */
        struct sl_value *value = (struct sl_value *)use->value;
        struct sl_value resolved = *value;
        value->text = value->written;
        value->text_length = value->written_length;
        value->state = SL_VALUE_TEMPLATED;
        value->template_syntax = SL_TEMPLATE_INTERPOLATION;
        value->flags &= ~(unsigned)SL_VALUE_RESOLVED;
        value->parsed = NULL;
        value->parsed_length = 0;
        value->meaning = 0;
        value->number = 0;
        value->resolved_from = NULL;
        value->resolved_from_length = 0;
        check->only_about = value;
        struct sl_context ctx = { check, use->rule, root, public->service,
                                  public->service_length, NULL, public->kind,
                                  STRING_LIST_INIT };
        publish_rule(use->rule);
        callback_done(check, &ctx, callback(&ctx, public));
        check->only_about = NULL;
        *value = resolved;
    }
    /* What the runs read again is forgotten; the buffer is kept. */
    resolved_uses_release(&check->resolved);
    taken.count = 0;
    check->resolved = taken;
}

/* Runs the model's rules on one scope: check_container on a container,
 * check_scope on a pod, account or project.  A finding without a service
 * is the scope's (none for a project: a document-level key). */
static void run_scope_rules(struct file_check *check, const struct sl_node *root,
                            const struct model_scope *scope)
{
    const struct registry *registry = check->registry;
    const struct sl_scope *public = &scope->public;
    bool container = public->level == SL_SCOPE_CONTAINER;
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++) {
        const struct rule_entry *entry = &registry->rules[i];
        sl_check_scope_fn callback = container ? entry->rule.check_container
                                               : entry->rule.check_scope;
        if (!entry->enabled || callback == NULL ||
            registry->plugins[entry->plugin].declared_minor < 3 ||
            !rule_checks_kind(registry, entry, public->kind))
            continue;
        struct sl_context ctx = { check, i, root, public->service, public->service_length,
                                  NULL, public->kind, STRING_LIST_INIT };
        publish_rule(i);
        callback_done(check, &ctx, callback(&ctx, public));
    }
    unchecked_resolved(check, root, scope);
}

static void structure_warning(struct file_check *check,
                              const struct sl_node *node, const char *message)
{
    file_check_core(check, CORE_RULE_STRUCTURE, SL_SEVERITY_WARNING,
                    node ? node->line : 0, node ? node->column : 0, message);
}

/* What the front-ends hand over, in order. */
static void take_step(struct model_sink *sink, const struct model_step *step)
{
    struct file_check *check =
        (struct file_check *)((char *)sink - offsetof(struct file_check, sink));
    switch (step->type) {
    case MODEL_STEP_DOCUMENT:
        run_document_rules(check, step->node, step->kind);
        break;
    case MODEL_STEP_SERVICE:
        check->result.services++;
        run_service_rules(check, step->root, step->name, step->name_length, step->key,
                          step->node, step->kind);
        break;
    case MODEL_STEP_SCOPE:
        run_scope_rules(check, step->root, step->scope);
        break;
    case MODEL_STEP_WARNING:
        structure_warning(check, step->node, step->message);
        break;
    case MODEL_STEP_NOT_CHECKED:
        file_check_unchecked(check, CORE_RULE_YAML, step->node->line, step->node->column,
                             step->message);
        break;
    case MODEL_STEP_NOT_UNDERSTOOD:
        file_check_unchecked(check, CORE_RULE_NOT_UNDERSTOOD, step->node->line,
                             step->node->column, step->message);
        break;
    case MODEL_STEP_TEMPLATED:
        file_check_core(check, CORE_RULE_TEMPLATED, SL_SEVERITY_WARNING, step->node->line,
                        step->node->column, step->message);
        break;
    case MODEL_STEP_COMMAND_LINE:
        file_check_core(check, CORE_RULE_COMMAND_LINE, SL_SEVERITY_WARNING, step->node->line,
                        step->node->column, step->message);
        break;
    }
}

bool file_check_run_text(struct file_check *check, const char *text, size_t length,
                         struct comment_list *comments)
{
    int kind = file_kind_of_text(check->candidates, text, length);
    if (kind == 0)
        return false;
    if (kind < 0) {
        /* A file without an extension that is no shell script. */
        check->result.skipped = true;
        return true;
    }
    check->kind = kind;
    check->sink.take = take_step;
    struct model_reading reading = { &check->sink, &check->front, NULL };
    if (!front_ends_read_text(&reading, kind, text, length, comments))
        check->result.skipped = true;
    return true;
}

void file_check_run(struct file_check *check, const struct yaml_model *model,
                    struct comment_list *step_comments)
{
    check->kind = file_kind_decide(model, check->candidates);
    if (check->kind == 0) {
        check->result.skipped = true;
        return;
    }
    check->front.step_comments = step_comments;
    check->sink.take = take_step;
    check->front.documents = (const struct sl_node *const *)model->documents;
    check->front.document_count = model->document_count;
    for (size_t i = 0; i < model->document_count; i++) {
        struct model_reading reading = { &check->sink, &check->front,
                                         model->documents[i] };
        front_ends_read(&reading, check->kind, model->documents[i]);
    }
    resolved_uses_release(&check->resolved);
}
