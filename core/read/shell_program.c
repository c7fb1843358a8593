/* shell_program.c - the program a simple command runs (see shell_program.h). */
#include "config.h"

#include "shell_program.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* An option of a wrapper: its one-letter and long names, and whether it
 * takes a value (in the next word unless attached). */
struct wrapper_option {
    char letter;
    const char *name;
    bool value;
};

enum wrapper_kind {
    WRAP_PLAIN,         /* options, then the program */
    WRAP_ASSIGNMENTS,   /* options, NAME=value words, then the program (sudo, env) */
    WRAP_COMMAND,       /* command: -v and -V only say where a program is */
    WRAP_TIMEOUT,       /* options, a duration, then the program */
    WRAP_SHELL,         /* sh -c TEXT */
    WRAP_EVAL,          /* eval TEXT, or eval WORDS... read as a command */
    WRAP_JOINED,        /* options, then TEXT, or WORDS... that it joins and hands to
                           sh -c (watch; with -x it runs them itself) */
    WRAP_USER,          /* options, [-] [USER] [options]: only -c TEXT runs something
                           (su; without -c it starts a login shell) */
    WRAP_LOCK,          /* options, a lock file, options, then the program or -c TEXT
                           (flock) */
    WRAP_FIND           /* find: the program after -exec, -execdir, -ok or -okdir */
};

struct wrapper {
    const char *name;
    enum wrapper_kind kind;
    const struct wrapper_option *options;   /* ended by a zero entry */
    const char *text_letters;   /* the options whose value is shell text (env -S,
                                   su -c, flock -c), or "" */
};

/* From sudo(8), doas(1), env(1), time(1) (GNU and POSIX), nice(1),
 * setsid(1), stdbuf(1), ionice(1), timeout(1), bash(1) and sh(1). */
static const struct wrapper_option sudo_options[] = {
    { 'A', "askpass", false }, { 'b', "background", false }, { 'C', "close-from", true },
    { 'D', "chdir", true }, { 'E', "preserve-env", false }, { 'e', "edit", false },
    { 'g', "group", true }, { 'H', "set-home", false }, { 'h', "help", false },
    { 0, "host", true }, { 'i', "login", false }, { 'K', "remove-timestamp", false },
    { 'k', "reset-timestamp", false }, { 'l', "list", false }, { 'n', "non-interactive", false },
    { 'P', "preserve-groups", false }, { 'p', "prompt", true }, { 'R', "chroot", true },
    { 'r', "role", true }, { 'S', "stdin", false }, { 's', "shell", false },
    { 't', "type", true }, { 'T', "command-timeout", true }, { 'U', "other-user", true },
    { 'u', "user", true }, { 'V', "version", false }, { 'v', "validate", false },
    { 'c', "login-class", true }, { 0, NULL, false },
};
static const struct wrapper_option doas_options[] = {
    { 'C', NULL, true }, { 'L', NULL, false }, { 'n', NULL, false }, { 's', NULL, false },
    { 'u', NULL, true }, { 0, NULL, false },
};
static const struct wrapper_option exec_options[] = {
    { 'a', NULL, true }, { 'c', NULL, false }, { 'l', NULL, false }, { 0, NULL, false },
};
static const struct wrapper_option env_options[] = {
    { 'i', "ignore-environment", false }, { '0', "null", false }, { 'v', "debug", false },
    { 'u', "unset", true }, { 'C', "chdir", true }, { 'S', "split-string", true },
    { 'P', NULL, true }, { 0, "default-signal", false }, { 0, "ignore-signal", false },
    { 0, "block-signal", false }, { 0, "list-signal-handling", false }, { 0, NULL, false },
};
static const struct wrapper_option time_options[] = {
    { 'p', "portability", false }, { 'f', "format", true }, { 'o', "output", true },
    { 'a', "append", false }, { 'v', "verbose", false }, { 'q', "quiet", false },
    { 0, NULL, false },
};
static const struct wrapper_option command_options[] = {
    { 'p', NULL, false }, { 'v', NULL, false }, { 'V', NULL, false }, { 0, NULL, false },
};
static const struct wrapper_option no_options[] = { { 0, NULL, false } };
static const struct wrapper_option nice_options[] = {
    { 'n', "adjustment", true }, { 0, NULL, false },
};
static const struct wrapper_option setsid_options[] = {
    { 'c', "ctty", false }, { 'f', "fork", false }, { 'w', "wait", false }, { 0, NULL, false },
};
static const struct wrapper_option stdbuf_options[] = {
    { 'i', "input", true }, { 'o', "output", true }, { 'e', "error", true }, { 0, NULL, false },
};
static const struct wrapper_option ionice_options[] = {
    { 'c', "class", true }, { 'n', "classdata", true }, { 't', "ignore", false },
    { 0, NULL, false },
};
static const struct wrapper_option timeout_options[] = {
    { 's', "signal", true }, { 'k', "kill-after", true }, { 'v', "verbose", false },
    { 0, "preserve-status", false }, { 0, "foreground", false }, { 0, NULL, false },
};
/* xargs(1) (GNU and BSD): -e, -i and -l take their optional value only
 * attached, so they never take the next word. */
