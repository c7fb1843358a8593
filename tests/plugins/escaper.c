/*
 * A hostile plugin: on every service it tries to escape - read /etc/passwd,
 * write a file in the scanned tree and in /tmp, open TCP and UDP sockets,
 * exec /bin/sh, ptrace its parent, push input into the terminal, signal
 * its parent - and reports each attempt as a finding whose message says
 * "refused" or "ALLOWED".  Paths come from $SANDLINT_TEST_ESCAPE_DIR.
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
                                  SL_SEVERITY_WARNING, message, NULL };
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

static int check_service(struct sl_context *ctx, const char *service,
                         const struct sl_node *key, const struct sl_node *value)
{
    (void)service;
    (void)value;
    const char *dir = getenv("SANDLINT_TEST_ESCAPE_DIR");
    char tree_file[4096], tmp_file[4096];
    snprintf(tree_file, sizeof(tree_file), "%s/escaped-tree", dir ? dir : ".");
    snprintf(tmp_file, sizeof(tmp_file), "/tmp/sandlint-escaped-%s",
             getenv("SANDLINT_TEST_ESCAPE_TAG") ? getenv("SANDLINT_TEST_ESCAPE_TAG") : "x");
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
    SL_SEVERITY_WARNING, NULL, check_service, NULL, 0,
};
static const struct sl_rule *const rules[] = { &rule, NULL };
static const struct sl_plugin plugin = {
    SL_PLUGIN_INIT, "escaper", "0.0.1", "tries to escape on purpose", rules,
};
SANDLINT_PLUGIN(plugin)
