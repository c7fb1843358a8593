/*
 * utf8.h - the one UTF-8 decoder of the core.
 *
 * RFC 3629 rules: no overlong forms, no surrogates, nothing above U+10FFFF.
 * Every reader (Compose files, TOML, the JSON and terminal writers) asks
 * this module whether bytes are UTF-8, so they can never disagree.
 */
#ifndef SANDLINT_UTF8_H
#define SANDLINT_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length (1..4) of the valid UTF-8 sequence at the start of the
 * available bytes at p, or 0 when they do not start with one (available
 * must be at least 1).  *code (when not NULL) receives the code point.
 */
size_t utf8_decode(const unsigned char *p, size_t available, uint32_t *code);

/* Writes code (at most U+10FFFF, not a surrogate) as 1..4 bytes to out and
 * returns how many; 0 for a code point that cannot be encoded. */
size_t utf8_encode(uint32_t code, unsigned char out[4]);

/*
 * Whether a code point changes how text is shown or ordered rather than
 * being shown: C0 controls, DEL, C1 controls, the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the line and
 * paragraph separators (U+2028, U+2029) and the byte order mark (U+FEFF).
 * One list for every writer: the terminal escapes them, the TOML writer
 * escapes them, the INI writer refuses them - so a reviewer reads the
 * same text whatever sandlint wrote.
 */
bool utf8_is_hidden_control(uint32_t code);

#endif
