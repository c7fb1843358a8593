/*
 * compose_interpolation.h - Compose's variable interpolation, resolved the
 * way compose-go's template package resolves it (SPEC §13, §17).
 *
 * Compose replaces "$NAME", "${NAME}", "${NAME:-default}", "${NAME-default}",
 * "${NAME:?message}", "${NAME?message}", "${NAME:+alternative}" and
 * "${NAME+alternative}" in every value (never in keys) before it reads a
 * setting, and "$$" stands for one "$".  A default, alternative or message
 * is itself interpolated, so forms nest ("${A:-${B}}", "${A:-x${B}y}").
 * compose_interpolate() does the same on one value, with the variables the
 * caller gives (the project's .env, see dotenv.h) and never with sandlint's
 * own process environment: what the environment will hold at deploy time is
 * unknown, so a value is resolved as if the environment were empty, and the
 * result says how far that holds.
 *
 * The grammar is compose-go's, quirks included, because a value that
 * sandlint reads differently from Compose is a value it checks wrongly:
 *   - a name is [_A-Za-z][_A-Za-z0-9]*, matched ignoring case the way Go's
 *     regular expressions fold case, which also admits U+017F (long s) and
 *     U+212A (Kelvin sign): "$\u017f" is a variable, not text;
 *   - "$" followed by anything else ("$1", "$-", a "$" at the end) is text;
 *   - "${" that does not continue as NAME "}" or NAME, an operator (":-",
 *     "-", ":?", "?", ":+", "+") and some text up to a "}" on the same line
 *     is an error (Compose refuses the file): "${}", "${1}", "${A:x}",
 *     "${A:-x" (no "}"), "${A:-x<newline>}";
 *   - the expression ends at the first "}" that balances the braces counted
 *     from its "${", where the character right after every "{" is skipped
 *     unread (compose-go's counting); when none balances, it ends at the last
 *     "}" of its line.
 */
#ifndef SANDLINT_COMPOSE_INTERPOLATION_H
#define SANDLINT_COMPOSE_INTERPOLATION_H

#include <stddef.h>

/* ${A:-${B:-...}}: how deeply defaults, alternatives and messages may nest.
 * Compose has no limit; a deeper value is an error, never a pass. */
#define INTERPOLATION_MAX_DEPTH 32
/* Bytes of one resolved value: one that expands past it is an error (a
 * value written longer than this may keep its own length). */
#define INTERPOLATION_MAX_LENGTH ((size_t)1 << 20)
/* Work for one file: bytes read and written while resolving its values,
 * plus a fixed cost per part of a result (see struct interpolation_budget). */
#define INTERPOLATION_FILE_WORK ((size_t)64 << 20)

/* How far a resolved value can be trusted. */
enum interpolation_status {
    /* No variable at all: the text (with "$$" made "$") is what Compose
     * uses, whatever the environment holds. */
    INTERPOLATION_FIXED = 0,
    /* Every variable was found, or its default or alternative decided the
     * text.  The environment at deploy time may still set a variable and
     * change the text: it is what Compose uses with these variables and
     * nothing else set. */
    INTERPOLATION_RESOLVED,
    /* Some variable is unset and nothing in the value replaces it ("$X",
     * "${X}", or a variable of the project whose own value used one): only
     * the deploy environment decides.  Compose would use an empty string
     * (with a warning); the text is that. */
    INTERPOLATION_UNSET,
    /* Compose refuses the value: a syntax error or a required variable that
     * is unset, or a limit of sandlint's was reached.  There is no text. */
    INTERPOLATION_ERROR
};

enum interpolation_error {
    INTERPOLATION_ERROR_NONE = 0,
    INTERPOLATION_ERROR_SYNTAX,     /* "${}", "${A:x}", "${A:-x" ... */
    /* "${X:?msg}" with X unset or empty, "${X?msg}" with X unset: Compose
     * refuses to start unless the deploy environment sets X.  Real files
     * use it for what the deployer must provide (11 values in 7 files of
     * the shared corpus), so a caller may rather treat it as
     * INTERPOLATION_UNSET ("cannot be checked") than as a failure;
     * unset_name names X. */
    INTERPOLATION_ERROR_REQUIRED,
    INTERPOLATION_ERROR_DEPTH,      /* nested deeper than the limit */
    INTERPOLATION_ERROR_LENGTH,     /* resolved text longer than the limit */
    INTERPOLATION_ERROR_WORK        /* the budget ran out */
};

/*
 * A variable of the project: what a lookup finds.  Definitions belong to
 * whoever answers the lookup (dotenv.h's struct dotenv) and live as long as
 * it; results point at them.
 */
struct interpolation_definition {
    const char *name;           /* not NUL-free in general: use the length */
    size_t name_length;
    const char *value;          /* may hold NUL bytes; "" when has_value is 0 */
    size_t value_length;
    /* 0 for a name listed without a value (a .env line "KEY" alone: Compose
     * takes it from the deploy environment).  It counts as unset; it is
     * returned so that a message can say where it was listed. */
    int has_value;
    const char *file;           /* display name of the file ("app/.env"),
                                   NUL-terminated; NULL when not from a file */
    unsigned line, column;      /* where the name starts, 1-based; 0 when
                                   not from a file */
    /* The value's own status: INTERPOLATION_FIXED (written as is, or only
     * escapes), INTERPOLATION_RESOLVED (it used other variables, all
     * known) or INTERPOLATION_UNSET (it used an unset variable: unset_name,
     * NUL-terminated, owned with the definition). */
    enum interpolation_status status;
    const char *unset_name;
};

