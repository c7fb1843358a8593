/* compose_interpolation.c - Compose's interpolation (see compose_interpolation.h). */
#include "config.h"

#include "compose_interpolation.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text_buffer.h"
#include "xalloc.h"

/* What a part costs beyond its bytes: a result of a million one-byte parts
 * is a million structs. */
#define PART_COST 32
/* How much of a value an error message quotes. */
#define EXCERPT_MAX 64

/*
 * Bytes of the name character at text[at] (at < length), or 0.  Go's
 * case-insensitive [_a-z] is [_A-Za-z] plus the two characters that fold
 * to 's' and 'k': U+017F (C5 BF) and U+212A (E2 84 AA).
 */
static size_t name_char(const char *text, size_t length, size_t at, int first)
{
    unsigned char c = (unsigned char)text[at];
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_')
        return 1;
    if (!first && c >= '0' && c <= '9')
        return 1;
    if (c == 0xC5 && at + 1 < length && (unsigned char)text[at + 1] == 0xBF)
        return 2;
    if (c == 0xE2 && at + 2 < length && (unsigned char)text[at + 1] == 0x84 &&
        (unsigned char)text[at + 2] == 0xAA)
        return 3;
    return 0;
}

/* The end of the name starting at text[at]; at itself when none starts
 * there. */
static size_t name_end(const char *text, size_t length, size_t at)
{
    if (at >= length)
        return at;
    size_t step = name_char(text, length, at, 1);
    if (step == 0)
        return at;
    at += step;
    while (at < length && (step = name_char(text, length, at, 0)) != 0)
        at += step;
    return at;
}

long compose_interpolation_span(const char *text, size_t length, size_t at)
{
    if (at + 1 >= length)
        return 0;
    char next = text[at + 1];
    if (next == '$')
        return -2;
    if (next == '{') {
        /* ${...} may nest: ${A:-${B}}.  An unclosed one runs to the end. */
        size_t depth = 0, j = at + 1;
        for (; j < length; j++) {
            if (text[j] == '{')
                depth++;
            else if (text[j] == '}' && --depth == 0)
                return (long)(j - at + 1);
        }
        return (long)(length - at);
    }
    size_t end = name_end(text, length, at + 1);
    return end > at + 1 ? (long)(end - at) : 0;
}

int compose_has_interpolation(const char *text, size_t length)
{
    if (text == NULL)
        return 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] != '$')
            continue;
        long span = compose_interpolation_span(text, length, i);
        if (span > 0)
            return 1;
        if (span < 0)
            i += (size_t)(-span) - 1;
    }
    return 0;
}

void interpolation_budget_init(struct interpolation_budget *budget, size_t units)
{
    budget->remaining = units;
}

/* --- the lexer: one expression at a '$', as compose-go's pattern reads it */

enum token_kind {
    TOKEN_TEXT,         /* the '$' starts nothing: it is text */
    TOKEN_ESCAPE,       /* "$$" */
    TOKEN_NAMED,        /* "$NAME" */
    TOKEN_BRACED,       /* "${NAME}" or "${NAME<op>body}" */
    TOKEN_INVALID       /* "${" that is neither */
};

enum operator_kind {
    OPERATOR_NONE,
    OPERATOR_DEFAULT,       /* ":-" "-" */
    OPERATOR_REQUIRED,      /* ":?" "?" */
    OPERATOR_ALTERNATIVE    /* ":+" "+" */
};

struct token {
    enum token_kind kind;
    size_t start, end;              /* the expression: [start, end) */
    size_t name_start, name_end;
    enum operator_kind operator_kind;
    int colon;                      /* ":-" rather than "-" */
    size_t body_start, body_end;    /* the operand, between the operator
                                       and the closing brace */
    size_t walked;                  /* bytes looked at beyond the name */
};

static enum operator_kind operator_of(char c)
{
    switch (c) {
    case '-':
        return OPERATOR_DEFAULT;
    case '?':
        return OPERATOR_REQUIRED;
    case '+':
        return OPERATOR_ALTERNATIVE;
    default:
        return OPERATOR_NONE;
    }
}

