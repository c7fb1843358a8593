/* engine_command.c - an engine command line as a container (see engine_command.h). */
#include "config.h"

#include "engine_command.h"

#include <stdlib.h>
#include <string.h>

#include "compose_interpolation.h"
#include "compose_syntax.h"
#include "host_mounts.h"
#include "xalloc.h"
#include "yaml_model.h"

struct command_problem {
    const struct sl_node *node;
    const char *message;
    bool expression;            /* engine_command_problem_expression */
};

/* A mount entry handed to the Compose mount walk, and the flag it came
 * from; or one the walk cannot judge (a shell expansion Compose does not
 * know, such as $(pwd)), delivered as interpolated by us. */
struct mount_entry {
    const struct sl_node *node;
    const char *field;
    bool shell_interpolated;
    const char *written_type;   /* the --mount type the walk was handed as bind
                                   (podman's glob), for the message; or NULL */
    bool rootfs;                /* --rootfs: the root file system, no syntax to name */
};

struct engine_command {
    struct model_group *group;
    struct engine_setting *settings;    /* in the group; texts point into it */
    const struct sl_node **nodes;       /* per setting: flag through value */
    size_t count;
    size_t image;                       /* index of the image word, or ENGINE_NO_WORD */
    const struct sl_node *rootfs_node;  /* the word --rootfs makes a host path: the
                                           image word, or a quoted interpolation just
                                           before it (NULL when none) */
    unsigned rootfs_flags;              /* its enum engine_word_flags */
    struct command_problem *problems;
    size_t problem_count;
    /* What the Compose mount walk reads: a service mapping holding
     * volumes and volumes_from, in an empty document. */
    const struct sl_node *mount_root, *mount_service;
    struct sl_node *volume_definitions; /* the root's volumes: one per named volume a
                                           --mount's volume-opt fields define */
    struct mount_entry *mount_entries;
    size_t mount_entry_count;
    bool daemon_options;                /* engine_command_set_daemon_options */
    bool compose_run;                   /* engine_command_new_compose_run */
    struct sl_span whole;               /* of all the words */
    bool shell_words;                   /* engine_command_set_shell_words: */
    bool make_text;                     /* and make's */
};

/* ------------------------------------------------------------------ */
/* nodes in the group's arena                                          */
/* ------------------------------------------------------------------ */

static struct sl_node *scalar_node(struct model_group *group, const char *text,
                                   size_t length, const struct sl_span *span)
{
    struct sl_node *node = model_node_scalar(&group->arena, text, length, SL_STYLE_PLAIN, span);
    if (node == NULL)
        xalloc_out_of_memory();
    return node;
}

static struct sl_node *collection_node(struct model_group *group, int kind,
                                       const struct sl_span *span)
{
    struct sl_node *node = model_group_alloc(group, sizeof(*node));
    node->kind = (uint8_t)kind;
    node->style = SL_STYLE_NONE;
    node->line = span->line;
    node->column = span->column;
    node->end_line = span->end_line;
    node->end_column = span->end_column;
    return node;
}

static void mapping_add(struct model_group *group, struct sl_node *mapping, size_t capacity,
                        struct sl_node *key, struct sl_node *value)
{
    if (mapping->u.mapping.pairs == NULL)
        mapping->u.mapping.pairs = model_group_alloc(group, capacity * sizeof(struct model_pair));
    struct model_pair *pair = &mapping->u.mapping.pairs[mapping->u.mapping.count++];
    pair->key = key;
    pair->value = value;
}

/* ------------------------------------------------------------------ */
/* reading the words                                                   */
/* ------------------------------------------------------------------ */

/* Where a setting was written: from its flag to the end of its value. */
static struct sl_span setting_span(const struct engine_setting *setting,
                                   const struct sl_span *spans)
{
    struct sl_span span = spans[setting->flag_word];
    /* A flag alone in its word ("-v", "--cap-add=X") is pointed at from
     * its dash; one of combined short flags ("-itv") at its letter. */
    if (setting->flag_offset > 1 && span.line == span.end_line)
        span.column += (unsigned)setting->flag_offset;
    if (setting->value_word != ENGINE_NO_WORD && setting->value_word != setting->flag_word) {
        span.end_line = spans[setting->value_word].end_line;
        span.end_column = spans[setting->value_word].end_column;
    }
    return span;
}

static void add_problem(struct engine_command *command, size_t *capacity,
                        const struct sl_node *node, const char *message, bool expression)
{
    if (command->problem_count == *capacity) {
        *capacity = *capacity ? *capacity * 2 : 4;
        command->problems = xrealloc(command->problems, *capacity, sizeof(*command->problems));
    }
    command->problems[command->problem_count].node = node;
    command->problems[command->problem_count].message =
        model_group_strndup(command->group, message, strlen(message));
    command->problems[command->problem_count].expression = expression;
    command->problem_count++;
}

/* The problems of a setting sandlint cannot judge: never a silent pass. */
static void note_problem(struct engine_command *command, size_t *capacity,
                         const struct engine_setting *setting,
                         const struct engine_word *words, const struct sl_node *node)
{
    const struct engine_word *word = &words[setting->flag_word];
    char *message = NULL;
    bool expression = false;
    if (setting->meaning == ENGINE_FLAG_INTERPOLATED && engine_ci_expression(word->text,
                                                                             word->length)) {
        expression = true;
        message = xasprintf("'%.*s' is a GitHub Actions expression where engine flags "
                            "may stand; what it gives cannot be checked",
                            (int)word->length, word->text);
    } else if (setting->meaning == ENGINE_FLAG_INTERPOLATED)
        message = xasprintf("'%.*s' may hold engine flags, which cannot be checked",
                            (int)word->length, word->text);
    else if (setting->meaning == ENGINE_FLAG_UNKNOWN)
        message = xasprintf("engine flag '%.*s' is not one sandlint knows; what it "
                            "does was not checked",
                            (int)(setting->flag_length), word->text + setting->flag_offset);
    if (message != NULL) {
        add_problem(command, capacity, node, message, expression);
        free(message);
    }
}

static bool interpolated(const struct engine_setting *setting)
{
    return (setting->flags & ENGINE_SETTING_INTERPOLATED) != 0;
}

/* The Compose walk's entry for a -v value: the value itself (Docker's -v
 * and Compose's short syntax are one syntax). */
static struct sl_node *volume_item(const struct engine_setting *setting,
                                   const struct sl_node *node, bool *shell_interpolated)
{
    *shell_interpolated = interpolated(setting) &&
                          !compose_has_interpolation(setting->value, setting->value_length);
    return (struct sl_node *)node;
}

