/* report_output.c - where the report goes (see report_output.h). */
#include "config.h"

#include "report_output.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "terminal.h"
#include "xalloc.h"

#define COMMAND_COMMIT 'c'

/* The helper: waits for one command, renames or removes the temporary
 * file, answers with the errno of the rename (0 on success), and exits.
 * It ignores the signals that stop sandlint, so that it can always
 * clean up after it. */
static _Noreturn void finisher_main(const char *temporary, const char *destination,
                                    int command_fd, int reply_fd)
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
        if (rename(temporary, destination) != 0)
            error = errno;
    } else {
        unlink(temporary);
    }
    if (error != 0)
        unlink(temporary);
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
        finisher_main(output->temporary, output->path, command[0], reply[1]);
    }
    close(command[0]);
    close(reply[1]);
    output->finisher = pid;
    output->command_fd = command[1];
    output->reply_fd = reply[0];
    return 0;
}

static int open_destination(struct report_output *output, const char *path,
                            bool keep_mode);

int report_output_open(struct report_output *output, const char *path)
{
    return open_destination(output, path, false);
}

int report_output_open_replacing(struct report_output *output, const char *path)
{
    return open_destination(output, path, true);
}

static int open_destination(struct report_output *output, const char *path,
                            bool keep_mode)
{
    memset(output, 0, sizeof(*output));
    output->finisher = -1;
    output->command_fd = output->reply_fd = -1;
    if (path == NULL || strcmp(path, "-") == 0) {
        output->stream = stdout;
        return 0;
    }
    output->path = path;
    struct stat info;
    mode_t mode = 0;
    if (stat(path, &info) == 0) {
        mode = info.st_mode & 07777;
        output->exists = true;
        output->device = info.st_dev;
        output->inode = info.st_ino;
        if (!S_ISREG(info.st_mode)) {
            /* A terminal, pipe or device: nothing to replace. */
            output->stream = fopen(path, "w");
            if (output->stream == NULL) {
                terminal_error("sandlint: cannot write %s: %s\n", path, strerror(errno));
                return -1;
            }
            return 0;
        }
    }
    char *directory = path_dirname(path);
    char *base = path_basename(path);
    output->temporary = xasprintf("%s/.%s.sandlint-XXXXXX", directory, base);
    free(directory);
    free(base);
    int fd = mkstemp(output->temporary);
    if (fd < 0) {
        terminal_error("sandlint: cannot write %s: %s\n", path, strerror(errno));
        free(output->temporary);
        output->temporary = NULL;
        return -1;
    }
    /* The mode a new file gets from fopen(): 0666 less the umask (or the
     * old file's, when it is replaced). */
    mode_t mask = umask(0);
    umask(mask);
    if (!(keep_mode && output->exists))
        mode = 0666 & ~mask;
    if (fchmod(fd, mode) != 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 ||
        (output->stream = fdopen(fd, "w")) == NULL || start_finisher(output) != 0) {
        terminal_error("sandlint: cannot write %s: %s\n", path, strerror(errno));
        if (output->stream != NULL)
            fclose(output->stream);
        else
            close(fd);
        output->stream = NULL;
        unlink(output->temporary);
        free(output->temporary);
        output->temporary = NULL;
        return -1;
    }
    return 0;
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
}
