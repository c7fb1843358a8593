/*
 * hardening.c - SBX101-SBX109, the sandbox_hardening group: what a sandbox
 * fails to take away (SPEC §7b; SPEC §12 for agent-env values and
 * Kubernetes objects, and SBX109).
 *
 * The rules of sandbox_privileges report what a Compose file adds; these
 * report what it leaves in, measured against seed 003's hardened
 * `docker run`: --cap-drop ALL, --security-opt no-new-privileges,
 * --read-only, --pids-limit, --memory, --cpus, a user that is not root and
 * no port published to the world.  Every rule is opt-in
 * (--extend-select sandbox_hardening).
 *
 * Written against the public SDK only, as an in-house rule would be.
 *
 * Conventions of the group:
 *   - a setting that is missing is reported at the service's key, a weak
 *     one at the setting (or the list item); both have the key
 *     service:RULE_NAME, so one allowlist entry covers the service whatever
 *     the file says;
 *   - a value that holds an interpolation cannot be checked: a warning
 *     keyed service:SETTING:VALUE, the raw value (SPEC §7);
 *   - a setting tagged !reset is no setting (Compose removes it);
 *   - merge keys and x- anchors are resolved by the host's node API;
 *   - a setting missing from a service is looked up in the services it
 *     extends in the same file (extends: NAME or {service: NAME}), as
 *     Compose merges them; a base in another file cannot be seen, so a
 *     setting that may come from there is a warning.
 */
#include <sandlint/rule.h>

/* ---------------------------------------------------------------------- */
/* Settings, !reset and extends                                            */
/* ---------------------------------------------------------------------- */

/* What a lookup finds. */
enum presence {
    ABSENT = 0,     /* not written, or null/empty: look further */
    RESET = 1,      /* tagged !reset: removed, also what it would inherit */
    PRESENT = 2
};

static int tagged(const struct sl_node *node, const char *tag)
{
    const char *written = sl_node_tag(node);
    return written != NULL && strcmp(written, tag) == 0;
}

/* The setting name of mapping: its key and value nodes. */
static int lookup(const struct sl_node *mapping, const char *name,
                  const struct sl_node **key, const struct sl_node **value)
{
    const struct sl_node *key_node = NULL;
    const struct sl_node *value_node = sl_mapping_value(mapping, name, &key_node);
    *key = key_node;
    *value = value_node;
    if (value_node == NULL)
        return ABSENT;
    if (tagged(value_node, "!reset"))
        return RESET;
    return sl_is_empty(value_node) ? ABSENT : PRESENT;
}

/* How deep extends chains are followed (Compose refuses cycles). */
#define CHAIN_MAX 16

/* A service and the services of the same file it extends, nearest first. */
struct chain {
    const struct sl_node *services[CHAIN_MAX];
    size_t count;
    const char *external;       /* extends names a file (or an interpolated
                                   service) that sandlint cannot see here:
                                   its text, or NULL */
    size_t external_length;
};

/* The services of the document: under services, or at the top level of a
 * legacy file without it. */
static const struct sl_node *document_services(struct sl_context *ctx)
{
    const struct sl_node *root = sl_document_root(ctx);
    const struct sl_node *services = sl_mapping_value(root, "services", NULL);
    return services != NULL ? services : root;
}

static void chain_build(struct sl_context *ctx, const struct sl_node *settings,
                        struct chain *chain)
{
    memset(chain, 0, sizeof(*chain));
    chain->services[chain->count++] = settings;
    const struct sl_node *current = settings;
    while (chain->count < CHAIN_MAX) {
        const struct sl_node *key, *extends;
        if (lookup(current, "extends", &key, &extends) != PRESENT)
            return;
        const struct sl_node *service_node = extends;
        if (sl_node_kind(extends) == SL_NODE_MAPPING) {
            size_t file_length;
            const char *file = sl_setting_text(sl_mapping_value(extends, "file", NULL),
                                               &file_length);
            if (file != NULL) {
                chain->external = file;
                chain->external_length = file_length;
                return;
            }
            service_node = sl_mapping_value(extends, "service", NULL);
        }
        size_t name_length;
        const char *name = sl_setting_text(service_node, &name_length);
        if (name == NULL)
            return;     /* Compose refuses it */
        if (sl_has_interpolation(name, name_length)) {
            chain->external = name;
            chain->external_length = name_length;
            return;
        }
        /* Service names hold no NUL: a name that does is nobody's. */
        if (strlen(name) != name_length)
            return;
        const struct sl_node *base = sl_mapping_value(document_services(ctx), name, NULL);
        if (sl_node_kind(base) != SL_NODE_MAPPING)
            return;
        for (size_t i = 0; i < chain->count; i++)
            if (chain->services[i] == base)
                return;     /* a cycle */
        chain->services[chain->count++] = base;
        current = base;
    }
}

/*
 * A setting at path (setting, or deploy.resources.limits.memory) of the
 * first service of the chain that writes it, as Compose merges extends and
 * nested mappings: the nearest value wins, and !reset at any level removes
 * it (and what it would inherit).  *key and *value are set when PRESENT.
 */
static int chain_setting(const struct chain *chain, const char *const *path,
                         const struct sl_node **key, const struct sl_node **value)
{
    for (size_t s = 0; s < chain->count; s++) {
        const struct sl_node *node = chain->services[s];
        int found = PRESENT;
        for (size_t i = 0; path[i] != NULL && found == PRESENT; i++) {
            found = lookup(node, path[i], key, value);
            if (found == PRESENT && path[i + 1] != NULL) {
                if (sl_node_kind(*value) != SL_NODE_MAPPING)
                    found = ABSENT;
                node = *value;
            }
        }
        if (found != ABSENT)
            return found;
    }
    return ABSENT;
}

/* The dotted name of a path, for a finding's field. */
static const char *path_field(const char *const *path, char *buffer, size_t size)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (size_t i = 0; path[i] != NULL && used < size; i++) {
        int wrote = snprintf(buffer + used, size - used, "%s%s", i > 0 ? "." : "",
                             path[i]);
        if (wrote < 0)
            break;
        used += (size_t)wrote;
    }
    return buffer;
}

/* Calls visit for each entry of the list setting name of the chain: the
 * lists of a service and the services it extends are merged, up to a list
 * tagged !reset (removed) or !override (replaces what it would inherit).
 * *first_key receives the key of the nearest list written, or NULL; visit
 * receives the depth in the chain of the service that wrote the entry. */
typedef int (*entry_fn)(struct sl_context *ctx, size_t depth,
                        const struct sl_node *where, const struct sl_node *entry,
                        void *data);

static int chain_list(struct sl_context *ctx, const struct chain *chain,
                      const char *name, const struct sl_node **first_key,
                      entry_fn visit, void *data)
{
    *first_key = NULL;
    for (size_t s = 0; s < chain->count; s++) {
        const struct sl_node *key, *value;
        int found = lookup(chain->services[s], name, &key, &value);
        if (found == RESET)
            return SL_OK;
        if (found == ABSENT)
            continue;
        if (*first_key == NULL)
            *first_key = key;
        size_t count = sl_list_count(value);
        for (size_t i = 0; i < count; i++) {
            const struct sl_node *where;
            const struct sl_node *entry = sl_list_entry(value, key, i, &where);
            if (visit(ctx, s, where, entry, data) != SL_OK)
                return SL_ERROR;
        }
        if (tagged(value, "!override"))
            return SL_OK;
    }
    return SL_OK;
}

/* ---------------------------------------------------------------------- */
/* Reporting                                                               */
/* ---------------------------------------------------------------------- */

/* A setting the rule needs is missing.  When the service extends a service
 * of another file, that one may set it: a warning, since it cannot be seen
 * from here. */
static int report_missing(struct sl_context *ctx, const struct chain *chain,
                          const struct sl_node *service_key, const char *rule,
                          const char *hint, const char *message)
{
    char quoted[SL_QUOTE_SIZE];
    if (chain->external != NULL)
        return sl_reportf_hint(ctx, service_key, rule, NULL, 0, SL_SEVERITY_WARNING,
                               hint, "%s, unless the service it extends from '%s' "
                               "sets it, which cannot be checked here", message,
                               sl_quote(quoted, sizeof(quoted), chain->external,
                                        chain->external_length));
    return sl_reportf_hint(ctx, service_key, rule, NULL, 0, SL_SEVERITY_DEFAULT, hint,
                           "%s", message);
}

/* A value that holds an interpolation: keyed by the setting and the raw
 * value, with the standard hint (use a literal value). */
static int report_interpolated(struct sl_context *ctx, const struct sl_node *where,
                               const char *field, const char *text, size_t length)
{
    char quoted[SL_QUOTE_SIZE];
    return sl_reportf(ctx, where, field, text, length, SL_SEVERITY_WARNING,
                      "%s '%s' is interpolated and cannot be checked", field,
                      sl_quote(quoted, sizeof(quoted), text, length));
}

