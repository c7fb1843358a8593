/*
 * sandlint/rule.h - write a rule plugin the way the core is written.
 *
 * Static inline helpers over the host table (struct sl_host, which
 * SANDLINT_PLUGIN() keeps in sandlint_host), the way SQLite's sqlite3ext.h
 * lets an extension call the host as if it were linked with it:
 *
 *     const struct sl_node *key;
 *     const struct sl_node *value = sl_mapping_value(settings, "cap_add", &key);
 *     for (size_t i = 0; i < sl_list_count(value); i++) {
 *         const struct sl_node *where;
 *         const struct sl_node *entry = sl_list_entry(value, key, i, &where);
 *         ...
 *         sl_reportf(ctx, where, "cap_add", text, length, SL_SEVERITY_DEFAULT,
 *                    "cap_add grants '%s'", sl_quote(quoted, sizeof(quoted),
 *                                                    text, length));
 *     }
 *
 * The built-in rules of sandlint include this header and <sandlint/plugin.h>
 * and nothing else of sandlint: what they can do, an in-house rule can.
 * Everything here is a static inline function or a macro: nothing is
 * linked, and a plugin that uses none of it pays nothing.
 *
 * Since ABI 1.1.  The wrappers of 1.1 host services check that the running
 * host has the slot, and otherwise fail with SL_ERROR and a message
 * recorded through set_error(), so a plugin built against this header
 * refuses cleanly in a sandlint that only speaks 1.0.  The wrappers of 1.2
 * (file kinds) answer as a 1.1 host would where that makes sense: every
 * file is Compose there.
 *
 * Compiles as C99 and later and as C++, with -Wall -Wextra -pedantic.
 */
#ifndef SANDLINT_RULE_H
#define SANDLINT_RULE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SL_PRINTF(format_index, first_index) \
    __attribute__((format(printf, format_index, first_index)))
#else
#define SL_PRINTF(format_index, first_index)
#endif

/* Whether the running host's table has the slot (added after ABI 1.0). */
#define SL_HOST_HAS(slot)                                                     \
    (sandlint_host != NULL &&                                                 \
     sandlint_host->struct_size >=                                            \
         offsetof(struct sl_host, slot) + sizeof(sandlint_host->slot) &&      \
     sandlint_host->slot != NULL)

/* ---------------------------------------------------------------------- */
/* The node API and the Compose helpers of the host table, by name         */
/* ---------------------------------------------------------------------- */
/* Each calls the slot of the same name; see plugin.h for what it does. */

static inline int sl_node_kind(const struct sl_node *node)
{
    return sandlint_host->node_kind(node);
}

static inline int sl_node_style(const struct sl_node *node)
{
    return sandlint_host->node_style(node);
}

static inline const char *sl_node_tag(const struct sl_node *node)
{
    return sandlint_host->node_tag(node);
}

static inline const char *sl_node_text(const struct sl_node *node, size_t *length)
{
    return sandlint_host->node_text(node, length);
}

static inline size_t sl_node_count(const struct sl_node *node)
{
    return sandlint_host->node_count(node);
}

static inline const struct sl_node *sl_sequence_item(const struct sl_node *sequence,
                                                     size_t index)
{
    return sandlint_host->sequence_item(sequence, index);
}

static inline const struct sl_node *sl_mapping_value(const struct sl_node *mapping,
                                                     const char *key,
                                                     const struct sl_node **key_node)
{
    return sandlint_host->mapping_value(mapping, key, key_node);
}

static inline int sl_mapping_entry(const struct sl_node *mapping, size_t index,
                                   const struct sl_node **key,
                                   const struct sl_node **value)
{
    return sandlint_host->mapping_entry(mapping, index, key, value);
}

static inline void sl_node_span(const struct sl_node *node, struct sl_span *span)
{
    sandlint_host->node_span(node, span);
}

static inline int sl_is_empty(const struct sl_node *node)
{
    return sandlint_host->is_empty(node);
}

static inline int sl_is_truthy(const struct sl_node *node)
{
    return sandlint_host->is_truthy(node);
}

static inline int sl_has_interpolation(const char *text, size_t length)
{
    return sandlint_host->has_interpolation(text, length);
}

static inline int sl_classify_source(const char *source, size_t length)
{
    return sandlint_host->classify_source(source, length);
}

/* Splits a short-syntax volume item into *out, which it clears and sizes
 * first (no need to set out->struct_size). */
static inline int sl_parse_volume(const char *text, size_t length,
                                  struct sl_volume *out)
{
    if (out == NULL)
        return SL_ERROR;
    memset(out, 0, sizeof(*out));
    out->struct_size = sizeof(*out);
    return sandlint_host->parse_volume(text, length, out);
}

