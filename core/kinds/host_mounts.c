/* host_mounts.c - the host mounts of a service (see host_mounts.h). */
#include "config.h"

#include "host_mounts.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compose.h"
#include "host_paths.h"
#include "kubernetes.h"
#include "sized_out.h"
#include "yaml_model.h"

/* One walk: where each entry goes. */
struct mount_walk {
    struct sl_context *ctx;     /* only handed to visit */
    const struct sl_node *root; /* the document: top-level volumes */
    bool interpolates;          /* Compose: ${VAR} in a path is kept as it
                                   is written (SL_MOUNT_SOURCE_INTERPOLATED) */
    const struct host_mount_resolver *resolver; /* NULL: nothing resolves */
    sl_mount_fn visit;
    void *data;
    struct sized_out out;       /* what visit receives: caller-sized */
};

/* Hands one entry to the visitor, zero past what the host fills. */
static int deliver(struct mount_walk *walk, const struct sl_mount *mount)
{
    struct sl_mount *out = sized_out_fill(&walk->out, mount, sizeof(*mount));
    out->struct_size = sizeof(*mount);
    return walk->visit(walk->ctx, out, walk->data) == SL_OK ? SL_OK : SL_ERROR;
}

static bool text_equals(const char *text, size_t length, const char *word)
{
    return text != NULL && strlen(word) == length && memcmp(text, word, length) == 0;
}

static const struct sl_node *lookup(const struct sl_node *mapping, const char *key)
{
    return model_mapping_get(mapping, key, strlen(key), NULL);
}

/* Which of the comma-separated words of list is word (blanks around items
 * ignored): the first written of the candidates, or NULL. */
static const char *list_word(const char *list, size_t length,
                             const char *const *candidates)
{
    size_t start = 0;
    while (list != NULL && start <= length) {
        size_t end = start;
        while (end < length && list[end] != ',')
            end++;
        size_t first = start, last = end;
        while (first < last && (list[first] == ' ' || list[first] == '\t'))
            first++;
        while (last > first && (list[last - 1] == ' ' || list[last - 1] == '\t'))
            last--;
        for (size_t i = 0; candidates[i] != NULL; i++)
            if (text_equals(list + first, last - first, candidates[i]))
                return candidates[i];
        start = end + 1;
    }
    return NULL;
}

static bool mode_read_only(const char *mode, size_t length)
{
    static const char *const read_only[] = { "ro", NULL };
    return list_word(mode, length, read_only) != NULL;
}

/* The part of an entry a finding points at, and what is known of it. */
struct entry_facts {
    int syntax;
    const char *field;
    const struct sl_node *node;     /* where a finding points */
    const struct sl_node *entry;
    const char *target;
    size_t target_length;
    const char *mode;
    size_t mode_length;
    const char *type;
    size_t type_length;
    bool read_only;
};

static void mount_from_facts(struct sl_mount *mount, int kind,
                             const struct entry_facts *facts)
{
    memset(mount, 0, sizeof(*mount));
    mount->struct_size = sizeof(*mount);
    mount->kind = kind;
    mount->syntax = facts->syntax;
    mount->field = facts->field;
    mount->node = facts->node;
    mount->entry = facts->entry;
    mount->target = facts->target;
    mount->target_length = facts->target_length;
    mount->mode = facts->mode;
    mount->mode_length = facts->mode_length;
    mount->type = facts->type;
    mount->type_length = facts->type_length;
    if (facts->read_only)
        mount->flags |= SL_MOUNT_READ_ONLY;
}

unsigned host_mounts_place_flags(const char *source, size_t source_length)
{
    if (source == NULL)
        return 0;
    switch (host_path_system_place(source, source_length)) {
    case HOST_PATH_SYSTEM_DIRECTORY:
        return SL_MOUNT_SYSTEM_PATH | SL_MOUNT_SYSTEM_DIRECTORY;
    case HOST_PATH_IN_SYSTEM_DIRECTORY:
        return SL_MOUNT_SYSTEM_PATH;
    default:
        return host_path_climbs_out(source, source_length) ? SL_MOUNT_OUTSIDE_PROJECT
                                                           : 0;
    }
}