/* The same for an entry of a list setting (security_opt, ports). */
static int report_interpolated_entry(struct sl_context *ctx,
                                     const struct sl_node *where, const char *field,
                                     const char *text, size_t length)
{
    char quoted[SL_QUOTE_SIZE];
    return sl_reportf(ctx, where, field, text, length, SL_SEVERITY_WARNING,
                      "%s entry '%s' is interpolated and cannot be checked", field,
                      sl_quote(quoted, sizeof(quoted), text, length));
}

/* A setting that is a mapping or a sequence where a scalar belongs. */
static int report_collection(struct sl_context *ctx, const struct sl_node *where,
                             const char *field, const struct sl_node *value)
{
    const char *kind = sl_kind_value(value);
    return sl_reportf(ctx, where, field, kind, strlen(kind), SL_SEVERITY_WARNING,
                      "%s is a %s and cannot be checked", field,
                      kind[1] == 'm' ? "mapping" : "sequence");
}

/* ---------------------------------------------------------------------- */
/* Numbers                                                                 */
/* ---------------------------------------------------------------------- */

/* What a limit's value says. */
enum quantity {
    QUANTITY_INVALID = 0,   /* not a number of the setting's form */
    QUANTITY_NONE = 1,      /* 0 or negative: no limit (0 and -1 mean it) */
    QUANTITY_POSITIVE = 2
};

