/* registry.c - loaded plugins, their rules and rule selection. */
#include "config.h"

#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* the core's own diagnostics                                          */
/* ------------------------------------------------------------------ */

/* Every kind of file: the core reads them all. */
#define CORE_KINDS                                                            \
    (SL_KIND_COMPOSE | SL_KIND_AGENT_ENV | SL_KIND_KUBERNETES |               \
     SL_KIND_DEVCONTAINER | SL_KIND_RCDS | SL_KIND_SHELL | SL_KIND_MAKEFILE |  \
     SL_KIND_GITHUB_ACTIONS | SL_KIND_GITLAB_CI | SL_KIND_GITLAB_RUNNER)

#define CORE_RULE_SEVERITY(code_, name_, severity_, score_, summary_,         \
                           description_, fix_)                                \
    {                                                                         \
        SL_RULE_INIT, code_, name_, CORE_GROUP, NULL, summary_, description_,  \
        NULL, fix_, NULL, NULL, severity_, NULL, NULL, NULL, 0, score_,        \
        CORE_KINDS, RULE_DOCS_URL code_ ".md", NULL, NULL                     \
    }
#define CORE_RULE(code_, name_, score_, summary_, description_, fix_)         \
    CORE_RULE_SEVERITY(code_, name_, SL_SEVERITY_WARNING, score_, summary_,    \
                       description_, fix_)