static bool text_is(const char *text, size_t length, const char *word);

/* A --mount of type volume whose volume-opt fields tell the local driver
 * to bind a host path (o=bind or rbind, device=PATH): the definition
 * Compose writes as volumes.NAME.driver_opts, for the walk to judge as it
 * judges Compose's.  docker creates the volume with these options when it
 * does not exist yet, an anonymous one (no source) every time.  Another
 * driver's options are that driver's business and are not read. */
static struct sl_node *define_volume(struct engine_command *command,
                                     const struct engine_mount *mount,
                                     const struct sl_span *span, size_t capacity)
{
    struct model_group *group = command->group;
    if (mount->volume_o.text == NULL ||
        !(text_is(mount->type.text, mount->type.length, "volume")) ||
        (mount->volume_driver.text != NULL &&
         !text_is(mount->volume_driver.text, mount->volume_driver.length, "local")))
        return NULL;
    if (command->volume_definitions == NULL) {
        command->volume_definitions = collection_node(group, SL_NODE_MAPPING, span);
        mapping_add(group, (struct sl_node *)command->mount_root, 1,
                    scalar_node(group, "volumes", 7, span), command->volume_definitions);
    }
    struct sl_node *name;
    if (mount->source.text != NULL) {
        /* The first --mount that names the volume creates it. */
        if (model_mapping_get(command->volume_definitions, mount->source.text,
                              mount->source.length, NULL) != NULL)
            return NULL;
        name = scalar_node(group, mount->source.text, mount->source.length, span);
    } else {
        /* Each anonymous one is a volume of its own, named for the message. */
        size_t anonymous = 0;
        for (size_t i = 0; i < command->volume_definitions->u.mapping.count; i++)
            anonymous += command->volume_definitions->u.mapping.pairs[i].key->u.scalar.text[0] ==
                         '<';
        char *text = anonymous == 0 ? xasprintf("<anonymous>")
                                    : xasprintf("<anonymous %zu>", anonymous + 1);
        name = scalar_node(group, text, strlen(text), span);
        free(text);
    }
    struct sl_node *options = collection_node(group, SL_NODE_MAPPING, span);
    const struct engine_mount_field *fields[] = { &mount->volume_type, &mount->volume_o,
                                                  &mount->volume_device };
    const char *keys[] = { "type", "o", "device" };
    for (size_t i = 0; i < 3; i++)
        if (fields[i]->text != NULL)
            mapping_add(group, options, 3, scalar_node(group, keys[i], strlen(keys[i]), span),
                        scalar_node(group, fields[i]->text, fields[i]->length, span));
    struct sl_node *definition = collection_node(group, SL_NODE_MAPPING, span);
    mapping_add(group, definition, 1, scalar_node(group, "driver_opts", 11, span), options);
    mapping_add(group, command->volume_definitions, capacity, name, definition);
    return name;
}

/* Whether a field holds nothing the shell expands. */
static bool literal_field(const struct engine_mount_field *field)
{
    return field->text == NULL || (memchr(field->text, '$', field->length) == NULL &&
                                   memchr(field->text, '`', field->length) == NULL);
}

/* A --mount whose type (bind or glob) and target are written out. */
static bool written_bind(const struct engine_mount *mount)
{
    return mount->type_given && !mount->malformed && literal_field(&mount->type) &&
           literal_field(&mount->target) && mount->source.text != NULL &&
           (text_is(mount->type.text, mount->type.length, "bind") ||
            text_is(mount->type.text, mount->type.length, "glob"));
}

/* The Compose walk's entry for a --mount value: its long syntax
 * {type, source, target, read_only}, and the definition of the volume its
 * volume-opt fields make (mounts: how many entries the walk gets). */
static struct sl_node *mount_item(struct engine_command *command,
                                  const struct engine_setting *setting,
                                  const struct sl_node *node, size_t mounts,
                                  struct mount_entry *entry)
{
    struct model_group *group = command->group;
    char *buffer = xmalloc(setting->value_length + 1);
    struct engine_mount mount;
    engine_mount_parse(setting->value, setting->value_length, buffer, &mount);
    /* An interpolated entry cannot be checked, but for a bind whose type
     * and target are written: "type=bind,src=$HOME,dst=/h" binds a host
     * path whatever the shell makes of it, as Compose's long syntax with
     * an interpolated source does. */
    entry->shell_interpolated = interpolated(setting) &&
                                !(command->shell_words && written_bind(&mount));
    if (entry->shell_interpolated) {
        free(buffer);
        return (struct sl_node *)node;
    }
    struct sl_span span = { node->line, node->column, node->end_line, node->end_column };
    struct sl_node *mapping = collection_node(group, SL_NODE_MAPPING, &span);
    /* podman's glob binds every host path the pattern matches: a bind of
     * the pattern, named glob in the message. */
    struct engine_mount_field type = mount.type;
    if (text_is(type.text, type.length, "glob")) {
        entry->written_type = "glob";
        type.text = "bind";
        type.length = 4;
    }
    const struct engine_mount_field *fields[] = { &type, &mount.source, &mount.target };
    const char *names[] = { "type", "source", "target" };
    for (size_t i = 0; i < 3; i++)
        if (fields[i]->text != NULL)
            mapping_add(group, mapping, 4, scalar_node(group, names[i], strlen(names[i]), &span),
                        scalar_node(group, fields[i]->text, fields[i]->length, &span));
    const struct sl_node *volume = define_volume(command, &mount, &span, mounts);
    if (mount.source.text == NULL && volume != NULL)
        mapping_add(group, mapping, 4, scalar_node(group, "source", 6, &span),
                    (struct sl_node *)volume);
    if (mount.readonly == 1)
        mapping_add(group, mapping, 4, scalar_node(group, "read_only", 9, &span),
                    scalar_node(group, "true", 4, &span));
    free(buffer);
    return mapping;
}

/* Whether podman's or nerdctl's --rootfs is set: the image word is then
 * the host directory the container runs in. */
static bool rootfs_set(const struct engine_command *command)
{
    long at = -1;
    for (size_t i = 0; i < command->count; i++)
        if (command->settings[i].meaning == ENGINE_FLAG_ROOTFS)
            at = (long)i;
    if (at < 0 || command->rootfs_node == NULL)
        return false;
    const struct engine_setting *setting = &command->settings[at];
    return interpolated(setting) || engine_setting_is_true(setting) == 1;
}

