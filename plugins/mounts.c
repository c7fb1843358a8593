/*
 * mounts.c - SBX003: host files reached through mounts.
 *
 * Every host mount of a service's volumes (short syntax, long syntax bind
 * and npipe, named volumes bound to a host path or mounting one as a file
 * system) that is not a container engine API socket (those are SBX006's),
 * and volumes_from entries that
 * import another container's mounts (SPEC §7); hostPath volumes of
 * agent-env services and Kubernetes pod specs (SPEC §12).  The container
 * model's scope_mounts service finds them where each scope writes them,
 * for SBX006 and in-house rules alike.
 */
#include <sandlint/rule.h>

/* The warning for an entry that depends on an interpolation. */
static int report_interpolated(struct sl_context *ctx, const struct sl_mount *mount)
{
    char quoted[SL_QUOTE_SIZE], path[SL_QUOTE_SIZE];
    if (mount->syntax == SL_MOUNT_HOST_PATH_VOLUME)
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_WARNING,
                          "hostPath volume path '%s' is Helm template text and "
                          "cannot be checked",
                          sl_quote(quoted, sizeof(quoted), mount->interpolated,
                                   mount->interpolated_length));
    switch (mount->part) {
    case SL_MOUNT_PART_DRIVER:
    case SL_MOUNT_PART_DRIVER_OPTS_O:
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_WARNING,
                          "named volume '%s' may bind-mount a host path: its %s "
                          "is interpolated and cannot be checked",
                          sl_quote(quoted, sizeof(quoted), mount->volume,
                                   mount->volume_length),
                          mount->part == SL_MOUNT_PART_DRIVER ? "driver"
                                                              : "driver_opts.o");
    case SL_MOUNT_PART_TYPE:
        if (mount->volume != NULL)
            return sl_reportf(ctx, mount->node, mount->field, mount->value,
                              mount->value_length, SL_SEVERITY_WARNING,
                              "named volume '%s' may mount host path '%s': its "
                              "driver_opts.type is interpolated and cannot be checked",
                              sl_quote(quoted, sizeof(quoted), mount->volume,
                                       mount->volume_length),
                              sl_quote(path, sizeof(path), mount->value,
                                       mount->value_length));
        /* fall through */
    case SL_MOUNT_PART_SOURCE:
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_WARNING,
                          "%s %s '%s' is interpolated and cannot be checked",
                          mount->field,
                          mount->part == SL_MOUNT_PART_TYPE ? "type" : "source",
                          sl_quote(quoted, sizeof(quoted), mount->interpolated,
                                   mount->interpolated_length));
    default:
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_WARNING,
                          "%s entry '%s' is interpolated and cannot be checked",
                          mount->field,
                          sl_quote(quoted, sizeof(quoted), mount->interpolated,
                                   mount->interpolated_length));
    }
}

/* What the message adds about where a host path lies: seed 003's
 * forbidden mounts and the credential directories, or a climb out of the
 * project. */
static const char *place(const struct sl_mount *mount)
{
    if (mount->flags & SL_MOUNT_SYSTEM_DIRECTORY)
        return ", a host system directory";
    if (mount->flags & SL_MOUNT_SYSTEM_PATH)
        return ", inside a host system directory";
    if (mount->flags & SL_MOUNT_OUTSIDE_PROJECT)
        return ", which climbs out of the Compose file's directory";
    return "";
}

/* Security severity of a host mount for code scanning.  A host system
 * directory is critical (SPEC §9): /etc, /proc, /sys, /dev and the
 * credential directories hand the sandbox the host's configuration,
 * kernel interfaces, devices or keys; read-only it is still a full view of
 * them.  Every other host path is the rule's 7.5. */
static double score(const struct sl_mount *mount)
{
    if (!(mount->flags & SL_MOUNT_SYSTEM_PATH))
        return 0.0;
    return mount->flags & SL_MOUNT_READ_ONLY ? 9.0 : 9.5;
}

/* A named volume whose driver (not local) may bind-mount a host path its
 * driver_opts name: a warning, since what the driver does with it cannot
 * be known from the file. */
