/* references.c - files named by include and extends (see references.h). */
#include "config.h"

#include "references.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compose.h"
#include "compose_context.h"
#include "compose_interpolation.h"
#include "compose_project.h"
#include "dotenv.h"
#include "file_kind.h"
#include "paths.h"
#include "source.h"
#include "sandlint/plugin.h"
#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* collecting (in the worker)                                          */
/* ------------------------------------------------------------------ */

static const struct sl_node *value_of(const struct sl_node *mapping, const char *key)
{
    return model_mapping_get(mapping, key, strlen(key), NULL);
}

/* Where the references of a file are collected: its result, and its
 * project's variables (NULL: none known). */
struct collecting {
    struct file_result *result;
    struct compose_project *project;
};

/* A path written with interpolation, as Compose resolves it with the
 * project's .env, defaults and $$ escapes: the path the reference follows
 * (SPEC §13).  One that stays unknown keeps the text alone (a warning). */
static void resolve_path(struct collecting *into, struct file_reference *reference,
                         const struct sl_node *node)
{
    /* Any '$': an interpolation, or a "$$" that stands for '$'. */
    if (into->project == NULL ||
        memchr(node->u.scalar.text, '$', node->u.scalar.length) == NULL)
        return;
    struct compose_resolution resolved;
    if (!compose_project_resolve(into->project, node->u.scalar.text,
                                 node->u.scalar.length, &resolved))
        return;
    /* An empty path, or one holding a NUL byte (a .env escape), names no
     * file Compose could open: left as written, so it warns. */
    if (resolved.length != 0 && memchr(resolved.text, '\0', resolved.length) == NULL) {
        reference->path = xstrndup(resolved.text, resolved.length);
        reference->from = xstrdup(resolved.from);
    }
    compose_resolution_release(&resolved);
}

/* The variables the file hands on to the one it names (SPEC §13): an
 * included file gets them when there are any (else it is checked in its
 * own context), an extends.file target always (it never reads its own
 * .env). */
static void hand_on(struct collecting *into, struct file_reference *reference)
{
    if (into->project == NULL || reference->kind == REFERENCE_COMPOSE_FILE ||
        reference->kind == REFERENCE_COMPOSE_FILE_ENV)
        return;
    size_t length;
    int kind = reference->kind == REFERENCE_EXTENDS ? CONTEXT_EXTENDED : CONTEXT_INCLUDED;
    char *context = compose_context_encode(compose_project_variables(into->project), kind,
                                           into->result->display, &length);
    if (reference->kind == REFERENCE_INCLUDE &&
        compose_context_is_empty(context, length)) {

        free(context);
        return;
    }
    reference->context = context;
    reference->context_length = length;
}

/* Adds a scalar path, or each scalar of a sequence of paths. */
static void add_paths(struct collecting *into, int kind, const struct sl_node *node)
{
    if (node == NULL)
        return;
    if (node->kind == SL_NODE_SCALAR) {
        if (!model_is_null(node) && node->u.scalar.length != 0) {
            struct file_reference *reference = file_result_add_reference(
                into->result, kind, node->line, node->column, node->u.scalar.text);
            resolve_path(into, reference, node);
            hand_on(into, reference);
        }
        return;
    }
    if (node->kind != SL_NODE_SEQUENCE)
        return;
    for (size_t i = 0; i < node->u.sequence.count; i++) {
        const struct sl_node *item = node->u.sequence.items[i];
        if (item->kind == SL_NODE_SCALAR)
            add_paths(into, kind, item);
    }
}

/* An include item's project_directory or env_file that sandlint cannot
 * follow (not a string or list of strings; an env_file written with a
 * variable or naming more than 16 files) changes the variables and the
 * directory Compose reads the included file with, so the file is not
 * checked as Compose reads it: an error, never a silent pass. */
static void refuse_item_setting(struct collecting *into, const struct sl_node *item,
                                const char *key)
{
    const struct sl_node *value = value_of(item, key);
    if (value == NULL || model_is_null(value))
        return;
    char *message = xasprintf("include item sets %s in a form sandlint does not follow: "
                              "the included file is checked with its own directory's "
                              ".env and paths, not as Compose reads it", key);
    struct finding_spec spec = {
        .rule = CORE_RULE_REFERENCE, .severity = SL_SEVERITY_ERROR, .line = value->line,
        .column = value->column, .message = message,
        .hint = "remove the setting, or review the included file with the variables "
                "and directory it names",
    };
    finding_set_add(&into->result->findings, &spec);
    into->result->incomplete = true;
    free(message);
}

/* One entry of an include item's env_file: where it is written, and the
 * path Compose reads (its text interpolated with the including file's
 * variables). */
struct env_file_entry {
    const struct sl_node *node;
    char *path;                 /* owned */
};

/* The entry as messages quote it: as written, and what it resolved to. */
static char *entry_shown(const struct env_file_entry *entry)
{
    if (strcmp(entry->path, entry->node->u.scalar.text) == 0)
        return xasprintf("'%s'", entry->path);
    return xasprintf("'%s' (resolved to '%s')", entry->node->u.scalar.text, entry->path);
}