/* The Compose walk's entry for --rootfs PATH[:O|:idmap...]: a bind of the
 * host directory PATH at the container's root (podman's :O overlays it,
 * which still shows the host's files). */
static struct sl_node *rootfs_item(struct engine_command *command, struct mount_entry *entry)
{
    struct model_group *group = command->group;
    const struct sl_node *node = command->rootfs_node;
    const char *path = node->u.scalar.text;
    size_t length = node->u.scalar.length;
    entry->rootfs = true;
    entry->shell_interpolated = (command->rootfs_flags & ENGINE_WORD_INTERPOLATED) &&
                                (!compose_has_interpolation(path, length) ||
                                 (command->rootfs_flags & ENGINE_WORD_SPLIT));
    if (entry->shell_interpolated)
        return (struct sl_node *)node;
    for (size_t i = length; i > 0; i--)
        if (path[i - 1] == ':') {
            const char *suffix = path + i;
            size_t suffix_length = length - i;
            if (text_is(suffix, suffix_length, "O") ||
                (suffix_length >= 5 && memcmp(suffix, "idmap", 5) == 0))
                length = i - 1;
            break;
        }
    struct sl_span span = { node->line, node->column, node->end_line, node->end_column };
    struct sl_node *mapping = collection_node(group, SL_NODE_MAPPING, &span);
    mapping_add(group, mapping, 3, scalar_node(group, "type", 4, &span),
                scalar_node(group, "bind", 4, &span));
    mapping_add(group, mapping, 3, scalar_node(group, "source", 6, &span),
                scalar_node(group, path, length, &span));
    mapping_add(group, mapping, 3, scalar_node(group, "target", 6, &span),
                scalar_node(group, "/", 1, &span));
    return mapping;
}

/* Builds what the Compose mount walk reads from the mount flags. */
static void build_mounts(struct engine_command *command, const struct sl_span *whole)
{
    struct model_group *group = command->group;
    bool rootfs = rootfs_set(command);
    size_t volumes = rootfs ? 1 : 0, volumes_from = 0;
    for (size_t i = 0; i < command->count; i++) {
        enum engine_flag_meaning meaning = command->settings[i].meaning;
        if (command->settings[i].value_word == ENGINE_NO_WORD)
            continue;
        if (meaning == ENGINE_FLAG_VOLUME || meaning == ENGINE_FLAG_MOUNT)
            volumes++;
        else if (meaning == ENGINE_FLAG_VOLUMES_FROM)
            volumes_from++;
    }
    struct sl_node *root = collection_node(group, SL_NODE_MAPPING, whole);
    struct sl_node *service = collection_node(group, SL_NODE_MAPPING, whole);
    command->mount_root = root;
    command->mount_service = service;
    if (volumes + volumes_from == 0)
        return;
    command->mount_entries =
        model_group_alloc(group, (volumes + volumes_from) * sizeof(*command->mount_entries));
    struct sl_node *lists[2] = { NULL, NULL };
    static const char *const list_names[2] = { "volumes", "volumes_from" };
    size_t sizes[2] = { volumes, volumes_from };
    for (size_t l = 0; l < 2; l++) {
        if (sizes[l] == 0)
            continue;
        lists[l] = collection_node(group, SL_NODE_SEQUENCE, whole);
        lists[l]->u.sequence.items = model_group_alloc(group, sizes[l] * sizeof(struct sl_node *));
        mapping_add(group, service, 2,
                    scalar_node(group, list_names[l], strlen(list_names[l]), whole), lists[l]);
    }
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        if (setting->value_word == ENGINE_NO_WORD)
            continue;
        struct mount_entry *entry = &command->mount_entries[command->mount_entry_count];
        struct sl_node *item;
        size_t list;
        if (setting->meaning == ENGINE_FLAG_VOLUME) {
            item = volume_item(setting, command->nodes[i], &entry->shell_interpolated);
            entry->field = "--volume";
            list = 0;
        } else if (setting->meaning == ENGINE_FLAG_MOUNT) {
            item = mount_item(command, setting, command->nodes[i], volumes, entry);
            entry->field = "--mount";
            list = 0;
        } else if (setting->meaning == ENGINE_FLAG_VOLUMES_FROM) {
            /* The engine's --volumes-from names a container (Compose's
             * container:NAME), never a service of a file. */
            const struct sl_node *node = command->nodes[i];
            struct sl_span span = { node->line, node->column, node->end_line, node->end_column };
            char *text = xasprintf("container:%.*s", (int)node->u.scalar.length,
                                   node->u.scalar.text);
            item = scalar_node(group, text, strlen(text), &span);
            free(text);
            entry->shell_interpolated = interpolated(setting) &&
                !compose_has_interpolation(setting->value, setting->value_length);
            entry->field = "--volumes-from";
            list = 1;
        } else {
            continue;
        }
        entry->node = item;
        command->mount_entry_count++;
        if (!entry->shell_interpolated)
            lists[list]->u.sequence.items[lists[list]->u.sequence.count++] = item;
    }
    if (rootfs) {
        struct mount_entry *entry = &command->mount_entries[command->mount_entry_count++];
        struct sl_node *item = rootfs_item(command, entry);
        entry->node = item;
        entry->field = "--rootfs";
        if (!entry->shell_interpolated)
            lists[0]->u.sequence.items[lists[0]->u.sequence.count++] = item;
    }
}

