/*
 * mount_util.h - the host mounts of a service, enumerated once.
 *
 * SBX003 (mounts) and SBX006 (engine_sockets) must agree exactly on what a
 * host mount is: SBX006 reports the ones that expose a container engine API
 * and SBX003 every other one.  Both walk a service's volumes with
 * mount_each(), which calls back once per host mount and once per entry that
 * cannot be checked.  Header-only and built on the public SDK header alone,
 * like plugin_util.h.
 *
 * A host mount is one of (SPEC §7):
 *   - a short-syntax item SOURCE:TARGET[:MODE] whose source is a host path;
 *   - a long-syntax mapping of type bind or npipe (or without a type, when
 *     its source is a host path);
 *   - a short- or long-syntax reference to a named volume whose top-level
 *     definition uses the local driver (or none) and lists bind or rbind in
 *     driver_opts.o; its host path is driver_opts.device.
 * What cannot be checked (MOUNT_INTERPOLATED, MOUNT_UNSUPPORTED) is reported
 * by SBX003 only, as a warning.
 */
#ifndef SANDLINT_MOUNT_UTIL_H
#define SANDLINT_MOUNT_UTIL_H

#include <stdio.h>
#include <string.h>

#include "sandlint/plugin.h"
#include "plugin_util.h"

/* Key value of a host mount whose source is not written. */
#define MOUNT_UNSPECIFIED "<unspecified>"

enum mount_kind {
    MOUNT_HOST = 1,         /* a host mount; value is its source as written */
    MOUNT_INTERPOLATED = 2, /* depends on interpolation: cannot be checked */
    MOUNT_UNSUPPORTED = 3   /* an entry of a kind that cannot be checked */
};

/*
 * One entry found by mount_each().  Pointers point into host memory (the
 * node texts) or into the struct itself, and are valid only during the
 * callback that receives the entry.
 */
struct mount_entry {
    enum mount_kind kind;
    const struct sl_node *where;  /* the node a finding points at */
    const struct sl_node *node;   /* MOUNT_UNSUPPORTED: the offending node */
    const char *value;            /* the key value: MOUNT_HOST the source as
                                     written (or MOUNT_UNSPECIFIED),
                                     MOUNT_INTERPOLATED the raw text */
    size_t value_length;
    const char *target;           /* MOUNT_HOST: container path, or NULL */
    size_t target_length;
    int engine_socket;            /* MOUNT_HOST: 1 when the mount exposes a
                                     container engine API (SBX006) */
    char text[512];               /* MOUNT_HOST: detail appended to the
                                     message ("" or " (long syntax, ...)");
                                     MOUNT_INTERPOLATED: the whole message */
};

/* Receives each entry; returns SL_OK or SL_ERROR (which stops the walk). */
typedef int (*mount_visit_fn)(struct sl_context *ctx,
                              const struct mount_entry *entry, void *data);

/* The scalar text of node, or NULL (with *length 0) when it is no setting
 * or an empty string. */
static inline const char *mount_text(const struct sl_node *node, size_t *length)
{
    const struct sl_host *host = sandlint_host;
    *length = 0;
    if (host->is_empty(node) || host->node_kind(node) != SL_NODE_SCALAR)
        return NULL;
    const char *text = host->node_text(node, length);
    if (text == NULL || *length == 0) {
        *length = 0;
        return NULL;
    }
    return text;
}

static inline int mount_host(struct sl_context *ctx,
                             const struct sl_node *where,
                             const char *source, size_t source_length,
                             const char *target, size_t target_length,
                             const char *detail, mount_visit_fn visit,
                             void *data)
{
    struct mount_entry entry;
    memset(&entry, 0, sizeof(entry));
    entry.kind = MOUNT_HOST;
    entry.where = where;
    entry.target = target;
    entry.target_length = target_length;
    entry.engine_socket = sandlint_host->is_engine_socket(
        source, source_length, target, target_length);
    if (source != NULL) {
        entry.value = source;
        entry.value_length = source_length;
    } else {
        entry.value = MOUNT_UNSPECIFIED;
        entry.value_length = strlen(MOUNT_UNSPECIFIED);
    }
    snprintf(entry.text, sizeof(entry.text), "%s", detail);
    return visit(ctx, &entry, data);
}

/* An entry that cannot be checked: value is the key value, the message is
 * "<what> '<quoted>' <why> and cannot be checked". */
static inline int mount_interpolated(struct sl_context *ctx,
                                     const struct sl_node *where,
                                     const char *value, size_t value_length,
                                     const char *what, const char *quoted,
                                     size_t quoted_length, const char *why,
                                     mount_visit_fn visit, void *data)
{
    struct mount_entry entry;
    char quote[UTIL_QUOTE_MAX + 8];
    memset(&entry, 0, sizeof(entry));
    entry.kind = MOUNT_INTERPOLATED;
    entry.where = where;
    entry.value = value;
    entry.value_length = value_length;
    snprintf(entry.text, sizeof(entry.text), "%s '%s' %s and cannot be checked",
             what, util_quote(quote, sizeof(quote), quoted, quoted_length), why);
    return visit(ctx, &entry, data);
}