/* An SL010 error at an include item's env_file entry: the included file
 * cannot be checked with the variables Compose gives it. */
static void env_file_unreadable(struct collecting *into, const struct env_file_entry *entry,
                                const char *why)
{
    char *shown = entry_shown(entry);
    char *message = xasprintf("include item env_file %s %s, so the included file "
                              "cannot be checked with its variables", shown, why);
    free(shown);
    struct finding_spec spec = {
        .rule = CORE_RULE_ENV_FILE, .severity = SL_SEVERITY_ERROR,
        .line = entry->node->line, .column = entry->node->column, .message = message,
        .hint = "name a readable file inside the scanned directories, or remove it",
    };
    finding_set_add(&into->result->findings, &spec);
    into->result->incomplete = true;
    free(message);
}

/* entry, relative to the including project's directory (the directory of
 * env_relative), as a path below dir_fd without "." or ".." (source_read_at
 * follows no link, so ".." lexically is the real parent); NULL when it
 * leaves dir_fd or is absolute. */
static char *below_project(const char *env_relative, const char *entry)
{
    if (entry[0] == '/')
        return NULL;
    const char *slash = strrchr(env_relative, '/');
    char *joined = slash == NULL ? xstrdup(entry)
                                 : xasprintf("%.*s/%s", (int)(slash - env_relative),
                                             env_relative, entry);
    /* Components kept in place: out grows only as far as joined. */
    char *out = xmalloc(strlen(joined) + 1);
    size_t length = 0;
    bool outside = false;
    for (char *part = joined; *part != '\0' && !outside;) {
        char *end = strchr(part, '/');
        size_t n = end != NULL ? (size_t)(end - part) : strlen(part);
        if (n == 0 || (n == 1 && part[0] == '.')) {
            /* nothing */
        } else if (n == 2 && part[0] == '.' && part[1] == '.') {
            if (length == 0)
                outside = true;
            while (length > 0 && out[length - 1] != '/')
                length--;
            if (length > 0)
                length--;
        } else {
            if (length > 0)
                out[length++] = '/';
            memcpy(out + length, part, n);
            length += n;
        }
        part += n + (end != NULL);
    }
    free(joined);
    if (outside || length == 0) {
        free(out);
        return NULL;
    }
    out[length] = '\0';
    return out;
}

/* Reads one env_file entry into env; false (and its SL010) when it cannot
 * be read as Compose would. */
static bool read_env_file(struct collecting *into, const struct env_file_entry *entry,
                          struct dotenv *env)
{
    const struct compose_project *project = into->project;
    if (strcmp(entry->path, "/dev/null") == 0)
        return true;    /* Compose skips it */
    char *relative = below_project(project->env_relative, entry->path);
    if (relative == NULL) {
        env_file_unreadable(into, entry, "names a file outside what this run may read");
        return false;
    }
    struct source_text text;
    char *error = NULL;
    bool read = source_read_at(project->dir_fd, relative, DOTENV_MAX_BYTES, &text,
                               &error) == 0;
    free(relative);
    if (!read) {
        char *why = xasprintf("cannot be read (%s)", error);
        env_file_unreadable(into, entry, why);
        free(why);
        free(error);
        return false;
    }
    struct dotenv_error parse_error = { 0, 0, NULL };
    /* Named in messages as the including project's .env is. */
    const char *slash = strrchr(project->env_display, '/');
    char *display = slash == NULL ? xstrdup(entry->path)
                                  : xasprintf("%.*s/%s", (int)(slash - project->env_display),
                                              project->env_display, entry->path);
    bool parsed = dotenv_parse(env, display, text.data, text.length, &parse_error) == 0;
    free(display);
    source_release(&text);
    if (!parsed) {
        char *why = xasprintf("cannot be read as Compose reads it (%u:%u: %s)",
                              parse_error.line, parse_error.column, parse_error.message);
        env_file_unreadable(into, entry, why);
        free(why);
        dotenv_error_release(&parse_error);
    }
    return parsed;
}

/* The context an include item with env_file hands on (SPEC §13): the
 * including project's variables, then the env_file list's (in order, later
 * ones winning) for unset ones; never the included file's own .env.  An
 * entry that cannot be read: an overflowed context (the file is not
 * checked with them; SL007) and its SL010. */
static char *env_file_context(struct collecting *into,
                              const struct env_file_entry *entries, size_t count,
                              size_t *length)
{
    const char *origin = into->result->display;
    const struct dotenv *own = compose_project_variables(into->project);
    char *flat = compose_context_encode(own, CONTEXT_INCLUDED, origin, length);
    if (compose_context_kind(flat, *length) != CONTEXT_INCLUDED)
        return flat;    /* overflowed, or the own .env unknown */
    struct dotenv including, item;
    dotenv_init(&including, NULL);
    bool ok = compose_context_decode(flat, *length, &including);
    free(flat);
    dotenv_init(&item, &including);
    for (size_t i = 0; ok && i < count; i++)
        ok = read_env_file(into, &entries[i], &item);
    char *context = compose_context_encode(ok ? &item : NULL, CONTEXT_INCLUDED_ENV_FILE,
                                           origin, length);
    dotenv_release(&item);
    dotenv_release(&including);
    return context;
}