static int report_driver_path(struct sl_context *ctx, const struct sl_mount *mount)
{
    char quoted[SL_QUOTE_SIZE], volume[SL_QUOTE_SIZE], driver[SL_QUOTE_SIZE];
    const struct sl_node *definition =
        sl_definition(ctx, "volumes", mount->volume, mount->volume_length, NULL);
    const struct sl_node *driver_node = sl_mapping_value(definition, "driver", NULL);
    size_t driver_length = 0;
    const char *driver_text = sl_setting_text(driver_node, &driver_length);
    if (driver_text == NULL) {
        driver_text = sl_kind_value(driver_node);
        driver_length = strlen(driver_text);
    }
    return sl_reportf(ctx, mount->node, mount->field, mount->value,
                      mount->value_length, SL_SEVERITY_WARNING,
                      "named volume '%s' uses driver '%s', which may bind-mount "
                      "host path '%s'%s",
                      sl_quote(volume, sizeof(volume), mount->volume,
                               mount->volume_length),
                      sl_quote(driver, sizeof(driver), driver_text, driver_length),
                      sl_quote(quoted, sizeof(quoted), mount->value,
                               mount->value_length),
                      place(mount));
}

/* How a host mount is made: a bind, or (a named volume of the local
 * driver without bind) a mount of a file system whose device is the host
 * path: under /dev, a host device. */
static const char *host_mount_words(const struct sl_mount *mount)
{
    if (mount->volume == NULL || mount->bind_option != NULL || mount->type == NULL)
        return "bind-mounts host path";
    if (mount->value_length > 5 && memcmp(mount->value, "/dev/", 5) == 0)
        return "mounts host device";
    return "mounts host path";
}

static int report_mount(struct sl_context *ctx, const struct sl_mount *mount,
                        void *data)
{
    char quoted[SL_QUOTE_SIZE];
    char described[SL_MOUNT_DESCRIPTION_SIZE];
    (void)data;
    switch (mount->kind) {
    case SL_MOUNT_HOST_PATH:
        if (mount->flags & SL_MOUNT_ENGINE_API)
            return SL_OK;   /* reported by SBX006 instead */
        return sl_reportf_scored(ctx, mount->node, mount->field, mount->value,
                                 mount->value_length, SL_SEVERITY_DEFAULT,
                                 score(mount), "%s '%s'%s%s", host_mount_words(mount),
                                 sl_quote(quoted, sizeof(quoted), mount->value,
                                          mount->value_length),
                                 sl_mount_describe(mount, described,
                                                   sizeof(described)),
                                 place(mount));
    case SL_MOUNT_DRIVER_PATH:
        return report_driver_path(ctx, mount);
    case SL_MOUNT_CONTAINER:
        /* Only a Compose file has other services to compare with; a
         * command line or a runner's volumes_from names some container
         * of the engine. */
        if (sl_kind(ctx) != SL_KIND_COMPOSE)
            return sl_reportf(ctx, mount->node, mount->field, mount->value,
                              mount->value_length, SL_SEVERITY_DEFAULT,
                              "%s '%s' imports the mounts of another container",
                              mount->field,
                              sl_quote(quoted, sizeof(quoted), mount->value,
                                       mount->value_length));
        return sl_reportf(ctx, mount->node, mount->field, mount->value,
                          mount->value_length, SL_SEVERITY_DEFAULT,
                          "volumes_from '%s' imports the mounts of a container "
                          "outside this Compose file",
                          sl_quote(quoted, sizeof(quoted), mount->value,
                                   mount->value_length));
    case SL_MOUNT_INTERPOLATED:
        return report_interpolated(ctx, mount);
    case SL_MOUNT_UNSUPPORTED:
        return sl_report_unchecked(ctx, mount->node, mount->field, mount->entry);
    default:
        return SL_OK;   /* a kind of a later version */
    }
}

/* The mounts a container or pod writes: a Compose service's volumes and
 * volumes_from, a pod's hostPath volumes. */
static int check_scope(struct sl_context *ctx, const struct sl_scope *scope)
{
    return sl_scope_mounts(ctx, scope, report_mount, NULL);
}