static inline int mount_unsupported(struct sl_context *ctx,
                                    const struct sl_node *where,
                                    const struct sl_node *node,
                                    mount_visit_fn visit, void *data)
{
    struct mount_entry entry;
    memset(&entry, 0, sizeof(entry));
    entry.kind = MOUNT_UNSUPPORTED;
    entry.where = where;
    entry.node = node;
    return visit(ctx, &entry, data);
}

/* Which of bind or rbind the comma-separated mount options hold (the
 * first written), or NULL for neither. */
static inline const char *mount_options_bind(const char *options, size_t length)
{
    size_t start = 0;
    while (start <= length && options != NULL) {
        size_t end = start;
        while (end < length && options[end] != ',')
            end++;
        size_t first = start, last = end;
        while (first < last && (options[first] == ' ' || options[first] == '\t'))
            first++;
        while (last > first && (options[last - 1] == ' ' || options[last - 1] == '\t'))
            last--;
        if (util_equals(options + first, last - first, "bind"))
            return "bind";
        if (util_equals(options + first, last - first, "rbind"))
            return "rbind";
        start = end + 1;
    }
    return NULL;
}

/*
 * A reference to the named volume name (as written in the service): a host
 * mount when its top-level definition uses the local driver and binds
 * driver_opts.device.  A definition whose driver or driver_opts.o is
 * interpolated, where the literal parts leave a bind possible, cannot be
 * checked and is keyed by the device too.
 */
static inline int mount_named_volume(struct sl_context *ctx,
                                     const struct sl_node *where,
                                     const char *name, size_t name_length,
                                     const char *target, size_t target_length,
                                     mount_visit_fn visit, void *data)
{
    const struct sl_host *host = sandlint_host;
    const struct sl_node *definition =
        host->definition(ctx, "volumes", name, name_length, NULL);
    if (host->node_kind(definition) != SL_NODE_MAPPING)
        return SL_OK;
    const struct sl_node *options = host->mapping_value(definition, "driver_opts", NULL);
    const struct sl_node *driver_node = host->mapping_value(definition, "driver", NULL);
    size_t driver_length, o_length, device_length;
    const char *driver = mount_text(driver_node, &driver_length);
    const char *o = mount_text(host->mapping_value(options, "o", NULL), &o_length);
    const char *device = mount_text(host->mapping_value(options, "device", NULL),
                                    &device_length);

    /* No driver (or an empty one) is Compose's default, local; a driver
     * that is not a scalar is not local. */
    int local = driver == NULL ? host->is_empty(driver_node) ||
                                     host->node_kind(driver_node) == SL_NODE_SCALAR
                               : util_equals(driver, driver_length, "local");
    int driver_interpolated = !local && host->has_interpolation(driver, driver_length);
    const char *bind = o != NULL ? mount_options_bind(o, o_length) : NULL;
    int binds = bind != NULL;
    int o_interpolated = !binds && o != NULL && host->has_interpolation(o, o_length);

    char quoted[UTIL_QUOTE_MAX + 8];
    char detail[UTIL_QUOTE_MAX + 64];
    util_quote(quoted, sizeof(quoted), name, name_length);
    if (local && binds) {
        snprintf(detail, sizeof(detail),
                 " through named volume '%s' (driver_opts.o %s)", quoted,
                 bind);
        return mount_host(ctx, where, device, device_length, target,
                          target_length, detail, visit, data);
    }
    if ((local || driver_interpolated) && (binds || o_interpolated)) {
        const char *value = device != NULL ? device : MOUNT_UNSPECIFIED;
        size_t value_length = device != NULL ? device_length
                                             : strlen(MOUNT_UNSPECIFIED);
        snprintf(detail, sizeof(detail),
                 "may bind-mount a host path: its %s is interpolated",
                 driver_interpolated ? "driver" : "driver_opts.o");
        return mount_interpolated(ctx, where, value, value_length,
                                  "named volume", name, name_length, detail,
                                  visit, data);
    }
    return SL_OK;
}

