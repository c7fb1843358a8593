/*
 * hardening.c - SBX101-SBX110, the sandbox_hardening group: what a sandbox
 * fails to take away (SPEC §7b; SPEC §12 for agent-env values and
 * Kubernetes objects, and SBX109; SPEC §13 for SBX110).
 *
 * The rules of sandbox_privileges report what a file adds; these report
 * what it leaves in, measured against seed 003's hardened `docker run`:
 * --cap-drop ALL, --security-opt no-new-privileges, --read-only,
 * --pids-limit, --memory, --cpus, a user that is not root and no port
 * published to the world.  Every rule is opt-in (--extend-select
 * sandbox_hardening).
 *
 * Written against the public SDK only, as an in-house rule would be, on
 * the container model: each rule reads what a container ends up with (the
 * effective view: what a Compose service extends and merges, what a pod's
 * securityContext gives its containers, what the agent-env chart sets by
 * default), once, for every kind.  The semantics of each format (extends,
 * !reset, sizes, ports) are its front-end's.
 *
 * Conventions of the group:
 *   - a setting that is missing is reported at the container (sl_setting.
 *     node), a weak one at the setting or the list item; both have the key
 *     CONTAINER:RULE_NAME, so one allowlist entry covers the container
 *     whatever the file says;
 *   - a value that cannot be checked (interpolated, template text) is a
 *     warning keyed CONTAINER:FIELD:VALUE, the raw value;
 *   - a setting that may be set where sandlint cannot see it (a base
 *     service in another file) makes a missing setting a warning;
 *   - words that differ by platform (the engine's defaults and the host's
 *     memory, the runtime's and the node's) come from the scope's platform,
 *     never from its kind.
 */
#include <sandlint/rule.h>

#define GROUP "sandbox_hardening"

/* The words of one platform (struct sl_scope.platform). */
static int kubernetes(const struct sl_scope *scope)
{
    return scope->platform == SL_PLATFORM_KUBERNETES;
}

/* What runs the container, in messages: Docker's engine, or a pod's
 * runtime. */
static const char *runner(const struct sl_scope *scope)
{
    return kubernetes(scope) ? "runtime" : "engine";
}

/* How a format writes a setting with its value, for "(no ...)" in the
 * message about a missing setting: each format in its own text (SPEC
 * §18), never YAML in a command line, a TOML or a JSON file. */
enum syntax { SYNTAX_YAML, SYNTAX_FLAG, SYNTAX_TOML, SYNTAX_JSON };

/* The syntax of name (a setting's field or label) in scope's format: an
 * engine flag wherever it is written (command lines, job options, a dev
 * container's runArgs), else the file's own. */
static enum syntax syntax_of(const struct sl_scope *scope, const char *name)
{
    if (name != NULL && strncmp(name, "--", 2) == 0)
        return SYNTAX_FLAG;
    if (scope->kind == SL_KIND_GITLAB_RUNNER)
        return SYNTAX_TOML;
    if (scope->kind == SL_KIND_DEVCONTAINER)
        return SYNTAX_JSON;
    return SYNTAX_YAML;
}

/* name holding value, written as scope's format writes it: yaml is the
 * YAML form (a format of "%s" and the value), flag the engine flag's
 * ("%s ALL", "%s"), list whether TOML and JSON hold the value in a list;
 * value is how TOML and JSON write it (quoted when a string). */
static const char *spell(char *buffer, size_t size, const struct sl_scope *scope,
                         const char *name, const char *yaml, const char *flag,
                         const char *value, int list)
{
    switch (syntax_of(scope, name)) {
    case SYNTAX_FLAG:
        snprintf(buffer, size, flag, name);
        break;
    case SYNTAX_TOML:
        snprintf(buffer, size, list ? "%s = [%s]" : "%s = %s", name, value);
        break;
    case SYNTAX_JSON:
        snprintf(buffer, size, list ? "\"%s\": [%s]" : "\"%s\": %s", name, value);
        break;
    default:
        snprintf(buffer, size, yaml, name);
        break;
    }
    return buffer;
}

