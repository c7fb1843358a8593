/* dotenv.c - a Compose project's .env file (see dotenv.h). */
#include "config.h"

#include "dotenv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text_buffer.h"
#include "utf8.h"
#include "xalloc.h"

/* How much of a line an error message quotes. */
#define EXCERPT_MAX 64

/* --- characters ---------------------------------------------------------- */

/* Go's unicode.IsSpace: what compose-go skips between statements and trims
 * from the right of keys and unquoted values. */
static int is_go_space(uint32_t c)
{
    return c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ' ' ||
           c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/* compose-go's own isSpace: white space within a line (no newline). */
static int is_line_space(uint32_t c)
{
    return c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == ' ' || c == 0x85 ||
           c == 0xA0;
}

/* What a key may hold besides white space.  compose-go takes Unicode
 * letters and digits; here every non-ASCII character but the spaces (a
 * superset: see dotenv.h). */
static int is_key_char(uint32_t c)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
        return 1;
    if (c == '_' || c == '.' || c == '-' || c == '[' || c == ']')
        return 1;
    return c >= 0x80 && !is_go_space(c);
}

/* --- the parser's state ---------------------------------------------------- */

struct parser {
    struct dotenv *env;
    const char *file;               /* env's copy of the display name */
    const char *data;
    size_t length;
    size_t start;                   /* after a byte order mark */
    struct interpolation_budget budget;
    /* The line and column of the byte at offset at, moved forward as the
     * parser goes (see seek()). */
    size_t at;
    unsigned line, column;
    struct dotenv_error *error;
};

/* The code point at data[at] (the text is valid UTF-8) and its size. */
static uint32_t code_at(const struct parser *parser, size_t at, size_t *size)
{
    uint32_t code = 0;
    *size = utf8_decode((const unsigned char *)parser->data + at, parser->length - at, &code);
    if (*size == 0) {
        *size = 1;
        code = (unsigned char)parser->data[at];
    }
    return code;
}

/* Moves the position to offset: lines end at '\n' only (compose-go's
 * counting), columns count characters. */
static void seek(struct parser *parser, size_t offset)
{
    if (offset < parser->at) {
        parser->at = parser->start;
        parser->line = parser->column = 1;
    }
    for (; parser->at < offset && parser->at < parser->length; parser->at++) {
        unsigned char c = (unsigned char)parser->data[parser->at];
        if (c == '\n') {
            parser->line++;
            parser->column = 1;
        } else if ((c & 0xC0) != 0x80) {
            parser->column++;
        }
    }
}

static int fail_at(struct parser *parser, size_t offset, char *message)
{
    seek(parser, offset);
    parser->error->line = parser->line;
    parser->error->column = parser->column;
    parser->error->message = message;
    return -1;
}

/* The text from offset to the end of its line, clipped, for a message. */
static char *excerpt(const struct parser *parser, size_t offset)
{
    return interpolation_excerpt(parser->data + offset, parser->length - offset, EXCERPT_MAX);
}

/* --- definitions ----------------------------------------------------------- */

static uint64_t hash_name(const char *name, size_t length)
{
    uint64_t hash = 0xcbf29ce484222325u;
    for (size_t i = 0; i < length; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 0x100000001b3u;
    }
    return hash ^ (hash >> 29);
}

/* The slot of name in env's table: its definition, or the empty slot
 * where it goes. */
static struct interpolation_definition **table_slot(struct interpolation_definition **table,
                                                    size_t size, const char *name,
                                                    size_t length)
{
    size_t mask = size - 1, i = (size_t)hash_name(name, length) & mask;
    while (table[i] != NULL &&
           (table[i]->name_length != length || memcmp(table[i]->name, name, length) != 0))
        i = (i + 1) & mask;
    return &table[i];
}

static void table_put(struct dotenv *env, struct interpolation_definition *definition)
{
    if (env->table_size == 0 || (env->table_used + 1) * 2 > env->table_size) {
        size_t size = env->table_size ? env->table_size * 2 : 64;
        struct interpolation_definition **table = xcalloc(size, sizeof(*table));
        for (size_t i = 0; i < env->table_size; i++)
            if (env->table[i] != NULL)
                *table_slot(table, size, env->table[i]->name, env->table[i]->name_length) =
                    env->table[i];
        free(env->table);
        env->table = table;
        env->table_size = size;
    }
    struct interpolation_definition **slot =
        table_slot(env->table, env->table_size, definition->name, definition->name_length);
    if (*slot == NULL)
        env->table_used++;
    *slot = definition;
}

