/* github_actions_front.c - GitHub Actions workflows (see github_actions_front.h). */
#include "config.h"

#include "github_actions_front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_command.h"
#include "file_kind.h"
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

/* The runner's docker.sock mount, as a default value of the API socket
 * setting written at key: the file cannot remove it. */
static void fill_runner_socket(struct model_fill *fill, const struct sl_node *key,
                               const char *field, const char *label)
{
    struct sl_value *value = model_fill_value(fill);
    value->origin = SL_ORIGIN_DEFAULT;
    value->form = SL_FORM_FLAG;
    value->field = field;
    value->label = label;
    value->key = value->node = key;
    value->text = value->parsed = "true";
    value->text_length = value->parsed_length = 4;
    value->meaning = 1;
    fill->setting.state = SL_SETTING_DEFAULT;
    fill->setting.key = key;
}

static void fill_job_setting(struct model_fill *fill, const struct model_scope *scope,
                             int view, int id)
{
    const struct job_container *container = scope->data;
    engine_command_fill(fill, container->command, view, id);
    if (id != SL_SETTING_API_SOCKET || !container->runner_socket ||
        fill->setting.state != SL_SETTING_ABSENT)
        return;
    /* What the runner adds: docker create -v /var/run/docker.sock:... */
    fill_runner_socket(fill, container->key, "container",
                       "on Linux runners, the GitHub Actions runner mounts "
                       "/var/run/docker.sock into every job container");
}

static int job_mounts(const struct model_scope *scope, struct sl_context *ctx,
                      size_t mount_size, sl_mount_fn visit, void *data, const char **problem)
{
    const struct job_container *container = scope->data;
    return engine_command_mounts(container->command, ctx, mount_size, visit, data, problem);
}

static const struct model_reader job_reader = { fill_job_setting, job_mounts };

/* A container the runner starts for a step (uses: docker://IMAGE) or for
 * a Docker container action: the runner writes its docker run itself,
 * with the engine's socket among its mounts, and the file can set none of
 * its flags. */
struct step_container {
    const struct sl_node *key;      /* uses: (or the action's using:) */
    const char *field;
    const char *label;
    const char *hint;
};

static void fill_step_setting(struct model_fill *fill, const struct model_scope *scope,
                              int view, int id)
{
    (void)view;
    const struct step_container *container = scope->data;
    if (id != SL_SETTING_API_SOCKET) {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    fill_runner_socket(fill, container->key, container->field, container->label);
    fill->setting.hint = container->hint;
}

static const struct model_reader step_reader = { fill_step_setting, NULL };

static void read_step_container(struct model_reading *reading, const char *service,
                                const struct sl_node *key, const struct step_container *from)
{
    struct model_group group;
    model_group_init(&group);
    struct step_container *container = model_group_alloc(&group, sizeof(*container));
    *container = *from;
    struct model_scope_spec scope_spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = SL_KIND_GITHUB_ACTIONS,
        .service = service, .service_length = strlen(service),
        .name = NULL, .name_length = 0, .noun = "container",
        .node = key, .mapping = NULL,
        .reader = &step_reader, .data = container,
    };
    struct model_scope *scope = model_scope_new(&group, &scope_spec);
    /* No settings of its own to read: an empty mapping stands for it (for
     * rules of ABI 1.0-1.2), as for a job container's image string. */
    model_emit_service(reading, SL_KIND_GITHUB_ACTIONS, scope->public.service,
                       scope->public.service_length, key,
                       model_group_empty_mapping(&group, key));
    model_emit_scope(reading, scope);
    model_group_release(&group);
}

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
    const struct sl_node *raw =
        spec->kind == SL_NODE_MAPPING ? spec : model_group_empty_mapping(&group, spec);
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

/* Whether a step's uses: runs an image as the step's container. */
static bool uses_docker_image(const struct sl_node *uses)
{
    return uses != NULL && uses->kind == SL_NODE_SCALAR && uses->u.scalar.length >= 9 &&
           memcmp(uses->u.scalar.text, "docker://", 9) == 0;
}

