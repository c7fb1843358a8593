/* report_output.c - where the report goes (see report_output.h). */
#include "config.h"

#include "report_output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "scanned_trees.h"
#include "source.h"
#include "terminal.h"
#include "xalloc.h"

#define COMMAND_COMMIT 'c'

/* The helper: waits for one command, renames or removes the temporary
 * file (both named in the destination's directory, dir_fd), answers with
 * the errno of the rename (0 on success), and exits.  It ignores the
 * signals that stop sandlint, so that it can always clean up after it. */
static _Noreturn void finisher_main(int dir_fd, const char *temporary,
                                    const char *destination, int command_fd, int reply_fd)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    char command = 0;
    ssize_t got;
    do
        got = read(command_fd, &command, 1);
    while (got < 0 && errno == EINTR);
    int error = 0;
    if (got == 1 && command == COMMAND_COMMIT) {
        if (renameat(dir_fd, temporary, dir_fd, destination) != 0)
            error = errno;
    } else {
        unlinkat(dir_fd, temporary, 0);
    }
    if (error != 0)
        unlinkat(dir_fd, temporary, 0);
    (void)!write(reply_fd, &error, sizeof(error));
    _exit(0);
}

static int start_finisher(struct report_output *output)
{
    int command[2], reply[2];
    if (pipe2(command, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(reply, O_CLOEXEC) != 0) {
        close(command[0]);
        close(command[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(command[0]);
        close(command[1]);
        close(reply[0]);
        close(reply[1]);
        return -1;
    }
    if (pid == 0) {
        close(command[1]);
        close(reply[0]);
        finisher_main(output->dir_fd, output->temporary, output->name, command[0],
                      reply[1]);
    }
    close(command[0]);
    close(reply[1]);
    output->finisher = pid;
    output->command_fd = command[1];
    output->reply_fd = reply[0];
    return 0;
}

void report_output_init(struct report_output *output)
{
    memset(output, 0, sizeof(*output));
    output->finisher = -1;
    output->command_fd = output->reply_fd = -1;
    output->dir_fd = -1;
}

/* Creates a new temporary file beside the destination, in its directory,
 * never following a link: ".NAME.sandlint-XXXXXX". */
static int create_temporary(struct report_output *output)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char random_bytes[6];
        if (getrandom(random_bytes, sizeof(random_bytes), 0) != (ssize_t)sizeof(random_bytes))
            return -1;
        char suffix[7];
        for (size_t i = 0; i < 6; i++)
            suffix[i] = letters[random_bytes[i] % (sizeof(letters) - 1)];
        suffix[6] = '\0';
        free(output->temporary);
        output->temporary = xasprintf(".%s.sandlint-%s", output->name, suffix);
        int fd = openat(output->dir_fd, output->temporary,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

static void cannot_write(const char *shown, const char *why)
{
    terminal_error("sandlint: cannot write %s: %s\n", shown, why);
}

/* Notes what the destination is, for report_output_is(). */
static void note_identity(struct report_output *output, const struct stat *info)
{
    output->exists = true;
    output->device = info->st_dev;
    output->inode = info->st_ino;
}

/* Opens a destination that is written as it is, not replaced: a device,
 * a pipe, or the user's link (/dev/stdout).  Returns 0, or -1 after
 * printing why. */
static int open_directly(struct report_output *output, const char *path, const char *shown)
{
    output->stream = fopen(path, "w");
    if (output->stream != NULL)
        return 0;
    cannot_write(shown, strerror(errno));
    report_output_abort(output);
    return -1;
}

/*
 * Opens path for a report or an edited configuration.  replacing: the
 * file keeps its mode, a link is refused anywhere, and an existing file is
 * read (*text).  Returns 0, or -1 after printing why.
 */
static int open_destination(struct report_output *output, const char *path,
                            const char *shown, const struct scanned_trees *trees,
                            bool replacing, size_t max_size, char **text, size_t *length)
{
    report_output_init(output);
    if (text != NULL)
        *text = NULL;
    if (path == NULL || strcmp(path, "-") == 0) {
        output->stream = stdout;
        return 0;
    }
    output->path = path;
    struct write_place place;
    char *problem = NULL;
    if (write_place_open(&place, trees, path, &problem) != 0) {
        cannot_write(shown, problem);
        free(problem);
        return -1;
    }
    output->dir_fd = place.dir_fd;
    output->name = place.name;
    place.dir_fd = -1;
    place.name = NULL;
    bool inside = place.inside;
    write_place_release(&place);

    struct stat info;
    mode_t mode = 0;
    bool exists = fstatat(output->dir_fd, output->name, &info, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && S_ISLNK(info.st_mode)) {
        if (inside || replacing) {
            cannot_write(shown, replacing
                         ? "it is a symbolic link; --update-allowlist edits files, not "
                           "links (edit the file it leads to, or name that with --config)"
                         : "it is a symbolic link inside the scanned tree, which sandlint "
                           "does not follow to write");
            report_output_abort(output);
            return -1;
        }
        /* The user's own link, outside every tree (/dev/stdout): written
         * through, never renamed over - replacing /dev/stdout with a file
         * when standard output is one would break the machine. */
        if (fstatat(output->dir_fd, output->name, &info, 0) == 0)
            note_identity(output, &info);
        return open_directly(output, path, shown);
    }
    if (exists) {
        mode = info.st_mode & 07777;
        note_identity(output, &info);
        if (!S_ISREG(info.st_mode)) {
            if (inside || replacing) {
                cannot_write(shown, replacing ? "the configuration is not a regular file"
                                              : "it is not a regular file, and it lies "
                                                "inside the scanned tree");
                report_output_abort(output);
                return -1;
            }
            /* A terminal, pipe or device the user named outside the
             * trees: nothing to replace. */
            return open_directly(output, path, shown);
        }
    }
    if (replacing && exists) {
        /* Root may write anything: a file nobody may write is read-only
         * on purpose. */
        if ((info.st_mode & 0222) == 0 ||
            faccessat(output->dir_fd, output->name, W_OK, AT_EACCESS) != 0) {
            terminal_error("%s: the configuration is read-only; --update-allowlist "
                           "cannot change it\n", shown);
            report_output_abort(output);
            return -1;
        }
        struct source_text read;
        char *error = NULL;
        int status = source_read_at(output->dir_fd, output->name, max_size, &read, &error);
        source_forget_directories();
        if (status != 0) {
            terminal_error("%s: %s\n", shown, error);
            free(error);
            report_output_abort(output);
            return -1;
        }
        *text = read.data;
        *length = read.length;
    }
    int fd = create_temporary(output);
    if (fd < 0) {
        cannot_write(shown, strerror(errno));
        free(output->temporary);
        output->temporary = NULL;
        report_output_abort(output);
        return -1;
    }
    /* The mode a new file gets from fopen(): 0666 less the umask (or the
     * old file's, when it is replaced). */
    mode_t mask = umask(0);
    umask(mask);
    if (!(replacing && exists))
        mode = 0666 & ~mask;
    if (fchmod(fd, mode) != 0 || (output->stream = fdopen(fd, "w")) == NULL ||
        start_finisher(output) != 0) {
        cannot_write(shown, strerror(errno));
        if (output->stream != NULL)
            fclose(output->stream);
        else
            close(fd);
        output->stream = NULL;
        unlinkat(output->dir_fd, output->temporary, 0);
        free(output->temporary);
        output->temporary = NULL;
        report_output_abort(output);
        return -1;
    }
    return 0;
}

int report_output_open(struct report_output *output, const char *path,
                       const struct scanned_trees *trees)
{
    return open_destination(output, path, path, trees, false, 0, NULL, NULL);
}

int report_output_open_replacing(struct report_output *output, const char *path,
                                 const char *shown, const struct scanned_trees *trees,
                                 size_t max_size, char **text, size_t *length)
{
    int status = open_destination(output, path, shown, trees, true, max_size, text, length);
    if (status != 0 && text != NULL) {
        free(*text);
        *text = NULL;
    }
    return status;
}

bool report_output_is(const struct report_output *output, dev_t device,
                      ino_t inode)
{
    return output->exists && output->device == device && output->inode == inode;
}

/* Sends the helper its command and waits for its answer (0 when the file
 * was renamed). */
static int finish(struct report_output *output, char command)
{
    int error = EIO;
    if (output->command_fd >= 0) {
        ssize_t wrote;
        do
            wrote = write(output->command_fd, &command, 1);
        while (wrote < 0 && errno == EINTR);
        close(output->command_fd);
        output->command_fd = -1;
        ssize_t got;
        do
            got = read(output->reply_fd, &error, sizeof(error));
        while (got < 0 && errno == EINTR);
        if (got != (ssize_t)sizeof(error))
            error = EIO;
        close(output->reply_fd);
        output->reply_fd = -1;
    }
    if (output->finisher > 0) {
        while (waitpid(output->finisher, NULL, 0) < 0 && errno == EINTR)
            ;
        output->finisher = -1;
    }
    return error;
}

int report_output_commit(struct report_output *output)
{
    if (output->stream == NULL)
        return -1;
    FILE *stream = output->stream;
    output->stream = NULL;
    int failed = fflush(stream) != 0 || ferror(stream);
    int error = failed ? errno : 0;
    if (stream != stdout) {
        if (!failed && output->temporary != NULL && fsync(fileno(stream)) != 0) {
            failed = 1;
            error = errno;
        }
        failed |= fclose(stream) != 0;
        if (failed && error == 0)
            error = errno;
    }
    if (output->temporary != NULL) {
        int renamed = finish(output, failed ? 0 : COMMAND_COMMIT);
        if (!failed && renamed != 0) {
            failed = 1;
            error = renamed;
        }
        free(output->temporary);
        output->temporary = NULL;
    }
    if (failed) {
        terminal_error("sandlint: error writing %s: %s\n",
                output->path ? output->path : "standard output", strerror(error));
        return -1;
    }
    return 0;
}

void report_output_abort(struct report_output *output)
{
    if (output->stream != NULL && output->stream != stdout)
        fclose(output->stream);
    else if (output->stream == stdout)
        fflush(stdout);
    output->stream = NULL;
    if (output->temporary != NULL) {
        finish(output, 0);
        free(output->temporary);
        output->temporary = NULL;
    }
    if (output->dir_fd >= 0)
        close(output->dir_fd);
    output->dir_fd = -1;
    free(output->name);
    output->name = NULL;
}
