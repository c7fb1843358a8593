/*
 * config_ini.c - .sandlint.ini, read with the distribution's inih.
 *
 * Debian builds inih with the header defaults: the handler gets no line
 * number and lines are cut at INI_MAX_LINE bytes.  So the file is fed
 * through ini_parse_stream() with our own reader: it counts lines, keeps
 * the raw line for columns, validates section headers, and refuses
 * over-long lines instead of letting inih split them.
 */
#include "config.h"

#include "config_file.h"

#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "xalloc.h"

#define SECTION_SETTINGS "sandlint"
#define SECTION_ALLOWLIST "allowlist"

struct ini_state {
    struct config *config;
    struct config_error *error;
    const char *text;
    size_t length, cursor;
    unsigned line;              /* number of the line last handed to inih */
    const char *raw;            /* that line, in text */
    size_t raw_length;
    struct config_pos section_pos;  /* header of the current section */
};

/* Column (1-based, in code points) of byte offset within the raw line. */
static unsigned column_of(const struct ini_state *state, size_t offset)
{
    unsigned column = 1;
    for (size_t i = 0; i < offset && i < state->raw_length; i++)
        if (((unsigned char)state->raw[i] & 0xC0) != 0x80)
            column++;
    return column;
}

static size_t skip_blanks(const char *text, size_t length, size_t at)
{
    while (at < length && (text[at] == ' ' || text[at] == '\t'))
        at++;
    return at;
}

/* Validates a "[section]" header line and records where it is. */
static void see_header(struct ini_state *state)
{
    size_t at = skip_blanks(state->raw, state->raw_length, 0);
    if (at >= state->raw_length || state->raw[at] != '[')
        return;
    const char *name = state->raw + at + 1;
    const char *close = memchr(name, ']', state->raw_length - at - 1);
    struct config_pos pos = { state->line, column_of(state, at) };
    state->section_pos = pos;
    if (close == NULL)
        return;     /* inih reports the syntax error */
    size_t length = (size_t)(close - name);
    while (length > 0 && (*name == ' ' || *name == '\t'))
        name++, length--;
    while (length > 0 && (name[length - 1] == ' ' || name[length - 1] == '\t'))
        length--;
    if (length == strlen(SECTION_SETTINGS) &&
        memcmp(name, SECTION_SETTINGS, length) == 0)
        return;
    size_t prefix = strlen(SECTION_ALLOWLIST);
    if (length > prefix && memcmp(name, SECTION_ALLOWLIST, prefix) == 0 &&
        (name[prefix] == ' ' || name[prefix] == '\t')) {
        const char *group = name + prefix;
        size_t group_length = length - prefix;
        while (group_length > 0 && (*group == ' ' || *group == '\t'))
            group++, group_length--;
        struct config_pos group_pos = { state->line,
                                        column_of(state, (size_t)(group - state->raw)) };
        config_list_add(&state->config->groups, group, group_length, group_pos);
        return;
    }
    config_fail(state->error, pos, "unknown section [%.*s] (expected [sandlint] "
                "or [allowlist GROUP])", (int)length, name);
}

static char *read_line(char *buffer, int size, void *stream)
{
    struct ini_state *state = stream;
    if (state->cursor >= state->length || state->error->message != NULL)
        return NULL;
    const char *start = state->text + state->cursor;
    const char *newline = memchr(start, '\n', state->length - state->cursor);
    size_t length = newline ? (size_t)(newline - start) + 1
                            : state->length - state->cursor;
    state->line++;
    state->raw = start;
    state->raw_length = length;
    while (state->raw_length > 0 && (start[state->raw_length - 1] == '\n' ||
                                     start[state->raw_length - 1] == '\r'))
        state->raw_length--;
    if (length + 1 > (size_t)size) {
        /* inih reads size - 1 bytes per call, newline included. */
        struct config_pos pos = { state->line, 1 };
        config_fail(state->error, pos, "line longer than %d bytes (the limit "
                    "of inih, the INI reader); use pyproject.toml for longer "
                    "entries", size - 2);
        return NULL;
    }
    memcpy(buffer, start, length);
    buffer[length] = '\0';
    state->cursor += length;
    see_header(state);
    return buffer;
}

