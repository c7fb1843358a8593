/* compose_context.c - variables handed on through include and extends (see
 * compose_context.h). */
#include "config.h"

#include "compose_context.h"

#include <stdlib.h>
#include <string.h>

#include "byte_buffer.h"
#include "xalloc.h"

#define NO_TEXT UINT32_MAX

static void put_u32(struct byte_buffer *out, uint32_t value)
{
    byte_buffer_append(out, &value, sizeof(value));
}

static void put_text(struct byte_buffer *out, const char *text, size_t length)
{
    if (text == NULL) {
        put_u32(out, NO_TEXT);
        return;
    }
    put_u32(out, (uint32_t)length);
    byte_buffer_append(out, text, length);
}

static void put_definition(struct byte_buffer *out,
                           const struct interpolation_definition *definition)
{
    put_text(out, definition->name, definition->name_length);
    put_text(out, definition->value, definition->value_length);
    put_u32(out, (uint32_t)definition->has_value);
    put_text(out, definition->file, definition->file ? strlen(definition->file) : 0);
    put_u32(out, definition->line);
    put_u32(out, definition->column);
    put_u32(out, (uint32_t)definition->status);
    put_text(out, definition->unset_name,
             definition->unset_name ? strlen(definition->unset_name) : 0);
}

/* A context of kind naming origin, and the start of its variables. */
static void put_head(struct byte_buffer *out, int kind, const char *origin)
{
    char byte = (char)kind;
    byte_buffer_append(out, &byte, 1);
    put_text(out, origin, strlen(origin));
}

static char *finish(struct byte_buffer *out, size_t *length)
{
    *length = out->length;
    char *bytes = xmalloc(out->length + 1);
    memcpy(bytes, out->data, out->length);
    bytes[out->length] = '\0';
    byte_buffer_release(out);
    return bytes;
}

char *compose_context_encode(const struct dotenv *own, int kind, const char *origin,
                             size_t *length)
{
    struct byte_buffer out = BYTE_BUFFER_INIT;
    if (own == NULL) {      /* the .env could not be read: unknown */
        put_head(&out, CONTEXT_OVERFLOW, origin);
        return finish(&out, length);
    }
    put_head(&out, kind, origin);
    /* The own definitions, then the handed-on ones that have a value: read
     * last, these win, as dotenv_lookup lets an outer value win. */
    const struct dotenv *outer = own->outer;
    size_t count = own->count;
    if (outer != NULL)
        for (size_t i = 0; i < outer->count; i++)
            count += outer->definitions[i]->has_value != 0;
    put_u32(&out, (uint32_t)count);
    for (size_t i = 0; i < own->count; i++)
        put_definition(&out, own->definitions[i]);
    if (outer != NULL)
        for (size_t i = 0; i < outer->count; i++)
            if (outer->definitions[i]->has_value)
                put_definition(&out, outer->definitions[i]);
    if (out.length > COMPOSE_CONTEXT_MAX_BYTES) {
        byte_buffer_release(&out);
        put_head(&out, CONTEXT_OVERFLOW, origin);
    }
    return finish(&out, length);
}

struct reader {
    const unsigned char *data;
    size_t length, at;
    bool bad;
};

static uint32_t get_u32(struct reader *r)
{
    uint32_t value = 0;
    if (r->bad || r->length - r->at < sizeof(value)) {
        r->bad = true;
        return 0;
    }
    memcpy(&value, r->data + r->at, sizeof(value));
    r->at += sizeof(value);
    return value;
}

/* A text's bytes in the context (not copied), NULL when absent. */
static const char *get_text(struct reader *r, size_t *length)
{
    uint32_t size = get_u32(r);
    *length = 0;
    if (r->bad || size == NO_TEXT)
        return NULL;
    if (r->length - r->at < size) {
        r->bad = true;
        return NULL;
    }
    const char *text = (const char *)r->data + r->at;
    r->at += size;
    *length = size;
    return text;
}

/* Past the kind and origin: the variables. */
static bool open_reader(struct reader *r, const char *context, size_t length)
{
    r->data = (const unsigned char *)context;
    r->length = length;
    r->at = 1;
    r->bad = length < 1 || compose_context_kind(context, length) == 0;
    size_t origin_length;
    if (get_text(r, &origin_length) == NULL)
        r->bad = true;
    return !r->bad;
}

