/* host.c - the host services of the plugin ABI (see plugin.h). */
#include "config.h"

#include "host.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compose.h"
#include "container_model.h"
#include "host_mounts.h"
#include "kubernetes.h"
#include "sized_out.h"
#include "string_list.h"
#include "xalloc.h"
#include "yaml_model.h"

static int node_kind(const struct sl_node *node)
{
    return node ? node->kind : SL_NODE_NONE;
}

static int node_style(const struct sl_node *node)
{
    return node ? node->style : SL_STYLE_NONE;
}

static const char *node_tag(const struct sl_node *node)
{
    return node ? node->tag : NULL;
}

static const char *node_text(const struct sl_node *node, size_t *length)
{
    if (node == NULL || node->kind != SL_NODE_SCALAR) {
        if (length != NULL)
            *length = 0;
        return NULL;
    }
    if (length != NULL)
        *length = node->u.scalar.length;
    return node->u.scalar.text;
}

static size_t node_count(const struct sl_node *node)
{
    if (node == NULL)
        return 0;
    if (node->kind == SL_NODE_SEQUENCE)
        return node->u.sequence.count;
    if (node->kind == SL_NODE_MAPPING)
        return node->u.mapping.count;
    return 0;
}

static const struct sl_node *sequence_item(const struct sl_node *sequence,
                                           size_t index)
{
    if (sequence == NULL || sequence->kind != SL_NODE_SEQUENCE ||
        index >= sequence->u.sequence.count)
        return NULL;
    return sequence->u.sequence.items[index];
}

static const struct sl_node *mapping_value(const struct sl_node *mapping,
                                           const char *key,
                                           const struct sl_node **key_node)
{
    if (key == NULL) {
        if (key_node != NULL)
            *key_node = NULL;
        return NULL;
    }
    return model_mapping_get(mapping, key, strlen(key), key_node);
}

static int mapping_entry(const struct sl_node *mapping, size_t index,
                         const struct sl_node **key,
                         const struct sl_node **value)
{
    if (key != NULL)
        *key = NULL;
    if (value != NULL)
        *value = NULL;
    if (mapping == NULL || mapping->kind != SL_NODE_MAPPING ||
        index >= mapping->u.mapping.count)
        return SL_ERROR;
    const struct model_pair *pair = &mapping->u.mapping.pairs[index];
    if (key != NULL)
        *key = pair->key;
    if (value != NULL)
        *value = pair->value;
    return (int)pair->flags;
}

static void node_span(const struct sl_node *node, struct sl_span *span)
{
    if (span == NULL)
        return;
    if (node == NULL) {
        memset(span, 0, sizeof(*span));
        return;
    }
    span->line = node->line;
    span->column = node->column;
    span->end_line = node->end_line;
    span->end_column = node->end_column;
}

static int is_empty(const struct sl_node *node)
{
    return compose_node_empty(node);
}

static int is_truthy(const struct sl_node *node)
{
    return compose_node_truthy(node);
}

static int has_interpolation(const char *text, size_t length)
{
    return compose_has_interpolation(text, length);
}

static int classify_source(const char *source, size_t length)
{
    return compose_classify_source(source, length);
}

static int parse_volume(const char *text, size_t length, struct sl_volume *out)
{
    return compose_parse_volume(text, length, out);
}

static int is_engine_socket(const char *source, size_t source_length,
                            const char *target, size_t target_length)
{
    return compose_is_engine_socket(source, source_length, target,
                                    target_length);
}

static const struct sl_node *definition(struct sl_context *ctx,
                                        const char *section, const char *name,
                                        size_t name_length,
                                        const struct sl_node **key_node)
{
    if (key_node != NULL)
        *key_node = NULL;
    if (ctx == NULL || section == NULL || name == NULL)
        return NULL;
    const struct sl_node *definitions =
        model_mapping_get(ctx->root, section, strlen(section), NULL);
    return model_mapping_get(definitions, name, name_length, key_node);
}