static inline int sl_is_engine_socket(const char *source, size_t source_length,
                                      const char *target, size_t target_length)
{
    return sandlint_host->is_engine_socket(source, source_length, target,
                                           target_length);
}

static inline const struct sl_node *sl_definition(struct sl_context *ctx,
                                                  const char *section,
                                                  const char *name,
                                                  size_t name_length,
                                                  const struct sl_node **key_node)
{
    return sandlint_host->definition(ctx, section, name, name_length, key_node);
}

static inline int sl_report(struct sl_context *ctx, const struct sl_finding *finding)
{
    return sandlint_host->report(ctx, finding);
}

static inline const char *sl_file_path(struct sl_context *ctx)
{
    return sandlint_host->file_path(ctx);
}

static inline const struct sl_node *sl_document_root(struct sl_context *ctx)
{
    return sandlint_host->document_root(ctx);
}

static inline void sl_set_error(struct sl_context *ctx, const char *message)
{
    sandlint_host->set_error(ctx, message);
}

/* ---------------------------------------------------------------------- */
/* Text                                                                    */
/* ---------------------------------------------------------------------- */

/* 1 when text of length bytes equals the NUL-terminated word, else 0. */
static inline int sl_text_equals(const char *text, size_t length, const char *word)
{
    return text != NULL && word != NULL && strlen(word) == length &&
           memcmp(text, word, length) == 0;
}

/* 1 when text of length bytes starts with the NUL-terminated prefix. */
static inline int sl_text_starts_with(const char *text, size_t length,
                                      const char *prefix)
{
    size_t prefix_length = prefix != NULL ? strlen(prefix) : 0;
    return text != NULL && prefix != NULL && length >= prefix_length &&
           memcmp(text, prefix, prefix_length) == 0;
}

/* The text of a setting: a scalar's text, or NULL (with *length 0) when
 * node is no setting (sl_is_empty), not a scalar, or an empty string. */
static inline const char *sl_setting_text(const struct sl_node *node,
                                          size_t *length)
{
    const char *text;
    *length = 0;
    if (sl_is_empty(node) || sl_node_kind(node) != SL_NODE_SCALAR)
        return NULL;
    text = sl_node_text(node, length);
    if (text == NULL || *length == 0) {
        *length = 0;
        return NULL;
    }
    return text;
}

/* Longest part of a value a message quotes; keys always hold it whole. */
#define SL_QUOTE_MAX 160
/* A buffer that holds any quote: char quoted[SL_QUOTE_SIZE]. */
#define SL_QUOTE_SIZE (SL_QUOTE_MAX + 8)

/* Copies text into buffer for a message, cut after SL_QUOTE_MAX bytes with
 * "...".  Returns buffer. */
static inline const char *sl_quote(char *buffer, size_t size, const char *text,
                                   size_t length)
{
    size_t keep = length;
    const char *ellipsis = "";
    if (buffer == NULL || size == 0)
        return "";
    if (text == NULL)
        keep = 0;
    if (keep > SL_QUOTE_MAX) {
        keep = SL_QUOTE_MAX;
        ellipsis = "...";
    }
    snprintf(buffer, size, "%.*s%s", (int)keep, text != NULL ? text : "", ellipsis);
    return buffer;
}

/* ---------------------------------------------------------------------- */
/* Settings                                                                */
/* ---------------------------------------------------------------------- */

/*
 * A list setting (cap_add, devices, volumes, ...): Compose also accepts a
 * single scalar.  sl_list_count() gives the number of entries (0 for no
 * setting); sl_list_entry() gives entry index and, through *where, the node
 * a finding on it points at: the item for a sequence, the key for a scalar
 * given where a list is expected.
 */
static inline size_t sl_list_count(const struct sl_node *value)
{
    if (sl_is_empty(value))
        return 0;
    if (sl_node_kind(value) == SL_NODE_SEQUENCE)
        return sl_node_count(value);
    return 1;
}

static inline const struct sl_node *sl_list_entry(const struct sl_node *value,
                                                  const struct sl_node *key,
                                                  size_t index,
                                                  const struct sl_node **where)
{
    if (sl_node_kind(value) == SL_NODE_SEQUENCE) {
        const struct sl_node *item = sl_sequence_item(value, index);
        *where = item;
        return item;
    }
    *where = key;
    return value;
}

