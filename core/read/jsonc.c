/*
 * jsonc.c - JSON with comments and trailing commas into the node tree (see
 * jsonc.h).
 *
 * One pass over the text with an explicit stack: open collections are
 * frames, their finished children wait on one shared child stack (as in
 * yaml_model.c), so nesting costs heap, never C stack.  Strings are decoded
 * into a scratch buffer while their positions are counted, then copied into
 * the model's arena.
 */
#include "config.h"

#include "jsonc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "source.h"
#include "utf8.h"
#include "xalloc.h"

/* Mappings with at most this many pairs find duplicate keys by comparing
 * every pair; larger ones sort. */
enum { SMALL_MAPPING = 8 };

struct frame {
    struct sl_node *node;
    size_t first_child;         /* index into reader.children */
};

/* What the reader expects at the next token. */
enum expect {
    EXPECT_VALUE,               /* after ':' or at the start */
    EXPECT_ITEM_OR_CLOSE,       /* after '[' or an array's ',' */
    EXPECT_KEY_OR_CLOSE,        /* after '{' or an object's ',' */
    EXPECT_COLON,               /* after a key */
    EXPECT_COMMA_OR_CLOSE,      /* after a value inside a collection */
    EXPECT_END                  /* after the root value */
};

struct reader {
    const unsigned char *text;
    size_t length, at;
    unsigned line, column;      /* of text[at] */
    unsigned content_line;      /* line where the last token ended; 0: none */
    struct yaml_model *model;
    struct model_limits limits;
    struct comment_list *comments;
    struct frame *frames;
    size_t frame_count, frame_capacity;
    struct sl_node **children;
    size_t child_count, child_capacity;
    unsigned char *scratch;     /* a string's decoded bytes */
    size_t scratch_length, scratch_capacity;
    size_t *order, *merge, *winner;     /* duplicate-key scratch, n each */
    size_t sort_capacity;
};

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */

static int fail_at(struct reader *r, enum model_status status, unsigned line,
                   unsigned column, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

/* Records the first error; always returns -1 for the caller to pass on. */
static int fail_at(struct reader *r, enum model_status status, unsigned line,
                   unsigned column, const char *format, ...)
{
    struct yaml_model *model = r->model;
    if (model->status != MODEL_OK)
        return -1;
    char buffer[256];
    va_list args;
    va_start(args, format);
    vsnprintf(buffer, sizeof(buffer), format, args);
    va_end(args);
    model->error.message = xstrdup(buffer);
    model->error.line = line;
    model->error.column = column;
    model->status = status;
    return -1;
}

static int no_memory(struct reader *r)
{
    return fail_at(r, MODEL_NO_MEMORY, 0, 0, "out of memory");
}

/* "unexpected character 'x'" or "... U+00A0", never the raw bytes of the
 * file (the message is printed). */
static int unexpected(struct reader *r, const char *expected)
{
    const unsigned char *p = r->text + r->at;
    if (r->at >= r->length)
        return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                       "JSON syntax error: the text ends where %s is expected", expected);
    if (*p > 0x20 && *p < 0x7F)
        return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                       "JSON syntax error: unexpected '%c' where %s is expected", *p, expected);
    uint32_t code;
    if (*p == 0 || utf8_decode(p, r->length - r->at, &code) == 0)
        return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column, "%s",
                       *p == 0 ? "NUL byte in the text" : "text is not valid UTF-8");
    return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                   "JSON syntax error: unexpected character U+%04X where %s is expected",
                   (unsigned)code, expected);
}

/* ------------------------------------------------------------------ */
/* moving through the text                                             */
/* ------------------------------------------------------------------ */

/* Moves past the character at r->at, counting lines and columns as
 * source_step() does. */
static void step(struct reader *r)
{
    unsigned char c = r->text[r->at];
    if (c >= 0x20 && c < 0x80) {
        r->at++;
        r->column++;
        return;
    }
    r->at = source_step((const char *)r->text, r->length, r->at, &r->line, &r->column);
}

