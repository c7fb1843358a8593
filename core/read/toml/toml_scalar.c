/* toml_scalar.c - bare TOML values: booleans, integers (decimal, hex,
 * octal, binary), floats (inf and nan included) and the four date/time
 * kinds.  A value is first cut out as a token of the characters it may
 * hold, then read from the token, so a position inside it is the token's
 * plus an offset. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "toml_parser.h"
#include "xalloc.h"

/* A token cut out of the input: text (not NUL-terminated), its length and
 * where it starts. */
struct token {
    const char *text;
    size_t length;
    struct toml_pos pos;
};

static struct toml_pos token_pos(const struct token *token, size_t offset)
{
    return pos_plus_columns(token->pos, offset);
}

static int token_byte(const struct token *token, size_t offset)
{
    return offset < token->length ? (unsigned char)token->text[offset] : -1;
}

static bool token_is(const struct token *token, size_t offset, const char *word)
{
    size_t length = strlen(word);
    return token->length - offset == length &&
           memcmp(token->text + offset, word, length) == 0;
}

static bool is_token_character(int c)
{
    return is_bare_key_character(c) || c == '+' || c == '.' || c == ':';
}

/* ------------------------------------------------------------------ */
/* numbers                                                             */

/*
 * Scans digits of base with single underscores between them, from *at,
 * which the caller has checked holds a digit; appends the digits to digits
 * when it is not NULL.
 */
static void scan_digits(struct parser *parser, const struct token *token, size_t *at,
                        int base, struct byte_buffer *digits)
{
    for (;;) {
        int c = token_byte(token, *at);
        int value = hex_digit_value(c);
        if (value >= 0 && value < base) {
            if (digits != NULL)
                byte_buffer_add_byte(digits, (char)c);
            (*at)++;
            continue;
        }
        if (c != '_')
            return;
        int next = hex_digit_value(token_byte(token, *at + 1));
        if (next < 0 || next >= base)
            parser_fail_at(parser, token_pos(token, *at), "'_' in a number must be "
                           "between two digits");
        (*at)++;
    }
}

static struct toml_value *float_value(struct parser *parser, const struct token *token,
                                      double number)
{
    struct toml_value *value = value_new(parser, TOML_FLOAT, token->pos,
                                         parser->offset);
    value->as.floating = number;
    return value;
}

/* strtod() reads the decimal point of LC_NUMERIC; TOML's is always '.'. */
static double read_double(struct parser *parser, const char *text, struct toml_pos pos)
{
    const char *point = localeconv()->decimal_point;
    const char *dot = strchr(text, '.');
    char *localised = NULL;
    if (dot != NULL && point != NULL && strcmp(point, ".") != 0) {
        size_t before = (size_t)(dot - text);
        localised = xasprintf("%.*s%s%s", (int)before, text, point, dot + 1);
        text = localised;
    }
    errno = 0;
    double number = strtod(text, NULL);
    int range_error = errno;
    free(localised);
    if (range_error == ERANGE && isinf(number))
        parser_fail_at(parser, pos, "float out of range (larger than a 64-bit IEEE 754 "
                       "float)");
    return number;
}

/* 0x, 0o or 0b at offset at: an unsigned integer in that base. */
static struct toml_value *parse_prefixed_integer(struct parser *parser,
                                                 const struct token *token, size_t at,
                                                 bool signed_)
{
    char letter = token->text[at + 1];
    int base = letter == 'x' ? 16 : letter == 'o' ? 8 : 2;
    const char *name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
    const char *article = base == 8 ? "an" : "a";
    if (signed_)
        parser_fail_at(parser, token->pos, "a sign is not allowed on %s %s integer",
                       article, name);
    at += 2;
    int first = hex_digit_value(token_byte(token, at));
    if (first < 0 || first >= base)
        parser_fail_at(parser, token_pos(token, at), "expected %s %s digit after '0%c'",
                       article, name, letter);
    struct byte_buffer *digits = &parser->scratch;
    digits->length = 0;
    scan_digits(parser, token, &at, base, digits);
    if (at != token->length)
        parser_fail_at(parser, token_pos(token, at), "invalid character '%c' in %s "
                       "integer", token->text[at], name);
    uint64_t magnitude = 0;
    for (size_t i = 0; i < digits->length; i++) {
        uint64_t digit = (uint64_t)hex_digit_value((unsigned char)digits->bytes[i]);
        if (magnitude > ((uint64_t)INT64_MAX - digit) / (uint64_t)base)
            parser_fail_at(parser, token->pos, "integer out of range (does not fit in "
                           "64 bits)");
        magnitude = magnitude * (uint64_t)base + digit;
    }
    struct toml_value *value = value_new(parser, TOML_INTEGER, token->pos, parser->offset);
    value->as.integer = (int64_t)magnitude;
    return value;
}

