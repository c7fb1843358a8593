/*
 * terminal.h - the one way sandlint prints bytes that came from its input
 * (file names, YAML values, configuration text, plugin names) to a
 * terminal or a log: so that they are shown, never obeyed.
 *
 * Escaped: C0 controls and DEL (\x1b), C1 controls U+0080-U+009F, the
 * bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E and
 * U+2066-U+2069 (\u202e), the line and paragraph separators and the byte
 * order mark (utf8_is_hidden_control), bytes that are not UTF-8 (\xff),
 * and the '#' that starts "##[" (\x23), which the GitHub Actions runner
 * reads as a command anywhere in a line of its log.  Every other
 * character is written as it is.
 *
 * Log readers obey more than terminals do: the runner also takes a line
 * that starts with "::" (after blanks) as a workflow command.  Escaped
 * text holds no line break, so only what starts a line matters: text
 * output starts a line with input only through terminal_write_line_start,
 * and terminal_error escapes the first ':' of such a line (\x3a).
 */
#ifndef SANDLINT_TERMINAL_H
#define SANDLINT_TERMINAL_H

#include <stddef.h>
#include <stdio.h>

/* Writes length bytes of text, escaped. */
void terminal_write(FILE *out, const char *text, size_t length);

/* The escaped form of length bytes of text (malloc'd, NUL-terminated). */
char *terminal_escape(const char *text, size_t length);

/* Writes length bytes of text, escaped, at the start of a line: when the
 * line would start with "::" after blanks (a workflow command), guard (a
 * prefix that keeps the meaning, such as "./" before a path) first. */
void terminal_write_line_start(FILE *out, const char *text, size_t length,
                               const char *guard);

/* printf to standard error, escaped (a final newline of format is kept as
 * a line end).  For every diagnostic that may quote input. */
void terminal_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