/*
 * Where "${NAME<op>" starting at at ends: compose-go's regular expression
 * needs a '}' later on the same line (its '.' stops at a newline) and takes
 * the last one; it then cuts the expression at the first '}' that balances
 * the braces counted from the "${", skipping the character after every '{'.
 * Returns that '}', or SIZE_MAX when the line has none.  The walk stops at
 * the balancing '}', so a line of many expressions is walked once.
 */
static size_t closing_brace(const char *text, size_t end, size_t at, size_t *walked)
{
    size_t depth = 1, last_close = SIZE_MAX, p = at + 3;
    while (p < end && text[p] != '\n') {
        char c = text[p];
        if (c == '}') {
            last_close = p;
            if (--depth == 0)
                break;
        } else if (c == '{') {
            depth++;
            p++;
            if (p >= end || text[p] == '\n')
                break;
            if (text[p] == '}')
                last_close = p;
        }
        p++;
    }
    *walked = p - at;
    return last_close;
}

/* Reads the expression at text[at] (a '$'), in [at, end). */
static void lex(const char *text, size_t end, size_t at, struct token *token)
{
    memset(token, 0, sizeof(*token));
    token->kind = TOKEN_TEXT;
    token->start = at;
    token->end = at + 1;
    if (at + 1 >= end)
        return;
    char next = text[at + 1];
    if (next == '$') {
        token->kind = TOKEN_ESCAPE;
        token->end = at + 2;
        return;
    }
    size_t named_end = name_end(text, end, at + 1);
    if (named_end > at + 1) {
        token->kind = TOKEN_NAMED;
        token->name_start = at + 1;
        token->name_end = named_end;
        token->end = named_end;
        return;
    }
    if (next != '{')
        return;
    token->kind = TOKEN_INVALID;
    token->end = at + 2;
    size_t name_start = at + 2, name_stop = name_end(text, end, name_start);
    if (name_stop == name_start)
        return;
    token->name_start = name_start;
    token->name_end = name_stop;
    if (name_stop < end && text[name_stop] == '}') {
        token->kind = TOKEN_BRACED;
        token->end = name_stop + 1;
        return;
    }
    size_t body_start;
    if (name_stop + 1 < end && text[name_stop] == ':' &&
        operator_of(text[name_stop + 1]) != OPERATOR_NONE) {
        token->colon = 1;
        token->operator_kind = operator_of(text[name_stop + 1]);
        body_start = name_stop + 2;
    } else if (name_stop < end && operator_of(text[name_stop]) != OPERATOR_NONE) {
        token->operator_kind = operator_of(text[name_stop]);
        body_start = name_stop + 1;
    } else {
        return;
    }
    size_t close = closing_brace(text, end, at, &token->walked);
    if (close == SIZE_MAX) {
        token->operator_kind = OPERATOR_NONE;
        return;
    }
    token->kind = TOKEN_BRACED;
    token->body_start = body_start;
    token->body_end = close;
    token->end = close + 1;
}

/* --- evaluation ---------------------------------------------------------- */

struct evaluation {
    const char *text;
    size_t length;
    const struct interpolation_variables *variables;
    struct interpolation_budget *budget;
    struct text_buffer out;
    size_t max_length;              /* of the text: see emit() */
    struct interpolation_part *parts;
    size_t part_count, part_capacity;
    int uses_variables;
    const char *unset_name;
    size_t unset_name_length;
    const struct interpolation_definition *unset_through;
    enum interpolation_error error;
    size_t error_offset;
    char *error_message;
    const char *required_name;      /* INTERPOLATION_ERROR_REQUIRED */
    size_t required_name_length;
};

/* Whose text a segment is: the value's own, or a default's or an
 * alternative's (of which variable). */
struct owner {
    enum interpolation_part_kind kind;
    const char *name;
    size_t name_length;
    const struct interpolation_definition *definition;
};

static int fail(struct evaluation *evaluation, enum interpolation_error error,
                size_t offset, char *message)
{
    if (evaluation->error == INTERPOLATION_ERROR_NONE) {
        evaluation->error = error;
        evaluation->error_offset = offset;
        evaluation->error_message = message;
    } else {
        free(message);
    }
    return -1;
}

