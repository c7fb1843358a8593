/*
 * config_edit.h - the allowlist editor behind --update-allowlist (SPEC §8,
 * §14): adds and removes allowlist entries in the text of a .sandlint.ini or
 * pyproject.toml and leaves every other byte as it was.
 *
 * The editor works on text only: reading the file, writing it atomically,
 * deciding which entries to add (failing findings) and remove (stale
 * entries, narrowed ones), and printing what changed belong to the caller.
 *
 * An entry's scope is a package name, '*' or a path (a scope holding '/',
 * config_file.h); the editor writes whichever it is given.
 *
 * Where entries go:
 *  - An entry of a scope that already has entries in the group goes after
 *    the scope's last entry: in INI one `SCOPE = KEY` line each; in TOML
 *    one more item of its array, in the array's style (one item per line
 *    when the array spans lines, inline otherwise).
 *  - A scope without entries in the group goes at the end of the group's
 *    last section or table (after its last entry, or right after its
 *    header): `SCOPE = KEY` lines, or `SCOPE = ["KEY"]` (one key) and a
 *    multi-line array with a trailing comma (several keys).
 *  - A group without a section or table gets one at the end of the file:
 *    [allowlist GROUP] in INI, [tool.sandlint.allowlists.GROUP] in TOML.
 *    In TOML the group's tables are [tool.sandlint.allowlists.GROUP] and,
 *    for sandbox_privileges and IESC001, the inspect-evals-lint table of
 *    that name, which keeps being used for package scopes when it is the one
 *    that exists; a path scope always goes to sandlint's own table (the
 *    inspect-evals-lint tool reads its table by package).
 *  - New entries of one scope are sorted by key bytes, new scopes by name;
 *    existing lines never move.  Lines end as the file's first line does
 *    (LF or CR LF); a file without a final newline keeps it that way.
 *
 * What removal does:
 *  - INI: the entry's line goes.  The first line of a value continued on
 *    indented lines cannot go alone (its continuations would attach to
 *    another name): an error.
 *  - TOML: the array item goes with its comma (a line of its own goes
 *    whole); an array left empty takes its `SCOPE = [...]` line with it
 *    in a [header] table, and is left as `[]` inside an inline or dotted
 *    table.  Sections and tables left empty stay.
 *
 * What a format cannot hold is refused, never written: INI cannot hold a
 * scope with '=' or ':', text inih would trim or read as a comment, a line
 * over inih's limit, nor - like the TOML writer, which escapes them -
 * controls, bidirectional controls, line and paragraph separators and the
 * byte order mark (utf8_is_hidden_control).
 *
 * Fail closed: the new text is read back with the same readers, and must
 * hold exactly the old entries minus the removed plus the added, and the
 * same settings; otherwise nothing is returned but an error.  A file that
 * does not read, an allowlist written in a form an entry cannot be placed
 * in (an inline or dotted group table, a scope written as one string, a
 * value INI cannot represent) is an error at its line and column.
 *
 * Cost: sorting and hashing, O((entries + changes) log) for a file of any
 * size, so that a baseline of hundreds of thousands of entries updates in
 * moments.
 */
#ifndef SANDLINT_CONFIG_EDIT_H
#define SANDLINT_CONFIG_EDIT_H

#include <stddef.h>

#include "config_file.h"

/* An entry to add.  Borrowed bytes; keys may hold any byte the format can
 * write (INI refuses what inih would read differently). */
struct config_edit_entry {
    const char *group;          /* as the configuration names it (the caller
                                   picks the name the file already uses,
                                   e.g. IESC001 or sandbox_privileges) */
    size_t group_length;
    const char *scope;          /* package name, '*' or path */
    size_t scope_length;
    const char *key;
    size_t key_length;
};

/* What an edit produced. */
struct config_edit_result {
    char *text;                 /* the new file; owned, NUL-terminated */
    size_t length;
    size_t added;               /* entries added (those already present are
                                   not counted) */
    size_t removed;             /* entries removed */
};

/*
 * config_edit_allowlist - the text of a configuration with allowlist
 * entries added and removed.
 *
 * format is CONFIG_INI or CONFIG_TOML.  text (length bytes) is the file's
 * current content, or NULL for no file: the result is then a new
 * .sandlint.ini (format must be CONFIG_INI).  remove holds entries as the
 * same reader parsed them from this text (config->entries): each is found
 * by group, scope, key and the key's position.  An entry both added and
 * removed stays; an entry added twice, or already present, is added once
 * or not at all.
 *
 * Returns 0 and fills *result (release it with config_edit_result_release;
 * result->text equals text when nothing changed - and when nothing is
 * asked, text is returned as it is without being read), or -1 with *error
 * set at the line and column of the problem in text (0:0 when it has
 * none).
 */
int config_edit_allowlist(enum config_format format, const char *text, size_t length,
                          const struct config_edit_entry *add, size_t add_count,
                          const struct allowlist_entry *remove, size_t remove_count,
                          struct config_edit_result *result,
                          struct config_error *error);

void config_edit_result_release(struct config_edit_result *result);

/* Whether .sandlint.ini can hold an entry: 0, or -1 with *problem set to
 * a static description of what it cannot hold and *what to the part
 * ("the scope:", "the key:", ...). */
int config_edit_ini_writable(const struct config_edit_entry *entry, const char **what,
                             const char **problem);

#endif
