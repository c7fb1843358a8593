/* toml_string.c - TOML strings: basic ("..."), literal ('...') and their
 * multi-line forms, with escapes decoded.  The whole input is known to be
 * UTF-8 before any of this runs. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>

#include "toml_parser.h"
#include "utf8.h"

/* Copies the character (not a newline) at the current offset to buffer. */
static void copy_character(struct parser *parser, struct byte_buffer *buffer)
{
    size_t start = parser->offset;
    parser_advance_character(parser);
    byte_buffer_add(buffer, parser->input + start, parser->offset - start);
}

/* \uXXXX or \UXXXXXXXX: the digits after the letter at the current offset. */
static void parse_unicode_escape(struct parser *parser, struct byte_buffer *buffer,
                                 struct toml_pos escape_pos, int letter)
{
    int digit_count = letter == 'u' ? 4 : 8;
    uint32_t code = 0;
    char found[48];
    parser_advance(parser, 1);
    for (int i = 0; i < digit_count; i++) {
        int digit = hex_digit_value(parser_peek(parser, 0));
        if (digit < 0)
            parser_fail_at(parser, escape_pos, "invalid unicode escape '\\%c': expected "
                           "%d hexadecimal digits, found %s", letter, digit_count,
                           parser_describe(parser, parser->offset, found, sizeof(found)));
        code = code * 16 + (uint32_t)digit;
        parser_advance(parser, 1);
    }
    unsigned char encoded[4];
    size_t length = utf8_encode(code, encoded);
    if (length == 0)
        parser_fail_at(parser, escape_pos, "invalid unicode escape '\\%c%0*X': not a "
                       "Unicode scalar value", letter, digit_count, (unsigned)code);
    byte_buffer_add(buffer, encoded, length);
}

/* At a backslash in a basic string: decodes one escape sequence. */
static void parse_escape(struct parser *parser, struct byte_buffer *buffer)
{
    struct toml_pos escape_pos = parser_here(parser);
    char found[48];
    parser_advance(parser, 1);
    int letter = parser_peek(parser, 0);
    char decoded;
    switch (letter) {
    case 'b': decoded = '\b'; break;
    case 't': decoded = '\t'; break;
    case 'n': decoded = '\n'; break;
    case 'f': decoded = '\f'; break;
    case 'r': decoded = '\r'; break;
    case '"': decoded = '"'; break;
    case '\\': decoded = '\\'; break;
    case 'u':
    case 'U':
        parse_unicode_escape(parser, buffer, escape_pos, letter);
        return;
    default:
        if (letter < 0)
            parser_fail_at(parser, escape_pos, "unterminated string: backslash at end "
                           "of file");
        if (letter > 0x20 && letter < 0x7F)
            parser_fail_at(parser, escape_pos, "invalid escape '\\%c'", letter);
        parser_fail_at(parser, escape_pos, "invalid escape: backslash followed by %s",
                       parser_describe(parser, parser->offset, found, sizeof(found)));
    }
    byte_buffer_add_byte(buffer, decoded);
    parser_advance(parser, 1);
}

/* Fails for a character that may not appear raw inside a string. */
static _Noreturn void fail_string_character(struct parser *parser, struct toml_pos start,
                                            bool literal)
{
    char found[48];
    if (parser_peek(parser, 0) < 0)
        parser_fail_at(parser, parser_here(parser), "unterminated string (opened at "
                       "%u:%u)", start.line, start.column);
    if (parser_newline_length(parser) > 0)
        parser_fail_at(parser, parser_here(parser), "unterminated string: newline before "
                       "the closing quote (string opened at %u:%u)", start.line,
                       start.column);
    parser_fail_at(parser, parser_here(parser), "%s is not allowed in a string%s",
                   parser_describe(parser, parser->offset, found, sizeof(found)),
                   literal ? "" : " (it must be escaped)");
}