/* Moves past count ASCII characters that are not line breaks. */
static void step_ascii(struct reader *r, size_t count)
{
    r->at += count;
    r->column += (unsigned)count;
}

/* A comment may hold any character, but not a NUL byte or bytes that are
 * not UTF-8. */
static int check_comment_byte(struct reader *r)
{
    const unsigned char *p = r->text + r->at;
    if (*p != 0 && (*p < 0x80 || utf8_decode(p, r->length - r->at, NULL) != 0))
        return 0;
    return unexpected(r, "a character of the comment");
}

static int read_comment(struct reader *r)
{
    struct comment_span span;
    memset(&span, 0, sizeof(span));
    span.offset = r->at;
    span.line = r->line;
    span.column = r->column;
    span.own_line = r->content_line != r->line;
    span.block = r->text[r->at + 1] == '*';
    step_ascii(r, 2);
    span.text_offset = r->at;
    if (!span.block) {
        /* A line comment ends before CR or LF (as in the JSON-with-comments
         * readers of editors): the line break is whitespace. */
        while (r->at < r->length && r->text[r->at] != '\n' && r->text[r->at] != '\r') {
            if (check_comment_byte(r) != 0)
                return -1;
            step(r);
        }
        span.text_length = r->at - span.text_offset;
    } else {
        for (;;) {
            if (r->at >= r->length)
                return fail_at(r, MODEL_SYNTAX_ERROR, span.line, span.column,
                               "JSON syntax error: comment is not closed (a '*/' is missing)");
            if (r->text[r->at] == '*' && r->at + 1 < r->length && r->text[r->at + 1] == '/')
                break;
            if (check_comment_byte(r) != 0)
                return -1;
            step(r);
        }
        span.text_length = r->at - span.text_offset;
        step_ascii(r, 2);
    }
    span.length = r->at - span.offset;
    span.end_line = r->line;
    span.end_column = r->column;
    if (r->comments != NULL)
        comment_list_add(r->comments, &span);
    return 0;
}