/* A host path bound into the container (source NULL: not written). */
static int host_path(struct mount_walk *walk, const struct entry_facts *facts,
                     const char *source, size_t source_length,
                     const char *volume, size_t volume_length,
                     const char *bind_option)
{
    struct sl_mount mount;
    mount_from_facts(&mount, SL_MOUNT_HOST_PATH, facts);
    mount.source = source;
    mount.source_length = source_length;
    mount.volume = volume;
    mount.volume_length = volume_length;
    mount.bind_option = bind_option;
    if (source != NULL) {
        mount.value = source;
        mount.value_length = source_length;
        if (walk->interpolates && compose_has_interpolation(source, source_length))
            mount.flags |= SL_MOUNT_SOURCE_INTERPOLATED;
        mount.flags |= host_mounts_place_flags(source, source_length);
    } else {
        mount.value = SL_MOUNT_UNSPECIFIED;
        mount.value_length = strlen(SL_MOUNT_UNSPECIFIED);
    }
    if (compose_is_engine_socket(source, source_length, facts->target,
                                 facts->target_length))
        mount.flags |= SL_MOUNT_ENGINE_API;
    return deliver(walk, &mount);
}

/* An entry that cannot be checked because part holds an interpolation. */
static int interpolated(struct mount_walk *walk, const struct entry_facts *facts,
                        const char *value, size_t value_length, int part,
                        const char *text, size_t text_length)
{
    struct sl_mount mount;
    mount_from_facts(&mount, SL_MOUNT_INTERPOLATED, facts);
    mount.value = value;
    mount.value_length = value_length;
    mount.part = part;
    mount.interpolated = text;
    mount.interpolated_length = text_length;
    return deliver(walk, &mount);
}

/* An entry of a shape that cannot be checked; node is the offending one. */
static int unsupported(struct mount_walk *walk, const struct entry_facts *facts,
                       const struct sl_node *node)
{
    struct sl_mount mount;
    mount_from_facts(&mount, SL_MOUNT_UNSUPPORTED, facts);
    mount.entry = node;
    mount.value = node != NULL && node->kind == SL_NODE_MAPPING ? "<mapping>"
                                                                : "<sequence>";
    mount.value_length = strlen(mount.value);
    return deliver(walk, &mount);
}

/* Whether text is an absolute host path: /x, or a drive path C:\x, C:/x. */
static bool absolute_path(const char *text, size_t length)
{
    if (length >= 1 && text[0] == '/')
        return true;
    return length >= 3 && text[1] == ':' && (text[2] == '\\' || text[2] == '/') &&
           ((text[0] >= 'A' && text[0] <= 'Z') || (text[0] >= 'a' && text[0] <= 'z'));
}

/* The driver_opts of a named volume with a driver of its own that hold an
 * absolute host path: that driver may bind-mount it (local-persist's
 * mountpoint, a plugin's device, path or source), in the order written. */
