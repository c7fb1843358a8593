/*
 * toml.h - sandlint's TOML 1.0 reader.
 *
 * NAME
 *   toml_parse, toml_doc_free and the toml_* accessors.
 *
 * DESCRIPTION
 *   A complete reader for TOML 1.0 (https://toml.io/en/v1.0.0).  A document
 *   is parsed in one call into an immutable tree owned by a struct toml_doc.
 *   Every value, and every key of every table, carries the position at which
 *   it appears in the input, so that configuration errors found later can be
 *   reported as FILE:LINE:COL, and the byte range it spans, so that an editor
 *   can change one value and leave every other byte of the file alone.
 *
 *   The reader is split by concern: toml.c reads the document (keys,
 *   key/value pairs, headers, arrays, inline tables), toml_string.c and
 *   toml_scalar.c read the values, toml_value.c holds the tree and the
 *   accessors; toml_parser.h is what they share.
 *
 *   Positions are 1-based.  Lines are counted by LF characters; columns count
 *   Unicode code points (a tab is one column, a leading UTF-8 byte order mark
 *   is not counted).
 *
 *   The reader never recurses deeper than TOML_MAX_DEPTH nested arrays or
 *   inline tables (deeper input is an error), its memory use is linear in
 *   the size of the input, and bounded: at most TOML_MAX_VALUES values, and
 *   at most TOML_MAX_KEY_PARTS parts in a dotted key or table header (more
 *   is an error at the value or part that goes over).  Tables may still be
 *   nested some hundreds deep by dotted keys or table headers with inline
 *   tables inside ([a.b.c...]); callers that walk the tree recursively
 *   should bound their own depth.
 *
 * OWNERSHIP
 *   All struct toml_value pointers and all strings returned by the accessors
 *   point into the struct toml_doc they came from.  They are valid until
 *   toml_doc_free() is called on that document and must not be freed or
 *   modified by the caller.  A document is never modified after toml_parse()
 *   returns, so several threads may read one document concurrently.
 *
 * THREAD SAFETY
 *   toml_parse() keeps no global state.  It converts floats with strtod(),
 *   adapting to the decimal point of the current LC_NUMERIC locale, so it
 *   must not run while another thread changes the locale.
 *
 * MEMORY
 *   Allocation goes through the core's xalloc.h: running out of memory ends
 *   the program with a message, as everywhere in sandlint's core.
 */
#ifndef SANDLINT_TOML_H
#define SANDLINT_TOML_H

#include <stddef.h>
#include <stdint.h>

#include "comment_list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest nesting of arrays and inline tables that toml_parse() accepts. */
#define TOML_MAX_DEPTH 256

/* Most parts of one dotted key or table header ([a.b.c] has three): each
 * part is a table, and a key of millions of parts would take gigabytes. */
#define TOML_MAX_KEY_PARTS 128

/* Most values of one document (every table, array, value and array item
 * counts): about a hundred bytes each, so a document takes at most some
 * hundred megabytes whatever it holds. */
#define TOML_MAX_VALUES 1000000

enum toml_kind {
    TOML_STRING,
    TOML_INTEGER,
    TOML_FLOAT,
    TOML_BOOLEAN,
    TOML_OFFSET_DATETIME,
    TOML_LOCAL_DATETIME,
    TOML_LOCAL_DATE,
    TOML_LOCAL_TIME,
    TOML_ARRAY,
    TOML_TABLE
};

/* A position in the input: 1-based line, 1-based column in code points. */
struct toml_pos {
    unsigned line, column;
};

/* A range of the input in bytes: [start, end), offsets from the first byte
 * given to toml_parse() (a byte order mark included). */
struct toml_span {
    size_t start, end;
};

/* How a table came to be, which decides how it may be edited: keys can be
 * appended to the section of a HEADER table; the others are written
 * elsewhere or all at once. */
enum toml_table_origin {
    TOML_TABLE_ROOT,        /* the document itself */
    TOML_TABLE_HEADER,      /* a [header], or an element of a [[header]] array */
    TOML_TABLE_IMPLICIT,    /* only named as the parent in a header path ([a.b]
                               makes a) and never defined itself */
    TOML_TABLE_DOTTED,      /* created by a dotted key (a.b = 1 makes a) */
    TOML_TABLE_INLINE       /* an inline table { ... }, or a table that a
                               dotted key created inside one */
};

