/*
 * registry.h - the loaded plugins and their rules, and rule selection.
 *
 * The registry owns copies of every plugin descriptor and rule (zero-filled
 * past the size the plugin declared), so the core reads every field of the
 * ABI version it knows whatever version the plugin was built for.  Strings
 * inside the copies still point into the plugins, which are never unloaded.
 *
 * Rules 0..CORE_RULE_COUNT-1 are the core's own diagnostics (SL001...).
 */
#ifndef SANDLINT_REGISTRY_H
#define SANDLINT_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "sandlint/plugin.h"
#include "string_list.h"

/* The core's diagnostics, always registered first, in this order. */
enum core_rule {
    CORE_RULE_FILE = 0,         /* SL001: a file cannot be read */
    CORE_RULE_YAML,             /* SL002: YAML errors and limits */
    CORE_RULE_STRUCTURE,        /* SL003: not a Compose structure */
    CORE_RULE_SUPPRESSION,      /* SL004: suppression comment problems */
    CORE_RULE_STALE,            /* SL005: stale allowlist entries */
    CORE_RULE_PLUGIN,           /* SL006: a plugin failed on a file */
    CORE_RULE_REFERENCE,        /* SL007: a file named by include or
                                   extends could not be checked */
    CORE_RULE_NOT_UNDERSTOOD,   /* SL008: security settings sandlint
                                   cannot place */
    CORE_RULE_TEMPLATED,        /* SL009: Helm template text where the
                                   file's structure is (SPEC §17) */
    CORE_RULE_ENV_FILE,         /* SL010: a .env that cannot be read */
    CORE_RULE_COMMAND_LINE,     /* SL011: an engine command line that
                                   cannot be split or read */
    CORE_RULE_COUNT
};

#define CORE_PLUGIN_NAME "sandlint"
#define CORE_GROUP "sandlint"

struct loaded_plugin {
    struct sl_plugin descriptor;  /* copy of the plugin's descriptor */
    char *path;                   /* owned; NULL for the core */
    void *handle;                 /* dlopen handle, never closed */
    unsigned declared_minor;      /* ABI minor the plugin was built for */
};

/*
 * An option a rule declares (ABI 1.1), and the value the configuration
 * gives it.  Without one the declared default applies (rule_option_*
 * getters below answer either way).
 */
struct rule_option {
    struct sl_option declared;    /* copy, zero-filled past the plugin's
                                     size; strings point into the plugin */
    bool configured;              /* the configuration sets a value */
    char *string;                 /* STRING; owned, NUL-terminated */
    size_t string_length;         /* bytes (a TOML string may hold NUL) */
    long long integer;            /* INTEGER */
    bool boolean;                 /* BOOLEAN */
    char **items;                 /* LIST; owned, NUL-terminated */
    size_t *item_lengths;         /* owned */
    size_t item_count;
};

struct rule_entry {
    struct sl_rule rule;          /* copy; strings point into the plugin */
    size_t plugin;                /* index into registry.plugins */
    bool enabled;                 /* after --select / --ignore */
    struct rule_option *options;  /* owned; the rule's declared options */
    size_t option_count;
    int severity;                 /* the configured severity (`severity =`
                                     under [rule CODE], rule_options.h):
                                     SL_SEVERITY_ERROR or _WARNING, or
                                     SL_SEVERITY_DEFAULT when not set */
};

/* The option name every rule answers to for its configured severity; no
 * plugin may declare an option of that name. */
#define RESERVED_OPTION_SEVERITY "severity"

/* The severity a rule's findings take by default in this run: the
 * configured one, else the rule's own default. */
int rule_entry_severity(const struct rule_entry *entry);

struct registry {
    struct loaded_plugin *plugins;  /* owned array */
    size_t plugin_count;
    struct rule_entry *rules;       /* owned array */
    size_t rule_count;
};

/* Initialises a registry holding only the core rules (all enabled). */
void registry_init(struct registry *registry);
/* Frees the registry's memory; loaded plugins stay mapped. */
void registry_release(struct registry *registry);

/* The registry's rule code for a rule index (for sorting). */
const char *registry_rule_code(const struct registry *registry, size_t rule);

/* Registers an already validated descriptor (used by unit tests and for
 * the same checks as registry_load_plugin without dlopen). */
int registry_add_descriptor(struct registry *registry, const char *path,
                            const struct sl_plugin *descriptor,
                            char **error);

/* Whether selector names rule: code, code prefix, name, group, group code. */
bool registry_selector_matches(const struct rule_entry *rule,
                               const char *selector);

/* Whether selector names at least one registered rule. */
bool registry_selector_known(const struct registry *registry,
                             const char *selector);

/* Which rules run.  Each list holds single selectors (codes, code
 * prefixes, names, groups, group codes). */
struct rule_selection {
    const struct string_list *select;   /* NULL: every rule */
    const struct string_list *extend;   /* added to select; may be NULL */
    const struct string_list *ignore;   /* may be NULL */
};

/*
 * Enables the rules selection selects and extends, then disables those it
 * ignores.  Without select every rule is selected except opt-in ones
 * (SL_RULE_OPT_IN); a select or extend selector that matches an opt-in
 * rule (its code, a code prefix, its name or group) selects it.  Core
 * rules stay enabled unless an ignore selector names them.  Returns
 * 0, or -1 with *error (malloc'd) naming an unknown selector or an empty
 * selection.
 */
int registry_apply_selection(struct registry *registry,
                             const struct rule_selection *selection,
                             char **error);

/* Index of the rule with this code, or (size_t)-1. */
size_t registry_find_code(const struct registry *registry, const char *code);

/* The option of the rule called name, or NULL when it declares none. */
struct rule_option *rule_entry_option(const struct rule_entry *entry,
                                      const char *name);

/* Frees the configured value; the option answers with its default again. */
void rule_option_clear(struct rule_option *option);

/*
 * The value of an option: the configured one, else the default.  Strings
 * are borrowed from the option (or the plugin) and NUL-terminated.  The
 * caller checks the option's declared type first.
 */
const char *rule_option_string(const struct rule_option *option, size_t *length);
size_t rule_option_list_count(const struct rule_option *option);
const char *rule_option_list_item(const struct rule_option *option, size_t index,
                                  size_t *length);
long long rule_option_integer(const struct rule_option *option);
bool rule_option_boolean(const struct rule_option *option);

#endif
