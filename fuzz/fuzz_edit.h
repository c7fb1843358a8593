/* fuzz_edit.h - drives the allowlist editor from a fuzz target: on a file
 * that parses, removes every other entry and adds entries to an existing
 * package, a new package and a new group.  The editor may refuse (a value
 * the format cannot hold, a table it cannot place an entry in), but its own
 * read-back check must never fail: that would mean it placed or removed
 * text wrongly. */
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
    struct config_edit_entry add[3];
    size_t add_count = 0;
    if (config->entry_count > 0) {
        const struct allowlist_entry *last = &config->entries[config->entry_count - 1];
        struct config_edit_entry same_package = {
            last->group.text, last->group.length, last->scope.text, last->scope.length,
            "web:cap_add:SYS_ADMIN", 21
        };
        struct config_edit_entry new_package = {
            last->group.text, last->group.length, "zz-new", 6, "web:privileged", 14
        };
        add[add_count++] = same_package;
        add[add_count++] = new_package;
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
