/* allowlist_update.c - --update-allowlist (see allowlist_update.h). */
#include "config.h"

#include "allowlist_update.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "packages.h"
#include "paths.h"
#include "sandlint/plugin.h"
#include "terminal.h"
#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* preparing: the files that may be written                            */

static void target_init(struct update_target *target)
{
    memset(target, 0, sizeof(*target));
    report_output_init(&target->output);
}

static void target_release(struct update_target *target)
{
    report_output_abort(&target->output);
    free(target->path);
    free(target->display);
    free(target->root_display);
    free(target->text);
    target_init(target);
}

/* path as the user sees it: relative to the current directory. */
static char *shown_path(const char *path)
{
    char *cwd = path_absolute(".");
    char *shown = path_relative(cwd, path);
    free(cwd);
    return shown;
}

/* Reads the file at path (absolute) when it exists and opens its
 * replacement.  Returns 0, or -1 after printing why. */
static int target_open(struct update_target *target, const char *path, const char *root,
                       enum config_format format, const struct scanned_trees *trees)
{
    target->path = xstrdup(path);
    target->display = shown_path(path);
    target->root_display = path_relative(root, path);
    target->format = format;
    return report_output_open_replacing(&target->output, target->path, target->display,
                                        trees, CONFIG_MAX_SIZE, &target->text,
                                        &target->length);
}

void allowlist_update_init(struct allowlist_update *update)
{
    memset(update, 0, sizeof(*update));
    target_init(&update->target);
    target_init(&update->fallback);
}

int allowlist_update_prepare(struct allowlist_update *update,
                             const struct allowlist_update_settings *settings,
                             const struct config *config, const char *root,
                             const struct scanned_trees *trees)
{
    allowlist_update_init(update);
    update->settings = *settings;
    if (config->path != NULL) {
        if (target_open(&update->target, config->path, root, config->format, trees) != 0)
            return -1;
        if (update->target.text == NULL) {
            terminal_error("%s: %s\n", update->target.display, strerror(ENOENT));
            return -1;
        }
        return 0;
    }
    /* No configuration yet: .sandlint.ini is created, unless INI cannot
     * hold an entry and the project has a pyproject.toml to hold it. */
    char *ini = path_join(root, ".sandlint.ini");
    int status = target_open(&update->target, ini, root, CONFIG_INI, trees);
    free(ini);
    if (status != 0)
        return -1;
    char *pyproject = path_join(root, "pyproject.toml");
    struct stat info;
    /* Only a plain, writable file: anything else is left alone, and the
     * entries INI cannot hold are then refused. */
    if (lstat(pyproject, &info) == 0 && S_ISREG(info.st_mode) &&
        access(pyproject, W_OK) == 0 &&
        target_open(&update->fallback, pyproject, root, CONFIG_TOML, trees) != 0) {
        free(pyproject);
        return -1;
    }
    free(pyproject);
    return 0;
}

/* ------------------------------------------------------------------ */
/* deciding: the entries to add                                        */

/* The entries to add, each once. */
struct additions {
    struct config_edit_entry *items;    /* owned, with owned strings */
    size_t count, capacity;
    struct string_set seen;             /* group, scope and key of each */
    size_t *from;                       /* per item: the entry it narrows, or
                                           FINDING_NONE */
};

static void additions_release(struct additions *additions)
{
    for (size_t i = 0; i < additions->count; i++) {
        free((char *)additions->items[i].group);
        free((char *)additions->items[i].scope);
        free((char *)additions->items[i].key);
    }
    free(additions->items);
    free(additions->from);
    string_set_release(&additions->seen);
    memset(additions, 0, sizeof(*additions));
}

/* Adds an entry unless it was added already (two files of one package
 * with the same key make one package entry). */