static int driver_paths(struct mount_walk *walk, const struct entry_facts *facts,
                        const struct sl_node *options, const char *name,
                        size_t name_length)
{
    static const char *const path_options[] = { "mountpoint", "device", "path",
                                                 "source", NULL };
    if (options == NULL || options->kind != SL_NODE_MAPPING)
        return SL_OK;
    for (size_t i = 0; i < options->u.mapping.count; i++) {
        const struct sl_node *key = options->u.mapping.pairs[i].key;
        const struct sl_node *value = options->u.mapping.pairs[i].value;
        size_t key_length, path_length;
        const char *key_text = compose_setting_text(key, &key_length);
        const char *path = compose_setting_text(value, &path_length);
        bool path_option = false;
        for (size_t j = 0; key_text != NULL && path_options[j] != NULL; j++)
            path_option = path_option || text_equals(key_text, key_length,
                                                     path_options[j]);
        if (!path_option || path == NULL || !absolute_path(path, path_length) ||
            model_mapping_get(options, key_text, key_length, NULL) != value)
            continue;   /* the later of duplicate keys wins */
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_DRIVER_PATH, facts);
        mount.source = mount.value = path;
        mount.source_length = mount.value_length = path_length;
        mount.volume = name;
        mount.volume_length = name_length;
        mount.flags |= host_mounts_place_flags(path, path_length);
        if (compose_has_interpolation(path, path_length))
            mount.flags |= SL_MOUNT_SOURCE_INTERPOLATED;
        if (compose_is_engine_socket(path, path_length, facts->target,
                                     facts->target_length))
            mount.flags |= SL_MOUNT_ENGINE_API;
        if (deliver(walk, &mount) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

/* The host directory whose view a kernel file system of the host gives
 * (the local driver mounts it in the engine's namespaces, the host's), or
 * NULL: devpts, tmpfs and the like make a new, empty instance. */
static const char *kernel_file_system_path(const char *type, size_t length)
{
    static const struct {
        const char *type;
        const char *path;
    } kernel[] = {
        { "proc", "/proc" },
        { "sysfs", "/sys" },
        { "cgroup", "/sys/fs/cgroup" },
        { "cgroup2", "/sys/fs/cgroup" },
        { "debugfs", "/sys/kernel/debug" },
        { "tracefs", "/sys/kernel/tracing" },
        { "securityfs", "/sys/kernel/security" },
        { "configfs", "/sys/kernel/config" },
        { "bpf", "/sys/fs/bpf" },
        { "pstore", "/sys/fs/pstore" },
        { "efivarfs", "/sys/firmware/efi/efivars" },
        { "binfmt_misc", "/proc/sys/fs/binfmt_misc" },
    };
    for (size_t i = 0; i < sizeof(kernel) / sizeof(*kernel); i++)
        if (text_equals(type, length, kernel[i].type))
            return kernel[i].path;
    return NULL;
}

/* File system types whose device is no host path: memory, or a remote
 * share (device ":/export", "//server/share" with o addr=...). */
static bool device_not_host(const char *type, size_t length)
{
    static const char *const types[] = { "tmpfs", "ramfs", "nfs", "nfs4", "cifs", "smb3",
                                         "smbfs", "devpts", "mqueue", "hugetlbfs", NULL };
    for (size_t i = 0; types[i] != NULL; i++)
        if (text_equals(type, length, types[i]))
            return true;
    return false;
}

/* A host path the local driver mounts with a file system type (not a
 * bind): type is driver_opts.type, which the message names. */
static int typed_host_path(struct mount_walk *walk, const struct entry_facts *facts,
                           const char *path, size_t path_length, const char *name,
                           size_t name_length, const char *type, size_t type_length,
                           bool read_only)
{
    struct sl_mount mount;
    mount_from_facts(&mount, SL_MOUNT_HOST_PATH, facts);
    mount.source = mount.value = path;
    mount.source_length = mount.value_length = path_length;
    mount.volume = name;
    mount.volume_length = name_length;
    mount.type = type;
    mount.type_length = type_length;
    if (read_only)
        mount.flags |= SL_MOUNT_READ_ONLY;
    if (walk->interpolates && compose_has_interpolation(path, path_length))
        mount.flags |= SL_MOUNT_SOURCE_INTERPOLATED;
    /* Never SL_MOUNT_ENGINE_API: SBX006 words a bind; SBX003 reports an
     * engine's directory mounted this way as a host system directory. */
    mount.flags |= host_mounts_place_flags(path, path_length);
    return deliver(walk, &mount);
}

/* The host directories an overlay's o names (lowerdir=A:B, upperdir=C):
 * the container sees them, and writes into the upper one.  workdir is
 * the overlay's scratch space, never visible in the container. */
static int overlay_directories(struct mount_walk *walk, const struct entry_facts *facts,
                               const char *o, size_t o_length, const char *name,
                               size_t name_length, const char *type, size_t type_length,
                               bool read_only)
{
    static const char *const layers[] = { "lowerdir=", "upperdir=", NULL };
    size_t start = 0;
    while (o != NULL && start < o_length) {
        size_t end = start;
        while (end < o_length && o[end] != ',')
            end++;
        for (size_t i = 0; layers[i] != NULL; i++) {
            size_t prefix = strlen(layers[i]);
            if (end - start < prefix || memcmp(o + start, layers[i], prefix) != 0)
                continue;
            /* lowerdir holds a ':'-separated stack of directories. */
            size_t at = start + prefix;
            while (at < end) {
                size_t stop = at;
                while (stop < end && o[stop] != ':')
                    stop++;
                if (stop > at &&
                    typed_host_path(walk, facts, o + at, stop - at, name, name_length, type,
                                    type_length, read_only) != SL_OK)
                    return SL_ERROR;
                at = stop + 1;
            }
        }
        start = end + 1;
    }
    return SL_OK;
}

/*
 * A named volume of the local driver without bind: the driver mounts
 * driver_opts.device with the file system driver_opts.type, as mount(2)
 * does, in the engine's (the host's) namespaces.  A host mount when the
 * device is an absolute host path (a block device, a disk image), when the
 * type is a kernel file system of the host (proc, sysfs: keyed by the host
 * directory it shows), or when an overlay's o names host directories.
 * tmpfs, remote shares and the like are fine.  An interpolated type with
 * a device that is a host path cannot be checked.
 */
static int file_system_volume(struct mount_walk *walk, const struct entry_facts *facts,
                              const struct sl_node *options, const char *name,
                              size_t name_length)
{
    size_t type_length, device_length, o_length;
    const char *type = compose_setting_text(lookup(options, "type"), &type_length);
    const char *device = compose_setting_text(lookup(options, "device"), &device_length);
    const char *o = compose_setting_text(lookup(options, "o"), &o_length);
    if (type == NULL)
        return SL_OK;   /* mount(2) refuses a device without a type */
    static const char *const read_only_words[] = { "ro", NULL };
    bool read_only = o != NULL && list_word(o, o_length, read_only_words) != NULL;
    if (compose_has_interpolation(type, type_length)) {
        if (device == NULL || !absolute_path(device, device_length))
            return SL_OK;
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_INTERPOLATED, facts);
        mount.source = mount.value = device;
        mount.source_length = mount.value_length = device_length;
        mount.volume = name;
        mount.volume_length = name_length;
        mount.part = SL_MOUNT_PART_TYPE;
        mount.interpolated = type;
        mount.interpolated_length = type_length;
        return deliver(walk, &mount);
    }
    const char *kernel = kernel_file_system_path(type, type_length);
    if (kernel != NULL)
        return typed_host_path(walk, facts, kernel, strlen(kernel), name, name_length, type,
                               type_length, read_only);
    if (text_equals(type, type_length, "overlay"))
        return overlay_directories(walk, facts, o, o_length, name, name_length, type,
                                   type_length, read_only);
    if (device_not_host(type, type_length) || device == NULL ||
        !absolute_path(device, device_length))
        return SL_OK;
    return typed_host_path(walk, facts, device, device_length, name, name_length, type,
                           type_length, read_only);
}

/*
 * A reference to the named volume name (as written in the service): a host
 * mount when its top-level definition uses the local driver and binds
 * driver_opts.device.  A definition whose driver or driver_opts.o is
 * interpolated, where the literal parts leave a bind possible, cannot be
 * checked and is keyed by the device too.  Any other driver may bind-mount
 * the host paths its driver_opts name (SL_MOUNT_DRIVER_PATH).
 */
static int named_volume(struct mount_walk *walk, const struct entry_facts *facts,
                        const char *name, size_t name_length)
{
    const struct sl_node *volumes = lookup(walk->root, "volumes");
    const struct sl_node *definition =
        model_mapping_get(volumes, name, name_length, NULL);
    if (definition == NULL || definition->kind != SL_NODE_MAPPING)
        return SL_OK;
    const struct sl_node *options = lookup(definition, "driver_opts");
    const struct sl_node *driver_node = lookup(definition, "driver");
    size_t driver_length, o_length, device_length;
    const char *driver = compose_setting_text(driver_node, &driver_length);
    const char *o = compose_setting_text(lookup(options, "o"), &o_length);
    const char *device = compose_setting_text(lookup(options, "device"), &device_length);

    /* No driver (or an empty one) is Compose's default, local; a driver
     * that is not a scalar is not local. */
    bool local = driver == NULL ? compose_node_empty(driver_node) ||
                                      driver_node->kind == SL_NODE_SCALAR
                                : text_equals(driver, driver_length, "local");
    bool driver_interpolated =
        !local && compose_has_interpolation(driver, driver_length);
    static const char *const binds[] = { "bind", "rbind", NULL };
    const char *bind = o != NULL ? list_word(o, o_length, binds) : NULL;
    bool o_interpolated = bind == NULL && o != NULL &&
                          compose_has_interpolation(o, o_length);

    if (local && bind != NULL)
        return host_path(walk, facts, device, device_length, name, name_length,
                         bind);
    if ((local || driver_interpolated) && (bind != NULL || o_interpolated)) {
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_INTERPOLATED, facts);
        mount.source = device;
        mount.source_length = device_length;
        mount.volume = name;
        mount.volume_length = name_length;
        mount.value = device != NULL ? device : SL_MOUNT_UNSPECIFIED;
        mount.value_length = device != NULL ? device_length
                                            : strlen(SL_MOUNT_UNSPECIFIED);
        mount.part = driver_interpolated ? SL_MOUNT_PART_DRIVER
                                         : SL_MOUNT_PART_DRIVER_OPTS_O;
        mount.interpolated = driver_interpolated ? driver : o;
        mount.interpolated_length = driver_interpolated ? driver_length : o_length;
        return deliver(walk, &mount);
    }
    if (!local)
        return driver_paths(walk, facts, options, name, name_length);
    if (options != NULL && options->kind == SL_NODE_MAPPING)
        return file_system_volume(walk, facts, options, name, name_length);
    return SL_OK;
}