static struct engine_command *command_new(struct model_group *group,
                                          const struct engine_word *words,
                                          const struct sl_span *spans, size_t count,
                                          bool compose_run)
{
    struct engine_command *command = model_group_alloc(group, sizeof(*command));
    command->group = group;
    /* Copies of the words in the group, so that settings may point there. */
    struct engine_word *copies = model_group_alloc(group, (count ? count : 1) * sizeof(*copies));
    for (size_t i = 0; i < count; i++) {
        copies[i] = words[i];
        copies[i].text = model_group_strndup(group, words[i].text, words[i].length);
    }
    struct engine_run run;
    if (compose_run)
        engine_compose_run_parse(copies, count, &run);
    else
        engine_run_parse(copies, count, &run);
    command->compose_run = compose_run;
    command->count = run.count;
    command->image = run.image;
    if (run.image != ENGINE_NO_WORD) {
        /* "--rootfs "$ROOTFS" sh": a word that may hold flags comes just
         * before the image; after --rootfs it is the path, and when it
         * may split into words the path cannot be known. */
        size_t path = run.image;
        const struct engine_setting *last = run.count != 0 ? &run.settings[run.count - 1] : NULL;
        if (last != NULL && last->meaning == ENGINE_FLAG_INTERPOLATED &&
            last->flag_word + 1 == run.image)
            path = last->flag_word;
        command->rootfs_node = scalar_node(group, copies[path].text, copies[path].length,
                                           &spans[path]);
        command->rootfs_flags = copies[path].flags;
    }
    command->settings = model_group_alloc(group, (run.count ? run.count : 1) *
                                                     sizeof(*command->settings));
    if (run.count != 0)
        memcpy(command->settings, run.settings, run.count * sizeof(*run.settings));
    engine_run_release(&run);
    command->nodes = model_group_alloc(group, (command->count ? command->count : 1) *
                                                  sizeof(*command->nodes));
    size_t problem_capacity = 0;
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        struct sl_span span = setting_span(setting, spans);
        const char *text = setting->value != NULL ? setting->value
                                                  : copies[setting->flag_word].text;
        size_t length = setting->value != NULL ? setting->value_length
                                               : copies[setting->flag_word].length;
        command->nodes[i] = scalar_node(group, text, length, &span);
        note_problem(command, &problem_capacity, setting, copies, command->nodes[i]);
    }
    if (command->problem_count != 0) {
        /* Moved into the group, which frees everything together. */
        struct command_problem *kept =
            model_group_alloc(group, command->problem_count * sizeof(*kept));
        memcpy(kept, command->problems, command->problem_count * sizeof(*kept));
        free(command->problems);
        command->problems = kept;
    }
    struct sl_span whole = { 1, 1, 1, 1 };
    if (count != 0) {
        whole = spans[0];
        whole.end_line = spans[count - 1].end_line;
        whole.end_column = spans[count - 1].end_column;
    }
    command->whole = whole;
    build_mounts(command, &command->whole);
    return command;
}

void engine_command_set_shell_words(struct engine_command *command, bool make)
{
    command->shell_words = true;
    command->make_text = make;
    /* Read again when a --mount is interpolated: a bind's interpolated
     * source is now known to be the shell's (what the first reading made
     * stays in the group). */
    bool again = false;
    for (size_t i = 0; i < command->count; i++)
        again = again || (command->settings[i].meaning == ENGINE_FLAG_MOUNT &&
                          interpolated(&command->settings[i]));
    if (!again)
        return;
    command->mount_entry_count = 0;
    command->mount_entries = NULL;
    command->volume_definitions = NULL;
    build_mounts(command, &command->whole);
}

void engine_command_set_daemon_options(struct engine_command *command)
{
    command->daemon_options = true;
}

struct engine_command *engine_command_new(struct model_group *group,
                                          const struct engine_word *words,
                                          const struct sl_span *spans, size_t count)
{
    return command_new(group, words, spans, count, false);
}

struct engine_command *engine_command_new_compose_run(struct model_group *group,
                                                      const struct engine_word *words,
                                                      const struct sl_span *spans, size_t count)
{
    return command_new(group, words, spans, count, true);
}

const char *engine_command_name(const struct engine_command *command, size_t *length)
{
    const char *name = NULL;
    *length = 0;
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        if (setting->meaning != ENGINE_FLAG_NAME || setting->value == NULL)
            continue;
        if (interpolated(setting) || setting->value_length == 0) {
            name = NULL;
            *length = 0;
        } else {
            name = setting->value;
            *length = setting->value_length;
        }
    }
    return name;
}

size_t engine_command_image(const struct engine_command *command)
{
    return command->image;
}

size_t engine_command_problem_count(const struct engine_command *command)
{
    return command->problem_count;
}

const char *engine_command_problem(const struct engine_command *command, size_t index,
                                   const struct sl_node **node)
{
    *node = command->problems[index].node;
    return command->problems[index].message;
}

bool engine_command_problem_expression(const struct engine_command *command, size_t index)
{
    return command->problems[index].expression;
}

bool engine_ci_expression(const char *text, size_t length)
{
    return length >= 3 && memcmp(text, "${{", 3) == 0;
}

/* ------------------------------------------------------------------ */
/* the settings                                                        */
/* ------------------------------------------------------------------ */

/* What a setting is called and how to add it, in the command line's words. */
struct setting_words {
    const char *field;
    const char *label;
    const char *hint;
};

static const struct setting_words words_by_id[MODEL_SETTING_LAST + 1] = {
    [SL_SETTING_PRIVILEGED] = { "--privileged", "--privileged", NULL },
    [SL_SETTING_CAP_ADD] = { "--cap-add", "--cap-add", NULL },
    [SL_SETTING_CAP_DROP] = { "--cap-drop", "--cap-drop",
                              "add '--cap-drop ALL' and --cap-add only what the sandbox "
                              "needs" },
    [SL_SETTING_SECCOMP] = { "--security-opt", "--security-opt", NULL },
    [SL_SETTING_APPARMOR] = { "--security-opt", "--security-opt", NULL },
    [SL_SETTING_SELINUX] = { "--security-opt", "--security-opt", NULL },
    [SL_SETTING_SYSTEM_PATHS] = { "--security-opt", "--security-opt", NULL },
    [SL_SETTING_SECURITY_OTHER] = { "--security-opt", "--security-opt", NULL },
    [SL_SETTING_NO_NEW_PRIVILEGES] = { "--security-opt", "--security-opt",
                                       "add '--security-opt no-new-privileges'" },
    [SL_SETTING_READ_ONLY_ROOT] = { "--read-only", "--read-only",
                                    "add '--read-only' (with --tmpfs for the paths the "
                                    "sandbox writes)" },
    [SL_SETTING_USER] = { "--user", "--user", "add '--user 1000:1000' (a user the image has)" },
    [SL_SETTING_PIDS_LIMIT] = { "--pids-limit", "--pids-limit", "add '--pids-limit 512'" },
    [SL_SETTING_MEMORY_LIMIT] = { "--memory", "--memory", "add '--memory 2g'" },
    [SL_SETTING_CPU_LIMIT] = { "--cpus", "--cpus or --cpu-quota", "add '--cpus 2'" },
    [SL_SETTING_NETWORK_NAMESPACE] = { "--network", "--network", NULL },
    [SL_SETTING_PID_NAMESPACE] = { "--pid", "--pid", NULL },
    [SL_SETTING_IPC_NAMESPACE] = { "--ipc", "--ipc", NULL },
    [SL_SETTING_UTS_NAMESPACE] = { "--uts", "--uts", NULL },
    [SL_SETTING_USER_NAMESPACE] = { "--userns", "--userns", NULL },
    [SL_SETTING_CGROUP_NAMESPACE] = { "--cgroupns", "--cgroupns", NULL },
    [SL_SETTING_MOUNTS] = { "--volume", "-v/--volume or --mount", NULL },
    [SL_SETTING_DEVICES] = { "--device", "--device", NULL },
    [SL_SETTING_DEVICE_CGROUP_RULES] = { "--device-cgroup-rule", "--device-cgroup-rule", NULL },
    [SL_SETTING_PORTS] = { "--publish", "--publish",
                           "publish on the loopback interface only "
                           "('-p 127.0.0.1:8080:80'), or remove the flag" },
    [SL_SETTING_RUNTIME] = { "--runtime", "--runtime", NULL },
    [SL_SETTING_API_SOCKET] = { "--use-api-socket", "--use-api-socket", NULL },
    [SL_SETTING_GPUS] = { "--gpus", "--gpus", NULL },
};