/* The forms of number a limit takes. */
enum number_form {
    INTEGER = 0,            /* pids_limit, cpu_quota: -1, 0, 512 */
    DECIMAL = 1,            /* cpus: 0.5, 2 */
    BYTES = 2               /* mem_limit: 512m, 2g, 1.5GiB, 1073741824 */
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads text as a number of the given form (as Compose's loader and
 * Docker's units package read it: an optional sign, digits, a decimal
 * part, and for bytes a unit b, k, m, g, t or p with an optional i and b,
 * in any case, after an optional space). */
static enum quantity quantity(const char *text, size_t length, enum number_form form)
{
    size_t i = 0;
    int negative = 0, nonzero = 0, digits = 0;
    if (text == NULL)
        return QUANTITY_INVALID;
    if (i < length && (text[i] == '-' || text[i] == '+'))
        negative = text[i++] == '-';
    for (; i < length && is_digit(text[i]); i++, digits++)
        nonzero |= text[i] != '0';
    if (form != INTEGER && i < length && text[i] == '.') {
        for (i++; i < length && is_digit(text[i]); i++, digits++)
            nonzero |= text[i] != '0';
    }
    if (digits == 0)
        return QUANTITY_INVALID;
    if (form == BYTES) {
        static const char units[] = "bkmgtpBKMGTP";
        if (i < length && text[i] == ' ')
            i++;
        if (i < length && memchr(units, text[i], sizeof(units) - 1) != NULL) {
            int byte = text[i] == 'b' || text[i] == 'B';
            i++;
            if (!byte && i < length && (text[i] == 'i' || text[i] == 'I'))
                i++;
            if (!byte && i < length && (text[i] == 'b' || text[i] == 'B'))
                i++;
        }
    }
    if (i != length)
        return QUANTITY_INVALID;
    return negative || !nonzero ? QUANTITY_NONE : QUANTITY_POSITIVE;
}

/* ---------------------------------------------------------------------- */
/* Limits: pids, memory, CPU                                               */
/* ---------------------------------------------------------------------- */

/* One place a limit can be set. */
struct limit_source {
    const char *const *path;
    enum number_form form;
};

/* What a limit rule checks and says. */
struct limit_rule {
    const char *name;                   /* the rule's name: the field */
    const struct limit_source *sources; /* ends with path NULL */
    const char *what;                   /* "process limit" */
    const char *settings;               /* "pids_limit or deploy..." */
    const char *consequence;            /* "a fork bomb can ..." */
    const char *hint;
};

/*
 * Reports a service without a positive limit.  Any positive literal limit
 * passes.  Else every interpolated one (or one that is a collection) warns;
 * else the first weak one (0, negative, not a number) is an error at that
 * setting; else the service has none: an error at its key.
 */
static int check_limit(struct sl_context *ctx, const struct chain *chain,
                       const struct sl_node *service_key,
                       const struct limit_rule *rule)
{
    const struct sl_node *weak_key = NULL, *weak_value = NULL;
    const char *const *weak_path = NULL;
    enum quantity weak_quantity = QUANTITY_INVALID;
    size_t unchecked = 0;
    char field[64], quoted[SL_QUOTE_SIZE], message[512];
    const struct limit_source *source;

    for (source = rule->sources; source->path != NULL; source++) {
        const struct sl_node *key, *value;
        if (chain_setting(chain, source->path, &key, &value) != PRESENT)
            continue;
        size_t length;
        const char *text = sl_node_text(value, &length);
        if (sl_node_kind(value) != SL_NODE_SCALAR || sl_has_interpolation(text, length)) {
            unchecked++;
            continue;
        }
        enum quantity found = quantity(text, length, source->form);
        if (found == QUANTITY_POSITIVE)
            return SL_OK;
        if (weak_key == NULL) {
            weak_key = key;
            weak_value = value;
            weak_path = source->path;
            weak_quantity = found;
        }
    }
    if (unchecked > 0) {
        for (source = rule->sources; source->path != NULL; source++) {
            const struct sl_node *key, *value;
            if (chain_setting(chain, source->path, &key, &value) != PRESENT)
                continue;
            path_field(source->path, field, sizeof(field));
            size_t length;
            const char *text = sl_node_text(value, &length);
            int status = SL_OK;
            if (sl_node_kind(value) != SL_NODE_SCALAR)
                status = report_collection(ctx, key, field, value);
            else if (sl_has_interpolation(text, length))
                status = report_interpolated(ctx, key, field, text, length);
            if (status != SL_OK)
                return SL_ERROR;
        }
        return SL_OK;
    }
    if (weak_key != NULL) {
        size_t length;
        const char *text = sl_node_text(weak_value, &length);
        return sl_reportf_hint(ctx, weak_key, rule->name, NULL, 0, SL_SEVERITY_DEFAULT,
                               rule->hint, "%s '%s' %s: %s",
                               path_field(weak_path, field, sizeof(field)),
                               sl_quote(quoted, sizeof(quoted), text, length),
                               weak_quantity == QUANTITY_NONE ? "sets no limit"
                                                              : "is not a valid limit",
                               rule->consequence);
    }
    snprintf(message, sizeof(message), "no %s (%s): %s", rule->what, rule->settings,
             rule->consequence);
    return report_missing(ctx, chain, service_key, rule->name, rule->hint, message);
}

static const char *const pids_limit_path[] = { "pids_limit", NULL };
static const char *const deploy_pids_path[] = { "deploy", "resources", "limits",
                                                "pids", NULL };
static const char *const mem_limit_path[] = { "mem_limit", NULL };
static const char *const deploy_memory_path[] = { "deploy", "resources", "limits",
                                                  "memory", NULL };
static const char *const cpus_path[] = { "cpus", NULL };
static const char *const cpu_quota_path[] = { "cpu_quota", NULL };
static const char *const deploy_cpus_path[] = { "deploy", "resources", "limits",
                                                "cpus", NULL };

static const struct limit_source pids_sources[] = {
    { pids_limit_path, INTEGER }, { deploy_pids_path, INTEGER }, { NULL, INTEGER },
};
static const struct limit_source memory_sources[] = {
    { mem_limit_path, BYTES }, { deploy_memory_path, BYTES }, { NULL, BYTES },
};
static const struct limit_source cpu_sources[] = {
    { cpus_path, DECIMAL }, { cpu_quota_path, INTEGER }, { deploy_cpus_path, DECIMAL },
    { NULL, DECIMAL },
};

static const struct limit_rule pids_limit_rule_data = {
    "pids_limit", pids_sources, "process limit",
    "pids_limit or deploy.resources.limits.pids",
    "a fork bomb in the sandbox can exhaust the host's process table",
    "add 'pids_limit: 512' (or deploy.resources.limits.pids), or allowlist '%k' "
    "under sandbox_hardening",
};
static const struct limit_rule memory_limit_rule_data = {
    "memory_limit", memory_sources, "memory limit",
    "mem_limit or deploy.resources.limits.memory",
    "the sandbox can take all of the host's memory",
    "add 'mem_limit: 2g' (or deploy.resources.limits.memory), or allowlist '%k' "
    "under sandbox_hardening",
};
static const struct limit_rule cpu_limit_rule_data = {
    "cpu_limit", cpu_sources, "CPU limit",
    "cpus, cpu_quota or deploy.resources.limits.cpus",
    "the sandbox can keep every CPU of the host busy",
    "add 'cpus: 2' (or deploy.resources.limits.cpus), or allowlist '%k' under "
    "sandbox_hardening",
};

static int check_pids_limit(struct sl_context *ctx, const char *service,
                            const struct sl_node *service_key,
                            const struct sl_node *settings)
{
    struct chain chain;
    (void)service;
    chain_build(ctx, settings, &chain);
    return check_limit(ctx, &chain, service_key, &pids_limit_rule_data);
}

static int check_memory_limit(struct sl_context *ctx, const char *service,
                              const struct sl_node *service_key,
                              const struct sl_node *settings)
{
    struct chain chain;
    (void)service;
    chain_build(ctx, settings, &chain);
    return check_limit(ctx, &chain, service_key, &memory_limit_rule_data);
}

static int check_cpu_limit(struct sl_context *ctx, const char *service,
                           const struct sl_node *service_key,
                           const struct sl_node *settings)
{
    struct chain chain;
    (void)service;
    chain_build(ctx, settings, &chain);
    return check_limit(ctx, &chain, service_key, &cpu_limit_rule_data);
}

/* ---------------------------------------------------------------------- */
/* SBX101 cap_drop_all                                                     */
/* ---------------------------------------------------------------------- */

#define CAP_DROP_HINT "add 'cap_drop: [ALL]' and cap_add only what the sandbox " \
                      "needs, or allowlist '%k' under sandbox_hardening"

/* What the entries of a list say, gathered by a visitor. */
struct list_state {
    int satisfied;                  /* an entry does what the rule asks */
    int decided;                    /* an entry decided it, at depth: */
    size_t decided_depth;
    const struct sl_node *weak;     /* an entry that undoes it (or NULL) */
    const char *weak_text;
    size_t weak_length;
    size_t interpolated;            /* entries that cannot be checked */
    int reporting;                  /* second walk: report those */
};

static int ascii_upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

static int equals_upper(const char *text, size_t length, const char *word)
{
    if (strlen(word) != length)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (ascii_upper((unsigned char)text[i]) != word[i])
            return 0;
    return 1;
}

static int cap_drop_entry(struct sl_context *ctx, size_t depth,
                          const struct sl_node *where, const struct sl_node *entry,
                          void *data)
{
    struct list_state *state = data;
    (void)depth;
    size_t length;
    const char *text = sl_setting_text(entry, &length);
    if (text == NULL)
        return SL_OK;   /* empty, or a collection: drops nothing */
    if (equals_upper(text, length, "ALL") || equals_upper(text, length, "CAP_ALL"))
        state->satisfied = 1;
    else if (sl_has_interpolation(text, length)) {
        state->interpolated++;
        if (state->reporting)
            return report_interpolated_entry(ctx, where, "cap_drop", text, length);
    }
    return SL_OK;
}

static int check_cap_drop_all(struct sl_context *ctx, const char *service,
                              const struct sl_node *service_key,
                              const struct sl_node *settings)
{
    struct chain chain;
    struct list_state state;
    const struct sl_node *key;
    (void)service;
    chain_build(ctx, settings, &chain);
    memset(&state, 0, sizeof(state));
    if (chain_list(ctx, &chain, "cap_drop", &key, cap_drop_entry, &state) != SL_OK)
        return SL_ERROR;
    if (state.satisfied)
        return SL_OK;
    if (state.interpolated > 0) {
        state.reporting = 1;
        return chain_list(ctx, &chain, "cap_drop", &key, cap_drop_entry, &state);
    }
    if (key != NULL)
        return sl_reportf_hint(ctx, key, "cap_drop_all", NULL, 0, SL_SEVERITY_DEFAULT,
                               CAP_DROP_HINT, "cap_drop does not hold ALL: the "
                               "service keeps the rest of the engine's default "
                               "capabilities");
    return report_missing(ctx, &chain, service_key, "cap_drop_all", CAP_DROP_HINT,
                          "the service keeps the engine's default capabilities, "
                          "among them CHOWN, DAC_OVERRIDE, FOWNER, SETUID, SETGID "
                          "and NET_RAW (no cap_drop: [ALL])");
}

/* ---------------------------------------------------------------------- */
/* SBX102 no_new_privileges                                                */
/* ---------------------------------------------------------------------- */

#define NO_NEW_PRIVILEGES_HINT "add 'security_opt: [no-new-privileges:true]', or " \
                               "allowlist '%k' under sandbox_hardening"

/* The value of a no-new-privileges entry as Docker reads it (Go's
 * strconv.ParseBool): 1 true, 0 false, -1 not a boolean. */
static int parse_bool(const char *text, size_t length)
{
    static const char *const yes[] = { "1", "t", "T", "true", "TRUE", "True", NULL };
    static const char *const no[] = { "0", "f", "F", "false", "FALSE", "False", NULL };
    for (size_t i = 0; yes[i] != NULL; i++)
        if (sl_text_equals(text, length, yes[i]))
            return 1;
    for (size_t i = 0; no[i] != NULL; i++)
        if (sl_text_equals(text, length, no[i]))
            return 0;
    return -1;
}

static int security_opt_entry(struct sl_context *ctx, size_t depth,
                              const struct sl_node *where, const struct sl_node *entry,
                              void *data)
{
    static const char option[] = "no-new-privileges";
    static const size_t option_length = sizeof(option) - 1;
    struct list_state *state = data;
    size_t length;
    const char *text = sl_setting_text(entry, &length);
    if (text == NULL)
        return SL_OK;
    if (sl_text_equals(text, length, option) ||
        (length > option_length && sl_text_starts_with(text, length, option) &&
         (text[option_length] == ':' || text[option_length] == '=') &&
         !sl_has_interpolation(text, length))) {
        /* Docker reads the items in order and the later wins; of merged
         * lists, the nearest service's own items win. */
        if (state->decided && depth > state->decided_depth)
            return SL_OK;
        state->decided = 1;
        state->decided_depth = depth;
        int on = length == option_length
                     ? 1 : parse_bool(text + option_length + 1,
                                      length - option_length - 1);
        state->satisfied = on == 1;
        state->weak = on == 1 ? NULL : where;
        state->weak_text = text;
        state->weak_length = length;
        return SL_OK;
    }
    if (sl_has_interpolation(text, length)) {
        state->interpolated++;
        if (state->reporting)
            return report_interpolated_entry(ctx, where, "security_opt", text, length);
    }
    return SL_OK;
}

static int check_no_new_privileges(struct sl_context *ctx, const char *service,
                                   const struct sl_node *service_key,
                                   const struct sl_node *settings)
{
    struct chain chain;
    struct list_state state;
    const struct sl_node *key;
    char quoted[SL_QUOTE_SIZE];
    (void)service;
    chain_build(ctx, settings, &chain);
    memset(&state, 0, sizeof(state));
    if (chain_list(ctx, &chain, "security_opt", &key, security_opt_entry, &state) != SL_OK)
        return SL_ERROR;
    if (state.satisfied)
        return SL_OK;
    if (state.weak != NULL)
        return sl_reportf_hint(ctx, state.weak, "no_new_privileges", NULL, 0,
                               SL_SEVERITY_DEFAULT, NO_NEW_PRIVILEGES_HINT,
                               "security_opt '%s' lets setuid and file-capability "
                               "programs gain privileges",
                               sl_quote(quoted, sizeof(quoted), state.weak_text,
                                        state.weak_length));
    if (state.interpolated > 0) {
        state.reporting = 1;
        return chain_list(ctx, &chain, "security_opt", &key, security_opt_entry, &state);
    }
    if (key != NULL)
        return sl_reportf_hint(ctx, key, "no_new_privileges", NULL, 0,
                               SL_SEVERITY_DEFAULT, NO_NEW_PRIVILEGES_HINT,
                               "security_opt does not hold no-new-privileges: setuid "
                               "and file-capability programs can gain privileges");
    return report_missing(ctx, &chain, service_key, "no_new_privileges",
                          NO_NEW_PRIVILEGES_HINT,
                          "setuid and file-capability programs can gain "
                          "privileges (no security_opt no-new-privileges)");
}

/* ---------------------------------------------------------------------- */
/* SBX103 read_only                                                        */
/* ---------------------------------------------------------------------- */

#define READ_ONLY_HINT "add 'read_only: true' (with tmpfs for the paths the sandbox " \
                       "writes), or allowlist '%k' under sandbox_hardening"

static int check_read_only(struct sl_context *ctx, const char *service,
                           const struct sl_node *service_key,
                           const struct sl_node *settings)
{
    static const char *const path[] = { "read_only", NULL };
    struct chain chain;
    const struct sl_node *key, *value;
    const char *text;
    size_t length;
    char quoted[SL_QUOTE_SIZE];
    (void)service;
    chain_build(ctx, settings, &chain);
    if (chain_setting(&chain, path, &key, &value) != PRESENT)
        return report_missing(ctx, &chain, service_key, "read_only", READ_ONLY_HINT,
                              "the root file system is writable (no read_only: "
                              "true): sandboxed code can change the programs and "
                              "libraries of its image");
    if (sl_node_kind(value) != SL_NODE_SCALAR)
        return report_collection(ctx, key, "read_only", value);
    switch (sl_flag(value, &text, &length)) {
    case SL_FLAG_ON:
        return SL_OK;
    case SL_FLAG_INTERPOLATED:
        return report_interpolated(ctx, key, "read_only", text, length);
    default:
        return sl_reportf_hint(ctx, key, "read_only", NULL, 0, SL_SEVERITY_DEFAULT,
                               READ_ONLY_HINT, "read_only '%s' leaves the root file "
                               "system writable",
                               sl_quote(quoted, sizeof(quoted), text, length));
    }
}

/* ---------------------------------------------------------------------- */
/* SBX107 non_root_user                                                    */
/* ---------------------------------------------------------------------- */

#define USER_HINT "add 'user: \"1000:1000\"' (a user the image has), or allowlist " \
                  "'%k' under sandbox_hardening"

/* Whether the user part of USER[:GROUP] is root: "root" or a UID of 0. */
static int root_user(const char *text, size_t length)
{
    const char *colon = memchr(text, ':', length);
    size_t user = colon != NULL ? (size_t)(colon - text) : length;
    if (sl_text_equals(text, user, "root"))
        return 1;
    if (user == 0)
        return 0;
    for (size_t i = 0; i < user; i++)
        if (text[i] != '0')
            return 0;
    return 1;
}

static int check_non_root_user(struct sl_context *ctx, const char *service,
                               const struct sl_node *service_key,
                               const struct sl_node *settings)
{
    static const char *const path[] = { "user", NULL };
    struct chain chain;
    const struct sl_node *key, *value;
    char quoted[SL_QUOTE_SIZE];
    (void)service;
    chain_build(ctx, settings, &chain);
    if (chain_setting(&chain, path, &key, &value) != PRESENT)
        return report_missing(ctx, &chain, service_key, "non_root_user", USER_HINT,
                              "no user is set: the container runs as root unless "
                              "its image sets a user of its own");
    if (sl_node_kind(value) != SL_NODE_SCALAR)
        return report_collection(ctx, key, "user", value);
    size_t length;
    const char *text = sl_node_text(value, &length);
    if (text == NULL || length == 0)
        return report_missing(ctx, &chain, service_key, "non_root_user", USER_HINT,
                              "no user is set: the container runs as root unless "
                              "its image sets a user of its own");
    if (sl_has_interpolation(text, length))
        return report_interpolated(ctx, key, "user", text, length);
    if (!root_user(text, length))
        return SL_OK;
    return sl_reportf_hint(ctx, key, "non_root_user", NULL, 0, SL_SEVERITY_DEFAULT,
                           USER_HINT, "user '%s' runs the container as root",
                           sl_quote(quoted, sizeof(quoted), text, length));
}

/* ---------------------------------------------------------------------- */
/* SBX108 published_ports                                                  */
/* ---------------------------------------------------------------------- */

#define PORTS_HINT "publish on the loopback interface only ('127.0.0.1:8080:80'), " \
                   "or remove the item, or allowlist '%k' under sandbox_hardening"

/* Whether an address (brackets allowed) is the unspecified one: empty,
 * 0.0.0.0, ::, [::] and their longer spellings. */
static int every_interface(const char *ip, size_t length)
{
    if (length >= 2 && ip[0] == '[' && ip[length - 1] == ']') {
        ip++;
        length -= 2;
    }
    for (size_t i = 0; i < length; i++)
        if (ip[i] != '0' && ip[i] != '.' && ip[i] != ':')
            return 0;
    return 1;
}

/* The host port's first number when it is below 1024 (and not 0, which
 * asks for any free port), else -1.  "80", "80-90". */
static long privileged_port(const char *text, size_t length)
{
    long port = 0;
    size_t i = 0;
    if (text == NULL)
        return -1;
    for (; i < length && is_digit(text[i]) && port < 1024; i++)
        port = port * 10 + (text[i] - '0');
    if (i == 0 || port == 0 || port >= 1024)
        return -1;
    return port;
}

/* Splits a short-syntax item [[IP:]HOST:]CONTAINER[/PROTOCOL] at the
 * colons outside ${...}: up to the last two colons is the host IP (an IPv6
 * address holds colons), then the host port. */
struct port_parts {
    const char *ip;             /* NULL: no host IP written */
    size_t ip_length;
    const char *host;           /* NULL: no host port written */
    size_t host_length;
    const char *container;
    size_t container_length;
};

static void split_port(const char *text, size_t length, struct port_parts *parts)
{
    size_t last = length, before_last = length;   /* positions of colons */
    int depth = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] == '$' && i + 1 < length && text[i + 1] == '{') {
            depth++;
            i++;
        } else if (text[i] == '}' && depth > 0) {
            depth--;
        } else if (text[i] == ':' && depth == 0) {
            before_last = last;
            last = i;
        }
    }
    memset(parts, 0, sizeof(*parts));
    if (last == length) {
        parts->container = text;
        parts->container_length = length;
        return;
    }
    parts->container = text + last + 1;
    parts->container_length = length - last - 1;
    if (before_last == length) {
        parts->host = text;
        parts->host_length = last;
        return;
    }
    parts->ip = text;
    parts->ip_length = before_last;
    parts->host = text + before_last + 1;
    parts->host_length = last - before_last - 1;
}