/* A value of the tree.  Opaque; owned by its struct toml_doc. */
struct toml_value;

/* A parsed document.  Opaque; owned by the caller of toml_parse(). */
struct toml_doc;

/*
 * An error found by toml_parse().  pos is where the offending text starts;
 * message is a NUL-terminated English sentence fragment without position or
 * trailing newline, e.g. "duplicate key 'a' (first defined at 3:1)".
 * Callers print it as "FILE:LINE:COL: message".
 */
struct toml_error {
    struct toml_pos pos;
    char message[256];
};

/*
 * toml_parse - parse a TOML 1.0 document.
 *
 * DESCRIPTION
 *   Parses len bytes at text.  The text need not be NUL-terminated and is
 *   not retained after the call.  It must be UTF-8 (a leading byte order
 *   mark is skipped); invalid UTF-8, NUL bytes and other control characters
 *   are reported as errors with their position.  text may be NULL when len
 *   is 0.
 *
 * RETURN VALUE
 *   A new document that the caller owns and releases with toml_doc_free(),
 *   or NULL on any error (syntax error, semantic error such as a duplicate
 *   key, nesting deeper than TOML_MAX_DEPTH).  On error *err is filled in if
 *   err is not NULL; on success *err is left zeroed.  Text from the input
 *   that a message quotes is escaped (terminal_escape()), so a message is safe
 *   to print.
 */
struct toml_doc *toml_parse(const char *text, size_t len, struct toml_error *err);

/*
 * toml_doc_free - release a document and every value and string in it.
 * Accepts NULL.  Runs in time linear in the size of the document and uses
 * no recursion.
 */
void toml_doc_free(struct toml_doc *doc);

/*
 * toml_doc_root - the root table of doc (kind TOML_TABLE, position 1:1).
 * Borrowed; valid until toml_doc_free(doc).
 */
const struct toml_value *toml_doc_root(const struct toml_doc *doc);

/* toml_kind - the kind of v, which must not be NULL. */
enum toml_kind toml_kind(const struct toml_value *v);

/*
 * toml_value_pos - where v starts in the input: the first character of a
 * scalar, the '[' of an array, the '{' of an inline table, the '[' of the
 * [header] that defined a table, the '[[' of the first [[header]] of an array
 * of tables, or, for a table created implicitly by a dotted key or by a
 * header path, the key component that first created it.  The root table is at
 * 1:1.
 */
struct toml_pos toml_value_pos(const struct toml_value *v);

/*
 * toml_value_span - the bytes v was written as: a scalar's token (a
 * string's with its quotes), an array from '[' to ']', an inline table from
 * '{' to '}', a [header] table's header (or, for an array of tables, its
 * first [[header]]), the key component that created an implicit or dotted
 * table; {0, 0} for the root.
 */
struct toml_span toml_value_span(const struct toml_value *v);

/* toml_table_origin - how table came to be (TOML_TABLE_ROOT for the root);
 * TOML_TABLE_ROOT as well for a value that is not a table. */
enum toml_table_origin toml_table_origin(const struct toml_value *table);

/* toml_table_key_span - the bytes of the i-th key of table (the component
 * that names the entry, quotes included); {0, 0} when there is none. */
struct toml_span toml_table_key_span(const struct toml_value *table, size_t i);

/* toml_table_size - number of keys in table; 0 if table is not a table. */
size_t toml_table_size(const struct toml_value *table);

/*
 * toml_table_entry - the i-th key of table, in document order (the order in
 * which the keys were first defined).
 *
 * RETURN VALUE
 *   The value, or NULL if table is not a table or i >= toml_table_size().
 *   When the result is not NULL, each of key, key_len and key_pos that is
 *   not NULL receives the key's text (NUL-terminated UTF-8, borrowed from
 *   the document; may contain U+0000 from a \u0000 escape, hence key_len),
 *   its length in bytes, and the position of the key itself (for a dotted
 *   key a.b.c, the component that names this table's entry).
 */
const struct toml_value *toml_table_entry(const struct toml_value *table, size_t i,
                                          const char **key, size_t *key_len,
                                          struct toml_pos *key_pos);

