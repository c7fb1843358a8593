/*
 * config_file.h - sandlint's configuration: where the root is, which file holds
 * the settings, and what they say (SPEC §3).
 *
 * Two formats carry the same settings: .sandlint.ini (read with inih) and
 * pyproject.toml ([tool.sandlint], and the allowlists of
 * [tool.inspect-evals-lint] for drop-in use).  Every setting, allowlist
 * entry and rule option keeps the line and column where it was written, so
 * errors and stale entries point into the file.
 *
 * Trust: a configuration found by discovery lies in the scanned tree, which
 * an attacker may have written.  It may name plugins only by name; plugin
 * paths and plugin directories are accepted only from a file that --config
 * named explicitly (config_discover() enforces this).
 */
#ifndef SANDLINT_CONFIG_FILE_H
#define SANDLINT_CONFIG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct config_pos {
    unsigned line, column;      /* 1-based; 0 when unknown */
};

/* The order of two positions in a file (negative, 0, positive). */
int config_pos_compare(struct config_pos a, struct config_pos b);

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

/*
 * What the scope of an allowlist entry names (SPEC §14): the left of `=`
 * in INI, the key of a TOML allowlist table.  A scope holding '/' is a
 * path relative to the root: a directory when it ends in '/', else one
 * file ("./compose.yaml" for a file at the root).  Scopes are literal: a
 * scope that would read as a wildcard (a '*' anywhere but in the scope "*"
 * itself) is a configuration error.
 */
enum allowlist_scope {
    SCOPE_ANY,                  /* "*": every file */
    SCOPE_PACKAGE,              /* a package name: every file of the package */
    SCOPE_DIRECTORY,            /* the files below a directory */
    SCOPE_FILE                  /* one file */
};

struct allowlist_entry {
    struct config_item group;   /* as written: name or group code */
    struct config_item scope;   /* as written: package name, '*' or path */
    struct config_item key;     /* pos = where the entry is written */
    enum allowlist_scope scope_kind;
    char *scope_path;           /* SCOPE_DIRECTORY and SCOPE_FILE: the path
                                   as the report names files (no "./",
                                   directories end in '/', "" for the root
                                   directory); NULL otherwise; owned */
    bool inspect_table;         /* read from [tool.inspect-evals-lint] */
    bool used;                  /* matched a finding of this run */
};

/*
 * The type of a rule option's value.  TOML values carry their type; an INI
 * value is text that the typed getters below parse.
 */
enum config_value_type {
    CONFIG_VALUE_TEXT,          /* INI: text, typed by the getter */
    CONFIG_VALUE_STRING,        /* TOML string */
    CONFIG_VALUE_INTEGER,       /* TOML integer */
    CONFIG_VALUE_BOOLEAN,       /* TOML boolean */
    CONFIG_VALUE_STRING_LIST,   /* TOML array of strings */
    CONFIG_VALUE_OTHER          /* any other TOML value (float, date, table,
                                   array of other things): every getter
                                   reports it as the wrong type */
};

/*
 * One per-rule option (SPEC §10, ABI 1.1): `name = value` in a
 * [rule CODE] section (INI) or a [tool.sandlint.rules.CODE] table (TOML),
 * stored as written.  Whether the rule exists and declares the option is
 * checked later, against the loaded plugins.
 */
struct config_rule_option {
    struct config_item rule;    /* the rule code as written, at its position
                                   in the section header or table name */
    struct config_item name;    /* the option name, at its position */
    enum config_value_type type;
    struct config_pos value_pos;
    struct config_item text;    /* TEXT and STRING: the value (may hold NUL
                                   bytes in TOML); OTHER: the TOML type's name
                                   ("float", "table", ...) for messages */
    int64_t integer;            /* INTEGER */
    bool boolean;               /* BOOLEAN */
    struct config_list list;    /* STRING_LIST: the items, each at its position */
};

enum config_format { CONFIG_NONE = 0, CONFIG_INI, CONFIG_TOML };