int compose_context_kind(const char *context, size_t length)
{
    if (context == NULL || length < 1)
        return 0;
    int kind = (unsigned char)context[0];
    return kind == CONTEXT_INCLUDED || kind == CONTEXT_EXTENDED ||
                   kind == CONTEXT_INCLUDED_ENV_FILE || kind == CONTEXT_OVERFLOW
               ? kind : 0;
}

char *compose_context_origin(const char *context, size_t length)
{
    struct reader r = { (const unsigned char *)context, length, 1, length < 1 };
    size_t origin_length;
    const char *origin = get_text(&r, &origin_length);
    if (origin == NULL || r.bad)
        return NULL;
    return xstrndup(origin, origin_length);
}

bool compose_context_is_empty(const char *context, size_t length)
{
    struct reader r;
    if (!open_reader(&r, context, length))
        return false;
    if (compose_context_kind(context, length) == CONTEXT_OVERFLOW)
        return false;
    return get_u32(&r) == 0 && !r.bad;
}

/* The variables, each added to env (NULL: only read past); the reader
 * then stands past them. */
static bool read_variables(struct reader *r, struct dotenv *env)
{
    uint32_t count = get_u32(r);
    for (uint32_t i = 0; i < count && !r->bad; i++) {
        struct interpolation_definition definition;
        memset(&definition, 0, sizeof(definition));
        size_t file_length, unset_length;
        definition.name = get_text(r, &definition.name_length);
        definition.value = get_text(r, &definition.value_length);
        definition.has_value = get_u32(r) != 0;
        const char *file = get_text(r, &file_length);
        definition.line = get_u32(r);
        definition.column = get_u32(r);
        uint32_t status = get_u32(r);
        const char *unset = get_text(r, &unset_length);
        if (r->bad || definition.name == NULL || definition.value == NULL ||
            (file != NULL && memchr(file, '\0', file_length) != NULL) ||
            (unset != NULL && memchr(unset, '\0', unset_length) != NULL))
            return false;
        if (env == NULL)
            continue;
        char *file_text = file != NULL ? xstrndup(file, file_length) : NULL;
        char *unset_text = unset != NULL ? xstrndup(unset, unset_length) : NULL;
        definition.file = file_text;
        definition.unset_name = unset_text;
        definition.status = (enum interpolation_status)status;
        dotenv_define(env, &definition);
        free(file_text);
        free(unset_text);
    }
    return !r->bad;
}

/* The directory record that may end a context (compose_context.h). */
struct trailer {
    int record;
    uint32_t resolved;          /* of a request */
    const char *texts[3];       /* a request: the directory; a directory:
                                   relative, real, display */
    size_t lengths[3];
};

static bool read_trailer(struct reader *r, struct trailer *trailer)
{
    memset(trailer, 0, sizeof(*trailer));
    if (r->bad)
        return false;
    if (r->at == r->length)
        return true;
    int tag = r->data[r->at++];
    size_t texts = 0;
    if (tag == CONTEXT_DIRECTORY_REQUESTED) {
        trailer->resolved = get_u32(r);
        texts = 1;
    } else if (tag == CONTEXT_DIRECTORY_RESOLVED) {
        texts = 3;
    } else {
        r->bad = true;
    }
    for (size_t i = 0; i < texts && !r->bad; i++) {
        trailer->texts[i] = get_text(r, &trailer->lengths[i]);
        if (trailer->texts[i] == NULL ||
            memchr(trailer->texts[i], '\0', trailer->lengths[i]) != NULL)
            r->bad = true;
    }
    if (r->bad || r->at != r->length)
        return false;
    trailer->record = tag;
    return true;
}

/* Reads a whole context: its variables (into env, NULL: read past), where
 * they end (*end, NULL: not wanted), and its directory record. */
static bool parse(const char *context, size_t length, struct dotenv *env, size_t *end,
                  struct trailer *trailer)
{
    struct reader r;
    if (!open_reader(&r, context, length))
        return false;
    if (compose_context_kind(context, length) != CONTEXT_OVERFLOW &&
        !read_variables(&r, env))
        return false;
    if (end != NULL)
        *end = r.at;
    return read_trailer(&r, trailer);
}