static void additions_add(struct additions *additions, const char *group, const char *scope,
                          const char *key, size_t key_length, size_t from)
{
    /* Group and scope hold no NUL byte (config_file.h): NULs separate the
     * three parts unambiguously. */
    size_t group_length = strlen(group), scope_length = strlen(scope);
    char *identity = xmalloc(group_length + scope_length + key_length + 2);
    memcpy(identity, group, group_length);
    identity[group_length] = '\0';
    memcpy(identity + group_length + 1, scope, scope_length);
    identity[group_length + 1 + scope_length] = '\0';
    memcpy(identity + group_length + scope_length + 2, key, key_length);
    bool added = string_set_add(&additions->seen, identity,
                                group_length + scope_length + key_length + 2);
    free(identity);
    if (!added)
        return;
    if (additions->count == additions->capacity) {
        additions->capacity = additions->capacity ? additions->capacity * 2 : 32;
        additions->items = xrealloc(additions->items, additions->capacity,
                                    sizeof(*additions->items));
        additions->from = xrealloc(additions->from, additions->capacity,
                                   sizeof(*additions->from));
    }
    struct config_edit_entry *entry = &additions->items[additions->count];
    entry->group = xstrdup(group);
    entry->group_length = group_length;
    entry->scope = xstrdup(scope);
    entry->scope_length = scope_length;
    entry->key = xmemdup(key, key_length);
    entry->key_length = key_length;
    additions->from[additions->count++] = from;
}

/* The name of a rule's group as the configuration already writes it in
 * the tables a scope goes to (inspect-evals-lint tables name
 * sandbox_privileges by its code, IESC001; path scopes go only to
 * sandlint's own tables), else the group's name. */
static const char *group_as_written(const struct config *config,
                                    const struct sl_rule *rule, bool path_scope)
{
    const struct config_list *groups = path_scope ? &config->own_groups : &config->groups;
    for (size_t i = 0; rule->group_code != NULL && i < groups->count; i++)
        if (strcmp(groups->items[i].text, rule->group_code) == 0)
            return rule->group_code;
    return rule->group;
}

/* The scope a new entry for a file gets (malloc'd), or NULL when none can
 * name it (a file outside the root, with no package). */
static char *scope_for(const struct allowlist_update *update, const struct file_result *result)
{
    bool package = result->package != NULL && strcmp(result->package, PACKAGE_ANY) != 0;
    if (update->settings.scope == UPDATE_SCOPE_PACKAGE && package)
        return xstrdup(result->package);
    char *file = allowlist_scope_of_file(result->display);
    if (file != NULL)
        return file;
    return package ? xstrdup(result->package) : NULL;
}

/* Whether a finding gets an entry: failing, or with --strict a warning,
 * or with --allowlist-suppressed one a comment accepts; not one an entry
 * accepts already. */
static bool wants_entry(const struct allowlist_update *update, const struct finding *finding)
{
    if (finding_allowlisted(finding))
        return false;
    if (finding->status == STATUS_FAIL)
        return true;
    if (finding->status == STATUS_SUPPRESSED)
        return update->settings.suppressed;
    return update->settings.strict;
}

/* Adds the entries the findings of one file need; says once when the
 * file's findings cannot be allowlisted. */
static void collect_file(const struct allowlist_update *update, struct additions *additions,
                         const struct config *config, const struct registry *registry,
                         const struct file_result *result)
{
    char *scope = NULL;
    bool said = false;
    for (size_t i = 0; i < result->findings.count; i++) {
        const struct finding *finding = &result->findings.items[i];
        if (!wants_entry(update, finding) || finding->key == NULL ||
            finding->rule < CORE_RULE_COUNT)
            continue;   /* the core's diagnostics: no entry can accept them */
        if (scope == NULL)
            scope = scope_for(update, result);
        if (scope == NULL) {
            if (!said)
                terminal_error("sandlint: the findings of %s cannot be allowlisted: no "
                               "scope names a file outside the root (set --root)\n",
                               result->display);
            said = true;
            continue;
        }
        const struct sl_rule *rule = &registry->rules[finding->rule].rule;
        const char *group = group_as_written(config, rule, strchr(scope, '/') != NULL);
        additions_add(additions, group, scope, finding->key, finding->key_length,
                      FINDING_NONE);
    }
    free(scope);
}

/* ------------------------------------------------------------------ */
/* deciding: --narrow                                                  */

/* What narrowing learns from the findings. */
struct narrowing {
    const struct config *config;
    bool *wanted;               /* per entry: '*' or package, sandlint's own
                                   table, used, its scope fully checked */
    bool *blocked;              /* per entry: it accepts a finding no file
                                   scope can name */
    struct additions *additions;
    const struct registry *registry;
    const struct file_result *result;
    const struct finding *finding;
    char *file_scope;           /* of result; NULL when none */
};