static int charge(struct evaluation *evaluation, size_t units, size_t offset)
{
    if (evaluation->budget->remaining < units) {
        evaluation->budget->remaining = 0;
        return fail(evaluation, INTERPOLATION_ERROR_WORK, offset,
                    xasprintf("resolving the file's interpolations took more work than "
                              "the limit for one file allows; not checked"));
    }
    evaluation->budget->remaining -= units;
    return 0;
}

char *interpolation_excerpt(const char *text, size_t length, size_t max)
{
    if (text == NULL)
        return xstrdup("");
    size_t kept = 0;
    while (kept < length && text[kept] != '\n' && kept < max)
        kept++;
    int clipped = kept < length;
    while (kept < length && kept > 0 && ((unsigned char)text[kept] & 0xC0) == 0x80)
        kept--;
    return xasprintf("%.*s%s", (int)kept, text, clipped ? "..." : "");
}

static int add_part(struct evaluation *evaluation, enum interpolation_part_kind kind,
                    size_t length, size_t source_offset, size_t source_length,
                    const struct owner *owner)
{
    size_t offset = evaluation->out.length - length;
    if (evaluation->part_count > 0) {
        struct interpolation_part *last = &evaluation->parts[evaluation->part_count - 1];
        int mergeable = kind == INTERPOLATION_PART_TEXT || kind == INTERPOLATION_PART_ESCAPE ||
                        ((kind == INTERPOLATION_PART_DEFAULT ||
                          kind == INTERPOLATION_PART_ALTERNATIVE) && length > 0);
        if (mergeable && last->kind == kind && last->length > 0 &&
            last->offset + last->length == offset &&
            last->source_offset + last->source_length == source_offset &&
            last->name == owner->name && last->definition == owner->definition) {
            last->length += length;
            last->source_length += source_length;
            return 0;
        }
    }
    if (charge(evaluation, PART_COST, source_offset) != 0)
        return -1;
    if (evaluation->part_count == evaluation->part_capacity) {
        evaluation->part_capacity = evaluation->part_capacity ? evaluation->part_capacity * 2 : 8;
        evaluation->parts = xrealloc(evaluation->parts, evaluation->part_capacity,
                                     sizeof(*evaluation->parts));
    }
    struct interpolation_part *part = &evaluation->parts[evaluation->part_count++];
    part->kind = kind;
    part->offset = offset;
    part->length = length;
    part->source_offset = source_offset;
    part->source_length = source_length;
    part->name = owner->name;
    part->name_length = owner->name_length;
    part->definition = owner->definition;
    return 0;
}

/* Appends bytes to the text as one part. */
static int emit(struct evaluation *evaluation, enum interpolation_part_kind kind,
                const char *bytes, size_t length, size_t source_offset,
                size_t source_length, const struct owner *owner)
{
    /* The limit is on growth: a value as long as the limit or longer may
     * keep its length (escapes and defaults only shorten it). */
    if (length > evaluation->max_length - evaluation->out.length)
        return fail(evaluation, INTERPOLATION_ERROR_LENGTH, source_offset,
                    xasprintf("the value resolves to more than %zu bytes; not checked",
                              evaluation->max_length));
    if (charge(evaluation, length, source_offset) != 0)
        return -1;
    if (length > 0)
        text_buffer_add(&evaluation->out, bytes, length);
    return add_part(evaluation, kind, length, source_offset, source_length, owner);
}

static const struct interpolation_definition *lookup(struct evaluation *evaluation,
                                                     const struct token *token)
{
    evaluation->uses_variables = 1;
    if (evaluation->variables == NULL || evaluation->variables->lookup == NULL)
        return NULL;
    const struct interpolation_definition *definition = evaluation->variables->lookup(
        evaluation->variables->context, evaluation->text + token->name_start,
        token->name_end - token->name_start);
    /* A value of the project that itself used an unset variable ("A=${B}"
     * in .env): whatever this value makes of it, the deploy environment
     * decides it. */
    if (definition != NULL && definition->has_value &&
        definition->status == INTERPOLATION_UNSET && evaluation->unset_name == NULL &&
        definition->unset_name != NULL) {
        evaluation->unset_name = definition->unset_name;
        evaluation->unset_name_length = strlen(definition->unset_name);
        evaluation->unset_through = definition;
    }
    return definition;
}

static int evaluate(struct evaluation *evaluation, size_t start, size_t end,
                    unsigned depth, const struct owner *owner);