static const struct sl_rule core_rules[CORE_RULE_COUNT] = {
    CORE_RULE("SL001", "unreadable-file", 7.0,
              "a file could not be read",
              "The file could not be opened or read, is not a regular file, "
              "is larger than the size limit, is not valid UTF-8, or holds a "
              "NUL byte. Nothing in it was checked.",
              "Make the file readable, valid UTF-8 text; or raise "
              "--max-file-size."),
    CORE_RULE("SL002", "yaml-error", 7.0,
              "a file is not valid YAML (or JSON, or TOML) or exceeds a limit",
              "The file's reader (libyaml; sandlint's own for dev container "
              "JSON with comments and GitLab Runner TOML) rejected it (the "
              "finding gives the line and column of the problem), the file "
              "nests deeper or holds more "
              "nodes than the limits allow, or an alias cannot be resolved.",
              "Fix the YAML; Docker Compose would reject the file too."),
    CORE_RULE("SL003", "compose-structure", 4.0,
              "a sandbox file does not have the structure its format expects",
              "Part of the file is not of the shape its format requires, so "
              "the settings in it could not be checked. Compose: the top "
              "level or 'services' is not a mapping, or a service is not a "
              "mapping. agent-env values: the top level, 'services' or "
              "corednsSecurityContext is not a mapping, or an "
              "additionalResources item is not a Kubernetes object. "
              "Kubernetes: a document or List item has no apiVersion and "
              "kind. Dev containers: runArgs is not a list of strings, a "
              "runArgs item is not a string, a runArgs word would be taken "
              "as the image, or a mounts or workspaceMount string is not in "
              "--mount syntax. GitHub Actions: a job container is neither an "
              "image nor a mapping. GitLab Runner config.toml: a setting is "
              "not of the type the runner expects. (The name is 0.2's, kept "
              "so that configurations that name it keep working.)",
              "Write that part as its format requires (in Compose, make "
              "'services' a mapping of service names to mappings)."),
    CORE_RULE("SL004", "suppression-comment", 4.0,
              "a suppression comment is malformed, unused or not honoured",
              "A '# sandlint: ignore[...]' comment names no rule, has an "
              "empty selector list, gives no reason, is an ignore-file "
              "comment after line 10, or suppresses nothing; under "
              "--untrusted, every suppression comment is reported and none "
              "is honoured, since the tree's author wrote it.",
              "Write '# sandlint: ignore[CODE] -- reason'; under --untrusted, "
              "accept the finding in the trusted configuration instead."),
    CORE_RULE("SL005", "stale-allowlist-entry", 4.0,
              "an allowlist entry matches no finding",
              "An allowlist entry whose scope (a file, a directory, a "
              "package or every file) the run checked fully matched no "
              "finding: the setting it allowed is gone.",
              "Remove the entry from the configuration file "
              "(sandlint --update-allowlist does)."),
    CORE_RULE("SL006", "plugin-failure", 7.0,
              "a plugin failed while checking a file",
              "A plugin returned an error, crashed or timed out on a file; "
              "the file was not completely checked.",
              "Report the problem to the plugin's authors."),
    CORE_RULE("SL007", "compose-reference", 7.0,
              "a file named by include or extends could not be checked",
              "Docker Compose reads the files a Compose file names in include "
              "(a path, or the path of a long-syntax item) and in a service's "
              "extends.file, and sandlint checks them too, whatever their "
              "names.  A reference that is interpolated or remote (a URL, "
              "oci:, a git address) cannot be checked, nor can one whose file "
              "is missing: warnings.  A file that exists but lies outside what "
              "the run may read (not under a directory operand) is an error: "
              "its settings would reach the sandbox unchecked.  So is an "
              "include item whose project_directory names no directory inside "
              "the scanned tree that holds the file, or whose env_file uses a "
              "variable without a value: the file cannot be checked as "
              "Compose reads it (a project_directory that uses such a variable "
              "is a warning, and the file is checked in its own directory).  "
              "GitLab CI files are followed alike: the local files of include "
              "and of a child pipeline's trigger:include (a path, or local:, "
              "relative to the repository's top) are checked as GitLab CI; "
              "what GitLab fetches or a job makes (remote:, a URL, template:, "
              "project:, component:, artifact:) is a warning, and a local path "
              "with a wildcard an error.",
              "Name the file's directory as an operand, or write a literal, "
              "local path."),
    /* SPEC §17: SL008 and SL010 are errors (0.3's codes; the older "not
     * checked" codes keep 0.2's default, and are errors when reported). */
    CORE_RULE_SEVERITY("SL008", "not_understood", SL_SEVERITY_ERROR, 7.0,
              "security settings sandlint cannot place",
              "A Kubernetes object of a kind sandlint does not model (a custom "
              "resource whose controller it does not know) holds "
              "securityContext, hostNetwork, hostPID or hostIPC outside "
              "anything it could read as a pod spec (a mapping with a "
              "containers or initContainers list of containers with an "
              "image).  What the controller makes of them is unknown, so the "
              "file is not passed: the error names the path it could not "
              "interpret.  (hostPath anywhere is a host mount, SBX003 or "
              "SBX006; a host switch written false or null says nothing.)",
              "Check what the controller deploys from the object (render it, "
              "or read the controller), and scan that; or exclude the file on "
              "purpose with the exclude setting."),
    CORE_RULE("SL009", "templated", 4.0,
              "Helm template text or a CI expression that cannot be checked",
              "Helm template text ({{ ... }}) stands where a file's structure "
              "is: an agent-env additionalResources item or "
              "corednsSecurityContext, a Kubernetes document or List item. "
              "Or a GitHub Actions expression (${{ ... }}) stands for a whole "
              "setting: a job or service container, services, a container's "
              "volumes or ports, or a word where engine flags may stand (in "
              "options or a run: step's docker command). "
              "What it renders to is known only when Helm renders it or the "
              "runner evaluates it, so what it holds was not checked: a "
              "warning, which --strict fails. "
              "(Template text or an expression in a setting's value is the "
              "warning of the rule that checks the setting.)",
              "Render the chart and check the result: helm template ... | "
              "sandlint -; or write the value without template text or "
              "expression."),
    CORE_RULE_SEVERITY("SL010", "env_file", SL_SEVERITY_ERROR, 7.0,
              "a Compose project's .env could not be read",
              "Docker Compose interpolates a Compose file with the .env of "
              "its project directory, and sandlint resolves the checked "
              "values with it.  A .env that cannot be read as Compose reads "
              "it (larger than 1 MiB, not UTF-8 text, a syntax error, a "
              "value nested or expanded past the limits, outside what the "
              "run may read) is an error, since Compose refuses the project "
              "or its values are unknown; every value that uses a variable "
              "is then reported as one that cannot be checked.",
              "Fix the .env (the message gives its line and column), or "
              "name the directory that holds it as an operand."),
    /* Engine command lines are only in the formats that hold shell text. */
    {
        SL_RULE_INIT, "SL011", "command_line", CORE_GROUP, NULL,
        "an engine command line could not be read",
        "A docker, podman or nerdctl run or create command in a shell "
        "script, a Makefile recipe or a CI step, or a dev container's "
        "runArgs, could not be split as the "
        "shell splits it (an unterminated quote or substitution), its "
        "subcommand is interpolated, or a flag is interpolated or one no "
        "engine knows: what it does to the container was not checked.",
        NULL,
        "Close the quote; write the subcommand and the flags literally "
        "(a variable holding flags cannot be checked).",
        NULL, NULL, SL_SEVERITY_WARNING, NULL, NULL, NULL, 0, 4.0,
        SL_KIND_SHELL | SL_KIND_MAKEFILE | SL_KIND_GITHUB_ACTIONS | SL_KIND_GITLAB_CI |
            SL_KIND_DEVCONTAINER,
        RULE_DOCS_URL "SL011.md", NULL, NULL
    },
};

