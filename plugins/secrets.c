/*
 * secrets.c - SBX004: host files and variables copied in.
 *
 * A service's secrets and configs references, and its build's secrets,
 * whose top-level definition in the same file takes its content from a
 * host file (file:) or from a host environment variable (environment:)
 * (SPEC §7); the build's ssh entries, which hand the host's SSH agent or
 * keys to the build.
 *
 * Compose only: secrets and configs are Compose's own (SPEC §18).
 */
#include <stdlib.h>
#include <string.h>

#include <sandlint/rule.h>

/* Where references are written and what receives the content. */
struct reference_list {
    const char *field;          /* the finding's field: "secrets",
                                   "build.secrets" */
    const char *section;        /* the top-level definitions: "secrets" */
    const char *receiver;       /* "the container", "the build steps..." */
};

static const struct reference_list service_lists[] = {
    { "secrets", "secrets", "the container" },
    { "configs", "configs", "the container" },
};

static const struct reference_list build_secrets = {
    "build.secrets", "secrets", "the build steps from the repository"
};

/* Reports the key value env:NAME, built in memory of our own. */
static int report_environment(struct sl_context *ctx, const struct sl_node *where,
                              const struct reference_list *list, const char *quoted_name,
                              const char *variable, size_t length)
{
    char *value = malloc(length + 5);
    if (value == NULL) {
        sl_set_error(ctx, "out of memory");
        return SL_ERROR;
    }
    memcpy(value, "env:", 4);
    memcpy(value + 4, variable, length);
    value[length + 4] = '\0';
    char quoted[SL_QUOTE_SIZE];
    int status = sl_reportf(ctx, where, list->field, value, length + 4,
                            SL_SEVERITY_DEFAULT,
                            "%s '%s' copies the host environment variable "
                            "'%s' into %s", list->field, quoted_name,
                            sl_quote(quoted, sizeof(quoted), variable, length),
                            list->receiver);
    free(value);
    return status;
}

static int check_entry(struct sl_context *ctx, const struct reference_list *list,
                       const struct sl_node *where, const struct sl_node *entry)
{
    const char *section = list->field;
    const struct sl_node *name_node = entry;
    if (sl_node_kind(entry) == SL_NODE_MAPPING) {
        name_node = sl_mapping_value(entry, "source", NULL);
        if (name_node == NULL)
            return sl_report_unchecked(ctx, where, section, entry);
    }
    size_t length;
    const char *name = sl_node_text(name_node, &length);
    if (name == NULL || sl_node_kind(name_node) != SL_NODE_SCALAR)
        return sl_report_unchecked(ctx, where, section, entry);
    if (sl_is_empty(name_node) || length == 0)
        return SL_OK;   /* an empty item is no setting */

    char quoted_name[SL_QUOTE_SIZE];
    sl_quote(quoted_name, sizeof(quoted_name), name, length);
    if (sl_has_interpolation(name, length))
        return sl_reportf(ctx, where, section, name, length,
                          SL_SEVERITY_WARNING,
                          "%s reference '%s' is interpolated and cannot be "
                          "checked", section, quoted_name);

    const struct sl_node *definition =
        sl_definition(ctx, list->section, name, length, NULL);
    if (sl_node_kind(definition) != SL_NODE_MAPPING)
        return SL_OK;   /* undefined here: nothing is copied from this file */
    size_t file_length, variable_length;
    const char *file = sl_setting_text(sl_mapping_value(definition, "file", NULL),
                                       &file_length);
    if (file != NULL) {
        char quoted[SL_QUOTE_SIZE];
        return sl_reportf(ctx, where, section, file, file_length,
                          SL_SEVERITY_DEFAULT,
                          "%s '%s' copies the host file '%s' into %s", section,
                          quoted_name, sl_quote(quoted, sizeof(quoted), file, file_length),
                          list->receiver);
    }
    const char *variable = sl_setting_text(
        sl_mapping_value(definition, "environment", NULL), &variable_length);
    if (variable != NULL)
        return report_environment(ctx, where, list, quoted_name, variable,
                                  variable_length);
    return SL_OK;   /* content, external, name only */
}