/* Skips JSON whitespace and comments. */
static int skip_space(struct reader *r)
{
    while (r->at < r->length) {
        unsigned char c = r->text[r->at];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            step(r);
        } else if (c == '/') {
            unsigned char next = r->at + 1 < r->length ? r->text[r->at + 1] : 0;
            if (next != '/' && next != '*')
                return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                               "JSON syntax error: '/' that does not start a comment "
                               "(// or /*)");
            if (read_comment(r) != 0)
                return -1;
        } else {
            return 0;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* nodes                                                               */
/* ------------------------------------------------------------------ */

static struct sl_node *new_node(struct reader *r, int kind, int style, unsigned line,
                                unsigned column)
{
    struct yaml_model *model = r->model;
    if (model->node_count >= r->limits.max_nodes) {
        fail_at(r, MODEL_LIMIT_EXCEEDED, line, column,
                "file has more than %zu JSON values (the node limit, --max-nodes); "
                "not checked", r->limits.max_nodes);
        return NULL;
    }
    struct sl_node *node = arena_alloc(&model->arena, sizeof(*node));
    if (node == NULL) {
        no_memory(r);
        return NULL;
    }
    memset(node, 0, sizeof(*node));
    node->kind = (uint8_t)kind;
    node->style = (uint8_t)style;
    node->line = line;
    node->column = column;
    model->node_count++;
    return node;
}

/* A scalar of the given text, from (line, column) to the reader's
 * position. */
static struct sl_node *new_scalar(struct reader *r, int style, const void *text,
                                  size_t length, unsigned line, unsigned column)
{
    struct sl_node *node = new_node(r, SL_NODE_SCALAR, style, line, column);
    if (node == NULL)
        return NULL;
    node->end_line = r->line;
    node->end_column = r->column;
    node->u.scalar.text = arena_strndup(&r->model->arena, text, length);
    if (node->u.scalar.text == NULL) {
        no_memory(r);
        return NULL;
    }
    node->u.scalar.length = length;
    return node;
}

/* Hands a finished node to the open collection, or makes it the root. */
static int attach(struct reader *r, struct sl_node *node)
{
    r->content_line = node->end_line;
    if (r->frame_count == 0) {
        struct yaml_model *model = r->model;
        model->documents = xmalloc(sizeof(*model->documents));
        model->documents[0] = node;
        model->document_count = 1;
        return 0;
    }
    if (r->child_count == r->child_capacity) {
        r->child_capacity = r->child_capacity ? r->child_capacity * 2 : 64;
        r->children = xrealloc(r->children, r->child_capacity, sizeof(*r->children));
    }
    r->children[r->child_count++] = node;
    return 0;
}

/* ------------------------------------------------------------------ */
/* strings                                                             */
/* ------------------------------------------------------------------ */

static void scratch_add(struct reader *r, const unsigned char *bytes, size_t count)
{
    if (r->scratch_capacity - r->scratch_length < count) {
        size_t capacity = r->scratch_capacity ? r->scratch_capacity : 256;
        while (capacity - r->scratch_length < count)
            capacity *= 2;
        r->scratch = xrealloc(r->scratch, capacity, 1);
        r->scratch_capacity = capacity;
    }
    memcpy(r->scratch + r->scratch_length, bytes, count);
    r->scratch_length += count;
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The code unit of "\uXXXX" at r->at, or -1 when it is not one. */
static long unicode_escape(const struct reader *r, size_t at)
{
    if (r->length - at < 6 || r->text[at] != '\\' || r->text[at + 1] != 'u')
        return -1;
    long unit = 0;
    for (size_t i = 2; i < 6; i++) {
        int digit = hex_value(r->text[at + i]);
        if (digit < 0)
            return -1;
        unit = unit * 16 + digit;
    }
    return unit;
}

/* Decodes the escape at r->at (a backslash) into the scratch buffer. */
static int read_escape(struct reader *r)
{
    unsigned line = r->line, column = r->column;
    if (r->at + 1 >= r->length)
        return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                       "JSON syntax error: string is not closed (a '\"' is missing)");
    unsigned char c = r->text[r->at + 1];
    static const char simple_from[] = "\"\\/bfnrt";
    static const char simple_to[] = "\"\\/\b\f\n\r\t";
    const char *simple = c != 0 ? strchr(simple_from, c) : NULL;
    if (simple != NULL) {
        unsigned char decoded = (unsigned char)simple_to[simple - simple_from];
        scratch_add(r, &decoded, 1);
        step_ascii(r, 2);
        return 0;
    }
    if (c != 'u')
        return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                       "JSON syntax error: invalid escape in a string (JSON knows \\\", \\\\, "
                       "\\/, \\b, \\f, \\n, \\r, \\t and \\uXXXX)");
    long unit = unicode_escape(r, r->at);
    if (unit < 0)
        return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                       "JSON syntax error: \\u needs four hexadecimal digits");
    uint32_t code = (uint32_t)unit;
    size_t width = 6;
    if (unit >= 0xDC00 && unit <= 0xDFFF)
        return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                       "JSON syntax error: \\u%04lX is a low surrogate without a high "
                       "surrogate before it", unit);
    if (unit >= 0xD800 && unit <= 0xDBFF) {
        long low = unicode_escape(r, r->at + 6);
        if (low < 0xDC00 || low > 0xDFFF)
            return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                           "JSON syntax error: \\u%04lX is a high surrogate without a low "
                           "surrogate after it", unit);
        code = 0x10000 + (((uint32_t)unit - 0xD800) << 10) + ((uint32_t)low - 0xDC00);
        width = 12;
    }
    unsigned char bytes[4];
    size_t count = utf8_encode(code, bytes);
    scratch_add(r, bytes, count);
    step_ascii(r, width);
    return 0;
}

/* Reads the string at r->at (a '"') into the scratch buffer; the position
 * ends after its closing quote. */
