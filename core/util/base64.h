/*
 * base64.h - the standard base64 alphabet (RFC 4648 section 4) decoded,
 * as YAML's !!binary scalars are: the tools sandlint stands in for
 * (compose-go's yaml.v3, the Kubernetes YAML readers) hand a setting
 * written "privileged: !!binary dHJ1ZQ==" to the engine as "true".
 */
#ifndef SANDLINT_BASE64_H
#define SANDLINT_BASE64_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Decodes length bytes of text into out, which must hold at least
 * length / 4 * 3 + 3 bytes; white space (space, tab, CR, LF) between the
 * characters is skipped, as YAML's binary type allows.  Padding '=' is
 * optional at the end and nowhere else.  Returns true and the decoded size
 * in *decoded, or false for text that is not base64 (then out holds
 * nothing meaningful).
 */
bool base64_decode(const char *text, size_t length, unsigned char *out, size_t *decoded);

#endif
