/* github_actions_front.c - GitHub Actions workflows (see github_actions_front.h). */
#include "config.h"

#include "github_actions_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_command.h"
#include "shell_front.h"
#include "xalloc.h"
#include "yaml_model.h"

/* A job or service container: its flags, and whether the runner gives it
 * the engine's socket. */
struct job_container {
    const struct engine_command *command;
    const struct sl_node *key;      /* container: (or the service's key) */
    bool runner_socket;
};

static void fill_job_setting(struct model_fill *fill, const struct model_scope *scope,
                             int view, int id)
{
    const struct job_container *container = scope->data;
    engine_command_fill(fill, container->command, view, id);
    if (id != SL_SETTING_API_SOCKET || !container->runner_socket ||
        fill->setting.state != SL_SETTING_ABSENT)
        return;
    /* What the runner adds: docker create -v /var/run/docker.sock:... */
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_FLAG;
    value->field = "container";
    value->label = "on Linux runners, the GitHub Actions runner mounts "
                   "/var/run/docker.sock into every job container";
    value->key = value->node = container->key;
    value->text = value->parsed = "true";
    value->text_length = value->parsed_length = 4;
    value->meaning = 1;
    fill->setting.state = SL_SETTING_DEFAULT;
    fill->setting.key = container->key;
}

static int job_mounts(const struct model_scope *scope, struct sl_context *ctx,
                      size_t mount_size, sl_mount_fn visit, void *data, const char **problem)
{
    const struct job_container *container = scope->data;
    return engine_command_mounts(container->command, ctx, mount_size, visit, data, problem);
}

static const struct model_reader job_reader = { fill_job_setting, job_mounts };

static struct sl_span span_of(const struct sl_node *node)
{
    struct sl_span span = { node->line, node->column, node->end_line, node->end_column };
    return span;
}

/* Each scalar item of list (a sequence, or one scalar) as flag VALUE. */
static void add_flag_items(struct shell_word_list *words, const struct sl_node *list,
                           const char *flag)
{
    if (list == NULL || model_is_null(list))
        return;
    size_t count = list->kind == SL_NODE_SEQUENCE ? list->u.sequence.count : 1;
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *item =
            list->kind == SL_NODE_SEQUENCE ? list->u.sequence.items[i] : list;
        if (item->kind != SL_NODE_SCALAR)
            continue;
        struct sl_span span = span_of(item);
        unsigned flags = strstr(item->u.scalar.text, "${{") != NULL ? ENGINE_WORD_INTERPOLATED
                                                                     : 0;
        shell_word_list_add(words, flag, strlen(flag), 0, &span);
        shell_word_list_add(words, item->u.scalar.text, item->u.scalar.length, flags, &span);
        if (flags != 0)
            words->words[words->count - 1].literal_length =
                (size_t)(strstr(item->u.scalar.text, "${{") - item->u.scalar.text);
    }
}

/* Whether node is a scalar written as one GitHub Actions expression
 * (${{ ... }}), standing for a whole setting (a list, a mapping). */
static bool whole_expression(const struct sl_node *node)
{
    if (node == NULL || node->kind != SL_NODE_SCALAR)
        return false;
    const char *text = node->u.scalar.text;
    size_t length = node->u.scalar.length;
    while (length > 0 && (text[length - 1] == ' ' || text[length - 1] == '\t'))
        length--;
    if (!engine_ci_expression(text, length) || length < 5 ||
        memcmp(text + length - 2, "}}", 2) != 0)
        return false;
    for (size_t i = 3; i + 2 < length; i++)
        if (text[i] == '}' && text[i + 1] == '}')
            return false;   /* ${{ a }}-${{ b }}: text around expressions */
    return true;
}

/* One container: service names it, key is where it is written, spec its
 * mapping (or an image string). */