static const struct sl_plugin core_descriptor = {
    SL_PLUGIN_INIT, CORE_PLUGIN_NAME, PACKAGE_VERSION,
    "diagnostics of the sandlint core", NULL,
};

void registry_init(struct registry *registry)
{
    memset(registry, 0, sizeof(*registry));
    registry->plugins = xcalloc(1, sizeof(*registry->plugins));
    registry->plugins[0].descriptor = core_descriptor;
    registry->plugins[0].declared_minor = SL_ABI_MINOR;
    registry->plugin_count = 1;
    registry->rules = xcalloc(CORE_RULE_COUNT, sizeof(*registry->rules));
    for (size_t i = 0; i < CORE_RULE_COUNT; i++) {
        registry->rules[i].rule = core_rules[i];
        registry->rules[i].plugin = 0;
        registry->rules[i].enabled = true;
    }
    registry->rule_count = CORE_RULE_COUNT;
}

void registry_release(struct registry *registry)
{
    for (size_t i = 0; i < registry->plugin_count; i++)
        free(registry->plugins[i].path);
    for (size_t i = 0; i < registry->rule_count; i++) {
        struct rule_entry *entry = &registry->rules[i];
        for (size_t j = 0; j < entry->option_count; j++)
            rule_option_clear(&entry->options[j]);
        free(entry->options);
    }
    free(registry->plugins);
    free(registry->rules);
    memset(registry, 0, sizeof(*registry));
}

const char *registry_rule_code(const struct registry *registry, size_t rule)
{
    return rule < registry->rule_count ? registry->rules[rule].rule.code : "";
}

size_t registry_find_code(const struct registry *registry, const char *code)
{
    for (size_t i = 0; i < registry->rule_count; i++)
        if (strcmp(registry->rules[i].rule.code, code) == 0)
            return i;
    return (size_t)-1;
}

/* ------------------------------------------------------------------ */
/* validation                                                          */
/* ------------------------------------------------------------------ */

/* The smallest descriptor and rule a 1.x plugin can declare: ABI 1.0;
 * options appeared in 1.1. */
#define PLUGIN_SIZE_1_0 (offsetof(struct sl_plugin, rules) + sizeof(void *))
#define RULE_SIZE_1_0 (offsetof(struct sl_rule, check_service) + sizeof(void *))
#define OPTION_SIZE_1_1 (offsetof(struct sl_option, default_list) + sizeof(void *))
#define MAX_RULES_PER_PLUGIN 1000
#define MAX_OPTIONS_PER_RULE 100
#define MAX_DEFAULT_ITEMS 10000

static bool is_empty_text(const char *text)
{
    return text == NULL || text[0] == '\0';
}

static bool valid_code(const char *code)
{
    size_t i = 0;
    while (code[i] >= 'A' && code[i] <= 'Z')
        i++;
    if (i == 0 || code[i] == '\0')
        return false;
    size_t digits = i;
    while (code[i] >= '0' && code[i] <= '9')
        i++;
    return code[i] == '\0' && i > digits && i <= 32;
}

static bool valid_name(const char *name)
{
    size_t i = 0;
    for (; name[i] != '\0'; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-'))
            return false;
    }
    return i > 0 && i <= 64;
}

/* A rule's documentation URL as SARIF's helpUri and a terminal can carry
 * it: http:// or https://, then printable ASCII without the characters a
 * URI never holds unescaped (RFC 3986: space, '"', '<', '>', '\\', '^',
 * '`', '{', '|', '}'), at most 2,048 bytes. */