static void narrow_visit(void *data, size_t entry)
{
    struct narrowing *narrowing = data;
    if (!narrowing->wanted[entry])
        return;
    if (narrowing->file_scope == NULL) {
        narrowing->blocked[entry] = true;
        return;
    }
    const struct sl_rule *rule = &narrowing->registry->rules[narrowing->finding->rule].rule;
    additions_add(narrowing->additions, group_as_written(narrowing->config, rule, true),
                  narrowing->file_scope, narrowing->finding->key,
                  narrowing->finding->key_length, entry);
}

/* Whether a '*' or package entry may be narrowed: the run read every file
 * it can cover, so the file entries that replace it cover all it did. */
static bool narrowable(const struct allowlist_entry *entry,
                       const struct allowlist_coverage *coverage,
                       const struct allowlist_incomplete *incomplete)
{
    if (entry->scope_kind == SCOPE_ANY)
        return coverage->package_checked(coverage->data, PACKAGE_ANY) &&
               incomplete->packages.count == 0;
    return coverage->package_checked(coverage->data, entry->scope.text) &&
           !string_set_has(&incomplete->packages, entry->scope.text, entry->scope.length);
}

/* Marks in *narrowed the entries --narrow replaces, and adds the file
 * entries that replace them. */
static void narrow(struct allowlist_update *update, struct additions *additions,
                   const struct config *config, const struct registry *registry,
                   struct allowlist_index *index, const struct file_result *results,
                   size_t count, const struct allowlist_coverage *coverage,
                   const struct allowlist_incomplete *incomplete, bool *narrowed)
{
    struct narrowing narrowing = {
        .config = config,
        .wanted = xcalloc(config->entry_count + 1, sizeof(bool)),
        .blocked = xcalloc(config->entry_count + 1, sizeof(bool)),
        .additions = additions,
        .registry = registry,
    };
    bool any = false;
    for (size_t e = 0; e < config->entry_count; e++) {
        const struct allowlist_entry *entry = &config->entries[e];
        if (!entry->used || entry->inspect_table ||
            (entry->scope_kind != SCOPE_ANY && entry->scope_kind != SCOPE_PACKAGE))
            continue;
        if (coverage == NULL || !narrowable(entry, coverage, incomplete)) {
            char *scope = terminal_escape(entry->scope.text, entry->scope.length);
            terminal_error("sandlint: %s:%u:%u: '%s' entry not narrowed: this run did not "
                           "check every file it covers\n", update->target.root_display,
                           entry->key.pos.line, entry->key.pos.column, scope);
            free(scope);
            continue;
        }
        narrowing.wanted[e] = any = true;
    }
    /* Narrowed additions are marked with their entry, so that those of an
     * entry that stays are dropped. */
    size_t first = additions->count;
    for (size_t r = 0; any && r < count; r++) {
        narrowing.result = &results[r];
        narrowing.file_scope = allowlist_scope_of_file(results[r].display);
        for (size_t f = 0; f < results[r].findings.count; f++) {
            narrowing.finding = &results[r].findings.items[f];
            allowlist_each_match(index, config, registry, &results[r], narrowing.finding,
                                 narrow_visit, &narrowing);
        }
        free(narrowing.file_scope);
    }
    for (size_t e = 0; e < config->entry_count; e++) {
        narrowed[e] = narrowing.wanted[e] && !narrowing.blocked[e];
        if (narrowing.wanted[e] && narrowing.blocked[e])
            terminal_error("sandlint: %s:%u:%u: entry not narrowed: it accepts findings of "
                           "a file that no path scope names\n", update->target.root_display,
                           config->entries[e].key.pos.line, config->entries[e].key.pos.column);
    }
    /* Drop the additions of entries that stay (kept in order). */
    size_t kept = first;
    for (size_t a = first; a < additions->count; a++) {
        if (narrowed[additions->from[a]]) {
            additions->items[kept] = additions->items[a];
            additions->from[kept++] = additions->from[a];
        } else {
            free((char *)additions->items[a].group);
            free((char *)additions->items[a].scope);
            free((char *)additions->items[a].key);
        }
    }
    additions->count = kept;
    free(narrowing.wanted);
    free(narrowing.blocked);
}

/* ------------------------------------------------------------------ */
/* deciding: 0.2's keys rewritten                                      */

/* What rewriting learns from the findings: which entries match a finding
 * by their own key, and which only in 0.2's form (a Kubernetes key
 * without its namespace, SPEC §17). */
struct rewriting {
    const struct config *config;
    const struct registry *registry;
    struct additions *additions;
    const struct file_result *result;
    const struct finding *finding;
    size_t prefix;              /* of the finding's key: "NAMESPACE/" */
    bool *exact;                /* per entry */
    bool *old_form;             /* per entry */
};

