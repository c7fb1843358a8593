/* file_kind.c - which kind of file a discovered file is (see file_kind.h). */
#include "config.h"

#include "file_kind.h"

#include <string.h>

#include "sandlint/plugin.h"

static bool ends_with(const char *name, size_t length, const char *suffix)
{
    size_t suffix_length = strlen(suffix);
    return length >= suffix_length &&
           memcmp(name + length - suffix_length, suffix, suffix_length) == 0;
}

bool file_name_is_yaml(const char *name)
{
    size_t length = strlen(name);
    return (length > 4 && ends_with(name, length, ".yml")) ||
           (length > 5 && ends_with(name, length, ".yaml"));
}

static bool is_compose_name(const char *name)
{
    if (strncmp(name, "docker-", 7) == 0)
        name += 7;
    if (strncmp(name, "compose", 7) != 0)
        return false;
    size_t length = strlen(name);
    return (length >= 11 && ends_with(name, length, ".yml")) ||
           (length >= 12 && ends_with(name, length, ".yaml"));
}

/* values.y{a,}ml, helm-values*.y{a,}ml, *-values.y{a,}ml */
static bool is_values_name(const char *name)
{
    size_t length = strlen(name);
    size_t stem = ends_with(name, length, ".yaml") ? length - 5
                  : ends_with(name, length, ".yml") ? length - 4 : (size_t)-1;
    if (stem == (size_t)-1)
        return false;
    if (stem == 6 && memcmp(name, "values", 6) == 0)
        return true;
    if (strncmp(name, "helm-values", 11) == 0 && stem >= 11)
        return true;
    return stem >= 7 && memcmp(name + stem - 7, "-values", 7) == 0;
}

/* The names of files that hold engine command lines or CI job
 * containers, found by name alone. */
static unsigned command_name_candidates(const char *name)
{
    size_t length = strlen(name);
    if ((length > 3 && ends_with(name, length, ".sh")) ||
        (length > 5 && ends_with(name, length, ".bash")))
        return CANDIDATE_SHELL;
    if (strcmp(name, "Makefile") == 0 || strcmp(name, "makefile") == 0 ||
        strcmp(name, "GNUmakefile") == 0 || (length > 3 && ends_with(name, length, ".mk")))
        return CANDIDATE_MAKEFILE;
    if (strcmp(name, ".gitlab-ci.yml") == 0 || strcmp(name, ".gitlab-ci.yaml") == 0)
        return CANDIDATE_GITLAB_CI;
    if (strcmp(name, "config.toml") == 0)
        return CANDIDATE_GITLAB_RUNNER;
    /* No extension (and not a dot file such as .env): perhaps a script
     * with a #! line, which only its content tells. */
    if (length > 0 && name[0] != '.' && strchr(name, '.') == NULL)
        return CANDIDATE_MAYBE_SCRIPT;
    return 0;
}

bool file_candidates_only_maybe_script(unsigned candidates)
{
    return candidates == CANDIDATE_MAYBE_SCRIPT;
}

bool file_dir_is_workflows(const char *path, size_t length)
{
    static const char tail[] = ".github/workflows";
    size_t tail_length = sizeof(tail) - 1;
    while (length > 1 && path[length - 1] == '/')
        length--;
    return length >= tail_length &&
           memcmp(path + length - tail_length, tail, tail_length) == 0 &&
           (length == tail_length || path[length - tail_length - 1] == '/');
}

/* Whether text starts with a #! line that runs a POSIX shell (sh, bash,
 * dash, ksh, zsh, ash, busybox sh; directly or through env). */
static bool has_shell_shebang(const char *text, size_t length)
{
    if (length < 3 || text[0] != '#' || text[1] != '!')
        return false;
    const char *end = memchr(text, '\n', length < 256 ? length : 256);
    size_t line = end != NULL ? (size_t)(end - text) : (length < 256 ? length : 256);
    static const char *const shells[] = { "sh", "bash", "dash", "ksh", "zsh", "ash", "busybox" };
    /* The interpreter's last path component, and env's first argument. */
    size_t at = 2;
    for (int word = 0; word < 3 && at < line; word++) {
        while (at < line && (text[at] == ' ' || text[at] == '\t'))
            at++;
        size_t start = at;
        while (at < line && text[at] != ' ' && text[at] != '\t' && text[at] != '\r')
            at++;
        size_t base = start;
        for (size_t i = start; i < at; i++)
            if (text[i] == '/')
                base = i + 1;
        size_t base_length = at - base;
        for (size_t i = 0; i < sizeof(shells) / sizeof(*shells); i++)
            if (strlen(shells[i]) == base_length &&
                memcmp(text + base, shells[i], base_length) == 0)
                return true;
        if (!(base_length == 3 && memcmp(text + base, "env", 3) == 0) &&
            !(base_length == 2 && memcmp(text + base, "-S", 2) == 0))
            return false;
    }
    return false;
}

