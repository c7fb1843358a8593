/* path_glob.c - the matcher of configuration globs (see path_glob.h).
 *
 * Two levels of the same greedy algorithm with one backtracking point
 * (the last star seen): components against `**`, then characters of one
 * component against `*`.  Both are O(pattern x path) at worst, never
 * exponential, and neither recurses.
 */
#include "config.h"

#include "path_glob.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "xalloc.h"

/* ------------------------------------------------------------------ */
/* one component                                                       */
/* ------------------------------------------------------------------ */

/* Decodes the character at p (before end): a code point, or an invalid
 * byte as a value no code point has.  Returns its length (>= 1). */
static size_t next_char(const char *p, const char *end, uint32_t *code)
{
    size_t length = utf8_decode((const unsigned char *)p, (size_t)(end - p), code);
    if (length == 0) {
        *code = 0x110000u + (unsigned char)*p;
        return 1;
    }
    return length;
}

/* The length of the bracket expression at p ('['), or 0 when it is not
 * closed within the component (the '[' is then literal). */
static size_t bracket_length(const char *p, const char *end)
{
    const char *q = p + 1;
    if (q < end && (*q == '!' || *q == '^'))
        q++;
    if (q < end && *q == ']')
        q++;                    /* a leading ']' belongs to the set */
    while (q < end && *q != ']') {
        if (*q == '\\' && q + 1 < end)
            q++;
        q++;
    }
    return q < end ? (size_t)(q + 1 - p) : 0;
}

/* Reads one member character of a set, honouring '\'. */
static const char *set_char(const char *q, const char *end, uint32_t *code)
{
    if (*q == '\\' && q + 1 < end)
        q++;
    return q + next_char(q, end, code);
}

/* Whether code belongs to the bracket expression [p, p + length). */
static bool bracket_matches(const char *p, size_t length, uint32_t code)
{
    const char *q = p + 1, *end = p + length - 1;   /* inside the brackets */
    bool negated = q < end && (*q == '!' || *q == '^');
    if (negated)
        q++;
    bool found = false;
    while (q < end) {
        uint32_t low, high;
        q = set_char(q, end, &low);
        high = low;
        if (q + 1 < end && *q == '-' && q[1] != ']')
            q = set_char(q + 1, end, &high);
        if (low <= code && code <= high)
            found = true;
    }
    return found != negated;
}

/* Matches one pattern element at *p against the character at *s; on
 * success advances both. */
static bool element_matches(const char **p, const char *pattern_end,
                            const char **s, const char *text_end)
{
    uint32_t have;
    size_t have_length = next_char(*s, text_end, &have);
    const char *q = *p;
    if (*q == '?') {
        *p = q + 1;
        *s += have_length;
        return true;
    }
    if (*q == '[') {
        size_t length = bracket_length(q, pattern_end);
        if (length != 0) {
            if (!bracket_matches(q, length, have))
                return false;
            *p = q + length;
            *s += have_length;
            return true;
        }
    }
    if (*q == '\\' && q + 1 < pattern_end)
        q++;
    uint32_t want;
    size_t want_length = next_char(q, pattern_end, &want);
    if (want != have)
        return false;
    *p = q + want_length;
    *s += have_length;
    return true;
}

