/*
 * config_ini.c - .sandlint.ini, read with the distribution's inih.
 *
 * Debian builds inih with the header defaults: the handler gets no line
 * number, lines are cut at INI_MAX_LINE bytes, and the name that a
 * continuation line continues is kept cut to 50 bytes.  So the file is fed
 * through ini_parse_stream() with our own reader, which sees every line
 * before inih does: it counts lines, classifies each line the way inih will
 * (comment, continuation, section header, setting), remembers positions and
 * the full name of the last setting, and refuses what inih would cut or
 * ignore silently.  The handler then takes its positions and names from
 * that state rather than from inih's buffers.
 */
#include "config.h"

#include "config_file.h"

#include <ctype.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "terminal.h"
#include "xalloc.h"

#define SECTION_SETTINGS "sandlint"
#define SECTION_ALLOWLIST "allowlist"
#define SECTION_RULE "rule"

/* inih is handed a line, a newline and a NUL in a buffer of INI_MAX_LINE. */
#define LINE_TEXT_LIMIT (INI_MAX_LINE - 2)

enum line_kind {
    LINE_BLANK_OR_COMMENT,
    LINE_CONTINUATION,          /* indented: one more value of the last name */
    LINE_HEADER,
    LINE_SETTING                /* name = value */
};

enum section_kind {
    SECTION_NONE,               /* before the first header */
    SECTION_IS_SETTINGS,
    SECTION_IS_ALLOWLIST,
    SECTION_IS_RULE,
    SECTION_IS_UNKNOWN          /* reported at its header */
};