/* Why an include item's env_file is not followed. */
enum env_file_form {
    ENV_FILE_FOLLOWED,
    ENV_FILE_OTHER_FORM,        /* not a string or list of 1-16 strings */
    ENV_FILE_UNRESOLVED         /* a variable without a value */
};

/* An include item's env_file: a string or a list of strings, each
 * interpolated with the including file's variables (SPEC §13).  Fills
 * entries (at most max; each path released by the caller, also on
 * failure) and *count. */
static enum env_file_form env_file_entries(struct collecting *into,
                                           const struct sl_node *value,
                                           struct env_file_entry *entries, size_t max,
                                           size_t *count)
{
    *count = 0;
    const struct sl_node *const *items = &value;
    size_t total = 1;
    if (value->kind == SL_NODE_SEQUENCE) {
        items = (const struct sl_node *const *)value->u.sequence.items;
        total = value->u.sequence.count;
    }
    if (total == 0 || total > max)
        return ENV_FILE_OTHER_FORM;
    for (size_t i = 0; i < total; i++) {
        const struct sl_node *item = items[i];
        if (item->kind != SL_NODE_SCALAR || model_is_null(item) ||
            item->u.scalar.length == 0 ||
            memchr(item->u.scalar.text, '\0', item->u.scalar.length) != NULL)
            return ENV_FILE_OTHER_FORM;
        char *path = NULL;
        if (memchr(item->u.scalar.text, '$', item->u.scalar.length) == NULL) {
            path = xstrdup(item->u.scalar.text);
        } else {
            struct compose_resolution resolved;
            if (!compose_project_resolve(into->project, item->u.scalar.text,
                                         item->u.scalar.length, &resolved))
                return ENV_FILE_UNRESOLVED;
            if (resolved.length != 0 &&
                memchr(resolved.text, '\0', resolved.length) == NULL)
                path = xstrndup(resolved.text, resolved.length);
            compose_resolution_release(&resolved);
            if (path == NULL)
                return ENV_FILE_OTHER_FORM;
        }
        entries[*count].node = item;
        entries[(*count)++].path = path;
    }
    return ENV_FILE_FOLLOWED;
}

#define ENV_FILE_MAX_ENTRIES 16

/* An include item's env_file whose path stays unknown: an SL007 error,
 * since the variables of the included file cannot be known. */
static void env_file_unresolved(struct collecting *into, const struct sl_node *value)
{
    struct finding_spec spec = {
        .rule = CORE_RULE_REFERENCE, .severity = SL_SEVERITY_ERROR, .line = value->line,
        .column = value->column,
        .message = "include item env_file uses a variable without a value, so the "
                   "variables Compose reads the included file with cannot be known; it "
                   "was not checked with them",
        .hint = "write the env_file path literally, or give the variable a value in the "
                "project's .env",
    };
    finding_set_add(&into->result->findings, &spec);
    into->result->incomplete = true;
}

/* Follows an include item's env_file where it can: the references the item
 * added (from first on) get its context.  false: not followed. */
static bool follow_env_file(struct collecting *into, const struct sl_node *item, size_t first)
{
    const struct sl_node *value = value_of(item, "env_file");
    struct env_file_entry entries[ENV_FILE_MAX_ENTRIES];
    if (into->project == NULL || into->project->dir_fd < 0 ||
        into->project->env_relative == NULL)
        return false;
    size_t count;
    enum env_file_form form = env_file_entries(into, value, entries, ENV_FILE_MAX_ENTRIES,
                                               &count);
    if (form == ENV_FILE_FOLLOWED) {
        size_t length;
        char *context = env_file_context(into, entries, count, &length);
        for (size_t r = first; r < into->result->reference_count; r++) {
            struct file_reference *reference = &into->result->references[r];
            free(reference->context);
            reference->context = xmemdup(context, length);
            reference->context_length = length;
        }
        free(context);
    }
    for (size_t i = 0; i < count; i++)
        free(entries[i].path);
    if (form == ENV_FILE_UNRESOLVED) {
        /* The run fails; the file is still checked in its own context. */
        env_file_unresolved(into, value);
        return true;
    }
    return form == ENV_FILE_FOLLOWED;
}

/* An include item's project_directory (SPEC §13 "include items"): the
 * references the item added (from first on) carry it as a request, which
 * the coordinator resolves against the including project's directory
 * (compose_context.h).  Written with a variable, it is resolved with this
 * file's; an empty value is Compose's default (the included file's
 * directory). */
