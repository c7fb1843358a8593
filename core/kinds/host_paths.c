/* host_paths.c - where a host path lies (see host_paths.h). */
#include "config.h"

#include "host_paths.h"

#include <string.h>

#include "compose.h"

/* One segment of a normalised path. */
struct segment {
    const char *text;
    size_t length;
    bool interpolated;          /* holds ${...} or $NAME */
    bool user;                  /* the user of "~": matches only "*" */
};

/* Patterns are at most four segments deep: keeping the first few of a
 * path is enough to match them; deeper segments are only counted. */
#define KEPT_SEGMENTS 8

struct normalised {
    struct segment kept[KEPT_SEGMENTS];
    size_t depth;               /* segments of the path, kept or not */
    bool unknown_tail;          /* a '..' followed an interpolation: what
                                   comes after the kept ones is unknown */
};

static void push(struct normalised *path, struct segment segment)
{
    if (path->depth < KEPT_SEGMENTS)
        path->kept[path->depth] = segment;
    path->depth++;
}

static bool text_is(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

/* The length of the home prefix path starts with ("~", "$HOME",
 * "${HOME}" followed by '/' or the end), or 0. */
static size_t home_prefix(const char *path, size_t length)
{
    static const char *const homes[] = { "${HOME}", "$HOME", "~" };
    for (size_t i = 0; i < sizeof(homes) / sizeof(*homes); i++) {
        size_t prefix = strlen(homes[i]);
        if (length >= prefix && memcmp(path, homes[i], prefix) == 0 &&
            (length == prefix || path[prefix] == '/'))
            return prefix;
    }
    return 0;
}

/* Normalises the segments of rest (what follows the leading '/' or the
 * home prefix) onto path: '..' takes the last segment off, never the
 * root. */
static void normalise(struct normalised *path, const char *rest, size_t length)
{
    bool after_interpolation = false;
    size_t start = 0;
    while (start <= length) {
        size_t end = start;
        while (end < length && rest[end] != '/')
            end++;
        const char *text = rest + start;
        size_t segment_length = end - start;
        start = end + 1;
        if (segment_length == 0 || text_is(text, segment_length, "."))
            continue;
        if (text_is(text, segment_length, "..")) {
            if (after_interpolation) {
                /* ${DIR}/.. - DIR may hold several segments */
                path->unknown_tail = true;
                return;
            }
            if (path->depth > 0)
                path->depth--;
            continue;
        }
        struct segment segment = { text, segment_length, false, false };
        segment.interpolated = compose_has_interpolation(text, segment_length) != 0;
        after_interpolation = after_interpolation || segment.interpolated;
        push(path, segment);
    }
}

/* A system directory: its segments ("*" is any one segment, a user's name)
 * and whether what lies under it counts too. */
struct system_directory {
    const char *segments[4];
    size_t count;
    bool with_subpaths;
};

static const struct system_directory system_directories[] = {
    { { NULL }, 0, false },                         /* / */
    { { "proc" }, 1, true },
    { { "sys" }, 1, true },
    { { "dev" }, 1, true },
    { { "etc" }, 1, true },
    { { "boot" }, 1, true },
    { { "run" }, 1, true },
    { { "var", "run" }, 2, true },
    { { "root" }, 1, true },
    { { "var", "lib", "docker" }, 3, true },
    { { "home" }, 1, false },
    { { "home", "*" }, 2, false },                  /* ~, /home/USER */
    { { "home", "*", ".ssh" }, 3, true },
    { { "home", "*", ".aws" }, 3, true },
    { { "home", "*", ".kube" }, 3, true },
    { { "home", "*", ".docker" }, 3, true },
    { { "home", "*", ".config", "gcloud" }, 4, true },
};

static bool segment_matches(const struct segment *segment, const char *pattern)
{
    if (strcmp(pattern, "*") == 0)
        return true;
    return !segment->user && !segment->interpolated &&
           text_is(segment->text, segment->length, pattern);
}

static enum host_path_place place_in(const struct normalised *path,
                                     const struct system_directory *directory)
{
    size_t kept = path->depth < KEPT_SEGMENTS ? path->depth : KEPT_SEGMENTS;
    if (kept < directory->count)
        return HOST_PATH_ORDINARY;
    for (size_t i = 0; i < directory->count; i++)
        if (!segment_matches(&path->kept[i], directory->segments[i]))
            return HOST_PATH_ORDINARY;
    bool exact = path->depth == directory->count && !path->unknown_tail;
    if (exact)
        return HOST_PATH_SYSTEM_DIRECTORY;
    return directory->with_subpaths ? HOST_PATH_IN_SYSTEM_DIRECTORY
                                    : HOST_PATH_ORDINARY;
}

enum host_path_place host_path_system_place(const char *path, size_t length)
{
    if (path == NULL || length == 0)
        return HOST_PATH_ORDINARY;
    struct normalised normalised;
    memset(&normalised, 0, sizeof(normalised));
    size_t home = home_prefix(path, length);
    if (home > 0) {
        /* The home directory is /home/USER (root's /root is a system
         * directory with everything under it anyway). */
        push(&normalised, (struct segment){ "home", 4, false, false });
        push(&normalised, (struct segment){ path, home, false, true });
        normalise(&normalised, path + home, length - home);
    } else if (path[0] == '/') {
        normalise(&normalised, path + 1, length - 1);
    } else {
        return HOST_PATH_ORDINARY;
    }
    size_t count = sizeof(system_directories) / sizeof(*system_directories);
    for (size_t i = 0; i < count; i++) {
        enum host_path_place place = place_in(&normalised, &system_directories[i]);
        if (place != HOST_PATH_ORDINARY)
            return place;
    }
    return HOST_PATH_ORDINARY;
}

bool host_path_climbs_out(const char *path, size_t length)
{
    if (path == NULL || length == 0 || path[0] == '/' || path[0] == '\\' ||
        path[0] == '~')
        return false;
    if (length >= 2 && path[1] == ':' &&
        ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')))
        return false;   /* a drive: C:\x, C:/x */
    long depth = 0;
    size_t start = 0;
    while (start <= length) {
        size_t end = start;
        while (end < length && path[end] != '/' && path[end] != '\\')
            end++;
        const char *text = path + start;
        size_t segment_length = end - start;
        start = end + 1;
        if (segment_length == 0 || text_is(text, segment_length, "."))
            continue;
        if (text_is(text, segment_length, "..")) {
            if (--depth < 0)
                return true;
            continue;
        }
        if (compose_has_interpolation(text, segment_length))
            return false;   /* ${DIR} may be anything, absolute too */
        depth++;
    }
    return false;
}