/* A long-syntax mapping: {type, source, target, read_only, ...}. */
static int long_syntax(struct mount_walk *walk, struct entry_facts *facts,
                       const struct sl_node *item)
{
    const struct sl_node *type_node = lookup(item, "type");
    const struct sl_node *source_node = lookup(item, "source");
    if (!compose_node_empty(type_node) && type_node->kind != SL_NODE_SCALAR)
        return unsupported(walk, facts, type_node);
    if (!compose_node_empty(source_node) && source_node->kind != SL_NODE_SCALAR)
        return unsupported(walk, facts, source_node);
    size_t source_length;
    const char *source = compose_setting_text(source_node, &source_length);
    facts->type = compose_setting_text(type_node, &facts->type_length);
    facts->target = compose_setting_text(lookup(item, "target"), &facts->target_length);
    facts->read_only = compose_node_truthy(lookup(item, "read_only"));
    const char *type = facts->type;
    size_t type_length = facts->type_length;

    bool bind;
    if (type == NULL) {
        /* No type: Compose's default is a volume, but a host path can only
         * be bound, so read it as bind. */
        bind = source != NULL &&
               compose_classify_source(source, source_length) == SL_SOURCE_HOST_PATH;
    } else if (compose_has_interpolation(type, type_length)) {
        const char *value = source != NULL ? source : type;
        size_t value_length = source != NULL ? source_length : type_length;
        return interpolated(walk, facts, value, value_length, SL_MOUNT_PART_TYPE,
                            type, type_length);
    } else if (text_equals(type, type_length, "bind") ||
               text_equals(type, type_length, "npipe")) {
        bind = true;
    } else if (text_equals(type, type_length, "volume")) {
        bind = false;
    } else {
        return SL_OK;   /* tmpfs, image, cluster: no host path */
    }

    /* An interpolated source that resolves is the path it resolves to
     * (SPEC §13): a bind's, or, without a type, one that is a host path. */
    const char *resolved;
    size_t resolved_length;
    if (source != NULL && walk->resolver != NULL && (bind || type == NULL) &&
        compose_has_interpolation(source, source_length) &&
        walk->resolver->resolve(walk->resolver->data, source, source_length, &resolved,
                                &resolved_length) &&
        resolved_length != 0 &&
        (bind || compose_classify_source(resolved, resolved_length) == SL_SOURCE_HOST_PATH))
        return host_path(walk, facts, resolved, resolved_length, NULL, 0, NULL);
    if (bind)
        return host_path(walk, facts, source, source_length, NULL, 0, NULL);
    if (source == NULL)
        return SL_OK;   /* an anonymous volume */
    if (compose_has_interpolation(source, source_length))
        return interpolated(walk, facts, source, source_length,
                            SL_MOUNT_PART_SOURCE, source, source_length);
    return named_volume(walk, facts, source, source_length);
}

