/* compose.c - Compose value rules (see compose.h and plugin.h). */
#include "config.h"

#include "compose.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "yaml_model.h"

static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int equals_ignore_case(const char *text, size_t length, const char *word)
{
    size_t word_length = strlen(word);
    if (length != word_length)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (ascii_lower((unsigned char)text[i]) != word[i])
            return 0;
    return 1;
}

int compose_text_truthy(const char *text, size_t length)
{
    return equals_ignore_case(text, length, "true") ||
           equals_ignore_case(text, length, "y") ||
           equals_ignore_case(text, length, "yes") ||
           equals_ignore_case(text, length, "on");
}

int compose_node_truthy(const struct sl_node *node)
{
    return node != NULL && node->kind == SL_NODE_SCALAR &&
           compose_text_truthy(node->u.scalar.text, node->u.scalar.length);
}

int compose_node_empty(const struct sl_node *node)
{
    if (node == NULL)
        return 1;
    switch (node->kind) {
    case SL_NODE_SCALAR:
        return node->null_value;
    case SL_NODE_SEQUENCE:
        return node->u.sequence.count == 0;
    case SL_NODE_MAPPING:
        return node->u.mapping.count == 0;
    default:
        return 1;
    }
}

const char *compose_setting_text(const struct sl_node *node, size_t *length)
{
    *length = 0;
    if (compose_node_empty(node) || node->kind != SL_NODE_SCALAR ||
        node->u.scalar.length == 0)
        return NULL;
    *length = node->u.scalar.length;
    return node->u.scalar.text;
}

static int is_drive_path(const char *text, size_t length)
{
    return length >= 3 && ((text[0] >= 'A' && text[0] <= 'Z') ||
                           (text[0] >= 'a' && text[0] <= 'z')) &&
           text[1] == ':' && (text[2] == '\\' || text[2] == '/');
}

static int starts_with(const char *text, size_t length, const char *prefix)
{
    size_t prefix_length = strlen(prefix);
    return length >= prefix_length && memcmp(text, prefix, prefix_length) == 0;
}

/* Index of the first byte equal to one of set outside interpolations, or
 * length when none. */
static size_t find_outside_interpolation(const char *text, size_t length,
                                         size_t from, const char *set)
{
    for (size_t i = from; i < length; i++) {
        if (text[i] == '$') {
            long span = compose_interpolation_span(text, length, i);
            if (span != 0) {
                i += (size_t)(span > 0 ? span : -span) - 1;
                continue;
            }
        }
        if (strchr(set, text[i]) != NULL && text[i] != '\0')
            return i;
    }
    return length;
}

int compose_classify_source(const char *source, size_t length)
{
    if (source == NULL || length == 0)
        return SL_SOURCE_NONE;
    if ((length == 1 && source[0] == '.') ||
        (length == 2 && source[0] == '.' && source[1] == '.'))
        return SL_SOURCE_HOST_PATH;
    if (starts_with(source, length, "/") || starts_with(source, length, "./") ||
        starts_with(source, length, "../") || starts_with(source, length, ".\\") ||
        starts_with(source, length, "..\\") || starts_with(source, length, "~") ||
        starts_with(source, length, "\\") || is_drive_path(source, length))
        return SL_SOURCE_HOST_PATH;
    /* A volume name cannot hold a separator, so one outside the
     * interpolations makes it a path whatever the variables hold. */
    if (find_outside_interpolation(source, length, 0, "/\\") < length)
        return SL_SOURCE_HOST_PATH;
    if (compose_has_interpolation(source, length))
        return SL_SOURCE_INTERPOLATED;
    return SL_SOURCE_VOLUME_NAME;
}

/* Whether the part after the first ':' is a container path (a target)
 * rather than an access mode. */
static int looks_like_target(const char *text, size_t length)
{
    if (length == 0)
        return 0;
    char c = text[0];
    if (c == '/' || c == '\\' || c == '~' || c == '.')
        return 1;
    if (is_drive_path(text, length))
        return 1;
    return c == '$' && compose_interpolation_span(text, length, 0) > 0;
}

/* Index of the ':' that ends a path starting at text[from], skipping a
 * drive letter prefix and interpolations; length when none. */
static size_t path_end(const char *text, size_t length, size_t from)
{
    size_t start = from;
    if (is_drive_path(text + from, length - from))
        start += 2;
    return find_outside_interpolation(text, length, start, ":");
}

static int parse_volume_into(const char *text, size_t length,
                             struct sl_volume *out);

