/* scan.c - check one discovered file (see scan.h). */
#include "config.h"

#include "scan.h"

#include <stdlib.h>

#include "comment_list.h"
#include "file_kind.h"
#include "jsonc.h"
#include "compose_context.h"
#include "compose_project.h"
#include "references.h"
#include "sandlint/plugin.h"
#include "source.h"
#include "suppress.h"
#include "xalloc.h"

/* Whether the file is only some YAML file of the tree, searched for
 * Kubernetes objects by content (SPEC §17): no name or setting asked for
 * it. */
static bool found_by_content(const struct file_check *check)
{
    return check->candidates == CANDIDATE_CONTENT;
}

/* A file that could not be read or parsed: an error (file_check_unchecked)
 * - or, for a file found only by content, a warning: nothing says it is
 * meant to be deployed, and Kubernetes cannot apply it as it is. */
static void not_checked(struct file_check *check, enum core_rule rule, unsigned line,
                        unsigned column, const char *message)
{
    if (!found_by_content(check)) {
        file_check_unchecked(check, rule, line, column, message);
        return;
    }
    char *warning = xasprintf("%s (a YAML file found by its content, a line starting "
                              "'apiVersion:'; not checked)", message);
    file_check_core(check, rule, SL_SEVERITY_WARNING, line, column, warning);
    free(warning);
}

/* not_checked for a file that was never read: one found only by content
 * says so without claiming what its content is. */
static void not_read(struct file_check *check, const char *message)
{
    if (!found_by_content(check)) {
        file_check_unchecked(check, CORE_RULE_FILE, 0, 0, message);
        return;
    }
    char *warning = xasprintf("%s (a YAML file searched for Kubernetes objects by its "
                              "content, which could not be read; not checked)", message);
    file_check_core(check, CORE_RULE_FILE, SL_SEVERITY_WARNING, 0, 0, warning);
    free(warning);
}

/* SL010: the .env the file's values were resolved with could not be
 * read (said once per file; neither --ignore nor a suppression hides it:
 * values went unchecked). */
static void env_file_problem(struct file_check *check)
{
    const struct compose_project *project = check->front.compose_project;
    if (project == NULL || project->problem == NULL)
        return;
    file_check_unchecked(check, CORE_RULE_ENV_FILE, 0, 0, project->problem);
}

/* Checks text already read: encoding, model, rules, suppressions.  Takes
 * ownership of text. */
static void scan_source(const struct scan_settings *settings,
                        struct source_text *text, struct file_check *check)
{
    unsigned line = 0, column = 0;
    const char *problem = NULL;
    bool converted = source_utf16_to_utf8(text, &line, &column, &problem) == 0;
    if (converted && found_by_content(check) &&
        !file_kind_sniff_objects(text->data, text->length)) {
        /* No object in it: not parsed at all (SPEC §17's byte scan). */
        check->result.skipped = true;
        source_release(text);
        return;
    }
    if (!converted ||
        source_check_encoding(text->data, text->length, &line, &column, &problem) != 0) {
        if (file_candidates_only_maybe_script(check->candidates)) {
            /* A binary without an extension: no script, nothing to say. */
            check->result.skipped = true;
            source_release(text);
            return;
        }
        char *message = xasprintf("%s; not checked", problem);
        not_checked(check, CORE_RULE_FILE, line, column, message);
        free(message);
        source_release(text);
        return;
    }

    struct comment_list comments;
    comment_list_init(&comments);
    if (file_check_run_text(check, text->data, text->length, &comments)) {
        /* Not YAML: its reader found its comments. */
        if (!check->result.skipped) {
            if (settings->untrusted)
                suppress_refuse_comments(text->data, text->length, &comments, check);
            else
                suppress_apply_comments(text->data, text->length, &comments, check);
        }
        comment_list_release(&comments);
        source_release(text);
        return;
    }
    comment_list_release(&comments);

