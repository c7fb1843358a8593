/* mock_host.c - a host table for rule unit tests (see mock_host.h). */
#include "config.h"

#include "mock_host.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "container_model.h"
#include "front_ends.h"
#include "host.h"
#include "string_list.h"
#include "yaml_model.h"

struct mock_option {
    char *name;
    char *text;                 /* as set */
    char **items;               /* the text split at commas (lists) */
    size_t item_count;
};

static struct {
    struct mock_finding *findings;
    size_t count;
    char *error;
    struct mock_option *options;
    size_t option_count;
    const struct sl_rule *rule; /* the rule whose callback runs */
} mock;

static char *copy(const char *text, size_t length)
{
    char *result = malloc(length + 1);
    if (result == NULL)
        abort();
    if (length != 0)
        memcpy(result, text, length);
    result[length] = '\0';
    return result;
}

static char *copy_string(const char *text)
{
    return text != NULL ? copy(text, strlen(text)) : NULL;
}

static void record_error(const char *message)
{
    free(mock.error);
    mock.error = copy_string(message != NULL ? message : "unknown error");
}

/* ------------------------------------------------------------------ */
/* the slots the mock replaces                                         */
/* ------------------------------------------------------------------ */

static int mock_report(struct sl_context *ctx, const struct sl_finding *finding)
{
    if (finding == NULL || finding->struct_size < SL_FINDING_INIT ||
        finding->node == NULL || finding->field == NULL || finding->message == NULL) {
        record_error("report(): a finding needs node, field and message");
        return SL_ERROR;
    }
    mock.findings = realloc(mock.findings, (mock.count + 1) * sizeof(*mock.findings));
    if (mock.findings == NULL)
        abort();
    struct mock_finding *out = &mock.findings[mock.count++];
    memset(out, 0, sizeof(*out));
    out->rule = copy_string(mock.rule->code);
    if (finding->service != NULL)
        out->service = copy_string(finding->service);
    else if (ctx->service != NULL)
        out->service = copy(ctx->service, ctx->service_length);
    out->field = copy_string(finding->field);
    if (finding->value != NULL) {
        out->value = copy(finding->value, finding->value_length);
        out->value_length = finding->value_length;
    }
    out->severity = finding->severity;
    out->message = copy_string(finding->message);
    out->hint = copy_string(finding->hint);
    out->line = finding->node->line;
    out->column = finding->node->column;
    return SL_OK;
}

static void mock_set_error(struct sl_context *ctx, const char *message)
{
    (void)ctx;
    record_error(message);
}

static const char *mock_file_path(struct sl_context *ctx)
{
    (void)ctx;
    return "compose.yaml";
}

/* The running rule's declared option name of type, or NULL. */
static const struct sl_option *declared(const char *name, int type)
{
    for (size_t i = 0; mock.rule->options != NULL && mock.rule->options[i] != NULL; i++) {
        const struct sl_option *option = mock.rule->options[i];
        if (name != NULL && strcmp(option->name, name) == 0) {
            if (option->type == type)
                return option;
            break;
        }
    }
    record_error("the rule declares no option of that name and type");
    return NULL;
}

static const struct mock_option *set_value(const char *name)
{
    for (size_t i = 0; i < mock.option_count; i++)
        if (strcmp(mock.options[i].name, name) == 0)
            return &mock.options[i];
    return NULL;
}

static int mock_option_string(struct sl_context *ctx, const char *name,
                              const char **value, size_t *length)
{
    (void)ctx;
    const struct sl_option *option = declared(name, SL_OPTION_STRING);
    if (option == NULL)
        return SL_ERROR;
    const struct mock_option *set = set_value(name);
    *value = set != NULL ? set->text
             : option->default_string != NULL ? option->default_string : "";
    if (length != NULL)
        *length = strlen(*value);
    return SL_OK;
}

static int mock_option_integer(struct sl_context *ctx, const char *name,
                               long long *value)
{
    (void)ctx;
    const struct sl_option *option = declared(name, SL_OPTION_INTEGER);
    if (option == NULL)
        return SL_ERROR;
    const struct mock_option *set = set_value(name);
    *value = set != NULL ? strtoll(set->text, NULL, 10) : option->default_integer;
    return SL_OK;
}