static bool component_matches(const char *pattern, size_t pattern_length,
                              const char *text, size_t text_length)
{
    const char *p = pattern, *p_end = pattern + pattern_length;
    const char *s = text, *s_end = text + text_length;
    const char *star_p = NULL, *star_s = NULL;
    while (s < s_end) {
        if (p < p_end && *p == '*') {
            while (p < p_end && *p == '*')
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        if (p < p_end && element_matches(&p, p_end, &s, s_end))
            continue;
        if (star_p == NULL)
            return false;
        /* Let the last star take one more character and retry. */
        uint32_t ignored;
        star_s += next_char(star_s, s_end, &ignored);
        s = star_s;
        p = star_p;
    }
    while (p < p_end && *p == '*')
        p++;
    return p == p_end;
}

/* ------------------------------------------------------------------ */
/* components                                                          */
/* ------------------------------------------------------------------ */

struct component {
    const char *text;
    size_t length;
};

struct components {
    struct component *items;
    size_t count;
    bool directory_only;        /* the text ended in '/' */
};

/* Splits text at '/' into components (skipping empty and "." ones); the
 * array is malloc'd. */
static void split(const char *text, struct components *out)
{
    size_t slashes = 0;
    for (const char *p = text; *p != '\0'; p++)
        slashes += *p == '/';
    /* One more for the components, one for split_pattern's extra `*`. */
    out->items = xcalloc(slashes + 2, sizeof(*out->items));
    out->count = 0;
    size_t length = strlen(text);
    out->directory_only = length > 0 && text[length - 1] == '/';
    const char *p = text;
    while (*p != '\0') {
        while (*p == '/')
            p++;
        const char *end = strchr(p, '/');
        if (end == NULL)
            end = p + strlen(p);
        size_t size = (size_t)(end - p);
        if (size != 0 && !(size == 1 && p[0] == '.')) {
            out->items[out->count].text = p;
            out->items[out->count].length = size;
            out->count++;
        }
        p = end;
    }
}

static bool is_globstar(const struct component *component)
{
    return component->length == 2 && memcmp(component->text, "**", 2) == 0;
}

/* Splits a pattern; a trailing `**` must match at least one component, so
 * it becomes `*` followed by `**`. */
static void split_pattern(const char *pattern, struct components *out)
{
    split(pattern, out);
    if (out->count > 0 && is_globstar(&out->items[out->count - 1])) {
        out->items[out->count - 1].text = "*";
        out->items[out->count - 1].length = 1;
        out->items[out->count].text = "**";
        out->items[out->count].length = 2;
        out->count++;
    }
}

static bool components_match(const struct components *pattern,
                             const struct components *path)
{
    size_t p = 0, s = 0;
    size_t star_p = SIZE_MAX, star_s = 0;
    while (s < path->count) {
        if (p < pattern->count && is_globstar(&pattern->items[p])) {
            while (p < pattern->count && is_globstar(&pattern->items[p]))
                p++;
            star_p = p;
            star_s = s;
            continue;
        }
        if (p < pattern->count &&
            component_matches(pattern->items[p].text, pattern->items[p].length,
                              path->items[s].text, path->items[s].length)) {
            p++;
            s++;
            continue;
        }
        if (star_p == SIZE_MAX)
            return false;
        s = ++star_s;
        p = star_p;
    }
    while (p < pattern->count && is_globstar(&pattern->items[p]))
        p++;
    return p == pattern->count;
}

bool glob_match(const char *pattern, const char *path, bool is_directory)
{
    struct components pattern_parts, path_parts;
    split_pattern(pattern, &pattern_parts);
    split(path, &path_parts);
    bool matched = pattern_parts.count != 0 && path_parts.count != 0 &&
                   (is_directory || !pattern_parts.directory_only) &&
                   components_match(&pattern_parts, &path_parts);
    free(pattern_parts.items);
    free(path_parts.items);
    return matched;
}

/* How pattern continues below directory's components, all matched. */
static enum glob_below below(const struct components *pattern,
                             const struct components *directory)
{
    for (size_t i = 0; i < directory->count; i++) {
        if (i == pattern->count)
            return GLOB_BELOW_NONE;
        if (is_globstar(&pattern->items[i]))
            return GLOB_BELOW_ANY;
        if (!component_matches(pattern->items[i].text, pattern->items[i].length,
                               directory->items[i].text, directory->items[i].length))
            return GLOB_BELOW_NONE;
    }
    if (directory->count == pattern->count)
        return GLOB_BELOW_NONE;
    return is_globstar(&pattern->items[directory->count]) ? GLOB_BELOW_ANY
                                                           : GLOB_BELOW_BOUNDED;
}

enum glob_below glob_match_below(const char *pattern, const char *directory)
{
    struct components pattern_parts, directory_parts;
    split_pattern(pattern, &pattern_parts);
    split(directory, &directory_parts);
    enum glob_below result = pattern_parts.count == 0 ? GLOB_BELOW_NONE
                             : below(&pattern_parts, &directory_parts);
    free(pattern_parts.items);
    free(directory_parts.items);
    return result;
}

bool glob_list_match(const struct string_list *patterns, const char *relative,
                     const char *absolute, bool is_directory)
{
    if (patterns == NULL)
        return false;
    for (size_t i = 0; i < patterns->count; i++) {
        const char *pattern = patterns->items[i];
        if (pattern[0] == '/') {
            if (absolute != NULL && glob_match(pattern, absolute, is_directory))
                return true;
        } else if (relative != NULL && glob_match(pattern, relative, is_directory)) {
            return true;
        }
    }
    return false;
}