static const struct wrapper_option xargs_options[] = {
    { '0', "null", false }, { 'a', "arg-file", true }, { 'd', "delimiter", true },
    { 'E', NULL, true }, { 'e', "eof", false }, { 'I', NULL, true }, { 'i', "replace", false },
    { 'L', NULL, true }, { 'l', "max-lines", false }, { 'n', "max-args", true },
    { 'o', "open-tty", false }, { 'P', "max-procs", true }, { 'p', "interactive", false },
    { 'r', "no-run-if-empty", false }, { 's', "max-chars", true }, { 't', "verbose", false },
    { 'x', "exit", false }, { 'J', NULL, true }, { 'R', NULL, true }, { 'S', NULL, true },
    { 0, "process-slot-var", true }, { 0, "show-limits", false }, { 0, "help", false },
    { 0, "version", false }, { 0, NULL, false },
};
/* su(1) of util-linux and shadow. */
static const struct wrapper_option su_options[] = {
    { 'c', "command", true }, { 'C', "session-command", true }, { 'f', "fast", false },
    { 'g', "group", true }, { 'G', "supp-group", true }, { 'l', "login", false },
    { 'm', "preserve-environment", false }, { 'p', NULL, false }, { 'P', "pty", false },
    { 's', "shell", true }, { 'T', "no-pty", false }, { 'w', "whitelist-environment", true },
    { 'h', "help", false }, { 'V', "version", false }, { 0, NULL, false },
};
/* flock(1) of util-linux. */
static const struct wrapper_option flock_options[] = {
    { 's', "shared", false }, { 'x', "exclusive", false }, { 'e', NULL, false },
    { 'u', "unlock", false }, { 'n', "nonblock", false }, { 0, "nb", false },
    { 'w', "timeout", true }, { 0, "wait", true }, { 'o', "close", false },
    { 'E', "conflict-exit-code", true }, { 'F', "no-fork", false }, { 0, "verbose", false },
    { 'c', "command", true }, { 'h', "help", false }, { 'V', "version", false },
    { 0, NULL, false },
};
/* watch(1) of procps-ng: --differences takes its value only after '='. */
static const struct wrapper_option watch_options[] = {
    { 'n', "interval", true }, { 'd', "differences", false }, { 't', "no-title", false },
    { 'b', "beep", false }, { 'e', "errexit", false }, { 'g', "chgexit", false },
    { 'c', "color", false }, { 'C', "no-color", false }, { 'x', "exec", false },
    { 'p', "precise", false }, { 'w', "no-wrap", false }, { 'q', "equexit", true },
    { 'r', "no-rerun", false }, { 's', "shotsdir", true }, { 'h', "help", false },
    { 'v', "version", false }, { 0, NULL, false },
};
static const struct wrapper_option shell_options[] = {
    { 'o', NULL, true }, { 'O', NULL, true }, { 0, "rcfile", true }, { 0, "init-file", true },
    { 'a', NULL, false }, { 'b', NULL, false }, { 'c', NULL, false }, { 'e', NULL, false },
    { 'f', NULL, false }, { 'h', NULL, false }, { 'i', NULL, false }, { 'k', NULL, false },
    { 'l', NULL, false }, { 'm', NULL, false }, { 'n', NULL, false }, { 'p', NULL, false },
    { 'r', NULL, false }, { 's', NULL, false }, { 't', NULL, false }, { 'u', NULL, false },
    { 'v', NULL, false }, { 'x', NULL, false }, { 'B', NULL, false }, { 'C', NULL, false },
    { 'E', NULL, false }, { 'H', NULL, false }, { 'P', NULL, false }, { 'T', NULL, false },
    { 0, "login", false }, { 0, "norc", false }, { 0, "noprofile", false },
    { 0, "posix", false }, { 0, "restricted", false }, { 0, "verbose", false },
    { 0, "noediting", false }, { 0, NULL, false },
};