struct config {
    enum config_format format;
    char *path;                 /* absolute path of the file read; owned */
    bool named_explicitly;      /* --config named the file: the user vouches
                                   for it, so plugin paths and plugin-dir are
                                   allowed; false for a discovered file */
    struct config_list packages;
    bool has_packages;          /* packages was set (even to nothing) */
    struct config_list select, ignore, plugins, plugin_dirs;
    struct config_list extend_select;  /* selectors added to the selection */
    struct config_list exclude; /* globs relative to the root: files skipped
                                   on purpose */
    struct config_list kubernetes; /* globs relative to the root under which
                                      YAML files may be Kubernetes objects */
    struct allowlist_entry *entries;  /* owned */
    size_t entry_count, entry_capacity;
    struct config_list groups;  /* every allowlist group named, with the
                                   position of its section or table */
    struct config_list own_groups;  /* those of sandlint's own sections and
                                       tables (not inspect-evals-lint's):
                                       where path scopes are written */
    struct config_rule_option *rule_options;  /* owned; in file order; no
                                                 rule has an option twice */
    size_t rule_option_count, rule_option_capacity;
    bool outside_root;          /* the file lies outside the root: no
                                   message quotes its text (config_quote) */
    bool inspect_evals;         /* a [tool.inspect-evals-lint] table exists */
    bool sandlint_table;        /* a [tool.sandlint] table exists */
};

/* A configuration error: "path:line:col: message". */
struct config_error {
    char *message;              /* owned; NULL when there is no error */
    struct config_pos pos;
    bool redact;                /* set by the caller before reading: the
                                   file lies outside the root, so messages
                                   must not quote its text (config_quote) */
};

/*
 * Text of the configuration for a message about it: escaped for a
 * terminal (terminal_escape), or, when error->redact is set, a
 * placeholder that quotes nothing - a configuration outside the root may
 * be any file of the machine, and messages reach CI logs.  Malloc'd.
 */
char *config_quote(const struct config_error *error, const char *text, size_t length);

void config_init(struct config *config);
void config_release(struct config *config);
void config_error_release(struct config_error *error);

/* Records an error (the first one wins).  The message is never cut: text
 * from the file must be passed through terminal_escape() (terminal.h)
 * first. */
void config_fail(struct config_error *error, struct config_pos pos,
                 const char *format, ...) __attribute__((format(printf, 3, 4)));

void config_list_add(struct config_list *list, const char *text,
                     size_t length, struct config_pos pos);
void config_list_release(struct config_list *list);
/*
 * Adds an allowlist entry (copies of the items) after reading its scope:
 * returns 0, or -1 with *error at the scope when it is not a valid scope
 * (allowlist_scope_parse).  inspect_table: the entry comes from an
 * inspect-evals-lint table.
 */
int config_add_entry(struct config *config, const struct config_item *group,
                     const struct config_item *scope, const struct config_item *key,
                     bool inspect_table, struct config_error *error);

/*
 * Reads a scope as written (length bytes): its kind and, for a path, the
 * path as the report names files (*path, malloc'd; NULL for the others).
 * Returns 0, or -1 with *problem set to a static sentence saying what is
 * wrong (absolute, ".", ".." or empty components, a '*').
 */
int allowlist_scope_parse(const char *text, size_t length, enum allowlist_scope *kind,
                          char **path, const char **problem);

/* The scope that names one file, from the path the report gives it
 * (relative to the root): "./NAME" at the root, else the path itself.
 * NULL when no scope can name it (outside the root, absolute, or with a
 * component a scope may not hold).  Malloc'd. */
char *allowlist_scope_of_file(const char *display);

/* Whether a name would read as a wildcard in a scope: a '*' anywhere in
 * it ('*' itself is the scope of every file).  Package directories so
 * named are refused; other glob characters ('?', '[') are ordinary in
 * names and scopes. */
bool allowlist_name_is_wildcard(const char *name, size_t length);

/*
 * Appends a rule option (the items are copied; option->list is moved into
 * the configuration and left empty).  Returns 0, or -1 with *error set
 * when the rule already has an option of that name.
 */
int config_add_rule_option(struct config *config,
                           struct config_rule_option *option,
                           struct config_error *error);

