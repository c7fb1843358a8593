/*
 * toml_write.h - writing TOML text: keys and basic strings, for the
 * allowlist editor and for hints that show a TOML entry to paste.
 */
#ifndef SANDLINT_TOML_WRITE_H
#define SANDLINT_TOML_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "text_buffer.h"

/* Appends bytes as a TOML basic string, with escapes for quotes,
 * backslashes, controls and what would hide or reorder text for a reviewer
 * (bidi controls, line and paragraph separators, BOM); false (and partial
 * output) when the bytes are not UTF-8, which no TOML string can hold. */
bool toml_write_string(struct text_buffer *out, const char *bytes, size_t length);

/* Appends a key: bare when it can be, else a basic string. */
bool toml_write_key(struct text_buffer *out, const char *bytes, size_t length);

#endif