static const char *file_path(struct sl_context *ctx)
{
    return ctx ? ctx->check->result.display : NULL;
}

static const struct sl_node *document_root(struct sl_context *ctx)
{
    return ctx ? ctx->root : NULL;
}

static void set_error(struct sl_context *ctx, const char *message)
{
    if (ctx != NULL)
        check_set_error(ctx, message);
}

/* ------------------------------------------------------------------ */
/* per-rule options (since 1.1)                                        */
/* ------------------------------------------------------------------ */

static const char *const option_type_names[] = {
    "", "a string", "an integer", "a boolean", "a list",
};

/* The running rule's option name of type, or NULL after set_error(). */
static const struct rule_option *context_option(struct sl_context *ctx,
                                                const char *name, int type)
{
    if (ctx == NULL)
        return NULL;
    const struct rule_entry *entry = &ctx->check->registry->rules[ctx->rule];
    const struct rule_option *option = rule_entry_option(entry, name);
    char *message = NULL;
    if (option == NULL)
        message = xasprintf("rule %s declares no option '%s'", entry->rule.code,
                            name ? name : "(null)");
    else if (option->declared.type != type)
        message = xasprintf("option '%s' of rule %s is %s, not %s", name,
                            entry->rule.code,
                            option_type_names[option->declared.type],
                            option_type_names[type]);
    if (message == NULL)
        return option;
    check_set_error(ctx, message);
    free(message);
    return NULL;
}

static int option_string(struct sl_context *ctx, const char *name,
                         const char **value, size_t *length)
{
    const struct rule_option *option = context_option(ctx, name, SL_OPTION_STRING);
    if (option == NULL || value == NULL)
        return SL_ERROR;
    *value = rule_option_string(option, length);
    return SL_OK;
}

static int option_integer(struct sl_context *ctx, const char *name, long long *value)
{
    const struct rule_option *option = context_option(ctx, name, SL_OPTION_INTEGER);
    if (option == NULL || value == NULL)
        return SL_ERROR;
    *value = rule_option_integer(option);
    return SL_OK;
}

static int option_boolean(struct sl_context *ctx, const char *name, int *value)
{
    const struct rule_option *option = context_option(ctx, name, SL_OPTION_BOOLEAN);
    if (option == NULL || value == NULL)
        return SL_ERROR;
    *value = rule_option_boolean(option) ? 1 : 0;
    return SL_OK;
}

static int option_list_count(struct sl_context *ctx, const char *name, size_t *count)
{
    const struct rule_option *option = context_option(ctx, name, SL_OPTION_LIST);
    if (option == NULL || count == NULL)
        return SL_ERROR;
    *count = rule_option_list_count(option);
    return SL_OK;
}

static int option_list_item(struct sl_context *ctx, const char *name, size_t index,
                            const char **value, size_t *length)
{
    const struct rule_option *option = context_option(ctx, name, SL_OPTION_LIST);
    if (option == NULL || value == NULL)
        return SL_ERROR;
    *value = rule_option_list_item(option, index, length);
    if (*value != NULL)
        return SL_OK;
    check_set_error(ctx, "option_list_item(): index past the end of the list");
    return SL_ERROR;
}

/* ------------------------------------------------------------------ */
/* file kinds (since 1.2)                                              */
/* ------------------------------------------------------------------ */

static int context_kind(struct sl_context *ctx)
{
    return ctx != NULL && ctx->kind != 0 ? ctx->kind : SL_KIND_COMPOSE;
}

/* What a walk of the front-ends returns, with the problem it names (a
 * wrong argument) recorded as the callback's error. */
static int walked(struct sl_context *ctx, int status, const char *problem)
{
    if (problem != NULL)
        check_set_error(ctx, problem);
    return status;
}