static const struct sl_rule mounts_rule = {
    SL_RULE_INIT,
    .code = "SBX003",
    .name = "mounts",
    .group = "sandbox_privileges",
    .group_code = "IESC001",
    .security_severity = 7.5,
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
        "- a named volume of the local driver without bind whose driver_opts "
        "mount something of the host as a file system (the engine mounts it "
        "in the host's namespaces): a device that is an absolute host path "
        "with a type (ext4 /dev/sda1, a disk image), a kernel file system of "
        "the host (type proc, sysfs, cgroup, cgroup2, debugfs, tracefs, "
        "securityfs, configfs, bpf, pstore, efivarfs or binfmt_misc, keyed by "
        "the host directory it shows: /proc, /sys...), and the lowerdir and "
        "upperdir directories of an overlay's o. tmpfs, devpts, mqueue, "
        "hugetlbfs and remote shares (nfs, cifs) are fine; an interpolated "
        "type with a host device is a warning;\n"
        "- volumes_from entries of the form container:NAME[:MODE].\n"
        "A host mount that exposes a container engine API socket is "
        "reported by SBX006 (engine_sockets) instead.\n"
        "The message says when the source is, or lies under, a host system "
        "directory (the mounts a hardened sandbox runner refuses, and the "
        "places that hold credentials): /proc, /sys, /dev, /etc, /boot, /run, /var/run, "
        "/root, /var/lib/docker, ~/.ssh, ~/.aws, ~/.kube, ~/.docker, "
        "~/.config/gcloud (also under /home/USER) and what lies under them, "
        "and /, ~, /home and /home/USER themselves (~, $HOME and ${HOME} "
        "are the home directory; '.' and '..' are resolved first). Such a "
        "finding is critical for code scanning (security-severity 9.5, 9.0 "
        "when read-only). It also says when a relative source climbs out of "
        "the Compose file's directory (../x, ./a/../../b).\n"
        "Warnings, because the value cannot be checked: a short-syntax "
        "source that is only an interpolation (${DATA}:/data, "
        "${HOST:-/srv}:/srv), an item that starts with an interpolation "
        "(${VOLUME_SPEC}), an interpolated long-syntax type, an interpolated "
        "source of a volume, a named volume whose driver or driver_opts.o "
        "is interpolated, an interpolated volumes_from entry, and a named "
        "volume with a driver other than local whose driver_opts hold an "
        "absolute host path (mountpoint, device, path or source, as "
        "local-persist uses): the driver may bind-mount that path.\n"
        "Anonymous volumes, named volumes without a host binding, tmpfs, "
        "image and cluster mounts, and volumes_from SERVICE[:MODE] are fine.\n"
        "In agent-env values (services.S.volumes) and Kubernetes pod specs "
        "(volumes), every hostPath volume: its path, <unspecified> when it "
        "has none; a path of Helm template text ({{ ... }}) is a warning; a "
        "PersistentVolume's local.path, a directory of the node as a "
        "hostPath is. "
        "The chart's 'name:/path' strings name its own shared volumes and "
        "are fine, as are emptyDir, configMap, secret, persistentVolumeClaim "
        "and every other volume type.",
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
        "volume its driver_opts.device (a kernel file system: the host "
        "directory it shows; an overlay: each directory); <unspecified> for "
        "a bind without a source\n"
        "service:volumes:PATH for a named volume whose driver may bind-mount "
        "the host path PATH of its driver_opts (e.g. "
        "web:volumes:/srv/data)\n"
        "service:volumes:ITEM for a short-syntax item whose source is only "
        "an interpolation (e.g. web:volumes:${DATA}:/data)\n"
        "service:volumes_from:ENTRY (e.g. web:volumes_from:container:db:ro)\n"
        "agent-env: S:volumes:PATH for a hostPath volume, the key a Compose "
        "bind mount of the same path has, so one allowlist entry covers "
        "both (e.g. default:volumes:/data)\n"
        "Kubernetes: KIND/NAME:volumes:PATH (e.g. Pod/runner:volumes:/etc); "
        "outside a pod's volumes KIND/NAME:hostPath:PATH (a "
        "PersistentVolume) or KIND/NAME:hostDisk:PATH (KubeVirt); "
        "PersistentVolume/NAME:local:PATH for its local.path; "
        "NAMESPACE/ leads when the object has one (e.g. "
        "evals/Pod/runner:volumes:/etc)",
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
    .kinds = SL_KIND_EVERY,
    .check_container = check_scope,
    .check_scope = check_scope,
    .url = RULE_DOCS_URL "SBX003.md",
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