struct ini_state {
    struct config *config;
    struct config_error *error;
    const char *text;
    size_t length, cursor;
    unsigned line;              /* number of the line last handed to inih */
    const char *raw;            /* that line, in text, without terminator */
    size_t raw_length;
    enum line_kind kind;
    size_t name_offset, value_offset;   /* in raw, for LINE_SETTING */
    enum section_kind section;
    size_t group_index;         /* SECTION_IS_ALLOWLIST: in config->groups */
    struct config_item rule;    /* SECTION_IS_RULE: the code; owned */
    char *last_name;            /* full name of the last setting line, or
                                   NULL: what a continuation line continues */
    struct config_pos last_name_pos;
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

static struct config_pos pos_at(const struct ini_state *state, size_t offset)
{
    struct config_pos pos = { state->line, column_of(state, offset) };
    return pos;
}

/* inih trims with isspace(), not only blanks. */
static bool is_space(char c)
{
    return isspace((unsigned char)c) != 0;
}

static size_t skip_spaces(const char *text, size_t length, size_t at)
{
    while (at < length && is_space(text[at]))
        at++;
    return at;
}

static size_t trim_end(const char *text, size_t start, size_t end)
{
    while (end > start && is_space(text[end - 1]))
        end--;
    return end;
}

/*
 * Where inih's find_chars_or_comment() stops: the first of chars, or a ';'
 * that follows a space (an inline comment), or the end.  Mirrored exactly so
 * that we agree with inih on where names, values and headers end.
 */
static size_t find_chars_or_comment(const char *text, size_t length, size_t at,
                                    const char *chars)
{
    bool after_space = false;
    for (; at < length; at++) {
        /* chars holds one or two characters ("]", "=:"); never the NUL
         * that strchr() would find too. */
        if (chars != NULL && text[at] != '\0' &&
            (text[at] == chars[0] || (chars[0] != '\0' && text[at] == chars[1])))
            return at;
        if (after_space && text[at] == ';')
            return at;
        after_space = is_space(text[at]);
    }
    return length;
}

static void fail_with_text(struct ini_state *state, struct config_pos pos,
                           const char *format, const char *text, size_t length)
{
    char *shown = config_quote(state->error, text, length);
    config_fail(state->error, pos, format, shown);
    free(shown);
}

static bool name_is(const char *name, size_t length, const char *word)
{
    return length == strlen(word) && memcmp(name, word, length) == 0;
}

/* The rest of a "[kind NAME]" header: NAME trimmed, when name starts with
 * kind and a blank. */
static bool header_argument(const char *name, size_t length, const char *kind,
                            const char **argument, size_t *argument_length)
{
    size_t prefix = strlen(kind);
    if (length < prefix || memcmp(name, kind, prefix) != 0 ||
        (length > prefix && !is_space(name[prefix])))
        return false;
    size_t start = skip_spaces(name, length, prefix);
    *argument = name + start;
    *argument_length = length - start;
    return true;
}

/* A "[section]" line: validates it and makes it the current section. */
static void see_header(struct ini_state *state, size_t open)
{
    const char *raw = state->raw;
    size_t length = state->raw_length;
    struct config_pos pos = pos_at(state, open);
    size_t close = find_chars_or_comment(raw, length, open + 1, "]");
    if (close >= length || raw[close] != ']') {
        config_fail(state->error, pos, "syntax error: section header without "
                    "a closing ']'");
        return;
    }
    /* inih ignores whatever follows the ']': a typo there would vanish. */
    size_t after = skip_spaces(raw, length, close + 1);
    if (after < length && raw[after] != ';' && raw[after] != '#') {
        fail_with_text(state, pos_at(state, after), "text after the section header: "
                       "'%s' (only a comment may follow the ']')", raw + after,
                       trim_end(raw, after, length) - after);
        return;
    }
    size_t start = skip_spaces(raw, close, open + 1);
    size_t end = trim_end(raw, start, close);
    const char *name = raw + start;
    size_t name_length = end - start;
    const char *argument;
    size_t argument_length;

    free(state->rule.text);
    state->rule.text = NULL;
    free(state->last_name);
    state->last_name = NULL;    /* inih forgets the name at a header too */
    state->section = SECTION_IS_UNKNOWN;
    if (name_is(name, name_length, SECTION_SETTINGS)) {
        state->section = SECTION_IS_SETTINGS;
    } else if (header_argument(name, name_length, SECTION_ALLOWLIST, &argument,
                               &argument_length)) {
        if (argument_length == 0) {
            config_fail(state->error, pos, "[allowlist] needs a group: "
                        "[allowlist GROUP]");
            return;
        }
        config_list_add(&state->config->groups, argument, argument_length,
                        pos_at(state, (size_t)(argument - raw)));
        config_list_add(&state->config->own_groups, argument, argument_length,
                        pos_at(state, (size_t)(argument - raw)));
        state->group_index = state->config->groups.count - 1;
        state->section = SECTION_IS_ALLOWLIST;
    } else if (header_argument(name, name_length, SECTION_RULE, &argument,
                               &argument_length)) {
        if (argument_length == 0) {
            config_fail(state->error, pos, "[rule] needs a rule code: [rule CODE]");
            return;
        }
        state->rule.text = xmemdup(argument, argument_length);
        state->rule.length = argument_length;
        state->rule.pos = pos_at(state, (size_t)(argument - raw));
        state->section = SECTION_IS_RULE;
    } else {
        fail_with_text(state, pos, "unknown section [%s] (expected [sandlint], "
                       "[allowlist GROUP] or [rule CODE])", name, name_length);
    }
}

/* A "name = value" line: checks it has a name and a separator. */
static void see_setting(struct ini_state *state, size_t start)
{
    size_t separator = find_chars_or_comment(state->raw, state->raw_length, start, "=:");
    if (separator >= state->raw_length || state->raw[separator] == ';') {
        config_fail(state->error, pos_at(state, start), "syntax error: expected "
                    "'name = value', '[section]' or a comment");
        return;
    }
    if (trim_end(state->raw, start, separator) == start) {
        config_fail(state->error, pos_at(state, start), "missing name before '%c'",
                    state->raw[separator]);
        return;
    }
    state->name_offset = start;
    state->value_offset = skip_spaces(state->raw, state->raw_length, separator + 1);
}

/* Classifies the current line in inih's order: comment, continuation,
 * header, setting. */
static void see_line(struct ini_state *state)
{
    size_t start = 0;
    if (state->line == 1 && state->raw_length >= 3 &&
        memcmp(state->raw, "\xEF\xBB\xBF", 3) == 0)
        start = 3;      /* byte order mark, which inih skips */
    size_t first = skip_spaces(state->raw, state->raw_length, start);
    if (first == state->raw_length || state->raw[first] == ';' ||
        state->raw[first] == '#') {
        state->kind = LINE_BLANK_OR_COMMENT;
    } else if (state->last_name != NULL && first > 0) {
        state->kind = LINE_CONTINUATION;
        state->value_offset = first;
        /* inih 55 keeps "; comment" in a continued value, later versions
         * drop it: refuse what reads differently across distributions. */
        size_t comment = find_chars_or_comment(state->raw, state->raw_length, first, NULL);
        if (comment < state->raw_length)
            config_fail(state->error, pos_at(state, comment), "';' after a blank on "
                        "a continuation line: inih versions disagree on whether it "
                        "starts a comment; put the comment on a line of its own");
    } else if (state->raw[first] == '[') {
        state->kind = LINE_HEADER;
        see_header(state, first);
    } else {
        state->kind = LINE_SETTING;
        see_setting(state, first);
    }
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
    state->cursor += length;
    state->line++;
    state->raw = start;
    state->raw_length = newline ? length - 1 : length;
    /* The terminator (LF or CR LF) is not text: a line holds the same text
     * whichever it ends with. */
    if (newline && state->raw_length > 0 && start[state->raw_length - 1] == '\r')
        state->raw_length--;
    /* Room for the text, a newline and a NUL: inih would cut a longer line
     * and read the rest as a line of its own. */
    size_t limit = size > 2 ? (size_t)size - 2 : 0;
    if (limit > LINE_TEXT_LIMIT)
        limit = LINE_TEXT_LIMIT;
    if (state->raw_length > limit) {
        config_fail(state->error, pos_at(state, 0), "line is %zu bytes long; "
                    "the INI reader (inih) takes at most %zu bytes a line: write "
                    "longer entries in pyproject.toml", state->raw_length, limit);
        return NULL;
    }
    see_line(state);
    if (state->error->message != NULL)
        return NULL;
    memcpy(buffer, start, state->raw_length);
    buffer[state->raw_length] = '\n';
    buffer[state->raw_length + 1] = '\0';
    return buffer;
}

/* Settings names cannot hold a NUL (INI text never does) but may hold
 * anything else printable; lists are split at commas. */
static bool read_setting(struct ini_state *state, const char *name,
                         const char *value, struct config_pos value_pos)
{
    struct config *config = state->config;
    struct config_list *list = NULL;
    if (strcmp(name, "packages") == 0) {
        list = &config->packages;
        config->has_packages = true;
    } else if (strcmp(name, "select") == 0) {
        list = &config->select;
    } else if (strcmp(name, "extend-select") == 0) {
        list = &config->extend_select;
    } else if (strcmp(name, "ignore") == 0) {
        list = &config->ignore;
    } else if (strcmp(name, "exclude") == 0) {
        list = &config->exclude;
    } else if (strcmp(name, "kubernetes") == 0) {
        list = &config->kubernetes;
    } else if (strcmp(name, "plugins") == 0) {
        list = &config->plugins;
    } else if (strcmp(name, "plugin-dir") == 0) {
        list = &config->plugin_dirs;
    } else {
        fail_with_text(state, state->last_name_pos, "unknown setting '%s' in "
                       "[sandlint] (packages, select, extend-select, ignore, exclude, "
                       "kubernetes, plugins, plugin-dir)", name, strlen(name));
        return false;
    }
    config_split_list(list, value, strlen(value), value_pos);
    return true;
}

static bool read_entry(struct ini_state *state, const char *value,
                       struct config_pos value_pos)
{
    struct config *config = state->config;
    if (value[0] == '\0') {
        fail_with_text(state, value_pos, "empty allowlist entry for '%s'",
                       state->last_name, strlen(state->last_name));
        return false;
    }
    const struct config_item *group = &config->groups.items[state->group_index];
    struct config_item scope = { state->last_name, strlen(state->last_name),
                                 state->last_name_pos };
    struct config_item key = { (char *)value, strlen(value), value_pos };
    return config_add_entry(config, group, &scope, &key, false, state->error) == 0;
}

static bool read_rule_option(struct ini_state *state, const char *value,
                             struct config_pos value_pos)
{
    if (state->kind == LINE_CONTINUATION) {
        fail_with_text(state, value_pos, "a rule option takes one line: this "
                       "indented line would continue '%s'; write a list as "
                       "comma-separated items, or use pyproject.toml", state->last_name,
                       strlen(state->last_name));
        return false;
    }
    struct config_rule_option option;
    memset(&option, 0, sizeof(option));
    option.rule = state->rule;
    option.name.text = state->last_name;
    option.name.length = strlen(state->last_name);
    option.name.pos = state->last_name_pos;
    option.type = CONFIG_VALUE_TEXT;
    option.value_pos = value_pos;
    option.text.text = (char *)value;
    option.text.length = strlen(value);
    option.text.pos = value_pos;
    return config_add_rule_option(state->config, &option, state->error) == 0;
}

static int handle(void *user, const char *section, const char *name,
                  const char *value)
{
    (void)section;      /* inih's copy is cut at 50 bytes: ours is whole */
    struct ini_state *state = user;
    struct config_pos value_pos = pos_at(state, state->value_offset);
    if (state->kind == LINE_SETTING) {
        /* inih's name is whole here; only its copy for continuations is cut. */
        free(state->last_name);
        state->last_name = xstrdup(name);
        state->last_name_pos = pos_at(state, state->name_offset);
    } else if (state->kind != LINE_CONTINUATION || state->last_name == NULL) {
        config_fail(state->error, pos_at(state, 0), "internal error: inih and "
                    "sandlint disagree about this line");
        return 0;
    }
    bool accepted = false;
    switch (state->section) {
    case SECTION_NONE:
        fail_with_text(state, state->last_name_pos, "setting '%s' outside a section "
                       "(put it under [sandlint])", state->last_name,
                       strlen(state->last_name));
        break;
    case SECTION_IS_SETTINGS:
        accepted = read_setting(state, state->last_name, value, value_pos);
        break;
    case SECTION_IS_ALLOWLIST:
        accepted = read_entry(state, value, value_pos);
        break;
    case SECTION_IS_RULE:
        accepted = read_rule_option(state, value, value_pos);
        break;
    case SECTION_IS_UNKNOWN:
        break;          /* reported at its header */
    }
    /* Lines are short, but continuation lines and comma lists let a file
     * of a few megabytes hold millions of items. */
    if (accepted && config_item_count(state->config) > CONFIG_MAX_ITEMS) {
        config_fail(state->error, value_pos, "more than %d items (list items, allowlist "
                    "entries, rule options): a limit that keeps reading bounded",
                    CONFIG_MAX_ITEMS);
        accepted = false;
    }
    return accepted ? 1 : 0;
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
    free(state.rule.text);
    free(state.last_name);
    return error->message != NULL ? -1 : 0;
}