/* A short-syntax item SOURCE:TARGET[:MODE], or an anonymous volume. */
static int short_syntax(struct mount_walk *walk, struct entry_facts *facts,
                        const char *text, size_t length)
{
    struct sl_volume volume;
    memset(&volume, 0, sizeof(volume));
    volume.struct_size = sizeof(volume);
    if (compose_parse_volume(text, length, &volume) != SL_OK)
        return SL_OK;
    facts->target = volume.target;
    facts->target_length = volume.target_length;
    facts->mode = volume.mode;
    facts->mode_length = volume.mode_length;
    facts->read_only = mode_read_only(volume.mode, volume.mode_length);
    switch (volume.source_kind) {
    case SL_SOURCE_HOST_PATH:
        return host_path(walk, facts, volume.source, volume.source_length,
                         NULL, 0, NULL);
    case SL_SOURCE_INTERPOLATED: {
        /* Resolved to a host path: that host mount (SPEC §13). */
        const char *resolved;
        size_t resolved_length;
        struct sl_volume bound;
        memset(&bound, 0, sizeof(bound));
        bound.struct_size = sizeof(bound);
        if (walk->resolver != NULL &&
            walk->resolver->resolve(walk->resolver->data, text, length, &resolved,
                                    &resolved_length) &&
            compose_parse_volume(resolved, resolved_length, &bound) == SL_OK &&
            bound.source_kind == SL_SOURCE_HOST_PATH) {
            facts->target = bound.target;
            facts->target_length = bound.target_length;
            facts->mode = bound.mode;
            facts->mode_length = bound.mode_length;
            facts->read_only = mode_read_only(bound.mode, bound.mode_length);
            return host_path(walk, facts, bound.source, bound.source_length, NULL, 0, NULL);
        }
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_INTERPOLATED, facts);
        mount.source = volume.source;
        mount.source_length = volume.source_length;
        mount.value = text;
        mount.value_length = length;
        mount.part = SL_MOUNT_PART_SOURCE;
        mount.interpolated = volume.source;
        mount.interpolated_length = volume.source_length;
        return deliver(walk, &mount);
    }
    case SL_SOURCE_VOLUME_NAME:
        return named_volume(walk, facts, volume.source, volume.source_length);
    default:
        /* Anonymous.  An item that starts with an interpolation may expand
         * to SOURCE:TARGET, so it cannot be checked. */
        if (length >= 2 && compose_has_interpolation(text, 2))
            return interpolated(walk, facts, text, length, SL_MOUNT_PART_ENTRY,
                                text, length);
        return SL_OK;
    }
}