static struct toml_value *decimal_integer(struct parser *parser, const struct token *token,
                                          const struct byte_buffer *digits, bool negative)
{
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t magnitude = 0;
    for (size_t i = negative ? 1 : 0; i < digits->length; i++) {
        unsigned digit = (unsigned)(digits->bytes[i] - '0');
        if (magnitude > (limit - digit) / 10)
            parser_fail_at(parser, token->pos, "integer out of range (64-bit signed "
                           "integers are -9223372036854775808 to "
                           "9223372036854775807)");
        magnitude = magnitude * 10 + digit;
    }
    struct toml_value *value = value_new(parser, TOML_INTEGER, token->pos, parser->offset);
    if (!negative)
        value->as.integer = (int64_t)magnitude;
    else if (magnitude == (uint64_t)INT64_MAX + 1)
        value->as.integer = INT64_MIN;
    else
        value->as.integer = -(int64_t)magnitude;
    return value;
}

static struct toml_value *parse_number(struct parser *parser, const struct token *token)
{
    size_t at = 0;
    bool negative = false, signed_ = false;
    if (token->text[0] == '+' || token->text[0] == '-') {
        signed_ = true;
        negative = token->text[0] == '-';
        at = 1;
    }
    if (token_is(token, at, "inf"))
        return float_value(parser, token, negative ? -HUGE_VAL : HUGE_VAL);
    if (token_is(token, at, "nan"))
        return float_value(parser, token, negative ? -NAN : NAN);
    int after_zero = token_byte(token, at + 1);
    if (token_byte(token, at) == '0' &&
        (after_zero == 'x' || after_zero == 'o' || after_zero == 'b'))
        return parse_prefixed_integer(parser, token, at, signed_);
    if (token_byte(token, at) == '0' &&
        (after_zero == 'X' || after_zero == 'O' || after_zero == 'B'))
        parser_fail_at(parser, token_pos(token, at + 1), "invalid character '%c' in "
                       "number (base prefixes are lowercase: 0x, 0o, 0b)", after_zero);
    if (!is_decimal_digit(token_byte(token, at))) {
        if (token_byte(token, at) == '.')
            parser_fail_at(parser, token_pos(token, at), "a float needs a digit before "
                           "the decimal point");
        if (at < token->length)
            parser_fail_at(parser, token_pos(token, at), "invalid number: expected a "
                           "digit after the sign, found '%c'", token->text[at]);
        parser_fail_at(parser, token->pos, "invalid number: expected a digit after the "
                       "sign");
    }
    bool is_float = false;
    for (size_t i = at; i < token->length; i++)
        if (token->text[i] == '.' || token->text[i] == 'e' || token->text[i] == 'E')
            is_float = true;
    if (token->text[at] == '0' &&
        (is_decimal_digit(token_byte(token, at + 1)) || token_byte(token, at + 1) == '_'))
        parser_fail_at(parser, token_pos(token, at), "leading zero in %s",
                       is_float ? "float" : "integer");