static void request_directory(struct collecting *into, const struct sl_node *item,
                              size_t first)
{
    const struct sl_node *value = value_of(item, "project_directory");
    if (value == NULL || model_is_null(value) || first == into->result->reference_count)
        return;
    if (value->kind != SL_NODE_SCALAR ||
        memchr(value->u.scalar.text, '\0', value->u.scalar.length) != NULL) {
        refuse_item_setting(into, item, "project_directory");
        return;
    }
    char *directory = xstrndup(value->u.scalar.text, value->u.scalar.length);
    bool resolved = true;
    if (memchr(directory, '$', value->u.scalar.length) != NULL) {
        struct compose_resolution resolution;
        resolved = into->project != NULL &&
                   compose_project_resolve(into->project, value->u.scalar.text,
                                           value->u.scalar.length, &resolution);
        if (resolved) {
            if (memchr(resolution.text, '\0', resolution.length) == NULL) {
                free(directory);
                directory = xstrndup(resolution.text, resolution.length);
            } else {
                resolved = false;
            }
            compose_resolution_release(&resolution);
        }
    }
    if (directory[0] == '\0') {
        free(directory);
        return;     /* Compose's default */
    }
    for (size_t r = first; r < into->result->reference_count; r++) {
        struct file_reference *reference = &into->result->references[r];
        if (reference->context == NULL) {
            /* An include with no variables to hand on still hands on its
             * directory. */
            const struct dotenv *own =
                into->project != NULL ? compose_project_variables(into->project) : NULL;
            reference->context = compose_context_encode(own, CONTEXT_INCLUDED,
                                                        into->result->display,
                                                        &reference->context_length);
        }
        size_t length;
        char *context = compose_context_request_directory(
            reference->context, reference->context_length, directory, resolved, &length);
        free(reference->context);
        reference->context = context;
        reference->context_length = length;
    }
    free(directory);
}

static void collect_includes(const struct sl_node *root, struct collecting *into)
{
    const struct sl_node *include = value_of(root, "include");
    if (include == NULL)
        return;
    if (include->kind != SL_NODE_SEQUENCE) {
        add_paths(into, REFERENCE_INCLUDE, include);
        return;
    }
    for (size_t i = 0; i < include->u.sequence.count; i++) {
        const struct sl_node *item = include->u.sequence.items[i];
        if (item->kind == SL_NODE_MAPPING) {
            size_t first = into->result->reference_count;
            add_paths(into, REFERENCE_INCLUDE, value_of(item, "path"));
            const struct sl_node *env_file = value_of(item, "env_file");
            if (env_file != NULL && !model_is_null(env_file) &&
                !follow_env_file(into, item, first))
                refuse_item_setting(into, item, "env_file");
            request_directory(into, item, first);
        }
        else
            add_paths(into, REFERENCE_INCLUDE, item);
    }
}

/* extends.file of each service (a string extends names a service of the
 * same file). */
static void collect_extends(const struct sl_node *services, struct collecting *into)
{
    if (services == NULL || services->kind != SL_NODE_MAPPING)
        return;
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct sl_node *service = services->u.mapping.pairs[i].value;
        if (service->kind != SL_NODE_MAPPING)
            continue;
        const struct sl_node *extends = value_of(service, "extends");
        if (extends != NULL && extends->kind == SL_NODE_MAPPING) {
            const struct sl_node *file = value_of(extends, "file");
            if (file != NULL && file->kind == SL_NODE_SCALAR)
                add_paths(into, REFERENCE_EXTENDS, file);
        }
    }
}

void references_collect(const struct yaml_model *model, struct compose_project *project,
                        struct file_result *result)
{
    struct collecting into = { result, project };
    for (size_t d = 0; d < model->document_count; d++) {
        const struct sl_node *root = model->documents[d];
        if (root == NULL || root->kind != SL_NODE_MAPPING)
            continue;
        collect_includes(root, &into);
        const struct sl_node *services = value_of(root, "services");
        /* The legacy format keeps its services at the top level. */
        collect_extends(services != NULL ? services : root, &into);
    }
}

void references_collect_compose_file_variable(struct compose_project *project,
                                              struct file_result *result)
{
    /* docker compose, run in the project's directory without -f, reads
     * the files COMPOSE_FILE of its .env lists (separated by
     * COMPOSE_PATH_SEPARATOR, ':' by default), merged: each is followed
     * as dockerComposeFile is, relative to the project's directory. */
    const struct dotenv *env = project != NULL ? compose_project_variables(project) : NULL;
    if (env == NULL)
        return;
    const struct interpolation_definition *files = dotenv_lookup(env, "COMPOSE_FILE", 12);
    if (files == NULL || !files->has_value || files->value_length == 0 ||
        memchr(files->value, '\0', files->value_length) != NULL)
        return;
    const struct interpolation_definition *separator =
        dotenv_lookup(env, "COMPOSE_PATH_SEPARATOR", 22);
    char split = ':';
    if (separator != NULL && separator->has_value && separator->value_length == 1)
        split = separator->value[0];
    const char *at = files->value, *end = files->value + files->value_length;
    while (at < end) {
        const char *stop = memchr(at, split, (size_t)(end - at));
        if (stop == NULL)
            stop = end;
        if (stop > at) {
            char *path = xstrndup(at, (size_t)(stop - at));
            /* At the file's top: the setting is in the .env, which the
             * message names. */
            file_result_add_reference(result, REFERENCE_COMPOSE_FILE_ENV, 0, 0, path);
            free(path);
        }
        at = stop + 1;
    }
}