static const struct interpolation_definition *own_definition(const struct dotenv *env,
                                                             const char *name, size_t length)
{
    if (env->table_size == 0)
        return NULL;
    return *table_slot(env->table, env->table_size, name, length);
}

const struct interpolation_definition *dotenv_lookup(const struct dotenv *env,
                                                     const char *name, size_t length)
{
    if (env == NULL || name == NULL)
        return NULL;
    const struct interpolation_definition *outer = dotenv_lookup(env->outer, name, length);
    if (outer != NULL && outer->has_value)
        return outer;
    const struct interpolation_definition *own = own_definition(env, name, length);
    return own != NULL ? own : outer;
}

static const struct interpolation_definition *lookup_callback(const void *context,
                                                              const char *name,
                                                              size_t length)
{
    return dotenv_lookup(context, name, length);
}

struct interpolation_variables dotenv_variables(const struct dotenv *env)
{
    struct interpolation_variables variables = { lookup_callback, env };
    return variables;
}

/* What a new definition holds. */
struct definition_spec {
    size_t name_offset, name_length;
    const char *value;
    size_t value_length;
    int has_value;
    enum interpolation_status status;
    const char *unset_name;         /* NUL-terminated or NULL */
};

/* Adds a definition (one allocation for the struct and its strings). */
static void define(struct parser *parser, const struct definition_spec *spec)
{
    struct dotenv *env = parser->env;
    size_t unset_length = spec->unset_name != NULL ? strlen(spec->unset_name) + 1 : 0;
    struct interpolation_definition *definition =
        xmalloc(sizeof(*definition) + spec->name_length + 1 + spec->value_length + 1 +
                unset_length);
    char *name = (char *)(definition + 1);
    char *value = name + spec->name_length + 1;
    memcpy(name, parser->data + spec->name_offset, spec->name_length);
    name[spec->name_length] = '\0';
    if (spec->value_length > 0)
        memcpy(value, spec->value, spec->value_length);
    value[spec->value_length] = '\0';
    definition->name = name;
    definition->name_length = spec->name_length;
    definition->value = value;
    definition->value_length = spec->value_length;
    definition->has_value = spec->has_value;
    definition->file = parser->file;
    seek(parser, spec->name_offset);
    definition->line = parser->line;
    definition->column = parser->column;
    definition->status = spec->status;
    definition->unset_name = NULL;
    if (unset_length > 0) {
        char *unset = value + spec->value_length + 1;
        memcpy(unset, spec->unset_name, unset_length);
        definition->unset_name = unset;
    }
    if (env->count == env->capacity) {
        env->capacity = env->capacity ? env->capacity * 2 : 16;
        env->definitions = xrealloc(env->definitions, env->capacity, sizeof(*env->definitions));
    }
    env->definitions[env->count++] = definition;
    table_put(env, definition);
}

/* --- values ---------------------------------------------------------------- */

/* A value's text before interpolation, with the offset in the file of each
 * of its bytes (for the position of an error). */
struct value_text {
    struct text_buffer bytes;
    size_t *offsets;
    size_t capacity;
};

static void value_add(struct value_text *value, const char *bytes, size_t length,
                      size_t offset)
{
    size_t used = value->bytes.length;
    if (used + length > value->capacity) {
        size_t capacity = value->capacity ? value->capacity : 64;
        while (capacity < used + length)
            capacity *= 2;
        value->offsets = xrealloc(value->offsets, capacity, sizeof(*value->offsets));
        value->capacity = capacity;
    }
    for (size_t i = 0; i < length; i++)
        value->offsets[used + i] = offset;
    text_buffer_add(&value->bytes, bytes, length);
}

static void value_release(struct value_text *value)
{
    text_buffer_release(&value->bytes);
    free(value->offsets);
    memset(value, 0, sizeof(*value));
}

/*
 * compose-go's escapes in a double-quoted value: \a \b \f \n \r \t \v \"
 * \\ become their characters, \$ becomes "$$" (a literal '$' once
 * interpolated), \0 and up to three digits is an octal byte when exactly
 * three octal digits make at most 255 (written as that code point, as Go
 * does) and loses its 0 otherwise ("\0400" is "\400"); anything else, \c
 * included, stays as written.
 */