/* Setting id of the container, as it ends up (effective view). */
static int effective(struct sl_context *ctx, const struct sl_scope *scope, int id,
                     struct sl_setting *setting)
{
    return sl_setting(ctx, scope, id, SL_VIEW_EFFECTIVE, setting);
}

static int value_at(struct sl_context *ctx, const struct sl_scope *scope, int id,
                    size_t index, struct sl_value *value)
{
    return sl_setting_value(ctx, scope, id, SL_VIEW_EFFECTIVE, index, value);
}

/* Whether a rule has anything to say about the setting: not when the
 * format cannot express it, the host does not model it, or the format's
 * default applies and names no value to judge. */
static int judged(const struct sl_setting *setting)
{
    return setting->state != SL_SETTING_UNSUPPORTED &&
           setting->state != SL_SETTING_UNMODELLED &&
           !(setting->state == SL_SETTING_DEFAULT && setting->count == 0);
}

/* The hint of a finding about setting: the format's words for adding it,
 * or the allowlist entry alone (NULL: the host's standard hint). */
static const char *hint(char *buffer, size_t size, const struct sl_setting *setting)
{
    return sl_hint_or_allowlist(buffer, size, setting->hint);
}

/* A setting the rule needs is missing: an error at the container, or a
 * warning when a base sandlint cannot see may set it; advice is the hint
 * (NULL: the host's standard one). */
static int report_missing_advised(struct sl_context *ctx, const struct sl_setting *setting,
                                  const char *rule, const char *message,
                                  const char *advice)
{
    char quoted[SL_QUOTE_SIZE];
    if (setting->state == SL_SETTING_UNSEEN)
        return sl_reportf_hint(ctx, setting->node, rule, NULL, 0, SL_SEVERITY_WARNING,
                               advice, "%s, unless the service it extends from '%s' sets "
                               "it, which cannot be checked here", message,
                               sl_quote(quoted, sizeof(quoted), setting->unseen,
                                        setting->unseen_length));
    return sl_reportf_hint(ctx, setting->node, rule, NULL, 0, SL_SEVERITY_DEFAULT, advice,
                           "%s", message);
}

/* The same, with the format's hint for adding the setting. */
static int report_missing(struct sl_context *ctx, const struct sl_setting *setting,
                          const char *rule, const char *message)
{
    char buffer[512];
    return report_missing_advised(ctx, setting, rule, message,
                                  hint(buffer, sizeof(buffer), setting));
}

/* Reports every value of setting that cannot be checked (wording: how an
 * interpolation is put); *reported receives how many. */
static int report_unresolved(struct sl_context *ctx, const struct sl_scope *scope, int id,
                             const struct sl_setting *setting, int wording,
                             size_t *reported)
{
    for (size_t i = 0; i < setting->count; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, id, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state == SL_VALUE_SET)
            continue;
        (*reported)++;
        if (sl_report_unresolved(ctx, &value, value.node, wording) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* ---------------------------------------------------------------------- */
/* SBX101 cap_drop_all                                                     */
/* ---------------------------------------------------------------------- */

/* Whether the container drops every capability: an entry ALL (any case,
 * CAP_ prefix allowed: the model's parsed name). */
static int drops_all(struct sl_context *ctx, const struct sl_scope *scope,
                     const struct sl_setting *drop, int *all)
{
    *all = 0;
    for (size_t i = 0; i < drop->count && !*all; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, SL_SETTING_CAP_DROP, i, &value) != SL_OK)
            return SL_ERROR;
        *all = value.state == SL_VALUE_SET &&
               sl_text_equals(value.parsed, value.parsed_length, "ALL");
    }
    return SL_OK;
}

