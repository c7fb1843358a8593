/* engine_flags.c - docker/podman/nerdctl run and create flags (see engine_flags.h). */
#include "config.h"

#include "engine_flags.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct flag_spec {
    const char *name;           /* the long name, without "--" */
    bool value;                 /* takes a value */
    enum engine_flag_meaning meaning;
};

#define V true
#define B false
#define OTHER ENGINE_FLAG_OTHER

/*
 * Every flag of "run" and "create" in docker (D), podman (P) and nerdctl
 * (N), and the global flags podman and nerdctl also take after the
 * subcommand; sorted by name (tests/test_engine_flags.c checks it).  The
 * letters are in run_letters below.
 */
static const struct flag_spec run_flags[] = {
    { "add-host", V, ENGINE_FLAG_ADD_HOST },                /* D P N */
    { "address", V, OTHER },                                /* N global */
    { "annotation", V, ENGINE_FLAG_ANNOTATION },            /* D P N */
    { "arch", V, OTHER },                                   /* P */
    { "attach", V, OTHER },                                 /* D P N */
    { "authfile", V, OTHER },                               /* P */
    { "blkio-weight", V, OTHER },                           /* D P */
    { "blkio-weight-device", V, OTHER },                    /* D P N */
    { "bridge-ip", V, OTHER },                              /* N global */
    { "cap-add", V, ENGINE_FLAG_CAP_ADD },                  /* D P N */
    { "cap-drop", V, ENGINE_FLAG_CAP_DROP },                /* D P N */
    { "cdi-spec-dir", V, OTHER },                           /* P global */
    { "cdi-spec-dirs", V, OTHER },                          /* N global */
    { "cert-dir", V, OTHER },                               /* P */
    { "cgroup-conf", V, OTHER },                            /* P N */
    { "cgroup-manager", V, OTHER },                         /* P N global */
    { "cgroup-parent", V, ENGINE_FLAG_CGROUP_PARENT },      /* D P N */
    { "cgroupns", V, ENGINE_FLAG_CGROUPNS },                /* D P N */
    { "cgroups", V, OTHER },                                /* P */
    { "chrootdirs", V, OTHER },                             /* P */
    { "cidfile", V, OTHER },                                /* D P N */
    { "cni-netconfpath", V, OTHER },                        /* N global */
    { "cni-path", V, OTHER },                               /* N global */
    { "conmon", V, OTHER },                                 /* P global */
    { "conmon-pidfile", V, OTHER },                         /* P */
    { "cosign-certificate-identity", V, OTHER },            /* N */
    { "cosign-certificate-identity-regexp", V, OTHER },     /* N */
    { "cosign-certificate-oidc-issuer", V, OTHER },         /* N */
    { "cosign-certificate-oidc-issuer-regexp", V, OTHER },  /* N */
    { "cosign-key", V, OTHER },                             /* N */
    { "cpu-count", V, OTHER },                              /* D */
    { "cpu-percent", V, OTHER },                            /* D */
    { "cpu-period", V, ENGINE_FLAG_CPU_PERIOD },            /* D P N */
    { "cpu-profile", V, OTHER },                            /* P global */
    { "cpu-quota", V, ENGINE_FLAG_CPU_QUOTA },              /* D P N */
    { "cpu-rt-period", V, OTHER },                          /* D P */
    { "cpu-rt-runtime", V, OTHER },                         /* D P */
    { "cpu-shares", V, ENGINE_FLAG_CPU_SHARES },            /* D P N */
    { "cpus", V, ENGINE_FLAG_CPUS },                        /* D P N */
    { "cpuset-cpus", V, ENGINE_FLAG_CPUSET_CPUS },          /* D P N */
    { "cpuset-mems", V, OTHER },                            /* D P N */
    { "creds", V, OTHER },                                  /* P */
    { "data-root", V, OTHER },                              /* N global */
    { "debug", B, OTHER },                                  /* N global */
    { "debug-full", B, OTHER },                             /* N global */
    { "decryption-key", V, OTHER },                         /* P */
    { "default-mounts-file", V, OTHER },                    /* P global */
    { "detach", B, OTHER },                                 /* D P N */
    { "detach-keys", V, OTHER },                            /* D P N */
    { "device", V, ENGINE_FLAG_DEVICE },                    /* D P N */
    { "device-cgroup-rule", V, ENGINE_FLAG_DEVICE_CGROUP_RULE },    /* D P */
    { "device-read-bps", V, OTHER },                        /* D P N */
    { "device-read-iops", V, OTHER },                       /* D P N */
    { "device-write-bps", V, OTHER },                       /* D P N */
    { "device-write-iops", V, OTHER },                      /* D P N */
    { "disable-content-trust", B, OTHER },                  /* D P */
    { "dns", V, OTHER },                                    /* D P N */
    { "dns-opt", V, OTHER },                                /* D P N */
    { "dns-option", V, OTHER },                             /* D P N */
    { "dns-search", V, OTHER },                             /* D P N */
    { "domainname", V, OTHER },                             /* D N */
    { "entrypoint", V, OTHER },                             /* D P N */
    { "env", V, ENGINE_FLAG_ENV },                          /* D P N */
    { "env-file", V, ENGINE_FLAG_ENV_FILE },                /* D P N */
    { "env-host", B, ENGINE_FLAG_ENV_HOST },                /* P */
    { "env-merge", V, OTHER },                              /* P */
    { "events-backend", V, OTHER },                         /* P global */
    { "experimental", B, OTHER },                           /* N global */
    { "expose", V, OTHER },                                 /* D P N */
    { "gidmap", V, ENGINE_FLAG_UIDMAP },                    /* P */
    { "global-dns", V, OTHER },                             /* N global */
    { "global-dns-opts", V, OTHER },                        /* N global */
    { "global-dns-search", V, OTHER },                      /* N global */
    { "gpus", V, ENGINE_FLAG_GPUS },                        /* D P N */
    { "group-add", V, ENGINE_FLAG_GROUP_ADD },              /* D P N */
    { "group-entry", V, OTHER },                            /* P */
    { "health-cmd", V, OTHER },                             /* D P N */
    { "health-interval", V, OTHER },                        /* D P N */
    { "health-log-destination", V, OTHER },                 /* P */
    { "health-max-log-count", V, OTHER },                   /* P */
    { "health-max-log-size", V, OTHER },                    /* P */
    { "health-on-failure", V, OTHER },                      /* P */
    { "health-retries", V, OTHER },                         /* D P N */
    { "health-start-interval", V, OTHER },                  /* D */
    { "health-start-period", V, OTHER },                    /* D P N */
    { "health-startup-cmd", V, OTHER },                     /* P */
    { "health-startup-interval", V, OTHER },                /* P */
    { "health-startup-retries", V, OTHER },                 /* P */
    { "health-startup-success", V, OTHER },                 /* P */
    { "health-startup-timeout", V, OTHER },                 /* P */
    { "health-timeout", V, OTHER },                         /* D P N */
    { "healthcheck-command", V, OTHER },                    /* P (alias) */
    { "healthcheck-interval", V, OTHER },                   /* P (alias) */
    { "healthcheck-retries", V, OTHER },                    /* P (alias) */
    { "healthcheck-start-period", V, OTHER },               /* P (alias) */
    { "healthcheck-timeout", V, OTHER },                    /* P (alias) */
    { "help", B, OTHER },                                   /* D P N */
    { "hooks-dir", V, ENGINE_FLAG_HOOKS_DIR },              /* P global */
    { "host", V, OTHER },                                   /* N global */
    { "host-gateway-ip", V, OTHER },                        /* N global */
    { "hostname", V, OTHER },                               /* D P N */
    { "hosts-dir", V, OTHER },                              /* N global */
    { "hosts-file", V, OTHER },                             /* P */
    { "hostuser", V, OTHER },                               /* P */
    { "http-proxy", B, OTHER },                             /* P */
    { "image-volume", V, OTHER },                           /* P */
    { "imagestore", V, OTHER },                             /* P global */
    { "infra-command", V, OTHER },                          /* P */
    { "infra-conmon-pidfile", V, OTHER },                   /* P */
    { "infra-name", V, OTHER },                             /* P */
    { "init", B, ENGINE_FLAG_INIT },                        /* D P N */
    { "init-binary", V, OTHER },                            /* N */
    { "init-ctr", V, OTHER },                               /* P create */
    { "init-path", V, OTHER },                              /* P */
    { "insecure-registry", B, OTHER },                      /* N global */
    { "interactive", B, OTHER },                            /* D P N */
    { "io-maxbandwidth", V, OTHER },                        /* D */
    { "io-maxiops", V, OTHER },                             /* D */
    { "ip", V, OTHER },                                     /* D P N */
    { "ip6", V, OTHER },                                    /* D P N */
    { "ipc", V, ENGINE_FLAG_IPC },                          /* D P N */
    { "ipfs-address", V, OTHER },                           /* N */
    { "isolation", V, OTHER },                              /* D N */
    { "kernel-memory", V, OTHER },                          /* D P N */
    { "kube-hide-dupe", B, OTHER },                         /* N global */
    { "label", V, OTHER },                                  /* D P N */
    { "label-file", V, OTHER },                             /* D P N */
    { "link", V, OTHER },                                   /* D */
    { "link-local-ip", V, OTHER },                          /* D */
    { "log-driver", V, OTHER },                             /* D P N */
    { "log-level", V, OTHER },                              /* P global */
    { "log-opt", V, OTHER },                                /* D P N */
    { "mac-address", V, OTHER },                            /* D P N */
    { "max-workers", V, OTHER },                            /* P global */
    { "memory", V, ENGINE_FLAG_MEMORY },                    /* D P N */
    { "memory-profile", V, OTHER },                         /* P global */
    { "memory-reservation", V, OTHER },                     /* D P N */
    { "memory-swap", V, ENGINE_FLAG_MEMORY_SWAP },          /* D P N */
    { "memory-swappiness", V, OTHER },                      /* D P N */
    { "mount", V, ENGINE_FLAG_MOUNT },                      /* D P N */
    { "name", V, ENGINE_FLAG_NAME },                        /* D P N */
    { "namespace", V, OTHER },                              /* P N global */
    { "net", V, ENGINE_FLAG_NETWORK },                      /* D P N */
    { "net-alias", V, OTHER },                              /* D */
    { "network", V, ENGINE_FLAG_NETWORK },                  /* D P N */
    { "network-alias", V, OTHER },                          /* D P */
    { "network-backend", V, OTHER },                        /* P global */
    { "network-config-dir", V, OTHER },                     /* P global */
    { "no-healthcheck", B, OTHER },                         /* D P N */
    { "no-hostname", B, OTHER },                            /* P */
    { "no-hosts", B, OTHER },                               /* P */
    { "oom-kill-disable", B, ENGINE_FLAG_OOM_KILL_DISABLE },    /* D P N */
    { "oom-score-adj", V, OTHER },                          /* D P N */
    { "os", V, OTHER },                                     /* P */
    { "override-arch", V, OTHER },                          /* P (alias) */
    { "override-os", V, OTHER },                            /* P (alias) */
    { "override-variant", V, OTHER },                       /* P (alias) */
    { "passwd", B, OTHER },                                 /* P run */
    { "passwd-entry", V, OTHER },                           /* P */
    { "personality", V, OTHER },                            /* P */
    { "pid", V, ENGINE_FLAG_PID },                          /* D P N */
    { "pidfile", V, OTHER },                                /* P N */
    { "pids-limit", V, ENGINE_FLAG_PIDS_LIMIT },            /* D P N */
    { "platform", V, OTHER },                               /* D P N */
    { "pod", V, ENGINE_FLAG_POD },                          /* P */
    { "pod-id-file", V, OTHER },                            /* P */
    { "preserve-fd", V, OTHER },                            /* P run */
    { "preserve-fds", V, OTHER },                           /* P run */
    { "privileged", B, ENGINE_FLAG_PRIVILEGED },            /* D P N */
    { "publish", V, ENGINE_FLAG_PUBLISH },                  /* D P N */
    { "publish-all", B, ENGINE_FLAG_PUBLISH_ALL },          /* D P N */
    { "pull", V, OTHER },                                   /* D P N */
    { "pull-option", V, OTHER },                            /* P global */
    { "quiet", B, OTHER },                                  /* D P N */
    { "rdt-class", V, OTHER },                              /* P N */
    { "read-only", B, ENGINE_FLAG_READ_ONLY },              /* D P N */
    { "read-only-tmpfs", B, OTHER },                        /* P */
    { "registries-conf", V, OTHER },                        /* P global */
    { "replace", B, OTHER },                                /* P */
    { "requires", V, OTHER },                               /* P */
    { "restart", V, OTHER },                                /* D P N */
    { "retry", V, OTHER },                                  /* P */
    { "retry-delay", V, OTHER },                            /* P */
    { "rm", B, OTHER },                                     /* D P N */
    { "rmi", B, OTHER },                                    /* P run */
    { "root", V, OTHER },                                   /* P global */
    { "rootfs", B, ENGINE_FLAG_ROOTFS },                    /* P N */
    { "runroot", V, OTHER },                                /* P global */
    { "runtime", V, ENGINE_FLAG_RUNTIME },                  /* D N; P global */
    { "runtime-flag", V, OTHER },                           /* P global */
    { "sdnotify", V, OTHER },                               /* P */
    { "seccomp-policy", V, OTHER },                         /* P */
    { "secret", V, ENGINE_FLAG_SECRET },                    /* P */
    { "security-opt", V, ENGINE_FLAG_SECURITY_OPT },        /* D P N */
    { "selinux-enabled", B, OTHER },                        /* N global */
    { "shm-size", V, ENGINE_FLAG_SHM_SIZE },                /* D P N */
    { "shm-size-systemd", V, OTHER },                       /* P */
    { "sig-proxy", B, OTHER },                              /* D P N */
    { "signature-policy", V, OTHER },                       /* P */
    { "snapshotter", V, OTHER },                            /* N global */
    { "stop-signal", V, OTHER },                            /* D P N */
    { "stop-timeout", V, OTHER },                           /* D P N */
    { "storage-driver", V, OTHER },                         /* P N global */
    { "storage-opt", V, OTHER },                            /* D; P global */
    { "subgidname", V, OTHER },                             /* P */
    { "subuidname", V, OTHER },                             /* P */
    { "sysctl", V, ENGINE_FLAG_SYSCTL },                    /* D P N */
    { "syslog", B, OTHER },                                 /* P global */
    { "systemd", V, OTHER },                                /* P N */
    { "timeout", V, OTHER },                                /* P */
    { "tls-verify", B, OTHER },                             /* P */
    { "tmpdir", V, OTHER },                                 /* P global */
    { "tmpfs", V, ENGINE_FLAG_TMPFS },                      /* D P N */
    { "trace", B, OTHER },                                  /* P global */
    { "transient-store", B, OTHER },                        /* P global */
    { "tty", B, OTHER },                                    /* D P N */
    { "tz", V, OTHER },                                     /* P */
    { "uidmap", V, ENGINE_FLAG_UIDMAP },                    /* P */
    { "ulimit", V, ENGINE_FLAG_ULIMIT },                    /* D P N */
    { "umask", V, OTHER },                                  /* P N */
    { "unsetenv", V, OTHER },                               /* P */
    { "unsetenv-all", B, OTHER },                           /* P */
    { "use-api-socket", B, ENGINE_FLAG_USE_API_SOCKET },    /* D */
    { "user", V, ENGINE_FLAG_USER },                        /* D P N */
    { "userns", V, ENGINE_FLAG_USERNS },                    /* D P N */
    { "userns-remap", V, OTHER },                           /* N global */
    { "uts", V, ENGINE_FLAG_UTS },                          /* D P N */
    { "variant", V, OTHER },                                /* P */
    { "verify", V, OTHER },                                 /* N */
    { "volume", V, ENGINE_FLAG_VOLUME },                    /* D P N */
    { "volume-driver", V, OTHER },                          /* D */
    { "volumepath", V, OTHER },                             /* P global */
    { "volumes-from", V, ENGINE_FLAG_VOLUMES_FROM },        /* D P N */
    { "workdir", V, OTHER },                                /* D P N */
};