static bool valid_url(const char *url)
{
    size_t scheme = strncmp(url, "https://", 8) == 0 ? 8
                    : strncmp(url, "http://", 7) == 0 ? 7 : 0;
    if (scheme == 0 || url[scheme] == '\0' || url[scheme] == '/')
        return false;
    size_t i = 0;
    for (; url[i] != '\0'; i++) {
        unsigned char c = (unsigned char)url[i];
        if (c <= ' ' || c >= 0x7f || strchr("\"<>\\^`{|}", c) != NULL || i >= 2048)
            return false;
    }
    return true;
}

static char *refuse(const char *path, const char *reason)
{
    return xasprintf("%s: plugin refused: %s", path ? path : "(built in)",
                     reason);
}

/* Copies a rule, zero-filling what the plugin's declared size lacks. */
static void copy_rule(struct sl_rule *copy, const struct sl_rule *rule)
{
    size_t size = rule->struct_size < sizeof(*copy) ? rule->struct_size
                                                    : sizeof(*copy);
    memset(copy, 0, sizeof(*copy));
    memcpy(copy, rule, size);
}

/* Copies an option, zero-filling what the plugin's declared size lacks. */
static void copy_option(struct sl_option *copy, const struct sl_option *option)
{
    size_t size = option->struct_size < sizeof(*copy) ? option->struct_size
                                                      : sizeof(*copy);
    memset(copy, 0, sizeof(*copy));
    memcpy(copy, option, size);
}

/* The number of options a rule declares (its options array, bounded). */
static size_t option_count(const struct sl_rule *rule)
{
    size_t count = 0;
    while (rule->options != NULL && count <= MAX_OPTIONS_PER_RULE &&
           rule->options[count] != NULL)
        count++;
    return count;
}

/* Checks the options a rule declares (ABI 1.1); NULL or the refusal. */
static char *validate_options(const char *path, const struct sl_rule *rule)
{
    char reason[256];
    size_t count = option_count(rule);
    if (count > MAX_OPTIONS_PER_RULE) {
        snprintf(reason, sizeof(reason), "rule %s declares more than %d options",
                 rule->code, MAX_OPTIONS_PER_RULE);
        return refuse(path, reason);
    }
    for (size_t i = 0; i < count; i++) {
        if (rule->options[i]->struct_size < OPTION_SIZE_1_1) {
            snprintf(reason, sizeof(reason), "rule %s option %zu declares "
                     "struct_size %zu, smaller than ABI 1.1's %zu", rule->code,
                     i, rule->options[i]->struct_size, (size_t)OPTION_SIZE_1_1);
            return refuse(path, reason);
        }
        struct sl_option option;
        copy_option(&option, rule->options[i]);
        if (option.name != NULL && strcmp(option.name, RESERVED_OPTION_SEVERITY) == 0) {
            snprintf(reason, sizeof(reason), "rule %s declares an option named "
                     "'%s', which sandlint reserves for every rule's configured "
                     "severity", rule->code, RESERVED_OPTION_SEVERITY);
            return refuse(path, reason);
        }
        if (is_empty_text(option.name) || !valid_name(option.name)) {
            snprintf(reason, sizeof(reason), "rule %s option %zu has %s name "
                     "'%.64s' (lower-case letters, digits, '_' and '-')",
                     rule->code, i, is_empty_text(option.name) ? "no" : "an invalid",
                     option.name ? option.name : "");
            return refuse(path, reason);
        }
        const char *problem = NULL;
        if (option.type < SL_OPTION_STRING || option.type > SL_OPTION_LIST)
            problem = "has an unknown type";
        else if (is_empty_text(option.summary))
            problem = "has no summary";
        else if (option.type == SL_OPTION_LIST && option.default_list != NULL) {
            size_t items = 0;
            while (items <= MAX_DEFAULT_ITEMS && option.default_list[items] != NULL)
                items++;
            if (items > MAX_DEFAULT_ITEMS)
                problem = "has more than 10000 default items";
        }
        for (size_t j = 0; problem == NULL && j < i; j++)
            if (strcmp(rule->options[j]->name, option.name) == 0)
                problem = "is declared twice";
        if (problem != NULL) {
            snprintf(reason, sizeof(reason), "rule %s option '%s' %s", rule->code,
                     option.name, problem);
            return refuse(path, reason);
        }
    }
    return NULL;
}