static const struct wrapper wrappers[] = {
    { "sudo", WRAP_ASSIGNMENTS, sudo_options, "" },
    { "doas", WRAP_PLAIN, doas_options, "" },
    { "exec", WRAP_PLAIN, exec_options, "" },
    { "env", WRAP_ASSIGNMENTS, env_options, "S" },
    { "time", WRAP_PLAIN, time_options, "" },
    { "command", WRAP_COMMAND, command_options, "" },
    { "nohup", WRAP_PLAIN, no_options, "" },
    { "nice", WRAP_PLAIN, nice_options, "" },
    { "setsid", WRAP_PLAIN, setsid_options, "" },
    { "stdbuf", WRAP_PLAIN, stdbuf_options, "" },
    { "ionice", WRAP_PLAIN, ionice_options, "" },
    { "timeout", WRAP_TIMEOUT, timeout_options, "" },
    { "xargs", WRAP_PLAIN, xargs_options, "" },
    { "su", WRAP_USER, su_options, "cC" },
    { "flock", WRAP_LOCK, flock_options, "c" },
    { "watch", WRAP_JOINED, watch_options, "" },
    { "find", WRAP_FIND, no_options, "" },
    { "eval", WRAP_EVAL, no_options, "" },
    { "sh", WRAP_SHELL, shell_options, "" },
    { "bash", WRAP_SHELL, shell_options, "" },
    { "dash", WRAP_SHELL, shell_options, "" },
    { "ash", WRAP_SHELL, shell_options, "" },
    { "ksh", WRAP_SHELL, shell_options, "" },
    { "mksh", WRAP_SHELL, shell_options, "" },
    { "zsh", WRAP_SHELL, shell_options, "" },
};

