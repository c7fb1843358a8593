/*
 * result_codec.h - one file's results as bytes, between a worker process
 * and the coordinator.
 *
 * A worker runs third-party plugin code on untrusted input, so the
 * coordinator treats what it sends as hostile: every length, enumeration,
 * rule index, comment index and string is checked, and anything malformed
 * is refused as a whole.  The file's name and package never cross: the
 * coordinator knows which file it asked for.
 *
 * A result travels as chunks of findings (each a self-contained payload, so
 * no single message grows with the number of findings) and one closing
 * payload with the counters and the suppression comments.
 */
#ifndef SANDLINT_RESULT_CODEC_H
#define SANDLINT_RESULT_CODEC_H

#include <stddef.h>

#include "byte_buffer.h"
#include "file_result.h"

/* A chunk is closed once its payload reaches this many bytes (a single
 * finding larger than that travels alone). */
#define CODEC_CHUNK_BYTES (256u * 1024)

/* Largest payload the coordinator accepts: the largest finding a set
 * holds, with room for the numbers around it. */
#define CODEC_MAX_PAYLOAD (FINDING_SET_MAX_BYTES + 64u * 1024)
/* Largest sum of the chunk payloads of one file: its finding text plus the
 * numbers of at most FINDING_SET_MAX_COUNT + 1 findings. */
#define CODEC_MAX_FILE_BYTES (FINDING_SET_MAX_BYTES + 2u * 1024 * 1024)

/* Appends the payload of a chunk holding findings[0..count) to out. */
void codec_encode_findings(const struct finding *findings, size_t count,
                           struct byte_buffer *out);

/* Appends the closing payload of result (counters and comments) to out. */
void codec_encode_end(const struct file_result *result, struct byte_buffer *out);

/*
 * Decodes a chunk's payload and appends its findings to into->findings.
 * rule_count bounds rule indices.  The file's findings (all chunks) may not
 * exceed the set's limits (FINDING_SET_MAX_COUNT plus its truncation
 * error).  Returns 0, or -1 with *reason set to a static description of
 * what is malformed (into keeps the findings of earlier chunks).
 */
int codec_decode_findings(const unsigned char *data, size_t length,
                          size_t rule_count, struct file_result *into,
                          const char **reason);

/*
 * Decodes the closing payload into into (counters, flags, comments) and
 * checks that every finding's comment index names one of the comments.
 * Returns 0, or -1 with *reason set.
 */
int codec_decode_end(const unsigned char *data, size_t length,
                     struct file_result *into, const char **reason);

#endif