static char *validate_rule(const struct registry *registry, const char *path,
                           const struct sl_rule *rule, size_t index,
                           const struct sl_rule *earlier, size_t earlier_count)
{
    char reason[256];
    if (rule->struct_size < RULE_SIZE_1_0) {
        snprintf(reason, sizeof(reason), "rule %zu declares struct_size %zu, "
                 "smaller than ABI 1.0's %zu", index, rule->struct_size,
                 (size_t)RULE_SIZE_1_0);
        return refuse(path, reason);
    }
    struct sl_rule copy;
    copy_rule(&copy, rule);
    const char *missing = NULL;
    if (is_empty_text(copy.code))
        missing = "code";
    else if (is_empty_text(copy.name))
        missing = "name";
    else if (is_empty_text(copy.group))
        missing = "group";
    else if (is_empty_text(copy.summary))
        missing = "summary";
    else if (copy.check_document == NULL && copy.check_service == NULL &&
             copy.check_container == NULL && copy.check_scope == NULL)
        missing = "check_document, check_service, check_container or check_scope";
    if (missing != NULL) {
        snprintf(reason, sizeof(reason), "rule %zu%s%s has no %s", index,
                 copy.code ? " " : "", copy.code ? copy.code : "", missing);
        return refuse(path, reason);
    }
    if (!valid_code(copy.code)) {
        snprintf(reason, sizeof(reason), "rule code '%.64s' is not upper-case "
                 "letters followed by digits", copy.code);
        return refuse(path, reason);
    }
    if (!valid_name(copy.name)) {
        snprintf(reason, sizeof(reason), "rule %s has an invalid name '%.64s' "
                 "(lower-case letters, digits, '_' and '-')", copy.code,
                 copy.name);
        return refuse(path, reason);
    }
    if (copy.default_severity < SL_SEVERITY_DEFAULT ||
        copy.default_severity > SL_SEVERITY_WARNING) {
        snprintf(reason, sizeof(reason), "rule %s has an unknown default "
                 "severity %d", copy.code, copy.default_severity);
        return refuse(path, reason);
    }
    if (copy.url != NULL && !valid_url(copy.url)) {
        snprintf(reason, sizeof(reason), "rule %s has an invalid url (an absolute "
                 "http:// or https:// URL of printable ASCII, at most 2048 bytes)",
                 copy.code);
        return refuse(path, reason);
    }
    for (size_t i = 0; i < registry->rule_count; i++) {
        const struct rule_entry *other = &registry->rules[i];
        const struct loaded_plugin *owner = &registry->plugins[other->plugin];
        if (strcmp(other->rule.code, copy.code) == 0 ||
            strcmp(other->rule.name, copy.name) == 0) {
            snprintf(reason, sizeof(reason), "rule %s (%s) is already defined "
                     "by plugin '%s'%s%s", copy.code, copy.name,
                     owner->descriptor.name, owner->path ? " at " : "",
                     owner->path ? owner->path : "");
            return refuse(path, reason);
        }
    }
    for (size_t i = 0; i < earlier_count; i++) {
        if (strcmp(earlier[i].code, copy.code) == 0 ||
            strcmp(earlier[i].name, copy.name) == 0) {
            snprintf(reason, sizeof(reason), "rule %s (%s) is defined twice",
                     copy.code, copy.name);
            return refuse(path, reason);
        }
    }
    return validate_options(path, &copy);
}

