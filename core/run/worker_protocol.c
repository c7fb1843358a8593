/* worker_protocol.c - tasks and result frames (see worker_protocol.h). */
#include "config.h"

#include "worker_protocol.h"

#include <string.h>

#include "result_codec.h"
#include "xalloc.h"

#define NO_STRING UINT32_MAX

/* A task: its header, then relative, display, package and content
 * bytes.  The file is opened as relative from base_fd, a descriptor of the
 * walk that the worker inherited when it was forked (discover.h), unless
 * the task carries the content itself (standard input). */
struct task_header {
    uint32_t number;
    int32_t base_fd;
    uint32_t relative_length;       /* NO_STRING: no relative path */
    uint32_t display_length;
    uint32_t package_length;        /* NO_STRING: no package */
    uint32_t content_length;        /* NO_STRING: open the file */
    uint32_t candidates;            /* discovered_file.candidates */
    uint32_t context_length;        /* NO_STRING: the file's own context */
};

/* A frame: its header, then length bytes of payload. */
struct frame_header {
    uint32_t number;
    uint32_t kind;
    uint32_t length;
};

/* The length of a string that goes whole into a task, or 0: a longer one
 * is sent empty - never shortened into another name - and the file then
 * fails to open, an ordinary unreadable file rather than a malformed
 * task. */
static uint32_t sent_length(const char *text)
{
    size_t length = strlen(text);
    return length > PROTOCOL_MAX_PATH ? 0 : (uint32_t)length;
}

void protocol_put_task(struct byte_buffer *out, uint32_t number,
                       const struct discovered_file *file)
{
    struct task_header header = {
        number, file->base_fd,
        file->relative ? sent_length(file->relative) : NO_STRING,
        sent_length(file->display),
        file->package ? sent_length(file->package) : NO_STRING,
        file->content ? (uint32_t)file->content_length : NO_STRING,
        file->candidates,
        file->context != NULL && file->context_length <= PROTOCOL_MAX_CONTENT
            ? (uint32_t)file->context_length : NO_STRING,
    };
    byte_buffer_append(out, &header, sizeof(header));
    if (file->relative != NULL)
        byte_buffer_append(out, file->relative, header.relative_length);
    byte_buffer_append(out, file->display, header.display_length);
    if (file->package != NULL)
        byte_buffer_append(out, file->package, header.package_length);
    if (file->content != NULL)
        byte_buffer_append(out, file->content, file->content_length);
    if (header.context_length != NO_STRING)
        byte_buffer_append(out, file->context, header.context_length);
}

int protocol_take_task(const struct byte_buffer *in, size_t *at,
                       uint32_t *number, struct discovered_file *file)
{
    struct task_header header;
    if (in->length - *at < sizeof(header))
        return 0;
    memcpy(&header, in->data + *at, sizeof(header));
    if ((header.relative_length > PROTOCOL_MAX_PATH && header.relative_length != NO_STRING) ||
        header.display_length > PROTOCOL_MAX_PATH ||
        (header.package_length > PROTOCOL_MAX_PATH && header.package_length != NO_STRING) ||
        (header.content_length > PROTOCOL_MAX_CONTENT && header.content_length != NO_STRING) ||
        (header.context_length > PROTOCOL_MAX_CONTENT && header.context_length != NO_STRING))
        return -1;
    size_t relative = header.relative_length == NO_STRING ? 0 : header.relative_length;
    size_t package = header.package_length == NO_STRING ? 0 : header.package_length;
    size_t content = header.content_length == NO_STRING ? 0 : header.content_length;
    size_t context = header.context_length == NO_STRING ? 0 : header.context_length;
    size_t size = sizeof(header) + relative + header.display_length + package + content +
                  context;
    if (in->length - *at < size)
        return 0;
    const char *bytes = (const char *)in->data + *at + sizeof(header);
    memset(file, 0, sizeof(*file));
    file->base_fd = header.base_fd;
    file->candidates = header.candidates;
    if (header.relative_length != NO_STRING)
        file->relative = xmemdup(bytes, relative);
    file->display = xmemdup(bytes + relative, header.display_length);
    if (header.package_length != NO_STRING)
        file->package = xmemdup(bytes + relative + header.display_length, package);
    if (header.content_length != NO_STRING) {
        file->content = xmemdup(bytes + relative + header.display_length + package,
                                content);
        file->content_length = content;
    }
    if (header.context_length != NO_STRING) {
        file->context = xmemdup(bytes + relative + header.display_length + package + content,
                                context);
        file->context_length = context;
    }
    *number = header.number;
    *at += size;
    return 1;
}

/* Appends a frame whose payload encode() appends. */
static void put_frame(struct byte_buffer *out, uint32_t number, uint32_t kind,
                      const struct finding *findings, size_t count,
                      const struct file_result *result)
{
    size_t start = out->length;
    struct frame_header header = { number, kind, 0 };
    byte_buffer_append(out, &header, sizeof(header));
    if (kind == FRAME_FINDINGS)
        codec_encode_findings(findings, count, out);
    else
        codec_encode_end(result, out);
    header.length = (uint32_t)(out->length - start - sizeof(header));
    memcpy(out->data + start, &header, sizeof(header));
}

/* Bytes a finding's strings take in a chunk (numbers aside). */
static size_t text_size(const struct finding *finding)
{
    size_t size = finding->value_length + finding->key_length;
    const char *texts[] = { finding->service, finding->field, finding->message,
                            finding->hint };
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        size += texts[i] != NULL ? strlen(texts[i]) : 0;
    return size + 64;
}

void protocol_put_result(struct byte_buffer *out, uint32_t number,
                         const struct file_result *result)
{
    const struct finding_set *set = &result->findings;
    size_t first = 0, bytes = 0;
    for (size_t i = 0; i < set->count; i++) {
        bytes += text_size(&set->items[i]);
        if (bytes >= CODEC_CHUNK_BYTES || i + 1 == set->count) {
            put_frame(out, number, FRAME_FINDINGS, set->items + first,
                      i + 1 - first, NULL);
            first = i + 1;
            bytes = 0;
        }
    }
    put_frame(out, number, FRAME_END, NULL, 0, result);
}

int protocol_next_frame(const struct byte_buffer *in, size_t *at,
                        struct frame *frame, const char **reason)
{
    struct frame_header header;
    if (in->length - *at < sizeof(header))
        return 0;
    memcpy(&header, in->data + *at, sizeof(header));
    if (header.kind != FRAME_FINDINGS && header.kind != FRAME_END) {
        *reason = "unknown frame kind";
        return -1;
    }
    if (header.length > CODEC_MAX_PAYLOAD) {
        *reason = "frame too large";
        return -1;
    }
    if (in->length - *at - sizeof(header) < header.length)
        return 0;
    frame->number = header.number;
    frame->kind = header.kind;
    frame->payload = in->data + *at + sizeof(header);
    frame->length = header.length;
    *at += sizeof(header) + header.length;
    return 1;
}