/* A long-syntax mapping: {type, source, target, ...}. */
static inline int mount_long_syntax(struct sl_context *ctx,
                                    const struct sl_node *where,
                                    const struct sl_node *item,
                                    mount_visit_fn visit, void *data)
{
    const struct sl_host *host = sandlint_host;
    const struct sl_node *type_node = host->mapping_value(item, "type", NULL);
    const struct sl_node *source_node = host->mapping_value(item, "source", NULL);
    if (!host->is_empty(type_node) && host->node_kind(type_node) != SL_NODE_SCALAR)
        return mount_unsupported(ctx, where, type_node, visit, data);
    if (!host->is_empty(source_node) && host->node_kind(source_node) != SL_NODE_SCALAR)
        return mount_unsupported(ctx, where, source_node, visit, data);
    size_t type_length, source_length, target_length;
    const char *type = mount_text(type_node, &type_length);
    const char *source = mount_text(source_node, &source_length);
    const char *target = mount_text(host->mapping_value(item, "target", NULL),
                                    &target_length);

    int bind;
    const char *detail;
    if (type == NULL) {
        /* No type: Compose's default is a volume, but a host path can only
         * be bound, so read it as bind. */
        bind = source != NULL &&
               host->classify_source(source, source_length) == SL_SOURCE_HOST_PATH;
        detail = " (long syntax without type, read as bind)";
    } else if (host->has_interpolation(type, type_length)) {
        if (source != NULL)
            return mount_interpolated(ctx, where, source, source_length,
                                      "volumes type", type, type_length,
                                      "is interpolated", visit, data);
        return mount_interpolated(ctx, where, type, type_length,
                                  "volumes type", type, type_length,
                                  "is interpolated", visit, data);
    } else if (util_equals(type, type_length, "bind")) {
        bind = 1;
        detail = " (long syntax, type bind)";
    } else if (util_equals(type, type_length, "npipe")) {
        bind = 1;
        detail = " (long syntax, type npipe)";
    } else if (util_equals(type, type_length, "volume")) {
        bind = 0;
        detail = "";
    } else {
        return SL_OK;   /* tmpfs, image, cluster: no host path */
    }

    if (bind)
        return mount_host(ctx, where, source, source_length, target,
                          target_length, detail, visit, data);
    if (source == NULL)
        return SL_OK;   /* an anonymous volume */
    if (host->has_interpolation(source, source_length))
        return mount_interpolated(ctx, where, source, source_length,
                                  "volumes source", source, source_length,
                                  "is interpolated", visit, data);
    return mount_named_volume(ctx, where, source, source_length, target,
                              target_length, visit, data);
}

/* A short-syntax item SOURCE:TARGET[:MODE], or an anonymous volume. */
static inline int mount_short_syntax(struct sl_context *ctx,
                                     const struct sl_node *where,
                                     const char *text, size_t length,
                                     mount_visit_fn visit, void *data)
{
    const struct sl_host *host = sandlint_host;
    struct sl_volume volume;
    memset(&volume, 0, sizeof(volume));
    volume.struct_size = sizeof(volume);
    if (host->parse_volume(text, length, &volume) != SL_OK)
        return SL_OK;
    switch (volume.source_kind) {
    case SL_SOURCE_HOST_PATH:
        return mount_host(ctx, where, volume.source, volume.source_length,
                          volume.target, volume.target_length, "", visit, data);
    case SL_SOURCE_INTERPOLATED:
        return mount_interpolated(ctx, where, text, length, "volumes source",
                                  volume.source, volume.source_length,
                                  "is interpolated", visit, data);
    case SL_SOURCE_VOLUME_NAME:
        return mount_named_volume(ctx, where, volume.source,
                                  volume.source_length, volume.target,
                                  volume.target_length, visit, data);
    default:
        /* Anonymous.  An item that starts with an interpolation may expand
         * to SOURCE:TARGET, so it cannot be checked. */
        if (length >= 2 && host->has_interpolation(text, 2))
            return mount_interpolated(ctx, where, text, length, "volumes entry",
                                      text, length, "is interpolated", visit,
                                      data);
        return SL_OK;
    }
}

/*
 * Calls visit for every host mount and every entry that cannot be checked
 * among the volumes of the service settings, in the order written.  A list
 * item is pointed at by the item; a scalar given for the list by the key.
 */
static inline int mount_each(struct sl_context *ctx,
                             const struct sl_node *settings,
                             mount_visit_fn visit, void *data)
{
    const struct sl_host *host = sandlint_host;
    const struct sl_node *key;
    const struct sl_node *value = host->mapping_value(settings, "volumes", &key);
    size_t count = util_list_count(value);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *item = util_list_entry(value, key, i, &where);
        int status = SL_OK;
        if (host->is_empty(item))
            continue;   /* an empty item is no setting */
        switch (host->node_kind(item)) {
        case SL_NODE_SCALAR: {
            size_t length;
            const char *text = host->node_text(item, &length);
            status = mount_short_syntax(ctx, where, text, length, visit, data);
            break;
        }
        case SL_NODE_MAPPING:
            status = mount_long_syntax(ctx, where, item, visit, data);
            break;
        default:
            status = mount_unsupported(ctx, where, item, visit, data);
            break;
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

#endif