int registry_add_descriptor(struct registry *registry, const char *path,
                            const struct sl_plugin *descriptor, char **error)
{
    char reason[320];
    *error = NULL;
    if (descriptor == NULL) {
        *error = refuse(path, "the entry point returned no descriptor");
        return -1;
    }
    if (descriptor->struct_size < offsetof(struct sl_plugin, name)) {
        snprintf(reason, sizeof(reason), "descriptor declares struct_size %zu, "
                 "too small for a version header", descriptor->struct_size);
        *error = refuse(path, reason);
        return -1;
    }
    if (descriptor->abi_major != SL_ABI_MAJOR) {
        snprintf(reason, sizeof(reason), "built for plugin ABI %u.%u, but this "
                 "sandlint provides ABI %d.%d (major versions differ)",
                 descriptor->abi_major, descriptor->abi_minor, SL_ABI_MAJOR,
                 SL_ABI_MINOR);
        *error = refuse(path, reason);
        return -1;
    }
    if (descriptor->struct_size < PLUGIN_SIZE_1_0) {
        snprintf(reason, sizeof(reason), "descriptor declares struct_size %zu, "
                 "smaller than ABI 1.0's %zu", descriptor->struct_size,
                 (size_t)PLUGIN_SIZE_1_0);
        *error = refuse(path, reason);
        return -1;
    }
    struct sl_plugin copy;
    memset(&copy, 0, sizeof(copy));
    memcpy(&copy, descriptor, descriptor->struct_size < sizeof(copy)
                                  ? descriptor->struct_size : sizeof(copy));
    if (is_empty_text(copy.name) || is_empty_text(copy.version) ||
        copy.rules == NULL || copy.rules[0] == NULL) {
        snprintf(reason, sizeof(reason), "descriptor has no %s",
                 is_empty_text(copy.name) ? "name"
                 : is_empty_text(copy.version) ? "version" : "rules");
        *error = refuse(path, reason);
        return -1;
    }
    if (!valid_name(copy.name)) {
        snprintf(reason, sizeof(reason), "invalid plugin name '%.64s' "
                 "(lower-case letters, digits, '_' and '-')", copy.name);
        *error = refuse(path, reason);
        return -1;
    }
    for (size_t i = 0; i < registry->plugin_count; i++) {
        const struct loaded_plugin *other = &registry->plugins[i];
        if (strcmp(other->descriptor.name, copy.name) == 0) {
            snprintf(reason, sizeof(reason), "a plugin named '%s' is already "
                     "loaded%s%s", copy.name, other->path ? " from " : "",
                     other->path ? other->path : "");
            *error = refuse(path, reason);
            return -1;
        }
    }
    size_t rule_count = 0;
    while (copy.rules[rule_count] != NULL) {
        if (++rule_count > MAX_RULES_PER_PLUGIN) {
            *error = refuse(path, "more than 1000 rules");
            return -1;
        }
    }
    struct sl_rule *rules = xcalloc(rule_count, sizeof(*rules));
    for (size_t i = 0; i < rule_count; i++) {
        *error = validate_rule(registry, path, copy.rules[i], i, rules, i);
        if (*error != NULL) {
            free(rules);
            return -1;
        }
        copy_rule(&rules[i], copy.rules[i]);
    }

    size_t plugin_index = registry->plugin_count;
    registry->plugins = xrealloc(registry->plugins, registry->plugin_count + 1,
                                 sizeof(*registry->plugins));
    struct loaded_plugin *plugin = &registry->plugins[plugin_index];
    memset(plugin, 0, sizeof(*plugin));
    plugin->descriptor = copy;
    plugin->descriptor.struct_size = sizeof(copy);
    plugin->path = path ? xstrdup(path) : NULL;
    plugin->declared_minor = descriptor->abi_minor;
    registry->plugin_count++;

    registry->rules = xrealloc(registry->rules, registry->rule_count + rule_count,
                               sizeof(*registry->rules));
    for (size_t i = 0; i < rule_count; i++) {
        struct rule_entry *entry = &registry->rules[registry->rule_count++];
        memset(entry, 0, sizeof(*entry));
        entry->rule = rules[i];
        if (entry->rule.default_severity == SL_SEVERITY_DEFAULT)
            entry->rule.default_severity = SL_SEVERITY_ERROR;
        entry->plugin = plugin_index;
        /* An opt-in rule runs only when a selector names it. */
        entry->enabled = (entry->rule.flags & SL_RULE_OPT_IN) == 0;
        entry->option_count = option_count(&entry->rule);
        entry->options = entry->option_count
                             ? xcalloc(entry->option_count, sizeof(*entry->options))
                             : NULL;
        for (size_t j = 0; j < entry->option_count; j++)
            copy_option(&entry->options[j].declared, entry->rule.options[j]);
    }
    free(rules);
    return 0;
}

/* ------------------------------------------------------------------ */
/* selection                                                           */
/* ------------------------------------------------------------------ */

bool registry_selector_matches(const struct rule_entry *entry,
                               const char *selector)
{
    const struct sl_rule *rule = &entry->rule;
    size_t length = strlen(selector);
    if (length == 0)
        return false;
    if (strncmp(rule->code, selector, length) == 0)
        return true;    /* the code itself, or a prefix of it */
    if (strcmp(rule->name, selector) == 0 || strcmp(rule->group, selector) == 0)
        return true;
    return rule->group_code != NULL && strcmp(rule->group_code, selector) == 0;
}

bool registry_selector_known(const struct registry *registry,
                             const char *selector)
{
    for (size_t i = 0; i < registry->rule_count; i++)
        if (registry_selector_matches(&registry->rules[i], selector))
            return true;
    return false;
}

