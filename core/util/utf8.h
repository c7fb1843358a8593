/*
 * utf8.h - the one UTF-8 decoder of the core.
 *
 * RFC 3629 rules: no overlong forms, no surrogates, nothing above U+10FFFF.
 * Every reader (Compose files, TOML, the JSON and terminal writers) asks
 * this module whether bytes are UTF-8, so they can never disagree.
 */
#ifndef SANDLINT_UTF8_H
#define SANDLINT_UTF8_H

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

#endif