/* One-letter flags of run/create and the long flag each stands for. */
struct letter {
    char letter;
    const char *name;
};

static const struct letter run_letters[] = {
    { 'a', "attach" }, { 'c', "cpu-shares" }, { 'd', "detach" }, { 'e', "env" },
    { 'h', "hostname" }, { 'i', "interactive" }, { 'l', "label" }, { 'm', "memory" },
    { 'p', "publish" }, { 'P', "publish-all" }, { 'q', "quiet" }, { 't', "tty" },
    { 'u', "user" }, { 'v', "volume" }, { 'w', "workdir" },
    { 'H', "host" }, { 'n', "namespace" },      /* nerdctl's global -H, -n */
};

/* The engines' own options, before the subcommand (docker's main flags,
 * podman's root flags, nerdctl's). */
static const struct flag_spec global_flags[] = {
    { "address", V, OTHER }, { "bridge-ip", V, OTHER }, { "cdi-spec-dir", V, OTHER },
    { "cdi-spec-dirs", V, OTHER }, { "cgroup-manager", V, OTHER }, { "cni-netconfpath", V, OTHER },
    { "cni-path", V, OTHER }, { "config", V, OTHER }, { "conmon", V, OTHER },
    { "connection", V, OTHER }, { "context", V, OTHER }, { "cpu-profile", V, OTHER },
    { "data-root", V, OTHER }, { "debug", B, OTHER }, { "debug-full", B, OTHER },
    { "default-mounts-file", V, OTHER }, { "events-backend", V, OTHER },
    { "experimental", B, OTHER }, { "global-dns", V, OTHER }, { "global-dns-opts", V, OTHER },
    { "global-dns-search", V, OTHER }, { "help", B, OTHER },
    { "hooks-dir", V, ENGINE_FLAG_HOOKS_DIR }, { "host", V, OTHER },
    { "host-gateway-ip", V, OTHER }, { "hosts-dir", V, OTHER }, { "identity", V, OTHER },
    { "imagestore", V, OTHER }, { "insecure-registry", B, OTHER },
    { "kube-hide-dupe", B, OTHER }, { "log-level", V, OTHER }, { "max-workers", V, OTHER },
    { "memory-profile", V, OTHER }, { "module", V, OTHER }, { "namespace", V, OTHER },
    { "network-backend", V, OTHER }, { "network-config-dir", V, OTHER }, { "noout", B, OTHER },
    { "out", V, OTHER }, { "pull-option", V, OTHER }, { "registries-conf", V, OTHER },
    { "remote", B, OTHER }, { "root", V, OTHER }, { "runroot", V, OTHER },
    { "runtime", V, ENGINE_FLAG_RUNTIME }, { "runtime-flag", V, OTHER },
    { "selinux-enabled", B, OTHER }, { "snapshotter", V, OTHER }, { "ssh", V, OTHER },
    { "storage-driver", V, OTHER }, { "storage-opt", V, OTHER }, { "syslog", B, OTHER },
    { "tls", B, OTHER }, { "tls-ca", V, OTHER }, { "tls-cert", V, OTHER },
    { "tls-details", V, OTHER }, { "tls-key", V, OTHER }, { "tlscacert", V, OTHER },
    { "tlscert", V, OTHER }, { "tlskey", V, OTHER }, { "tlsverify", B, OTHER },
    { "tmpdir", V, OTHER }, { "trace", B, OTHER }, { "transient-store", B, OTHER },
    { "url", V, OTHER }, { "userns-remap", V, OTHER }, { "version", B, OTHER },
    { "volumepath", V, OTHER },
};