    /* The number without underscores, as strtod() reads it. */
    struct byte_buffer *digits = &parser->scratch;
    digits->length = 0;
    if (negative)
        byte_buffer_add_byte(digits, '-');
    scan_digits(parser, token, &at, 10, digits);
    if (token_byte(token, at) == '.') {
        byte_buffer_add_byte(digits, '.');
        at++;
        if (!is_decimal_digit(token_byte(token, at)))
            parser_fail_at(parser, token_pos(token, at), "expected a digit after the "
                           "decimal point");
        scan_digits(parser, token, &at, 10, digits);
    }
    if (token_byte(token, at) == 'e' || token_byte(token, at) == 'E') {
        byte_buffer_add_byte(digits, 'e');
        at++;
        if (token_byte(token, at) == '+' || token_byte(token, at) == '-')
            byte_buffer_add_byte(digits, token->text[at++]);
        if (!is_decimal_digit(token_byte(token, at)))
            parser_fail_at(parser, token_pos(token, at), "expected a digit in the "
                           "exponent");
        scan_digits(parser, token, &at, 10, digits);
    }
    if (at != token->length) {
        if (token->text[at] == '.')
            parser_fail_at(parser, token_pos(token, at), "unexpected '.' in number");
        parser_fail_at(parser, token_pos(token, at), "invalid character '%c' in number",
                       token->text[at]);
    }
    if (is_float)
        return float_value(parser, token, read_double(parser, digits->bytes, token->pos));
    return decimal_integer(parser, token, digits, negative);
}

/* ------------------------------------------------------------------ */
/* dates and times                                                     */

/* Two digits at offset at as a number, or -1. */
static int two_digits(const struct token *token, size_t at)
{
    if (!is_decimal_digit(token_byte(token, at)) ||
        !is_decimal_digit(token_byte(token, at + 1)))
        return -1;
    return (token->text[at] - '0') * 10 + (token->text[at + 1] - '0');
}

static int days_in_month(int year, int month)
{
    static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return month == 2 && leap ? 29 : days[month - 1];
}

/* HH:MM:SS[.fraction] at *at, appended to normalised.  A fraction is kept
 * with all its digits, padded to milliseconds as toml-test writes them. */
static void parse_time(struct parser *parser, const struct token *token, size_t *at,
                       struct byte_buffer *normalised)
{
    size_t start = *at;
    int hour = two_digits(token, start);
    if (hour < 0)
        parser_fail_at(parser, token_pos(token, start), "invalid time: expected a "
                       "2-digit hour");
    if (token_byte(token, start + 2) != ':')
        parser_fail_at(parser, token_pos(token, start + 2), "invalid time: expected ':' "
                       "after the hour");
    int minute = two_digits(token, start + 3);
    if (minute < 0)
        parser_fail_at(parser, token_pos(token, start + 3), "invalid time: expected a "
                       "2-digit minute");
    if (token_byte(token, start + 5) != ':')
        parser_fail_at(parser, token_pos(token, start + 5), "invalid time: expected ':' "
                       "and seconds after the minute (seconds are required in TOML 1.0)");
    int second = two_digits(token, start + 6);
    if (second < 0)
        parser_fail_at(parser, token_pos(token, start + 6), "invalid time: expected "
                       "2-digit seconds");
    if (hour > 23)
        parser_fail_at(parser, token_pos(token, start), "invalid time: hour %02d out of "
                       "range 00-23", hour);
    if (minute > 59)
        parser_fail_at(parser, token_pos(token, start + 3), "invalid time: minute %02d "
                       "out of range 00-59", minute);
    if (second > 60)
        parser_fail_at(parser, token_pos(token, start + 6), "invalid time: second %02d "
                       "out of range 00-60", second);
    byte_buffer_add(normalised, token->text + start, 8);
    *at = start + 8;
    if (token_byte(token, *at) != '.')
        return;
    (*at)++;
    size_t fraction = *at;
    while (is_decimal_digit(token_byte(token, *at)))
        (*at)++;
    if (*at == fraction)
        parser_fail_at(parser, token_pos(token, fraction), "invalid time: expected "
                       "digits after '.'");
    byte_buffer_add_byte(normalised, '.');
    byte_buffer_add(normalised, token->text + fraction, *at - fraction);
    for (size_t digits = *at - fraction; digits < 3; digits++)
        byte_buffer_add_byte(normalised, '0');
}

