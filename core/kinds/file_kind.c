/* file_kind.c - which kind of file a discovered file is (see file_kind.h). */
#include "config.h"

#include "file_kind.h"

#include <string.h>
#include <strings.h>

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

/* The length of name without its .yaml or .yml suffix, or -1 for none. */
static size_t yaml_stem(const char *name, size_t length)
{
    return ends_with(name, length, ".yaml") ? length - 5
           : ends_with(name, length, ".yml") ? length - 4 : (size_t)-1;
}

/* Whether the stem of a name (its first stem bytes) is something, a
 * separator (-, _ or .) and word: the ways projects qualify a
 * conventional name (sandbox-compose, test_compose, ctf.compose; SPEC §15
 * "Names").  Something: a hidden file (.compose.yml) is none of these. */
static bool stem_qualifies(const char *name, size_t stem, const char *word)
{
    size_t word_length = strlen(word);
    if (stem < word_length + 2)
        return false;
    char separator = name[stem - word_length - 1];
    return (separator == '-' || separator == '_' || separator == '.') &&
           memcmp(name + stem - word_length, word, word_length) == 0;
}

/* (docker-)?compose*.y{a,}ml, and *-compose, *_compose, *.compose. */
static bool is_compose_name(const char *name)
{
    size_t length = strlen(name);
    size_t stem = yaml_stem(name, length);
    if (stem == (size_t)-1)
        return false;
    if (stem_qualifies(name, stem, "compose"))
        return true;
    if (strncmp(name, "docker-", 7) == 0) {
        name += 7;
        stem -= 7;
    }
    return stem >= 7 && strncmp(name, "compose", 7) == 0;
}

/* values.y{a,}ml, helm-values*, values-*, values.*, and *-values,
 * *_values, *.values (each .y{a,}ml). */
static bool is_values_name(const char *name)
{
    size_t length = strlen(name);
    size_t stem = yaml_stem(name, length);
    if (stem == (size_t)-1)
        return false;
    if (stem == 6 && memcmp(name, "values", 6) == 0)
        return true;
    if (strncmp(name, "helm-values", 11) == 0 && stem >= 11)
        return true;
    if (stem >= 7 && (strncmp(name, "values-", 7) == 0 || strncmp(name, "values.", 7) == 0))
        return true;
    return stem_qualifies(name, stem, "values") ||
           (stem == 7 && memcmp(name, "-values", 7) == 0);     /* as 0.2 read it */
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
    if (strcmp(name, ".devcontainer.json") == 0 || strcmp(name, "devcontainer.json") == 0)
        candidates |= CANDIDATE_DEVCONTAINER | CANDIDATE_JSON;
    if (strcmp(name, "challenge.yaml") == 0 || strcmp(name, "challenge.yml") == 0)
        candidates |= CANDIDATE_RCDS;
    if (strcmp(name, "challenge.json") == 0)
        candidates |= CANDIDATE_RCDS | CANDIDATE_JSON;
    if (strcmp(name, "action.yml") == 0 || strcmp(name, "action.yaml") == 0)
        candidates |= CANDIDATE_GITHUB_ACTION;
    return candidates;
}

/* Whether the length bytes before end in path are the directory name
 * .devcontainer, a whole path component. */
static bool component_is_devcontainer(const char *path, size_t end)
{
    static const char directory[] = ".devcontainer";
    size_t length = sizeof(directory) - 1;
    return end >= length && memcmp(path + end - length, directory, length) == 0 &&
           (end == length || path[end - length - 1] == '/');
}

bool file_devcontainer_place(const char *path)
{
    size_t length = strlen(path);
    size_t name = length;
    while (name > 0 && path[name - 1] != '/')
        name--;
    if (strcmp(path + name, ".devcontainer.json") == 0)
        return true;
    if (strcmp(path + name, "devcontainer.json") != 0 || name == 0)
        return false;
    /* path[name - 1] is the '/' after the parent directory. */
    size_t parent_end = name - 1;
    if (component_is_devcontainer(path, parent_end))
        return true;
    size_t parent = parent_end;
    while (parent > 0 && path[parent - 1] != '/')
        parent--;
    return parent > 0 && parent < parent_end && component_is_devcontainer(path, parent - 1);
}

static const struct sl_node *value_of(const struct sl_node *mapping, const char *key)
{
    return model_mapping_get(mapping, key, strlen(key), NULL);
}

static bool is_text(const struct sl_node *node)
{
    return node != NULL && node->kind == SL_NODE_SCALAR && !node->null_value;
}

