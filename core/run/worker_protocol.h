/*
 * worker_protocol.h - the bytes on the pipes between the coordinator and a
 * worker process: tasks one way, result frames the other.
 *
 * A task names one file to check.  A file's results come back as frames:
 * any number of FINDINGS frames (chunks of at most about
 * CODEC_CHUNK_BYTES), then one END frame.  Every frame carries the file's
 * number, so the coordinator can check that a worker answers the file it
 * was given, in order.  The payloads are result_codec.h's; what a worker
 * sends is hostile and checked there.
 */
#ifndef SANDLINT_WORKER_PROTOCOL_H
#define SANDLINT_WORKER_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "byte_buffer.h"
#include "discover.h"
#include "file_result.h"

/* Longest path accepted in a task (both sides check it): discovery stops
 * at 1000 directory levels of at most 255 bytes. */
#define PROTOCOL_MAX_PATH (1024 * 1024)
/* Most bytes of text a task carries (standard input, read by the
 * coordinator up to --max-file-size). */
#define PROTOCOL_MAX_CONTENT (1u << 30)

/* Appends the task of checking file (number: its place in the run). */
void protocol_put_task(struct byte_buffer *out, uint32_t number,
                       const struct discovered_file *file);

/*
 * Takes the next complete task out of in, from *at, into *file (whose
 * strings the caller then owns: discovered_file_release).  Returns 1 and
 * advances *at, 0 when more bytes are needed, -1 when the task is
 * malformed.
 */
int protocol_take_task(const struct byte_buffer *in, size_t *at,
                       uint32_t *number, struct discovered_file *file);

enum frame_kind {
    FRAME_FINDINGS = 1,         /* a chunk of findings */
    FRAME_END = 2               /* counters and comments; the file is done */
};

/* Appends the frames of a file's whole result. */
void protocol_put_result(struct byte_buffer *out, uint32_t number,
                         const struct file_result *result);

/* A frame received; payload points into the buffer it was read from. */
struct frame {
    uint32_t number;
    uint32_t kind;              /* enum frame_kind */
    const unsigned char *payload;
    size_t length;
};

/*
 * The next complete frame of in from *at.  Returns 1 and advances *at, 0
 * when more bytes are needed, -1 with *reason set when the header is
 * malformed (unknown kind, payload over CODEC_MAX_PAYLOAD).
 */
int protocol_next_frame(const struct byte_buffer *in, size_t *at,
                        struct frame *frame, const char **reason);

#endif