static const struct letter global_letters[] = {
    { 'a', "address" }, { 'c', "context" }, { 'D', "debug" }, { 'H', "host" },
    { 'h', "help" }, { 'l', "log-level" }, { 'n', "namespace" }, { 'r', "remote" },
    { 'v', "version" },
};

/*
 * "docker compose run", "docker-compose run" and "podman-compose run": the
 * flags of a one-off container of a service (docker/compose
 * cmd/compose/run.go, docker-compose 1.x, podman-compose); the first word
 * that is not a flag is the service.
 */
static const struct flag_spec compose_run_flags[] = {
    { "build", B, OTHER },
    { "cap-add", V, ENGINE_FLAG_CAP_ADD },
    { "cap-drop", V, ENGINE_FLAG_CAP_DROP },
    { "detach", B, OTHER },
    { "entrypoint", V, OTHER },
    { "env", V, ENGINE_FLAG_ENV },
    { "env-from-file", V, OTHER },
    { "help", B, OTHER },
    { "interactive", B, OTHER },
    { "label", V, OTHER },
    { "name", V, ENGINE_FLAG_NAME },
    { "no-TTY", B, OTHER },
    { "no-deps", B, OTHER },
    { "publish", V, ENGINE_FLAG_PUBLISH },
    { "pull", V, OTHER },
    { "quiet", B, OTHER },
    { "quiet-build", B, OTHER },
    { "quiet-pull", B, OTHER },
    { "remove-orphans", B, OTHER },
    { "rm", B, OTHER },
    { "service-ports", B, OTHER },      /* the service's own ports */
    { "tty", B, OTHER },
    { "use-aliases", B, OTHER },
    { "user", V, ENGINE_FLAG_USER },
    { "volume", V, ENGINE_FLAG_VOLUME },
    { "workdir", V, OTHER },
};