/* Each entry of the list name of mapping (a service, or its build). */
static int check_list(struct sl_context *ctx, const struct reference_list *list,
                      const struct sl_node *mapping, const char *name)
{
    const struct sl_node *key;
    const struct sl_node *value = sl_mapping_value(mapping, name, &key);
    size_t count = sl_list_count(value);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *entry = sl_list_entry(value, key, i, &where);
        if (check_entry(ctx, list, where, entry) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* A build.ssh entry (default, ID=PATH; or ID: PATH of the mapping form,
 * keyed as ID=PATH): the host's SSH agent, or a key or agent socket of
 * the host, handed to the build steps whatever the ID or the path, so an
 * interpolated one is reported too. */
static int check_ssh(struct sl_context *ctx, const struct sl_node *where,
                     const struct sl_node *entry, const struct sl_node *path_node)
{
    static const char field[] = "build.ssh";
    size_t length, path_length = 0;
    const char *text = sl_node_text(entry, &length);
    if (text == NULL || sl_node_kind(entry) != SL_NODE_SCALAR)
        return sl_report_unchecked(ctx, where, field, entry);
    if (sl_is_empty(entry) || length == 0)
        return SL_OK;   /* an empty item is no setting */
    const char *path = NULL;
    if (path_node != NULL && !sl_is_empty(path_node)) {
        path = sl_setting_text(path_node, &path_length);
        if (path == NULL)
            return sl_report_unchecked(ctx, where, field, path_node);
    }
    const char *equals = memchr(text, '=', length);
    if (path == NULL && equals != NULL) {
        path = equals + 1;
        path_length = length - (size_t)(equals - text) - 1;
    }
    char quoted[SL_QUOTE_SIZE], quoted_path[SL_QUOTE_SIZE];
    sl_quote(quoted, sizeof(quoted), text, length);
    if (path == NULL || path_length == 0)
        return sl_reportf(ctx, where, field, text, length, SL_SEVERITY_DEFAULT,
                          "%s '%s' hands the host's SSH agent%s to the build steps from "
                          "the repository", field, quoted,
                          sl_has_interpolation(text, length) ? " or an SSH key of the host"
                                                             : "");
    static const char format[] = "%s '%s' hands the host's SSH key or agent socket '%s' "
                                 "to the build steps from the repository";
    sl_quote(quoted_path, sizeof(quoted_path), path, path_length);
    if (path_node == NULL)
        return sl_reportf(ctx, where, field, text, length, SL_SEVERITY_DEFAULT, format,
                          field, quoted, quoted_path);
    size_t joined_length = length + 1 + path_length;
    char *joined = malloc(joined_length + 1);
    if (joined == NULL) {
        sl_set_error(ctx, "out of memory");
        return SL_ERROR;
    }
    memcpy(joined, text, length);
    joined[length] = '=';
    memcpy(joined + length + 1, path, path_length);
    joined[joined_length] = '\0';
    int status = sl_reportf(ctx, where, field, joined, joined_length, SL_SEVERITY_DEFAULT,
                            format, field, quoted, quoted_path);
    free(joined);
    return status;
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    for (size_t s = 0; s < sizeof(service_lists) / sizeof(service_lists[0]); s++)
        if (check_list(ctx, &service_lists[s], settings, service_lists[s].section) != SL_OK)
            return SL_ERROR;
    const struct sl_node *build = sl_mapping_value(settings, "build", NULL);
    if (sl_node_kind(build) != SL_NODE_MAPPING)
        return SL_OK;   /* a context alone */
    if (check_list(ctx, &build_secrets, build, "secrets") != SL_OK)
        return SL_ERROR;
    const struct sl_node *key;
    const struct sl_node *ssh = sl_mapping_value(build, "ssh", &key);
    if (sl_node_kind(ssh) == SL_NODE_MAPPING) {
        /* {ID: PATH}: the long form of ID=PATH. */
        for (size_t i = 0; i < sl_node_count(ssh); i++) {
            const struct sl_node *id, *path;
            if (sl_mapping_entry(ssh, i, &id, &path) == SL_ERROR ||
                check_ssh(ctx, id, id, path) != SL_OK)
                return SL_ERROR;
        }
        return SL_OK;
    }
    size_t count = sl_list_count(ssh);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *entry = sl_list_entry(ssh, key, i, &where);
        if (check_ssh(ctx, where, entry, NULL) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static const struct sl_rule secrets_rule = {
    SL_RULE_INIT,
    .code = "SBX004",
    .name = "secrets",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 7.0,
    .summary = "host files and variables copied in",
    .description =
        "Reports each entry of a service's secrets and configs (a name, or "
        "a mapping's source) whose top-level definition in the same file "
        "takes its content from the host:\n"
        "- file: PATH copies a host file (reported even when the definition "
        "also has environment:);\n"
        "- environment: NAME copies a host environment variable.\n"
        "The same for the build's secrets (build.secrets), which the build "
        "steps from the repository read. Each entry of build.ssh is "
        "reported too: default hands the host's SSH agent to the build "
        "steps, ID=PATH (or ID: PATH) an SSH key or agent socket of the "
        "host, interpolated or not.\n"
        "Definitions with content or external, references without a "
        "definition in the file, and definitions no service uses are fine. "
        "A reference whose name is interpolated (${SECRET}) is a warning: "
        "its definition cannot be looked up.",
    .rationale =
        "A file secret or config is a read-only bind mount in disguise: the "
        "host file appears in the container (a secret at "
        "/run/secrets/NAME), and an environment source copies a variable "
        "of the host that runs Compose. Either can hand sandboxed code "
        "credentials or other data that lives outside the sandbox.",
    .fix =
        "Give the container only what it needs: inline content, or an "
        "external secret created for the sandbox. If the host file or "
        "variable really is needed, write down why and allowlist the key "
        "under sandbox_privileges for the package; the finding then becomes "
        "a warning.",
    .key_format =
        "service:secrets:PATH, the definition's file as written (e.g. "
        "default:secrets:./secrets/api_key.txt)\n"
        "service:configs:env:VARIABLE for an environment source (e.g. "
        "default:configs:env:APP_CONFIG)\n"
        "service:secrets:NAME for an interpolated reference (e.g. "
        "default:secrets:${SECRET})\n"
        "service:build.secrets:PATH, service:build.secrets:env:VARIABLE as "
        "above (e.g. web:build.secrets:~/.kube/config)\n"
        "service:build.ssh:ENTRY, the entry as written, ID=PATH for the "
        "mapping form (e.g. web:build.ssh:default, "
        "web:build.ssh:deploy=~/.ssh/deploy_key)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    secrets: [api_key]\n"
        "secrets:\n"
        "  api_key:\n"
        "    file: ~/.config/api_key.txt",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
    .kinds = SL_KIND_COMPOSE,
    .url = RULE_DOCS_URL "SBX004.md",
};

static const struct sl_rule *const rules[] = { &secrets_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "secrets",
    .version = "1.0.0",
    .summary = "secrets and configs read from host files or environment variables",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