static int mock_option_boolean(struct sl_context *ctx, const char *name, int *value)
{
    (void)ctx;
    const struct sl_option *option = declared(name, SL_OPTION_BOOLEAN);
    if (option == NULL)
        return SL_ERROR;
    const struct mock_option *set = set_value(name);
    *value = set != NULL ? strcmp(set->text, "true") == 0 : option->default_boolean != 0;
    return SL_OK;
}

static size_t default_count(const struct sl_option *option)
{
    size_t count = 0;
    while (option->default_list != NULL && option->default_list[count] != NULL)
        count++;
    return count;
}

static int mock_option_list_count(struct sl_context *ctx, const char *name,
                                  size_t *count)
{
    (void)ctx;
    const struct sl_option *option = declared(name, SL_OPTION_LIST);
    if (option == NULL)
        return SL_ERROR;
    const struct mock_option *set = set_value(name);
    *count = set != NULL ? set->item_count : default_count(option);
    return SL_OK;
}

static int mock_option_list_item(struct sl_context *ctx, const char *name,
                                 size_t index, const char **value, size_t *length)
{
    (void)ctx;
    const struct sl_option *option = declared(name, SL_OPTION_LIST);
    if (option == NULL)
        return SL_ERROR;
    const struct mock_option *set = set_value(name);
    size_t count = set != NULL ? set->item_count : default_count(option);
    if (index >= count) {
        record_error("option_list_item(): index past the end of the list");
        return SL_ERROR;
    }
    *value = set != NULL ? set->items[index] : option->default_list[index];
    if (length != NULL)
        *length = strlen(*value);
    return SL_OK;
}

const struct sl_host *mock_host_table(void)
{
    static struct sl_host table;
    static int ready;
    if (!ready) {
        table = *host_services();   /* the real node API and helpers */
        table.report = mock_report;
        table.set_error = mock_set_error;
        table.file_path = mock_file_path;
        table.option_string = mock_option_string;
        table.option_integer = mock_option_integer;
        table.option_boolean = mock_option_boolean;
        table.option_list_count = mock_option_list_count;
        table.option_list_item = mock_option_list_item;
        ready = 1;
    }
    return &table;
}

/* ------------------------------------------------------------------ */
/* running rules                                                       */
/* ------------------------------------------------------------------ */

/* What a check runs: the rules of one plugin (or one of them). */
struct mock_run {
    struct model_sink sink;     /* first: the front-ends hand steps here */
    const struct sl_plugin *plugin;
    const char *code;           /* NULL: every rule */
    int status;
};

/* Whether rule checks kind, as the core decides (check.c). */
static int checks_kind(const struct sl_plugin *plugin, const struct sl_rule *rule, int kind)
{
    unsigned kinds = plugin->abi_minor >= 2 ? rule->kinds : 0;
    if (plugin->abi_minor < 3)
        kinds &= SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES;
    if (kinds == 0)
        kinds = SL_KIND_COMPOSE;
    return (kinds & (unsigned)kind) != 0;
}

/* Runs the callback of rule that step calls for, with a context of the
 * core's shape; the real services that read it (definition,
 * document_root, host_mounts, the model) need only root, and set_error
 * goes to the mock. */
