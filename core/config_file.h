/*
 * config_file.h - sandlint's configuration: where the root is, which file holds
 * the settings, and what they say (SPEC §3).
 *
 * Two formats carry the same settings: .sandlint.ini (read with inih) and
 * pyproject.toml ([tool.sandlint], and the allowlists of
 * [tool.inspect-evals-lint] for drop-in use).  Every setting and allowlist
 * entry keeps the line and column where it was written, so errors and stale
 * entries point into the file.
 */
#ifndef SANDLINT_CONFIG_FILE_H
#define SANDLINT_CONFIG_FILE_H

#include <stdbool.h>
#include <stddef.h>

struct config_pos {
    unsigned line, column;      /* 1-based; 0 when unknown */
};

/* A string written in the config file, with its position. */
struct config_item {
    char *text;                 /* owned, NUL-terminated */
    size_t length;              /* bytes (keys may hold any byte) */
    struct config_pos pos;
};

struct config_list {
    struct config_item *items;  /* owned */
    size_t count, capacity;
};

struct allowlist_entry {
    struct config_item group;   /* as written: name or group code */
    struct config_item package;
    struct config_item key;     /* pos = where the entry is written */
    bool used;                  /* matched a finding of this run */
};

enum config_format { CONFIG_NONE = 0, CONFIG_INI, CONFIG_TOML };

struct config {
    enum config_format format;
    char *path;                 /* absolute path of the file read; owned */
    struct config_list packages;
    bool has_packages;          /* packages was set (even to nothing) */
    struct config_list select, ignore, plugins, plugin_dirs;
    struct allowlist_entry *entries;  /* owned */
    size_t entry_count, entry_capacity;
    struct config_list groups;  /* every allowlist group named, with the
                                   position of its section or table */
    bool inspect_evals;         /* a [tool.inspect-evals-lint] table exists */
    bool sandlint_table;        /* a [tool.sandlint] table exists */
};

/* A configuration error: "path:line:col: message". */
struct config_error {
    char *message;              /* owned; NULL when there is no error */
    struct config_pos pos;
};

void config_init(struct config *config);
void config_release(struct config *config);
void config_error_release(struct config_error *error);

/* Records an error (the first one wins). */
void config_fail(struct config_error *error, struct config_pos pos,
                 const char *format, ...) __attribute__((format(printf, 3, 4)));

void config_list_add(struct config_list *list, const char *text,
                     size_t length, struct config_pos pos);
void config_list_release(struct config_list *list);
void config_add_entry(struct config *config, const struct config_item *group,
                      const struct config_item *package,
                      const struct config_item *key);

/*
 * Reads the INI file at path into config.  Returns 0, or -1 with *error set.
 */
int config_read_ini(struct config *config, const char *path,
                    struct config_error *error);

/* config_read_ini() on length bytes of text already in memory. */
int config_parse_ini(struct config *config, const char *text, size_t length,
                     struct config_error *error);

/*
 * Reads pyproject.toml-style settings at path into config.  Returns 0, or
 * -1 with *error set.  A file without [tool.sandlint] or
 * [tool.inspect-evals-lint] leaves config->format at CONFIG_NONE.
 */
int config_read_toml(struct config *config, const char *path,
                     struct config_error *error);

/*
 * Finds the root and the configuration (SPEC §3):
 *  - with config_file: that file (TOML when it ends in ".toml", else INI);
 *    the root is root_option, else the file's directory;
 *  - with root_option: its .sandlint.ini, else its pyproject.toml when that
 *    has a sandlint or inspect-evals-lint table;
 *  - else the nearest directory upward from the current one holding one of
 *    those; else the current directory without configuration.
 * *root receives the absolute root (malloc'd).  Returns 0, or -1 with *error
 * set and *error_path naming the file (malloc'd, may be NULL).
 */
int config_discover(const char *root_option, const char *config_file,
                    char **root, struct config *config,
                    struct config_error *error, char **error_path);

/* Largest configuration file read. */
#define CONFIG_MAX_SIZE (16u * 1024 * 1024)

struct source_text;

/* Reads a configuration file whole.  Returns 0, or -1 with *error set. */
int config_read_text(const char *path, struct source_text *text,
                     struct config_error *error);

/* Appends the items of a comma-separated list written at pos (offsets of
 * items in the text give their columns). */
void config_split_list(struct config_list *list, const char *text,
                       struct config_pos pos);

#endif