void parse_basic_string(struct parser *parser, struct byte_buffer *buffer)
{
    struct toml_pos start = parser_here(parser);
    parser_advance(parser, 1);
    for (;;) {
        int c = parser_peek(parser, 0);
        if (c == '"') {
            parser_advance(parser, 1);
            return;
        }
        if (c == '\\') {
            parse_escape(parser, buffer);
            continue;
        }
        if (c < 0 || c == '\n' || is_control_character(c))
            fail_string_character(parser, start, false);
        copy_character(parser, buffer);
    }
}

void parse_literal_string(struct parser *parser, struct byte_buffer *buffer)
{
    struct toml_pos start = parser_here(parser);
    parser_advance(parser, 1);
    for (;;) {
        int c = parser_peek(parser, 0);
        if (c == '\'') {
            parser_advance(parser, 1);
            return;
        }
        if (c < 0 || c == '\n' || is_control_character(c))
            fail_string_character(parser, start, true);
        copy_character(parser, buffer);
    }
}

/*
 * At a run of quote characters inside a multi-line string.  Up to two
 * quotes may end the content right before the closing delimiter
 * ("""a"""""" is 'a""'), so a run of three to five closes the string and
 * the quotes before the last three are content.  Returns whether the string
 * is closed; otherwise the run (one or two quotes) is content.
 */
static bool read_quote_run(struct parser *parser, struct byte_buffer *buffer, char quote)
{
    size_t run = 0;
    while (parser_peek(parser, run) == quote)
        run++;
    if (run < 3) {
        for (size_t i = 0; i < run; i++)
            byte_buffer_add_byte(buffer, quote);
        parser_advance(parser, run);
        return false;
    }
    if (run > 5)
        parser_fail_at(parser, pos_plus_columns(parser_here(parser), 5), "too many "
                       "consecutive %s in multi-line string: at most two may precede "
                       "the closing %s", quote == '"' ? "quotes" : "apostrophes",
                       quote == '"' ? "\"\"\"" : "'''");
    for (size_t i = 3; i < run; i++)
        byte_buffer_add_byte(buffer, quote);
    parser_advance(parser, run);
    return true;
}

/* After a backslash in a multi-line basic string: when only blanks follow
 * it to the end of the line, skips them and every blank and newline after
 * (a line-ending backslash).  Returns whether it did. */
static bool skip_line_ending_backslash(struct parser *parser)
{
    size_t ahead = 1;
    int c;
    while ((c = parser_peek(parser, ahead)) == ' ' || c == '\t')
        ahead++;
    if (!(c == '\n' || (c == '\r' && parser_peek(parser, ahead + 1) == '\n')))
        return false;
    parser_advance(parser, ahead);
    for (;;) {
        parser_skip_blanks(parser);
        size_t newline = parser_newline_length(parser);
        if (newline == 0)
            return true;
        parser_advance_newline(parser, newline);
    }
}

void parse_multiline_string(struct parser *parser, struct byte_buffer *buffer, char quote)
{
    struct toml_pos start = parser_here(parser);
    bool literal = quote == '\'';
    parser_advance(parser, 3);
    /* A newline right after the opening delimiter is not content. */
    size_t newline = parser_newline_length(parser);
    if (newline > 0)
        parser_advance_newline(parser, newline);
    for (;;) {
        int c = parser_peek(parser, 0);
        if (c == quote) {
            if (read_quote_run(parser, buffer, quote))
                return;
            continue;
        }
        if (c < 0)
            parser_fail_at(parser, parser_here(parser), "unterminated multi-line string "
                           "(opened at %u:%u)", start.line, start.column);
        newline = parser_newline_length(parser);
        if (newline > 0) {
            byte_buffer_add_byte(buffer, '\n');     /* CR LF reads as LF */
            parser_advance_newline(parser, newline);
            continue;
        }
        if (c == '\\' && !literal) {
            if (!skip_line_ending_backslash(parser))
                parse_escape(parser, buffer);
            continue;
        }
        if (c == '\r')
            parser_fail_at(parser, parser_here(parser), "carriage return (U+000D) not "
                           "followed by a line feed in multi-line string");
        if (is_control_character(c))
            fail_string_character(parser, start, literal);
        copy_character(parser, buffer);
    }
}
