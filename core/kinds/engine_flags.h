/*
 * engine_flags.h - the command line of docker, podman and nerdctl "run"
 * and "create": one table of their flags, and an argv read as the engine
 * reads it (pflag's rules: --flag=value and --flag value, -v value and
 * -vvalue, combined short flags such as -itv /x:/y, "--", the first word
 * that is not a flag is the image and what follows is the container's
 * command, never read).
 *
 * The table is the union of the three engines' documented run/create
 * flags (and the global flags podman and nerdctl also take after the
 * subcommand), written from their documentation and sources: docker/cli
 * cli/command/container/opts.go, run.go, create.go; podman
 * cmd/podman/common/create.go, netflags.go, containers/run.go, root.go;
 * nerdctl cmd/nerdctl/container/container_run.go, main.go.  A flag one
 * engine does not know is refused by that engine when it runs, so taking
 * it as the others read it loses nothing.
 *
 * Knowing which flags take a value is what keeps a value from being read
 * as the image.  A flag outside the table is never skipped in silence: it
 * is an ENGINE_FLAG_UNKNOWN setting (with the next word taken as its value
 * when that word does not look like a flag, the reading that misses fewer
 * flags); an interpolated word where a flag may stand is an
 * ENGINE_FLAG_INTERPOLATED setting.  What a setting means for a container
 * is the front-end's business: this module only says which flag it is.
 *
 * Everything here works on borrowed words (shell words, JSON strings of a
 * dev container's runArgs) and allocates only the settings list.
 */
#ifndef SANDLINT_ENGINE_FLAGS_H
#define SANDLINT_ENGINE_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "shell_words.h"

/* One word of the command line, borrowed. */
struct engine_word {
    const char *text;
    size_t length;
    size_t literal_length;  /* ENGINE_WORD_INTERPOLATED: the bytes before the first
                               interpolation (the rest is not known) */
    unsigned flags;         /* enum engine_word_flags */
};

enum engine_word_flags {
    ENGINE_WORD_INTERPOLATED = 0x1,     /* its value is not known */
    ENGINE_WORD_SPLIT = 0x2,            /* and may be several words or none */
};

/* Fills out[0..count) from shell words (borrowing their text): what a
 * front-end does with the words after the program shell_find_program()
 * found. */
void engine_words_from_shell(const struct shell_word *words, size_t count,
                             struct engine_word *out);

/* What a flag is about.  The values are sandlint's own, stable within a
 * release only. */
