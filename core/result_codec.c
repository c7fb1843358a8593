/* result_codec.c - file results on the wire (see result_codec.h). */
#include "config.h"

#include "result_codec.h"

#include <stdlib.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "xalloc.h"

#define CODEC_MAGIC 0x31524c53u  /* "SLR1" */
#define NO_STRING UINT32_MAX

void file_result_init(struct file_result *result)
{
    memset(result, 0, sizeof(*result));
    finding_list_init(&result->findings);
}

void file_result_release(struct file_result *result)
{
    finding_list_release(&result->findings);
    file_result_init(result);
}

void file_result_take(struct file_result *result, struct file_check *check)
{
    file_result_init(result);
    finding_list_take(&result->findings, &check->findings);
    result->services = check->services;
    result->plugin_failed = check->plugin_failed;
    result->incomplete = check->incomplete;
}

void byte_buffer_release(struct byte_buffer *buffer)
{
    free(buffer->data);
    memset(buffer, 0, sizeof(*buffer));
}

void byte_buffer_append(struct byte_buffer *buffer, const void *data,
                        size_t length)
{
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 256;
        while (capacity < buffer->length + length)
            capacity *= 2;
        buffer->data = xrealloc(buffer->data, capacity, 1);
        buffer->capacity = capacity;
    }
    if (length != 0)
        memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
}

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
        length = NO_STRING - 1;     /* cannot happen below the file limit */
    put_u32(out, (uint32_t)length);
    byte_buffer_append(out, text, length);
}

static void put_cstring(struct byte_buffer *out, const char *text)
{
    put_string(out, text, text ? strlen(text) : 0);
}

void codec_encode(const struct file_check *check, struct byte_buffer *out)
{
    const struct finding_list *findings = &check->findings;
    put_u32(out, CODEC_MAGIC);
    put_u32(out, (uint32_t)findings->count);
    put_u32(out, (uint32_t)check->services);
    put_u32(out, (check->plugin_failed ? 1u : 0u) | (check->incomplete ? 2u : 0u));
    for (size_t i = 0; i < findings->count; i++) {
        const struct finding *f = &findings->items[i];
        put_u32(out, (uint32_t)f->rule);
        put_u32(out, (uint32_t)f->severity);
        put_u32(out, (uint32_t)f->status);
        put_u32(out, (uint32_t)f->suppression);
        put_u32(out, f->allowlisted ? 1u : 0u);
        put_u32(out, f->line);
        put_u32(out, f->column);
        put_u32(out, f->end_line);
        put_u32(out, f->end_column);
        put_cstring(out, f->service);
        put_cstring(out, f->field);
        put_string(out, f->value, f->value_length);
        put_string(out, f->key, f->key_length);
        put_cstring(out, f->message);
        put_cstring(out, f->hint);
        put_cstring(out, f->suppression_reason);
    }
}

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
    uint32_t rule, severity, status, suppression, allowlisted;
    uint32_t line, column, end_line, end_column;
    if (!get_u32(r, &rule) || !get_u32(r, &severity) || !get_u32(r, &status) ||
        !get_u32(r, &suppression) || !get_u32(r, &allowlisted) ||
        !get_u32(r, &line) || !get_u32(r, &column) || !get_u32(r, &end_line) ||
        !get_u32(r, &end_column))
        return false;
    if (rule >= rule_count) {
        r->reason = "unknown rule index";
        return false;
    }
    if (!in_range(r, severity, SL_SEVERITY_ERROR, SL_SEVERITY_WARNING, "bad severity") ||
        !in_range(r, status, STATUS_FAIL, STATUS_SUPPRESSED, "bad status") ||
        !in_range(r, suppression, SUPPRESSION_NONE, SUPPRESSION_ALLOWLIST, "bad suppression") ||
        !in_range(r, allowlisted, 0, 1, "bad allowlisted flag"))
        return false;
    /* A failing finding is an error; a warning never fails. */
    if ((status == STATUS_FAIL) != (severity == SL_SEVERITY_ERROR) &&
        status != STATUS_SUPPRESSED) {
        r->reason = "status does not match severity";
        return false;
    }
    f->rule = rule;
    f->severity = (int)severity;
    f->status = (int)status;
    f->suppression = (int)suppression;
    f->allowlisted = allowlisted != 0;
    f->line = line;
    f->column = column;
    f->end_line = end_line;
    f->end_column = end_column;
    if (!get_string(r, &f->service, NULL, false, false) ||
        !get_string(r, &f->field, NULL, false, false) ||
        !get_string(r, &f->value, &f->value_length, true, false) ||
        !get_string(r, &f->key, &f->key_length, true, false) ||
        !get_string(r, &f->message, NULL, false, true) ||
        !get_string(r, &f->hint, NULL, false, false) ||
        !get_string(r, &f->suppression_reason, NULL, false, false))
        return false;
    if ((f->service == NULL) != (f->key == NULL) ||
        (f->service == NULL) != (f->field == NULL)) {
        r->reason = "service, field and key must be all present or all absent";
        return false;
    }
    return true;
}

int codec_decode(const unsigned char *data, size_t length, size_t rule_count,
                 const char *file, const char *package,
                 struct file_result *out, const char **reason)
{
    file_result_init(out);
    struct reader r = { data, length, 0, NULL };
    uint32_t magic, count, services, flags;
    if (length > CODEC_MAX_PAYLOAD)
        r.reason = "too large";
    else if (get_u32(&r, &magic) && magic != CODEC_MAGIC)
        r.reason = "bad magic";
    if (r.reason == NULL && get_u32(&r, &count) && get_u32(&r, &services) &&
        get_u32(&r, &flags)) {
        /* Each finding needs at least 9 numbers and 7 string lengths. */
        if (count > (length - r.at) / (16 * sizeof(uint32_t)) + 1)
            r.reason = "finding count exceeds the data";
        else if (flags > 3)
            r.reason = "bad flags";
    }
    for (uint32_t i = 0; r.reason == NULL && i < count; i++) {
        struct finding *f = finding_list_add(&out->findings);
        f->file = xstrdup(file);
        f->package = package ? xstrdup(package) : NULL;
        if (!decode_finding(&r, rule_count, f))
            break;
    }
    if (r.reason == NULL && r.at != length)
        r.reason = "trailing bytes";
    if (r.reason != NULL) {
        *reason = r.reason;
        file_result_release(out);
        return -1;
    }
    out->services = services;
    out->plugin_failed = (flags & 1u) != 0;
    out->incomplete = (flags & 2u) != 0;
    return 0;
}