static struct sl_value *new_value(struct model_fill *fill, int form, const char *field,
                                  const struct sl_node *node)
{
    struct sl_value *value = model_fill_value(fill);
    value->form = form;
    value->field = value->label = field;
    value->key = value->node = node;
    return value;
}

static void templated(struct sl_value *value)
{
    value->state = SL_VALUE_TEMPLATED;
    value->template_syntax = SL_TEMPLATE_INTERPOLATION;
    value->parsed = NULL;
    value->parsed_length = 0;
}

/* A shell variable's name: [A-Za-z_][A-Za-z0-9_]*. */
static size_t variable_name(const char *text, size_t length)
{
    size_t n = 0;
    while (n < length && (text[n] == '_' || (text[n] >= 'A' && text[n] <= 'Z') ||
                          (text[n] >= 'a' && text[n] <= 'z') ||
                          (n > 0 && text[n] >= '0' && text[n] <= '9')))
        n++;
    return n;
}

/*
 * What the shell makes of a value whose only expansions are defaults,
 * ${NAME:-WORD} or ${NAME-WORD} with a literal WORD: the value with every
 * variable unset, as Compose resolves ${P:-unconfined} (SPEC §13; the
 * environment the command runs in is not known, so a harmless result is
 * still reported as interpolated, see core/check/resolved_use.h).  The
 * text and where it came from are made in group; false for anything
 * else.
 */
static bool shell_default(const struct engine_command *command, const char *text,
                          size_t length, const char **resolved, size_t *resolved_length,
                          const char **from)
{
    struct model_group *group = command->group;
    if (!command->shell_words)
        return false;   /* runArgs, job options: no shell expands them */
    char *out = xmalloc(length + 1);
    size_t used = 0, defaults = 0;
    const char *name = NULL;
    size_t name_length = 0;
    for (size_t at = 0; at < length;) {
        if (text[at] == '`' || text[at] == '\\' || text[at] == '"' || text[at] == '\'') {
            free(out);
            return false;
        }
        if (text[at] != '$') {
            out[used++] = text[at++];
            continue;
        }
        if (command->make_text) {
            /* make's $$ is the shell's $; a lone $ is make's own */
            if (at + 1 >= length || text[at + 1] != '$') {
                free(out);
                return false;
            }
            at++;
        }
        if (at + 1 >= length || text[at + 1] != '{') {
            free(out);
            return false;   /* $NAME, $(...), $$...: not known */
        }
        size_t n = variable_name(text + at + 2, length - at - 2);
        size_t word = at + 2 + n;
        if (n == 0 || word >= length) {
            free(out);
            return false;
        }
        if (text[word] == ':')
            word++;
        if (word >= length || text[word] != '-') {
            free(out);
            return false;   /* ${NAME}, ${NAME:+X}, ${NAME:=X}...: not a default */
        }
        word++;
        size_t end = word;
        while (end < length && text[end] != '}' && text[end] != '$' && text[end] != '`' &&
               text[end] != '\\' && text[end] != '"' && text[end] != '\'')
            end++;
        if (end >= length || text[end] != '}') {
            free(out);
            return false;
        }
        memcpy(out + used, text + word, end - word);
        used += end - word;
        if (defaults++ == 0) {
            name = text + at + 2;
            name_length = n;
        }
        at = end + 1;
    }
    if (defaults == 0) {
        free(out);
        return false;
    }
    *resolved = model_group_strndup(group, out, used);
    *resolved_length = used;
    free(out);
    char *said = defaults == 1
                     ? xasprintf("the default of %.*s, which the shell uses when it is unset",
                                 (int)name_length, name)
                     : xasprintf("the defaults the shell uses when %.*s and the others are "
                                 "unset", (int)name_length, name);
    *from = model_group_strndup(group, said, strlen(said));
    free(said);
    return true;
}

/* text as the value's text and parsed; returns whether it can be read:
 * not interpolated, or the whole value of an interpolated setting that
 * shell_default() resolves (then text is what it resolves to, written
 * the value as written). */
static bool take_text(const struct engine_command *command, struct sl_value *value,
                      const struct engine_setting *setting, const char *text, size_t length)
{
    value->text = value->parsed = text;
    value->text_length = value->parsed_length = length;
    if (!interpolated(setting))
        return true;
    const char *resolved, *from;
    size_t resolved_length;
    if (text == setting->value && length == setting->value_length &&
        shell_default(command, text, length, &resolved, &resolved_length, &from)) {
        value->written = text;
        value->written_length = length;
        value->text = value->parsed = resolved;
        value->text_length = value->parsed_length = resolved_length;
        value->flags |= SL_VALUE_RESOLVED;
        value->resolved_from = from;
        value->resolved_from_length = strlen(from);
        return true;
    }
    templated(value);
    return false;
}

/* The index of the last setting of meaning (the one the engine keeps), or
 * -1. */
static long last_of(const struct engine_command *command, enum engine_flag_meaning meaning)
{
    long last = -1;
    for (size_t i = 0; i < command->count; i++)
        if (command->settings[i].meaning == meaning)
            last = (long)i;
    return last;
}

