/* result_codec.c - file results as bytes (see result_codec.h). */
#include "config.h"

#include "result_codec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "xalloc.h"

#define CHUNK_MAGIC 0x46524c53u  /* "SLRF": findings */
#define END_MAGIC 0x45524c53u    /* "SLRE": end of a file's results */
#define NO_STRING UINT32_MAX
#define NO_INDEX UINT32_MAX
/* The numbers and string lengths of one encoded finding. */
#define FINDING_FIELDS 15

/* ------------------------------------------------------------------ */
/* encoding                                                            */
/* ------------------------------------------------------------------ */

static void put_u32(struct byte_buffer *out, uint32_t value)
{
    byte_buffer_append(out, &value, sizeof(value));
}

static void put_string(struct byte_buffer *out, const char *text, size_t length)
{
    if (text == NULL) {
        put_u32(out, NO_STRING);
        return;
    }
    if (length >= NO_STRING)
        length = NO_STRING - 1;     /* cannot happen below the set's limit */
    put_u32(out, (uint32_t)length);
    byte_buffer_append(out, text, length);
}

static void put_cstring(struct byte_buffer *out, const char *text)
{
    put_string(out, text, text ? strlen(text) : 0);
}

static uint32_t put_index(size_t index)
{
    return index == FINDING_NONE ? NO_INDEX : (uint32_t)index;
}

void codec_encode_findings(const struct finding *findings, size_t count,
                           struct byte_buffer *out)
{
    put_u32(out, CHUNK_MAGIC);
    put_u32(out, (uint32_t)count);
    for (size_t i = 0; i < count; i++) {
        const struct finding *f = &findings[i];
        put_u32(out, (uint32_t)f->rule);
        put_u32(out, (uint32_t)f->severity);
        put_u32(out, (uint32_t)f->status);
        put_u32(out, put_index(f->comment));
        put_u32(out, f->score);
        put_u32(out, f->line);
        put_u32(out, f->column);
        put_u32(out, f->end_line);
        put_u32(out, f->end_column);
        put_u32(out, (uint32_t)f->reported_severity);
        put_cstring(out, f->service);
        put_cstring(out, f->field);
        put_string(out, f->value, f->value_length);
        put_string(out, f->key, f->key_length);
        put_cstring(out, f->message);
        put_cstring(out, f->hint);
    }
}

void codec_encode_end(const struct file_result *result, struct byte_buffer *out)
{
    put_u32(out, END_MAGIC);
    put_u32(out, (uint32_t)result->services);
    put_u32(out, (result->plugin_failed ? 1u : 0u) | (result->incomplete ? 2u : 0u) |
                     (result->skipped ? 4u : 0u));
    put_u32(out, (uint32_t)result->comment_count);
    for (size_t i = 0; i < result->comment_count; i++) {
        put_u32(out, result->comments[i].line);
        put_u32(out, result->comments[i].column);
        put_cstring(out, result->comments[i].reason);
    }
    put_u32(out, (uint32_t)result->reference_count);
    for (size_t i = 0; i < result->reference_count; i++) {
        put_u32(out, (uint32_t)result->references[i].kind);
        put_u32(out, result->references[i].line);
        put_u32(out, result->references[i].column);
        put_cstring(out, result->references[i].text);
        put_cstring(out, result->references[i].path);
        put_cstring(out, result->references[i].from);
        put_string(out, result->references[i].context, result->references[i].context_length);
    }
}

/* ------------------------------------------------------------------ */
/* decoding: everything is checked                                     */
/* ------------------------------------------------------------------ */

struct reader {
    const unsigned char *data;
    size_t length, at;
    const char *reason;
};

static bool get_u32(struct reader *r, uint32_t *value)
{
    if (r->reason != NULL)
        return false;
    if (r->length - r->at < sizeof(*value)) {
        r->reason = "truncated";
        return false;
    }
    memcpy(value, r->data + r->at, sizeof(*value));
    r->at += sizeof(*value);
    return true;
}

/* Reads a string; text strings (allow_nul false) must not hold NUL bytes.
 * *out is NULL for an absent string. */