const struct sl_node *file_kind_github_action_using(const struct sl_node *root)
{
    const struct sl_node *using = value_of(value_of(root, "runs"), "using");
    if (!is_text(using))
        return NULL;
    const char *text = using->u.scalar.text;
    size_t length = using->u.scalar.length;
    bool composite = length == 9 && strncasecmp(text, "composite", 9) == 0;
    bool docker = length == 6 && strncasecmp(text, "docker", 6) == 0;
    return composite || docker ? using : NULL;
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

/* Whether a document is an rCDS challenge: a mapping with a containers
 * key and no apiVersion (a kCTF Challenge object has one). */
static bool is_rcds_challenge(const struct sl_node *root)
{
    return root != NULL && root->kind == SL_NODE_MAPPING &&
           value_of(root, "apiVersion") == NULL && value_of(root, "containers") != NULL;
}

/* A UTF-8 byte order mark, which YAML readers skip before the first line. */
static const char byte_order_mark[] = "\xef\xbb\xbf";

/* Where a file's first line starts: after its byte order mark, if any. */
static const char *first_line(const char *data, size_t length)
{
    return length >= 3 && memcmp(data, byte_order_mark, 3) == 0 ? data + 3 : data;
}

/* Indentations above this are not read as an indented document. */
#define SNIFF_MAX_INDENT 64

/* What the backward scans of one file learnt: for each indentation, the
 * line of the last apiVersion key found at it, and whether the lines
 * before it back to the document's start were all indented as much (or
 * blank, or comments).  A scan that reaches that line stops there, so each
 * line is scanned at most once per indentation. */
struct sniff_memo {
    const char *line[SNIFF_MAX_INDENT + 1];
    bool top_level[SNIFF_MAX_INDENT + 1];
};

/* Whether the line starting at line (indented by indent spaces before an
 * apiVersion key) is in a document whose every line before it is indented
 * by at least indent (or blank, or a comment): a top-level mapping written
 * indented, which YAML allows. */
static bool indented_top_level(const char *begin, const char *line, size_t indent,
                               struct sniff_memo *memo)
{
    const char *here = line;
    bool result = true;
    while (here > begin) {
        /* The start of the line before. */
        const char *previous = here - 1;
        while (previous > begin && previous[-1] != '\n')
            previous--;
        here = previous;
        if (here == memo->line[indent]) {
            result = memo->top_level[indent];
            break;
        }
        size_t spaces = 0;
        while (here + spaces < line && here[spaces] == ' ')
            spaces++;
        char next = here[spaces];
        if (next == '\n' || next == '\r' || next == '#')
            continue;   /* blank, or a comment */
        if (spaces == 0 && (next == '-' || next == '.') && here + 3 <= line &&
            memcmp(here, next == '-' ? "---" : "...", 3) == 0)
            break;      /* the document starts after a marker */
        if (spaces < indent) {
            result = false;
            break;
        }
    }
    memo->line[indent] = line;
    memo->top_level[indent] = result;
    return result;
}

bool file_kind_sniff_objects(const char *data, size_t length)
{
    static const char word[] = "apiVersion";
    const size_t word_length = sizeof(word) - 1;
    const char *end = data + length;
    const char *begin = first_line(data, length);
    struct sniff_memo memo;
    bool memo_ready = false;
    for (const char *at = begin; at < end;) {
        const char *found = memmem(at, (size_t)(end - at), word, word_length);
        if (found == NULL)
            return false;
        at = found + word_length;
        /* At the start of a line, or quoted there ("apiVersion":). */
        const char *start = found;
        bool quoted = start > begin && (start[-1] == '"' || start[-1] == '\'');
        if (quoted)
            start--;
        /* Or indented: the spaces before it back to the line's start. */
        const char *line = start;
        while (line > begin && line[-1] == ' ')
            line--;
        if (line != begin && line[-1] != '\n')
            continue;
        size_t indent = (size_t)(start - line);
        if (indent > SNIFF_MAX_INDENT)
            continue;
        const char *cursor = at;
        if (quoted) {
            if (cursor == end || *cursor != start[0])
                continue;
            cursor++;
        }
        while (cursor < end && *cursor == ' ')
            cursor++;
        if (cursor == end || *cursor != ':')
            continue;
        if (indent == 0)
            return true;
        if (!memo_ready) {
            memset(&memo, 0, sizeof(memo));
            memo_ready = true;
        }
        if (indented_top_level(begin, line, indent, &memo))
            return true;
    }
    return false;
}

/* Objects that describe other objects (schemas, policies, their
 * templates): what they hold under securityContext or hostPath is a
 * pattern or a schema, nothing that runs (SPEC §17). */
static const struct {
    const char *kind;
    const char *group;          /* apiVersion's prefix */
} schema_objects[] = {
    { "CustomResourceDefinition", "apiextensions.k8s.io/" },
    { "ValidatingAdmissionPolicy", "admissionregistration.k8s.io/" },
    { "MutatingAdmissionPolicy", "admissionregistration.k8s.io/" },
    { "ConstraintTemplate", "templates.gatekeeper.sh/" },
    { "ClusterPolicy", "kyverno.io/" },
    { "Policy", "kyverno.io/" },
};

static bool scalar_is(const struct sl_node *node, const char *text, bool prefix)
{
    size_t length = strlen(text);
    return is_text(node) && (prefix ? node->u.scalar.length >= length
                                    : node->u.scalar.length == length) &&
           memcmp(node->u.scalar.text, text, length) == 0;
}

bool file_kind_is_schema_object(const struct sl_node *root)
{
    if (!file_kind_is_object(root))
        return false;
    const struct sl_node *kind = value_of(root, "kind");
    const struct sl_node *api_version = value_of(root, "apiVersion");
    for (size_t i = 0; i < COUNT(schema_objects); i++)
        if (scalar_is(kind, schema_objects[i].kind, false) &&
            scalar_is(api_version, schema_objects[i].group, true))
            return true;
    return false;
}

int file_kind_decide(const struct yaml_model *model, unsigned candidates)
{
    /* A CI file never has top-level apiVersion and kind: one that does is
     * a Kubernetes file in a CI file's place (SPEC §15: whatever its name),
     * not a workflow without jobs that passes. */
    if ((candidates & (CANDIDATE_GITHUB_ACTIONS | CANDIDATE_GITLAB_CI |
                       CANDIDATE_GITHUB_ACTION)) != 0 &&
        (candidates & (CANDIDATE_KUBERNETES | CANDIDATE_NAMED | CANDIDATE_CONTENT)) != 0)
        for (size_t i = 0; i < model->document_count; i++)
            if (file_kind_is_object(model->documents[i]) &&
                !file_kind_is_schema_object(model->documents[i]))
                return SL_KIND_KUBERNETES;
    if ((candidates & CANDIDATE_GITHUB_ACTIONS) != 0)
        return SL_KIND_GITHUB_ACTIONS;
    if ((candidates & CANDIDATE_GITLAB_CI) != 0)
        return SL_KIND_GITLAB_CI;
    if ((candidates & CANDIDATE_GITHUB_ACTION) != 0) {
        /* An action's metadata: its composite steps or its container run
         * on the runner; a JavaScript action (or another program's
         * action.yml) is no sandbox - unless it is something else too. */
        const struct sl_node *first = NULL;
        for (size_t i = 0; i < model->document_count && first == NULL; i++)
            if (!model_is_null(model->documents[i]))
                first = model->documents[i];
        if (first != NULL && file_kind_github_action_using(first) != NULL)
            return SL_KIND_GITHUB_ACTIONS;
    }
    if ((candidates & CANDIDATE_DEVCONTAINER) != 0)
        return SL_KIND_DEVCONTAINER;
    if ((candidates & CANDIDATE_RCDS) != 0 && (candidates & CANDIDATE_NAMED) == 0) {
        /* A challenge file: a kCTF Challenge object is Kubernetes; one of
         * another framework (CTFd's challenge.yml) is skipped. */
        for (size_t i = 0; i < model->document_count; i++)
            if (file_kind_is_object(model->documents[i]))
                return SL_KIND_KUBERNETES;
        return model->document_count > 0 && is_rcds_challenge(model->documents[0])
                   ? SL_KIND_RCDS : 0;
    }
    if ((candidates & CANDIDATE_RCDS) != 0 && model->document_count > 0 &&
        is_rcds_challenge(model->documents[0]))
        return SL_KIND_RCDS;
    if (candidates == 0)
        return SL_KIND_COMPOSE;
    /* Kubernetes by content (SPEC §13, §17): whatever the file's name,
     * unless the search was told to look only by name. */
    bool schemas_only = false;
    if ((candidates & (CANDIDATE_KUBERNETES | CANDIDATE_NAMED | CANDIDATE_CONTENT)) != 0) {
        for (size_t i = 0; i < model->document_count; i++) {
            if (!file_kind_is_object(model->documents[i]))
                continue;
            if (!file_kind_is_schema_object(model->documents[i]))
                return SL_KIND_KUBERNETES;
            schemas_only = true;
        }
    }
    if (schemas_only && (candidates & (CANDIDATE_COMPOSE | CANDIDATE_NAMED)) == 0)
        return 0;
    if (schemas_only)
        return SL_KIND_KUBERNETES;  /* named: checked, and holds no workload */
    if ((candidates & CANDIDATE_COMPOSE) != 0)
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
    case SL_KIND_DEVCONTAINER:
        return "devcontainer";
    case SL_KIND_RCDS:
        return "rcds";
    default:
        return "unknown";
    }
}
