/* fuzz_edit.h - drives the allowlist editor from a fuzz target: on a file
 * that parses, removes every other entry and adds entries to an existing
 * scope, a new package, new file and directory scopes (which never go to
 * an inspect-evals-lint table), a file at the root, one under the first
 * entry's group taken from the input, and a new group.  The editor may
 * refuse (a value the format cannot hold, a table it cannot place an entry
 * in), but its own read-back check must never fail: that would mean it
 * placed or removed text wrongly.  What it writes must read back as the
 * same scopes: path scopes stay paths. */
#ifndef SANDLINT_FUZZ_EDIT_H
#define SANDLINT_FUZZ_EDIT_H

#include <stdlib.h>
#include <string.h>

#include "config_edit.h"
#include "config_file.h"

static void fuzz_edit_allowlist(enum config_format format, const char *text, size_t length,
                                const struct config *config)
{
    struct allowlist_entry remove[16];
    size_t remove_count = 0;
    for (size_t i = 0; i < config->entry_count && remove_count < 16; i += 2)
        remove[remove_count++] = config->entries[i];
    struct config_edit_entry add[8];
    size_t add_count = 0;
    if (config->entry_count > 0) {
        const struct allowlist_entry *last = &config->entries[config->entry_count - 1];
        const struct allowlist_entry *first = &config->entries[0];
        struct config_edit_entry same_scope = {
            last->group.text, last->group.length, last->scope.text, last->scope.length,
            "web:cap_add:SYS_ADMIN", 21
        };
        struct config_edit_entry new_package = {
            last->group.text, last->group.length, "zz-new", 6, "web:privileged", 14
        };
        struct config_edit_entry new_file = {
            last->group.text, last->group.length, "evals/a/compose.yaml", 20,
            "web:privileged", 14
        };
        struct config_edit_entry new_directory = {
            first->group.text, first->group.length, "evals/b/", 8, "web:pid:host", 12
        };
        struct config_edit_entry root_file = {
            first->group.text, first->group.length, "./compose.yaml", 14,
            "web:privileged", 14
        };
        /* A path made of the input's own key, where it can be one. */
        struct config_edit_entry input_path = {
            first->group.text, first->group.length, first->key.text, first->key.length,
            "k", 1
        };
        add[add_count++] = same_scope;
        add[add_count++] = new_package;
        add[add_count++] = new_file;
        add[add_count++] = new_directory;
        add[add_count++] = root_file;
        enum allowlist_scope kind;
        char *path = NULL;
        const char *problem;
        if (memchr(first->key.text, '/', first->key.length) != NULL &&
            allowlist_scope_parse(first->key.text, first->key.length, &kind, &path,
                                  &problem) == 0)
            add[add_count++] = input_path;
        free(path);
    }
    struct config_edit_entry new_group = {
        "fuzz_group", 10, "*", 1, "a:b \"c\" \\d", 11
    };
    add[add_count++] = new_group;
    struct config_edit_result result;
    struct config_error error = { NULL, { 0, 0 }, false };
    if (config_edit_allowlist(format, text, length, add, add_count, remove, remove_count,
                              &result, &error) == 0) {
        config_edit_result_release(&result);
    } else if (error.message != NULL &&
               strncmp(error.message, "cannot update the allowlist safely",
                       strlen("cannot update the allowlist safely")) == 0) {
        __builtin_trap();
    }
    config_error_release(&error);
}

#endif