static void expand_escapes(const struct value_text *in, struct value_text *out)
{
    const char *text = in->bytes.bytes;
    size_t length = in->bytes.length;
    for (size_t i = 0; i < length;) {
        size_t offset = in->offsets[i];
        if (text[i] != '\\' || i + 1 == length) {
            value_add(out, text + i, 1, offset);
            i++;
            continue;
        }
        char next = text[i + 1];
        static const char simple[] = "abfnrtv\"\\";
        static const char replaced[] = "\a\b\f\n\r\t\v\"\\";
        const char *found = next != '\0' ? strchr(simple, next) : NULL;
        if (found != NULL) {
            value_add(out, &replaced[found - simple], 1, offset);
            i += 2;
        } else if (next == '$') {
            value_add(out, "$$", 2, offset);
            i += 2;
        } else if (next == '0') {
            size_t digits = 0;
            while (digits < 3 && i + 2 + digits < length && text[i + 2 + digits] >= '0' &&
                   text[i + 2 + digits] <= '9')
                digits++;
            unsigned code = 0;
            int octal = digits == 3;
            for (size_t d = 0; d < digits && octal; d++) {
                char c = text[i + 2 + d];
                octal = c <= '7';
                code = code * 8 + (unsigned)(c - '0');
            }
            if (octal && code <= 255) {
                unsigned char encoded[4];
                size_t size = utf8_encode(code, encoded);
                value_add(out, (const char *)encoded, size, offset);
            } else {
                /* compose-go turns the "\0" into "\" before unquoting and
                 * keeps that text when unquoting fails. */
                value_add(out, "\\", 1, offset);
                value_add(out, text + i + 2, digits, offset);
            }
            i += 2 + digits;
        } else if (next == 'c') {
            /* In compose-go's pattern, refused by Go's unquoting: kept. */
            value_add(out, text + i, 2, offset);
            i += 2;
        } else {
            value_add(out, text + i, 1, offset);
            i++;
        }
    }
}

/* Interpolates a value and defines it. */
static int define_interpolated(struct parser *parser, size_t name_offset, size_t name_length,
                               const char *text, size_t length, const size_t *offsets,
                               size_t text_offset)
{
    struct interpolation_variables variables = dotenv_variables(parser->env);
    struct interpolation_result result;
    compose_interpolate(text, length, &variables, &parser->budget, &result);
    if (result.status == INTERPOLATION_ERROR) {
        size_t where = offsets != NULL
                           ? (result.error_offset < length ? offsets[result.error_offset]
                                                           : text_offset)
                           : text_offset + result.error_offset;
        char *message = result.error_message;
        result.error_message = NULL;
        interpolation_result_release(&result);
        return fail_at(parser, where, message);
    }
    char *unset = NULL;
    if (result.status == INTERPOLATION_UNSET)
        unset = xstrndup(result.unset_name, result.unset_name_length);
    struct definition_spec spec = {
        name_offset, name_length, result.text, result.length, 1, result.status, unset,
    };
    define(parser, &spec);
    free(unset);
    interpolation_result_release(&result);
    return 0;
}

/* A quoted value starting at data[at] (the quote).  Sets *next past the
 * closing quote. */
static int quoted_value(struct parser *parser, size_t name_offset, size_t name_length,
                        size_t at, size_t *next)
{
    const char *data = parser->data;
    char quote = data[at];
    struct value_text chars = { TEXT_BUFFER_INIT, NULL, 0 };
    int escaped = 0;
    size_t i = at + 1;
    for (; i < parser->length; i++) {
        char c = data[i];
        if (c != quote) {
            if (!escaped && c == '\\') {
                escaped = 1;
                continue;
            }
            if (escaped) {
                escaped = 0;
                value_add(&chars, "\\", 1, i - 1);
            }
            value_add(&chars, &data[i], 1, i);
            continue;
        }
        if (escaped) {
            /* \" in "...", \' in '...': the quote, without its backslash. */
            escaped = 0;
            value_add(&chars, &data[i], 1, i);
            continue;
        }
        break;
    }
    if (i >= parser->length) {
        value_release(&chars);
        char *quoted = excerpt(parser, at);
        int status = fail_at(parser, at, xasprintf("unterminated quoted value %s", quoted));
        free(quoted);
        return status;
    }
    *next = i + 1;
    int status;
    if (quote == '\'') {
        struct definition_spec spec = {
            name_offset, name_length, chars.bytes.bytes, chars.bytes.length, 1,
            INTERPOLATION_FIXED, NULL,
        };
        define(parser, &spec);
        status = 0;
    } else {
        struct value_text expanded = { TEXT_BUFFER_INIT, NULL, 0 };
        if (chars.bytes.length > 0)
            expand_escapes(&chars, &expanded);
        status = define_interpolated(parser, name_offset, name_length,
                                     expanded.bytes.bytes, expanded.bytes.length,
                                     expanded.offsets, at);
        value_release(&expanded);
    }
    value_release(&chars);
    return status;
}

