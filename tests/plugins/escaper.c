/*
 * A hostile plugin: on every service it tries to escape - read /etc/passwd,
 * write a file in the scanned tree and in /tmp, truncate descriptors 0-15,
 * open TCP and UDP sockets, exec /bin/sh, ptrace its parent, push input
 * into the terminal, signal its parent - and reports each attempt as a
 * finding whose message says "refused" or "ALLOWED".  Its constructor,
 * which runs when sandlint loads it, tries the same before any check (the
 * "ctor_" findings).  Paths come from $SANDLINT_TEST_ESCAPE_DIR.
 */
#define _GNU_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandlint/plugin.h"

static int report(struct sl_context *ctx, const struct sl_node *where,
                  const char *field, int worked, int error)
{
    char message[256];
    snprintf(message, sizeof(message), "%s: %s (%s)", field,
             worked ? "ALLOWED" : "refused", worked ? "it worked" : strerror(error));
    struct sl_finding finding = { SL_FINDING_INIT, where, NULL, field, NULL, 0,
                                  SL_SEVERITY_WARNING, message, NULL, 0.0 };
    return sandlint_host->report(ctx, &finding);
}

static int try_open(const char *path, int flags)
{
    int fd = open(path, flags | O_CLOEXEC, 0600);
    if (fd < 0)
        return 0;
    if (flags & O_WRONLY)
        (void)!write(fd, "escaped\n", 8);
    close(fd);
    return 1;
}

static int try_socket(int type)
{
    int fd = socket(AF_INET, type, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(9);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    (void)connect(fd, (struct sockaddr *)&address, sizeof(address));
    close(fd);
    return 1;
}

static int try_exec(void)
{
    pid_t child = fork();
    if (child < 0)
        return 0;
    if (child == 0) {
        char *const argv[] = { (char *)"sh", (char *)"-c", (char *)"exit 0", NULL };
        execv("/bin/sh", argv);
        _exit(111);
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether truncating any of descriptors 0-15 worked (the report, a
 * result pipe, the terminal). */
static int try_truncate(void)
{
    int worked = 0;
    for (int fd = 0; fd < 16; fd++) {
        struct stat info;
        if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && ftruncate(fd, 0) == 0)
            worked = 1;
    }
    return worked;
}

/* What the constructor tried, reported by the first check. */
static struct {
    int tried;
    int passwd, tree, tmp, tcp, exec, truncated;
    int passwd_errno, tree_errno, tmp_errno, tcp_errno, truncate_errno;
} at_load;

static void escape_paths(char *tree_file, size_t tree_size, char *tmp_file,
                         size_t tmp_size, const char *suffix)
{
    const char *dir = getenv("SANDLINT_TEST_ESCAPE_DIR");
    const char *tag = getenv("SANDLINT_TEST_ESCAPE_TAG");
    snprintf(tree_file, tree_size, "%s/escaped-tree%s", dir ? dir : ".", suffix);
    snprintf(tmp_file, tmp_size, "/tmp/sandlint-escaped-%s%s", tag ? tag : "x", suffix);
}

__attribute__((constructor)) static void escape_at_load(void)
{
    if (getenv("SANDLINT_TEST_ESCAPE_DIR") == NULL)
        return;     /* only when a test asks for it */
    char tree_file[4096], tmp_file[4096];
    escape_paths(tree_file, sizeof(tree_file), tmp_file, sizeof(tmp_file), "-ctor");
    at_load.tried = 1;
    errno = 0;
    at_load.passwd = try_open("/etc/passwd", O_RDONLY);
    at_load.passwd_errno = errno;
    errno = 0;
    at_load.tree = try_open(tree_file, O_WRONLY | O_CREAT | O_TRUNC);
    at_load.tree_errno = errno;
    errno = 0;
    at_load.tmp = try_open(tmp_file, O_WRONLY | O_CREAT | O_TRUNC);
    at_load.tmp_errno = errno;
    errno = 0;
    at_load.tcp = try_socket(SOCK_STREAM);
    at_load.tcp_errno = errno;
    at_load.exec = try_exec();
    errno = 0;
    at_load.truncated = try_truncate();
    at_load.truncate_errno = errno ? errno : EPERM;
}

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)service;
    (void)value;
    if (at_load.tried) {
        report(ctx, key, "ctor_read_etc_passwd", at_load.passwd, at_load.passwd_errno);
        report(ctx, key, "ctor_write_in_tree", at_load.tree, at_load.tree_errno);
        report(ctx, key, "ctor_write_in_tmp", at_load.tmp, at_load.tmp_errno);
        report(ctx, key, "ctor_tcp_socket", at_load.tcp, at_load.tcp_errno);
        report(ctx, key, "ctor_exec_sh", at_load.exec, EPERM);
        report(ctx, key, "ctor_truncate_fds", at_load.truncated, at_load.truncate_errno);
    }
    char tree_file[4096], tmp_file[4096];
    escape_paths(tree_file, sizeof(tree_file), tmp_file, sizeof(tmp_file), "");
    int worked;
    errno = 0;
    worked = try_open("/etc/passwd", O_RDONLY);
    report(ctx, key, "read_etc_passwd", worked, errno);
    errno = 0;
    worked = try_open(tree_file, O_WRONLY | O_CREAT | O_TRUNC);
    report(ctx, key, "write_in_tree", worked, errno);
    errno = 0;
    worked = try_open(tmp_file, O_WRONLY | O_CREAT | O_TRUNC);
    report(ctx, key, "write_in_tmp", worked, errno);
    errno = 0;
    worked = try_truncate();
    report(ctx, key, "truncate_fds", worked, errno ? errno : EPERM);
    errno = 0;
    worked = try_socket(SOCK_STREAM);
    report(ctx, key, "tcp_socket", worked, errno);
    errno = 0;
    worked = try_socket(SOCK_DGRAM);
    report(ctx, key, "udp_socket", worked, errno);
    errno = 0;
    worked = try_exec();
    report(ctx, key, "exec_sh", worked, errno ? errno : EPERM);
    errno = 0;
    pid_t parent = getppid();
    worked = ptrace(PTRACE_ATTACH, parent, NULL, NULL) == 0;
    int ptrace_errno = errno;
    if (worked) {
        /* Unconfined it works: let the parent go again at once. */
        waitpid(parent, NULL, __WALL);
        ptrace(PTRACE_DETACH, parent, NULL, NULL);
    }
    report(ctx, key, "ptrace", worked, ptrace_errno);
    errno = 0;
    char c = 'x';
    worked = ioctl(0, TIOCSTI, &c) == 0 || (errno != EPERM && errno != EACCES);
    report(ctx, key, "tiocsti", worked, errno);
    errno = 0;
    worked = kill(getppid(), 0) == 0;
    report(ctx, key, "signal_parent", worked, errno);
    return SL_OK;
}

static const struct sl_rule rule = {
    SL_RULE_INIT, "TST030", "escaper", "test_group", NULL,
    "tries to escape confinement (test plugin)", NULL, NULL, NULL, NULL, NULL,
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0, 0.0, 0, NULL, NULL, NULL,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "escaper", "0.0.1", "tries to escape on purpose", rules,
};
SANDLINT_PLUGIN(plugin)