static const struct letter compose_run_letters[] = {
    { 'd', "detach" }, { 'e', "env" }, { 'i', "interactive" }, { 'l', "label" },
    { 'P', "service-ports" }, { 'p', "publish" }, { 'q', "quiet" }, { 'T', "no-TTY" },
    { 't', "tty" }, { 'u', "user" }, { 'v', "volume" }, { 'w', "workdir" },
};

/* Compose's own options before its subcommand (docker compose and
 * docker-compose 1.x). */
static const struct flag_spec compose_global_flags[] = {
    { "all-resources", B, OTHER }, { "ansi", V, OTHER }, { "compatibility", B, OTHER },
    { "context", V, OTHER }, { "dry-run", B, OTHER }, { "env-file", V, OTHER },
    { "file", V, OTHER }, { "help", B, OTHER }, { "host", V, OTHER },
    { "log-level", V, OTHER }, { "no-ansi", B, OTHER }, { "parallel", V, OTHER },
    { "profile", V, OTHER }, { "progress", V, OTHER }, { "project-directory", V, OTHER },
    { "project-name", V, OTHER }, { "skip-hostname-check", B, OTHER }, { "tls", B, OTHER },
    { "tlscacert", V, OTHER }, { "tlscert", V, OTHER }, { "tlskey", V, OTHER },
    { "tlsverify", B, OTHER }, { "verbose", B, OTHER }, { "version", B, OTHER },
};

static const struct letter compose_global_letters[] = {
    { 'c', "context" }, { 'f', "file" }, { 'H', "host" }, { 'h', "help" },
    { 'p', "project-name" }, { 'v', "version" },
};

#undef V
#undef B
#undef OTHER

#define COUNT(array) (sizeof(array) / sizeof(array[0]))

/* A command's flags and their one-letter names. */
struct flag_table {
    const struct flag_spec *flags;
    size_t count;
    const struct letter *letters;
    size_t letter_count;
};

static const struct flag_table run_table = { run_flags, COUNT(run_flags), run_letters,
                                             COUNT(run_letters) };
static const struct flag_table compose_run_table = {
    compose_run_flags, COUNT(compose_run_flags), compose_run_letters,
    COUNT(compose_run_letters)
};
static const struct flag_table global_table = { global_flags, COUNT(global_flags),
                                                global_letters, COUNT(global_letters) };
static const struct flag_table compose_global_table = {
    compose_global_flags, COUNT(compose_global_flags), compose_global_letters,
    COUNT(compose_global_letters)
};

static const struct flag_spec *find_flag(const struct flag_spec *table, size_t count,
                                         const char *name, size_t length)
{
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        const char *candidate = table[middle].name;
        size_t candidate_length = strlen(candidate);
        size_t shorter = candidate_length < length ? candidate_length : length;
        int order = memcmp(candidate, name, shorter);
        if (order == 0)
            order = (candidate_length > length) - (candidate_length < length);
        if (order == 0)
            return &table[middle];
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return NULL;
}