/* The end of text[from, to) without the Go white space at its right. */
static size_t trim_right(const struct parser *parser, size_t from, size_t to)
{
    while (to > from) {
        size_t start = to - 1;
        while (start > from && ((unsigned char)parser->data[start] & 0xC0) == 0x80)
            start--;
        size_t size;
        if (!is_go_space(code_at(parser, start, &size)))
            break;
        to = start;
    }
    return to;
}

/* An unquoted value from data[at] to the end of its line.  Sets *next to
 * the start of the next line. */
static int unquoted_value(struct parser *parser, size_t name_offset, size_t name_length,
                          size_t at, size_t *next)
{
    const char *data = parser->data;
    const char *newline = memchr(data + at, '\n', parser->length - at);
    size_t end = newline != NULL ? (size_t)(newline - data) : parser->length;
    *next = newline != NULL ? end + 1 : end;
    /* " #" starts a comment (a '#' without a space before it does not). */
    for (size_t i = at; i + 1 < end; i++)
        if (data[i] == ' ' && data[i + 1] == '#') {
            end = i;
            break;
        }
    end = trim_right(parser, at, end);
    return define_interpolated(parser, name_offset, name_length, data + at, end - at, NULL,
                               at);
}

/* --- statements ------------------------------------------------------------ */

/* The start of the next statement at or after at, or parser->length. */
static size_t statement_start(const struct parser *parser, size_t at)
{
    for (;;) {
        size_t size;
        while (at < parser->length && is_go_space(code_at(parser, at, &size)))
            at += size;
        if (at >= parser->length || parser->data[at] != '#')
            return at;
        const char *newline = memchr(parser->data + at, '\n', parser->length - at);
        if (newline == NULL)
            return parser->length;
        at = (size_t)(newline - parser->data);
    }
}

static size_t skip_line_space(const struct parser *parser, size_t at)
{
    size_t size;
    while (at < parser->length && is_line_space(code_at(parser, at, &size)))
        at += size;
    return at;
}

/* One statement at data[at]; sets *next where the following one may
 * start. */
static int statement(struct parser *parser, size_t at, size_t *next)
{
    const char *data = parser->data;
    size_t length = parser->length;
    /* "export" and white space (a newline included) before the key. */
    if (length - at > 6 && memcmp(data + at, "export", 6) == 0 &&
        strchr("\t\n\f\r ", data[at + 6]) != NULL && data[at + 6] != '\0')
        at = skip_line_space(parser, at + 6);
    if (at >= length)
        return fail_at(parser, at, xasprintf("'export' without a variable"));
    size_t key = at, key_end = at, value = at;
    int inherited = 0, terminated = 0;
    while (at < length) {
        size_t size;
        uint32_t c = code_at(parser, at, &size);
        if (c == '=' || c == ':' || c == '\n') {
            key_end = at;
            value = at + 1;
            inherited = c == '\n';
            terminated = 1;
            break;
        }
        if (!is_line_space(c) && !is_key_char(c)) {
            char *line = excerpt(parser, key);
            int status = fail_at(parser, at,
                                 xasprintf("unexpected character '%.*s' in variable name '%s'",
                                           (int)size, data + at, line));
            free(line);
            return status;
        }
        at += size;
    }
    /* A last line without '=' or newline: compose-go reads it as the value
     * of the empty name. */
    if (!terminated)
        key_end = key;
    key_end = trim_right(parser, key, key_end);
    if (memchr(data + key, ' ', key_end - key) != NULL) {
        char *line = excerpt(parser, key);
        int status = fail_at(parser, key,
                             xasprintf("a variable name cannot contain a space: '%s'", line));
        free(line);
        return status;
    }
    if (parser->env->count >= DOTENV_MAX_VARIABLES)
        return fail_at(parser, key, xasprintf("more than %d variables; not read",
                                              DOTENV_MAX_VARIABLES));
    value = skip_line_space(parser, value);
    size_t name_length = key_end - key;
    if (inherited) {
        /* "KEY" alone: from the environment Compose runs in, or an earlier
         * definition. */
        const struct interpolation_definition *found =
            dotenv_lookup(parser->env, data + key, name_length);
        struct definition_spec spec = { key, name_length, "", 0, 0, INTERPOLATION_FIXED, NULL };
        if (found != NULL && found->has_value) {
            spec.value = found->value;
            spec.value_length = found->value_length;
            spec.has_value = 1;
            spec.status = found->status;
            spec.unset_name = found->unset_name;
        }
        define(parser, &spec);
        *next = value;
        return 0;
    }
    if (value < length && (data[value] == '"' || data[value] == '\''))
        return quoted_value(parser, key, name_length, value, next);
    return unquoted_value(parser, key, name_length, value, next);
}