static int run_rule(const struct sl_plugin *plugin, const struct sl_rule *rule,
                    const struct model_step *step)
{
    struct sl_context ctx;
    int status = SL_OK;
    memset(&ctx, 0, sizeof(ctx));
    ctx.root = step->root;
    ctx.kind = step->kind;
    mock.rule = rule;
    if (!checks_kind(plugin, rule, step->kind))
        return SL_OK;
    switch (step->type) {
    case MODEL_STEP_DOCUMENT:
        if (rule->check_document != NULL)
            status = rule->check_document(&ctx, step->node);
        break;
    case MODEL_STEP_SERVICE:
        ctx.service = step->name;
        ctx.service_length = step->name_length;
        if (rule->check_service != NULL)
            status = rule->check_service(&ctx, step->name, step->key, step->node);
        break;
    case MODEL_STEP_SCOPE: {
        const struct sl_scope *scope = &step->scope->public;
        sl_check_scope_fn callback = scope->level == SL_SCOPE_CONTAINER
                                         ? rule->check_container : rule->check_scope;
        ctx.service = scope->service;
        ctx.service_length = scope->service_length;
        if (plugin->abi_minor >= 3 && callback != NULL)
            status = callback(&ctx, scope);
        break;
    }
    default:
        break;      /* structure warnings are the core's, not the rule's */
    }
    if (ctx.error != NULL) {   /* a real service failed and said why */
        record_error(ctx.error);
        free(ctx.error);
    }
    string_list_release(&ctx.owned);
    return status;
}

static void take_step(struct model_sink *sink, const struct model_step *step)
{
    struct mock_run *run = (struct mock_run *)sink;
    for (size_t r = 0; run->plugin->rules[r] != NULL && run->status == SL_OK; r++) {
        const struct sl_rule *rule = run->plugin->rules[r];
        if (run->code == NULL || strcmp(rule->code, run->code) == 0)
            run->status = run_rule(run->plugin, rule, step);
    }
}

int mock_host_check_kind(const struct sl_plugin *plugin, const char *code, int kind,
                         const char *yaml)
{
    struct yaml_model model;
    if (model_parse(&model, yaml, strlen(yaml), NULL) != MODEL_OK) {
        record_error("the YAML does not parse");
        model_release(&model);
        return SL_ERROR;
    }
    struct mock_run run = { { take_step }, plugin, code, SL_OK };
    struct model_file_state file;
    memset(&file, 0, sizeof(file));
    for (size_t d = 0; d < model.document_count && run.status == SL_OK; d++) {
        struct model_reading reading = { &run.sink, &file, model.documents[d] };
        front_ends_read(&reading, kind, model.documents[d]);
    }
    model_release(&model);
    return run.status;
}

int mock_host_check(const struct sl_plugin *plugin, const char *code,
                    const char *yaml)
{
    return mock_host_check_kind(plugin, code, SL_KIND_COMPOSE, yaml);
}

size_t mock_host_count(void)
{
    return mock.count;
}

const struct mock_finding *mock_host_finding(size_t index)
{
    return index < mock.count ? &mock.findings[index] : NULL;
}

const char *mock_host_error(void)
{
    return mock.error;
}

void mock_host_set_option(const char *name, const char *text)
{
    mock.options = realloc(mock.options, (mock.option_count + 1) * sizeof(*mock.options));
    if (mock.options == NULL)
        abort();
    struct mock_option *option = &mock.options[mock.option_count++];
    memset(option, 0, sizeof(*option));
    option->name = copy_string(name);
    option->text = copy_string(text);
    for (const char *at = text; *text != '\0';) {
        const char *end = strchr(at, ',');
        size_t length = end != NULL ? (size_t)(end - at) : strlen(at);
        while (length > 0 && at[0] == ' ') {
            at++;
            length--;
        }
        while (length > 0 && at[length - 1] == ' ')
            length--;
        option->items = realloc(option->items, (option->item_count + 1) * sizeof(char *));
        if (option->items == NULL)
            abort();
        option->items[option->item_count++] = copy(at, length);
        if (end == NULL)
            break;
        at = end + 1;
    }
}

void mock_host_reset(void)
{
    for (size_t i = 0; i < mock.count; i++) {
        struct mock_finding *finding = &mock.findings[i];
        free(finding->rule);
        free(finding->service);
        free(finding->field);
        free(finding->value);
        free(finding->message);
        free(finding->hint);
    }
    free(mock.findings);
    for (size_t i = 0; i < mock.option_count; i++) {
        for (size_t j = 0; j < mock.options[i].item_count; j++)
            free(mock.options[i].items[j]);
        free(mock.options[i].items);
        free(mock.options[i].name);
        free(mock.options[i].text);
    }
    free(mock.options);
    free(mock.error);
    memset(&mock, 0, sizeof(mock));
}