void references_collect_devcontainer(const struct yaml_model *model,
                                     struct file_result *result)
{
    /* ${localEnv:X} and the like are not Compose's variables: no project,
     * so an interpolated path stays a warning. */
    struct collecting into = { result, NULL };
    for (size_t d = 0; d < model->document_count; d++) {
        const struct sl_node *root = model->documents[d];
        if (root != NULL && root->kind == SL_NODE_MAPPING)
            add_paths(&into, REFERENCE_COMPOSE_FILE, value_of(root, "dockerComposeFile"));
    }
}

/* A GitLab CI include that GitLab fetches: what names it, for the
 * warning. */
static void add_gitlab_remote(struct collecting *into, const struct sl_node *key,
                              const char *form, const struct sl_node *value)
{
    char *text = value != NULL && value->kind == SL_NODE_SCALAR && !model_is_null(value)
                     ? xasprintf("%s: %s", form, value->u.scalar.text)
                     : xasprintf("%s:", form);
    const struct sl_node *at = value != NULL ? value : key;
    file_result_add_reference(into->result, REFERENCE_GITLAB_REMOTE, at->line, at->column,
                              text);
    free(text);
}

/* One item of a GitLab CI include: a string (a URL is remote: GitLab
 * fetches it; any other a local path), or a mapping with local:, remote:,
 * template:, project:, component: or artifact:. */
static void collect_gitlab_item(struct collecting *into, const struct sl_node *item)
{
    if (item->kind == SL_NODE_SCALAR) {
        if (model_is_null(item) || item->u.scalar.length == 0)
            return;
        if (strncmp(item->u.scalar.text, "https://", 8) == 0 ||
            strncmp(item->u.scalar.text, "http://", 7) == 0)
            add_gitlab_remote(into, item, "remote", item);
        else
            add_paths(into, REFERENCE_GITLAB_INCLUDE, item);
        return;
    }
    if (item->kind != SL_NODE_MAPPING)
        return;
    const struct sl_node *local = value_of(item, "local");
    if (local != NULL && local->kind == SL_NODE_SCALAR)
        add_paths(into, REFERENCE_GITLAB_INCLUDE, local);
    static const char *const fetched[] = { "remote", "template", "project", "component",
                                           "artifact" };
    for (size_t i = 0; i < sizeof(fetched) / sizeof(*fetched); i++) {
        const struct sl_node *key;
        const struct sl_node *value =
            model_mapping_get(item, fetched[i], strlen(fetched[i]), &key);
        if (value != NULL)
            add_gitlab_remote(into, key, fetched[i], value);
    }
}

static void collect_gitlab_includes(struct collecting *into, const struct sl_node *include)
{
    if (include == NULL)
        return;
    if (include->kind != SL_NODE_SEQUENCE) {
        collect_gitlab_item(into, include);
        return;
    }
    for (size_t i = 0; i < include->u.sequence.count; i++)
        collect_gitlab_item(into, include->u.sequence.items[i]);
}

void references_collect_gitlab_ci(const struct yaml_model *model, struct file_result *result)
{
    struct collecting into = { result, NULL };
    for (size_t d = 0; d < model->document_count; d++) {
        const struct sl_node *root = model->documents[d];
        if (root == NULL || root->kind != SL_NODE_MAPPING)
            continue;
        collect_gitlab_includes(&into, value_of(root, "include"));
        /* A job's trigger:include starts a child pipeline from those
         * files, in the same repository. */
        for (size_t i = 0; i < root->u.mapping.count; i++) {
            const struct sl_node *job = root->u.mapping.pairs[i].value;
            if (job->kind != SL_NODE_MAPPING)
                continue;
            const struct sl_node *trigger = value_of(job, "trigger");
            if (trigger != NULL && trigger->kind == SL_NODE_MAPPING)
                collect_gitlab_includes(&into, value_of(trigger, "include"));
        }
    }
}

/* ------------------------------------------------------------------ */
/* resolving (in the coordinator)                                      */
/* ------------------------------------------------------------------ */

void reference_resolver_init(struct reference_resolver *resolver,
                             const struct discovery_walk *walk,
                             const struct registry *registry)
{
    memset(resolver, 0, sizeof(*resolver));
    resolver->walk = walk;
    resolver->registry = registry;
}

void reference_resolver_release(struct reference_resolver *resolver)
{
    for (size_t i = 0; i < resolver->next_count; i++)
        discovered_file_free(resolver->next[i]);
    free(resolver->next);
    string_list_release(&resolver->seen);
    memset(resolver, 0, sizeof(*resolver));
}

static const char *kind_name(int kind)
{
    /* GitLab CI's include and a Compose include read alike. */
    return kind == REFERENCE_EXTENDS            ? "extends.file"
           : kind == REFERENCE_COMPOSE_FILE     ? "dockerComposeFile"
           : kind == REFERENCE_COMPOSE_FILE_ENV ? "COMPOSE_FILE of the project's .env"
                                                : "include";
}

