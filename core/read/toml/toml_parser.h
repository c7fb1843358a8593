/*
 * toml_parser.h - what the parts of the TOML reader share: the tree's
 * representation and the parser's state.  Not for use outside core/read/toml/.
 *
 * Errors are raised with longjmp() back to toml_parse() (see
 * parser_fail_at()).  Every value is registered in its document as soon as
 * it is allocated and scratch buffers belong to the parser, so an error
 * releases all memory without bookkeeping at each call site.
 */
#ifndef SANDLINT_TOML_PARSER_H
#define SANDLINT_TOML_PARSER_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "toml.h"

#define PARSER_PRINTF(format_index, first_argument) \
    __attribute__((format(printf, format_index, first_argument)))

/* One key of a table. */
struct table_entry {
    char *key;                  /* owned, NUL-terminated; may hold NUL */
    size_t key_length;
    size_t hash;
    struct toml_pos key_pos;
    struct toml_span key_span;
    struct toml_value *value;   /* owned by the document */
};

struct toml_value {
    enum toml_kind kind;
    struct toml_pos pos;
    struct toml_span span;
    union {
        struct {
            char *text;         /* strings and date/time text; owned */
            size_t length;
        } string;
        int64_t integer;
        double floating;
        bool boolean;
        struct {
            struct toml_value **items;      /* owned array, borrowed items */
            size_t count, capacity;
            bool of_tables;     /* built by [[header]] sections */
        } array;
        struct {
            struct table_entry *entries;    /* owned, in document order */
            size_t count, capacity;
            size_t *slots;      /* open addressing over entries: index + 1,
                                   0 = empty; NULL while the table is small */
            size_t slot_count;  /* 0 or a power of two */
            enum toml_table_origin origin;
            size_t section;     /* DOTTED and INLINE: the section whose keys
                                   created it, the only one that may add keys
                                   to it through dotted keys */
        } table;
    } as;
};

struct toml_doc {
    struct toml_value *root;
    struct toml_value **values; /* every value, for toml_doc_free() */
    size_t value_count, value_capacity;
};

/* A growing byte buffer, always NUL-terminated once used. */
struct byte_buffer {
    char *bytes;
    size_t length, capacity;
};

/* One component of the key being read, its text in parser.key_text. */
struct key_part {
    size_t offset, length;
    struct toml_pos pos;
    struct toml_span span;
};

struct parser {
    const unsigned char *input;
    size_t length;
    size_t offset;              /* of the next byte to read */
    unsigned line, column;      /* of that byte */
    struct toml_doc *doc;
    struct toml_error *error;
    jmp_buf on_error;
    struct toml_value *table;   /* receives the key/value pairs of the
                                   current section */
    size_t section;             /* id of the current section: a [header]
                                   block or an inline table */
    size_t last_section;
    unsigned depth;             /* nesting of arrays and inline tables */
    struct byte_buffer scratch; /* text of the value being read */
    struct byte_buffer key_text;
    struct key_part *key_parts; /* the components of the key being read */
    size_t key_part_count, key_part_capacity;
};

/* --- errors (toml.c) --- */

/* Reports an error at pos and unwinds to toml_parse(). */
_Noreturn void parser_fail_at(struct parser *parser, struct toml_pos pos,
                              const char *format, ...) PARSER_PRINTF(3, 4);

/* Fails at the current position with "<what>, found <description>". */
_Noreturn void parser_fail_found(struct parser *parser, const char *what);

/* A short description of the character at byte offset at ("newline",
 * "'x'", "control character U+0001"), written to buffer when needed. */
const char *parser_describe(const struct parser *parser, size_t at, char *buffer,
                            size_t size);

/* key_length bytes of a key, fit for a message: shortened to about 60
 * bytes ("..."), every byte that could act on a terminal escaped. */
void parser_show_key(const char *key, size_t key_length, char *buffer, size_t size);

/* --- reading the input (toml.c) --- */

struct toml_pos parser_here(const struct parser *parser);
struct toml_pos pos_plus_columns(struct toml_pos pos, size_t columns);
/* The byte at the current offset plus ahead, or -1 past the end. */
int parser_peek(const struct parser *parser, size_t ahead);
/* Advances over count ASCII characters that are not newlines. */
void parser_advance(struct parser *parser, size_t count);
/* Advances over one character (not a newline) of any length. */
void parser_advance_character(struct parser *parser);
/* Length of the newline at the current offset: 1 (LF), 2 (CR LF) or 0. */
size_t parser_newline_length(const struct parser *parser);
void parser_advance_newline(struct parser *parser, size_t length);
void parser_skip_blanks(struct parser *parser);
/* Whether c may not appear raw in TOML text (tab excepted). */
bool is_control_character(int c);
bool is_bare_key_character(int c);
bool is_decimal_digit(int c);
/* The value of a hexadecimal digit, or -1. */
int hex_digit_value(int c);

/* --- the tree (toml_value.c) --- */

struct toml_value *value_new(struct parser *parser, enum toml_kind kind,
                             struct toml_pos pos, size_t start);
/* Looks key up in table; NULL when absent. */
struct table_entry *table_find(const struct toml_value *table, const char *key,
                               size_t key_length);
/* Appends key (copied) to table with value (which may be set later, while
 * no other key is added); returns the entry's index. */
size_t table_add(struct toml_value *table, const struct key_part *part,
                 const char *key, struct toml_value *value);
void array_append(struct toml_value *array, struct toml_value *item);
void byte_buffer_add(struct byte_buffer *buffer, const void *bytes, size_t length);
void byte_buffer_add_byte(struct byte_buffer *buffer, char byte);

/* --- values (toml_string.c, toml_scalar.c) --- */

/* At '"' or '\'': a single-line string, decoded into buffer. */
void parse_basic_string(struct parser *parser, struct byte_buffer *buffer);
void parse_literal_string(struct parser *parser, struct byte_buffer *buffer);
/* At '"""' or "'''": a multi-line string, decoded into buffer. */
void parse_multiline_string(struct parser *parser, struct byte_buffer *buffer,
                            char quote);
/* A bare value: boolean, number, inf/nan or date/time. */
struct toml_value *parse_bare_value(struct parser *parser);

#endif