static const struct flag_spec *find_letter(const struct letter *letters, size_t count,
                                           const struct flag_spec *table, size_t table_count,
                                           char letter)
{
    for (size_t i = 0; i < count; i++)
        if (letters[i].letter == letter)
            return find_flag(table, table_count, letters[i].name, strlen(letters[i].name));
    return NULL;
}

void engine_words_from_shell(const struct shell_word *words, size_t count,
                             struct engine_word *out)
{
    for (size_t i = 0; i < count; i++) {
        out[i].text = words[i].text;
        out[i].length = words[i].length;
        out[i].literal_length = words[i].literal_length;
        out[i].flags = (words[i].flags & SHELL_WORD_INTERPOLATED ? ENGINE_WORD_INTERPOLATED : 0) |
                       (words[i].flags & SHELL_WORD_SPLIT ? ENGINE_WORD_SPLIT : 0);
    }
}

/* ------------------------------------------------------------------ */
/* run and create                                                      */
/* ------------------------------------------------------------------ */

static struct engine_setting *add_setting(struct engine_run *run, enum engine_flag_meaning meaning,
                                          const struct flag_spec *spec, size_t word,
                                          size_t offset, size_t length)
{
    if (run->count == run->capacity) {
        run->capacity = run->capacity ? run->capacity * 2 : 16;
        run->settings = xrealloc(run->settings, run->capacity, sizeof(*run->settings));
    }
    struct engine_setting *setting = &run->settings[run->count++];
    memset(setting, 0, sizeof(*setting));
    setting->meaning = meaning;
    setting->name = spec != NULL ? spec->name : NULL;
    setting->takes_value = spec != NULL && spec->value;
    setting->flag_word = word;
    setting->flag_offset = offset;
    setting->flag_length = length;
    setting->value_word = ENGINE_NO_WORD;
    return setting;
}

/* Whether bytes [from, from + length) of word include interpolated text. */
static bool interpolated_part(const struct engine_word *word, size_t from, size_t length)
{
    return (word->flags & ENGINE_WORD_INTERPOLATED) && from + length > word->literal_length;
}

/* The bytes of word known as written. */
static size_t known_length(const struct engine_word *word)
{
    return (word->flags & ENGINE_WORD_INTERPOLATED) ? word->literal_length : word->length;
}

static void set_value(struct engine_setting *setting, const struct engine_word *words,
                      size_t index, size_t offset, unsigned flags)
{
    const struct engine_word *word = &words[index];
    setting->value_word = index;
    setting->value_offset = offset;
    setting->value = word->text + offset;
    setting->value_length = word->length - offset;
    setting->flags |= flags;
    if (interpolated_part(word, offset, word->length - offset)) {
        setting->flags |= ENGINE_SETTING_INTERPOLATED;
        if (word->flags & ENGINE_WORD_SPLIT)
            setting->flags |= ENGINE_SETTING_SPLIT;
    }
}

/* The next word as a flag's value; returns the index after it. */
static size_t take_next(struct engine_setting *setting, const struct engine_word *words,
                        size_t count, size_t next, unsigned flags)
{
    if (next >= count) {
        setting->flags |= ENGINE_SETTING_MISSING_VALUE;
        return next;
    }
    set_value(setting, words, next, 0, flags);
    return next + 1;
}

/* Whether a word, as far as it is known, starts with '-'. */
static bool looks_like_flag(const struct engine_word *word)
{
    return known_length(word) > 0 && word->text[0] == '-';
}

/* A word whose variable name says it is the image (${IMAGE}, "$IMG:$TAG",
 * "${REGISTRY}/app"): read as the image, not as flags it might hide. */
static bool names_an_image(const struct engine_word *word)
{
    static const char *const names[] = { "image", "img", "tag", "repo", "registry" };
    for (size_t n = 0; n < COUNT(names); n++) {
        size_t length = strlen(names[n]);
        for (size_t i = 0; i + length <= word->length; i++) {
            size_t j = 0;
            while (j < length && (word->text[i + j] | 0x20) == names[n][j])
                j++;
            if (j == length)
                return true;
        }
    }
    return false;
}

/* A long flag at words[i]; returns the index of the next word to read. */
static size_t read_long_flag(const struct flag_table *table, const struct engine_word *words,
                             size_t count, size_t i, struct engine_run *run)
{
    const struct engine_word *word = &words[i];
    const char *equals = memchr(word->text, '=', word->length);
    size_t name_end = equals != NULL ? (size_t)(equals - word->text) : word->length;
    if (interpolated_part(word, 0, name_end)) {
        struct engine_setting *setting =
            add_setting(run, ENGINE_FLAG_INTERPOLATED, NULL, i, 0, name_end);
        setting->flags |= ENGINE_SETTING_INTERPOLATED;
        if (equals != NULL)
            set_value(setting, words, i, name_end + 1, ENGINE_SETTING_EQUALS);
        run->image_unsure = true;
        return i + 1;
    }
    const struct flag_spec *spec =
        find_flag(table->flags, table->count, word->text + 2, name_end - 2);
    struct engine_setting *setting =
        add_setting(run, spec != NULL ? spec->meaning : ENGINE_FLAG_UNKNOWN, spec, i, 0,
                    name_end);
    if (equals != NULL) {
        set_value(setting, words, i, name_end + 1, ENGINE_SETTING_EQUALS);
        if (spec == NULL)
            run->image_unsure = true;
        return i + 1;
    }
    if (spec != NULL)
        return spec->value ? take_next(setting, words, count, i + 1, 0) : i + 1;
    /* Unknown: a following word that is not a flag is taken as its value,
     * so that the flags after it are still read. */
    run->image_unsure = true;
    if (i + 1 < count && !looks_like_flag(&words[i + 1]))
        return take_next(setting, words, count, i + 1, ENGINE_SETTING_GUESSED_VALUE);
    return i + 1;
}