/* The size of struct sl_volume in ABI 1.0; a caller's struct is at least
 * this large and may be larger (a newer plugin on an older host). */
#define VOLUME_SIZE_1_0 (offsetof(struct sl_volume, mode_length) + sizeof(size_t))

int compose_parse_volume(const char *text, size_t length, struct sl_volume *caller)
{
    if (caller == NULL || caller->struct_size < VOLUME_SIZE_1_0 || text == NULL)
        return SL_ERROR;
    /* Fill a full host-sized struct, then copy only what the caller has. */
    struct sl_volume result;
    memset(&result, 0, sizeof(result));
    result.struct_size = caller->struct_size;
    struct sl_volume *out = &result;
    int status = parse_volume_into(text, length, out);
    memcpy(caller, &result, caller->struct_size < sizeof(result)
                                ? caller->struct_size : sizeof(result));
    return status;
}

static int parse_volume_into(const char *text, size_t length, struct sl_volume *out)
{
    size_t first = path_end(text, length, 0);
    if (first == length) {
        /* No ':' at all: an anonymous volume at that container path. */
        out->source_kind = SL_SOURCE_NONE;
        out->target = text;
        out->target_length = length;
        return SL_OK;
    }
    const char *rest = text + first + 1;
    size_t rest_length = length - first - 1;
    if (!looks_like_target(rest, rest_length)) {
        /* "/cache:ro": the part after ':' is a mode, not a target. */
        out->source_kind = SL_SOURCE_NONE;
        out->target = text;
        out->target_length = first;
        out->mode = rest;
        out->mode_length = rest_length;
        return SL_OK;
    }
    out->source = text;
    out->source_length = first;
    out->source_kind = compose_classify_source(text, first);
    size_t second = path_end(rest, rest_length, 0);
    out->target = rest;
    out->target_length = second;
    if (second < rest_length) {
        out->mode = rest + second + 1;
        out->mode_length = rest_length - second - 1;
    }
    return SL_OK;
}

static int contains(const char *text, size_t length, const char *needle)
{
    size_t needle_length = strlen(needle);
    if (text == NULL || length < needle_length)
        return 0;
    for (size_t i = 0; i + needle_length <= length; i++)
        if (memcmp(text + i, needle, needle_length) == 0)
            return 1;
    return 0;
}

static const char *const engine_socket_names[] = {
    "docker.sock", "docker_engine", "podman.sock", "containerd.sock",
    "crio.sock", "cri-dockerd.sock", "buildkitd.sock",
};

/* Directories that hold /var/run/docker.sock (or are its parents), and
 * those that hold the other engines' sockets: Docker's own directory,
 * containerd's (also k3s's), Podman's, BuildKit's and CRI-O's (SPEC §13).
 * /var/lib/docker is the engine's data, not its API: SBX003. */
static const char *const engine_socket_directories[] = {
    "/", "/run", "/var", "/var/run",
    "/var/run/docker", "/run/docker", "/run/containerd", "/var/run/containerd",
    "/run/podman", "/run/buildkit", "/run/crio", "/run/k3s/containerd",
    "/run/user",
};

/* /run/user/<uid>: a user's runtime directory, where rootless Docker,
 * Podman and BuildKit keep their sockets. */
static bool is_user_runtime_directory(const char *path, size_t length)
{
    static const char prefix[] = "/run/user/";
    const size_t prefix_length = sizeof(prefix) - 1;
    if (length <= prefix_length || memcmp(path, prefix, prefix_length) != 0)
        return false;
    for (size_t i = prefix_length; i < length; i++)
        if (path[i] < '0' || path[i] > '9')
            return false;
    return true;
}

int compose_is_engine_socket(const char *source, size_t source_length,
                             const char *target, size_t target_length)
{
    size_t names = sizeof(engine_socket_names) / sizeof(*engine_socket_names);
    for (size_t i = 0; i < names; i++)
        if (contains(source, source_length, engine_socket_names[i]) ||
            contains(target, target_length, engine_socket_names[i]))
            return 1;
    if (source == NULL || source_length == 0)
        return 0;
    size_t trimmed = source_length;
    while (trimmed > 1 && source[trimmed - 1] == '/')
        trimmed--;
    size_t directories = sizeof(engine_socket_directories) /
                         sizeof(*engine_socket_directories);
    for (size_t i = 0; i < directories; i++) {
        const char *directory = engine_socket_directories[i];
        if (strlen(directory) == trimmed && memcmp(directory, source, trimmed) == 0)
            return 1;
    }
    return is_user_runtime_directory(source, trimmed);
}