static bool text_is(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

static bool word_is(const struct shell_word *word, const char *text)
{
    return text_is(word->text, word->length, text);
}

/* Unquoted and not interpolated: a reserved word can only be this. */
static bool is_plain(const struct shell_word *word)
{
    return (word->flags & (SHELL_WORD_QUOTED | SHELL_WORD_INTERPOLATED)) == 0;
}

/* The last component of a path ("/usr/bin/docker" -> "docker"). */
static const char *base_name(const struct shell_word *word, size_t *length)
{
    const char *slash = NULL;
    for (size_t i = 0; i < word->length; i++)
        if (word->text[i] == '/')
            slash = word->text + i;
    const char *base = slash != NULL ? slash + 1 : word->text;
    *length = word->length - (size_t)(base - word->text);
    return base;
}

static enum shell_engine engine_named(const char *name, size_t length)
{
    if (text_is(name, length, "docker"))
        return SHELL_ENGINE_DOCKER;
    if (text_is(name, length, "podman") || text_is(name, length, "podman-remote"))
        return SHELL_ENGINE_PODMAN;
    if (text_is(name, length, "nerdctl"))
        return SHELL_ENGINE_NERDCTL;
    if (text_is(name, length, "docker-compose") || text_is(name, length, "podman-compose"))
        return SHELL_ENGINE_COMPOSE;
    return 0;
}

static bool contains_folded(const char *text, size_t length, const char *needle)
{
    size_t needle_length = strlen(needle);
    for (size_t i = 0; i + needle_length <= length; i++) {
        size_t j = 0;
        while (j < needle_length &&
               (text[i + j] | 0x20) == needle[j])
            j++;
        if (j == needle_length)
            return true;
    }
    return false;
}

/* An interpolated program word whose name says it is a container engine
 * ($DOCKER, ${PODMAN_BIN}, $(CONTAINER_TOOL)). */
static bool engine_variable(const struct shell_word *word)
{
    return contains_folded(word->text, word->length, "docker") ||
           contains_folded(word->text, word->length, "podman") ||
           contains_folded(word->text, word->length, "nerdctl") ||
           contains_folded(word->text, word->length, "container") ||
           contains_folded(word->text, word->length, "engine");
}

static const struct wrapper_option *find_letter(const struct wrapper_option *options,
                                                char letter)
{
    for (; options->letter != 0 || options->name != NULL; options++)
        if (options->letter == letter)
            return options;
    return NULL;
}

static const struct wrapper_option *find_name(const struct wrapper_option *options,
                                              const char *name, size_t length)
{
    for (; options->letter != 0 || options->name != NULL; options++)
        if (options->name != NULL && text_is(name, length, options->name))
            return options;
    return NULL;
}

/* A bit per option letter, a-z and A-Z. */
static uint64_t letter_bit(char letter)
{
    if (letter >= 'a' && letter <= 'z')
        return (uint64_t)1 << (letter - 'a');
    if (letter >= 'A' && letter <= 'Z')
        return (uint64_t)1 << (26 + letter - 'A');
    return 0;
}

/* Where the text of env -S, su -c or flock -c is: a word, and the bytes of
 * it before the text. */
struct split_string {
    size_t word, offset;
};

/*
 * Skips the options at words[*at...] in the table; returns the letters
 * seen through *letters and where -S's value is through *split (word
 * stays the command's word count when there is none).  *unsure is set for
 * an option the table does not know.
 */
static void skip_options(const struct shell_command *command, size_t *at,
                         const struct wrapper *wrapper, uint64_t *letters,
                         struct split_string *split, bool *unsure)
{
    const struct wrapper_option *options = wrapper->options;
    const struct shell_word *words = command->words;
    size_t count = command->word_count;
    while (*at < count) {
        const struct shell_word *word = &words[*at];
        const char *text = word->text;
        if (word->length < 2 || (text[0] != '-' && text[0] != '+') ||
            (word->flags & SHELL_WORD_INTERPOLATED))
            return;
        (*at)++;
        if (word_is(word, "--"))
            return;
        if (text[0] == '-' && text[1] == '-') {
            const char *equals = memchr(text, '=', word->length);
            size_t name_length = equals != NULL ? (size_t)(equals - text) - 2 : word->length - 2;
            const struct wrapper_option *option = find_name(options, text + 2, name_length);
            if (option == NULL) {
                *unsure = true;
                continue;
            }
            *letters |= letter_bit(option->letter);
            if (option->letter != 0 && strchr(wrapper->text_letters, option->letter)) {
                split->word = equals != NULL ? *at - 1 : *at;
                split->offset = equals != NULL ? (size_t)(equals - text) + 1 : 0;
            }
            if (option->value && equals == NULL)
                (*at)++;
            continue;
        }
        for (size_t i = 1; i < word->length; i++) {
            const struct wrapper_option *option = find_letter(options, text[i]);
            if (option == NULL) {
                *unsure = true;
                break;
            }
            *letters |= letter_bit(text[i]);
            if (!option->value)
                continue;
            if (strchr(wrapper->text_letters, option->letter)) {
                split->word = i + 1 < word->length ? *at - 1 : *at;
                split->offset = i + 1 < word->length ? i + 1 : 0;
            }
            if (i + 1 == word->length)
                (*at)++;    /* the value is the next word */
            break;
        }
    }
}

static void skip_assignments(const struct shell_command *command, size_t *at)
{
    while (*at < command->word_count) {
        const struct shell_word *word = &command->words[*at];
        const char *equals = memchr(word->text, '=', word->length);
        if (equals == NULL || equals == word->text)
            return;
        (*at)++;
    }
}

static const struct wrapper *find_wrapper(const char *name, size_t length)
{
    for (size_t i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++)
        if (text_is(name, length, wrappers[i].name))
            return &wrappers[i];
    return NULL;
}

static bool is_reserved_prefix(const struct shell_word *word)
{
    static const char *const reserved[] = {
        "!", "{", "if", "then", "else", "elif", "do", "while", "until",
    };
    if (!is_plain(word))
        return false;
    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
        if (word_is(word, reserved[i]))
            return true;
    return false;
}

static enum shell_program_kind other(struct shell_program *out)
{
    memset(out, 0, sizeof(*out));
    return SHELL_PROGRAM_OTHER;
}

/* The value of env -S, su -c or flock -c: shell text. */
static enum shell_program_kind shell_text(struct shell_program *out, struct split_string split)
{
    out->kind = SHELL_PROGRAM_SHELL_TEXT;
    out->text = split.word;
    out->text_offset = split.offset;
    return out->kind;
}

enum shell_program_kind shell_find_program(const struct shell_command *command,
                                           struct shell_program *out)
{
    memset(out, 0, sizeof(*out));
    const struct shell_word *words = command->words;
    size_t count = command->word_count, at = 0;
    while (at < count && is_reserved_prefix(&words[at]))
        at++;
    while (at < count && (words[at].flags & SHELL_WORD_ASSIGNMENT))
        at++;
    bool unsure = false;
    for (;;) {
        if (at >= count)
            return other(out);
        const struct shell_word *word = &words[at];
        out->program = at;
        if (word->flags & SHELL_WORD_INTERPOLATED) {
            if (!engine_variable(word) || at + 1 >= count)
                return other(out);
            const struct shell_word *next = &words[at + 1];
            if (!word_is(next, "run") && !word_is(next, "create") && !word_is(next, "container"))
                return other(out);
            out->engine = SHELL_ENGINE_INTERPOLATED;
            out->kind = SHELL_PROGRAM_ENGINE;
            out->flags |= unsure ? SHELL_PROGRAM_UNSURE : 0;
            return out->kind;
        }
        size_t name_length;
        const char *name = base_name(word, &name_length);
        enum shell_engine engine = engine_named(name, name_length);
        if (engine != 0) {
            out->engine = engine;
            out->kind = SHELL_PROGRAM_ENGINE;
            out->flags |= unsure ? SHELL_PROGRAM_UNSURE : 0;
            return out->kind;
        }
        const struct wrapper *wrapper = find_wrapper(name, name_length);
        if (wrapper == NULL)
            return other(out);
        at++;
        uint64_t letters = 0;
        struct split_string split = { count, 0 };
        if (wrapper->kind != WRAP_EVAL && wrapper->kind != WRAP_FIND)
            skip_options(command, &at, wrapper, &letters, &split, &unsure);
        switch (wrapper->kind) {
        case WRAP_COMMAND:
            if (letters & (letter_bit('v') | letter_bit('V')))
                return other(out);     /* command -v only looks */
            break;
        case WRAP_ASSIGNMENTS:
            if (split.word < count)
                return shell_text(out, split);
            skip_assignments(command, &at);
            break;
        case WRAP_TIMEOUT:
            at++;   /* the duration */
            break;
        case WRAP_SHELL:
            if (!(letters & letter_bit('c')) &&
                (at >= count || (letters & letter_bit('s')) || word_is(&words[at], "-"))) {
                other(out);
                out->flags = SHELL_PROGRAM_STDIN_SCRIPT;
                return SHELL_PROGRAM_OTHER;
            }
            if (!(letters & letter_bit('c')) || at >= count)
                return other(out);
            out->kind = SHELL_PROGRAM_SHELL_TEXT;
            out->text = at;
            return out->kind;
        case WRAP_EVAL:
            if (at + 1 == count) {
                out->kind = SHELL_PROGRAM_SHELL_TEXT;
                out->text = at;
                out->program = at - 1;
                return out->kind;
            }
            break;
        case WRAP_JOINED:
            if (!(letters & letter_bit('x')) && at + 1 == count) {
                out->kind = SHELL_PROGRAM_SHELL_TEXT;
                out->text = at;
                return out->kind;
            }
            break;
        case WRAP_USER:
            if (split.word >= count && at < count && word_is(&words[at], "-"))
                at++;       /* su - USER: a login shell */
            if (split.word >= count && at < count && words[at].length != 0 &&
                words[at].text[0] != '-') {
                at++;       /* the user; options may follow it */
                skip_options(command, &at, wrapper, &letters, &split, &unsure);
            }
            if (split.word >= count)
                return other(out);  /* no -c: an interactive shell */
            return shell_text(out, split);
        case WRAP_LOCK:
            if (split.word >= count) {
                at++;       /* the lock file (or descriptor: then no command follows) */
                skip_options(command, &at, wrapper, &letters, &split, &unsure);
            }
            if (split.word < count)
                return shell_text(out, split);
            break;
        case WRAP_FIND: {
            /* The expression's first -exec runs a program with the
             * words up to ';' or '+' (the engine reads a run's words
             * after the image as the container's command). */
            size_t exec = at;
            while (exec < count && !(is_plain(&words[exec]) &&
                                     (word_is(&words[exec], "-exec") ||
                                      word_is(&words[exec], "-execdir") ||
                                      word_is(&words[exec], "-ok") ||
                                      word_is(&words[exec], "-okdir"))))
                exec++;
            if (exec >= count)
                return other(out);
            at = exec + 1;
            break;
        }
        case WRAP_PLAIN:
            break;
        }
        out->flags |= SHELL_PROGRAM_WRAPPED;
    }
}