static int check_cap_drop_all(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting drop;
    char buffer[512], message[256];
    int all;
    size_t unresolved = 0;
    if (effective(ctx, scope, SL_SETTING_CAP_DROP, &drop) != SL_OK ||
        drops_all(ctx, scope, &drop, &all) != SL_OK)
        return SL_ERROR;
    if (all || !judged(&drop))
        return SL_OK;
    /* An entry that cannot be checked may be ALL: say so, nothing more.
     * (A collection entry drops nothing.) */
    for (size_t i = 0; i < drop.count; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, SL_SETTING_CAP_DROP, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state == SL_VALUE_TEMPLATED) {
            unresolved++;
            if (sl_report_unresolved(ctx, &value, value.node, SL_WORDING_ENTRY) != SL_OK)
                return SL_ERROR;
        }
    }
    if (unresolved > 0)
        return SL_OK;
    if (drop.key != NULL)
        return sl_reportf_hint(ctx, drop.key, "cap_drop_all", NULL, 0, SL_SEVERITY_DEFAULT,
                               hint(buffer, sizeof(buffer), &drop),
                               "%s does not hold ALL: the %s keeps the rest of the %s's "
                               "default capabilities", drop.label, scope->noun,
                               runner(scope));
    char spelled[128];
    snprintf(message, sizeof(message), "the %s keeps the %s's default capabilities, among "
             "them CHOWN, DAC_OVERRIDE, FOWNER, SETUID, SETGID and NET_RAW (no %s)",
             scope->noun, runner(scope),
             spell(spelled, sizeof(spelled), scope, drop.field, "%s: [ALL]", "%s ALL",
                   "\"ALL\"", 1));
    return report_missing(ctx, &drop, "cap_drop_all", message);
}

/* ---------------------------------------------------------------------- */
/* SBX102 no_new_privileges                                                */
/* ---------------------------------------------------------------------- */

/* Kubernetes says it one way for a missing and a weak setting alike. */
#define ESCALATION "%s is not false: a setuid program of the image can make its user root"

static int check_no_new_privileges(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting nnp, other;
    char buffer[512], quoted[SL_QUOTE_SIZE], message[256];
    size_t unresolved = 0;
    if (effective(ctx, scope, SL_SETTING_NO_NEW_PRIVILEGES, &nnp) != SL_OK ||
        effective(ctx, scope, SL_SETTING_SECURITY_OTHER, &other) != SL_OK)
        return SL_ERROR;
    if (!judged(&nnp))
        return SL_OK;
    /* The value the runtime reads (the model keeps the one that wins). */
    for (size_t i = 0; i < nnp.count; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, SL_SETTING_NO_NEW_PRIVILEGES, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_SET)
            continue;
        if (value.meaning == 1)
            return SL_OK;
        sl_quote(quoted, sizeof(quoted), value.text, value.text_length);
        if (kubernetes(scope))
            return sl_reportf_hint(ctx, value.key, "no_new_privileges", NULL, 0,
                                   SL_SEVERITY_DEFAULT, hint(buffer, sizeof(buffer), &nnp),
                                   ESCALATION, value.label);
        return sl_reportf_hint(ctx, value.key, "no_new_privileges", NULL, 0,
                               SL_SEVERITY_DEFAULT, hint(buffer, sizeof(buffer), &nnp),
                               "%s '%s' lets setuid and file-capability programs gain "
                               "privileges", value.label, quoted);
    }
    /* What cannot be checked may set it: the setting's own values, and the
     * engine options whose name is interpolated. */
    if (report_unresolved(ctx, scope, SL_SETTING_NO_NEW_PRIVILEGES, &nnp,
                          SL_WORDING_ENTRY, &unresolved) != SL_OK)
        return SL_ERROR;
    for (size_t i = 0; judged(&other) && i < other.count; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, SL_SETTING_SECURITY_OTHER, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_TEMPLATED)
            continue;
        unresolved++;
        if (sl_report_unresolved(ctx, &value, value.node, SL_WORDING_ENTRY) != SL_OK)
            return SL_ERROR;
    }
    if (unresolved > 0)
        return SL_OK;
    if (kubernetes(scope)) {
        snprintf(message, sizeof(message), ESCALATION, nnp.label);
        return report_missing(ctx, &nnp, "no_new_privileges", message);
    }
    if (nnp.key != NULL)
        return sl_reportf_hint(ctx, nnp.key, "no_new_privileges", NULL, 0,
                               SL_SEVERITY_DEFAULT, hint(buffer, sizeof(buffer), &nnp),
                               "%s does not hold no-new-privileges: setuid and "
                               "file-capability programs can gain privileges", nnp.label);
    char spelled[128];
    snprintf(message, sizeof(message), "setuid and file-capability programs can gain "
             "privileges (no %s)",
             spell(spelled, sizeof(spelled), scope, nnp.label, "%s no-new-privileges",
                   "%s no-new-privileges", "\"no-new-privileges\"", 1));
    return report_missing(ctx, &nnp, "no_new_privileges", message);
}