/* A group of one-letter flags at words[i] (-itv, -v/x:/y, -e=A=1). */
static size_t read_short_flags(const struct flag_table *table, const struct engine_word *words,
                               size_t count, size_t i, struct engine_run *run)
{
    const struct engine_word *word = &words[i];
    for (size_t at = 1; at < word->length; at++) {
        if (interpolated_part(word, at, 1)) {
            struct engine_setting *setting =
                add_setting(run, ENGINE_FLAG_INTERPOLATED, NULL, i, at, word->length - at);
            setting->flags |= ENGINE_SETTING_INTERPOLATED;
            run->image_unsure = true;
            return i + 1;
        }
        const struct flag_spec *spec = find_letter(table->letters, table->letter_count,
                                                   table->flags, table->count, word->text[at]);
        struct engine_setting *setting =
            add_setting(run, spec != NULL ? spec->meaning : ENGINE_FLAG_UNKNOWN, spec, i, at, 1);
        bool rest = at + 1 < word->length;
        bool equals = rest && word->text[at + 1] == '=';
        if (spec == NULL) {
            run->image_unsure = true;
            if (rest)
                set_value(setting, words, i, at + 1 + equals,
                          ENGINE_SETTING_GUESSED_VALUE | (equals ? ENGINE_SETTING_EQUALS : 0));
            else if (i + 1 < count && !looks_like_flag(&words[i + 1]))
                return take_next(setting, words, count, i + 1, ENGINE_SETTING_GUESSED_VALUE);
            return i + 1;
        }
        if (!spec->value) {
            if (equals) {
                set_value(setting, words, i, at + 2, ENGINE_SETTING_EQUALS);
                return i + 1;
            }
            continue;
        }
        if (rest) {
            set_value(setting, words, i, at + 1 + equals,
                      equals ? ENGINE_SETTING_EQUALS : ENGINE_SETTING_ATTACHED);
            return i + 1;
        }
        return take_next(setting, words, count, i + 1, 0);
    }
    return i + 1;
}

static void parse_run(const struct flag_table *table, const struct engine_word *words,
                      size_t count, struct engine_run *run)
{
    memset(run, 0, sizeof(*run));
    run->image = ENGINE_NO_WORD;
    size_t i = 0;
    while (i < count) {
        const struct engine_word *word = &words[i];
        if (word->length == 2 && memcmp(word->text, "--", 2) == 0 &&
            !interpolated_part(word, 0, 2)) {
            if (i + 1 < count)
                run->image = i + 1;
            return;
        }
        if (looks_like_flag(word) && word->length > 1) {
            if (word->text[1] == '-' && known_length(word) > 1)
                i = read_long_flag(table, words, count, i, run);
            else
                i = read_short_flags(table, words, count, i, run);
            continue;
        }
        if (known_length(word) == 0 && (word->flags & ENGINE_WORD_INTERPOLATED) &&
            !names_an_image(word)) {
            /* $OPTS, "$@": flags may hide in it; the image is further on. */
            struct engine_setting *setting =
                add_setting(run, ENGINE_FLAG_INTERPOLATED, NULL, i, 0, word->length);
            setting->flags |= ENGINE_SETTING_INTERPOLATED |
                              (word->flags & ENGINE_WORD_SPLIT ? ENGINE_SETTING_SPLIT : 0);
            run->image_unsure = true;
            i++;
            continue;
        }
        run->image = i;
        return;
    }
}

void engine_run_parse(const struct engine_word *words, size_t count, struct engine_run *run)
{
    parse_run(&run_table, words, count, run);
}

void engine_compose_run_parse(const struct engine_word *words, size_t count,
                              struct engine_run *run)
{
    parse_run(&compose_run_table, words, count, run);
}

void engine_run_release(struct engine_run *run)
{
    free(run->settings);
    memset(run, 0, sizeof(*run));
    run->image = ENGINE_NO_WORD;
}

static bool value_is(const struct engine_setting *setting, const char *const *words)
{
    for (; *words != NULL; words++)
        if (strlen(*words) == setting->value_length &&
            memcmp(*words, setting->value, setting->value_length) == 0)
            return true;
    return false;
}

int engine_setting_is_true(const struct engine_setting *setting)
{
    static const char *const truths[] = { "1", "t", "T", "TRUE", "true", "True", NULL };
    static const char *const falsehoods[] = { "0", "f", "F", "FALSE", "false", "False", NULL };
    if (setting->value_word == ENGINE_NO_WORD)
        return (setting->flags & ENGINE_SETTING_MISSING_VALUE) ? -1 : 1;
    if (setting->flags & ENGINE_SETTING_INTERPOLATED)
        return -1;
    if (value_is(setting, truths))
        return 1;
    if (value_is(setting, falsehoods))
        return 0;
    return -1;
}