/*
 * The project's variables.  lookup returns the definition of name (not
 * NUL-terminated), or NULL when the project does not define it.  It must
 * not fail and must not keep name.
 */
struct interpolation_variables {
    const struct interpolation_definition *(*lookup)(const void *context,
                                                     const char *name,
                                                     size_t name_length);
    const void *context;        /* borrowed, passed to lookup */
};

/*
 * Work allowed: every byte scanned or written and every part of a result
 * costs one unit or more.  One budget per checked file (several values
 * that each expand a long variable add up); when it runs out, the value
 * being resolved is an INTERPOLATION_ERROR_WORK error, and so is every
 * later one.
 */
struct interpolation_budget {
    size_t remaining;
};

void interpolation_budget_init(struct interpolation_budget *budget, size_t units);

/* Where each part of a resolved text came from. */
enum interpolation_part_kind {
    INTERPOLATION_PART_TEXT,            /* the value's own text */
    INTERPOLATION_PART_ESCAPE,          /* "$" written "$$" */
    INTERPOLATION_PART_VALUE,           /* the value of variable name */
    INTERPOLATION_PART_DEFAULT,         /* text of name's default, used since
                                           name is unset (or empty, ":-") */
    INTERPOLATION_PART_ALTERNATIVE,     /* text of name's alternative, used
                                           since name is set (and not empty,
                                           ":+") */
    INTERPOLATION_PART_NO_ALTERNATIVE,  /* "${X:+r}" or "${X+r}" with X unset
                                           (or empty, ":+"): X's value, "" */
    INTERPOLATION_PART_UNSET            /* name is unset and nothing replaces
                                           it: "" */
};

struct interpolation_part {
    enum interpolation_part_kind kind;
    size_t offset, length;              /* in the result's text */
    /* The bytes of the value as written that this part stands for: the
     * text itself (TEXT, and the text of a default or alternative), the
     * "$$" (ESCAPE), or the whole "$X" / "${...}" expression (VALUE,
     * NO_ALTERNATIVE, UNSET, and an empty default or alternative). */
    size_t source_offset, source_length;
    /* Every kind but TEXT and ESCAPE: the variable that decided this part
     * (borrowed from the value's text), and its definition (borrowed from
     * the variables; NULL when the project does not define it).  Text
     * nested in a default or alternative is a DEFAULT or ALTERNATIVE part
     * naming the variable it belongs to. */
    const char *name;
    size_t name_length;
    const struct interpolation_definition *definition;
};

struct interpolation_result {
    enum interpolation_status status;
    /* Not INTERPOLATION_ERROR: the text Compose would use (malloc'd,
     * NUL-terminated; it may hold NUL bytes from a .env escape, so use
     * length).  NULL on an error. */
    char *text;
    size_t length;
    /* Not INTERPOLATION_ERROR: the parts in order (malloc'd); adjacent
     * parts of one kind and variable that continue each other (text,
     * escapes, a default's or alternative's text) are one part. */
    struct interpolation_part *parts;
    size_t part_count;
    /* INTERPOLATION_UNSET (and INTERPOLATION_ERROR_REQUIRED): the first
     * unset variable that decided the text (NUL-free name, borrowed from
     * the value or from a definition), and,
     * when it was reached through a variable of the project whose value
     * used it ("A=${B}" in .env), that variable's definition. */
    const char *unset_name;
    size_t unset_name_length;
    const struct interpolation_definition *unset_through;
    /* INTERPOLATION_ERROR: what went wrong, at which byte of the value the
     * expression at fault starts, and a sentence that says it (malloc'd;
     * it quotes bytes of the value: escape it before printing). */
    enum interpolation_error error;
    size_t error_offset;
    char *error_message;
};

/*
 * Resolves the value text (length bytes, any bytes) with variables and
 * budget (both borrowed for the call; variables may be NULL: nothing is
 * defined).  Fills *result (released by the caller) and returns its
 * status.  result's names and definitions point into text and into the
 * variables' definitions: they live as long as those.
 */
enum interpolation_status compose_interpolate(const char *text, size_t length,
                                              const struct interpolation_variables *variables,
                                              struct interpolation_budget *budget,
                                              struct interpolation_result *result);

/* Frees what result owns; a released or zeroed result is fine. */
void interpolation_result_release(struct interpolation_result *result);

/*
 * Where a resolved text came from, for a message (malloc'd, "" for a
 * FIXED value without escapes): for example "SANDBOX_PID from .env:3",
 * "the default of P, which is unset", "'$$' written for '$'", or "X is
 * unset".  Names and file names are quoted as written: escape the
 * sentence before printing it.
 */
char *interpolation_describe(const struct interpolation_result *result);

/* A quote of text for a message: up to its first newline and at most max
 * bytes, cut at a character boundary, with "..." when anything was left
 * out (malloc'd; escape it before printing). */
char *interpolation_excerpt(const char *text, size_t length, size_t max);

/*
 * 1 when text holds an interpolation Compose would replace: "${" or "$"
 * followed by a name's first character, outside "$$" escapes (0.2's test,
 * SPEC §7; what the plugin ABI's has_interpolation answers).  Whatever it
 * says, compose_interpolate() is the exact answer.
 */
int compose_has_interpolation(const char *text, size_t length);

/*
 * The span of the interpolation that starts at text[at] (a '$') as 0.2
 * counts it to split unresolved volume and path text: "$NAME" to the end
 * of the name, "${" to its matching "}" (counting nested braces; an
 * unclosed one runs to the end), 0 when the '$' starts none, and -2 for a
 * "$$" escape (negated so that callers skip it without taking it for an
 * interpolation).
 */
long compose_interpolation_span(const char *text, size_t length, size_t at);

#endif