/*
 * config_rule_option_find - the option `name` of the rule `code`, or NULL
 * when the configuration does not set it.  Both are compared byte for
 * byte with what the file wrote.  Borrowed from config.
 *
 * Every option the file sets is config->rule_options[0 ..
 * config->rule_option_count - 1], so a caller that knows which options each
 * rule declares can report the unknown ones at their positions.
 */
const struct config_rule_option *
config_rule_option_find(const struct config *config, const char *code,
                        const char *name);

/*
 * Typed getters.  Each returns 0 and stores the value, or -1 with *error
 * set at the value's position ("option 'depth' of rule SBX003 must be an
 * integer, not ...") when the value has another type.
 *
 * - string: TOML strings; INI text as it is.  *text is borrowed from the
 *   option, *length counts its bytes (a TOML string may hold NUL).
 * - integer: TOML integers; INI text that is a decimal integer with an
 *   optional sign, in the range of int64_t.
 * - boolean: TOML booleans; INI true/false, yes/no, on/off, 1/0 in any case.
 * - list: TOML arrays of strings; INI comma-separated text (comma_list.h),
 *   each item at its column.  Items are appended to *items, which the
 *   caller releases with config_list_release().
 */
int config_rule_option_string(const struct config_rule_option *option,
                              const char **text, size_t *length,
                              struct config_error *error);
int config_rule_option_integer(const struct config_rule_option *option,
                               int64_t *value, struct config_error *error);
int config_rule_option_boolean(const struct config_rule_option *option,
                               bool *value, struct config_error *error);
int config_rule_option_list(const struct config_rule_option *option,
                            struct config_list *items,
                            struct config_error *error);

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

/* config_read_toml() on length bytes of text already in memory. */
int config_parse_toml(struct config *config, const char *text, size_t length,
                      struct config_error *error);

/*
 * Refuses what only a trusted configuration may say: a plugin named by a
 * path (a '/', a name ending in ".so", "." or "..") and any plugin-dir.
 * Returns 0 when config->named_explicitly or nothing is refused, else -1
 * with *error at the offending item.
 */
int config_check_trust(const struct config *config, struct config_error *error);

/*
 * Finds the root and the configuration (SPEC §3, §14):
 *  - with config_file: that file (TOML when it ends in ".toml", else INI),
 *    marked named_explicitly; the root is root_option, else (untrusted) the
 *    current directory, else the file's directory;
 *  - untrusted without config_file: no configuration at all; the root is
 *    root_option or the current directory, never discovered;
 *  - with root_option: its .sandlint.ini, else its pyproject.toml when that
 *    has a sandlint or inspect-evals-lint table;
 *  - else the nearest directory upward from the current one holding one of
 *    those; else the current directory without configuration.
 * root_option must name a directory.  A discovered file must pass
 * config_check_trust().  A file named inside the root that a symbolic link
 * leads out of it is refused; a file outside the root is read with
 * error->redact set, so that no message quotes its text (the caller keeps
 * error->redact for the later checks of the same configuration).  *root
 * receives the absolute root (malloc'd).  Returns 0, or -1 with *error set
 * and *error_path naming the file (malloc'd; NULL when the error is about
 * no file, such as a missing --root).
 */
int config_discover(const char *root_option, const char *config_file, bool untrusted,
                    char **root, struct config *config,
                    struct config_error *error, char **error_path);

/* Largest configuration file read. */
#define CONFIG_MAX_SIZE (16u * 1024 * 1024)

/* Most items a configuration may hold (list items of the settings,
 * allowlist entries, rule options and their items): with CONFIG_MAX_SIZE
 * and TOML_MAX_VALUES, this bounds the memory a configuration takes, which
 * is read before the process is confined.  More is an error at the item
 * that goes over. */
#define CONFIG_MAX_ITEMS 1000000

/* How many items config holds (see CONFIG_MAX_ITEMS). */
size_t config_item_count(const struct config *config);

struct source_text;

/* Reads a configuration file whole.  Returns 0, or -1 with *error set. */
int config_read_text(const char *path, struct source_text *text,
                     struct config_error *error);

/* Appends the items of a comma-separated list of length bytes written at
 * pos (offsets of items in the text give their columns). */
void config_split_list(struct config_list *list, const char *text,
                       size_t length, struct config_pos pos);

#endif
