/*
 * shell_program.h - the program a simple command runs: past the reserved
 * words, the assignments and the wrappers that run another program (sudo,
 * env, exec, time...), so that "sudo -E docker run" and "FOO=1 exec
 * /usr/bin/podman run" are found as the engine commands they are.  The
 * engine's own options and subcommand are core/kinds/engine_flags.h's.
 */
#ifndef SANDLINT_SHELL_PROGRAM_H
#define SANDLINT_SHELL_PROGRAM_H

#include <stddef.h>

#include "shell_words.h"

enum shell_program_kind {
    SHELL_PROGRAM_OTHER = 0,    /* anything else (or no command at all) */
    SHELL_PROGRAM_ENGINE,       /* docker, podman, podman-remote, nerdctl,
                                   docker-compose or podman-compose */
    SHELL_PROGRAM_SHELL_TEXT    /* sh -c TEXT, bash -c TEXT, eval TEXT, env -S TEXT:
                                   the word `text` is itself shell text */
};

enum shell_engine {
    SHELL_ENGINE_DOCKER = 1,
    SHELL_ENGINE_PODMAN,
    SHELL_ENGINE_NERDCTL,
    SHELL_ENGINE_INTERPOLATED,  /* $DOCKER, $(CONTAINER_TOOL): an interpolated program
                                   whose name says engine, followed by run, create or
                                   container */
    SHELL_ENGINE_COMPOSE        /* docker-compose or podman-compose (whose run starts a
                                   one-off container of a service) */
};

enum shell_program_flags {
    SHELL_PROGRAM_WRAPPED = 0x1,    /* behind sudo, env, exec, time, command... */
    SHELL_PROGRAM_UNSURE = 0x2,     /* a wrapper option sandlint does not know came
                                       first: the program word is a guess */
    SHELL_PROGRAM_STDIN_SCRIPT = 0x4    /* SHELL_PROGRAM_OTHER: a shell that reads its
                                           script from standard input (bash, sh -s,
                                           sudo sh): a here-document there is shell text */
};

struct shell_program {
    enum shell_program_kind kind;
    enum shell_engine engine;       /* for SHELL_PROGRAM_ENGINE */
    size_t program;                 /* index of the program word */
    size_t text;                    /* SHELL_PROGRAM_SHELL_TEXT: index of the word
                                       holding the text, */
    size_t text_offset;             /* and the bytes before it there (env -Stext) */
    unsigned flags;                 /* enum shell_program_flags */
};

/*
 * Finds the program command runs: past reserved words (if, then, do, !,
 * {, time...), assignments (NAME=value), and the wrappers sudo and doas
 * (with their options), exec, env (options and NAME=value), time, command
 * (not command -v), nohup, nice, setsid, stdbuf, ionice and timeout; a
 * program named by a path (/usr/bin/docker) counts by its last component.
 * Fills *out and returns its kind.
 */
enum shell_program_kind shell_find_program(const struct shell_command *command,
                                           struct shell_program *out);

#endif