    struct yaml_model model;
    /* JSON with comments has a reader of its own, which also finds the
     * comments that suppressions are written in. */
    bool json = (check->candidates & CANDIDATE_JSON) != 0;
    comment_list_init(&comments);
    int status;
    if (json)
        status = (int)jsonc_parse(&model, text->data, text->length, &settings->limits,
                                  &comments);
    else
        status = model_parse(&model, text->data, text->length, &settings->limits);
    if (status == MODEL_NO_MEMORY && settings->max_memory != 0) {
        char *message = xasprintf("ran out of memory reading the YAML (the "
                                  "--max-memory limit is %zu MiB); not checked",
                                  settings->max_memory >> 20);
        not_checked(check, CORE_RULE_YAML, 0, 0, message);
        free(message);
    } else if (status != MODEL_OK) {
        not_checked(check, CORE_RULE_YAML, model.error.line,
                             model.error.column, model.error.message
                                                     ? model.error.message
                                                     : "YAML could not be read");
    } else {
        for (size_t i = 0; i < model.warning_count; i++)
            file_check_core(check, CORE_RULE_YAML, SL_SEVERITY_WARNING,
                            model.warnings[i].line,
                            model.warnings[i].column, model.warnings[i].message);
        struct comment_list step_comments;
        comment_list_init(&step_comments);
        file_check_run(check, &model, &step_comments);
        if (!check->result.skipped) {
            if (check->kind == SL_KIND_COMPOSE)
                references_collect(&model, check->front.compose_project, &check->result);
            if (check->kind == SL_KIND_COMPOSE &&
                (check->candidates & CANDIDATE_PROJECT_ENV) != 0 &&
                check->front.compose_project != NULL &&
                check->front.compose_project->handed_on == NULL)
                references_collect_compose_file_variable(check->front.compose_project,
                                                         &check->result);
            env_file_problem(check);
            if (check->kind == SL_KIND_DEVCONTAINER)
                references_collect_devcontainer(&model, &check->result);
            if (check->kind == SL_KIND_GITLAB_CI)
                references_collect_gitlab_ci(&model, &check->result);
            if (json && settings->untrusted) {
                suppress_refuse_comments(text->data, text->length, &comments, check);
            } else if (json) {
                suppress_apply_comments(text->data, text->length, &comments, check);
            } else if (settings->untrusted) {
                suppress_refuse(text->data, text->length, check);
                suppress_refuse_step_comments(text->data, text->length, &step_comments, check);
            } else {
                suppress_apply(text->data, text->length, check);
                suppress_apply_step_comments(text->data, text->length, &step_comments, check);
            }
        }
        comment_list_release(&step_comments);
    }
    model_release(&model);
    comment_list_release(&comments);
    source_release(text);
}

/* Each finding of a file checked in a context another file handed on
 * says so: the same line reads differently with other variables. */
static void name_context(struct file_check *check, const char *origin, int kind,
                         const char *directory)
{
    struct finding_set *set = &check->result.findings;
    char *with = directory != NULL ? xasprintf(" with project directory '%s'", directory)
                                   : xstrdup("");
    for (size_t i = 0; i < set->count; i++) {
        char *message = xasprintf("%s (with the variables of %s, which %s it%s)",
                                  set->items[i].message, origin,
                                  kind == CONTEXT_EXTENDED ? "extends" : "includes", with);
        free(set->items[i].message);
        set->items[i].message = message;
    }
    free(with);
}

/* scan_source with the variables of the file's Compose project (its
 * directory's .env, read when a value needs it): dir_fd -1 for none; and
 * those a including or extending file hands on (context, NULL: none). */
static void scan_in_project(const struct scan_settings *settings, int dir_fd,
                            const char *relative, const char *display,
                            const char *context, size_t context_length,
                            struct source_text *text, struct file_check *check)
{
    struct compose_project project;
    compose_project_init(&project, dir_fd, relative, display);
    char *origin = NULL;
    if (context != NULL) {
        origin = compose_context_origin(context, context_length);
        if (origin == NULL || !compose_project_set_context(&project, context, context_length)) {
            not_checked(check, CORE_RULE_FILE, 0, 0,
                        "the variables handed on by the file that includes or extends "
                        "it could not be used");
            free(origin);
            compose_project_release(&project);
            source_release(text);
            return;
        }
    }
    check->front.compose_project = &project;
    scan_source(settings, text, check);
    check->front.compose_project = NULL;
    compose_project_release(&project);
    struct compose_directory directory;
    if (origin != NULL) {
        bool placed = compose_context_directory(context, context_length, &directory);
        name_context(check, origin, compose_context_kind(context, context_length),
                     placed ? directory.display : NULL);
        if (placed)
            compose_directory_release(&directory);
    }
    free(origin);
}

void scan_file(const struct scan_settings *settings,
               const struct discovered_file *file, struct file_check *check)
{
    file_check_init(check, settings->registry, file->display, file->package);
    check->candidates = file->candidates;
    if (file->problem != NULL && file_candidates_only_maybe_script(file->candidates)) {
        /* A FIFO, a link out of the tree... without an extension: it was
         * only ever a perhaps-script. */
        check->result.skipped = true;
        return;
    }
    if (file->problem != NULL) {
        not_read(check, file->problem);
        return;
    }
    if (file->content != NULL) {
        /* Standard input, read by the coordinator. */
        struct source_text text = { xmemdup(file->content, file->content_length),
                                    file->content_length };
        scan_in_project(settings, -1, NULL, file->display, NULL, 0, &text, check);
        return;
    }
    struct source_text text;
    char *error = NULL;
    /* Relative to the walk's descriptor, following no link (discover.h). */
    if (source_read_at(file->base_fd, file->relative ? file->relative : "",
                       settings->max_file_size, &text, &error) != 0) {
        if (file_candidates_only_maybe_script(file->candidates)) {
            /* Perhaps a script, perhaps a big binary: not one to report. */
            check->result.skipped = true;
            free(error);
            return;
        }
        not_read(check, error);
        free(error);
        return;
    }
    scan_in_project(settings, file->base_fd, file->relative, file->display, file->context,
                    file->context_length, &text, check);
}

void scan_text(const struct scan_settings *settings, const char *data,
               size_t length, const char *display, const char *package,
               unsigned candidates, struct file_check *check)
{
    file_check_init(check, settings->registry, display, package);
    check->candidates = candidates;
    struct source_text text = { xmemdup(data, length), length };
    scan_in_project(settings, -1, NULL, display, NULL, 0, &text, check);
}