bool compose_context_decode(const char *context, size_t length, struct dotenv *env)
{
    struct trailer trailer;
    if (compose_context_kind(context, length) == CONTEXT_OVERFLOW)
        return false;
    return parse(context, length, env, NULL, &trailer);
}

int compose_context_directory_record(const char *context, size_t length)
{
    struct trailer trailer;
    if (!parse(context, length, NULL, NULL, &trailer))
        return CONTEXT_DIRECTORY_MALFORMED;
    return trailer.record;
}

char *compose_context_request_directory(const char *context, size_t length,
                                        const char *directory, bool resolved,
                                        size_t *out_length)
{
    struct trailer trailer;
    size_t end;
    if (compose_context_kind(context, length) == CONTEXT_OVERFLOW ||
        !parse(context, length, NULL, &end, &trailer)) {
        *out_length = length;
        return xmemdup(context, length);
    }
    struct byte_buffer out = BYTE_BUFFER_INIT;
    byte_buffer_append(&out, context, end);
    char tag = CONTEXT_DIRECTORY_REQUESTED;
    byte_buffer_append(&out, &tag, 1);
    put_u32(&out, resolved ? 1 : 0);
    put_text(&out, directory, strlen(directory));
    return finish(&out, out_length);
}

char *compose_context_requested_directory(const char *context, size_t length,
                                          bool *resolved)
{
    struct trailer trailer;
    if (!parse(context, length, NULL, NULL, &trailer) ||
        trailer.record != CONTEXT_DIRECTORY_REQUESTED)
        return NULL;
    *resolved = trailer.resolved != 0;
    return xstrndup(trailer.texts[0], trailer.lengths[0]);
}

char *compose_context_with_directory(const char *context, size_t length,
                                     const struct compose_directory *directory,
                                     size_t *out_length)
{
    struct trailer trailer;
    size_t end;
    if (!parse(context, length, NULL, &end, &trailer)) {
        *out_length = length;
        return xmemdup(context, length);
    }
    struct byte_buffer out = BYTE_BUFFER_INIT;
    byte_buffer_append(&out, context, end);
    if (directory != NULL) {
        char tag = CONTEXT_DIRECTORY_RESOLVED;
        byte_buffer_append(&out, &tag, 1);
        put_text(&out, directory->relative, strlen(directory->relative));
        put_text(&out, directory->real, strlen(directory->real));
        put_text(&out, directory->display, strlen(directory->display));
    }
    return finish(&out, out_length);
}

bool compose_context_directory(const char *context, size_t length,
                               struct compose_directory *out)
{
    struct trailer trailer;
    memset(out, 0, sizeof(*out));
    if (context == NULL || !parse(context, length, NULL, NULL, &trailer) ||
        trailer.record != CONTEXT_DIRECTORY_RESOLVED)
        return false;
    out->relative = xstrndup(trailer.texts[0], trailer.lengths[0]);
    out->real = xstrndup(trailer.texts[1], trailer.lengths[1]);
    out->display = xstrndup(trailer.texts[2], trailer.lengths[2]);
    return true;
}

void compose_directory_release(struct compose_directory *directory)
{
    free(directory->relative);
    free(directory->real);
    free(directory->display);
    memset(directory, 0, sizeof(*directory));
}

char *compose_context_fingerprint(const char *context, size_t length)
{
    struct reader r;
    if (!open_reader(&r, context, length))
        return xstrdup("?");
    /* The kind and the variables, in hex: exact, never a hash that a
     * crafted .env could make collide (contexts are bounded). */
    static const char digits[] = "0123456789abcdef";
    size_t body = r.length - r.at;
    char *text = xmalloc(2 * (body + 1) + 1);
    size_t n = 0;
    text[n++] = digits[(unsigned char)context[0] >> 4];
    text[n++] = digits[(unsigned char)context[0] & 15];
    for (size_t i = r.at; i < r.length; i++) {
        text[n++] = digits[r.data[i] >> 4];
        text[n++] = digits[r.data[i] & 15];
    }
    text[n] = '\0';
    return text;
}
