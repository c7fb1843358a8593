/*
 * plugin_util.h - small conveniences shared by the built-in plugins.
 *
 * Header-only and built on the public SDK header alone, exactly as an
 * in-house plugin could write them: reporting with a formatted message and
 * walking a setting that Compose accepts as a list or as a single scalar.
 */
#ifndef SANDLINT_PLUGIN_UTIL_H
#define SANDLINT_PLUGIN_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sandlint/plugin.h"

/* Longest value quoted in a message; keys always hold the whole value. */
#define UTIL_QUOTE_MAX 160

/* Copies text into buffer for a message, cut with "..." when long. */
static inline const char *util_quote(char *buffer, size_t size,
                                     const char *text, size_t length)
{
    size_t keep = length;
    const char *ellipsis = "";
    if (keep > UTIL_QUOTE_MAX) {
        keep = UTIL_QUOTE_MAX;
        ellipsis = "...";
    }
    snprintf(buffer, size, "%.*s%s", (int)keep, text, ellipsis);
    return buffer;
}

/* Reports a finding whose message is formatted printf-style. */
static inline int util_report(struct sl_context *ctx, const struct sl_node *node,
                              const char *field, const char *value,
                              size_t value_length, int severity,
                              const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static inline int util_report(struct sl_context *ctx, const struct sl_node *node,
                              const char *field, const char *value,
                              size_t value_length, int severity,
                              const char *format, ...)
{
    char message[512];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    struct sl_finding finding;
    memset(&finding, 0, sizeof(finding));
    finding.struct_size = SL_FINDING_INIT;
    finding.node = node;
    finding.field = field;
    finding.value = value;
    finding.value_length = value_length;
    finding.severity = severity;
    finding.message = message;
    return sandlint_host->report(ctx, &finding);
}

/*
 * A list setting (cap_add, devices, volumes, ...): Compose also accepts a
 * single scalar.  util_list_count() gives the number of entries (0 for no
 * setting); util_list_entry() gives entry i and, through *where, the node a
 * finding on it points at: the item for a sequence, the key for a scalar
 * given where a list is expected.
 */
static inline size_t util_list_count(const struct sl_node *value)
{
    const struct sl_host *host = sandlint_host;
    if (host->is_empty(value))
        return 0;
    if (host->node_kind(value) == SL_NODE_SEQUENCE)
        return host->node_count(value);
    return 1;
}

static inline const struct sl_node *util_list_entry(const struct sl_node *value,
                                                    const struct sl_node *key,
                                                    size_t index,
                                                    const struct sl_node **where)
{
    const struct sl_host *host = sandlint_host;
    if (host->node_kind(value) == SL_NODE_SEQUENCE) {
        const struct sl_node *item = host->sequence_item(value, index);
        *where = item;
        return item;
    }
    *where = key;
    return value;
}

/* "<mapping>" or "<sequence>" for an entry that is not a scalar. */
static inline const char *util_kind_value(const struct sl_node *node)
{
    return sandlint_host->node_kind(node) == SL_NODE_MAPPING ? "<mapping>"
                                                             : "<sequence>";
}

/* Reports an entry that is neither a scalar nor a supported mapping. */
static inline int util_report_unchecked(struct sl_context *ctx,
                                        const struct sl_node *where,
                                        const char *field,
                                        const struct sl_node *entry)
{
    const char *kind = util_kind_value(entry);
    return util_report(ctx, where, field, kind, strlen(kind),
                       SL_SEVERITY_WARNING,
                       "%s entry is a %s and cannot be checked", field,
                       kind[1] == 'm' ? "mapping" : "sequence");
}

/* Whether text of length equals the NUL-terminated word. */
static inline int util_equals(const char *text, size_t length, const char *word)
{
    return text != NULL && strlen(word) == length &&
           memcmp(text, word, length) == 0;
}

#endif