/* How findings name step number ordinal (from 1) of steps under prefix:
 * PREFIX/ID when the step has an id (a step's id stays when steps are
 * added before it), else PREFIX/ORDINAL. */
static char *step_service(const char *prefix, const struct sl_node *step, size_t ordinal)
{
    const struct sl_node *id = model_mapping_get(step, "id", 2, NULL);
    if (id != NULL && id->kind == SL_NODE_SCALAR && !model_is_null(id) &&
        id->u.scalar.length > 0 && id->u.scalar.length < 100 &&
        memchr(id->u.scalar.text, ':', id->u.scalar.length) == NULL &&
        memchr(id->u.scalar.text, '\0', id->u.scalar.length) == NULL)
        return xasprintf("%s/%s", prefix, id->u.scalar.text);
    return xasprintf("%s/%zu", prefix, ordinal);
}

/* The steps of a job (prefix JOB/steps) or of a composite action
 * (runs/steps): run: text as engine command lines, uses: docker:// as a
 * container the runner starts with its engine's socket. */
static void read_steps(struct model_reading *reading, const struct sl_node *steps,
                       const struct sl_node *job_shell, const char *prefix)
{
    if (steps == NULL || steps->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < steps->u.sequence.count; i++) {
        const struct sl_node *step = steps->u.sequence.items[i];
        const struct sl_node *uses_key;
        const struct sl_node *uses = model_mapping_get(step, "uses", 4, &uses_key);
        if (uses_docker_image(uses)) {
            /* The runner's ContainerActionHandler mounts the socket into
             * a step's container as into the job's. */
            static const struct step_container docker_step = {
                NULL, "uses",
                "on Linux runners, the GitHub Actions runner mounts "
                "/var/run/docker.sock into the container of every docker:// step",
                "run the image with docker run in a run: step, which mounts no "
                "socket unless asked",
            };
            struct step_container container = docker_step;
            container.key = uses_key;
            char *service = step_service(prefix, step, i + 1);
            read_step_container(reading, service, uses_key, &container);
            free(service);
        }
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
    char *prefix = xasprintf("%s/steps", job);
    read_steps(reading, model_mapping_get(mapping, "steps", 5, NULL),
               job_shell != NULL ? job_shell : workflow_shell, prefix);
    free(prefix);
}

/* An action's metadata (action.yml): a composite action's steps, run by
 * the runner as a job's steps are (each run: names its shell), or a Docker
 * container action, whose container the runner starts as a docker://
 * step's. */
static void read_action(struct model_reading *reading, const struct sl_node *root,
                        const struct sl_node *using)
{
    const struct sl_node *runs = model_mapping_get(root, "runs", 4, NULL);
    if (using->u.scalar.length == 9) {      /* composite */
        read_steps(reading, model_mapping_get(runs, "steps", 5, NULL), NULL, "runs/steps");
        return;
    }
    const struct sl_node *using_key = NULL;
    model_mapping_get(runs, "using", 5, &using_key);
    static const struct step_container docker_action = {
        NULL, "using",
        "on Linux runners, the GitHub Actions runner mounts /var/run/docker.sock into "
        "the container of every Docker container action",
        "run the image with docker run in a composite action's run: step, which mounts "
        "no socket unless asked",
    };
    struct step_container container = docker_action;
    container.key = using_key;
    read_step_container(reading, "runs", using_key, &container);
}

void github_actions_front_read(struct model_reading *reading, const struct sl_node *root)
{
    if (root == NULL || root->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *jobs = model_mapping_get(root, "jobs", 4, NULL);
    const struct sl_node *using = file_kind_github_action_using(root);
    if (jobs == NULL && using != NULL) {
        read_action(reading, root, using);
        return;
    }
    if (jobs == NULL || jobs->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *workflow_shell = default_shell(root);
    for (size_t i = 0; i < jobs->u.mapping.count; i++)
        read_job(reading, &jobs->u.mapping.pairs[i], workflow_shell);
}
