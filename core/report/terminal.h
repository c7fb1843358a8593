/*
 * terminal.h - the one way sandlint prints bytes that came from its input
 * (file names, YAML values, configuration text, plugin names) to a
 * terminal or a log: so that they are shown, never obeyed.
 *
 * Escaped: C0 controls and DEL (\x1b), C1 controls U+0080-U+009F and the
 * bidirectional controls U+061C, U+200E, U+200F, U+202A-U+202E and
 * U+2066-U+2069 (\u202e), and bytes that are not UTF-8 (\xff).  Every
 * other character is written as it is.
 */
#ifndef SANDLINT_TERMINAL_H
#define SANDLINT_TERMINAL_H

#include <stddef.h>
#include <stdio.h>

/* Writes length bytes of text, escaped. */
void terminal_write(FILE *out, const char *text, size_t length);

/* The escaped form of length bytes of text (malloc'd, NUL-terminated). */
char *terminal_escape(const char *text, size_t length);

/* printf to standard error, escaped (a final newline of format is kept as
 * a line end).  For every diagnostic that may quote input. */
void terminal_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