/* What a boolean setting says (sl_flag). */
enum sl_flag_state {
    SL_FLAG_OFF = 0,            /* absent, false, or anything not truthy */
    SL_FLAG_ON = 1,             /* truthy (sl_is_truthy) */
    SL_FLAG_INTERPOLATED = 2    /* not truthy, and holds an interpolation:
                                   cannot be checked */
};

/* Reads a boolean setting.  *text and *length (either may be NULL) receive
 * the scalar's text, or NULL and 0. */
static inline int sl_flag(const struct sl_node *value, const char **text,
                          size_t *length)
{
    size_t text_length = 0;
    const char *scalar = sl_node_text(value, &text_length);
    if (text != NULL)
        *text = scalar;
    if (length != NULL)
        *length = text_length;
    if (sl_is_truthy(value))
        return SL_FLAG_ON;
    if (scalar != NULL && sl_has_interpolation(scalar, text_length))
        return SL_FLAG_INTERPOLATED;
    return SL_FLAG_OFF;
}

/* "<mapping>" or "<sequence>": the key value of a setting or entry that is
 * a collection where a scalar is expected. */
static inline const char *sl_kind_value(const struct sl_node *node)
{
    return sl_node_kind(node) == SL_NODE_MAPPING ? "<mapping>" : "<sequence>";
}

/* ---------------------------------------------------------------------- */
/* Reporting                                                               */
/* ---------------------------------------------------------------------- */

/*
 * Reports a finding whose message is formatted printf-style: for service
 * (sl_vreportf_service; NULL: the service being checked, or in
 * check_document none), at node, for
 * field and value (value_length bytes; NULL for a setting without value),
 * with severity (SL_SEVERITY_DEFAULT for the rule's), hint (NULL for the
 * standard hint; "%k" in it stands for the key, "%%" for "%") and score
 * (the finding's security severity for code scanning, 0.1-10.0; 0 for the
 * rule's).  In check_document a finding has no service: its key is
 * field[:value].  Returns what report() returns.
 */
static inline int sl_vreportf_service(struct sl_context *ctx, const char *service,
                                      const struct sl_node *node, const char *field,
                                      const char *value, size_t value_length,
                                      int severity, const char *hint, double score,
                                      const char *format, va_list args)
{
    char buffer[512];
    char *message = buffer;
    struct sl_finding finding;
    int needed, status;
    va_list again;

    va_copy(again, args);
    needed = vsnprintf(buffer, sizeof(buffer), format, args);
    if (needed < 0) {
        buffer[0] = '\0';
    } else if ((size_t)needed >= sizeof(buffer)) {
        message = (char *)malloc((size_t)needed + 1);
        if (message != NULL)
            vsnprintf(message, (size_t)needed + 1, format, again);
        else
            message = buffer;   /* out of memory: the message, cut */
    }
    va_end(again);
    memset(&finding, 0, sizeof(finding));
    finding.struct_size = SL_FINDING_INIT;
    finding.service = service;
    finding.node = node;
    finding.field = field;
    finding.value = value;
    finding.value_length = value_length;
    finding.severity = severity;
    finding.message = message;
    finding.hint = hint;
    finding.security_severity = score;
    status = sl_report(ctx, &finding);
    if (message != buffer)
        free(message);
    return status;
}

static inline int sl_vreportf(struct sl_context *ctx, const struct sl_node *node,
                              const char *field, const char *value,
                              size_t value_length, int severity,
                              const char *hint, double score,
                              const char *format, va_list args)
{
    return sl_vreportf_service(ctx, NULL, node, field, value, value_length, severity,
                               hint, score, format, args);
}

static inline int sl_reportf(struct sl_context *ctx, const struct sl_node *node,
                             const char *field, const char *value,
                             size_t value_length, int severity,
                             const char *format, ...) SL_PRINTF(7, 8);
static inline int sl_reportf(struct sl_context *ctx, const struct sl_node *node,
                             const char *field, const char *value,
                             size_t value_length, int severity,
                             const char *format, ...)
{
    va_list args;
    int status;
    va_start(args, format);
    status = sl_vreportf(ctx, node, field, value, value_length, severity, NULL,
                         0.0, format, args);
    va_end(args);
    return status;
}

/* sl_reportf() with a hint of the rule's own. */
static inline int sl_reportf_hint(struct sl_context *ctx, const struct sl_node *node,
                                  const char *field, const char *value,
                                  size_t value_length, int severity,
                                  const char *hint, const char *format, ...)
    SL_PRINTF(8, 9);
static inline int sl_reportf_hint(struct sl_context *ctx, const struct sl_node *node,
                                  const char *field, const char *value,
                                  size_t value_length, int severity,
                                  const char *hint, const char *format, ...)
{
    va_list args;
    int status;
    va_start(args, format);
    status = sl_vreportf(ctx, node, field, value, value_length, severity, hint,
                         0.0, format, args);
    va_end(args);
    return status;
}