/* Applies one selector: marks what it selects in selected[], or disables
 * what it ignores. */
static int apply_selector(struct registry *registry, const char *selector,
                          bool *selected, char **error)
{
    if (!registry_selector_known(registry, selector)) {
        *error = xasprintf("unknown rule selector '%s' (no loaded rule has that "
                           "code, code prefix, name or group; see --list-rules)",
                           selector);
        return -1;
    }
    for (size_t i = 0; i < registry->rule_count; i++) {
        if (!registry_selector_matches(&registry->rules[i], selector))
            continue;
        if (selected != NULL)
            selected[i] = true;
        else
            registry->rules[i].enabled = false;
    }
    return 0;
}

int registry_apply_selection(struct registry *registry,
                             const struct rule_selection *selection,
                             char **error)
{
    *error = NULL;
    const struct string_list *select = selection->select;
    if (select != NULL && select->count == 0) {
        *error = xstrdup("empty rule selection: --select (or select in the "
                         "configuration) names no rule");
        return -1;
    }
    bool *selected = xcalloc(registry->rule_count, sizeof(bool));
    /* The default: every rule but the opt-in ones. */
    for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++)
        selected[i] = select == NULL &&
                      (registry->rules[i].rule.flags & SL_RULE_OPT_IN) == 0;
    int failed = 0;
    for (size_t i = 0; select != NULL && i < select->count && failed == 0; i++)
        failed = apply_selector(registry, select->items[i], selected, error);
    const struct string_list *extend = selection->extend;
    for (size_t i = 0; extend != NULL && i < extend->count && failed == 0; i++)
        failed = apply_selector(registry, extend->items[i], selected, error);
    if (failed == 0)
        for (size_t i = CORE_RULE_COUNT; i < registry->rule_count; i++)
            registry->rules[i].enabled = selected[i];
    free(selected);
    if (failed != 0)
        return -1;
    const struct string_list *ignore = selection->ignore;
    for (size_t i = 0; ignore != NULL && i < ignore->count; i++)
        if (apply_selector(registry, ignore->items[i], NULL, error) != 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------------------ */
/* rule options                                                        */
/* ------------------------------------------------------------------ */

struct rule_option *rule_entry_option(const struct rule_entry *entry,
                                      const char *name)
{
    for (size_t i = 0; name != NULL && i < entry->option_count; i++)
        if (strcmp(entry->options[i].declared.name, name) == 0)
            return &entry->options[i];
    return NULL;
}

void rule_option_clear(struct rule_option *option)
{
    free(option->string);
    for (size_t i = 0; i < option->item_count; i++)
        free(option->items[i]);
    free(option->items);
    free(option->item_lengths);
    struct sl_option declared = option->declared;
    memset(option, 0, sizeof(*option));
    option->declared = declared;
}

const char *rule_option_string(const struct rule_option *option, size_t *length)
{
    const char *text = option->configured ? option->string
                                          : option->declared.default_string;
    if (text == NULL)
        text = "";
    if (length != NULL)
        *length = option->configured ? option->string_length : strlen(text);
    return text;
}

size_t rule_option_list_count(const struct rule_option *option)
{
    if (option->configured)
        return option->item_count;
    size_t count = 0;
    while (option->declared.default_list != NULL &&
           option->declared.default_list[count] != NULL)
        count++;
    return count;
}

const char *rule_option_list_item(const struct rule_option *option, size_t index,
                                  size_t *length)
{
    const char *text = NULL;
    size_t text_length = 0;
    if (option->configured && index < option->item_count) {
        text = option->items[index];
        text_length = option->item_lengths[index];
    } else if (!option->configured && index < rule_option_list_count(option)) {
        text = option->declared.default_list[index];
        text_length = strlen(text);
    }
    if (length != NULL)
        *length = text_length;
    return text;
}

long long rule_option_integer(const struct rule_option *option)
{
    return option->configured ? option->integer : option->declared.default_integer;
}

bool rule_option_boolean(const struct rule_option *option)
{
    return option->configured ? option->boolean
                              : option->declared.default_boolean != 0;
}

int rule_entry_severity(const struct rule_entry *entry)
{
    return entry->severity != SL_SEVERITY_DEFAULT ? entry->severity
                                                  : entry->rule.default_severity;
}