/* YYYY-MM-DD at the start of the token, appended to normalised. */
static void parse_date(struct parser *parser, const struct token *token,
                       size_t year_digits, struct byte_buffer *normalised)
{
    if (year_digits != 4)
        parser_fail_at(parser, token->pos, "invalid date: the year must have exactly 4 "
                       "digits");
    if (token_byte(token, 4) != '-')
        parser_fail_at(parser, token_pos(token, 4), "invalid date: expected '-' after "
                       "the year");
    int month = two_digits(token, 5);
    if (month < 0 || is_decimal_digit(token_byte(token, 7)))
        parser_fail_at(parser, token_pos(token, 5), "invalid date: expected a 2-digit "
                       "month");
    if (token_byte(token, 7) != '-')
        parser_fail_at(parser, token_pos(token, 7), "invalid date: expected '-' after "
                       "the month");
    int day = two_digits(token, 8);
    if (day < 0)
        parser_fail_at(parser, token_pos(token, 8), "invalid date: expected a 2-digit "
                       "day");
    int year = (token->text[0] - '0') * 1000 + (token->text[1] - '0') * 100 +
               (token->text[2] - '0') * 10 + (token->text[3] - '0');
    if (month < 1 || month > 12)
        parser_fail_at(parser, token_pos(token, 5), "invalid date: month %02d out of "
                       "range 01-12", month);
    if (day < 1 || day > days_in_month(year, month))
        parser_fail_at(parser, token_pos(token, 8), "invalid date: day %02d out of range "
                       "for %04d-%02d (01-%02d)", day, year, month,
                       days_in_month(year, month));
    byte_buffer_add(normalised, token->text, 10);
}

/* After a date-time's time: Z or +HH:MM / -HH:MM, if any.  Returns whether
 * there was an offset. */
static bool parse_offset(struct parser *parser, const struct token *token, size_t *at,
                         struct byte_buffer *normalised)
{
    int sign = token_byte(token, *at);
    if (sign == 'Z' || sign == 'z') {
        byte_buffer_add_byte(normalised, 'Z');
        (*at)++;
        return true;
    }
    if (sign != '+' && sign != '-')
        return false;
    int hour = two_digits(token, *at + 1), minute = two_digits(token, *at + 4);
    if (hour < 0 || token_byte(token, *at + 3) != ':' || minute < 0 ||
        is_decimal_digit(token_byte(token, *at + 6)))
        parser_fail_at(parser, token_pos(token, *at), "invalid time offset: expected "
                       "%cHH:MM", sign);
    if (hour > 23)
        parser_fail_at(parser, token_pos(token, *at + 1), "invalid time offset: hour "
                       "%02d out of range 00-23", hour);
    if (minute > 59)
        parser_fail_at(parser, token_pos(token, *at + 4), "invalid time offset: minute "
                       "%02d out of range 00-59", minute);
    byte_buffer_add(normalised, token->text + *at, 6);
    *at += 6;
    return true;
}

/* A date, date-time or time token (all ASCII). */
static struct toml_value *parse_datetime(struct parser *parser, const struct token *token)
{
    struct byte_buffer *normalised = &parser->scratch;
    enum toml_kind kind;
    size_t at = 0, year_digits = 0;
    normalised->length = 0;
    while (is_decimal_digit(token_byte(token, year_digits)))
        year_digits++;
    if (token_byte(token, year_digits) == ':') {
        parse_time(parser, token, &at, normalised);
        kind = TOML_LOCAL_TIME;
    } else {
        parse_date(parser, token, year_digits, normalised);
        at = 10;
        kind = TOML_LOCAL_DATE;
        if (at < token->length) {
            int separator = token->text[at];
            if (separator != 'T' && separator != 't' && separator != ' ') {
                if (is_decimal_digit(separator))
                    parser_fail_at(parser, token_pos(token, at), "invalid date-time: "
                                   "expected 'T' or a space between the date and the "
                                   "time");
                parser_fail_at(parser, token_pos(token, at), "invalid date: unexpected "
                               "'%c' after the date", separator);
            }
            at++;
            if (at == token->length)
                parser_fail_at(parser, token_pos(token, at), "invalid date-time: "
                               "expected a time after '%c'", separator);
            byte_buffer_add_byte(normalised, 'T');
            parse_time(parser, token, &at, normalised);
            kind = parse_offset(parser, token, &at, normalised) ? TOML_OFFSET_DATETIME
                                                                : TOML_LOCAL_DATETIME;
        }
    }
    if (at != token->length) {
        int c = token->text[at];
        if (kind == TOML_LOCAL_TIME && (c == 'Z' || c == 'z' || c == '+' || c == '-'))
            parser_fail_at(parser, token_pos(token, at), "a local time cannot have a time "
                           "offset");
        parser_fail_at(parser, token_pos(token, at), "invalid %s: unexpected '%c'",
                       toml_kind_name(kind), c);
    }
    struct toml_value *value = value_new(parser, kind, token->pos, parser->offset);
    value->as.string.text = xmemdup(normalised->bytes, normalised->length);
    value->as.string.length = normalised->length;
    return value;
}