/* Position of the value of the current line: after "name =" or, on a
 * continuation line, the first non-blank. */
static struct config_pos value_pos(const struct ini_state *state,
                                   const char *name)
{
    size_t at = skip_blanks(state->raw, state->raw_length, 0);
    size_t name_length = strlen(name);
    if (at == 0 && state->raw_length >= name_length &&
        memcmp(state->raw, name, name_length) == 0) {
        at = name_length;
        while (at < state->raw_length && state->raw[at] != '=' && state->raw[at] != ':')
            at++;
        at = skip_blanks(state->raw, state->raw_length, at + 1);
    }
    struct config_pos pos = { state->line, column_of(state, at) };
    return pos;
}

static struct config_pos name_pos(const struct ini_state *state)
{
    struct config_pos pos = {
        state->line, column_of(state, skip_blanks(state->raw, state->raw_length, 0))
    };
    return pos;
}

static int handle(void *user, const char *section, const char *name,
                  const char *value)
{
    struct ini_state *state = user;
    struct config *config = state->config;
    struct config_pos at = value_pos(state, name);
    if (strcmp(section, SECTION_SETTINGS) == 0) {
        struct config_list *list = NULL;
        if (strcmp(name, "packages") == 0) {
            list = &config->packages;
            config->has_packages = true;
        } else if (strcmp(name, "select") == 0) {
            list = &config->select;
        } else if (strcmp(name, "ignore") == 0) {
            list = &config->ignore;
        } else if (strcmp(name, "plugins") == 0) {
            list = &config->plugins;
        } else if (strcmp(name, "plugin-dir") == 0) {
            list = &config->plugin_dirs;
        } else {
            config_fail(state->error, name_pos(state), "unknown setting '%s' in "
                        "[sandlint] (packages, select, ignore, plugins, "
                        "plugin-dir)", name);
            return 0;
        }
        config_split_list(list, value, at);
        return 1;
    }
    size_t prefix = strlen(SECTION_ALLOWLIST);
    if (strncmp(section, SECTION_ALLOWLIST, prefix) == 0 &&
        config->groups.count > 0) {
        if (value[0] == '\0') {
            config_fail(state->error, at, "empty allowlist entry for package "
                        "'%s'", name);
            return 0;
        }
        const struct config_item *group = &config->groups.items[config->groups.count - 1];
        struct config_item package = { (char *)name, strlen(name), name_pos(state) };
        struct config_item key = { (char *)value, strlen(value), at };
        config_add_entry(config, group, &package, &key);
        return 1;
    }
    if (section[0] == '\0')
        config_fail(state->error, name_pos(state), "setting '%s' outside a "
                    "section (put it under [sandlint])", name);
    return 0;   /* unknown sections were reported at their header */
}

int config_read_ini(struct config *config, const char *path,
                    struct config_error *error)
{
    struct source_text text;
    if (config_read_text(path, &text, error) != 0)
        return -1;
    int result = config_parse_ini(config, text.data, text.length, error);
    source_release(&text);
    return result;
}

int config_parse_ini(struct config *config, const char *text, size_t length,
                     struct config_error *error)
{
    struct config_pos none = { 0, 0 };
    unsigned line, column;
    const char *encoding;
    if (source_check_encoding(text, length, &line, &column, &encoding) != 0) {
        struct config_pos pos = { line, column };
        config_fail(error, pos, "%s", encoding);
        return -1;
    }
    config->format = CONFIG_INI;
    struct ini_state state;
    memset(&state, 0, sizeof(state));
    state.config = config;
    state.error = error;
    state.text = text;
    state.length = length;
    int result = ini_parse_stream(read_line, &state, handle, &state);
    if (result > 0 && error->message == NULL) {
        struct config_pos pos = { (unsigned)result, 1 };
        config_fail(error, pos, "syntax error: expected 'name = value', "
                    "'[section]' or a comment");
    } else if (result < 0 && error->message == NULL) {
        config_fail(error, none, "out of memory reading the configuration");
    }
    return error->message != NULL ? -1 : 0;
}