/* Adds the SL007 finding of a reference: a warning, or an error (an
 * unchecked file fails the run, whatever --ignore says). */
static void add_finding(struct file_result *result, const struct registry *registry,
                        const struct file_reference *reference, int severity,
                        const char *format, const char *detail)
{
    if (severity == SL_SEVERITY_WARNING &&
        !registry->rules[CORE_RULE_REFERENCE].enabled)
        return;
    /* The path as written, and what it resolved to when it did. */
    char *shown = reference->path == NULL
                      ? xasprintf("'%s'", reference->text)
                      : xasprintf("'%s' (resolved to '%s': %s)", reference->text,
                                  reference->path, reference->from);
    char *message = xasprintf(format, kind_name(reference->kind), shown, detail);
    free(shown);
    struct finding_spec spec = {
        .rule = CORE_RULE_REFERENCE, .severity = severity, .line = reference->line,
        .column = reference->column, .message = message,
        .hint = severity == SL_SEVERITY_ERROR
                    ? "name the directory that holds the file as an operand, so that "
                      "it is checked, or remove the reference"
                    : "write a literal, local path so that the file can be checked, "
                      "and check the files it can name",
    };
    finding_set_add(&result->findings, &spec);
    if (severity == SL_SEVERITY_ERROR)
        result->incomplete = true;
    free(message);
}

/* A URL, an OCI artifact or a git address: Compose fetches it. */
static bool is_remote(const char *text)
{
    return strstr(text, "://") != NULL || strncmp(text, "oci:", 4) == 0 ||
           strncmp(text, "git@", 4) == 0;
}

static void queue(struct reference_resolver *resolver, struct discovered_file *file)
{
    if (resolver->next_count == resolver->next_capacity) {
        resolver->next_capacity = resolver->next_capacity ? resolver->next_capacity * 2 : 16;
        resolver->next = xrealloc(resolver->next, resolver->next_capacity,
                                  sizeof(*resolver->next));
    }
    resolver->next[resolver->next_count++] = file;
}

/* Whether a .env stands beside the file at real (a Compose project reads
 * it). */
static bool has_own_env(const char *real)
{
    char *directory = path_dirname(real);
    char *env = path_join(directory, ".env");
    struct stat info;
    bool found = lstat(env, &info) == 0 && !S_ISDIR(info.st_mode);
    free(env);
    free(directory);
    return found;
}

/* The file and the context it is checked in: one entry of seen. */
static char *context_key(const char *real, const char *context, size_t length)
{
    char *fingerprint = compose_context_fingerprint(context, length);
    char *key = xasprintf("%s\n%s", real, fingerprint);
    free(fingerprint);
    return key;
}

/* How many contexts other than its own the file at real is queued in. */
static size_t contexts_of(const struct string_list *seen, const char *real)
{
    size_t length = strlen(real), count = 0;
    for (size_t i = 0; i < seen->count; i++)
        count += strncmp(seen->items[i], real, length) == 0 &&
                 seen->items[i][length] == '\n';
    return count;
}

/* add_finding about an include item's project_directory (requested, as
 * Compose reads it), which the format's third %s quotes. */
static void add_directory_finding(struct file_result *result, const struct registry *registry,
                                  const struct file_reference *reference, int severity,
                                  const char *format, const char *requested)
{
    char *detail = xasprintf(" '%s'", requested);
    add_finding(result, registry, reference, severity, format, detail);
    free(detail);
}

/* An include item's project_directory, requested (relative to directory,
 * the including project's real directory, or absolute), as a context in
 * place of context's request: its real path, below base_fd (the included
 * file's operand), and its name.  NULL when it names no directory there:
 * missing, not a directory, a home directory, or outside that operand. */
static char *place_directory(struct reference_resolver *resolver, const char *directory,
                             const char *requested, int base_fd, const char *context,
                             size_t *context_length)
{
    if (requested[0] == '~' || directory == NULL)
        return NULL;
    char *joined = requested[0] == '/' ? xstrdup(requested) : path_join(directory, requested);
    char *real = realpath(joined, NULL);
    free(joined);
    struct stat info;
    struct compose_directory place = { NULL, real, NULL };
    char *placed = NULL;
    if (real != NULL && stat(real, &info) == 0 && S_ISDIR(info.st_mode) &&
        discovery_locate_directory(resolver->walk, real, base_fd, &place.relative,
                                   &place.display))
        placed = compose_context_with_directory(context, *context_length, &place,
                                                context_length);
    compose_directory_release(&place);
    return placed;
}

