/*
 * json_writer.h - JSON text for any bytes.
 */
#ifndef SANDLINT_JSON_WRITER_H
#define SANDLINT_JSON_WRITER_H

#include <stddef.h>
#include <stdio.h>

/* Writes a JSON string literal of length bytes of text.  Control
 * characters (DEL included) are escaped and every byte that is not part of
 * valid UTF-8 is written as U+FFFD, so the output is valid JSON whatever
 * text holds.  The '#' that starts "##[" is written \u0023: the string is
 * the same, but a CI log that shows the report holds no command of the
 * GitHub Actions runner's older syntax.  A NULL text writes null. */
void json_write_string(FILE *out, const char *text, size_t length);

/* json_write_string for a NUL-terminated string (NULL writes null). */
void json_write_cstring(FILE *out, const char *text);

/* Writes value, or null when value is 0 and zero_is_null. */
void json_write_unsigned(FILE *out, unsigned long long value, int zero_is_null);

#endif