static bool get_string(struct reader *r, char **out, size_t *length,
                       bool allow_nul, bool required)
{
    uint32_t size;
    *out = NULL;
    if (length != NULL)
        *length = 0;
    if (!get_u32(r, &size))
        return false;
    if (size == NO_STRING) {
        if (required) {
            r->reason = "a required string is missing";
            return false;
        }
        return true;
    }
    if (r->length - r->at < size) {
        r->reason = "a string runs past the end";
        return false;
    }
    const unsigned char *text = r->data + r->at;
    if (!allow_nul && memchr(text, '\0', size) != NULL) {
        r->reason = "a text string holds a NUL byte";
        return false;
    }
    *out = xmemdup(text, size);
    if (length != NULL)
        *length = size;
    r->at += size;
    return true;
}

static bool in_range(struct reader *r, uint32_t value, uint32_t low,
                     uint32_t high, const char *what)
{
    if (value < low || value > high) {
        r->reason = what;
        return false;
    }
    return true;
}

static bool decode_finding(struct reader *r, size_t rule_count,
                           struct finding *f)
{
    uint32_t rule, severity, reported, status, comment, score, line, column, end_line,
        end_column;
    if (!get_u32(r, &rule) || !get_u32(r, &severity) || !get_u32(r, &status) ||
        !get_u32(r, &comment) || !get_u32(r, &score) || !get_u32(r, &line) ||
        !get_u32(r, &column) || !get_u32(r, &end_line) || !get_u32(r, &end_column) ||
        !get_u32(r, &reported))
        return false;
    if (rule >= rule_count) {
        r->reason = "unknown rule index";
        return false;
    }
    if (!in_range(r, severity, SL_SEVERITY_ERROR, SL_SEVERITY_WARNING, "bad severity") ||
        !in_range(r, reported, SL_SEVERITY_ERROR, SL_SEVERITY_WARNING,
                  "bad reported severity") ||
        !in_range(r, status, STATUS_FAIL, STATUS_SUPPRESSED, "bad status") ||
        !in_range(r, score, 0, 100, "bad security severity"))
        return false;
    /* A failing finding is an error, a warning never fails; a suppressed
     * one says which comment suppressed it, and only a suppressed one. */
    if (status != STATUS_SUPPRESSED &&
        (status == STATUS_FAIL) != (severity == SL_SEVERITY_ERROR)) {
        r->reason = "status does not match severity";
        return false;
    }
    if ((status == STATUS_SUPPRESSED) != (comment != NO_INDEX)) {
        r->reason = "suppression does not match its comment";
        return false;
    }
    f->rule = rule;
    f->severity = (int)severity;
    f->reported_severity = (int)reported;
    f->status = (int)status;
    f->comment = comment == NO_INDEX ? FINDING_NONE : comment;
    f->score = score;
    f->line = line;
    f->column = column;
    f->end_line = end_line;
    f->end_column = end_column;
    if (!get_string(r, &f->service, NULL, false, false) ||
        !get_string(r, &f->field, NULL, false, false) ||
        !get_string(r, &f->value, &f->value_length, true, false) ||
        !get_string(r, &f->key, &f->key_length, true, false) ||
        !get_string(r, &f->message, NULL, false, true) ||
        !get_string(r, &f->hint, NULL, false, false))
        return false;
    /* A service setting has service, field and key; a document-level
     * finding field and key; a file-level one none of them. */
    if ((f->service != NULL && f->field == NULL) ||
        (f->field == NULL) != (f->key == NULL)) {
        r->reason = "service, field and key do not fit together";
        return false;
    }
    return true;
}

static bool fail(const struct reader *r, const char **reason)
{
    *reason = r->reason;
    return r->reason != NULL;
}