static int read_string(struct reader *r)
{
    unsigned line = r->line, column = r->column;
    r->scratch_length = 0;
    step_ascii(r, 1);
    for (;;) {
        if (r->at >= r->length)
            return fail_at(r, MODEL_SYNTAX_ERROR, line, column,
                           "JSON syntax error: string is not closed (a '\"' is missing)");
        const unsigned char *p = r->text + r->at;
        if (*p == '"') {
            step_ascii(r, 1);
            return 0;
        }
        if (*p == '\\') {
            if (read_escape(r) != 0)
                return -1;
            continue;
        }
        if (*p < 0x20) {
            if (*p == 0)
                return unexpected(r, "a character of the string");
            return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                           "JSON syntax error: control character U+%04X in a string (write "
                           "it as an escape such as \\n or \\t)", (unsigned)*p);
        }
        if (*p < 0x80) {
            /* A run of plain ASCII at once. */
            size_t run = 1;
            while (r->at + run < r->length && p[run] >= 0x20 && p[run] < 0x80 &&
                   p[run] != '"' && p[run] != '\\')
                run++;
            scratch_add(r, p, run);
            step_ascii(r, run);
            continue;
        }
        size_t width = utf8_decode(p, r->length - r->at, NULL);
        if (width == 0)
            return unexpected(r, "a character of the string");
        scratch_add(r, p, width);
        step(r);
    }
}

/* ------------------------------------------------------------------ */
/* numbers and words                                                   */
/* ------------------------------------------------------------------ */

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* Whether c would continue a number or a word (so the token before it is
 * not complete). */
static bool continues_token(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '+' || c == '-' || c == '_' || c >= 0x80;
}

/* The length of the RFC 8259 number at text[at], or 0 with *problem set. */
static size_t number_length(const struct reader *r, const char **problem)
{
    const unsigned char *p = r->text + r->at;
    size_t available = r->length - r->at, i = 0;
    if (p[i] == '-')
        i++;
    if (i >= available || !is_digit(p[i])) {
        *problem = "a '-' must be followed by a digit";
        return 0;
    }
    if (p[i] == '0') {
        i++;
        if (i < available && is_digit(p[i])) {
            *problem = "a number cannot start with 0 followed by digits";
            return 0;
        }
    } else {
        while (i < available && is_digit(p[i]))
            i++;
    }
    if (i < available && p[i] == '.') {
        i++;
        if (i >= available || !is_digit(p[i])) {
            *problem = "a '.' in a number must be followed by a digit";
            return 0;
        }
        while (i < available && is_digit(p[i]))
            i++;
    }
    if (i < available && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < available && (p[i] == '+' || p[i] == '-'))
            i++;
        if (i >= available || !is_digit(p[i])) {
            *problem = "an exponent must have digits";
            return 0;
        }
        while (i < available && is_digit(p[i]))
            i++;
    }
    if (i < available && continues_token(p[i])) {
        *problem = "a number is followed by a character that cannot follow it";
        return 0;
    }
    return i;
}

static int read_number(struct reader *r, struct sl_node **out)
{
    const char *problem = NULL;
    size_t length = number_length(r, &problem);
    if (length == 0)
        return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                       "JSON syntax error: invalid number: %s", problem);
    unsigned line = r->line, column = r->column;
    const unsigned char *start = r->text + r->at;
    step_ascii(r, length);
    *out = new_scalar(r, SL_STYLE_PLAIN, start, length, line, column);
    return *out != NULL ? 0 : -1;
}

/* true, false or null. */
static int read_word(struct reader *r, struct sl_node **out)
{
    static const char *const words[] = { "true", "false", "null" };
    size_t available = r->length - r->at;
    for (size_t w = 0; w < 3; w++) {
        size_t length = strlen(words[w]);
        if (available < length || memcmp(r->text + r->at, words[w], length) != 0 ||
            (available > length && continues_token(r->text[r->at + length])))
            continue;
        unsigned line = r->line, column = r->column;
        step_ascii(r, length);
        *out = new_scalar(r, SL_STYLE_PLAIN, words[w], length, line, column);
        if (*out == NULL)
            return -1;
        (*out)->null_value = w == 2;
        return 0;
    }
    return fail_at(r, MODEL_SYNTAX_ERROR, r->line, r->column,
                   "JSON syntax error: expected a value (a string in double quotes, a "
                   "number, an object, an array, true, false or null)");
}