/* The operand of a default or alternative, as text owned by that variable. */
static int evaluate_operand(struct evaluation *evaluation, const struct token *token,
                            unsigned depth, enum interpolation_part_kind kind,
                            const struct interpolation_definition *definition)
{
    struct owner owner = {
        kind, evaluation->text + token->name_start, token->name_end - token->name_start,
        definition,
    };
    size_t parts_before = evaluation->part_count;
    if (evaluate(evaluation, token->body_start, token->body_end, depth + 1, &owner) != 0)
        return -1;
    /* An empty default still decided the text: keep a part that says so. */
    if (evaluation->part_count == parts_before)
        return add_part(evaluation, kind, 0, token->start, token->end - token->start, &owner);
    return 0;
}

/* "${X:?message}" with X missing: the message is interpolated too (and
 * may fail on its own). */
static int required_missing(struct evaluation *evaluation, const struct token *token,
                            unsigned depth, int is_set)
{
    struct evaluation message = {
        .text = evaluation->text, .length = evaluation->length,
        .max_length = evaluation->max_length, .variables = evaluation->variables,
        .budget = evaluation->budget,
    };
    struct owner owner = { INTERPOLATION_PART_TEXT, NULL, 0, NULL };
    int status = evaluate(&message, token->body_start, token->body_end, depth + 1, &owner);
    if (status != 0) {
        fail(evaluation, message.error, message.error_offset, message.error_message);
        message.error_message = NULL;
    } else {
        char *reason = interpolation_excerpt(message.out.bytes, message.out.length,
                                             EXCERPT_MAX);
        int name_length = (int)(token->name_end - token->name_start);
        const char *name = evaluation->text + token->name_start;
        evaluation->required_name = name;
        evaluation->required_name_length = (size_t)name_length;
        fail(evaluation, INTERPOLATION_ERROR_REQUIRED, token->start,
             xasprintf("variable %.*s is required and %s, so Compose refuses to start%s%s",
                       name_length, name, is_set ? "empty" : "unset",
                       message.out.length > 0 ? ": " : "", reason));
        free(reason);
    }
    text_buffer_release(&message.out);
    free(message.parts);
    return -1;
}

static int evaluate_expression(struct evaluation *evaluation, const struct token *token,
                               unsigned depth)
{
    size_t source_length = token->end - token->start;
    struct owner owner = {
        INTERPOLATION_PART_VALUE, evaluation->text + token->name_start,
        token->name_end - token->name_start, NULL,
    };
    if (charge(evaluation, owner.name_length + token->walked, token->start) != 0)
        return -1;
    const struct interpolation_definition *definition = lookup(evaluation, token);
    owner.definition = definition;
    int is_set = definition != NULL && definition->has_value;
    int is_empty = is_set && definition->value_length == 0;
    int missing = !is_set || (token->colon && is_empty);
    switch (token->operator_kind) {
    case OPERATOR_DEFAULT:
        if (missing)
            return evaluate_operand(evaluation, token, depth, INTERPOLATION_PART_DEFAULT,
                                    definition);
        break;
    case OPERATOR_ALTERNATIVE:
        if (!missing)
            return evaluate_operand(evaluation, token, depth, INTERPOLATION_PART_ALTERNATIVE,
                                    definition);
        /* compose-go returns the variable's value here: "" either way. */
        return emit(evaluation, INTERPOLATION_PART_NO_ALTERNATIVE, "", 0, token->start,
                    source_length, &owner);
    case OPERATOR_REQUIRED:
        if (missing)
            return required_missing(evaluation, token, depth, is_set);
        break;
    case OPERATOR_NONE:
        if (!is_set) {
            if (evaluation->unset_name == NULL) {
                evaluation->unset_name = owner.name;
                evaluation->unset_name_length = owner.name_length;
                evaluation->unset_through = NULL;
            }
            return emit(evaluation, INTERPOLATION_PART_UNSET, "", 0, token->start,
                        source_length, &owner);
        }
        break;
    }
    return emit(evaluation, INTERPOLATION_PART_VALUE, definition->value,
                definition->value_length, token->start, source_length, &owner);
}

/* Resolves text[start, end) - the whole value, or an operand read as a
 * value of its own, as compose-go reads it - appending to the result. */