const char *engine_flag_meaning_name(enum engine_flag_meaning meaning)
{
    static const char *const names[ENGINE_FLAG_MEANING_COUNT] = {
        [ENGINE_FLAG_UNKNOWN] = "unknown",
        [ENGINE_FLAG_INTERPOLATED] = "interpolated",
        [ENGINE_FLAG_OTHER] = "other",
        [ENGINE_FLAG_PRIVILEGED] = "privileged",
        [ENGINE_FLAG_CAP_ADD] = "cap-add",
        [ENGINE_FLAG_CAP_DROP] = "cap-drop",
        [ENGINE_FLAG_DEVICE] = "device",
        [ENGINE_FLAG_DEVICE_CGROUP_RULE] = "device-cgroup-rule",
        [ENGINE_FLAG_SECURITY_OPT] = "security-opt",
        [ENGINE_FLAG_VOLUME] = "volume",
        [ENGINE_FLAG_MOUNT] = "mount",
        [ENGINE_FLAG_TMPFS] = "tmpfs",
        [ENGINE_FLAG_VOLUMES_FROM] = "volumes-from",
        [ENGINE_FLAG_PID] = "pid",
        [ENGINE_FLAG_NETWORK] = "network",
        [ENGINE_FLAG_IPC] = "ipc",
        [ENGINE_FLAG_UTS] = "uts",
        [ENGINE_FLAG_USERNS] = "userns",
        [ENGINE_FLAG_CGROUPNS] = "cgroupns",
        [ENGINE_FLAG_POD] = "pod",
        [ENGINE_FLAG_RUNTIME] = "runtime",
        [ENGINE_FLAG_GPUS] = "gpus",
        [ENGINE_FLAG_READ_ONLY] = "read-only",
        [ENGINE_FLAG_PIDS_LIMIT] = "pids-limit",
        [ENGINE_FLAG_MEMORY] = "memory",
        [ENGINE_FLAG_MEMORY_SWAP] = "memory-swap",
        [ENGINE_FLAG_CPUS] = "cpus",
        [ENGINE_FLAG_CPU_QUOTA] = "cpu-quota",
        [ENGINE_FLAG_CPU_PERIOD] = "cpu-period",
        [ENGINE_FLAG_CPU_SHARES] = "cpu-shares",
        [ENGINE_FLAG_CPUSET_CPUS] = "cpuset-cpus",
        [ENGINE_FLAG_USER] = "user",
        [ENGINE_FLAG_GROUP_ADD] = "group-add",
        [ENGINE_FLAG_UIDMAP] = "uidmap",
        [ENGINE_FLAG_PUBLISH] = "publish",
        [ENGINE_FLAG_PUBLISH_ALL] = "publish-all",
        [ENGINE_FLAG_NAME] = "name",
        [ENGINE_FLAG_SYSCTL] = "sysctl",
        [ENGINE_FLAG_ULIMIT] = "ulimit",
        [ENGINE_FLAG_ENV] = "env",
        [ENGINE_FLAG_ENV_FILE] = "env-file",
        [ENGINE_FLAG_ENV_HOST] = "env-host",
        [ENGINE_FLAG_SECRET] = "secret",
        [ENGINE_FLAG_USE_API_SOCKET] = "use-api-socket",
        [ENGINE_FLAG_ROOTFS] = "rootfs",
        [ENGINE_FLAG_INIT] = "init",
        [ENGINE_FLAG_OOM_KILL_DISABLE] = "oom-kill-disable",
        [ENGINE_FLAG_CGROUP_PARENT] = "cgroup-parent",
        [ENGINE_FLAG_SHM_SIZE] = "shm-size",
        [ENGINE_FLAG_ADD_HOST] = "add-host",
        [ENGINE_FLAG_HOOKS_DIR] = "hooks-dir",
        [ENGINE_FLAG_ANNOTATION] = "annotation",
    };
    if ((unsigned)meaning >= ENGINE_FLAG_MEANING_COUNT || names[meaning] == NULL)
        return "unknown";
    return names[meaning];
}

/* ------------------------------------------------------------------ */
/* the subcommand                                                      */
/* ------------------------------------------------------------------ */

static bool word_is(const struct engine_word *word, const char *text)
{
    return !(word->flags & ENGINE_WORD_INTERPOLATED) && strlen(text) == word->length &&
           memcmp(word->text, text, word->length) == 0;
}

/* Skips one global option at words[i]; returns the next index. */
static size_t skip_global(const struct flag_table *table, const struct engine_word *words,
                          size_t i, struct engine_call *call)
{
    const struct engine_word *word = &words[i];
    if (word->text[1] == '-') {
        const char *equals = memchr(word->text, '=', word->length);
        size_t name_end = equals != NULL ? (size_t)(equals - word->text) : word->length;
        const struct flag_spec *spec =
            find_flag(table->flags, table->count, word->text + 2, name_end - 2);
        if (spec == NULL)
            call->unknown_globals++;
        return spec != NULL && spec->value && equals == NULL ? i + 2 : i + 1;
    }
    for (size_t at = 1; at < word->length; at++) {
        const struct flag_spec *spec = find_letter(table->letters, table->letter_count,
                                                   table->flags, table->count, word->text[at]);
        if (spec == NULL) {
            call->unknown_globals++;
            return i + 1;
        }
        if (spec->value)
            return at + 1 < word->length ? i + 1 : i + 2;
    }
    return i + 1;
}

/* Compose's options from words[i], then its subcommand: "run" starts a
 * one-off container. */
static enum engine_action compose_call(const struct engine_word *words, size_t count, size_t i,
                                       struct engine_call *call)
{
    while (i < count && looks_like_flag(&words[i]) && words[i].length > 1 &&
           !word_is(&words[i], "--"))
        i = skip_global(&compose_global_table, words, i, call);
    if (i >= count)
        return call->action;
    if (word_is(&words[i], "run"))
        call->action = ENGINE_ACTION_COMPOSE_RUN;
    else if (words[i].flags & ENGINE_WORD_INTERPOLATED)
        call->action = ENGINE_ACTION_UNKNOWN;
    else
        return call->action;
    call->action_word = i;
    call->arguments = i + 1;
    return call->action;
}

enum engine_action engine_compose_call_parse(const struct engine_word *words, size_t count,
                                             struct engine_call *call)
{
    memset(call, 0, sizeof(*call));
    call->action_word = ENGINE_NO_WORD;
    return compose_call(words, count, 0, call);
}

enum engine_action engine_call_parse(const struct engine_word *words, size_t count,
                                     struct engine_call *call)
{
    memset(call, 0, sizeof(*call));
    call->action_word = ENGINE_NO_WORD;
    size_t i = 0;
    while (i < count && looks_like_flag(&words[i]) && words[i].length > 1 &&
           !word_is(&words[i], "--"))
        i = skip_global(&global_table, words, i, call);
    if (i < count && word_is(&words[i], "compose"))
        return compose_call(words, count, i + 1, call);
    if (i < count && word_is(&words[i], "container"))
        i++;
    if (i >= count)
        return call->action;
    const struct engine_word *word = &words[i];
    if (word_is(word, "run"))
        call->action = ENGINE_ACTION_RUN;
    else if (word_is(word, "create"))
        call->action = ENGINE_ACTION_CREATE;
    else if (word->flags & ENGINE_WORD_INTERPOLATED)
        call->action = ENGINE_ACTION_UNKNOWN;
    else
        return call->action;
    call->action_word = i;
    call->arguments = i + 1;
    return call->action;
}

/* ------------------------------------------------------------------ */
/* --mount                                                             */
/* ------------------------------------------------------------------ */

static bool key_is(const char *key, size_t length, const char *name)
{
    if (strlen(name) != length)
        return false;
    for (size_t i = 0; i < length; i++) {
        char c = key[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != name[i])
            return false;
    }
    return true;
}