/* ------------------------------------------------------------------ */
/* collections                                                         */
/* ------------------------------------------------------------------ */

static int open_collection(struct reader *r, int kind)
{
    if (r->frame_count >= r->limits.max_depth)
        return fail_at(r, MODEL_LIMIT_EXCEEDED, r->line, r->column,
                       "JSON nesting deeper than %u levels (the nesting limit, as for "
                       "YAML); not checked", r->limits.max_depth);
    struct sl_node *node = new_node(r, kind, SL_STYLE_FLOW, r->line, r->column);
    if (node == NULL)
        return -1;
    if (r->frame_count == r->frame_capacity) {
        r->frame_capacity = r->frame_capacity ? r->frame_capacity * 2 : 16;
        r->frames = xrealloc(r->frames, r->frame_capacity, sizeof(*r->frames));
    }
    r->frames[r->frame_count].node = node;
    r->frames[r->frame_count].first_child = r->child_count;
    r->frame_count++;
    step_ascii(r, 1);
    r->content_line = r->line;
    return 0;
}

static int compare_keys(const struct sl_node *a, const struct sl_node *b)
{
    size_t shorter = a->u.scalar.length < b->u.scalar.length ? a->u.scalar.length
                                                             : b->u.scalar.length;
    int order = memcmp(a->u.scalar.text, b->u.scalar.text, shorter);
    if (order != 0)
        return order;
    return (a->u.scalar.length > b->u.scalar.length) - (a->u.scalar.length < b->u.scalar.length);
}

/* Sorts pair indices 0..count-1 by key, stably (bottom-up merge sort: no
 * recursion, n log n comparisons whatever the keys). */
static void sort_pairs(struct reader *r, struct sl_node **children, size_t count)
{
    size_t *from = r->order, *to = r->merge;
    for (size_t i = 0; i < count; i++)
        from[i] = i;
    for (size_t width = 1; width < count; width *= 2) {
        for (size_t low = 0; low < count; low += 2 * width) {
            size_t middle = low + width < count ? low + width : count;
            size_t high = low + 2 * width < count ? low + 2 * width : count;
            size_t a = low, b = middle, out = low;
            while (a < middle && b < high) {
                if (compare_keys(children[2 * from[b]], children[2 * from[a]]) < 0)
                    to[out++] = from[b++];
                else
                    to[out++] = from[a++];
            }
            while (a < middle)
                to[out++] = from[a++];
            while (b < high)
                to[out++] = from[b++];
        }
        size_t *swap = from;
        from = to;
        to = swap;
    }
    r->order = from;
    r->merge = to;
}

/* winner[i] = the pair whose key and value stand at the place of pair i:
 * i itself, a later pair with the same key (the later wins), or count when
 * pair i is a duplicate that an earlier place takes. */
static void find_winners(struct reader *r, struct sl_node **children, size_t count)
{
    size_t *winner = r->winner;
    if (count <= SMALL_MAPPING) {
        for (size_t i = 0; i < count; i++) {
            winner[i] = i;
            for (size_t j = 0; j < i; j++) {
                if (winner[j] != count &&
                    compare_keys(children[2 * j], children[2 * i]) == 0) {
                    winner[j] = i;
                    winner[i] = count;
                    break;
                }
            }
        }
        return;
    }
    sort_pairs(r, children, count);
    const size_t *order = r->order;
    size_t run = 0;
    while (run < count) {
        size_t end = run + 1;
        while (end < count &&
               compare_keys(children[2 * order[run]], children[2 * order[end]]) == 0)
            end++;
        /* Stable: the run lists equal keys in the order they were written. */
        winner[order[run]] = order[end - 1];
        for (size_t i = run + 1; i < end; i++)
            winner[order[i]] = count;
        run = end;
    }
}