static int evaluate(struct evaluation *evaluation, size_t start, size_t end,
                    unsigned depth, const struct owner *owner)
{
    if (depth > INTERPOLATION_MAX_DEPTH)
        return fail(evaluation, INTERPOLATION_ERROR_DEPTH, start,
                    xasprintf("interpolations nest more than %d levels deep; not checked",
                              INTERPOLATION_MAX_DEPTH));
    if (charge(evaluation, end - start, start) != 0)
        return -1;
    const char *text = evaluation->text;
    enum interpolation_part_kind text_kind = owner->kind;
    size_t literal = start, at = start;
    while (at < end) {
        const char *dollar = memchr(text + at, '$', end - at);
        if (dollar == NULL)
            break;
        at = (size_t)(dollar - text);
        struct token token;
        lex(text, end, at, &token);
        if (token.kind == TOKEN_TEXT) {
            at++;
            continue;
        }
        if (at > literal &&
            emit(evaluation, text_kind, text + literal, at - literal, literal, at - literal,
                 owner) != 0)
            return -1;
        int status = 0;
        switch (token.kind) {
        case TOKEN_ESCAPE: {
            static const struct owner nobody = { INTERPOLATION_PART_ESCAPE, NULL, 0, NULL };
            status = emit(evaluation, INTERPOLATION_PART_ESCAPE, "$", 1, at, 2, &nobody);
            break;
        }
        case TOKEN_NAMED:
        case TOKEN_BRACED:
            status = evaluate_expression(evaluation, &token, depth);
            break;
        default: {
            char *quoted = interpolation_excerpt(text + at, evaluation->length - at,
                                                 EXCERPT_MAX);
            status = fail(evaluation, INTERPOLATION_ERROR_SYNTAX, at,
                          xasprintf("invalid interpolation '%s' (Compose refuses the value)",
                                    quoted));
            free(quoted);
            break;
        }
        }
        if (status != 0)
            return -1;
        at = literal = token.end;
    }
    if (end > literal)
        return emit(evaluation, text_kind, text + literal, end - literal, literal,
                    end - literal, owner);
    return 0;
}

enum interpolation_status compose_interpolate(const char *text, size_t length,
                                              const struct interpolation_variables *variables,
                                              struct interpolation_budget *budget,
                                              struct interpolation_result *result)
{
    memset(result, 0, sizeof(*result));
    struct evaluation evaluation = {
        .text = text != NULL ? text : "", .length = text != NULL ? length : 0,
        .max_length = INTERPOLATION_MAX_LENGTH, .variables = variables, .budget = budget,
    };
    if (evaluation.length > evaluation.max_length)
        evaluation.max_length = evaluation.length;
    struct owner owner = { INTERPOLATION_PART_TEXT, NULL, 0, NULL };
    /* Every value costs something, so that an exhausted budget fails
     * empty values too. */
    int status = charge(&evaluation, 1, 0);
    if (status == 0)
        status = evaluate(&evaluation, 0, evaluation.length, 0, &owner);
    if (status != 0) {
        text_buffer_release(&evaluation.out);
        free(evaluation.parts);
        result->status = INTERPOLATION_ERROR;
        result->error = evaluation.error;
        result->error_offset = evaluation.error_offset;
        result->error_message = evaluation.error_message;
        if (evaluation.error == INTERPOLATION_ERROR_REQUIRED) {
            result->unset_name = evaluation.required_name;
            result->unset_name_length = evaluation.required_name_length;
        }
        return result->status;
    }
    result->text = text_buffer_take(&evaluation.out, &result->length);
    result->parts = evaluation.parts;
    result->part_count = evaluation.part_count;
    if (evaluation.unset_name != NULL) {
        result->status = INTERPOLATION_UNSET;
        result->unset_name = evaluation.unset_name;
        result->unset_name_length = evaluation.unset_name_length;
        result->unset_through = evaluation.unset_through;
    } else {
        result->status = evaluation.uses_variables ? INTERPOLATION_RESOLVED
                                                   : INTERPOLATION_FIXED;
    }
    return result->status;
}

void interpolation_result_release(struct interpolation_result *result)
{
    if (result == NULL)
        return;
    free(result->text);
    free(result->parts);
    free(result->error_message);
    memset(result, 0, sizeof(*result));
}