static void read_container(struct model_reading *reading, const char *service,
                           const struct sl_node *key, const struct sl_node *spec,
                           bool runner_socket)
{
    struct shell_word_list words = { NULL, NULL, 0, 0 };
    if (spec->kind == SL_NODE_MAPPING) {
        shell_word_list_split(&words, reading, model_mapping_get(spec, "options", 7, NULL));
        static const char *const lists[][2] = {
            { "volumes", "--volume" }, { "ports", "--publish" },
        };
        for (size_t i = 0; i < sizeof(lists) / sizeof(*lists); i++) {
            const struct sl_node *list =
                model_mapping_get(spec, lists[i][0], strlen(lists[i][0]), NULL);
            if (whole_expression(list)) {
                char *message = xasprintf("%s is a GitHub Actions expression: the list it "
                                          "gives cannot be checked", lists[i][0]);
                model_emit_templated(reading, list, message);
                free(message);
            } else {
                add_flag_items(&words, list, lists[i][1]);
            }
        }
    } else if (whole_expression(spec)) {
        /* An image string, or fromJSON() giving a whole mapping with
         * options and volumes: what it holds is unknown until the run. */
        model_emit_templated(reading, spec, "the container is a GitHub Actions expression: "
                                            "its settings cannot be checked");
    } else if (spec->kind != SL_NODE_SCALAR) {
        model_emit_warning(reading, key, "a job container must be an image or a mapping; "
                                         "not checked");
        return;
    }
    struct model_group group;
    model_group_init(&group);
    struct engine_command *command =
        engine_command_new(&group, words.words, words.spans, words.count);
    shell_word_list_release(&words);
    for (size_t i = 0; i < engine_command_problem_count(command); i++) {
        const struct sl_node *node;
        const char *message = engine_command_problem(command, i, &node);
        if (engine_command_problem_expression(command, i))
            model_emit_templated(reading, node, message);
        else
            model_emit_command_line(reading, node, message);
    }
    struct job_container *container = model_group_alloc(&group, sizeof(*container));
    container->command = command;
    container->key = key;
    container->runner_socket = runner_socket;
    struct model_scope_spec scope_spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = SL_KIND_GITHUB_ACTIONS,
        .service = service, .service_length = strlen(service),
        .name = NULL, .name_length = 0, .noun = "container",
        .node = key, .mapping = spec->kind == SL_NODE_MAPPING ? spec : NULL,
        .reader = &job_reader, .data = container,
    };
    struct model_scope *scope = model_scope_new(&group, &scope_spec);
    /* An image string has no settings to read: an empty mapping stands
     * for it (for rules of ABI 1.0-1.2; the model holds what matters). */
    const struct sl_node *raw = spec;
    if (spec->kind != SL_NODE_MAPPING) {
        struct sl_node *empty = model_group_alloc(&group, sizeof(*empty));
        *empty = *spec;
        empty->kind = SL_NODE_MAPPING;
        empty->u.mapping.pairs = NULL;
        empty->u.mapping.count = 0;
        raw = empty;
    }
    model_emit_service(reading, SL_KIND_GITHUB_ACTIONS, scope->public.service,
                       scope->public.service_length, key, raw);
    model_emit_scope(reading, scope);
    model_group_release(&group);
}

/* Whether a step's (or the job's, or the workflow's) shell runs run:
 * text as a POSIX shell: bash and sh, the default on Linux and macOS. */
static bool posix_shell(const struct sl_node *shell)
{
    if (shell == NULL || shell->kind != SL_NODE_SCALAR || model_is_null(shell))
        return true;
    const char *text = shell->u.scalar.text;
    return strncmp(text, "bash", 4) == 0 || strncmp(text, "sh", 2) == 0 ||
           strstr(text, "${{") != NULL;
}

static const struct sl_node *default_shell(const struct sl_node *holder)
{
    const struct sl_node *defaults = model_mapping_get(holder, "defaults", 8, NULL);
    const struct sl_node *run = model_mapping_get(defaults, "run", 3, NULL);
    return model_mapping_get(run, "shell", 5, NULL);
}

static void read_steps(struct model_reading *reading, const struct sl_node *steps,
                       const struct sl_node *job_shell)
{
    if (steps == NULL || steps->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < steps->u.sequence.count; i++) {
        const struct sl_node *step = steps->u.sequence.items[i];
        const struct sl_node *key;
        const struct sl_node *run = model_mapping_get(step, "run", 3, &key);
        if (run == NULL)
            continue;
        const struct sl_node *shell = model_mapping_get(step, "shell", 5, NULL);
        if (!posix_shell(shell != NULL ? shell : job_shell))
            continue;
        shell_front_read_scalar(reading, key, run, SL_KIND_GITHUB_ACTIONS);
    }
}

static void read_job(struct model_reading *reading, const struct model_pair *pair,
                     const struct sl_node *workflow_shell)
{
    if (pair->key->kind != SL_NODE_SCALAR || pair->value->kind != SL_NODE_MAPPING)
        return;
    const char *job = pair->key->u.scalar.text;
    const struct sl_node *mapping = pair->value;
    const struct sl_node *container_key;
    const struct sl_node *container = model_mapping_get(mapping, "container", 9,
                                                        &container_key);
    if (container != NULL && !model_is_null(container)) {
        char *service = xasprintf("%s/container", job);
        read_container(reading, service, container_key, container, true);
        free(service);
    }
    const struct sl_node *services = model_mapping_get(mapping, "services", 8, NULL);
    if (whole_expression(services))
        model_emit_templated(reading, services, "services is a GitHub Actions expression: "
                                                "the containers it gives cannot be checked");
    if (services != NULL && services->kind == SL_NODE_MAPPING)
        for (size_t i = 0; i < services->u.mapping.count; i++) {
            const struct model_pair *entry = &services->u.mapping.pairs[i];
            if (entry->key->kind != SL_NODE_SCALAR || model_is_null(entry->value))
                continue;
            char *service = xasprintf("%s/services/%s", job, entry->key->u.scalar.text);
            read_container(reading, service, entry->key, entry->value, false);
            free(service);
        }
    const struct sl_node *job_shell = default_shell(mapping);
    read_steps(reading, model_mapping_get(mapping, "steps", 5, NULL),
               job_shell != NULL ? job_shell : workflow_shell);
}

void github_actions_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (root == NULL || root->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *jobs = model_mapping_get(root, "jobs", 4, NULL);
    if (jobs == NULL || jobs->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *workflow_shell = default_shell(root);
    for (size_t i = 0; i < jobs->u.mapping.count; i++)
        read_job(reading, &jobs->u.mapping.pairs[i], workflow_shell);
}