static void rewrite_visit(void *data, size_t number)
{
    struct rewriting *rewriting = data;
    const struct allowlist_entry *entry = &rewriting->config->entries[number];
    const struct finding *finding = rewriting->finding;
    if (entry->key.length == finding->key_length) {
        rewriting->exact[number] = true;
        return;
    }
    if (rewriting->prefix == 0)
        return;
    /* The entry's scope, except '*' (never written): the file's. */
    char *scope = entry->scope_kind == SCOPE_ANY
                      ? allowlist_scope_of_file(rewriting->result->display)
                      : xstrdup(entry->scope.text);
    if (scope == NULL)
        return;     /* no scope can name the file: the entry stays */
    rewriting->old_form[number] = true;
    const struct sl_rule *rule = &rewriting->registry->rules[finding->rule].rule;
    additions_add(rewriting->additions,
                  group_as_written(rewriting->config, rule, strchr(scope, '/') != NULL),
                  scope, finding->key, finding->key_length, number);
    free(scope);
}

/* Adds the new form of every entry written in 0.2's form, and marks in
 * *replaced those that no finding matches by their own key any more. */
static void rewrite_old_forms(struct additions *additions, const struct config *config,
                              const struct registry *registry, struct allowlist_index *index,
                              const struct file_result *results, size_t count,
                              bool *replaced)
{
    struct rewriting rewriting = {
        .config = config, .registry = registry, .additions = additions,
        .exact = xcalloc(config->entry_count + 1, sizeof(bool)),
        .old_form = xcalloc(config->entry_count + 1, sizeof(bool)),
    };
    for (size_t r = 0; r < count; r++) {
        rewriting.result = &results[r];
        for (size_t f = 0; f < results[r].findings.count; f++) {
            const struct finding *finding = &results[r].findings.items[f];
            if (finding->key == NULL || !finding_allowlisted(finding))
                continue;
            rewriting.finding = finding;
            rewriting.prefix = allowlist_namespace_length(finding->key, finding->key_length);
            allowlist_each_match(index, config, registry, &results[r], finding, rewrite_visit,
                                 &rewriting);
        }
    }
    for (size_t e = 0; e < config->entry_count; e++)
        replaced[e] = rewriting.old_form[e] && !rewriting.exact[e];
    free(rewriting.exact);
    free(rewriting.old_form);
}

/* ------------------------------------------------------------------ */
/* editing                                                             */

static void print_edit_error(const struct update_target *target,
                             const struct config_error *error)
{
    if (error->pos.line != 0)
        terminal_error("%s:%u:%u: %s\n", target->display, error->pos.line,
                       error->pos.column, error->message);
    else
        terminal_error("%s: %s\n", target->display, error->message);
    terminal_error("sandlint: the configuration was not changed\n");
}

/* The first addition INI cannot hold, or NULL. */
static const struct config_edit_entry *not_for_ini(const struct additions *additions,
                                                   const char **what, const char **problem)
{
    for (size_t a = 0; a < additions->count; a++)
        if (config_edit_ini_writable(&additions->items[a], what, problem) != 0)
            return &additions->items[a];
    return NULL;
}

/* Which file to write: the configuration, or (creating one, when INI cannot
 * hold an entry) pyproject.toml.  Returns it, or NULL after printing why. */
static struct update_target *choose_target(struct allowlist_update *update,
                                           const struct additions *additions)
{
    struct update_target *target = &update->target;
    if (target->format != CONFIG_INI)
        return target;
    const char *what, *problem;
    const struct config_edit_entry *refused = not_for_ini(additions, &what, &problem);
    if (refused == NULL)
        return target;
    if (target->text == NULL && update->fallback.path != NULL &&
        update->fallback.text != NULL)
        return &update->fallback;
    char *scope = terminal_escape(refused->scope, refused->scope_length);
    char *key = terminal_escape(refused->key, refused->key_length);
    terminal_error("%s: cannot write the allowlist entry '%s = %s': %s %s; INI cannot hold "
                   "it, so write the configuration in pyproject.toml ([tool.sandlint]) "
                   "and run again\n", target->display, scope, key, what, problem);
    terminal_error("sandlint: the configuration was not changed\n");
    free(scope);
    free(key);
    return NULL;
}