enum engine_flag_meaning {
    ENGINE_FLAG_UNKNOWN = 0,    /* not in the table */
    ENGINE_FLAG_INTERPOLATED,   /* an interpolated word where a flag may stand */
    ENGINE_FLAG_OTHER,          /* in the table, no bearing on the sandbox */
    ENGINE_FLAG_PRIVILEGED,
    ENGINE_FLAG_CAP_ADD,
    ENGINE_FLAG_CAP_DROP,
    ENGINE_FLAG_DEVICE,
    ENGINE_FLAG_DEVICE_CGROUP_RULE,
    ENGINE_FLAG_SECURITY_OPT,
    ENGINE_FLAG_VOLUME,             /* -v SRC:DST[:OPTS] */
    ENGINE_FLAG_MOUNT,              /* --mount type=...,source=...: engine_mount_parse */
    ENGINE_FLAG_TMPFS,
    ENGINE_FLAG_VOLUMES_FROM,
    ENGINE_FLAG_PID,
    ENGINE_FLAG_NETWORK,            /* --network, --net */
    ENGINE_FLAG_IPC,
    ENGINE_FLAG_UTS,
    ENGINE_FLAG_USERNS,
    ENGINE_FLAG_CGROUPNS,
    ENGINE_FLAG_POD,                /* podman --pod: the pod's namespaces */
    ENGINE_FLAG_RUNTIME,
    ENGINE_FLAG_GPUS,
    ENGINE_FLAG_READ_ONLY,
    ENGINE_FLAG_PIDS_LIMIT,
    ENGINE_FLAG_MEMORY,
    ENGINE_FLAG_MEMORY_SWAP,
    ENGINE_FLAG_CPUS,
    ENGINE_FLAG_CPU_QUOTA,
    ENGINE_FLAG_CPU_PERIOD,
    ENGINE_FLAG_CPU_SHARES,
    ENGINE_FLAG_CPUSET_CPUS,
    ENGINE_FLAG_USER,
    ENGINE_FLAG_GROUP_ADD,
    ENGINE_FLAG_UIDMAP,             /* podman --uidmap, --gidmap */
    ENGINE_FLAG_PUBLISH,
    ENGINE_FLAG_PUBLISH_ALL,
    ENGINE_FLAG_NAME,
    ENGINE_FLAG_SYSCTL,
    ENGINE_FLAG_ULIMIT,
    ENGINE_FLAG_ENV,
    ENGINE_FLAG_ENV_FILE,
    ENGINE_FLAG_ENV_HOST,           /* podman --env-host: the whole host environment */
    ENGINE_FLAG_SECRET,
    ENGINE_FLAG_USE_API_SOCKET,     /* docker --use-api-socket: the engine's socket */
    ENGINE_FLAG_ROOTFS,             /* podman/nerdctl --rootfs: the "image" is a host path */
    ENGINE_FLAG_INIT,
    ENGINE_FLAG_OOM_KILL_DISABLE,
    ENGINE_FLAG_CGROUP_PARENT,
    ENGINE_FLAG_SHM_SIZE,
    ENGINE_FLAG_ADD_HOST,
    ENGINE_FLAG_HOOKS_DIR,          /* podman --hooks-dir: OCI hooks run on the host */
    ENGINE_FLAG_ANNOTATION,
    ENGINE_FLAG_MEANING_COUNT
};

enum engine_setting_flags {
    ENGINE_SETTING_EQUALS = 0x1,        /* written --flag=value (or -f=value) */
    ENGINE_SETTING_ATTACHED = 0x2,      /* a short flag's value in its own word (-v/x:/y) */
    ENGINE_SETTING_MISSING_VALUE = 0x4, /* the flag takes a value and the words ended */
    ENGINE_SETTING_GUESSED_VALUE = 0x8, /* ENGINE_FLAG_UNKNOWN: the next word was taken as
                                           its value (it may be the image) */
    ENGINE_SETTING_INTERPOLATED = 0x10, /* the value (or the flag word) is interpolated */
    ENGINE_SETTING_SPLIT = 0x20,        /* and may split into words */
};

#define ENGINE_NO_WORD ((size_t)-1)

struct engine_setting {
    enum engine_flag_meaning meaning;
    const char *name;           /* the flag's long name ("cap-add"), static; NULL for
                                   an unknown or interpolated one */
    size_t flag_word;           /* index of the word holding the flag, */
    size_t flag_offset;         /* and where in it the flag starts ("-itv": 3 for v) */
    size_t flag_length;         /* bytes of the flag as written ("--cap-add", "v") */
    size_t value_word;          /* index of the word holding the value, or
                                   ENGINE_NO_WORD for a flag without one, */
    size_t value_offset;        /* and where in it the value starts */
    const char *value;          /* borrowed from the words */
    size_t value_length;
    bool takes_value;           /* the table says the flag takes a value */
    unsigned flags;             /* enum engine_setting_flags */
};

struct engine_run {
    struct engine_setting *settings;    /* malloc-owned, in command-line order */
    size_t count, capacity;
    size_t image;               /* index of the image word, or ENGINE_NO_WORD */
    bool image_unsure;          /* an unknown or interpolated flag came before it */
};

/*
 * Reads words (those after "run" or "create") into *run, which it
 * initialises.  Never fails: what it cannot read is a setting the
 * front-end reports.  Release with engine_run_release().
 */
void engine_run_parse(const struct engine_word *words, size_t count, struct engine_run *run);

/* The same for the words after "docker compose run" (or docker-compose
 * run): a one-off container of a service, with Compose's run flags; the
 * "image" is the service. */
void engine_compose_run_parse(const struct engine_word *words, size_t count,
                              struct engine_run *run);

void engine_run_release(struct engine_run *run);