int file_kind_of_text(unsigned candidates, const char *text, size_t length)
{
    if ((candidates & CANDIDATE_SHELL) != 0)
        return SL_KIND_SHELL;
    if ((candidates & CANDIDATE_MAKEFILE) != 0)
        return SL_KIND_MAKEFILE;
    if ((candidates & CANDIDATE_GITLAB_RUNNER) != 0)
        return SL_KIND_GITLAB_RUNNER;
    if ((candidates & (CANDIDATE_NAMED | CANDIDATE_MAYBE_SCRIPT)) != 0 &&
        has_shell_shebang(text, length))
        return SL_KIND_SHELL;
    if (file_candidates_only_maybe_script(candidates))
        return -1;
    return 0;
}

unsigned file_name_candidates(const char *name)
{
    unsigned candidates = command_name_candidates(name);
    if (is_compose_name(name))
        candidates |= CANDIDATE_COMPOSE;
    if (is_values_name(name))
        candidates |= CANDIDATE_VALUES;
    return candidates;
}

static const struct sl_node *value_of(const struct sl_node *mapping, const char *key)
{
    return model_mapping_get(mapping, key, strlen(key), NULL);
}

static bool is_text(const struct sl_node *node)
{
    return node != NULL && node->kind == SL_NODE_SCALAR && !node->null_value;
}

bool file_kind_agent_env_shape(const struct sl_node *root)
{
    const struct sl_node *services = value_of(root, "services");
    if (services == NULL || services->kind != SL_NODE_MAPPING ||
        services->u.mapping.count == 0)
        return false;
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct sl_node *service = services->u.mapping.pairs[i].value;
        if (service->kind != SL_NODE_MAPPING || !is_text(value_of(service, "image")))
            return false;
    }
    return true;
}

/* The top-level keys of the agent-env chart's values.schema.json (which
 * allows no others). */
static const char *const chart_keys[] = {
    "global", "allowDomains", "allowDomainsPorts", "allowEntities", "allowCIDR",
    "networks", "corednsImage", "corednsCommand", "corednsSecurityContext",
    "imagePullSecrets", "services", "volumes", "additionalResources", "annotations",
    "labels", "automountServiceAccountToken", "serviceAccountCreate",
    "serviceAccountName",
};
/* Those no other chart or Compose file is likely to hold. */
static const char *const chart_only_keys[] = {
    "allowDomains", "allowDomainsPorts", "allowEntities", "allowCIDR",
    "corednsImage", "corednsCommand", "corednsSecurityContext",
    "additionalResources", "automountServiceAccountToken", "serviceAccountCreate",
    "serviceAccountName",
};

static bool key_in(const struct sl_node *key, const char *const *words, size_t count)
{
    if (key->kind != SL_NODE_SCALAR)
        return false;
    for (size_t i = 0; i < count; i++)
        if (key->u.scalar.length == strlen(words[i]) &&
            memcmp(key->u.scalar.text, words[i], key->u.scalar.length) == 0)
            return true;
    return false;
}

#define COUNT(array) (sizeof(array) / sizeof(*(array)))

bool file_kind_agent_env_overrides(const struct sl_node *root)
{
    if (root == NULL || root->kind != SL_NODE_MAPPING || root->u.mapping.count == 0)
        return false;
    bool distinctive = false;
    for (size_t i = 0; i < root->u.mapping.count; i++) {
        const struct model_pair *pair = &root->u.mapping.pairs[i];
        if (!key_in(pair->key, chart_keys, COUNT(chart_keys)))
            return false;
        if (key_in(pair->key, chart_only_keys, COUNT(chart_only_keys)))
            distinctive = true;
    }
    const struct sl_node *services = value_of(root, "services");
    if (services != NULL && !model_is_null(services)) {
        if (services->kind != SL_NODE_MAPPING || services->u.mapping.count == 0)
            return false;
        for (size_t i = 0; i < services->u.mapping.count; i++) {
            const struct sl_node *service = services->u.mapping.pairs[i].value;
            if (service->kind != SL_NODE_MAPPING && !model_is_null(service))
                return false;
        }
        distinctive = true;
    }
    return distinctive;
}