static int report_published(struct sl_context *ctx, const struct sl_node *where,
                            const char *value, size_t value_length,
                            const char *host, size_t host_length)
{
    char quoted[SL_QUOTE_SIZE];
    long port = sl_has_interpolation(host, host_length) ? -1
                                                        : privileged_port(host, host_length);
    sl_quote(quoted, sizeof(quoted), value, value_length);
    if (port > 0)
        return sl_reportf_hint(ctx, where, "ports", value, value_length,
                               SL_SEVERITY_DEFAULT, PORTS_HINT,
                               "ports '%s' publishes host port %ld, below 1024, on "
                               "every host interface", quoted, port);
    return sl_reportf_hint(ctx, where, "ports", value, value_length,
                           SL_SEVERITY_DEFAULT, PORTS_HINT,
                           "ports '%s' publishes on every host interface", quoted);
}

static int check_short_port(struct sl_context *ctx, const struct sl_node *where,
                            const char *text, size_t length)
{
    struct port_parts parts;
    split_port(text, length, &parts);
    /* An interpolation where the host IP is, or could be (a host port or a
     * lone item may expand to IP:PORT), cannot be checked. */
    const char *deciding = parts.ip != NULL ? parts.ip
                           : parts.host != NULL ? parts.host : parts.container;
    size_t deciding_length = parts.ip != NULL ? parts.ip_length
                             : parts.host != NULL ? parts.host_length
                                                  : parts.container_length;
    if (sl_has_interpolation(deciding, deciding_length))
        return report_interpolated_entry(ctx, where, "ports", text, length);
    if (parts.ip != NULL && !every_interface(parts.ip, parts.ip_length))
        return SL_OK;
    return report_published(ctx, where, text, length, parts.host, parts.host_length);
}

/* A long-syntax item {target, published, host_ip, protocol}: keyed by the
 * short syntax it stands for, [HOST_IP:][PUBLISHED:]TARGET[/PROTOCOL]. */
static int check_long_port(struct sl_context *ctx, const struct sl_node *where,
                           const struct sl_node *item)
{
    size_t ip_length, published_length, target_length, protocol_length;
    const struct sl_node *ip_node = sl_mapping_value(item, "host_ip", NULL);
    const char *ip = sl_setting_text(ip_node, &ip_length);
    const char *published = sl_setting_text(sl_mapping_value(item, "published", NULL),
                                            &published_length);
    const char *target = sl_setting_text(sl_mapping_value(item, "target", NULL),
                                         &target_length);
    const char *protocol = sl_setting_text(sl_mapping_value(item, "protocol", NULL),
                                           &protocol_length);
    char value[4 * SL_QUOTE_SIZE];
    if (target == NULL)
        snprintf(value, sizeof(value), "<mapping>");
    else
        snprintf(value, sizeof(value), "%.*s%s%.*s%s%.*s%s%.*s",
                 (int)(ip != NULL ? ip_length : 0), ip != NULL ? ip : "",
                 ip != NULL ? ":" : "",
                 (int)(published != NULL ? published_length : 0),
                 published != NULL ? published : "",
                 ip != NULL || published != NULL ? ":" : "",
                 (int)target_length, target, protocol != NULL ? "/" : "",
                 (int)(protocol != NULL ? protocol_length : 0),
                 protocol != NULL ? protocol : "");
    if (!sl_is_empty(ip_node) && sl_node_kind(ip_node) != SL_NODE_SCALAR)
        return report_collection(ctx, where, "ports", ip_node);
    if (ip != NULL && sl_has_interpolation(ip, ip_length))
        return report_interpolated_entry(ctx, where, "ports", value, strlen(value));
    if (ip != NULL && !every_interface(ip, ip_length))
        return SL_OK;
    return report_published(ctx, where, value, strlen(value), published,
                            published_length);
}

