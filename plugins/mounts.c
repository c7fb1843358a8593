/*
 * mounts.c - SBX003: host files reached through mounts.
 *
 * Every host mount of a service's volumes (short syntax, long syntax bind
 * and npipe, named volumes bound to a host path) that is not a container
 * engine API socket (those are SBX006's), and volumes_from entries that
 * import another container's mounts (SPEC §7).  The enumeration of host
 * mounts is shared with SBX006 through mount_util.h.
 */
#include <string.h>

#include "sandlint/plugin.h"
#include "plugin_util.h"
#include "mount_util.h"

static int report_mount(struct sl_context *ctx, const struct mount_entry *entry,
                        void *data)
{
    (void)data;
    char quoted[UTIL_QUOTE_MAX + 8];
    switch (entry->kind) {
    case MOUNT_HOST:
        if (entry->engine_socket)
            return SL_OK;   /* reported by SBX006 instead */
        return util_report(ctx, entry->where, "volumes", entry->value,
                           entry->value_length, SL_SEVERITY_DEFAULT,
                           "bind-mounts host path '%s'%s",
                           util_quote(quoted, sizeof(quoted), entry->value,
                                      entry->value_length),
                           entry->text);
    case MOUNT_INTERPOLATED:
        return util_report(ctx, entry->where, "volumes", entry->value,
                           entry->value_length, SL_SEVERITY_WARNING, "%s",
                           entry->text);
    case MOUNT_UNSUPPORTED:
        return util_report_unchecked(ctx, entry->where, "volumes", entry->node);
    }
    return SL_OK;
}

/* One volumes_from entry: "container:NAME[:MODE]" imports the mounts of a
 * container that this file does not declare; "SERVICE[:MODE]" is fine. */
static int check_volumes_from(struct sl_context *ctx, const struct sl_node *where,
                              const struct sl_node *entry)
{
    const struct sl_host *host = sandlint_host;
    size_t length;
    const char *text = host->node_text(entry, &length);
    if (text == NULL || host->node_kind(entry) != SL_NODE_SCALAR)
        return util_report_unchecked(ctx, where, "volumes_from", entry);
    if (host->is_empty(entry))
        return SL_OK;
    char quoted[UTIL_QUOTE_MAX + 8];
    util_quote(quoted, sizeof(quoted), text, length);
    if (length >= 10 && memcmp(text, "container:", 10) == 0)
        return util_report(ctx, where, "volumes_from", text, length,
                           SL_SEVERITY_DEFAULT,
                           "volumes_from '%s' imports the mounts of a "
                           "container outside this Compose file", quoted);
    if (host->has_interpolation(text, length))
        return util_report(ctx, where, "volumes_from", text, length,
                           SL_SEVERITY_WARNING,
                           "volumes_from entry '%s' is interpolated and "
                           "cannot be checked", quoted);
    return SL_OK;
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *service_key,
                         const struct sl_node *settings)
{
    (void)service;
    (void)service_key;
    const struct sl_host *host = sandlint_host;
    if (mount_each(ctx, settings, report_mount, NULL) != SL_OK)
        return SL_ERROR;
    const struct sl_node *key;
    const struct sl_node *value = host->mapping_value(settings, "volumes_from", &key);
    size_t count = util_list_count(value);
    for (size_t i = 0; i < count; i++) {
        const struct sl_node *where;
        const struct sl_node *entry = util_list_entry(value, key, i, &where);
        if (check_volumes_from(ctx, where, entry) != SL_OK)
            return SL_ERROR;
    }
    return SL_OK;
}

static const struct sl_rule mounts_rule = {
    SL_RULE_INIT,
    .code = "SBX003",
    .name = "mounts",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .summary = "host files reached through mounts",
    .description =
        "Reports every volumes item of a service that makes a host path "
        "visible inside the container, and every volumes_from entry that "
        "imports a container's mounts:\n"
        "- short syntax SOURCE:TARGET[:MODE] whose source is a host path: "
        "'.' or '..', a path starting with '/', './', '../', '.\\', '..\\', "
        "'~' or '\\', a Windows drive path (C:\\ or C:/), or any source with "
        "'/' or '\\' outside its interpolations (${HOME}/.ssh, $PWD/src, "
        "data/sub), since a volume name cannot hold a separator. An item "
        "without a target (/cache, /cache:ro) is an anonymous volume;\n"
        "- long syntax with type bind or type npipe (a Windows named pipe), "
        "with or without a source. A mapping without a type is read as a "
        "volume, except that a source that is a host path makes it a bind;\n"
        "- a named volume (short syntax, or long syntax type volume) whose "
        "top-level definition has no driver or the local driver and lists "
        "bind or rbind in driver_opts.o: it mounts driver_opts.device;\n"
        "- volumes_from entries of the form container:NAME[:MODE].\n"
        "A host mount that exposes a container engine API socket is "
        "reported by SBX006 (engine_sockets) instead.\n"
        "Warnings, because the value cannot be checked: a short-syntax "
        "source that is only an interpolation (${DATA}:/data, "
        "${HOST:-/srv}:/srv), an item that starts with an interpolation "
        "(${VOLUME_SPEC}), an interpolated long-syntax type, an interpolated "
        "source of a volume, a named volume whose driver or driver_opts.o "
        "is interpolated, and an interpolated volumes_from entry.\n"
        "Anonymous volumes, named volumes without a host binding, tmpfs, "
        "image and cluster mounts, and volumes_from SERVICE[:MODE] are fine.",
    .rationale =
        "A bind mount hands the container a piece of the host's file "
        "system. When it is writable, sandboxed code can change host files; "
        "even read-only it can read whatever the path holds: credentials, "
        "SSH keys, source trees, evaluation answers. rbind also brings in "
        "every file system mounted below the path, and a named pipe is a "
        "channel to whatever host service listens on it. volumes_from with "
        "container: copies the mounts of a container this file does not "
        "declare, so nobody reviewing the file can see what they expose.",
    .fix =
        "Copy the files into the image, or use a named or anonymous volume "
        "or tmpfs. If the sandbox really needs the host path, mount the "
        "narrowest path read-only, write down why, and allowlist the key "
        "under sandbox_privileges for the package (the finding then "
        "becomes a warning). Replace volumes_from container:NAME with a "
        "service of this file or a shared named volume.",
    .key_format =
        "service:volumes:SOURCE, the host source as written (e.g. "
        "default:volumes:./data, default:volumes:${HOME}/.ssh); for a named "
        "volume its driver_opts.device; <unspecified> for a bind without a "
        "source\n"
        "service:volumes:ITEM for a short-syntax item whose source is only "
        "an interpolation (e.g. web:volumes:${DATA}:/data)\n"
        "service:volumes_from:ENTRY (e.g. web:volumes_from:container:db:ro)",
    .example =
        "services:\n"
        "  default:\n"
        "    image: sandbox:1.0\n"
        "    volumes:\n"
        "      - ./challenge:/challenge:ro\n"
        "      - type: bind\n"
        "        source: ${HOME}/.ssh\n"
        "        target: /root/.ssh\n"
        "    volumes_from:\n"
        "      - container:builder:ro",
    .default_severity = SL_SEVERITY_ERROR,
    .check_document = NULL,
    .check_service = check_service,
};

static const struct sl_rule *const rules[] = { &mounts_rule, NULL };

static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT,
    .name = "mounts",
    .version = "1.0.0",
    .summary = "host bind mounts, bound named volumes, named pipes, volumes_from containers",
    .rules = rules,
};

SANDLINT_PLUGIN(plugin)
