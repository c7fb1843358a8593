/*
 * result_codec.h - one file's results on the wire between a worker process
 * and the coordinator.
 *
 * A worker runs third-party plugin code on untrusted input, so the
 * coordinator treats what it sends as hostile: every length, enumeration,
 * rule index and string is checked, and anything malformed is refused as a
 * whole.
 */
#ifndef SANDLINT_RESULT_CODEC_H
#define SANDLINT_RESULT_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "finding.h"

/* What the coordinator keeps of one checked file. */
struct file_result {
    struct finding_list findings;   /* owned */
    size_t services;
    bool plugin_failed;             /* a plugin failed, crashed or hung */
    bool incomplete;                /* not (completely) checked */
};

void file_result_init(struct file_result *result);
void file_result_release(struct file_result *result);
/* Moves a file_check's results into result. */
void file_result_take(struct file_result *result, struct file_check *check);

/* A growable byte buffer (malloc-owned data). */
struct byte_buffer {
    unsigned char *data;
    size_t length, capacity;
};

void byte_buffer_release(struct byte_buffer *buffer);
void byte_buffer_append(struct byte_buffer *buffer, const void *data,
                        size_t length);

/* Largest encoded result the coordinator accepts. */
#define CODEC_MAX_PAYLOAD (256u * 1024 * 1024)

/* Appends the encoding of check's findings and counters to out. */
void codec_encode(const struct file_check *check, struct byte_buffer *out);

/*
 * Decodes length bytes into *out (initialised here), giving every finding
 * the file and package given.  Returns 0, or -1 with *reason set to a
 * static description when the data is malformed in any way (out is then
 * empty).
 */
int codec_decode(const unsigned char *data, size_t length, size_t rule_count,
                 const char *file, const char *package,
                 struct file_result *out, const char **reason);

#endif