const struct sl_node *file_kind_kubernetes_sign(const struct sl_node *root)
{
    const struct sl_node *key = NULL;
    if (root == NULL || root->kind != SL_NODE_MAPPING)
        return NULL;
    if (file_kind_is_object(root)) {
        model_mapping_get(root, "apiVersion", strlen("apiVersion"), &key);
        return key;
    }
    for (size_t i = 0; i < root->u.mapping.count; i++)
        if (key_in(root->u.mapping.pairs[i].key, chart_only_keys, COUNT(chart_only_keys)))
            return root->u.mapping.pairs[i].key;
    const struct sl_node *services = value_of(root, "services");
    if (services == NULL || services->kind != SL_NODE_MAPPING)
        return NULL;
    static const char *const fields[] = { "securityContext", "runtimeClassName",
                                          "volumeMounts", "initContainers" };
    for (size_t i = 0; i < services->u.mapping.count; i++) {
        const struct sl_node *service = services->u.mapping.pairs[i].value;
        if (service->kind != SL_NODE_MAPPING)
            continue;
        for (size_t f = 0; f < COUNT(fields); f++)
            if (model_mapping_get(service, fields[f], strlen(fields[f]), &key) != NULL)
                return key;
        const struct sl_node *volumes = value_of(service, "volumes");
        for (size_t v = 0; volumes != NULL && volumes->kind == SL_NODE_SEQUENCE &&
                           v < volumes->u.sequence.count; v++) {
            const struct sl_node *item = volumes->u.sequence.items[v];
            if (item->kind == SL_NODE_MAPPING &&
                model_mapping_get(item, "hostPath", strlen("hostPath"), &key) != NULL)
                return key;
        }
    }
    return NULL;
}

bool file_kind_is_object(const struct sl_node *root)
{
    return root != NULL && root->kind == SL_NODE_MAPPING &&
           is_text(value_of(root, "apiVersion")) && is_text(value_of(root, "kind"));
}

int file_kind_decide(const struct yaml_model *model, unsigned candidates)
{
    if ((candidates & CANDIDATE_GITHUB_ACTIONS) != 0)
        return SL_KIND_GITHUB_ACTIONS;
    if ((candidates & CANDIDATE_GITLAB_CI) != 0)
        return SL_KIND_GITLAB_CI;
    if (candidates == 0 || (candidates & CANDIDATE_COMPOSE) != 0)
        return SL_KIND_COMPOSE;
    const struct sl_node *first = NULL;
    for (size_t i = 0; i < model->document_count && first == NULL; i++)
        if (!model_is_null(model->documents[i]))
            first = model->documents[i];
    bool values_shape = first != NULL && (file_kind_agent_env_shape(first) ||
                                          file_kind_agent_env_overrides(first));
    /* A file named explicitly is Compose unless it also shows Kubernetes
     * fields: Compose files have services with an image too. */
    if (values_shape && ((candidates & CANDIDATE_VALUES) != 0 ||
                         file_kind_kubernetes_sign(first) != NULL))
        return SL_KIND_AGENT_ENV;
    if ((candidates & (CANDIDATE_KUBERNETES | CANDIDATE_NAMED)) != 0)
        for (size_t i = 0; i < model->document_count; i++)
            if (file_kind_is_object(model->documents[i]))
                return SL_KIND_KUBERNETES;
    return (candidates & CANDIDATE_NAMED) != 0 ? SL_KIND_COMPOSE : 0;
}

const char *file_kind_name(int kind)
{
    switch (kind) {
    case SL_KIND_COMPOSE:
        return "compose";
    case SL_KIND_AGENT_ENV:
        return "agent-env";
    case SL_KIND_KUBERNETES:
        return "kubernetes";
    case SL_KIND_SHELL:
        return "shell";
    case SL_KIND_MAKEFILE:
        return "makefile";
    case SL_KIND_GITHUB_ACTIONS:
        return "github-actions";
    case SL_KIND_GITLAB_CI:
        return "gitlab-ci";
    case SL_KIND_GITLAB_RUNNER:
        return "gitlab-runner";
    default:
        return "unknown";
    }
}