/* ---------------------------------------------------------------------- */
/* SBX103 read_only                                                        */
/* ---------------------------------------------------------------------- */

static int check_read_only(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    struct sl_value value;
    char buffer[512], quoted[SL_QUOTE_SIZE], message[256];
    if (effective(ctx, scope, SL_SETTING_READ_ONLY_ROOT, &setting) != SL_OK)
        return SL_ERROR;
    if (!judged(&setting))
        return SL_OK;
    if (setting.count == 0) {
        char spelled[128];
        snprintf(message, sizeof(message), "the root file system is writable (no %s)%s",
                 spell(spelled, sizeof(spelled), scope, setting.label, "%s: true", "%s",
                       "true", 0),
                 kubernetes(scope) ? "" : ": sandboxed code can change the programs and "
                 "libraries of its image");
        return report_missing(ctx, &setting, "read_only", message);
    }
    if (value_at(ctx, scope, SL_SETTING_READ_ONLY_ROOT, 0, &value) != SL_OK)
        return SL_ERROR;
    if (value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_VALUE);
    if (value.meaning == 1)
        return SL_OK;
    if (kubernetes(scope))
        return sl_reportf_hint(ctx, value.key, "read_only", NULL, 0, SL_SEVERITY_DEFAULT,
                               hint(buffer, sizeof(buffer), &setting),
                               "%s is not true: the root file system is writable",
                               value.label);
    return sl_reportf_hint(ctx, value.key, "read_only", NULL, 0, SL_SEVERITY_DEFAULT,
                           hint(buffer, sizeof(buffer), &setting),
                           "%s '%s' leaves the root file system writable", value.label,
                           sl_quote(quoted, sizeof(quoted), value.text, value.text_length));
}

/* ---------------------------------------------------------------------- */
/* Limits: pids, memory, CPU                                               */
/* ---------------------------------------------------------------------- */

/* What a limit rule checks and says. */
struct limit_rule {
    const char *name;           /* the rule's name: the key's field */
    int id;                     /* the setting */
    const char *what;           /* "process limit" */
    const char *host;           /* the engine's host: what it risks */
    const char *node;           /* a Kubernetes node: what it risks */
};

static const struct limit_rule pids_limit_rule_data = {
    "pids_limit", SL_SETTING_PIDS_LIMIT, "process limit",
    "a fork bomb in the sandbox can exhaust the host's process table",
    "a fork bomb in the sandbox can exhaust the node's process table",
};
static const struct limit_rule memory_limit_rule_data = {
    "memory_limit", SL_SETTING_MEMORY_LIMIT, "memory limit",
    "the sandbox can take all of the host's memory",
    "the container may use all of the node's memory",
};
static const struct limit_rule cpu_limit_rule_data = {
    "cpu_limit", SL_SETTING_CPU_LIMIT, "CPU limit",
    "the sandbox can keep every CPU of the host busy",
    "the container may use every CPU of the node",
};

