/* container_model.c - scopes, settings and steps (see container_model.h). */
#include "config.h"

#include "container_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void model_group_init(struct model_group *group)
{
    arena_init(&group->arena);
}

void model_group_release(struct model_group *group)
{
    arena_release(&group->arena);
}

void *model_group_alloc(struct model_group *group, size_t size)
{
    void *memory = arena_alloc(&group->arena, size != 0 ? size : 1);
    if (memory == NULL)
        xalloc_out_of_memory();
    memset(memory, 0, size);
    return memory;
}

struct sl_node *model_group_empty_mapping(struct model_group *group,
                                          const struct sl_node *where)
{
    struct sl_node *empty = model_group_alloc(group, sizeof(*empty));
    *empty = *where;
    empty->kind = SL_NODE_MAPPING;
    empty->u.mapping.pairs = NULL;
    empty->u.mapping.count = 0;
    return empty;
}

char *model_group_strndup(struct model_group *group, const char *text, size_t length)
{
    char *copy = model_group_alloc(group, length + 1);
    if (length != 0)
        memcpy(copy, text, length);
    copy[length] = '\0';
    return copy;
}

struct model_scope *model_scope_new(struct model_group *group,
                                    const struct model_scope_spec *spec)
{
    struct model_scope *scope = model_group_alloc(group, sizeof(*scope));
    scope->public.struct_size = sizeof(scope->public);
    scope->public.handle = (const struct sl_scope_handle *)scope;
    scope->public.level = spec->level;
    scope->public.sort = spec->sort;
    scope->public.platform = spec->platform;
    scope->public.kind = spec->kind;
    if (spec->service != NULL) {
        scope->public.service = model_group_strndup(group, spec->service,
                                                    spec->service_length);
        scope->public.service_length = spec->service_length;
    }
    scope->public.name = spec->name;
    scope->public.name_length = spec->name != NULL ? spec->name_length : 0;
    scope->public.noun = spec->noun;
    scope->public.node = spec->node;
    scope->public.mapping = spec->mapping;
    scope->public.parent = spec->parent != NULL ? &spec->parent->public : NULL;
    scope->magic = MODEL_SCOPE_MAGIC;
    scope->group = group;
    scope->parent = spec->parent;
    scope->reader = spec->reader;
    scope->data = spec->data;
    return scope;
}

struct model_scope *model_scope_of(const struct sl_scope *scope)
{
    if (scope == NULL || scope->struct_size < MODEL_SCOPE_SIZE_1_3 ||
        scope->handle == NULL)
        return NULL;
    struct model_scope *model = (struct model_scope *)scope->handle;
    return model->magic == MODEL_SCOPE_MAGIC ? model : NULL;
}

struct sl_value *model_fill_value(struct model_fill *fill)
{
    if (fill->count == fill->capacity) {
        fill->capacity = fill->capacity ? fill->capacity * 2 : 4;
        fill->values = xrealloc(fill->values, fill->capacity, sizeof(*fill->values));
    }
    struct sl_value *value = &fill->values[fill->count++];
    memset(value, 0, sizeof(*value));
    value->struct_size = sizeof(*value);
    value->state = SL_VALUE_SET;
    value->origin = SL_ORIGIN_OWN;
    fill->setting.state = SL_SETTING_SET;
    return value;
}

void model_fill_mount(struct model_fill *fill, const struct sl_mount *mount,
                      int template_syntax)
{
    struct sl_value *value = model_fill_value(fill);
    value->form = SL_FORM_ENTRY;
    value->field = value->label = mount->field;
    value->key = value->node = mount->node;
    value->meaning = mount->kind;
    value->text = mount->value;
    value->text_length = mount->value_length;
    if (mount->kind == SL_MOUNT_INTERPOLATED) {
        value->state = SL_VALUE_TEMPLATED;
        value->template_syntax = template_syntax;
    } else if (mount->kind == SL_MOUNT_UNSUPPORTED) {
        value->state = SL_VALUE_UNCHECKABLE;
    } else {
        value->parsed = mount->source;
        value->parsed_length = mount->source_length;
    }
}