int codec_decode_findings(const unsigned char *data, size_t length,
                          size_t rule_count, struct file_result *into,
                          const char **reason)
{
    struct reader r = { data, length, 0, NULL };
    uint32_t magic, count;
    if (length > CODEC_MAX_PAYLOAD)
        r.reason = "too large";
    else if (get_u32(&r, &magic) && magic != CHUNK_MAGIC)
        r.reason = "bad magic";
    if (r.reason == NULL && get_u32(&r, &count)) {
        size_t held = into->findings.count;
        if (count > (length - r.at) / (FINDING_FIELDS * sizeof(uint32_t)))
            r.reason = "finding count exceeds the data";
        else if (count > FINDING_SET_MAX_COUNT + 1 - held)
            r.reason = "more findings than a file may have";
        else if (length > CODEC_MAX_FILE_BYTES - into->findings.bytes)
            r.reason = "more finding text than a file may have";
    }
    /* Findings of earlier chunks stay; a bad chunk leaves none of its own. */
    size_t first = into->findings.count;
    for (uint32_t i = 0; r.reason == NULL && i < count; i++) {
        struct finding *finding = finding_set_append(&into->findings);
        if (!decode_finding(&r, rule_count, finding))
            break;
    }
    if (r.reason == NULL && r.at != length)
        r.reason = "trailing bytes";
    if (fail(&r, reason)) {
        while (into->findings.count > first)
            finding_release(&into->findings.items[--into->findings.count]);
        return -1;
    }
    into->findings.bytes += length;
    return 0;
}

int codec_decode_end(const unsigned char *data, size_t length,
                     struct file_result *into, const char **reason)
{
    struct reader r = { data, length, 0, NULL };
    uint32_t magic, services, flags, comments;
    if (length > CODEC_MAX_PAYLOAD)
        r.reason = "too large";
    else if (get_u32(&r, &magic) && magic != END_MAGIC)
        r.reason = "bad magic";
    if (r.reason == NULL && get_u32(&r, &services) && get_u32(&r, &flags) &&
        get_u32(&r, &comments)) {
        if (flags > 7)
            r.reason = "bad flags";
        else if (comments > (length - r.at) / (3 * sizeof(uint32_t)))
            r.reason = "comment count exceeds the data";
    }
    for (uint32_t i = 0; r.reason == NULL && i < comments; i++) {
        uint32_t line, column;
        char *text = NULL;
        if (get_u32(&r, &line) && get_u32(&r, &column) &&
            get_string(&r, &text, NULL, false, true))
            file_result_add_comment(into, line, column, text);
        free(text);
    }
    uint32_t references = 0;
    if (r.reason == NULL && get_u32(&r, &references) &&
        references > (length - r.at) / (7 * sizeof(uint32_t)))
        r.reason = "reference count exceeds the data";
    for (uint32_t i = 0; r.reason == NULL && i < references; i++) {
        uint32_t kind, line, column;
        char *text = NULL, *path = NULL, *from = NULL, *context = NULL;
        size_t context_length = 0;
        if (get_u32(&r, &kind) && get_u32(&r, &line) && get_u32(&r, &column) &&
            in_range(&r, kind, REFERENCE_INCLUDE, REFERENCE_COMPOSE_FILE_ENV,
                     "bad reference kind") &&
            get_string(&r, &text, NULL, false, true) &&
            get_string(&r, &path, NULL, false, false) &&
            get_string(&r, &from, NULL, false, false) &&
            get_string(&r, &context, &context_length, true, false)) {
            struct file_reference *reference =
                file_result_add_reference(into, (int)kind, line, column, text);
            reference->path = path;
            reference->from = from;
            reference->context = context;
            reference->context_length = context_length;
            path = from = context = NULL;
        }
        free(context);
        free(text);
        free(path);
        free(from);
    }
    if (r.reason == NULL && r.at != length)
        r.reason = "trailing bytes";
    for (size_t i = 0; r.reason == NULL && i < into->findings.count; i++) {
        size_t comment = into->findings.items[i].comment;
        if (comment != FINDING_NONE && comment >= into->comment_count)
            r.reason = "a finding names a suppression comment that was not sent";
    }
    if (fail(&r, reason))
        return -1;
    into->services = services;
    into->plugin_failed = (flags & 1u) != 0;
    into->incomplete = (flags & 2u) != 0;
    into->skipped = (flags & 4u) != 0;
    return 0;
}