/* --- describe ------------------------------------------------------------ */

/* How many distinct facts a description lists before "...". */
#define DESCRIBE_MAX 6

static void add_where(struct text_buffer *sentence,
                      const struct interpolation_definition *definition)
{
    if (definition == NULL || definition->file == NULL)
        return;
    char *where = xasprintf(" %s:%u", definition->file, definition->line);
    text_buffer_add_string(sentence, where);
    free(where);
}

static void describe_part(struct text_buffer *sentence, const struct interpolation_part *part)
{
    const struct interpolation_definition *definition = part->definition;
    int is_set = definition != NULL && definition->has_value;
    switch (part->kind) {
    case INTERPOLATION_PART_ESCAPE:
        text_buffer_add_string(sentence, "'$$' written for '$'");
        return;
    case INTERPOLATION_PART_VALUE:
        text_buffer_add(sentence, part->name, part->name_length);
        text_buffer_add_string(sentence, definition->file != NULL ? " from" : " as set");
        add_where(sentence, definition);
        return;
    case INTERPOLATION_PART_DEFAULT:
        text_buffer_add_string(sentence, "the default of ");
        text_buffer_add(sentence, part->name, part->name_length);
        text_buffer_add_string(sentence, is_set ? ", which is empty in" : ", which is unset");
        if (is_set)
            add_where(sentence, definition);
        return;
    case INTERPOLATION_PART_ALTERNATIVE:
        text_buffer_add_string(sentence, "the alternative of ");
        text_buffer_add(sentence, part->name, part->name_length);
        text_buffer_add_string(sentence, ", which is set in");
        add_where(sentence, definition);
        return;
    case INTERPOLATION_PART_NO_ALTERNATIVE:
        text_buffer_add(sentence, part->name, part->name_length);
        text_buffer_add_string(sentence, is_set ? " is empty in" : " is unset");
        if (is_set)
            add_where(sentence, definition);
        text_buffer_add_string(sentence, ", so its alternative is not used");
        return;
    case INTERPOLATION_PART_UNSET:
        text_buffer_add(sentence, part->name, part->name_length);
        text_buffer_add_string(sentence, " is unset");
        if (definition != NULL && definition->file != NULL) {
            text_buffer_add_string(sentence, " (listed without a value in");
            add_where(sentence, definition);
            text_buffer_add_string(sentence, ")");
        }
        return;
    case INTERPOLATION_PART_TEXT:
        return;
    }
}

static int same_fact(const struct interpolation_part *a, const struct interpolation_part *b)
{
    return a->kind == b->kind && a->definition == b->definition &&
           a->name_length == b->name_length &&
           (a->name_length == 0 || memcmp(a->name, b->name, a->name_length) == 0);
}

char *interpolation_describe(const struct interpolation_result *result)
{
    struct text_buffer sentence = TEXT_BUFFER_INIT;
    const struct interpolation_part *listed[DESCRIBE_MAX];
    size_t listed_count = 0;
    int more = 0;
    for (size_t i = 0; i < result->part_count; i++) {
        const struct interpolation_part *part = &result->parts[i];
        if (part->kind == INTERPOLATION_PART_TEXT)
            continue;
        int seen = 0;
        for (size_t j = 0; j < listed_count && !seen; j++)
            seen = same_fact(listed[j], part);
        if (seen)
            continue;
        if (listed_count == DESCRIBE_MAX) {
            more = 1;
            break;
        }
        if (listed_count > 0)
            text_buffer_add_string(&sentence, "; ");
        listed[listed_count++] = part;
        describe_part(&sentence, part);
    }
    if (more)
        text_buffer_add_string(&sentence, "; ...");
    if (result->status == INTERPOLATION_UNSET && result->unset_through != NULL) {
        text_buffer_add_string(&sentence, listed_count > 0 ? "; " : "");
        text_buffer_add(&sentence, result->unset_through->name,
                        result->unset_through->name_length);
        text_buffer_add_string(&sentence, " used ");
        text_buffer_add(&sentence, result->unset_name, result->unset_name_length);
        text_buffer_add_string(&sentence, ", which is unset");
    }
    return text_buffer_take(&sentence, NULL);
}