static int finish_mapping(struct reader *r, struct sl_node *node, struct sl_node **children,
                          size_t child_count)
{
    size_t count = child_count / 2;
    if (count == 0)
        return 0;
    if (count > r->sort_capacity) {
        size_t capacity = r->sort_capacity ? r->sort_capacity : 64;
        while (capacity < count)
            capacity *= 2;
        free(r->order);
        free(r->merge);
        free(r->winner);
        r->order = xmalloc(capacity * sizeof(*r->order));
        r->merge = xmalloc(capacity * sizeof(*r->merge));
        r->winner = xmalloc(capacity * sizeof(*r->winner));
        r->sort_capacity = capacity;
    }
    find_winners(r, children, count);
    struct model_pair *pairs = arena_alloc(&r->model->arena, count * sizeof(*pairs));
    if (pairs == NULL)
        return no_memory(r);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        size_t from = r->winner[i];
        if (from == count)
            continue;
        pairs[kept].key = children[2 * from];
        pairs[kept].value = children[2 * from + 1];
        pairs[kept].flags = 0;
        kept++;
    }
    node->u.mapping.pairs = pairs;
    node->u.mapping.count = kept;
    return 0;
}

/* Ends the innermost collection at r->at (its closing bracket). */
static int close_collection(struct reader *r)
{
    struct frame *frame = &r->frames[r->frame_count - 1];
    struct sl_node *node = frame->node;
    struct sl_node **children = r->children != NULL ? r->children + frame->first_child : NULL;
    size_t child_count = r->child_count - frame->first_child;
    step_ascii(r, 1);
    node->end_line = r->line;
    node->end_column = r->column;
    if (node->kind == SL_NODE_SEQUENCE) {
        if (child_count != 0) {
            node->u.sequence.items =
                arena_alloc(&r->model->arena, child_count * sizeof(*children));
            if (node->u.sequence.items == NULL)
                return no_memory(r);
            memcpy(node->u.sequence.items, children, child_count * sizeof(*children));
        }
        node->u.sequence.count = child_count;
    } else if (finish_mapping(r, node, children, child_count) != 0) {
        return -1;
    }
    r->child_count = frame->first_child;
    r->frame_count--;
    return attach(r, node);
}

/* ------------------------------------------------------------------ */
/* the reader                                                          */
/* ------------------------------------------------------------------ */

/* Reads one value at r->at: a scalar is attached, a collection opened.
 * *state becomes what the value leaves the reader expecting. */
static int read_value(struct reader *r, enum expect *state)
{
    if (r->at >= r->length)
        return unexpected(r, "a value");
    unsigned char c = r->text[r->at];
    struct sl_node *node = NULL;
    switch (c) {
    case '{':
        *state = EXPECT_KEY_OR_CLOSE;
        return open_collection(r, SL_NODE_MAPPING);
    case '[':
        *state = EXPECT_ITEM_OR_CLOSE;
        return open_collection(r, SL_NODE_SEQUENCE);
    case '"': {
        unsigned line = r->line, column = r->column;
        if (read_string(r) != 0)
            return -1;
        node = new_scalar(r, SL_STYLE_DOUBLE_QUOTED, r->scratch, r->scratch_length, line,
                          column);
        if (node == NULL)
            return -1;
        break;
    }
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        if (read_number(r, &node) != 0)
            return -1;
        break;
    default:
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            if (read_word(r, &node) != 0)
                return -1;
            break;
        }
        return unexpected(r, "a value");
    }
    *state = r->frame_count == 0 ? EXPECT_END : EXPECT_COMMA_OR_CLOSE;
    return attach(r, node);
}