/* The encoding: UTF-8 without NUL bytes. */
static int check_encoding(struct parser *parser)
{
    for (size_t at = parser->start; at < parser->length;) {
        unsigned char c = (unsigned char)parser->data[at];
        if (c == 0)
            return fail_at(parser, at, xasprintf("a NUL byte; not read"));
        if (c < 0x80) {
            at++;
            continue;
        }
        size_t size = utf8_decode((const unsigned char *)parser->data + at,
                                  parser->length - at, NULL);
        if (size == 0)
            return fail_at(parser, at, xasprintf("invalid UTF-8; not read"));
        at += size;
    }
    return 0;
}

int dotenv_parse(struct dotenv *env, const char *file, const char *data, size_t length,
                 struct dotenv_error *error)
{
    memset(error, 0, sizeof(*error));
    env->files = xrealloc(env->files, env->file_count + 1, sizeof(*env->files));
    env->files[env->file_count] = xstrdup(file != NULL ? file : ".env");
    struct parser parser = {
        .env = env, .file = env->files[env->file_count++], .data = data != NULL ? data : "",
        .length = data != NULL ? length : 0, .line = 1, .column = 1, .error = error,
    };
    if (parser.length > DOTENV_MAX_BYTES)
        return fail_at(&parser, 0, xasprintf("larger than %zu bytes; not read",
                                             (size_t)DOTENV_MAX_BYTES));
    if (parser.length >= 3 && memcmp(parser.data, "\xef\xbb\xbf", 3) == 0)
        parser.start = 3;
    parser.at = parser.start;
    if (check_encoding(&parser) != 0)
        return -1;
    interpolation_budget_init(&parser.budget, INTERPOLATION_FILE_WORK);
    size_t at = parser.start;
    for (;;) {
        at = statement_start(&parser, at);
        if (at >= parser.length)
            return 0;
        size_t next = at;
        if (statement(&parser, at, &next) != 0)
            return -1;
        at = next;
    }
}

void dotenv_init(struct dotenv *env, const struct dotenv *outer)
{
    memset(env, 0, sizeof(*env));
    env->outer = outer;
}

void dotenv_release(struct dotenv *env)
{
    if (env == NULL)
        return;
    for (size_t i = 0; i < env->count; i++)
        free(env->definitions[i]);
    free(env->definitions);
    free(env->table);
    for (size_t i = 0; i < env->file_count; i++)
        free(env->files[i]);
    free(env->files);
    memset(env, 0, sizeof(*env));
}

void dotenv_error_release(struct dotenv_error *error)
{
    if (error == NULL)
        return;
    free(error->message);
    memset(error, 0, sizeof(*error));
}

void dotenv_define(struct dotenv *env, const struct interpolation_definition *from)
{
    /* One allocation for the struct and its strings, as a parsed one. */
    size_t file_length = from->file != NULL ? strlen(from->file) + 1 : 0;
    size_t unset_length = from->unset_name != NULL ? strlen(from->unset_name) + 1 : 0;
    struct interpolation_definition *definition =
        xmalloc(sizeof(*definition) + from->name_length + 1 + from->value_length + 1 +
                file_length + unset_length);
    char *name = (char *)(definition + 1);
    char *value = name + from->name_length + 1;
    char *file = value + from->value_length + 1;
    char *unset = file + file_length;
    memcpy(name, from->name, from->name_length);
    name[from->name_length] = '\0';
    if (from->value_length > 0)
        memcpy(value, from->value, from->value_length);
    value[from->value_length] = '\0';
    *definition = *from;
    definition->name = name;
    definition->value = value;
    definition->file = NULL;
    definition->unset_name = NULL;
    if (file_length > 0) {
        memcpy(file, from->file, file_length);
        definition->file = file;
    }
    if (unset_length > 0) {
        memcpy(unset, from->unset_name, unset_length);
        definition->unset_name = unset;
    }
    if (env->count == env->capacity) {
        env->capacity = env->capacity ? env->capacity * 2 : 16;
        env->definitions = xrealloc(env->definitions, env->capacity, sizeof(*env->definitions));
    }
    env->definitions[env->count++] = definition;
    table_put(env, definition);
}