/* sl_reportf() for a finding more (or less) serious than the rule's
 * findings usually are: score is its security severity for code scanning
 * (0.1-10.0, GitHub's scale: 9.0 and up critical). */
static inline int sl_reportf_scored(struct sl_context *ctx, const struct sl_node *node,
                                    const char *field, const char *value,
                                    size_t value_length, int severity, double score,
                                    const char *format, ...) SL_PRINTF(8, 9);
static inline int sl_reportf_scored(struct sl_context *ctx, const struct sl_node *node,
                                    const char *field, const char *value,
                                    size_t value_length, int severity, double score,
                                    const char *format, ...)
{
    va_list args;
    int status;
    va_start(args, format);
    status = sl_vreportf(ctx, node, field, value, value_length, severity, NULL,
                         score, format, args);
    va_end(args);
    return status;
}

/* Reports an entry of a list setting that is a collection where a scalar
 * (or a supported mapping) is expected: a warning "FIELD entry is a
 * mapping and cannot be checked", key value "<mapping>" or "<sequence>". */
static inline int sl_report_unchecked(struct sl_context *ctx,
                                      const struct sl_node *where,
                                      const char *field,
                                      const struct sl_node *entry)
{
    const char *kind = sl_kind_value(entry);
    return sl_reportf(ctx, where, field, kind, strlen(kind), SL_SEVERITY_WARNING,
                      "%s entry is a %s and cannot be checked", field,
                      kind[1] == 'm' ? "mapping" : "sequence");
}

/* ---------------------------------------------------------------------- */
/* Host mounts (ABI 1.1)                                                   */
/* ---------------------------------------------------------------------- */

/* Calls visit for every host mount and unchecked entry of the service
 * whose mapping is service (sl_host.host_mounts). */
static inline int sl_host_mounts(struct sl_context *ctx,
                                 const struct sl_node *service,
                                 sl_mount_fn visit, void *data)
{
    if (!SL_HOST_HAS(host_mounts)) {
        sl_set_error(ctx, "host_mounts() needs sandlint with plugin ABI 1.1");
        return SL_ERROR;
    }
    return sandlint_host->host_mounts(ctx, service, sizeof(struct sl_mount),
                                      visit, data);
}

/* A buffer that holds any sl_mount_describe() text. */
#define SL_MOUNT_DESCRIPTION_SIZE (2 * SL_QUOTE_SIZE + 64)

/*
 * How a host mount is written, as SBX003 and SBX006 append it to their
 * messages: "" for short syntax, " (long syntax, type bind)", " (long
 * syntax without type, read as bind)", " through named volume 'data'
 * (driver_opts.o bind)", " through named volume 'disk' (driver_opts.type
 * ext4)".  Returns buffer.
 */
static inline const char *sl_mount_describe(const struct sl_mount *mount,
                                            char *buffer, size_t size)
{
    char quoted[SL_QUOTE_SIZE], type[SL_QUOTE_SIZE];
    if (buffer == NULL || size == 0)
        return "";
    buffer[0] = '\0';
    if (mount->volume != NULL && mount->bind_option == NULL && mount->type != NULL)
        snprintf(buffer, size, " through named volume '%s' (driver_opts.type %s)",
                 sl_quote(quoted, sizeof(quoted), mount->volume,
                          mount->volume_length),
                 sl_quote(type, sizeof(type), mount->type, mount->type_length));
    else if (mount->volume != NULL)
        snprintf(buffer, size, " through named volume '%s' (driver_opts.o %s)",
                 sl_quote(quoted, sizeof(quoted), mount->volume,
                          mount->volume_length),
                 mount->bind_option != NULL ? mount->bind_option : "bind");
    else if (mount->syntax == SL_MOUNT_HOST_PATH_VOLUME && mount->field != NULL &&
             strcmp(mount->field, "local") == 0)
        snprintf(buffer, size, " (PersistentVolume local.path)");
    else if (mount->syntax == SL_MOUNT_HOST_PATH_VOLUME)
        snprintf(buffer, size, " (hostPath volume)");
    else if (mount->syntax == SL_MOUNT_LONG && mount->type == NULL)
        snprintf(buffer, size, " (long syntax without type, read as bind)");
    else if (mount->syntax == SL_MOUNT_LONG)
        snprintf(buffer, size, " (long syntax, type %s)",
                 sl_quote(quoted, sizeof(quoted), mount->type,
                          mount->type_length));
    return buffer;
}