static bool text_is(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

/* A switch: --privileged, --read-only, --use-api-socket. */
static void fill_flag(struct model_fill *fill, const struct engine_command *command,
                      enum engine_flag_meaning meaning, const char *field)
{
    long at = last_of(command, meaning);
    if (at < 0)
        return;
    const struct engine_setting *setting = &command->settings[at];
    fill->setting.key = command->nodes[at];
    struct sl_value *value = new_value(fill, SL_FORM_FLAG, field, command->nodes[at]);
    const char *text = setting->value != NULL ? setting->value : "true";
    size_t length = setting->value != NULL ? setting->value_length : 4;
    if (!take_text(command, value, setting, text, length))
        return;
    if (value->flags & SL_VALUE_RESOLVED) {
        /* pflag's true words */
        static const char *const truths[] = { "1", "t", "T", "TRUE", "true", "True" };
        for (size_t i = 0; i < sizeof(truths) / sizeof(*truths); i++)
            value->meaning = value->meaning || text_is(value->text, value->text_length, truths[i]);
    } else {
        value->meaning = engine_setting_is_true(setting) == 1;
    }
}

/* One value per flag of meaning, each split at commas when split is set
 * (podman reads --cap-add a,b as two). */
static void fill_list(struct model_fill *fill, const struct engine_command *command, int id,
                      enum engine_flag_meaning meaning, const char *field, bool split)
{
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        if (setting->meaning != meaning || setting->value == NULL)
            continue;
        if (fill->setting.key == NULL)
            fill->setting.key = command->nodes[i];
        size_t at = 0;
        do {
            size_t end = at;
            while (end < setting->value_length && !(split && setting->value[end] == ','))
                end++;
            if (end == at && setting->value_length != 0) {
                at = end + 1;   /* "a,,b": podman skips the empty item */
                continue;
            }
            struct sl_value *value = new_value(fill, SL_FORM_ENTRY, field, command->nodes[i]);
            if (take_text(command, value, setting, setting->value + at, end - at)) {
                if (id == SL_SETTING_CAP_ADD || id == SL_SETTING_CAP_DROP) {
                    model_parse_capability(fill, value);
                } else if (id == SL_SETTING_DEVICES) {
                    const char *colon = memchr(value->text, ':', value->text_length);
                    if (colon != NULL)
                        value->parsed_length = (size_t)(colon - value->text);
                }
            }
            at = end + 1;
        } while (split && at <= setting->value_length && !interpolated(setting));
    }
}

/* Which setting a --security-opt value holds, and the part after its
 * name (after '=' or the older ':'). */
static int security_option(const char *text, size_t length, bool daemon, const char **rest,
                           size_t *rest_length)
{
    static const struct {
        const char *name;
        int id;
    } options[] = {
        { "seccomp", SL_SETTING_SECCOMP },
        { "apparmor", SL_SETTING_APPARMOR },
        { "label", SL_SETTING_SELINUX },
        { "systempaths", SL_SETTING_SYSTEM_PATHS },
        { "no-new-privileges", SL_SETTING_NO_NEW_PRIVILEGES },
        { "mask", SL_SETTING_SECURITY_OTHER },
        { "unmask", SL_SETTING_SYSTEM_PATHS },
        { "proc-opts", SL_SETTING_SECURITY_OTHER },
    };
    *rest = NULL;
    *rest_length = 0;
    if (text_is(text, length, "no-new-privileges"))
        return SL_SETTING_NO_NEW_PRIVILEGES;
    if (daemon && text_is(text, length, "disable")) {
        /* The daemon's own spelling of label=disable. */
        *rest = text;
        *rest_length = length;
        return SL_SETTING_SELINUX;
    }
    size_t split = 0;
    while (split < length && text[split] != ':' && text[split] != '=')
        split++;
    if (split == length)
        return SL_SETTING_SECURITY_OTHER;
    for (size_t i = 0; i < sizeof(options) / sizeof(*options); i++)
        if (text_is(text, split, options[i].name)) {
            *rest = text + split + 1;
            *rest_length = length - split - 1;
            return options[i].id;
        }
    return SL_SETTING_SECURITY_OTHER;
}

static int security_meaning(int id, const char *text, size_t length)
{
    switch (id) {
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
        return text_is(text, length, "unconfined") ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_CUSTOM;
    case SL_SETTING_SELINUX:
        return text_is(text, length, "disable") || text_is(text, length, "type:spc_t") ||
                       text_is(text, length, "type:unconfined_t")
                   ? SL_CONFINEMENT_OFF : SL_CONFINEMENT_OTHER;
    case SL_SETTING_SYSTEM_PATHS:
        /* systempaths=unconfined, and podman's unmask=ALL or a path list */
        return text_is(text, length, "unconfined") || length != 0 ? SL_CONFINEMENT_OFF
                                                                  : SL_CONFINEMENT_OTHER;
    case SL_SETTING_NO_NEW_PRIVILEGES:
        return compose_parse_bool(text, length) == 1;
    default:
        return 0;
    }
}

static void fill_security(struct model_fill *fill, const struct engine_command *command,
                          int view, int id)
{
    long decided = -1;      /* effective: the value index the later literal replaces */
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        if (setting->meaning != ENGINE_FLAG_SECURITY_OPT || setting->value == NULL)
            continue;
        if (fill->setting.key == NULL)
            fill->setting.key = command->nodes[i];
        const char *rest = NULL;
        size_t rest_length = 0;
        /* An interpolated option that resolves holds what it resolves to. */
        const char *text = setting->value, *from;
        size_t length = setting->value_length;
        bool known = !interpolated(setting) ||
                     shell_default(command, text, length, &text, &length, &from);
        int holds = known ? security_option(text, length, command->daemon_options, &rest,
                                            &rest_length)
                          : SL_SETTING_SECURITY_OTHER;
        if (holds != id)
            continue;
        if (view == SL_VIEW_EFFECTIVE && !interpolated(setting) && decided >= 0) {
            /* The engine reads the options in order: the later wins. */
            memmove(&fill->values[decided], &fill->values[decided + 1],
                    (fill->count - (size_t)decided - 1) * sizeof(*fill->values));
            fill->count--;
        }
        struct sl_value *value =
            new_value(fill, SL_FORM_ENTRY, "--security-opt", command->nodes[i]);
        if (!take_text(command, value, setting, setting->value, setting->value_length))
            continue;
        if (id == SL_SETTING_NO_NEW_PRIVILEGES && rest == NULL) {
            value->meaning = 1;
        } else {
            value->meaning = security_meaning(id, rest, rest_length);
            if (rest != NULL) {
                value->parsed = rest;
                value->parsed_length = rest_length;
            }
        }
        if (view == SL_VIEW_EFFECTIVE)
            decided = (long)fill->count - 1;
    }
}