static void resolve_one(struct reference_resolver *resolver, const char *directory,
                        const char *self, struct file_result *result,
                        const struct file_reference *reference)
{
    const struct registry *registry = resolver->registry;
    const char *text = reference->path != NULL ? reference->path : reference->text;
    bool gitlab = reference->kind == REFERENCE_GITLAB_INCLUDE;
    if (reference->kind == REFERENCE_GITLAB_REMOTE) {
        add_finding(result, registry, reference, SL_SEVERITY_WARNING,
                    "%s %s names a file GitLab fetches or a job makes, which cannot be "
                    "checked%s", "");
        return;
    }
    if (gitlab) {
        /* A local include is relative to the repository's top, with or
         * without a leading '/'. */
        while (text[0] == '/')
            text++;
        if (strchr(text, '*') != NULL) {
            add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                        "%s %s holds a wildcard, which sandlint does not expand%s; the "
                        "files it names were not checked", "");
            return;
        }
        if (text[0] == '\0') {
            add_finding(result, registry, reference, SL_SEVERITY_WARNING,
                        "%s %s names a file that does not exist%s", "");
            return;
        }
    }
    if (reference->path == NULL && compose_has_interpolation(text, strlen(text))) {
        add_finding(result, registry, reference, SL_SEVERITY_WARNING,
                    "%s %s is interpolated, so the file it names cannot be checked%s", "");
        return;
    }
    if (is_remote(text)) {
        add_finding(result, registry, reference, SL_SEVERITY_WARNING,
                    "%s %s is remote and cannot be checked%s", "");
        return;
    }
    if (text[0] == '~' || directory == NULL) {
        add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                    "%s %s names a file outside what this run may read%s; it was "
                    "not checked", text[0] == '~' ? " (a home directory)" : "");
        return;
    }
    char *joined = text[0] == '/' ? xstrdup(text) : path_join(directory, text);
    char *real = realpath(joined, NULL);
    free(joined);
    if (real == NULL) {
        add_finding(result, registry, reference, SL_SEVERITY_WARNING,
                    "%s %s names a file that does not exist%s", "");
        return;
    }
    struct stat info;
    if (self != NULL && strcmp(real, self) == 0) {
        free(real);
        return;     /* a file that includes itself adds nothing */
    }
    if (stat(real, &info) != 0 || !S_ISREG(info.st_mode)) {
        add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                    "%s %s names something that is not a regular file%s; it was "
                    "not checked", "");
        free(real);
        return;
    }
    const char *context = reference->context;
    size_t context_length = reference->context_length;
    if (context != NULL && compose_context_kind(context, context_length) == CONTEXT_OVERFLOW) {
        add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                    "%s %s names a file that Compose interpolates with this file's "
                    "variables, which cannot be handed on to it (its .env cannot be "
                    "read, or holds more than 64 KiB of variables)%s; it was not "
                    "checked with them", "");
        free(real);
        return;
    }
    int record = context != NULL ? compose_context_directory_record(context, context_length)
                                 : CONTEXT_NO_DIRECTORY;
    if (record == CONTEXT_DIRECTORY_MALFORMED || record == CONTEXT_DIRECTORY_RESOLVED) {
        /* A worker names a request, never a place. */
        add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                    "%s %s names a file whose variables could not be handed on%s; it "
                    "was not checked with them", "");
        free(real);
        return;
    }
    char *owned_context = NULL;
    bool requested_resolved = false;
    char *requested = record == CONTEXT_DIRECTORY_REQUESTED
        ? compose_context_requested_directory(context, context_length, &requested_resolved)
        : NULL;
    if (requested != NULL && !requested_resolved) {
        /* Unknown until deploy time: checked in its own directory, and
         * the warning says it may differ. */
        add_directory_finding(result, registry, reference, SL_SEVERITY_WARNING,
                              "%s %s: its project_directory%s is interpolated, so the "
                              "file's relative paths and .env cannot be checked as "
                              "Compose reads them; it is checked in its own directory",
                              requested);
        owned_context = compose_context_with_directory(context, context_length, NULL,
                                                       &context_length);
        context = owned_context;
        free(requested);
        requested = NULL;
        if (reference->kind == REFERENCE_INCLUDE &&
            compose_context_is_empty(context, context_length))
            context = NULL;
    }
    if (context != NULL && compose_context_kind(context, context_length) == CONTEXT_EXTENDED &&
        compose_context_is_empty(context, context_length) && !has_own_env(real))
        context = NULL;     /* no variables either way: its own context */
    struct discovered_file *extra = NULL;
    enum walk_place place = resolver->walk != NULL
        ? discovery_place(resolver->walk, real, &extra) : WALK_OUTSIDE;
    if (gitlab && extra != NULL) {
        /* Checked as GitLab CI; the search checks only .gitlab-ci.yml as
         * such, whatever else it makes of a file. */
        extra->candidates = CANDIDATE_GITLAB_CI;
        char *name = path_basename(real);
        place = strcmp(name, ".gitlab-ci.yml") == 0 || strcmp(name, ".gitlab-ci.yaml") == 0
                    ? WALK_FOUND : WALK_EXTRA;
        free(name);
    }
    if (requested != NULL && extra != NULL) {
        char *placed = place_directory(resolver, directory, requested, extra->base_fd,
                                       context, &context_length);
        free(owned_context);
        owned_context = placed;
        context = placed;
        if (placed == NULL) {
            add_directory_finding(result, registry, reference, SL_SEVERITY_ERROR,
                                  "%s %s: its project_directory%s is not a directory "
                                  "inside the scanned tree that holds the file, so the "
                                  "file was not checked as Compose reads it",
                                  requested);
            discovered_file_free(extra);
            free(requested);
            free(real);
            return;
        }
    }
    free(requested);
    if (place == WALK_FOUND && context == NULL) {
        discovered_file_free(extra);    /* the search checks it as it is */
        extra = NULL;
    }
    char *key = context != NULL ? context_key(real, context, context_length) : xstrdup(real);
    if (place == WALK_OUTSIDE) {
        add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                    "%s %s names a file outside the scanned trees%s; it was not "
                    "checked (name its directory as an operand)", "");
    } else if (extra != NULL) {
        if (string_list_has(&resolver->seen, key)) {
            discovered_file_free(extra);
        } else if (resolver->round + 1 > REFERENCE_MAX_DEPTH ||
                   resolver->seen.count >= REFERENCE_MAX_FILES) {
            discovered_file_free(extra);
            add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                        "%s %s is past the limit of files followed through "
                        "include and extends%s; it was not checked",
                        resolver->round + 1 > REFERENCE_MAX_DEPTH ? " (32 deep)"
                                                                : " (10000 files)");
        } else if (context != NULL &&
                   contexts_of(&resolver->seen, real) >= COMPOSE_CONTEXT_MAX_PER_FILE) {
            discovered_file_free(extra);
            add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                        "%s %s names a file already checked with 8 different sets of "
                        "variables%s; it was not checked with this file's", "");
        } else if (context != NULL &&
                   strlen(key) + context_length >
                       REFERENCE_MAX_CONTEXT_BYTES - resolver->context_bytes) {
            discovered_file_free(extra);
            add_finding(result, registry, reference, SL_SEVERITY_ERROR,
                        "%s %s names a file that Compose interpolates with this file's "
                        "variables, which cannot be handed on to it (past the limit of "
                        "32 MiB of variables handed on in one run)%s; it was not "
                        "checked with them", "");
        } else {
            string_list_add(&resolver->seen, key);
            if (context != NULL) {
                /* Counted whole: the key stays until the run ends. */
                resolver->context_bytes += strlen(key) + context_length;
                extra->context = xmemdup(context, context_length);
                extra->context_length = context_length;
            }
            queue(resolver, extra);
        }
    }
    free(key);
    free(real);
    free(owned_context);
}

