/* allowlist_update.c - --update-allowlist (see allowlist_update.h). */
#include "config.h"

#include "allowlist_update.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "source.h"
#include "terminal.h"
#include "xalloc.h"

static void update_init(struct allowlist_update *update)
{
    memset(update, 0, sizeof(*update));
    update->output.finisher = -1;
    update->output.command_fd = update->output.reply_fd = -1;
}

/* path as the user sees it: relative to the current directory. */
static char *shown_path(const char *path)
{
    char *cwd = path_absolute(".");
    char *shown = path_relative(cwd, path);
    free(cwd);
    return shown;
}

int allowlist_update_prepare(struct allowlist_update *update,
                             const struct config *config, const char *root)
{
    update_init(update);
    update->path = config->path != NULL ? xstrdup(config->path)
                                        : path_join(root, ".sandlint.ini");
    update->display = shown_path(update->path);
    update->format = config->format != CONFIG_NONE ? config->format : CONFIG_INI;
    struct stat info;
    if (stat(update->path, &info) == 0) {
        /* Root may write anything: a file nobody may write is read-only
         * on purpose. */
        if (!S_ISREG(info.st_mode) || (info.st_mode & 0222) == 0 ||
            access(update->path, W_OK) != 0) {
            terminal_error("%s: the configuration is %s; --update-allowlist cannot "
                           "change it\n", update->display,
                           S_ISREG(info.st_mode) ? "read-only" : "not a regular file");
            return -1;
        }
        struct source_text text;
        struct config_error error = { NULL, { 0, 0 } };
        if (config_read_text(update->path, &text, &error) != 0) {
            terminal_error("%s: %s\n", update->display, error.message);
            config_error_release(&error);
            return -1;
        }
        update->text = text.data;
        update->length = text.length;
    } else if (config->path != NULL) {
        terminal_error("%s: %s\n", update->display, strerror(errno));
        return -1;
    }
    return report_output_open_replacing(&update->output, update->path);
}

/* The name of a rule's group as the configuration already writes it
 * (inspect-evals-lint tables name sandbox_privileges by its code, IESC001),
 * else the group's name. */
static const char *group_as_written(const struct config *config,
                                    const struct sl_rule *rule)
{
    for (size_t i = 0; rule->group_code != NULL && i < config->groups.count; i++)
        if (strcmp(config->groups.items[i].text, rule->group_code) == 0)
            return rule->group_code;
    return rule->group;
}

static bool same_bytes(const char *a, size_t a_length, const char *b, size_t b_length)
{
    return a_length == b_length && memcmp(a, b, a_length) == 0;
}

static bool already_added(const struct allowlist_update *update, const char *group,
                          const char *package, const struct finding *finding)
{
    for (size_t i = 0; i < update->add_count; i++) {
        const struct config_edit_entry *entry = &update->add[i];
        if (same_bytes(entry->key, entry->key_length, finding->key, finding->key_length) &&
            strcmp(entry->package, package) == 0 && strcmp(entry->group, group) == 0)
            return true;
    }
    return false;
}

void allowlist_update_collect(struct allowlist_update *update,
                              const struct file_result *result,
                              const struct registry *registry,
                              const struct config *config)
{
    const char *package = result->package != NULL ? result->package : "*";
    for (size_t i = 0; i < result->findings.count; i++) {
        const struct finding *finding = &result->findings.items[i];
        /* Interpolation warnings are not added (SPEC §8), nor the core's
         * diagnostics, which no entry can accept. */
        if (finding->status != STATUS_FAIL)
            continue;
        if (finding->key == NULL || finding->rule < CORE_RULE_COUNT) {
            update->unaccepted++;
            continue;
        }
        const char *group = group_as_written(config, &registry->rules[finding->rule].rule);
        if (already_added(update, group, package, finding))
            continue;
        if (update->add_count == update->add_capacity) {
            update->add_capacity = update->add_capacity ? update->add_capacity * 2 : 32;
            update->add = xrealloc(update->add, update->add_capacity, sizeof(*update->add));
        }
        struct config_edit_entry *entry = &update->add[update->add_count++];
        entry->group = xstrdup(group);
        entry->group_length = strlen(group);
        entry->package = xstrdup(package);
        entry->package_length = strlen(package);
        entry->key = xmemdup(finding->key, finding->key_length);
        entry->key_length = finding->key_length;
    }
}

int allowlist_update_finish(struct allowlist_update *update,
                            const struct config *config,
                            const struct registry *registry,
                            allowlist_coverage_fn fully_checked, void *coverage_data,
                            const struct string_list *incomplete)
{
    struct allowlist_entry *remove = xcalloc(config->entry_count + 1, sizeof(*remove));
    size_t remove_count = 0;
    for (size_t e = 0; e < config->entry_count; e++)
        if (allowlist_entry_stale(&config->entries[e], registry, fully_checked,
                                  coverage_data, incomplete))
            remove[remove_count++] = config->entries[e];
    struct config_edit_result edit;
    struct config_error error = { NULL, { 0, 0 } };
    int status = config_edit_allowlist(update->format, update->text, update->length,
                                       update->add, update->add_count, remove,
                                       remove_count, &edit, &error);
    free(remove);
    if (status != 0) {
        if (error.pos.line != 0)
            terminal_error("%s:%u:%u: %s\n", update->display, error.pos.line,
                           error.pos.column, error.message);
        else
            terminal_error("%s: %s\n", update->display, error.message);
        terminal_error("sandlint: the configuration was not changed\n");
        config_error_release(&error);
        report_output_abort(&update->output);
        return -1;
    }
    if (edit.added == 0 && edit.removed == 0) {
        /* Nothing to change: the file is not even rewritten. */
        report_output_abort(&update->output);
    } else if (fwrite(edit.text, 1, edit.length, update->output.stream) != edit.length ||
               report_output_commit(&update->output) != 0) {
        terminal_error("sandlint: %s was not changed\n", update->display);
        report_output_abort(&update->output);
        config_edit_result_release(&edit);
        return -1;
    }
    terminal_error("added %zu, removed %zu entries in %s\n", edit.added, edit.removed,
                   update->display);
    config_edit_result_release(&edit);
    return 0;
}

void allowlist_update_release(struct allowlist_update *update)
{
    report_output_abort(&update->output);
    for (size_t i = 0; i < update->add_count; i++) {
        free((char *)update->add[i].group);
        free((char *)update->add[i].package);
        free((char *)update->add[i].key);
    }
    free(update->add);
    free(update->text);
    free(update->path);
    free(update->display);
    update_init(update);
}