/* One volumes_from entry: "container:NAME[:MODE]" imports the mounts of a
 * container that this file does not declare; "SERVICE[:MODE]" is fine. */
static int volumes_from_entry(struct mount_walk *walk, struct entry_facts *facts,
                              const struct sl_node *entry)
{
    if (entry == NULL || entry->kind != SL_NODE_SCALAR)
        return unsupported(walk, facts, entry);
    if (compose_node_empty(entry))
        return SL_OK;
    const char *text = entry->u.scalar.text;
    size_t length = entry->u.scalar.length;
    static const char prefix[] = "container:";
    size_t prefix_length = sizeof(prefix) - 1;
    if (length >= prefix_length && memcmp(text, prefix, prefix_length) == 0) {
        const char *name = text + prefix_length;
        const char *end = memchr(name, ':', length - prefix_length);
        size_t name_length = end ? (size_t)(end - name) : length - prefix_length;
        if (end != NULL) {
            facts->mode = end + 1;
            facts->mode_length = length - prefix_length - name_length - 1;
            facts->read_only = mode_read_only(facts->mode, facts->mode_length);
        }
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_CONTAINER, facts);
        mount.source = name;
        mount.source_length = name_length;
        mount.value = text;
        mount.value_length = length;
        return deliver(walk, &mount);
    }
    if (compose_has_interpolation(text, length))
        return interpolated(walk, facts, text, length, SL_MOUNT_PART_ENTRY, text,
                            length);
    return SL_OK;
}