/* The last value of meaning, one value of field. */
static struct sl_value *last_value(struct model_fill *fill, const struct engine_command *command,
                                   enum engine_flag_meaning meaning, const char *field,
                                   const struct engine_setting **setting)
{
    long at = last_of(command, meaning);
    if (at < 0 || command->settings[at].value == NULL)
        return NULL;
    *setting = &command->settings[at];
    if (fill->setting.key == NULL)
        fill->setting.key = command->nodes[at];
    struct sl_value *value = new_value(fill, SL_FORM_SCALAR, field, command->nodes[at]);
    return take_text(command, value, *setting, (*setting)->value, (*setting)->value_length) ? value
                                                                                    : NULL;
}

static void fill_user(struct model_fill *fill, const struct engine_command *command)
{
    const struct engine_setting *setting;
    struct sl_value *value = last_value(fill, command, ENGINE_FLAG_USER, "--user", &setting);
    if (value != NULL)
        value->meaning = compose_user_is_root(value->text, value->text_length)
                             ? SL_USER_ROOT : SL_USER_NON_ROOT;
}

static void fill_limit(struct model_fill *fill, const struct engine_command *command,
                       enum engine_flag_meaning meaning, const char *field,
                       enum compose_number_form form)
{
    const struct engine_setting *setting;
    struct sl_value *value = last_value(fill, command, meaning, field, &setting);
    if (value != NULL)
        value->meaning = compose_limit(value->text, value->text_length, form, &value->number);
}

static void fill_namespace(struct model_fill *fill, const struct engine_command *command,
                           enum engine_flag_meaning meaning, const char *field)
{
    const struct engine_setting *setting;
    struct sl_value *value = last_value(fill, command, meaning, field, &setting);
    if (value == NULL)
        return;
    /* podman's ns:PATH joins the namespace a host path names
     * (ns:/proc/1/ns/net is the host's own): read as host. */
    if (text_is(value->text, value->text_length, "host") ||
        (value->text_length > 3 && memcmp(value->text, "ns:", 3) == 0))
        value->meaning = SL_NAMESPACE_HOST;
    else if (value->text_length > 10 && memcmp(value->text, "container:", 10) == 0)
        value->meaning = SL_NAMESPACE_CONTAINER;
    else
        value->meaning = SL_NAMESPACE_PRIVATE;
}

static void fill_runtime(struct model_fill *fill, const struct engine_command *command)
{
    const struct engine_setting *setting;
    last_value(fill, command, ENGINE_FLAG_RUNTIME, "--runtime", &setting);
}

static void fill_ports(struct model_fill *fill, const struct engine_command *command)
{
    for (size_t i = 0; i < command->count; i++) {
        const struct engine_setting *setting = &command->settings[i];
        if (setting->meaning == ENGINE_FLAG_PUBLISH_ALL) {
            /* Every port the image exposes, on every host interface. */
            if (engine_setting_is_true(setting) != 1 && !interpolated(setting))
                continue;
            if (fill->setting.key == NULL)
                fill->setting.key = command->nodes[i];
            struct sl_value *value =
                new_value(fill, SL_FORM_ENTRY, "--publish-all", command->nodes[i]);
            if (take_text(command, value, setting, "--publish-all", 13))
                value->meaning = SL_PORT_EVERY_INTERFACE;
            continue;
        }
        if (setting->meaning != ENGINE_FLAG_PUBLISH || setting->value == NULL)
            continue;
        if (fill->setting.key == NULL)
            fill->setting.key = command->nodes[i];
        struct sl_value *value = new_value(fill, SL_FORM_ENTRY, "--publish", command->nodes[i]);
        if (!take_text(command, value, setting, setting->value, setting->value_length))
            continue;
        struct compose_port port;
        compose_port_split(value->text, value->text_length, &port);
        value->meaning = port.ip != NULL && !compose_every_interface(port.ip, port.ip_length)
                             ? SL_PORT_ONE_ADDRESS : SL_PORT_EVERY_INTERFACE;
        if (port.host != NULL)
            value->number = (double)compose_port_number(port.host, port.host_length);
    }
}

static int mount_value(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    (void)ctx;
    model_fill_mount(data, mount, SL_TEMPLATE_INTERPOLATION);
    return SL_OK;
}

void engine_command_fill(struct model_fill *fill, const struct engine_command *command,
                         int view, int id)
{
    const struct setting_words *named =
        id >= 1 && id <= MODEL_SETTING_LAST && words_by_id[id].field != NULL ? &words_by_id[id]
                                                                             : NULL;
    /* A one-off container of a Compose service has the service's
     * settings (checked where its file is) and what the run flags add:
     * capabilities, mounts and ports.  What they leave alone is not
     * this command line's to judge. */
    if (command->compose_run && id != SL_SETTING_CAP_ADD && id != SL_SETTING_MOUNTS &&
        id != SL_SETTING_PORTS)
        named = NULL;
    if (named == NULL) {
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        return;
    }
    fill->setting.field = named->field;
    fill->setting.label = named->label;
    fill->setting.hint = named->hint;
    switch (id) {
    case SL_SETTING_PRIVILEGED:
        fill_flag(fill, command, ENGINE_FLAG_PRIVILEGED, named->field);
        break;
    case SL_SETTING_READ_ONLY_ROOT:
        fill_flag(fill, command, ENGINE_FLAG_READ_ONLY, named->field);
        break;
    case SL_SETTING_API_SOCKET:
        fill_flag(fill, command, ENGINE_FLAG_USE_API_SOCKET, named->field);
        break;
    case SL_SETTING_CAP_ADD:
        fill_list(fill, command, id, ENGINE_FLAG_CAP_ADD, named->field, true);
        break;
    case SL_SETTING_CAP_DROP:
        fill_list(fill, command, id, ENGINE_FLAG_CAP_DROP, named->field, true);
        break;
    case SL_SETTING_DEVICES:
        fill_list(fill, command, id, ENGINE_FLAG_DEVICE, named->field, false);
        break;
    case SL_SETTING_DEVICE_CGROUP_RULES:
        fill_list(fill, command, id, ENGINE_FLAG_DEVICE_CGROUP_RULE, named->field, false);
        break;
    case SL_SETTING_GPUS:
        fill_list(fill, command, id, ENGINE_FLAG_GPUS, named->field, false);
        break;
    case SL_SETTING_SECCOMP:
    case SL_SETTING_APPARMOR:
    case SL_SETTING_SELINUX:
    case SL_SETTING_SYSTEM_PATHS:
    case SL_SETTING_SECURITY_OTHER:
    case SL_SETTING_NO_NEW_PRIVILEGES:
        fill_security(fill, command, view, id);
        break;
    case SL_SETTING_USER:
        fill_user(fill, command);
        break;
    case SL_SETTING_PIDS_LIMIT:
        fill_limit(fill, command, ENGINE_FLAG_PIDS_LIMIT, "--pids-limit", COMPOSE_INTEGER);
        break;
    case SL_SETTING_MEMORY_LIMIT:
        fill_limit(fill, command, ENGINE_FLAG_MEMORY, "--memory", COMPOSE_BYTES);
        break;
    case SL_SETTING_CPU_LIMIT:
        fill_limit(fill, command, ENGINE_FLAG_CPUS, "--cpus", COMPOSE_DECIMAL);
        fill_limit(fill, command, ENGINE_FLAG_CPU_QUOTA, "--cpu-quota", COMPOSE_INTEGER);
        break;
    case SL_SETTING_NETWORK_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_NETWORK, named->field);
        break;
    case SL_SETTING_PID_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_PID, named->field);
        break;
    case SL_SETTING_IPC_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_IPC, named->field);
        break;
    case SL_SETTING_UTS_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_UTS, named->field);
        break;
    case SL_SETTING_USER_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_USERNS, named->field);
        break;
    case SL_SETTING_CGROUP_NAMESPACE:
        fill_namespace(fill, command, ENGINE_FLAG_CGROUPNS, named->field);
        break;
    case SL_SETTING_PORTS:
        fill_ports(fill, command);
        break;
    case SL_SETTING_RUNTIME:
        fill_runtime(fill, command);
        break;
    case SL_SETTING_MOUNTS: {
        const char *problem;
        engine_command_mounts(command, NULL, sizeof(struct sl_mount), mount_value, fill,
                              &problem);
        break;
    }
    default:
        fill->setting.state = SL_SETTING_UNSUPPORTED;
        break;
    }
}

