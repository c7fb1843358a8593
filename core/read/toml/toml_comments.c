/* toml_comments.c - where a TOML text's comments are (see toml.h). */
#include "config.h"

#include "toml.h"

#include <stdbool.h>
#include <string.h>

#include "source.h"

/* Whether text at at starts with the three bytes of quote (""" or '''). */
static bool triple(const char *text, size_t length, size_t at, char quote)
{
    return at + 2 < length && text[at] == quote && text[at + 1] == quote &&
           text[at + 2] == quote;
}

void toml_comments(const char *text, size_t length, struct comment_list *comments)
{
    unsigned line = 1, column = 1;
    bool line_has_content = false;
    size_t at = 0;
    while (at < length) {
        char c = text[at];
        if (c == '\n') {
            line_has_content = false;
            at = source_step(text, length, at, &line, &column);
            continue;
        }
        if (c == '#') {
            struct comment_span span;
            memset(&span, 0, sizeof(span));
            span.offset = at;
            span.text_offset = at + 1;
            span.line = line;
            span.column = column;
            span.own_line = !line_has_content;
            while (at < length && text[at] != '\n' && text[at] != '\r')
                at = source_step(text, length, at, &line, &column);
            span.length = at - span.offset;
            span.text_length = at - span.text_offset;
            span.end_line = line;
            span.end_column = column;
            comment_list_add(comments, &span);
            continue;
        }
        if (c != ' ' && c != '\t' && c != '\r')
            line_has_content = true;
        if (c == '"' || c == '\'') {
            /* A string: a '#' inside is text.  Basic strings take
             * backslash escapes; literal ones do not. */
            bool multi = triple(text, length, at, c);
            size_t quote_length = multi ? 3 : 1;
            for (size_t i = 0; i < quote_length; i++)
                at = source_step(text, length, at, &line, &column);
            while (at < length) {
                if (c == '"' && text[at] == '\\' && at + 1 < length) {
                    at = source_step(text, length, at, &line, &column);
                    at = source_step(text, length, at, &line, &column);
                    continue;
                }
                if (!multi && (text[at] == '\n' || text[at] == c)) {
                    if (text[at] == c)
                        at = source_step(text, length, at, &line, &column);
                    break;
                }
                if (multi && triple(text, length, at, c)) {
                    for (size_t i = 0; i < 3; i++)
                        at = source_step(text, length, at, &line, &column);
                    break;
                }
                at = source_step(text, length, at, &line, &column);
            }
            continue;
        }
        at = source_step(text, length, at, &line, &column);
    }
}