void model_parse_capability(struct model_fill *fill, struct sl_value *value)
{
    const char *text = value->text;
    size_t skip = value->text_length > 4 && (text[0] == 'C' || text[0] == 'c') &&
                          (text[1] == 'A' || text[1] == 'a') &&
                          (text[2] == 'P' || text[2] == 'p') && text[3] == '_'
                      ? 4 : 0;
    char *upper = model_group_strndup(fill->scope->group, value->text + skip,
                                      value->text_length - skip);
    for (char *c = upper; *c != '\0'; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    value->parsed = upper;
    value->parsed_length = value->text_length - skip;
}

void model_fill_inherit(struct model_fill *fill, int id)
{
    struct model_scope *parent = fill->scope->parent;
    if (parent == NULL)
        return;
    const struct model_setting *from = model_scope_setting(parent, SL_VIEW_EFFECTIVE, id);
    if (from->setting.state == SL_SETTING_UNSUPPORTED ||
        from->setting.state == SL_SETTING_UNMODELLED)
        return;
    fill->setting.state = from->setting.state;
    fill->setting.key = from->setting.key;
    fill->setting.unseen = from->setting.unseen;
    fill->setting.unseen_length = from->setting.unseen_length;
    if (fill->setting.field == NULL) {
        fill->setting.field = from->setting.field;
        fill->setting.label = from->setting.label;
    }
    for (size_t i = 0; i < from->setting.count; i++) {
        struct sl_value *value = model_fill_value(fill);
        *value = from->values[i];
        if (value->origin != SL_ORIGIN_DEFAULT)
            value->origin = SL_ORIGIN_PARENT;
    }
    /* model_fill_value() marks the setting SET; a DEFAULT stays one. */
    fill->setting.state = from->setting.state;
}

/* Runs the reader for one setting and keeps the result in *setting, whose
 * memory the group owns. */
static void fill_setting(struct model_scope *scope, int view, int id,
                         struct model_setting *setting)
{
    struct model_fill fill;
    memset(&fill, 0, sizeof(fill));
    fill.scope = scope;
    fill.setting.struct_size = sizeof(fill.setting);
    fill.setting.id = id;
    fill.setting.view = view;
    fill.setting.state = SL_SETTING_ABSENT;
    fill.setting.node = scope->public.node;
    if (id < 1 || id > MODEL_SETTING_LAST)
        fill.setting.state = SL_SETTING_UNMODELLED;
    else if (scope->reader != NULL && scope->reader->fill != NULL)
        scope->reader->fill(&fill, scope, view, id);
    else
        fill.setting.state = SL_SETTING_UNSUPPORTED;
    setting->setting = fill.setting;
    if (setting->setting.node == NULL)
        setting->setting.node = scope->public.node;
    setting->setting.count = fill.count;
    setting->values = NULL;
    if (fill.count != 0) {
        setting->values = model_group_alloc(scope->group,
                                            fill.count * sizeof(*fill.values));
        memcpy(setting->values, fill.values, fill.count * sizeof(*fill.values));
        for (size_t i = 0; i < fill.count; i++) {
            struct sl_value *value = &setting->values[i];
            if (value->written == NULL) {
                value->written = value->text;
                value->written_length = value->text_length;
            }
        }
    }
    free(fill.values);
}

const struct model_setting *model_scope_setting(struct model_scope *scope, int view,
                                                int id)
{
    if (view != SL_VIEW_WRITTEN && view != SL_VIEW_EFFECTIVE)
        return NULL;
    if (id < 1 || id > MODEL_SETTING_LAST) {
        /* Not cached: a later ABI's id costs a fill each time. */
        struct model_setting *setting = model_group_alloc(scope->group, sizeof(*setting));
        fill_setting(scope, view, id, setting);
        return setting;
    }
    /* One array per view on first use, rather than an allocation per
     * setting (a rule reads a dozen settings of every container); a bit
     * says which of its settings are filled, so it needs no zeroing. */
    struct model_setting **settings = &scope->settings[view - 1];
    uint64_t bit = (uint64_t)1 << (id - 1);
    if (*settings == NULL) {
        *settings = arena_alloc(&scope->group->arena, MODEL_SETTING_LAST * sizeof(**settings));
        if (*settings == NULL)
            xalloc_out_of_memory();
    }
    struct model_setting *setting = &(*settings)[id - 1];
    if ((scope->filled[view - 1] & bit) == 0) {
        fill_setting(scope, view, id, setting);
        scope->filled[view - 1] |= bit;
    }
    return setting;
}

int model_scope_mounts(const struct model_scope *scope, struct sl_context *ctx,
                       size_t mount_size, sl_mount_fn visit, void *data,
                       const char **problem)
{
    *problem = NULL;
    if (visit == NULL) {
        *problem = "scope_mounts(): no callback";
        return SL_ERROR;
    }
    if (scope->reader == NULL || scope->reader->mounts == NULL)
        return SL_OK;
    return scope->reader->mounts(scope, ctx, mount_size, visit, data, problem);
}

/* ------------------------------------------------------------------ */
/* steps                                                               */
/* ------------------------------------------------------------------ */

bool model_service_pair(struct model_reading *reading, const struct model_pair *pair)
{
    if (pair->key->kind != SL_NODE_SCALAR) {
        model_emit_warning(reading, pair->key, "a service name must be a scalar; "
                                               "service not checked");
        return false;
    }
    if (pair->value->kind != SL_NODE_MAPPING) {
        char *message = xasprintf("service '%s' is not a mapping; not checked",
                                  pair->key->u.scalar.text);
        model_emit_warning(reading, pair->key, message);
        free(message);
        return false;
    }
    return true;
}

void model_emit(struct model_reading *reading, const struct model_step *step)
{
    struct model_step copy = *step;
    copy.root = reading->root;
    reading->sink->take(reading->sink, &copy);
}

void model_emit_document(struct model_reading *reading, int kind,
                         const struct sl_node *root)
{
    struct model_step step = { .type = MODEL_STEP_DOCUMENT, .kind = kind, .node = root };
    model_emit(reading, &step);
}

void model_emit_service(struct model_reading *reading, int kind, const char *name,
                        size_t name_length, const struct sl_node *key,
                        const struct sl_node *mapping)
{
    struct model_step step = {
        .type = MODEL_STEP_SERVICE, .kind = kind, .node = mapping, .key = key,
        .name = name, .name_length = name_length,
    };
    model_emit(reading, &step);
}

void model_emit_scope(struct model_reading *reading, struct model_scope *scope)
{
    struct model_step step = {
        .type = MODEL_STEP_SCOPE, .kind = scope->public.kind, .node = scope->public.node,
        .scope = scope,
    };
    model_emit(reading, &step);
}

void model_emit_warning(struct model_reading *reading, const struct sl_node *at,
                        const char *message)
{
    struct model_step step = { .type = MODEL_STEP_WARNING, .node = at, .message = message };
    model_emit(reading, &step);
}

void model_emit_templated(struct model_reading *reading, const struct sl_node *at,
                          const char *message)
{
    struct model_step step = { .type = MODEL_STEP_TEMPLATED, .node = at, .message = message };
    model_emit(reading, &step);
}

void model_emit_not_checked(struct model_reading *reading, const struct sl_node *at,
                            const char *message)
{
    struct model_step step = {
        .type = MODEL_STEP_NOT_CHECKED, .node = at, .message = message,
    };
    model_emit(reading, &step);
}

void model_emit_command_line(struct model_reading *reading, const struct sl_node *at,
                             const char *message)
{
    struct model_step step = {
        .type = MODEL_STEP_COMMAND_LINE, .node = at, .message = message
    };
    model_emit(reading, &step);
}

void model_emit_not_understood(struct model_reading *reading, const struct sl_node *at,
                               const char *message)
{
    struct model_step step = {
        .type = MODEL_STEP_NOT_UNDERSTOOD, .node = at, .message = message,
    };
    model_emit(reading, &step);
}

void model_file_state_release(struct model_file_state *file)
{
    if (file->accounts_without_token != NULL) {
        string_set_release(file->accounts_without_token);
        free(file->accounts_without_token);
    }
    memset(file, 0, sizeof(*file));
}