/* Exactly, case and all: volume-opt keys are the driver's, and the local
 * driver's are lower case. */
static bool text_equals(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

/* Keys the engines know that say nothing sandlint reads. */
static bool known_key(const char *key, size_t length)
{
    static const char *const keys[] = {
        "consistency", "bind-nonrecursive", "bind-recursive", "volume-subpath", "volume-nocopy",
        "volume-driver", "volume-label", "volume-opt", "tmpfs-size", "tmpfs-mode",
        "image-subpath", "relabel", "u", "chown", "idmap", "rw", "z", "suid", "exec", "dev",
        "nosuid", "noexec", "nodev", "copy", "nocopy", "notmpcopyup", "tmpcopyup", "size", "mode",
        "subpath", "glob", "uid", "gid", "bind-propagation",
    };
    for (size_t i = 0; i < COUNT(keys); i++)
        if (key_is(key, length, keys[i]))
            return true;
    return false;
}

static int boolean_text(const char *text, size_t length)
{
    static const char *const truths[] = { "1", "t", "T", "TRUE", "true", "True" };
    static const char *const falsehoods[] = { "0", "f", "F", "FALSE", "false", "False" };
    for (size_t i = 0; i < COUNT(truths); i++) {
        if (strlen(truths[i]) == length && memcmp(truths[i], text, length) == 0)
            return 1;
        if (strlen(falsehoods[i]) == length && memcmp(falsehoods[i], text, length) == 0)
            return 0;
    }
    return -1;
}

/* volume-opt=KEY=VALUE: the options of the local driver that say whether
 * it binds a host path (docker refuses one without '='; other keys are
 * the driver's own business). */
static void volume_option(struct engine_mount *mount, const struct engine_mount_field *option)
{
    const char *equals = memchr(option->text, '=', option->length);
    if (equals == NULL) {
        mount->malformed = true;
        return;
    }
    size_t key_length = (size_t)(equals - option->text);
    struct engine_mount_field value = { equals + 1, option->length - key_length - 1,
                                        option->offset + key_length + 1 };
    if (text_equals(option->text, key_length, "type"))
        mount->volume_type = value;
    else if (text_equals(option->text, key_length, "o"))
        mount->volume_o = value;
    else if (text_equals(option->text, key_length, "device"))
        mount->volume_device = value;
}

/* One decoded field: key[=value] at offset in the --mount value. */
static void mount_field(struct engine_mount *mount, const char *field, size_t length,
                        size_t value_offset)
{
    const char *equals = memchr(field, '=', length);
    size_t key_length = equals != NULL ? (size_t)(equals - field) : length;
    if (key_length == 0) {
        mount->malformed = true;
        return;
    }
    struct engine_mount_field value = { NULL, 0, 0 };
    if (equals != NULL) {
        value.text = equals + 1;
        value.length = length - key_length - 1;
        value.offset = value_offset + key_length + 1;
    }
    if (key_is(field, key_length, "readonly") || key_is(field, key_length, "ro")) {
        mount->readonly = equals == NULL ? 1 : boolean_text(value.text, value.length);
        return;
    }
    if (equals == NULL) {
        if (!known_key(field, key_length))
            mount->malformed = true;
        return;
    }
    if (key_is(field, key_length, "type"))
        mount->type = value;
    else if (key_is(field, key_length, "source") || key_is(field, key_length, "src"))
        mount->source = value;
    else if (key_is(field, key_length, "target") || key_is(field, key_length, "destination") ||
             key_is(field, key_length, "dst"))
        mount->target = value;
    else if (!known_key(field, key_length))
        mount->unknown_keys++;
    if (key_is(field, key_length, "volume-driver"))
        mount->volume_driver = value;
    if (key_is(field, key_length, "volume-opt"))
        volume_option(mount, &value);
    if (key_is(field, key_length, "bind-propagation") &&
        (key_is(value.text, value.length, "shared") || key_is(value.text, value.length, "rshared")))
        mount->bind_propagation_shared = true;
}

void engine_mount_parse(const char *value, size_t length, char *buffer,
                        struct engine_mount *mount)
{
    memset(mount, 0, sizeof(*mount));
    if (length == 0)
        mount->malformed = true;
    size_t at = 0, used = 0;
    while (at < length) {
        size_t field_start = used, field_offset = at;
        if (value[at] == '"') {
            /* A quoted field: "" is a quote; it must end at a comma. */
            at++;
            field_offset = at;
            bool closed = false;
            while (at < length) {
                if (value[at] == '"') {
                    if (at + 1 < length && value[at + 1] == '"') {
                        buffer[used++] = '"';
                        at += 2;
                        continue;
                    }
                    at++;
                    closed = true;
                    break;
                }
                buffer[used++] = value[at++];
            }
            if (!closed || (at < length && value[at] != ','))
                mount->malformed = true;
            while (at < length && value[at] != ',')
                at++;
        } else {
            while (at < length && value[at] != ',') {
                if (value[at] == '"')
                    mount->malformed = true;    /* docker's CSV refuses a bare quote */
                buffer[used++] = value[at++];
            }
        }
        mount_field(mount, buffer + field_start, used - field_start, field_offset);
        if (at < length && at + 1 == length)
            mount->malformed = true;            /* a comma at the end: an empty field */
        at++;                                   /* past the comma */
    }
    if (mount->type.text == NULL) {
        mount->type.text = "volume";
        mount->type.length = 6;
    } else {
        mount->type_given = true;
    }
}

int engine_flags_check_tables(void)
{
    const struct flag_table *tables[] = { &run_table, &global_table, &compose_run_table,
                                          &compose_global_table };
    for (size_t t = 0; t < COUNT(tables); t++) {
        for (size_t i = 1; i < tables[t]->count; i++)
            if (strcmp(tables[t]->flags[i - 1].name, tables[t]->flags[i].name) >= 0)
                return -1;
        for (size_t i = 0; i < tables[t]->letter_count; i++)
            if (find_letter(tables[t]->letters, tables[t]->letter_count, tables[t]->flags,
                            tables[t]->count, tables[t]->letters[i].letter) == NULL)
                return -1;
    }
    return 0;
}