/*
 * Reports a container without a positive limit.  Any limit passes.  Else
 * every value that cannot be checked warns; else the first that sets none
 * (0, negative, not a number) is an error at that setting; else the
 * container has none: an error at the container.
 */
static int check_limit(struct sl_context *ctx, const struct sl_scope *scope,
                       const struct limit_rule *rule)
{
    struct sl_setting setting;
    struct sl_value value, weak;
    char buffer[512], quoted[SL_QUOTE_SIZE], message[512];
    const char *consequence = kubernetes(scope) ? rule->node : rule->host;
    int have_weak = 0;
    size_t unresolved = 0;
    if (effective(ctx, scope, rule->id, &setting) != SL_OK)
        return SL_ERROR;
    if (!judged(&setting))
        return SL_OK;
    for (size_t i = 0; i < setting.count; i++) {
        if (value_at(ctx, scope, rule->id, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state == SL_VALUE_SET && value.meaning == SL_LIMIT_SET)
            return SL_OK;
        if (value.state == SL_VALUE_SET && !have_weak) {
            weak = value;
            have_weak = 1;
        }
    }
    if (report_unresolved(ctx, scope, rule->id, &setting, SL_WORDING_VALUE,
                          &unresolved) != SL_OK)
        return SL_ERROR;
    if (unresolved > 0)
        return SL_OK;
    if (have_weak)
        return sl_reportf_hint(ctx, weak.key, rule->name, NULL, 0, SL_SEVERITY_DEFAULT,
                               hint(buffer, sizeof(buffer), &setting), "%s '%s' %s: %s",
                               weak.field,
                               sl_quote(quoted, sizeof(quoted), weak.text, weak.text_length),
                               weak.meaning == SL_LIMIT_NONE ? "sets no limit"
                                                             : "is not a valid limit",
                               consequence);
    if (kubernetes(scope))
        snprintf(message, sizeof(message), "no %s: %s", setting.label, consequence);
    else
        snprintf(message, sizeof(message), "no %s (%s): %s", rule->what, setting.label,
                 consequence);
    return report_missing(ctx, &setting, rule->name, message);
}

static int check_pids_limit(struct sl_context *ctx, const struct sl_scope *scope)
{
    return check_limit(ctx, scope, &pids_limit_rule_data);
}

static int check_memory_limit(struct sl_context *ctx, const struct sl_scope *scope)
{
    return check_limit(ctx, scope, &memory_limit_rule_data);
}

static int check_cpu_limit(struct sl_context *ctx, const struct sl_scope *scope)
{
    return check_limit(ctx, scope, &cpu_limit_rule_data);
}

/* ---------------------------------------------------------------------- */
/* SBX107 non_root_user                                                    */
/* ---------------------------------------------------------------------- */

static int check_non_root_user(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting non_root, user;
    struct sl_value value;
    char buffer[512], quoted[SL_QUOTE_SIZE];
    if (effective(ctx, scope, SL_SETTING_RUN_AS_NON_ROOT, &non_root) != SL_OK ||
        effective(ctx, scope, SL_SETTING_USER, &user) != SL_OK)
        return SL_ERROR;
    /* A runtime that refuses to start it as root settles it. */
    if (non_root.count > 0) {
        if (value_at(ctx, scope, SL_SETTING_RUN_AS_NON_ROOT, 0, &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_VALUE);
        if (value.meaning == 1)
            return SL_OK;
    }
    if (!judged(&user))
        return SL_OK;
    if (user.count == 0)
        return report_missing(ctx, &user, "non_root_user",
                              kubernetes(scope)
                                  ? "neither runAsNonRoot: true nor a runAsUser other than "
                                    "0: the container runs as root unless its image sets "
                                    "another user"
                                  : "no user is set: the container runs as root unless its "
                                    "image sets a user of its own");
    if (value_at(ctx, scope, SL_SETTING_USER, 0, &value) != SL_OK)
        return SL_ERROR;
    if (value.state != SL_VALUE_SET)
        return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_VALUE);
    if (value.meaning != SL_USER_ROOT)
        return SL_OK;
    sl_quote(quoted, sizeof(quoted), value.text, value.text_length);
    return sl_reportf_hint(ctx, value.node, "non_root_user", NULL, 0, SL_SEVERITY_DEFAULT,
                           hint(buffer, sizeof(buffer), &user),
                           kubernetes(scope) ? "%s %s runs the container as root"
                                             : "%s '%s' runs the container as root",
                           value.label, quoted);
}

/* ---------------------------------------------------------------------- */
/* SBX108 published_ports                                                  */
/* ---------------------------------------------------------------------- */

/* The ports the container itself publishes (a service it extends reports
 * its own). */
static int check_published_ports(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting ports;
    char buffer[512], quoted[SL_QUOTE_SIZE];
    if (effective(ctx, scope, SL_SETTING_PORTS, &ports) != SL_OK)
        return SL_ERROR;
    for (size_t i = 0; judged(&ports) && i < ports.count; i++) {
        struct sl_value value;
        int status = SL_OK;
        if (value_at(ctx, scope, SL_SETTING_PORTS, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.origin != SL_ORIGIN_OWN)
            continue;
        sl_quote(quoted, sizeof(quoted), value.text, value.text_length);
        if (value.state != SL_VALUE_SET)
            status = sl_report_unresolved(ctx, &value, value.node, SL_WORDING_ENTRY);
        else if (value.meaning != SL_PORT_EVERY_INTERFACE)
            status = SL_OK;
        else if (value.number > 0 && value.number < 1024)
            status = sl_report_value(ctx, &value, value.node, SL_SEVERITY_DEFAULT,
                                     hint(buffer, sizeof(buffer), &ports), 0.0,
                                     "%s '%s' publishes host port %ld, below 1024, on "
                                     "every host interface", value.label, quoted,
                                     (long)value.number);
        else
            status = sl_report_value(ctx, &value, value.node, SL_SEVERITY_DEFAULT,
                                     hint(buffer, sizeof(buffer), &ports), 0.0,
                                     "%s '%s' publishes on every host interface",
                                     value.label, quoted);
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

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

static int ascii_upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

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
/* SBX110 seccomp_profile (pods)                                           */
/* ---------------------------------------------------------------------- */

#define SECCOMP_HINT "add 'seccompProfile: {type: RuntimeDefault}' to its securityContext " \
                     "(or the pod's)"

/* A container in a pod whose effective seccompProfile.type (its own, else
 * the pod's) is not RuntimeDefault or Localhost: the kubelet starts it
 * with no seccomp filter unless the node sets a default (the kubelet's
 * --seccomp-default, off unless turned on), where an engine applies its
 * default profile - so Compose and the other engine formats are not
 * reported (SPEC §13). */
static int check_seccomp_profile(struct sl_context *ctx, const struct sl_scope *scope)
{
    struct sl_setting setting;
    char buffer[512], quoted[SL_QUOTE_SIZE], message[256];
    if (!kubernetes(scope))
        return SL_OK;
    if (effective(ctx, scope, SL_SETTING_SECCOMP, &setting) != SL_OK)
        return SL_ERROR;
    if (setting.state == SL_SETTING_UNSUPPORTED || setting.state == SL_SETTING_UNMODELLED)
        return SL_OK;
    const char *advice = sl_hint_or_allowlist(buffer, sizeof(buffer), SECCOMP_HINT);
    for (size_t i = 0; i < setting.count; i++) {
        struct sl_value value;
        if (value_at(ctx, scope, SL_SETTING_SECCOMP, i, &value) != SL_OK)
            return SL_ERROR;
        if (value.state != SL_VALUE_SET)
            return sl_report_unresolved(ctx, &value, value.node, SL_WORDING_VALUE);
        if (value.meaning == SL_CONFINEMENT_DEFAULT || value.meaning == SL_CONFINEMENT_CUSTOM)
            return SL_OK;
        sl_quote(quoted, sizeof(quoted), value.text, value.text_length);
        return sl_reportf_hint(ctx, value.node, "seccomp_profile", NULL, 0,
                               SL_SEVERITY_DEFAULT, advice, "%s '%s' is not RuntimeDefault "
                               "or Localhost: the %s runs with no seccomp system-call "
                               "filter", value.label, quoted, scope->noun);
    }
    snprintf(message, sizeof(message), "the %s runs with no seccomp system-call filter "
             "unless the node's kubelet sets a default (no seccompProfile.type "
             "RuntimeDefault or Localhost in its securityContext or the pod's)",
             scope->noun);
    return report_missing_advised(ctx, &setting, "seccomp_profile", message, advice);
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
    .check_container = check_cap_drop_all,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_no_new_privileges,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_read_only,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_pids_limit,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_memory_limit,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_cpu_limit,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_non_root_user,
    .kinds = SL_KIND_EVERY,
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
    .check_container = check_published_ports,
    .kinds = SL_KIND_EVERY,
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

static const struct sl_rule seccomp_profile_rule = {
    SL_RULE_INIT,
    .code = "SBX110",
    .name = "seccomp_profile",
    .group = GROUP,
    .flags = SL_RULE_OPT_IN,
    .security_severity = 5.0,
    .summary = "a pod's container without a seccomp profile (RuntimeDefault)",
    .description =
        "Warns about each container of an agent-env service or a Kubernetes "
        "pod spec whose effective securityContext.seccompProfile.type (the "
        "container's own, else the pod's) is not RuntimeDefault or "
        "Localhost: at the container's key when no type is set, at the type "
        "when it names another one (Unconfined, which SBX001 also reports, "
        "or one Kubernetes does not know). Helm template text is a warning: "
        "it cannot be checked.\n"
        "Compose files and the other engine formats are not checked: an "
        "engine applies its default seccomp profile unless told not to "
        "(SBX001 reports seccomp=unconfined).\n"
        "Part of sandbox_hardening: off unless selected.",
    .rationale =
        "Unlike Docker, the kubelet runs containers Unconfined unless the "
        "pod asks for a profile or the node turns on its --seccomp-default: "
        "every system call of the kernel, including the rarely used ones "
        "most container escapes go through, is open to sandboxed code. Pod "
        "Security's restricted profile requires RuntimeDefault or "
        "Localhost.",
    .fix =
        "Ask for the runtime's default profile, for every container of the "
        "pod at once:\n"
        "    securityContext:\n"
        "      seccompProfile:\n"
        "        type: RuntimeDefault\n"
        "(in an agent-env service, under the service's securityContext). If "
        "the node is known to set a default, allowlist the key under "
        "sandbox_hardening for the package.",
    .key_format =
        "CONTAINER:seccomp_profile (e.g. default:seccomp_profile, "
        "Deployment/web/app:seccomp_profile)\n"
        "CONTAINER:securityContext.seccompProfile.type:VALUE for template "
        "text",
    .example =
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata: {name: sandbox}\n"
        "spec:\n"
        "  containers:\n"
        "    - name: agent\n"
        "      image: sandbox:1.0",
    .default_severity = SL_SEVERITY_WARNING,
    .check_container = check_seccomp_profile,
    .kinds = SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES,
    .url = RULE_DOCS_URL "SBX110.md",
};

static const struct sl_rule *const rules[] = {
    &cap_drop_all_rule, &no_new_privileges_rule, &read_only_rule, &pids_limit_rule,
    &memory_limit_rule, &cpu_limit_rule, &non_root_user_rule, &published_ports_rule,
    &network_egress_rule, &seccomp_profile_rule, NULL,
};

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "hardening",
    .version = "1.0.0",
    .summary = "opt-in checks against a hardened docker run: capabilities, "
               "no-new-privileges, read-only root, limits, user, ports, "
               "seccomp profile",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