static int pod_specs(struct sl_context *ctx, const struct sl_node *object,
                     size_t pod_size, sl_pod_fn visit, void *data)
{
    const char *problem;
    if (ctx == NULL)
        return SL_ERROR;
    int status = kubernetes_pod_specs(ctx, object, pod_size, visit, data, &problem);
    return walked(ctx, status, problem);
}

static int containers(struct sl_context *ctx, const char *service_name,
                      const struct sl_node *service, size_t container_size,
                      sl_container_fn visit, void *data)
{
    const char *problem;
    if (ctx == NULL)
        return SL_ERROR;
    int status = kubernetes_containers(ctx, context_kind(ctx), service_name, service,
                                       container_size, visit, data, &problem);
    return walked(ctx, status, problem);
}

/* A Compose service's volumes and volumes_from; an agent-env service's or
 * a pod spec's hostPath volumes. */
static int host_mounts(struct sl_context *ctx, const struct sl_node *service,
                       size_t mount_size, sl_mount_fn visit, void *data)
{
    const char *problem;
    int status;
    if (ctx == NULL)
        return SL_ERROR;
    if (context_kind(ctx) == SL_KIND_COMPOSE)
        status = host_mounts_each(ctx, ctx->root, service, mount_size, visit, data,
                                  &problem);
    else
        status = host_mounts_path_volumes(ctx, service, mount_size, visit, data, &problem);
    return walked(ctx, status, problem);
}

static int is_templated(struct sl_context *ctx, const char *text, size_t length)
{
    if (text == NULL)
        return 0;
    if (context_kind(ctx) == SL_KIND_COMPOSE)
        return compose_has_interpolation(text, length);
    return kubernetes_is_templated(text, length);
}

/* ------------------------------------------------------------------ */
/* the container model (since 1.3)                                     */
/* ------------------------------------------------------------------ */

/* Copies filled (own_size bytes, the host's struct) into the caller's
 * struct of caller_size bytes: the prefix it knows, zero past what the
 * host fills. */
static void copy_out(void *out, size_t caller_size, const void *filled, size_t own_size)
{
    memcpy(out, filled, caller_size < own_size ? caller_size : own_size);
    if (caller_size > own_size)
        memset((char *)out + own_size, 0, caller_size - own_size);
}

/* The model's setting id of scope in view, or NULL after set_error. */
static const struct model_setting *scope_setting(struct sl_context *ctx,
                                                 const struct sl_scope *scope, int id,
                                                 int view, const char *service)
{
    struct model_scope *model = model_scope_of(scope);
    const struct model_setting *setting = NULL;
    if (model != NULL)
        setting = model_scope_setting(model, view, id);
    if (setting == NULL) {
        char *message = xasprintf("%s(): %s", service,
                                  model == NULL ? "not a scope the host handed over"
                                                : "view is neither SL_VIEW_WRITTEN nor "
                                                  "SL_VIEW_EFFECTIVE");
        check_set_error(ctx, message);
        free(message);
    }
    return setting;
}

static int setting(struct sl_context *ctx, const struct sl_scope *scope, int id, int view,
                   size_t setting_size, struct sl_setting *out)
{
    if (ctx == NULL)
        return SL_ERROR;
    if (out == NULL || setting_size < MODEL_SETTING_SIZE_1_3 ||
        setting_size > SIZED_OUT_MAX) {
        check_set_error(ctx, "setting(): no struct, or a setting_size that is not the "
                             "size of a struct sl_setting");
        return SL_ERROR;
    }
    const struct model_setting *found = scope_setting(ctx, scope, id, view, "setting");
    if (found == NULL)
        return SL_ERROR;
    copy_out(out, setting_size, &found->setting, sizeof(found->setting));
    return SL_OK;
}