static int check_published_ports(struct sl_context *ctx, const char *service,
                                 const struct sl_node *service_key,
                                 const struct sl_node *settings)
{
    const struct sl_node *key, *value;
    (void)service;
    (void)service_key;
    if (lookup(settings, "ports", &key, &value) != PRESENT)
        return SL_OK;
    size_t count = sl_list_count(value);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *entry = sl_list_entry(value, key, i, &where);
        int status = SL_OK;
        if (sl_is_empty(entry))
            continue;
        if (sl_node_kind(entry) == SL_NODE_SCALAR) {
            size_t length;
            const char *text = sl_node_text(entry, &length);
            status = check_short_port(ctx, where, text, length);
        } else if (sl_node_kind(entry) == SL_NODE_MAPPING) {
            status = check_long_port(ctx, where, entry);
        } else {
            status = sl_report_unchecked(ctx, where, "ports", entry);
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* ---------------------------------------------------------------------- */
/* agent-env services and pod specs (SPEC §12)                             */
/* ---------------------------------------------------------------------- */

/*
 * The same rules read a container's securityContext and resources: every
 * container of a pod spec (ephemeral ones too, but for resources, which
 * they cannot have), and an agent-env service with its initContainers.
 * A missing setting points at the container (its list item, or the
 * service's key) and a weak one at the setting; both have the key
 * CONTAINER:RULE_NAME.  Helm template text cannot be checked: a warning
 * keyed CONTAINER:FIELD:VALUE.
 */

/* What a container rule checks (kube_rule). */
enum kube_check {
    KUBE_CAP_DROP_ALL,
    KUBE_NO_NEW_PRIVILEGES,
    KUBE_READ_ONLY,
    KUBE_MEMORY_LIMIT,
    KUBE_CPU_LIMIT,
    KUBE_NON_ROOT_USER
};

/* One container rule being run over the containers of a service. */
struct kube_walk {
    enum kube_check check;
    const char *rule;                   /* the rule's name: the key's field */
    const struct sl_node *pod_security; /* the pod spec's securityContext */
};

/* A boolean written as false (YAML false, or a string Kubernetes' YAML
 * reader takes as false). */
static int is_false(const struct sl_node *value)
{
    size_t length;
    const char *text = sl_setting_text(value, &length);
    return text != NULL && (equals_upper(text, length, "FALSE") ||
                            equals_upper(text, length, "NO") ||
                            equals_upper(text, length, "OFF") ||
                            equals_upper(text, length, "N"));
}

/* A boolean setting the rule wants to be want (1: true, 0: false). */
static int kube_boolean(struct sl_context *ctx, const struct sl_container *container,
                        const struct sl_node *security, const char *name,
                        const char *field, int want, const char *rule,
                        const char *missing, const char *weak)
{
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_value(security, name, &key);
    size_t length;
    const char *text = sl_setting_text(value, &length);
    if (text != NULL && sl_is_templated(ctx, text, length))
        return sl_report_templated(ctx, container->service, value, field, text, length);
    if (want ? sl_is_truthy(value) : is_false(value))
        return SL_OK;
    if (value == NULL || sl_is_empty(value))
        return sl_reportf_service(ctx, container->service, container->node, rule, NULL,
                                  0, SL_SEVERITY_DEFAULT, "%s", missing);
    return sl_reportf_service(ctx, container->service, key, rule, NULL, 0,
                              SL_SEVERITY_DEFAULT, "%s", weak);
}

static int kube_cap_drop_all(struct sl_context *ctx, const struct sl_container *container,
                             const struct sl_node *security)
{
    static const char field[] = "securityContext.capabilities.drop";
    const struct sl_node *key;
    const struct sl_node *drop = sl_mapping_path(security, "capabilities.drop", &key);
    size_t count = sl_list_count(drop);
    size_t templated = 0;
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        size_t length;
        const char *text = sl_setting_text(sl_list_entry(drop, key, i, &where), &length);
        if (text != NULL && (equals_upper(text, length, "ALL") ||
                             equals_upper(text, length, "CAP_ALL")))
            return SL_OK;
        if (text != NULL && sl_is_templated(ctx, text, length))
            templated++;
    }
    for (size_t i = 0; templated > 0 && i < count; i++) {
        const struct sl_node *where;
        size_t length;
        const char *text = sl_setting_text(sl_list_entry(drop, key, i, &where), &length);
        if (text != NULL && sl_is_templated(ctx, text, length) &&
            sl_report_templated(ctx, container->service, where, field, text, length) != SL_OK)
            return SL_ERROR;
    }
    if (templated > 0)
        return SL_OK;
    if (count > 0)
        return sl_reportf_service(ctx, container->service, key, "cap_drop_all", NULL, 0,
                                  SL_SEVERITY_DEFAULT, "capabilities.drop does not hold "
                                  "ALL: the container keeps the rest of the runtime's "
                                  "default capabilities");
    return sl_reportf_service(ctx, container->service, container->node, "cap_drop_all",
                              NULL, 0, SL_SEVERITY_DEFAULT, "the container keeps the "
                              "runtime's default capabilities, among them CHOWN, "
                              "DAC_OVERRIDE, FOWNER, SETUID, SETGID and NET_RAW (no "
                              "securityContext.capabilities.drop: [ALL])");
}

/* runAsNonRoot and runAsUser as Kubernetes applies them: the container's,
 * else the pod's. */
static const struct sl_node *effective(const struct sl_node *security,
                                       const struct sl_node *pod_security,
                                       const char *name)
{
    const struct sl_node *value = sl_mapping_value(security, name, NULL);
    if (value != NULL && !sl_is_empty(value))
        return value;
    return sl_mapping_value(pod_security, name, NULL);
}

static int kube_non_root_user(struct sl_context *ctx, const struct sl_container *container,
                              const struct sl_node *security,
                              const struct sl_node *pod_security)
{
    const struct sl_node *non_root = effective(security, pod_security, "runAsNonRoot");
    const struct sl_node *user = effective(security, pod_security, "runAsUser");
    size_t length;
    const char *text = sl_setting_text(non_root, &length);
    if (text != NULL && sl_is_templated(ctx, text, length))
        return sl_report_templated(ctx, container->service, non_root,
                                "securityContext.runAsNonRoot", text, length);
    if (sl_is_truthy(non_root))
        return SL_OK;
    text = sl_setting_text(user, &length);
    if (text != NULL && sl_is_templated(ctx, text, length))
        return sl_report_templated(ctx, container->service, user,
                                "securityContext.runAsUser", text, length);
    if (text != NULL && !sl_text_equals(text, length, "0"))
        return SL_OK;
    if (text != NULL)
        return sl_reportf_service(ctx, container->service, user, "non_root_user", NULL, 0,
                                  SL_SEVERITY_DEFAULT, "runAsUser 0 runs the container "
                                  "as root");
    return sl_reportf_service(ctx, container->service, container->node, "non_root_user",
                              NULL, 0, SL_SEVERITY_DEFAULT, "neither runAsNonRoot: true "
                              "nor a runAsUser other than 0: the container runs as "
                              "root unless its image sets another user");
}

/* resources.limits.NAME.  agent-env fills the limits itself when a
 * service gives no resources (the chart's defaults set both). */
static int kube_limit(struct sl_context *ctx, const struct sl_container *container,
                      const char *name, const char *rule, const char *what)
{
    char path[32];
    char field[48];
    const struct sl_node *resources_key;
    const struct sl_node *resources =
        sl_mapping_value(container->container, "resources", &resources_key);
    const struct sl_node *value;
    size_t length;
    const char *text;
    if (container->sort == SL_CONTAINER_EPHEMERAL)
        return SL_OK;   /* ephemeral containers take no resources */
    if (sl_kind(ctx) == SL_KIND_AGENT_ENV &&
        (resources == NULL || sl_is_empty(resources) || sl_node_count(resources) == 0))
        return SL_OK;
    snprintf(path, sizeof(path), "limits.%s", name);
    snprintf(field, sizeof(field), "resources.limits.%s", name);
    value = sl_mapping_path(resources, path, NULL);
    text = sl_setting_text(value, &length);
    if (text != NULL && sl_is_templated(ctx, text, length))
        return sl_report_templated(ctx, container->service, value, field, text, length);
    if (text != NULL || (value != NULL && sl_node_kind(value) != SL_NODE_SCALAR))
        return SL_OK;
    return sl_reportf_service(ctx, container->service,
                              resources_key != NULL ? resources_key : container->node,
                              rule, NULL, 0, SL_SEVERITY_DEFAULT,
                              "no resources.limits.%s: %s", name, what);
}

static int kube_container(struct sl_context *ctx, const struct sl_container *container,
                          void *data)
{
    const struct kube_walk *walk = data;
    const struct sl_node *security =
        sl_mapping_value(container->container, "securityContext", NULL);
    if (sl_node_kind(security) != SL_NODE_MAPPING)
        security = NULL;
    switch (walk->check) {
    case KUBE_CAP_DROP_ALL:
        return kube_cap_drop_all(ctx, container, security);
    case KUBE_NO_NEW_PRIVILEGES:
        return kube_boolean(ctx, container, security, "allowPrivilegeEscalation",
                            "securityContext.allowPrivilegeEscalation", 0, walk->rule,
                            "allowPrivilegeEscalation is not false: a setuid program "
                            "of the image can make its user root",
                            "allowPrivilegeEscalation is not false: a setuid program "
                            "of the image can make its user root");
    case KUBE_READ_ONLY:
        return kube_boolean(ctx, container, security, "readOnlyRootFilesystem",
                            "securityContext.readOnlyRootFilesystem", 1, walk->rule,
                            "the root file system is writable (no "
                            "readOnlyRootFilesystem: true)",
                            "readOnlyRootFilesystem is not true: the root file "
                            "system is writable");
    case KUBE_MEMORY_LIMIT:
        return kube_limit(ctx, container, "memory", walk->rule,
                          "the container may use all of the node's memory");
    case KUBE_CPU_LIMIT:
        return kube_limit(ctx, container, "cpu", walk->rule,
                          "the container may use every CPU of the node");
    case KUBE_NON_ROOT_USER:
        return kube_non_root_user(ctx, container, security, walk->pod_security);
    }
    return SL_OK;
}

/* Runs one container rule over an agent-env service or a pod spec. */
static int kube_check(struct sl_context *ctx, const char *service,
                      const struct sl_node *settings, enum kube_check check,
                      const char *rule)
{
    struct kube_walk walk;
    walk.check = check;
    walk.rule = rule;
    walk.pod_security = NULL;
    if (sl_kind(ctx) == SL_KIND_KUBERNETES)
        walk.pod_security = sl_mapping_value(settings, "securityContext", NULL);
    return sl_containers(ctx, service, settings, kube_container, &walk);
}

/* The check_service of a rule that reads Compose services one way and
 * containers another. */
#define KUBE_DISPATCH(function, compose_check, check, rule)                   \
    static int function(struct sl_context *ctx, const char *service,          \
                        const struct sl_node *service_key,                    \
                        const struct sl_node *settings)                       \
    {                                                                         \
        if (sl_kind(ctx) == SL_KIND_COMPOSE)                                  \
            return compose_check(ctx, service, service_key, settings);        \
        return kube_check(ctx, service, settings, check, rule);               \
    }

KUBE_DISPATCH(check_cap_drop_all_kinds, check_cap_drop_all, KUBE_CAP_DROP_ALL,
              "cap_drop_all")
KUBE_DISPATCH(check_no_new_privileges_kinds, check_no_new_privileges,
              KUBE_NO_NEW_PRIVILEGES, "no_new_privileges")
KUBE_DISPATCH(check_read_only_kinds, check_read_only, KUBE_READ_ONLY, "read_only")
KUBE_DISPATCH(check_memory_limit_kinds, check_memory_limit, KUBE_MEMORY_LIMIT,
              "memory_limit")
KUBE_DISPATCH(check_cpu_limit_kinds, check_cpu_limit, KUBE_CPU_LIMIT, "cpu_limit")
KUBE_DISPATCH(check_non_root_user_kinds, check_non_root_user, KUBE_NON_ROOT_USER,
              "non_root_user")

/* ---------------------------------------------------------------------- */
/* SBX109 network_egress (agent-env)                                       */
/* ---------------------------------------------------------------------- */

/* A top-level list of the agent-env chart that opens egress, and the items
 * that open it to the whole internet. */
struct egress_list {
    const char *name;
    const char *open[3];                /* NULL-terminated, any case */
    const char *what;
};

static const struct egress_list egress_lists[] = {
    { "allowEntities", { "world", "all", NULL },
      "lets every sandbox pod reach any address outside the cluster" },
    { "allowDomains", { "*", NULL, NULL },
      "lets every sandbox pod reach any domain" },
    { "allowCIDR", { "0.0.0.0/0", "::/0", NULL },
      "lets every sandbox pod reach any address" },
};

static int equals_any_case(const char *text, size_t length, const char *word)
{
    if (strlen(word) != length)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (ascii_upper((unsigned char)text[i]) != ascii_upper((unsigned char)word[i]))
            return 0;
    return 1;
}

static int check_network_egress(struct sl_context *ctx, const struct sl_node *root)
{
    for (size_t l = 0; l < sizeof(egress_lists) / sizeof(*egress_lists); l++) {
        const struct egress_list *list = &egress_lists[l];
        const struct sl_node *key;
        const struct sl_node *value = sl_mapping_value(root, list->name, &key);
        size_t count = sl_list_count(value);
        for (size_t i = 0; i < count; i++) {
            const struct sl_node *where;
            const struct sl_node *entry = sl_list_entry(value, key, i, &where);
            size_t length;
            const char *text = sl_setting_text(entry, &length);
            char quoted[SL_QUOTE_SIZE];
            int status = SL_OK;
            if (text == NULL)
                continue;
            sl_quote(quoted, sizeof(quoted), text, length);
            if (sl_is_templated(ctx, text, length)) {
                status = sl_reportf(ctx, where, list->name, text, length,
                                    SL_SEVERITY_WARNING, "%s entry '%s' is Helm "
                                    "template text and cannot be checked", list->name,
                                    quoted);
            } else {
                for (size_t o = 0; list->open[o] != NULL; o++)
                    if (equals_any_case(text, length, list->open[o])) {
                        status = sl_reportf(ctx, where, list->name, text, length,
                                            SL_SEVERITY_DEFAULT, "%s '%s' %s: "
                                            "unrestricted internet access",
                                            list->name, quoted, list->what);
                        break;
                    }
            }
            if (status != SL_OK)
                return SL_ERROR;
        }
    }
    return SL_OK;
}

/* ---------------------------------------------------------------------- */
/* The rules                                                               */
/* ---------------------------------------------------------------------- */

/*
 * Security severities (GitHub's scale, SPEC §9: "hardening per rule").
 * Each finding is a protection left out, not access granted, so none is
 * critical; the scores follow how much an attacker in the sandbox gains:
 *   7.0 cap_drop_all: the default capabilities (DAC_OVERRIDE, SETUID,
 *       NET_RAW, ...) are what most container escapes and attacks on
 *       neighbours start from; dropping them is the strongest subtraction.
 *   6.5 no_new_privileges: without it a setuid program of the image turns
 *       a sandboxed user back into root, with every capability kept.
 *   5.5 read_only: a writable root lets sandboxed code change its own
 *       tools and persist between commands, not reach the host.
 *   5.0 pids_limit, memory_limit: exhaustion that takes the host down.
 *   4.0 cpu_limit, non_root_user, published_ports: warnings (medium): a
 *       slow host, a root user that the image may already replace, a port
 *       the network can reach.
 */
#define GROUP "sandbox_hardening"

static const struct sl_rule cap_drop_all_rule = {
    SL_RULE_INIT,
    .code = "SBX101",
    .name = "cap_drop_all",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 7.0,
    .summary = "capabilities not all dropped (cap_drop: [ALL])",
    .description =
        "Reports a service whose cap_drop does not hold ALL (in any case, "
        "with or without the CAP_ prefix): without it the container keeps "
        "the engine's default capabilities.\n"
        "- No cap_drop at all: an error at the service's key.\n"
        "- A cap_drop without ALL: an error at cap_drop.\n"
        "- An interpolated entry when no entry is ALL: a warning at that "
        "entry, which cannot be checked.\n"
        "cap_drop lists merged from an anchor (<<) count, and so do those of "
        "services the service extends in the same file (Compose merges the "
        "lists); a list tagged !reset is no list. When the service extends "
        "one in another file, which sandlint does not see here, a missing "
        "cap_drop is a warning.\n"
        "In agent-env values and Kubernetes objects, each container's "
        "securityContext.capabilities.drop (agent-env: each service and its"
        " initContainers; Kubernetes: every container of every pod spec); "
        "key CONTAINER:cap_drop_all.\n"
        "Part of sandbox_hardening: off unless selected "
        "(--extend-select sandbox_hardening, or extend-select in the "
        "configuration).",
    .rationale =
        "A hardened agent sandbox is started with `docker run --cap-drop "
        "ALL`: an agent's shell needs no capability, and the ones a "
        "container keeps by default (CHOWN, DAC_OVERRIDE, FOWNER, FSETID, "
        "KILL, SETGID, SETUID, SETPCAP, NET_BIND_SERVICE, NET_RAW, "
        "SYS_CHROOT, MKNOD, AUDIT_WRITE, SETFCAP) let root in the container "
        "ignore file permissions, change its identity, forge packets on "
        "the network and create device nodes: a foothold for an escape.",
    .fix =
        "Drop everything, then add back only what the sandbox needs:\n"
        "    cap_drop:\n"
        "      - ALL\n"
        "If the sandbox really needs the default set, allowlist the key "
        "under sandbox_hardening for the package.",
    .key_format =
        "service:cap_drop_all (e.g. default:cap_drop_all)\n"
        "service:cap_drop:ENTRY for an interpolated entry (e.g. "
        "default:cap_drop:${DROP})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    cap_drop: [NET_RAW]",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_cap_drop_all_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX101.md",
};

static const struct sl_rule no_new_privileges_rule = {
    SL_RULE_INIT,
    .code = "SBX102",
    .name = "no_new_privileges",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 6.5,
    .summary = "setuid programs may gain privileges (no-new-privileges not set)",
    .description =
        "Reports a service whose security_opt has no item "
        "no-new-privileges, no-new-privileges:true or no-new-privileges=true "
        "(the value is read as Docker reads it: 1, t, T, true, TRUE, True "
        "are true).\n"
        "- No security_opt: an error at the service's key.\n"
        "- A security_opt without the item: an error at security_opt.\n"
        "- no-new-privileges:false (or another value that is not true): an "
        "error at that item.\n"
        "- An interpolated item when none is no-new-privileges: a warning "
        "at that item, which cannot be checked.\n"
        "Lists merged from an anchor, and those of services extended in the "
        "same file, count; a list tagged !reset is no list; a service that "
        "extends one in another file gets a warning instead of the error "
        "for a missing item.\n"
        "In agent-env values and Kubernetes objects, each container's "
        "securityContext.allowPrivilegeEscalation that is not false "
        "(missing: at the container); key CONTAINER:no_new_privileges.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox runs with `docker run --security-opt "
        "no-new-privileges`: with "
        "the flag the kernel refuses every privilege gain through execve, "
        "so a setuid-root program or a file capability in the image cannot "
        "turn a sandboxed user back into root. Without it, any such program "
        "the image carries (su, sudo, ping, a planted binary) is a way up.",
    .fix =
        "Add the option:\n"
        "    security_opt:\n"
        "      - no-new-privileges:true\n"
        "If the sandbox must run setuid programs, allowlist the key under "
        "sandbox_hardening for the package.",
    .key_format =
        "service:no_new_privileges (e.g. default:no_new_privileges)\n"
        "service:security_opt:ENTRY for an interpolated item (e.g. "
        "default:security_opt:${SECURITY_OPT})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    security_opt:\n"
        "      - no-new-privileges:false",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_no_new_privileges_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX102.md",
};

static const struct sl_rule read_only_rule = {
    SL_RULE_INIT,
    .code = "SBX103",
    .name = "read_only",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 5.5,
    .summary = "writable root file system (read_only not true)",
    .description =
        "Reports a service whose read_only is not true (true, yes, on, y in "
        "any case, as Compose reads it).\n"
        "- No read_only: an error at the service's key.\n"
        "- read_only false (or any other value): an error at read_only.\n"
        "- An interpolated value: a warning, which cannot be checked.\n"
        "A value merged from an anchor, or from a service extended in the "
        "same file, counts; a value tagged !reset is no value.\n"
        "In agent-env values and Kubernetes objects, each container's "
        "securityContext.readOnlyRootFilesystem that is not true; key "
        "CONTAINER:read_only.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox is started with `docker run "
        "--read-only`: sandboxed code can then write only where the author "
        "gave it a volume or a tmpfs. With a writable root it can replace "
        "the programs and libraries that later commands (and the people "
        "reviewing its work) run inside the container, and hide what it "
        "left there.",
    .fix =
        "Make the root read-only and give the sandbox the writable places "
        "it needs:\n"
        "    read_only: true\n"
        "    tmpfs:\n"
        "      - /tmp\n"
        "If the sandbox must write its root, allowlist the key under "
        "sandbox_hardening for the package.",
    .key_format =
        "service:read_only (e.g. default:read_only)\n"
        "service:read_only:VALUE for an interpolated value (e.g. "
        "default:read_only:${READ_ONLY})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    read_only: false",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_read_only_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX103.md",
};

static const struct sl_rule pids_limit_rule = {
    SL_RULE_INIT,
    .code = "SBX104",
    .name = "pids_limit",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 5.0,
    .summary = "no process limit (pids_limit)",
    .description =
        "Reports a service without a positive process limit: neither "
        "pids_limit nor deploy.resources.limits.pids is a positive whole "
        "number (0 and -1 mean no limit).\n"
        "- Neither is set: an error at the service's key.\n"
        "- One is 0, negative or not a number, and none is positive: an "
        "error at that setting.\n"
        "- One is interpolated, and none is positive: a warning, which "
        "cannot be checked.\n"
        "Values merged from an anchor, and from services extended in the "
        "same file, count; a value (or a deploy, resources or limits "
        "mapping) tagged !reset is none.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox is bounded with `docker run "
        "--pids-limit 512`. Without a limit, a fork bomb in the sandbox "
        "fills the host's process table and the host can no longer start "
        "processes, its own included.",
    .fix =
        "Set a limit that the sandbox's work fits in:\n"
        "    pids_limit: 512\n"
        "or, in the deploy form:\n"
        "    deploy:\n"
        "      resources:\n"
        "        limits:\n"
        "          pids: 512\n"
        "If the sandbox really needs unbounded processes, allowlist the key "
        "under sandbox_hardening for the package.",
    .key_format =
        "service:pids_limit (e.g. default:pids_limit)\n"
        "service:SETTING:VALUE for an interpolated value (e.g. "
        "default:pids_limit:${PIDS}, "
        "default:deploy.resources.limits.pids:${PIDS})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    pids_limit: -1",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_pids_limit,
    .url = RULE_DOCS_URL "SBX104.md",
};

static const struct sl_rule memory_limit_rule = {
    SL_RULE_INIT,
    .code = "SBX105",
    .name = "memory_limit",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 5.0,
    .summary = "no memory limit (mem_limit)",
    .description =
        "Reports a service without a positive memory limit: neither "
        "mem_limit nor deploy.resources.limits.memory is a positive size "
        "(a number with an optional unit b, k, m, g, t or p, as in 512m, "
        "2g, 1.5GiB; 0 and -1 mean no limit).\n"
        "- Neither is set: an error at the service's key.\n"
        "- One is 0, negative or not a size, and none is positive: an "
        "error at that setting.\n"
        "- One is interpolated, and none is positive: a warning, which "
        "cannot be checked.\n"
        "Values merged from an anchor, and from services extended in the "
        "same file, count; a value tagged !reset is none.\n"
        "In Kubernetes objects, each container (not ephemeral ones) without"
        " resources.limits.memory; in agent-env values only a service or "
        "init container whose resources are given without it (the chart's "
        "defaults set both when resources are not given); key "
        "CONTAINER:memory_limit.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox is bounded with `docker run --memory "
        "2g`. Without a limit the sandbox can take all of the host's "
        "memory: the kernel's out-of-memory killer then picks victims among "
        "the host's own processes.",
    .fix =
        "Set a limit:\n"
        "    mem_limit: 2g\n"
        "or, in the deploy form:\n"
        "    deploy:\n"
        "      resources:\n"
        "        limits:\n"
        "          memory: 2g\n"
        "If the sandbox really needs the host's memory, allowlist the key "
        "under sandbox_hardening for the package.",
    .key_format =
        "service:memory_limit (e.g. default:memory_limit)\n"
        "service:SETTING:VALUE for an interpolated value (e.g. "
        "default:mem_limit:${MEMORY}, "
        "default:deploy.resources.limits.memory:${MEMORY})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    mem_limit: 0",
    .default_severity = SL_SEVERITY_ERROR,
    .check_service = check_memory_limit_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX105.md",
};

static const struct sl_rule cpu_limit_rule = {
    SL_RULE_INIT,
    .code = "SBX106",
    .name = "cpu_limit",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 4.0,
    .summary = "no CPU limit (cpus)",
    .description =
        "Warns about a service without a positive CPU limit: none of cpus, "
        "cpu_quota and deploy.resources.limits.cpus is a positive number "
        "(0 and -1 mean no limit).\n"
        "- None is set: a warning at the service's key.\n"
        "- One is 0, negative or not a number, and none is positive: a "
        "warning at that setting.\n"
        "- One is interpolated, and none is positive: a warning, which "
        "cannot be checked.\n"
        "cpu_shares (a relative weight) and cpuset (which CPUs, each of "
        "which the sandbox may then fill) are not limits. Values merged "
        "from an anchor, and from services extended in the same file, "
        "count; a value tagged !reset is none.\n"
        "In Kubernetes objects, each container (not ephemeral ones) without"
        " resources.limits.cpu; in agent-env values only a service or init "
        "container whose resources are given without it (the chart's "
        "defaults set both); key CONTAINER:cpu_limit.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox's `docker run` bounds processes and memory; a "
        "CPU bound (`docker run --cpus 2`) completes it. Without one, a "
        "busy or hostile sandbox keeps every CPU of the host busy and "
        "starves the host and the other sandboxes. A warning: the host "
        "slows down but keeps working.",
    .fix =
        "Set a limit:\n"
        "    cpus: 2\n"
        "or, in the deploy form:\n"
        "    deploy:\n"
        "      resources:\n"
        "        limits:\n"
        "          cpus: \"2\"\n"
        "If the sandbox really needs every CPU, allowlist the key under "
        "sandbox_hardening for the package.",
    .key_format =
        "service:cpu_limit (e.g. default:cpu_limit)\n"
        "service:SETTING:VALUE for an interpolated value (e.g. "
        "default:cpus:${CPUS}, default:deploy.resources.limits.cpus:${CPUS})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    mem_limit: 2g",
    .default_severity = SL_SEVERITY_WARNING,
    .check_service = check_cpu_limit_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX106.md",
};

static const struct sl_rule non_root_user_rule = {
    SL_RULE_INIT,
    .code = "SBX107",
    .name = "non_root_user",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 4.0,
    .summary = "the container may run as root (user)",
    .description =
        "Warns about a service that sets no user, or whose user is root: "
        "user root or a UID of 0, with or without a group (root, 0:0, "
        "root:root, 0:1000). A non-root user with group 0 (1000:0) is "
        "fine.\n"
        "- No user: a warning at the service's key. The image may set a "
        "user of its own (USER in its Dockerfile), which sandlint cannot "
        "see, so this is a warning and its message says so.\n"
        "- A root user: a warning at user.\n"
        "- An interpolated user: a warning, which cannot be checked.\n"
        "A user merged from an anchor, or from a service extended in the "
        "same file, counts; a user tagged !reset is none.\n"
        "In agent-env values and Kubernetes objects, each container whose "
        "runAsNonRoot is not true and whose runAsUser is 0 or unset, the "
        "container's securityContext over the pod's as Kubernetes applies "
        "them; key CONTAINER:non_root_user.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "Root in a container is root on the host's kernel: every kernel "
        "bug, every capability left and every writable host mount is "
        "reached as UID 0, and files it writes to a bind-mounted directory "
        "come back owned by root on the host. Running as an unprivileged "
        "user (`docker run --user 1000:1000`) takes that away.",
    .fix =
        "Run as a user that the image has:\n"
        "    user: \"1000:1000\"\n"
        "If the image already sets a non-root USER, say so with the same "
        "line, or allowlist the key under sandbox_hardening for the "
        "package.",
    .key_format =
        "service:non_root_user (e.g. default:non_root_user)\n"
        "service:user:VALUE for an interpolated user (e.g. "
        "default:user:${UID}:${GID})",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    user: root",
    .default_severity = SL_SEVERITY_WARNING,
    .check_service = check_non_root_user_kinds,
    .kinds = SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX107.md",
};

static const struct sl_rule published_ports_rule = {
    SL_RULE_INIT,
    .code = "SBX108",
    .name = "published_ports",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 4.0,
    .summary = "ports published on every host interface",
    .description =
        "Warns about each ports item that publishes on every host "
        "interface: a short-syntax item [[HOST_IP:]HOST_PORT:]CONTAINER_PORT"
        "[/PROTOCOL] without a host IP, or with 0.0.0.0, :: or [::] (a lone "
        "container port is published on a free host port); a long-syntax "
        "item without host_ip or with one of those. A host port below 1024 "
        "is named in the message. Items published on one address "
        "(127.0.0.1:8080:80, host_ip: 127.0.0.1) are fine, and so is "
        "expose.\n"
        "An interpolation where the host IP is, or may be (the host port "
        "of an item without a host IP, or a lone item, may expand to "
        "IP:PORT), cannot be checked: a warning. Only the service's own "
        "ports are read (the items of an extended service are reported at "
        "that service); an anchor merged with << counts; a list tagged "
        "!reset is none.\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "A hardened agent sandbox is started without -p (no published "
        "port), and with --network none when it needs no network. A port "
        "published on every interface is reachable from every network the "
        "host is on, so whatever the sandbox runs becomes a service others "
        "can reach; on a port below 1024 it takes the place of a system "
        "service. On the loopback interface only the host reaches it.",
    .fix =
        "Publish on the loopback interface:\n"
        "    ports:\n"
        "      - \"127.0.0.1:8080:80\"\n"
        "or, in the long syntax, add host_ip: 127.0.0.1; or remove the "
        "item when only other services of the file talk to it (they reach "
        "it on the Compose network without any ports). If the port must be "
        "public, allowlist the key under sandbox_hardening for the "
        "package.",
    .key_format =
        "service:ports:ITEM, the item as written (e.g. default:ports:8080:80)\n"
        "for a long-syntax item, the short syntax it stands for, "
        "[HOST_IP:][PUBLISHED:]TARGET[/PROTOCOL] from its fields as written "
        "(e.g. default:ports:8080:80/udp)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    ports:\n"
        "      - \"8080:80\"\n"
        "      - \"0.0.0.0:22:22\"",
    .default_severity = SL_SEVERITY_WARNING,
    .check_service = check_published_ports,
    .url = RULE_DOCS_URL "SBX108.md",
};

static const struct sl_rule network_egress_rule = {
    SL_RULE_INIT,
    .code = "SBX109",
    .name = "network_egress",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 6.0,
    .summary = "an agent-env sandbox open to the whole internet",
    .description =
        "Reports, in agent-env values (inspect_k8s_sandbox's Helm chart), "
        "each top-level entry that opens egress to everything:\n"
        "- allowEntities world or all (Cilium's entities, any case);\n"
        "- allowDomains *;\n"
        "- allowCIDR 0.0.0.0/0 or ::/0.\n"
        "Named domains, narrower wildcards (*.pypi.org) and ranges are "
        "fine: they are the author's call. Helm template text "
        "({{ ... }}) is a warning: it cannot be checked. Compose files and "
        "Kubernetes objects are not checked: whether they reach the "
        "internet depends on network policies outside the file.\n"
        "Part of sandbox_hardening: off unless selected "
        "(--extend-select sandbox_hardening, or extend-select in the "
        "configuration).",
    .rationale =
        "The chart's default is no internet at all: a sandbox reaches only "
        "the domains and ranges its author lists. An entry that opens "
        "everything lets sandboxed code download tools, reach cloud "
        "metadata and control planes outside the cluster, and send out "
        "whatever it finds - seed 003's --network none, undone by one "
        "line.",
    .fix =
        "List the domains the task needs (allowDomains: [pypi.org, "
        "files.pythonhosted.org]) or the ranges (allowCIDR: "
        "[203.0.113.0/24]). If the task really needs the whole internet, "
        "allowlist the key under sandbox_hardening for the package.",
    .key_format =
        "allowEntities:ENTITY, allowDomains:*, allowCIDR:RANGE "
        "(document-level keys, no service; e.g. allowEntities:world)",
    .example =
        "allowEntities: [world]\n"
        "services:\n"
        "  default:\n"
        "    image: python:3.12",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = check_network_egress,
    .kinds = SL_KIND_AGENT_ENV,
    .url = RULE_DOCS_URL "SBX109.md",
};

static const struct sl_rule *const rules[] = {
    &cap_drop_all_rule, &no_new_privileges_rule, &read_only_rule, &pids_limit_rule,
    &memory_limit_rule, &cpu_limit_rule, &non_root_user_rule, &published_ports_rule,
    &network_egress_rule, NULL,
};

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "hardening",
    .version = "1.0.0",
    .summary = "opt-in checks against a hardened docker run: capabilities, "
               "no-new-privileges, read-only root, limits, user, ports",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