/* Takes the next token in the given state; *state becomes the next one. */
static int read_token(struct reader *r, enum expect *state)
{
    unsigned char c = r->at < r->length ? r->text[r->at] : 0;
    bool at_end = r->at >= r->length;
    const struct sl_node *open = r->frame_count ? r->frames[r->frame_count - 1].node : NULL;
    switch (*state) {
    case EXPECT_VALUE:
        return read_value(r, state);
    case EXPECT_ITEM_OR_CLOSE:
        if (!at_end && c == ']')
            break;
        return read_value(r, state);
    case EXPECT_KEY_OR_CLOSE:
        if (!at_end && c == '}')
            break;
        if (at_end || c != '"')
            return unexpected(r, "a key in double quotes or '}'");
        {
            unsigned line = r->line, column = r->column;
            if (read_string(r) != 0)
                return -1;
            struct sl_node *key = new_scalar(r, SL_STYLE_DOUBLE_QUOTED, r->scratch,
                                             r->scratch_length, line, column);
            if (key == NULL)
                return -1;
            *state = EXPECT_COLON;
            return attach(r, key);
        }
    case EXPECT_COLON:
        if (at_end || c != ':')
            return unexpected(r, "':' after the key");
        step_ascii(r, 1);
        r->content_line = r->line;
        *state = EXPECT_VALUE;
        return 0;
    case EXPECT_COMMA_OR_CLOSE: {
        char close = open->kind == SL_NODE_SEQUENCE ? ']' : '}';
        if (!at_end && c == ',') {
            step_ascii(r, 1);
            r->content_line = r->line;
            *state = open->kind == SL_NODE_SEQUENCE ? EXPECT_ITEM_OR_CLOSE
                                                    : EXPECT_KEY_OR_CLOSE;
            return 0;
        }
        if (!at_end && c == close)
            break;
        return unexpected(r, open->kind == SL_NODE_SEQUENCE ? "',' or ']'" : "',' or '}'");
    }
    case EXPECT_END:
        return unexpected(r, "the end of the text (one JSON value per file)");
    }
    /* A closing bracket in a state that allows it. */
    if (c != (open->kind == SL_NODE_SEQUENCE ? ']' : '}'))
        return unexpected(r, open->kind == SL_NODE_SEQUENCE ? "a value or ']'"
                                                            : "a key in double quotes or '}'");
    if (close_collection(r) != 0)
        return -1;
    *state = r->frame_count == 0 ? EXPECT_END : EXPECT_COMMA_OR_CLOSE;
    return 0;
}

static void reader_release(struct reader *r)
{
    free(r->frames);
    free(r->children);
    free(r->scratch);
    free(r->order);
    free(r->merge);
    free(r->winner);
}

enum model_status jsonc_parse(struct yaml_model *model, const char *text, size_t length,
                              const struct model_limits *limits,
                              struct comment_list *comments)
{
    memset(model, 0, sizeof(*model));
    arena_init(&model->arena);
    struct reader r;
    memset(&r, 0, sizeof(r));
    r.text = (const unsigned char *)text;
    r.length = length;
    r.line = 1;
    r.column = 1;
    r.model = model;
    r.comments = comments;
    r.limits.max_nodes = MODEL_DEFAULT_MAX_NODES;
    r.limits.max_depth = MODEL_DEFAULT_MAX_DEPTH;
    if (limits != NULL) {
        if (limits->max_nodes != 0)
            r.limits.max_nodes = limits->max_nodes;
        if (limits->max_depth != 0)
            r.limits.max_depth = limits->max_depth;
    }
    /* A byte order mark takes no column, as libyaml counts it. */
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        r.at = 3;

    enum expect state = EXPECT_VALUE;
    for (;;) {
        if (skip_space(&r) != 0)
            break;
        if (state == EXPECT_END && r.at >= r.length)
            break;
        if (state == EXPECT_VALUE && r.at >= r.length && model->document_count == 0 &&
            r.frame_count == 0) {
            fail_at(&r, MODEL_SYNTAX_ERROR, r.line, r.column,
                    "JSON syntax error: the text holds no value");
            break;
        }
        if (read_token(&r, &state) != 0)
            break;
    }
    reader_release(&r);
    if (model->status != MODEL_OK) {
        /* As model_parse does: a broken file is not checked at all. */
        free(model->documents);
        model->documents = NULL;
        model->document_count = 0;
        arena_release(&model->arena);
    }
    return model->status;
}