/*
 * toml_table_get - look up a NUL-terminated key in table (one component, no
 * dots are interpreted).  Returns the value, or NULL if the key is absent or
 * table is not a table.  Average time O(1).
 */
const struct toml_value *toml_table_get(const struct toml_value *table, const char *key);

/*
 * toml_table_getn - like toml_table_get() for a key of key_len bytes (which
 * may contain NUL).  If key_pos is not NULL and the key is found, it
 * receives the position of the key.
 */
const struct toml_value *toml_table_getn(const struct toml_value *table, const char *key,
                                         size_t key_len, struct toml_pos *key_pos);

/*
 * toml_table_index - the position (for toml_table_entry() and
 * toml_table_key_span()) of the key of key_len bytes in table, or
 * TOML_NO_INDEX when it is absent or table is not a table.  Average time
 * O(1), where searching the entries one by one would make an editor's cost
 * the product of the keys it adds and those the table holds.
 */
#define TOML_NO_INDEX ((size_t)-1)
size_t toml_table_index(const struct toml_value *table, const char *key, size_t key_len);

/* toml_array_size - number of elements; 0 if array is not an array. */
size_t toml_array_size(const struct toml_value *array);

/*
 * toml_array_get - the i-th element of array, or NULL if array is not an
 * array or i is out of range.  An array of tables ([[x]]) is a TOML_ARRAY of
 * TOML_TABLE values.
 */
const struct toml_value *toml_array_get(const struct toml_value *array, size_t i);

/*
 * toml_array_is_table_array - 1 if array was built by [[header]] sections,
 * 0 otherwise (including for a static array whose elements are all inline
 * tables, and for non-arrays).
 */
int toml_array_is_table_array(const struct toml_value *array);

/*
 * toml_string - the UTF-8 text of a TOML_STRING, NUL-terminated, escapes
 * decoded, CRLF in multi-line strings normalised to LF.  If len is not NULL
 * it receives the length in bytes excluding the terminating NUL (the text
 * may itself contain U+0000 written as \u0000).  Returns NULL (and leaves
 * *len alone) if v is not a string.  Borrowed from the document.
 */
const char *toml_string(const struct toml_value *v, size_t *len);

/* toml_integer - the value of a TOML_INTEGER; 0 for other kinds. */
int64_t toml_integer(const struct toml_value *v);

/* toml_float - the value of a TOML_FLOAT (may be NaN or infinite); 0.0 for other kinds. */
double toml_float(const struct toml_value *v);

/* toml_boolean - 1 for true, 0 for false or for other kinds. */
int toml_boolean(const struct toml_value *v);

/*
 * toml_datetime_text - the normalised text of a date/time value, or NULL for
 * other kinds.  Borrowed from the document.  Normalisation, as toml-test
 * expects it:
 *   TOML_OFFSET_DATETIME  YYYY-MM-DDTHH:MM:SS[.fff...]Z or ...+HH:MM / -HH:MM
 *   TOML_LOCAL_DATETIME   YYYY-MM-DDTHH:MM:SS[.fff...]
 *   TOML_LOCAL_DATE       YYYY-MM-DD
 *   TOML_LOCAL_TIME       HH:MM:SS[.fff...]
 * The date/time separator is always 'T' and 'z' becomes 'Z'.  A fractional
 * second is kept with all its digits but padded with zeros to at least
 * three (milliseconds): 17:45:56.6 becomes 17:45:56.600.
 */
const char *toml_datetime_text(const struct toml_value *v);

/*
 * toml_kind_name - a static English name for k as used in messages:
 * "string", "integer", "float", "boolean", "offset date-time",
 * "local date-time", "local date", "local time", "array", "table".
 * Returns "unknown" for values outside the enumeration.
 */
const char *toml_kind_name(enum toml_kind k);

#ifdef __cplusplus
}
#endif

/*
 * toml_comments - appends the comments of len bytes of TOML text ('#' to
 * the end of its line, outside strings) to comments, with their positions,
 * for suppression comments.  Text that is not valid TOML is scanned all
 * the same (a string left open ends the scan at its line for a one-line
 * string, at the end of the text for a multi-line one).
 */
void toml_comments(const char *text, size_t len, struct comment_list *comments);

#endif /* SANDLINT_TOML_H */