/* The repository's top for a GitLab CI file in directory (a real path):
 * the nearest directory, directory itself or above, that holds
 * .gitlab-ci.yml (or .gitlab-ci.yaml); directory when none does. */
static char *gitlab_top(const char *directory)
{
    char *at = xstrdup(directory);
    for (;;) {
        static const char *const names[] = { ".gitlab-ci.yml", ".gitlab-ci.yaml" };
        for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
            char *candidate = path_join(at, names[i]);
            struct stat info;
            bool found = lstat(candidate, &info) == 0;
            free(candidate);
            if (found)
                return at;
        }
        char *slash = strrchr(at, '/');
        if (slash == NULL || slash == at) {
            free(at);
            return xstrdup(directory);
        }
        *slash = '\0';
    }
}

void references_resolve(struct reference_resolver *resolver,
                        const struct discovered_file *file,
                        struct file_result *result)
{
    if (result->reference_count == 0)
        return;
    /* Relative paths start from the real directory of the file, or the
     * project directory its include item names. */
    char *self = file->content == NULL ? realpath(file->absolute, NULL) : NULL;
    char *directory;
    struct compose_directory project;
    if (compose_context_directory(file->context, file->context_length, &project)) {
        directory = project.real;
        project.real = NULL;
        compose_directory_release(&project);
    } else {
        char *lexical = path_dirname(file->absolute);
        directory = realpath(lexical, NULL);
        free(lexical);
    }
    char *top = NULL;
    for (size_t i = 0; i < result->reference_count; i++) {
        const char *base = directory;
        if (result->references[i].kind == REFERENCE_GITLAB_INCLUDE) {
            if (top == NULL && directory != NULL)
                top = gitlab_top(directory);
            base = top;
        }
        resolve_one(resolver, resolver->walk != NULL ? base : NULL, self, result,
                    &result->references[i]);
    }
    free(top);
    free(directory);
    free(self);
}

static int compare_display(const void *a, const void *b)
{
    const struct discovered_file *left = *(struct discovered_file *const *)a;
    const struct discovered_file *right = *(struct discovered_file *const *)b;
    return discover_compare(left->display, right->display);
}

size_t references_next_round(struct reference_resolver *resolver,
                             struct discovered_file ***files)
{
    size_t count = resolver->next_count;
    *files = resolver->next;
    if (count > 1)
        qsort(*files, count, sizeof(**files), compare_display);
    resolver->next = NULL;
    resolver->next_count = resolver->next_capacity = 0;
    if (count > 0)
        resolver->round++;
    return count;
}