/*
 * A boolean flag's state: 1 when set (no value, or a value pflag reads as
 * true: 1 t T TRUE true True), 0 for a false one (0 f F FALSE false False),
 * -1 for a value that is neither (the engine refuses the command) or an
 * interpolated one.
 */
int engine_setting_is_true(const struct engine_setting *setting);

/* "cap-add" for ENGINE_FLAG_CAP_ADD...: a stable name for messages and
 * tests; "unknown" and "interpolated" for those two. */
const char *engine_flag_meaning_name(enum engine_flag_meaning meaning);

/* ------------------------------------------------------------------ */
/* the subcommand                                                      */
/* ------------------------------------------------------------------ */

enum engine_action {
    ENGINE_ACTION_OTHER = 0,    /* ps, build, exec, compose...: not a container's start */
    ENGINE_ACTION_RUN,
    ENGINE_ACTION_CREATE,
    ENGINE_ACTION_UNKNOWN,      /* the subcommand is interpolated ($CMD) */
    ENGINE_ACTION_COMPOSE_RUN   /* compose run: a one-off container of a service */
};

struct engine_call {
    enum engine_action action;
    size_t action_word;         /* index of "run"/"create" (ENGINE_NO_WORD when none) */
    size_t arguments;           /* index of the first word after it */
    size_t unknown_globals;     /* global options the table does not know */
};

/*
 * Reads the words after the program (docker, podman, nerdctl): global
 * options (-H HOST, --context X, podman's --root X, nerdctl's -n NS...),
 * then the subcommand, "run", "create", "container run" or "container
 * create".  Returns the action and fills *call.
 */
enum engine_action engine_call_parse(const struct engine_word *words, size_t count,
                                     struct engine_call *call);

/* The same for the words after docker-compose or podman-compose (also what
 * engine_call_parse does after "docker compose"): Compose's options, then
 * "run". */
enum engine_action engine_compose_call_parse(const struct engine_word *words, size_t count,
                                             struct engine_call *call);

/* ------------------------------------------------------------------ */
/* --mount                                                             */
/* ------------------------------------------------------------------ */

/* A field of a --mount value: its text (decoded, in the caller's buffer)
 * and where it was written in the value. */
struct engine_mount_field {
    const char *text;           /* NULL when absent */
    size_t length;
    size_t offset;              /* of the field's value in the --mount value */
};

struct engine_mount {
    struct engine_mount_field type;     /* absent: the static text "volume" (docker's
                                           default), and type_given false */
    bool type_given;
    struct engine_mount_field source;   /* source, src */
    struct engine_mount_field target;   /* target, destination, dst */
    int readonly;               /* readonly, ro (bare, or =true/1/false/0): 1, 0; -1
                                   for a value that is neither */
    bool bind_propagation_shared;   /* bind-propagation=shared or rshared */
    /* A volume's driver and the volume-opt KEY=VALUE fields the engine
     * hands it (the later of a repeated key wins, as in docker's map):
     * the local driver binds device when o lists bind or rbind. */
    struct engine_mount_field volume_driver;    /* volume-driver */
    struct engine_mount_field volume_type;      /* volume-opt=type=... */
    struct engine_mount_field volume_o;         /* volume-opt=o=... */
    struct engine_mount_field volume_device;    /* volume-opt=device=... */
    size_t unknown_keys;        /* keys none of the engines knows */
    bool malformed;             /* what docker refuses: an empty value or field, a
                                   field without '=' that is not a flag, an empty
                                   key, a stray or unterminated quote */
};

/* For tests: 0 when the flag tables are sorted without duplicates and
 * every one-letter flag names a flag of its table, else -1. */
int engine_flags_check_tables(void);

/*
 * Reads a --mount value (docker's CSV: comma-separated key=value fields,
 * a field in double quotes may hold commas; also the string form of a dev
 * container's "mounts" and "workspaceMount").  The decoded fields are
 * written to buffer, which must hold length bytes; *mount points into it
 * and into value.
 */
void engine_mount_parse(const char *value, size_t length, char *buffer,
                        struct engine_mount *mount);

#endif