/* ---------------------------------------------------------------------- */
/* Per-rule options (ABI 1.1)                                              */
/* ---------------------------------------------------------------------- */
/* The running rule's option name, as configured or by default; SL_OK, or
 * SL_ERROR (after set_error) when the rule declares no such option of that
 * type.  See sl_host.option_string and struct sl_option. */

#define SL_OPTION_GUARD(ctx, slot)                                            \
    do {                                                                      \
        if (!SL_HOST_HAS(slot)) {                                             \
            sl_set_error(ctx, #slot "() needs sandlint with plugin ABI 1.1"); \
            return SL_ERROR;                                                  \
        }                                                                     \
    } while (0)

static inline int sl_option_string(struct sl_context *ctx, const char *name,
                                   const char **value, size_t *length)
{
    SL_OPTION_GUARD(ctx, option_string);
    return sandlint_host->option_string(ctx, name, value, length);
}

static inline int sl_option_integer(struct sl_context *ctx, const char *name,
                                    long long *value)
{
    SL_OPTION_GUARD(ctx, option_integer);
    return sandlint_host->option_integer(ctx, name, value);
}

static inline int sl_option_boolean(struct sl_context *ctx, const char *name,
                                    int *value)
{
    SL_OPTION_GUARD(ctx, option_boolean);
    return sandlint_host->option_boolean(ctx, name, value);
}

static inline int sl_option_list_count(struct sl_context *ctx, const char *name,
                                       size_t *count)
{
    SL_OPTION_GUARD(ctx, option_list_count);
    return sandlint_host->option_list_count(ctx, name, count);
}

static inline int sl_option_list_item(struct sl_context *ctx, const char *name,
                                      size_t index, const char **value,
                                      size_t *length)
{
    SL_OPTION_GUARD(ctx, option_list_item);
    return sandlint_host->option_list_item(ctx, name, index, value, length);
}

/* Whether the list option name holds an item equal to text (length bytes):
 * *found receives 1 or 0.  Returns SL_OK or SL_ERROR. */
static inline int sl_option_list_contains(struct sl_context *ctx, const char *name,
                                          const char *text, size_t length,
                                          int *found)
{
    size_t count = 0, i;
    *found = 0;
    if (sl_option_list_count(ctx, name, &count) != SL_OK)
        return SL_ERROR;
    for (i = 0; i < count; i++) {
        const char *item;
        size_t item_length;
        if (sl_option_list_item(ctx, name, i, &item, &item_length) != SL_OK)
            return SL_ERROR;
        if (item_length == length && (length == 0 || memcmp(item, text, length) == 0)) {
            *found = 1;
            break;
        }
    }
    return SL_OK;
}


/* ---------------------------------------------------------------------- */
/* File kinds, pod specs and containers (ABI 1.2)                          */
/* ---------------------------------------------------------------------- */

/* The kind (SL_KIND_*) of what the callback was given; SL_KIND_COMPOSE in
 * a host older than 1.2 (which hands rules nothing else). */
static inline int sl_kind(struct sl_context *ctx)
{
    if (!SL_HOST_HAS(kind))
        return SL_KIND_COMPOSE;
    return sandlint_host->kind(ctx);
}

/* Calls visit for every pod spec of a Kubernetes object (sl_host.pod_specs). */
static inline int sl_pod_specs(struct sl_context *ctx, const struct sl_node *object,
                               sl_pod_fn visit, void *data)
{
    if (!SL_HOST_HAS(pod_specs)) {
        sl_set_error(ctx, "pod_specs() needs sandlint with plugin ABI 1.2");
        return SL_ERROR;
    }
    return sandlint_host->pod_specs(ctx, object, sizeof(struct sl_pod), visit, data);
}

/* Calls visit for every container of the service the callback received
 * (service_name and its mapping): a pod spec's containers, init and
 * ephemeral containers; an agent-env service and its init containers; a
 * Compose service itself (sl_host.containers).  In a host older than 1.2
 * the service itself is the one container. */
static inline int sl_containers(struct sl_context *ctx, const char *service_name,
                                const struct sl_node *service,
                                sl_container_fn visit, void *data)
{
    struct sl_container self;
    if (SL_HOST_HAS(containers))
        return sandlint_host->containers(ctx, service_name, service,
                                         sizeof(struct sl_container), visit, data);
    memset(&self, 0, sizeof(self));
    self.struct_size = sizeof(self);
    self.sort = SL_CONTAINER_MAIN;
    self.service = service_name;
    self.service_length = service_name != NULL ? strlen(service_name) : 0;
    self.container = service;
    self.node = service;
    return visit(ctx, &self, data);
}

/* 1 when a value cannot be checked: an interpolation in Compose, Helm
 * template text ("{{") in agent-env values and Kubernetes objects
 * (sl_host.is_templated); sl_has_interpolation() in a host older than 1.2. */
static inline int sl_is_templated(struct sl_context *ctx, const char *text,
                                  size_t length)
{
    if (!SL_HOST_HAS(is_templated))
        return sl_has_interpolation(text, length);
    return sandlint_host->is_templated(ctx, text, length);
}

/* sl_flag() for the kind being checked: SL_FLAG_INTERPOLATED when the
 * value is not truthy and sl_is_templated() says it cannot be checked. */
static inline int sl_flag_in(struct sl_context *ctx, const struct sl_node *value,
                             const char **text, size_t *length)
{
    const char *scalar;
    size_t text_length;
    int flag = sl_flag(value, &scalar, &text_length);
    if (text != NULL)
        *text = scalar;
    if (length != NULL)
        *length = text_length;
    if (flag == SL_FLAG_ON || scalar == NULL)
        return flag;
    return sl_is_templated(ctx, scalar, text_length) ? SL_FLAG_INTERPOLATED : SL_FLAG_OFF;
}

/* Longest '.'-separated path sl_mapping_path() follows. */
#define SL_PATH_MAX 256

/*
 * The value at a '.'-separated path of mapping keys below mapping
 * ("securityContext.capabilities.add"), with the last key's node in
 * *key_node (if not NULL); NULL when a step is missing or not a mapping,
 * or the path is longer than SL_PATH_MAX.
 */
static inline const struct sl_node *sl_mapping_path(const struct sl_node *mapping,
                                                    const char *path,
                                                    const struct sl_node **key_node)
{
    char step[SL_PATH_MAX];
    const struct sl_node *node = mapping;
    if (key_node != NULL)
        *key_node = NULL;
    if (path == NULL || strlen(path) >= sizeof(step))
        return NULL;
    while (node != NULL && *path != '\0') {
        const char *dot = strchr(path, '.');
        size_t length = dot != NULL ? (size_t)(dot - path) : strlen(path);
        memcpy(step, path, length);
        step[length] = '\0';
        node = sl_mapping_value(node, step, key_node);
        path += length + (dot != NULL ? 1 : 0);
    }
    return node;
}

/* sl_reportf() for a finding about service (a container's service name,
 * sl_container.service; a pod's, sl_pod.service) rather than the service
 * being checked. */
static inline int sl_reportf_service(struct sl_context *ctx, const char *service,
                                     const struct sl_node *node, const char *field,
                                     const char *value, size_t value_length,
                                     int severity, const char *format, ...)
    SL_PRINTF(8, 9);
static inline int sl_reportf_service(struct sl_context *ctx, const char *service,
                                     const struct sl_node *node, const char *field,
                                     const char *value, size_t value_length,
                                     int severity, const char *format, ...)
{
    va_list args;
    int status;
    va_start(args, format);
    status = sl_vreportf_service(ctx, service, node, field, value, value_length,
                                 severity, NULL, 0.0, format, args);
    va_end(args);
    return status;
}

/* sl_reportf_service() with a security severity of its own (score). */
static inline int sl_reportf_service_scored(struct sl_context *ctx, const char *service,
                                            const struct sl_node *node,
                                            const char *field, const char *value,
                                            size_t value_length, int severity,
                                            double score, const char *format, ...)
    SL_PRINTF(9, 10);
static inline int sl_reportf_service_scored(struct sl_context *ctx, const char *service,
                                            const struct sl_node *node,
                                            const char *field, const char *value,
                                            size_t value_length, int severity,
                                            double score, const char *format, ...)
{
    va_list args;
    int status;
    va_start(args, format);
    status = sl_vreportf_service(ctx, service, node, field, value, value_length,
                                 severity, NULL, score, format, args);
    va_end(args);
    return status;
}

/* The warning for a value that cannot be checked because it is Helm
 * template text (sl_is_templated()): "FIELD is Helm template text 'TEXT'
 * and cannot be checked", for service (NULL: the service being checked)
 * at node, keyed by field and the text. */
static inline int sl_report_templated(struct sl_context *ctx, const char *service,
                                      const struct sl_node *node, const char *field,
                                      const char *text, size_t length)
{
    char quoted[SL_QUOTE_SIZE];
    return sl_reportf_service(ctx, service, node, field, text, length,
                              SL_SEVERITY_WARNING,
                              "%s is Helm template text '%s' and cannot be checked",
                              field, sl_quote(quoted, sizeof(quoted), text, length));
}

/* ---------------------------------------------------------------------- */
/* The container model (ABI 1.3)                                           */
/* ---------------------------------------------------------------------- */
/*
 * A rule on the model, once for every kind of file:
 *
 *     static int check(struct sl_context *ctx, const struct sl_scope *scope)
 *     {
 *         struct sl_setting cap_add;
 *         struct sl_value value;
 *         size_t i;
 *         if (sl_setting(ctx, scope, SL_SETTING_CAP_ADD, SL_VIEW_WRITTEN,
 *                        &cap_add) != SL_OK)
 *             return SL_ERROR;
 *         for (i = 0; i < cap_add.count; i++) {
 *             if (sl_setting_value(ctx, scope, SL_SETTING_CAP_ADD,
 *                                  SL_VIEW_WRITTEN, i, &value) != SL_OK)
 *                 return SL_ERROR;
 *             if (value.state != SL_VALUE_SET)
 *                 status = sl_report_unresolved(ctx, &value, value.node, 0);
 *             else if (sl_text_equals(value.parsed, value.parsed_length, "SYS_ADMIN"))
 *                 status = sl_report_value(ctx, &value, value.node, ...);
 *         }
 *         return SL_OK;
 *     }
 *
 * with .check_container = check and .kinds = SL_KIND_EVERY in its sl_rule.
 * In a host older than 1.3 these fail with SL_ERROR (after set_error); a
 * rule with only check_container is not run there anyway.
 */

/* Whether a scope has field (a host of the version that added it filled
 * it): read a field "since 1.N" of struct sl_scope only after this. */
#define SL_SCOPE_HAS(scope, field)                                            \
    ((scope)->struct_size >= offsetof(struct sl_scope, field) + sizeof((scope)->field))

/* Fills *out with setting id of scope in view (sl_host.setting()); it
 * clears and sizes *out first. */
static inline int sl_setting(struct sl_context *ctx, const struct sl_scope *scope, int id,
                             int view, struct sl_setting *out)
{
    memset(out, 0, sizeof(*out));
    out->struct_size = sizeof(*out);
    if (!SL_HOST_HAS(setting)) {
        out->state = SL_SETTING_UNMODELLED;
        sl_set_error(ctx, "setting() needs sandlint with plugin ABI 1.3");
        return SL_ERROR;
    }
    return sandlint_host->setting(ctx, scope, id, view, sizeof(*out), out);
}

/* Fills *out with the index-th value of setting id (sl_host.setting_value()). */
static inline int sl_setting_value(struct sl_context *ctx, const struct sl_scope *scope,
                                   int id, int view, size_t index, struct sl_value *out)
{
    memset(out, 0, sizeof(*out));
    out->struct_size = sizeof(*out);
    if (!SL_HOST_HAS(setting_value)) {
        sl_set_error(ctx, "setting_value() needs sandlint with plugin ABI 1.3");
        return SL_ERROR;
    }
    return sandlint_host->setting_value(ctx, scope, id, view, index, sizeof(*out), out);
}

/* Calls visit for every host mount the scope itself writes
 * (sl_host.scope_mounts()). */
static inline int sl_scope_mounts(struct sl_context *ctx, const struct sl_scope *scope,
                                  sl_mount_fn visit, void *data)
{
    if (!SL_HOST_HAS(scope_mounts)) {
        sl_set_error(ctx, "scope_mounts() needs sandlint with plugin ABI 1.3");
        return SL_ERROR;
    }
    return sandlint_host->scope_mounts(ctx, scope, sizeof(struct sl_mount), visit, data);
}

/* "[<namespace>/]<kind>/<name>" of a Kubernetes object (sl_host.object_service()): the
 * service the host names its pods by.  NULL (after set_error) in a host
 * older than 1.3 or for a node that is not a mapping. */
static inline const char *sl_object_service(struct sl_context *ctx,
                                            const struct sl_node *object, size_t *length)
{
    if (!SL_HOST_HAS(object_service)) {
        sl_set_error(ctx, "object_service() needs sandlint with plugin ABI 1.3");
        return NULL;
    }
    return sandlint_host->object_service(ctx, object, length);
}

/*
 * Reports a finding about value (a value of a setting of the scope being
 * checked) at node (value->key for a finding that the setting is wrong,
 * value->node for one about the value): the field is value->field, and the
 * key holds value->text, except for a switch that is on (form
 * SL_FORM_FLAG, state SET), whose key is service:field alone.  severity,
 * hint and score as in sl_vreportf_service().
 */
static inline int sl_report_value(struct sl_context *ctx, const struct sl_value *value,
                                  const struct sl_node *node, int severity,
                                  const char *hint, double score, const char *format, ...)
    SL_PRINTF(7, 8);
static inline int sl_report_value(struct sl_context *ctx, const struct sl_value *value,
                                  const struct sl_node *node, int severity,
                                  const char *hint, double score, const char *format, ...)
{
    va_list args;
    int status;
    int keyless = value->form == SL_FORM_FLAG && value->state == SL_VALUE_SET;
    va_start(args, format);
    status = sl_vreportf_service(ctx, NULL, node, value->field,
                                 keyless ? NULL : value->text,
                                 keyless ? 0 : value->text_length, severity, hint, score,
                                 format, args);
    va_end(args);
    return status;
}

/* How sl_report_unresolved() words an interpolation (Helm template text
 * has one wording). */
enum sl_wording {
    SL_WORDING_BY_FORM = 0,     /* a switch SET_BY, a scalar VALUE, an
                                   entry ENTRY */
    SL_WORDING_VALUE = 1,       /* "FIELD 'TEXT' is interpolated ..." */
    SL_WORDING_ENTRY = 2,       /* "FIELD entry 'TEXT' is interpolated ..." */
    SL_WORDING_SET_BY = 3       /* "FIELD is set by interpolation 'TEXT' ..." */
};

/*
 * The warning that value cannot be checked, at node, keyed by its text:
 * for a TEMPLATED value, "FIELD is Helm template text 'TEXT' and cannot
 * be checked" or, for an interpolation, the wording asked for; for an
 * UNCHECKABLE one, "FIELD [entry ]is a mapping and cannot be checked".
 * One spelling of "cannot be checked" for every rule and every format.
 * A value of another state reports nothing.
 */
static inline int sl_report_unresolved(struct sl_context *ctx, const struct sl_value *value,
                                       const struct sl_node *node, int wording)
{
    char quoted[SL_QUOTE_SIZE];
    const char *field = value->field;
    const char *text = value->text;
    size_t length = value->text_length;
    sl_quote(quoted, sizeof(quoted), text, length);
    if (value->state == SL_VALUE_UNCHECKABLE) {
        int entry = value->form == SL_FORM_ENTRY && !(value->flags & SL_VALUE_IN_PART);
        return sl_reportf(ctx, node, field, text, length, SL_SEVERITY_WARNING,
                          "%s%s is a %s and cannot be checked", field,
                          entry ? " entry" : "",
                          length > 1 && text[1] == 'm' ? "mapping" : "sequence");
    }
    if (value->state != SL_VALUE_TEMPLATED)
        return SL_OK;
    if (value->template_syntax == SL_TEMPLATE_HELM)
        return sl_reportf(ctx, node, field, text, length, SL_SEVERITY_WARNING,
                          "%s is Helm template text '%s' and cannot be checked", field,
                          quoted);
    if (wording == SL_WORDING_BY_FORM)
        wording = value->form == SL_FORM_FLAG ? SL_WORDING_SET_BY
                  : value->form == SL_FORM_ENTRY ? SL_WORDING_ENTRY : SL_WORDING_VALUE;
    if (wording == SL_WORDING_SET_BY)
        return sl_reportf(ctx, node, field, text, length, SL_SEVERITY_WARNING,
                          "%s is set by interpolation '%s' and cannot be checked", field,
                          quoted);
    return sl_reportf(ctx, node, field, text, length, SL_SEVERITY_WARNING,
                      "%s%s '%s' is interpolated and cannot be checked", field,
                      wording == SL_WORDING_ENTRY ? " entry" : "", quoted);
}

/* Writes "HINT, or %e" into buffer: a format's hint for a missing setting
 * (sl_setting.hint, where a '%' stays a '%') with the allowlist entry that
 * would accept the finding, which the host writes for "%e" ("add
 * './compose.yaml = web:cap_drop_all' under [allowlist
 * sandbox_hardening]").  Returns
 * buffer, or NULL when hint is NULL (the host then writes its standard
 * hint). */
static inline const char *sl_hint_or_allowlist(char *buffer, size_t size,
                                               const char *hint)
{
    size_t used = 0;
    if (hint == NULL || buffer == NULL || size == 0)
        return NULL;
    for (; *hint != '\0' && used + 2 < size; hint++) {
        if (*hint == '%')
            buffer[used++] = '%';
        buffer[used++] = *hint;
    }
    buffer[used] = '\0';
    snprintf(buffer + used, size - used, ", or %%e");
    return buffer;
}

#ifdef __cplusplus
}
#endif

#endif /* SANDLINT_RULE_H */