/* ------------------------------------------------------------------ */
/* the bare value                                                      */

/* A word that is almost a keyword, for a better message than "must be
 * quoted": True, NaN, INF. */
static void fail_unquoted_word(struct parser *parser, const struct token *token)
{
    static const char *const keywords[] = { "true", "false", "inf", "nan" };
    char shown[80];
    parser_show_key(token->text, token->length, shown, sizeof(shown));
    for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++) {
        size_t length = strlen(keywords[k]);
        if (length != token->length)
            continue;
        size_t i = 0;
        while (i < length && (token->text[i] | 0x20) == keywords[k][i])
            i++;
        if (i == length)
            parser_fail_at(parser, token->pos, "invalid value '%s': '%s' must be written "
                           "in lowercase", shown, keywords[k]);
    }
    parser_fail_at(parser, token->pos, "invalid value '%s' (strings must be quoted)",
                   shown);
}

/* Whether a token that starts with a digit is a date or time: it holds ':'
 * or a '-' that is not an exponent's sign (prefixed integers never are). */
static bool looks_like_datetime(const struct token *token)
{
    int second = token_byte(token, 1);
    if (second == 'x' || second == 'o' || second == 'b')
        return false;
    for (size_t i = 1; i < token->length; i++) {
        char c = token->text[i], before = token->text[i - 1];
        if (c == ':' || (c == '-' && before != 'e' && before != 'E'))
            return true;
    }
    return false;
}

struct toml_value *parse_bare_value(struct parser *parser)
{
    struct token token = { (const char *)parser->input + parser->offset, 0,
                           parser_here(parser) };
    char found[48];
    while (is_token_character(parser_peek(parser, token.length)))
        token.length++;
    if (token.length == 0)
        parser_fail_at(parser, token.pos, "expected a value, found %s",
                       parser_describe(parser, parser->offset, found, sizeof(found)));
    /* A date, a space and a time are one value: 1979-05-27 07:32:00. */
    if (token.length == 10 && token.text[4] == '-' && token.text[7] == '-' &&
        parser_peek(parser, 10) == ' ' && is_decimal_digit(parser_peek(parser, 11)) &&
        is_decimal_digit(parser_peek(parser, 12))) {
        token.length = 11;
        while (is_token_character(parser_peek(parser, token.length)))
            token.length++;
    }
    struct toml_value *value;
    size_t start = parser->offset;
    if (token_is(&token, 0, "true") || token_is(&token, 0, "false")) {
        value = value_new(parser, TOML_BOOLEAN, token.pos, start);
        value->as.boolean = token.text[0] == 't';
    } else {
        if (token.text[0] == '.' && is_decimal_digit(token_byte(&token, 1)))
            parser_fail_at(parser, token.pos, "a float needs a digit before the decimal "
                           "point");
        bool number_start = is_decimal_digit(token.text[0]) || token.text[0] == '+' ||
                            token.text[0] == '-' || token_is(&token, 0, "inf") ||
                            token_is(&token, 0, "nan");
        if (!number_start)
            fail_unquoted_word(parser, &token);
        if (is_decimal_digit(token.text[0]) && looks_like_datetime(&token))
            value = parse_datetime(parser, &token);
        else
            value = parse_number(parser, &token);
    }
    value->span.start = start;
    value->span.end = start + token.length;
    parser_advance(parser, token.length);
    return value;
}