static int parse_text(enum config_format format, const char *text, size_t length,
                      struct config *config, struct config_error *error)
{
    config_init(config);
    return format == CONFIG_INI ? config_parse_ini(config, text, length, error)
                                : config_parse_toml(config, text, length, error);
}

int allowlist_update_edit(struct allowlist_update *update, struct config *config,
                          const struct registry *registry, struct allowlist_index *index,
                          const struct file_result *results, size_t count,
                          const struct allowlist_coverage *coverage,
                          const struct allowlist_incomplete *incomplete)
{
    struct additions additions;
    memset(&additions, 0, sizeof(additions));
    for (size_t r = 0; r < count; r++)
        collect_file(update, &additions, config, registry, &results[r]);
    bool *narrowed = xcalloc(config->entry_count + 1, sizeof(bool));
    bool *replaced = xcalloc(config->entry_count + 1, sizeof(bool));
    rewrite_old_forms(&additions, config, registry, index, results, count, replaced);
    if (update->settings.narrow)
        narrow(update, &additions, config, registry, index, results, count, coverage,
               incomplete, narrowed);
    struct allowlist_entry *remove = xcalloc(config->entry_count + 1, sizeof(*remove));
    size_t remove_count = 0, narrowed_count = 0;
    for (size_t e = 0; e < config->entry_count; e++) {
        narrowed_count += narrowed[e];
        if (narrowed[e] || replaced[e] ||
            allowlist_entry_stale(&config->entries[e], registry, coverage, incomplete))
            remove[remove_count++] = config->entries[e];
    }
    free(narrowed);
    free(replaced);
    update->requested = additions.count;
    int status = -1;
    struct update_target *target = choose_target(update, &additions);
    struct config_edit_result edit;
    struct config_error error = { NULL, { 0, 0 }, false };
    memset(&edit, 0, sizeof(edit));
    if (target != NULL) {
        /* Entries to remove come from the configuration in use; the
         * fallback (a pyproject.toml that was not the configuration) has
         * none. */
        bool fallback = target == &update->fallback;
        status = config_edit_allowlist(target->format, target->text, target->length,
                                       additions.items, additions.count, remove,
                                       fallback ? 0 : remove_count, &edit, &error);
        if (status != 0)
            print_edit_error(target, &error);
    }
    config_error_release(&error);
    free(remove);
    additions_release(&additions);
    if (status != 0)
        return -1;

    update->chosen = target;
    update->root_display = target->root_display;
    update->edited = edit.text;
    update->edited_length = edit.length;
    update->added = edit.added;
    update->removed = edit.removed;
    update->narrowed = narrowed_count;
    if (edit.added == 0 && edit.removed == 0)
        return 0;   /* the configuration as read is the one after the change */
    update->changed = true;
    /* The run after the change: the edited text read back. */
    struct config edited;
    if (parse_text(target->format == CONFIG_NONE ? CONFIG_INI : target->format, edit.text,
                   edit.length, &edited, &error) != 0) {
        print_edit_error(target, &error);
        config_error_release(&error);
        config_release(&edited);
        update->chosen = NULL;
        update->changed = false;
        return -1;
    }
    if (edited.format == CONFIG_NONE)
        edited.format = target->format;
    edited.path = xstrdup(target->path);
    edited.named_explicitly = config->named_explicitly;
    edited.outside_root = config->outside_root;
    config_release(config);
    *config = edited;
    return 0;
}

int allowlist_update_commit(struct allowlist_update *update)
{
    struct update_target *target = update->chosen;
    if (target == NULL)
        return -1;
    if (update->added == 0 && update->removed == 0) {
        /* Nothing to change: the file is not even rewritten. */
        report_output_abort(&target->output);
    } else if (fwrite(update->edited, 1, update->edited_length, target->output.stream) !=
                   update->edited_length ||
               report_output_commit(&target->output) != 0) {
        terminal_error("sandlint: %s was not changed\n", target->display);
        report_output_abort(&target->output);
        return -1;
    }
    if (update->narrowed > 0)
        terminal_error("narrowed %zu '*' and package entries into file entries\n",
                       update->narrowed);
    terminal_error("added %zu, removed %zu entries in %s\n", update->added, update->removed,
                   target->display);
    return 0;
}

void allowlist_update_release(struct allowlist_update *update)
{
    target_release(&update->target);
    target_release(&update->fallback);
    free(update->edited);
    allowlist_update_init(update);
}