/* Visits every entry of one list setting (Compose also accepts a single
 * scalar): a list item is pointed at by the item, a scalar given for the
 * list by the key. */
static int walk_setting(struct mount_walk *walk, const struct sl_node *service,
                        const char *field, int syntax_of_scalars)
{
    const struct sl_node *key;
    const struct sl_node *value = model_mapping_get(service, field, strlen(field),
                                                    &key);
    if (compose_node_empty(value))
        return SL_OK;
    bool list = value->kind == SL_NODE_SEQUENCE;
    size_t count = list ? value->u.sequence.count : 1;
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *item = list ? value->u.sequence.items[i] : value;
        struct entry_facts facts;
        memset(&facts, 0, sizeof(facts));
        facts.field = field;
        facts.node = list ? item : key;
        facts.entry = item;
        facts.syntax = syntax_of_scalars;
        int status;
        if (syntax_of_scalars == SL_MOUNT_VOLUMES_FROM) {
            status = volumes_from_entry(walk, &facts, item);
        } else if (compose_node_empty(item)) {
            continue;   /* an empty item is no setting */
        } else if (item->kind == SL_NODE_SCALAR) {
            status = short_syntax(walk, &facts, item->u.scalar.text,
                                  item->u.scalar.length);
        } else if (item->kind == SL_NODE_MAPPING) {
            facts.syntax = SL_MOUNT_LONG;
            status = long_syntax(walk, &facts, item);
        } else {
            status = unsupported(walk, &facts, item);
        }
        if (status != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

int host_mounts_each(struct sl_context *ctx, const struct sl_node *root,
                     const struct sl_node *service, size_t mount_size,
                     sl_mount_fn visit, void *data, const char **problem)
{
    return host_mounts_each_resolved(ctx, root, service, mount_size, visit, data, NULL,
                                     problem);
}

int host_mounts_each_resolved(struct sl_context *ctx, const struct sl_node *root,
                              const struct sl_node *service, size_t mount_size,
                              sl_mount_fn visit, void *data,
                              const struct host_mount_resolver *resolver,
                              const char **problem)
{
    *problem = NULL;
    struct sl_mount own;
    struct mount_walk walk = { ctx, root, true, resolver, visit, data, { NULL, 0, NULL } };
    if (visit == NULL ||
        sized_out_begin(&walk.out, &own, sizeof(own), mount_size, HOST_MOUNT_SIZE_1_1) != 0) {
        *problem = "host_mounts(): no callback, or a mount_size that is not the size "
                   "of a struct sl_mount";
        return SL_ERROR;
    }
    int status = walk_setting(&walk, service, "volumes", SL_MOUNT_SHORT);
    if (status == SL_OK)
        status = walk_setting(&walk, service, "volumes_from", SL_MOUNT_VOLUMES_FROM);
    sized_out_end(&walk.out);
    return status;
}

/* ------------------------------------------------------------------ */
/* hostPath volumes (agent-env services and pod specs)                 */
/* ------------------------------------------------------------------ */

/* One item of volumes[]: a hostPath volume is a host mount of its path
 * (SL_MOUNT_UNSPECIFIED when it has none), pointed at by the path or, when
 * it has none, by the hostPath key; other volume types are none. */
static int path_volume(struct mount_walk *walk, const struct sl_node *item,
                       const char *holder_key, const char *field)
{
    const struct sl_node *host_key = NULL, *path_key = NULL;
    const struct sl_node *host = model_mapping_get(item, holder_key, strlen(holder_key),
                                                   &host_key);
    if (compose_node_empty(host))
        return SL_OK;   /* not a hostPath volume (or an agent-env string) */
    struct entry_facts facts;
    memset(&facts, 0, sizeof(facts));
    facts.syntax = SL_MOUNT_HOST_PATH_VOLUME;
    facts.field = field;
    facts.node = host_key;
    facts.entry = item;
    if (host->kind != SL_NODE_MAPPING) {
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_UNSUPPORTED, &facts);
        mount.entry = host;
        mount.value = host->kind == SL_NODE_SEQUENCE ? "<sequence>" : "<scalar>";
        mount.value_length = strlen(mount.value);
        return deliver(walk, &mount);
    }
    const struct sl_node *path = model_mapping_get(host, "path", 4, &path_key);
    if (path != NULL && path->kind != SL_NODE_SCALAR) {
        facts.node = path_key;
        return unsupported(walk, &facts, path);
    }
    size_t length;
    const char *text = compose_setting_text(path, &length);
    if (text == NULL)
        return host_path(walk, &facts, NULL, 0, NULL, 0, NULL);
    facts.node = path;
    if (kubernetes_is_templated(text, length)) {
        struct sl_mount mount;
        mount_from_facts(&mount, SL_MOUNT_INTERPOLATED, &facts);
        mount.value = mount.source = mount.interpolated = text;
        mount.value_length = mount.source_length = mount.interpolated_length = length;
        mount.part = SL_MOUNT_PART_SOURCE;
        return deliver(walk, &mount);
    }
    return host_path(walk, &facts, text, length, NULL, 0, NULL);
}

int host_mounts_path_volumes(struct sl_context *ctx, const struct sl_node *pod,
                             size_t mount_size, sl_mount_fn visit, void *data,
                             const char **problem)
{
    *problem = NULL;
    struct sl_mount own;
    struct mount_walk walk = { ctx, NULL, false, NULL, visit, data, { NULL, 0, NULL } };
    if (visit == NULL ||
        sized_out_begin(&walk.out, &own, sizeof(own), mount_size, HOST_MOUNT_SIZE_1_1) != 0) {
        *problem = "host_mounts(): no callback, or a mount_size that is not the size "
                   "of a struct sl_mount";
        return SL_ERROR;
    }
    const struct sl_node *volumes = lookup(pod, "volumes");
    int status = SL_OK;
    for (size_t i = 0; volumes != NULL && volumes->kind == SL_NODE_SEQUENCE &&
                       i < volumes->u.sequence.count && status == SL_OK; i++)
        status = path_volume(&walk, volumes->u.sequence.items[i], "hostPath",
                             "volumes");
    sized_out_end(&walk.out);
    return status;
}

int host_mounts_path_holders(struct sl_context *ctx, const struct sl_node *const *holders,
                             const char *const *holder_keys, size_t count,
                             size_t mount_size, sl_mount_fn visit, void *data,
                             const char **problem)
{
    *problem = NULL;
    struct sl_mount own;
    struct mount_walk walk = { ctx, NULL, false, NULL, visit, data, { NULL, 0, NULL } };
    if (visit == NULL ||
        sized_out_begin(&walk.out, &own, sizeof(own), mount_size, HOST_MOUNT_SIZE_1_1) != 0) {
        *problem = "host_mounts(): no callback, or a mount_size that is not the size "
                   "of a struct sl_mount";
        return SL_ERROR;
    }
    int status = SL_OK;
    for (size_t i = 0; i < count && status == SL_OK; i++)
        status = path_volume(&walk, holders[i], holder_keys[i], holder_keys[i]);
    sized_out_end(&walk.out);
    return status;
}