static int setting_value(struct sl_context *ctx, const struct sl_scope *scope, int id,
                         int view, size_t index, size_t value_size, struct sl_value *out)
{
    if (ctx == NULL)
        return SL_ERROR;
    if (out == NULL || value_size < MODEL_VALUE_SIZE_1_3 || value_size > SIZED_OUT_MAX) {
        check_set_error(ctx, "setting_value(): no struct, or a value_size that is not "
                             "the size of a struct sl_value");
        return SL_ERROR;
    }
    const struct model_setting *found =
        scope_setting(ctx, scope, id, view, "setting_value");
    if (found == NULL)
        return SL_ERROR;
    if (index >= found->setting.count) {
        check_set_error(ctx, "setting_value(): index past the setting's values");
        return SL_ERROR;
    }
    copy_out(out, value_size, &found->values[index], sizeof(found->values[index]));
    if (ctx->check != NULL)     /* NULL in a unit test's mock host */
        resolved_uses_read(&ctx->check->resolved, ctx->rule, &found->values[index]);
    return SL_OK;
}

static int scope_mounts(struct sl_context *ctx, const struct sl_scope *scope,
                        size_t mount_size, sl_mount_fn visit, void *data)
{
    const char *problem;
    if (ctx == NULL)
        return SL_ERROR;
    struct model_scope *model = model_scope_of(scope);
    if (model == NULL) {
        check_set_error(ctx, "scope_mounts(): not a scope the host handed over");
        return SL_ERROR;
    }
    /* A mount resolved from the project's variables is a resolved value
     * of the scope's mounts: what the rule reports about it says so. */
    const struct model_setting *mounts =
        model_scope_setting(model, SL_VIEW_WRITTEN, SL_SETTING_MOUNTS);
    for (size_t i = 0; ctx->check != NULL && mounts != NULL && i < mounts->setting.count; i++)
        resolved_uses_read(&ctx->check->resolved, ctx->rule, &mounts->values[i]);
    int status = model_scope_mounts(model, ctx, mount_size, visit, data, &problem);
    return walked(ctx, status, problem);
}

static const char *object_service(struct sl_context *ctx, const struct sl_node *object,
                                  size_t *length)
{
    if (length != NULL)
        *length = 0;
    if (ctx == NULL)
        return NULL;
    if (object == NULL || object->kind != SL_NODE_MAPPING) {
        check_set_error(ctx, "object_service(): the object is not a mapping");
        return NULL;
    }
    char *service = kubernetes_object_service(object);
    string_list_add(&ctx->owned, service);
    free(service);
    const char *kept = ctx->owned.items[ctx->owned.count - 1];
    if (length != NULL)
        *length = strlen(kept);
    return kept;
}

static const struct sl_host host_table = {
    .struct_size = sizeof(struct sl_host),
    .abi_major = SL_ABI_MAJOR,
    .abi_minor = SL_ABI_MINOR,
    .version = PACKAGE_VERSION,
    .node_kind = node_kind,
    .node_style = node_style,
    .node_tag = node_tag,
    .node_text = node_text,
    .node_count = node_count,
    .sequence_item = sequence_item,
    .mapping_value = mapping_value,
    .mapping_entry = mapping_entry,
    .node_span = node_span,
    .is_empty = is_empty,
    .is_truthy = is_truthy,
    .has_interpolation = has_interpolation,
    .classify_source = classify_source,
    .parse_volume = parse_volume,
    .is_engine_socket = is_engine_socket,
    .definition = definition,
    .report = check_report,
    .file_path = file_path,
    .document_root = document_root,
    .set_error = set_error,
    .host_mounts = host_mounts,
    .option_string = option_string,
    .option_integer = option_integer,
    .option_boolean = option_boolean,
    .option_list_count = option_list_count,
    .option_list_item = option_list_item,
    .kind = context_kind,
    .pod_specs = pod_specs,
    .containers = containers,
    .is_templated = is_templated,
    .setting = setting,
    .setting_value = setting_value,
    .scope_mounts = scope_mounts,
    .object_service = object_service,
};

const struct sl_host *host_services(void)
{
    return &host_table;
}