/* ------------------------------------------------------------------ */
/* mounts                                                              */
/* ------------------------------------------------------------------ */

struct mount_relay {
    const struct engine_command *command;
    sl_mount_fn visit;
    void *data;
    size_t mount_size;
};

/* The entry of the Compose walk a mount came from (NULL: none). */
static const struct mount_entry *entry_of(const struct engine_command *command,
                                          const struct sl_node *node)
{
    for (size_t i = 0; i < command->mount_entry_count; i++)
        if (command->mount_entries[i].node == node)
            return &command->mount_entries[i];
    return NULL;
}

static int relay_mount(struct sl_context *ctx, const struct sl_mount *mount, void *data)
{
    struct mount_relay *relay = data;
    struct sl_mount copy;
    memset(&copy, 0, sizeof(copy));
    memcpy(&copy, mount, relay->mount_size < sizeof(copy) ? relay->mount_size : sizeof(copy));
    const struct mount_entry *entry =
        entry_of(relay->command, mount->entry != NULL ? mount->entry : mount->node);
    copy.field = entry != NULL ? entry->field : "--volume";
    if (entry != NULL && entry->written_type != NULL) {
        copy.type = entry->written_type;
        copy.type_length = strlen(entry->written_type);
    } else if (entry != NULL && entry->rootfs) {
        /* Not written as a mount: no syntax to describe. */
        copy.syntax = SL_MOUNT_SHORT;
        copy.type = NULL;
        copy.type_length = 0;
    }
    return relay->visit(ctx, &copy, relay->data);
}

int engine_command_mounts(const struct engine_command *command, struct sl_context *ctx,
                          size_t mount_size, sl_mount_fn visit, void *data,
                          const char **problem)
{
    *problem = NULL;
    if (visit == NULL || mount_size < HOST_MOUNT_SIZE_1_1) {
        *problem = "host_mounts(): mount struct too small or no callback";
        return SL_ERROR;
    }
    /* Entries with a shell expansion Compose does not know: the whole
     * entry is interpolated. */
    for (size_t i = 0; i < command->mount_entry_count; i++) {
        const struct mount_entry *entry = &command->mount_entries[i];
        if (!entry->shell_interpolated)
            continue;
        struct sl_mount mount;
        memset(&mount, 0, sizeof(mount));
        mount.struct_size = mount_size < sizeof(mount) ? mount_size : sizeof(mount);
        mount.kind = SL_MOUNT_INTERPOLATED;
        mount.syntax = strcmp(entry->field, "--volumes-from") == 0 ? SL_MOUNT_VOLUMES_FROM
                                                                   : SL_MOUNT_SHORT;
        mount.field = entry->field;
        mount.node = mount.entry = entry->node;
        mount.value = mount.interpolated = entry->node->u.scalar.text;
        mount.value_length = mount.interpolated_length = entry->node->u.scalar.length;
        mount.part = SL_MOUNT_PART_ENTRY;
        if (visit(ctx, &mount, data) != SL_OK)
            return SL_ERROR;
    }
    struct mount_relay relay = { command, visit, data, mount_size };
    return host_mounts_each(ctx, command->mount_root, command->mount_service, mount_size,
                            relay_mount, &relay, problem);
}

/* ------------------------------------------------------------------ */
/* the scope                                                           */
/* ------------------------------------------------------------------ */

static void fill_setting(struct model_fill *fill, const struct model_scope *scope, int view,
                         int id)
{
    engine_command_fill(fill, scope->data, view, id);
}

static int scope_mounts(const struct model_scope *scope, struct sl_context *ctx,
                        size_t mount_size, sl_mount_fn visit, void *data, const char **problem)
{
    return engine_command_mounts(scope->data, ctx, mount_size, visit, data, problem);
}

static const struct model_reader command_reader = { fill_setting, scope_mounts };

struct model_scope *engine_command_scope(struct model_group *group,
                                         const struct engine_command *command,
                                         const char *service, size_t service_length,
                                         const struct sl_node *node, int kind)
{
    char *name = model_group_strndup(group, service, service_length);
    struct model_scope_spec spec = {
        .level = SL_SCOPE_CONTAINER, .sort = SL_CONTAINER_MAIN,
        .platform = SL_PLATFORM_ENGINE, .kind = kind,
        .service = service, .service_length = service_length,
        .name = name, .name_length = service_length, .noun = "container",
        .node = node, .mapping = NULL,
        .reader = &command_reader, .data = command,
    };
    return model_scope_new(group, &spec);
}
