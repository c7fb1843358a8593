/* confine.c - self-confinement and its self-test (see confine.h). */
#include "config.h"

#include "confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/ptrace.h>
#endif

#include "landlock.h"
#include "paths.h"
#include "seccomp_filter.h"
#include "terminal.h"
#include "xalloc.h"

static bool confined;
static bool landlock_on;
static bool seccomp_on;
static int landlock_version;

int confine_parse_mode(const char *text)
{
    if (strcmp(text, "auto") == 0)
        return CONFINE_AUTO;
    if (strcmp(text, "require") == 0)
        return CONFINE_REQUIRE;
    if (strcmp(text, "off") == 0)
        return CONFINE_OFF;
    return -1;
}

bool confine_active(void)
{
    return confined;
}

void confine_prepare(void)
{
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        goto closed;
#endif
    {
        long limit = sysconf(_SC_OPEN_MAX);
        if (limit < 0 || limit > 65536)
            limit = 65536;
        for (int fd = 3; fd < limit; fd++)
            close(fd);
    }
#if defined(__linux__) && defined(SYS_close_range)
closed:
#endif
    {
        /* A crashing parser must not leave a core file full of repository
         * contents behind. */
        struct rlimit none = { 0, 0 };
        setrlimit(RLIMIT_CORE, &none);
    }
}

void confine_warm_libc(void)
{
    /* Message catalogs are opened on first use; open them now. */
    static const int errors[] = { ENOENT, EACCES, EPERM, ELOOP, EISDIR, ENOTDIR,
                                  EINVAL, ENOMEM, EIO, ENOSYS, EAGAIN };
    for (size_t i = 0; i < sizeof(errors) / sizeof(*errors); i++)
        (void)strerror(errors[i]);
    for (int sig = 1; sig < 32; sig++)
        (void)strsignal(sig);
}

/* ------------------------------------------------------------------ */
/* probes: each must be refused once confined                          */
/* ------------------------------------------------------------------ */

enum probe_need {
    NEED_LANDLOCK = 1,          /* refused only with Landlock */
    NEED_SECCOMP = 2,           /* refused only with seccomp */
    NEED_EITHER = 3             /* refused by either */
};

struct probe_result {
    char what[192];
    int need;                   /* enum probe_need */
    int outcome;                /* 1 refused, 0 worked, -1 not applicable */
    char detail[128];
};

static bool refused_errno(int error)
{
    return error == EPERM || error == EACCES || error == ENOSYS;
}

static void set_outcome(struct probe_result *probe, bool refused, int error)
{
    probe->outcome = refused ? 1 : 0;
    snprintf(probe->detail, sizeof(probe->detail), "%s",
             refused ? strerror(error) : "it worked");
}

/* Whether path lies inside one of the allowed trees. */
static bool inside(const char *path, const char *const *trees, size_t count)
{
    char *real = realpath(path, NULL);
    if (real == NULL)
        return true;
    bool result = false;
    for (size_t i = 0; i < count && !result; i++) {
        char *tree = realpath(trees[i], NULL);
        result = tree != NULL && path_is_within(tree, real);
        free(tree);
    }
    free(real);
    return result;
}

static void probe_read_outside(struct probe_result *probe,
                               const char *const *trees, size_t count)
{
    static const char *const candidates[] = {
        "/etc/passwd", "/etc/hostname", "/etc/os-release", "/usr/lib/os-release",
    };
    probe->need = NEED_LANDLOCK;
    for (size_t i = 0; i < sizeof(candidates) / sizeof(*candidates); i++) {
        struct stat info;
        if (stat(candidates[i], &info) != 0 || inside(candidates[i], trees, count))
            continue;
        snprintf(probe->what, sizeof(probe->what),
                 "read a file outside the scanned tree (%s)", candidates[i]);
        int fd = open(candidates[i], O_RDONLY | O_CLOEXEC);
        int error = errno;
        if (fd >= 0)
            close(fd);
        set_outcome(probe, fd < 0 && refused_errno(error), error);
        return;
    }
    snprintf(probe->what, sizeof(probe->what), "read a file outside the scanned tree");
    probe->outcome = -1;
    snprintf(probe->detail, sizeof(probe->detail), "no file outside the tree to try");
}

static void probe_create(struct probe_result *probe, const char *directory,
                         const char *label)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/.sandlint-probe-%ld", directory, (long)getpid());
    snprintf(probe->what, sizeof(probe->what), "create a file %s (%.120s)", label, path);
    probe->need = NEED_EITHER;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    int error = errno;
    if (fd >= 0) {
        close(fd);
        unlink(path);
    }
    set_outcome(probe, fd < 0 && refused_errno(error), error);
}

static void probe_socket(struct probe_result *probe, int domain, int type,
                         const char *label)
{
    snprintf(probe->what, sizeof(probe->what), "open a %s socket", label);
    probe->need = NEED_SECCOMP;
    int fd = socket(domain, type | SOCK_CLOEXEC, 0);
    int error = errno;
    if (fd >= 0)
        close(fd);
    set_outcome(probe, fd < 0 && refused_errno(error), error);
}

static void probe_exec(struct probe_result *probe)
{
    snprintf(probe->what, sizeof(probe->what), "run /bin/true");
    probe->need = NEED_EITHER;
    pid_t child = fork();
    if (child < 0) {
        /* Not even a process can be started: refused all the same. */
        set_outcome(probe, true, errno);
        return;
    }
    if (child == 0) {
        char *const argv[] = { (char *)"true", NULL };
        char *const envp[] = { NULL };
        execve("/bin/true", argv, envp);
        _exit(errno == EPERM || errno == EACCES ? 111 : 112);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    bool refused = WIFEXITED(status) && WEXITSTATUS(status) == 111;
    set_outcome(probe, refused, WIFEXITED(status) && WEXITSTATUS(status) == 111 ? EPERM : 0);
}

static void probe_signal_parent(struct probe_result *probe)
{
    snprintf(probe->what, sizeof(probe->what), "signal the parent process (pid %ld)",
             (long)getppid());
    probe->need = NEED_EITHER;
    int result = kill(getppid(), 0);
    set_outcome(probe, result != 0 && refused_errno(errno), errno);
}

static void probe_ptrace(struct probe_result *probe)
{
    snprintf(probe->what, sizeof(probe->what), "ptrace the parent process");
    probe->need = NEED_SECCOMP;
#ifdef __linux__
    long result = ptrace(PTRACE_ATTACH, getppid(), NULL, NULL);
    int error = errno;
    if (result == 0)
        ptrace(PTRACE_DETACH, getppid(), NULL, NULL);
    set_outcome(probe, result != 0 && error == EPERM, error);
#else
    probe->outcome = -1;
#endif
}

static void probe_tiocsti(struct probe_result *probe)
{
    snprintf(probe->what, sizeof(probe->what), "push input into the terminal (TIOCSTI)");
    probe->need = NEED_SECCOMP;
    char c = ' ';
    /* An invalid descriptor: the filter refuses before the kernel looks. */
    int result = ioctl(-1, TIOCSTI, &c);
    set_outcome(probe, result != 0 && errno == EPERM, errno);
}

enum { PROBE_COUNT = 10 };

static size_t run_probes(struct probe_result *probes, const char *const *trees,
                         size_t count)
{
    memset(probes, 0, PROBE_COUNT * sizeof(*probes));
    char *directory = NULL;
    if (count > 0) {
        struct stat info;
        directory = stat(trees[0], &info) == 0 && !S_ISDIR(info.st_mode)
                        ? path_dirname(trees[0]) : xstrdup(trees[0]);
    }
    size_t n = 0;
    probe_read_outside(&probes[n++], trees, count);
    if (directory != NULL)
        probe_create(&probes[n++], directory, "in the scanned tree");
    probe_create(&probes[n++], "/tmp", "in /tmp");
    probe_socket(&probes[n++], AF_INET, SOCK_STREAM, "TCP");
    probe_socket(&probes[n++], AF_INET, SOCK_DGRAM, "UDP");
    probe_socket(&probes[n++], AF_UNIX, SOCK_STREAM, "Unix");
    probe_exec(&probes[n++]);
    probe_signal_parent(&probes[n++]);
    probe_ptrace(&probes[n++]);
    probe_tiocsti(&probes[n++]);
    free(directory);
    return n;
}

/* Whether the mechanisms in force should refuse this probe. */
static bool expected(const struct probe_result *probe)
{
    if (probe->outcome < 0)
        return false;
    if (probe->need == NEED_LANDLOCK)
        return landlock_on;
    if (probe->need == NEED_SECCOMP)
        return seccomp_on;
    return landlock_on || seccomp_on;
}

/* ------------------------------------------------------------------ */
/* confining                                                           */
/* ------------------------------------------------------------------ */

static int notice_or_fail(enum confine_mode mode, const char *why)
{
    if (mode == CONFINE_REQUIRE) {
        terminal_error("sandlint: cannot confine the scan (--confine=require): %s\n", why);
        return -1;
    }
    terminal_error("sandlint: note: %s; checking files without it "
                   "(--confine=require refuses to run so)\n", why);
    return 0;
}

int confine_apply(enum confine_mode mode, const char *const *paths,
                  size_t count, const struct string_list *also_readable,
                  bool single_process)
{
    if (mode == CONFINE_OFF)
        return 0;
#ifdef __linux__
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        char why[128];
        snprintf(why, sizeof(why), "cannot set no_new_privs: %s", strerror(errno));
        return notice_or_fail(mode, why);
    }
#endif
    char *landlock_why = NULL, *seccomp_why = NULL;
    size_t extra = also_readable != NULL ? also_readable->count : 0;
    const char **readable = xcalloc(count + extra + 1, sizeof(*readable));
    for (size_t i = 0; i < count; i++)
        readable[i] = paths[i];
    for (size_t i = 0; i < extra; i++)
        readable[count + i] = also_readable->items[i];
    int abi = landlock_restrict(readable, count + extra, &landlock_why);
    free(readable);
    landlock_on = abi > 0;
    landlock_version = abi > 0 ? abi : 0;
    const char *unavailable = NULL;
    if (!seccomp_filter_available(&unavailable)) {
        seccomp_why = xstrdup(unavailable);
    } else if (seccomp_filter_install(SECCOMP_COORDINATOR, -1, &seccomp_why) == 0) {
        seccomp_on = true;
        if (single_process && seccomp_filter_install(SECCOMP_WORKER, -1, &seccomp_why) != 0)
            seccomp_on = false;
    }
    confined = landlock_on || seccomp_on;
    int status = 0;
    if (!landlock_on || !seccomp_on) {
        char why[512];
        snprintf(why, sizeof(why), "%s%s%s%s%s",
                 landlock_on ? "" : "no Landlock confinement (",
                 landlock_on ? "" : landlock_why ? landlock_why : "unavailable",
                 landlock_on ? "" : ")",
                 !landlock_on && !seccomp_on ? " and " : "",
                 seccomp_on ? "" : "no seccomp filter");
        if (!seccomp_on) {
            size_t used = strlen(why);
            snprintf(why + used, sizeof(why) - used, " (%s)",
                     seccomp_why ? seccomp_why : "unavailable");
        }
        status = notice_or_fail(mode, why);
    }
    free(landlock_why);
    free(seccomp_why);
    if (status != 0 || !confined)
        return status;

    /* Check that the confinement holds before reading anything. */
    struct probe_result probes[PROBE_COUNT];
    size_t n = run_probes(probes, paths, count);
    for (size_t i = 0; i < n; i++) {
        if (expected(&probes[i]) && probes[i].outcome == 0) {
            terminal_error("sandlint: confinement does not hold: could %s; "
                           "refusing to check files\n", probes[i].what);
            return -1;
        }
    }
    return 0;
}

int confine_worker(void *unused, int result_fd)
{
    (void)unused;
    if (!seccomp_on)
        return 0;
    char *why = NULL;
    if (seccomp_filter_install(SECCOMP_WORKER, result_fd, &why) != 0) {
        free(why);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* --sandbox-check                                                     */
/* ------------------------------------------------------------------ */

int confine_sandbox_check(FILE *out, const char *tree)
{
    const char *landlock_why = NULL, *seccomp_why = NULL;
    int abi = landlock_abi(&landlock_why);
    if (abi > 0)
        fprintf(out, "Landlock: ABI %d (filesystem%s%s)\n", abi,
                abi >= 4 ? ", TCP" : "", abi >= 6 ? ", signal and socket scopes" : "");
    else
        fprintf(out, "Landlock: not available (%s)\n", landlock_why);
    bool seccomp = seccomp_filter_available(&seccomp_why);
    fprintf(out, "seccomp: %s%s%s\n", seccomp ? "available" : "not available (",
            seccomp ? "" : seccomp_why, seccomp ? "" : ")");
    fprintf(out, "Self-test in a confined child process (tree: %s):\n", tree);
    fflush(out);

    int channel[2];
    if (pipe(channel) != 0) {
        terminal_error("sandlint: pipe: %s\n", strerror(errno));
        return 2;
    }
    pid_t child = fork();
    if (child < 0) {
        terminal_error("sandlint: fork: %s\n", strerror(errno));
        return 2;
    }
    if (child == 0) {
        close(channel[0]);
        confine_warm_libc();
        const char *paths[] = { tree };
        if (confine_apply(CONFINE_REQUIRE, paths, 1, NULL, true) != 0) {
            /* confine_apply printed why; a failed probe also lands here. */
        }
        struct probe_result probes[PROBE_COUNT];
        size_t n = run_probes(probes, paths, 1);
        if (write(channel[1], probes, n * sizeof(*probes)) < 0)
            _exit(3);
        _exit(0);
    }
    close(channel[1]);
    struct probe_result probes[PROBE_COUNT];
    size_t got = 0;
    for (;;) {
        ssize_t r = read(channel[0], (char *)probes + got, sizeof(probes) - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(channel[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    size_t n = got / sizeof(*probes);
    size_t refused = 0, worked = 0;
    for (size_t i = 0; i < n; i++) {
        probes[i].what[sizeof(probes[i].what) - 1] = '\0';
        probes[i].detail[sizeof(probes[i].detail) - 1] = '\0';
        const char *verdict = probes[i].outcome > 0 ? "refused"
                              : probes[i].outcome == 0 ? "ALLOWED" : "skipped";
        fprintf(out, "  %-58s %s (%s)\n", probes[i].what, verdict, probes[i].detail);
        refused += probes[i].outcome > 0;
        worked += probes[i].outcome == 0;
    }
    if (n == 0) {
        fprintf(out, "Result: the self-test did not run\n");
        return 2;
    }
    if (worked == 0) {
        fprintf(out, "Result: confinement holds (%zu of %zu probes refused)\n", refused, n);
        return 0;
    }
    fprintf(out, "Result: confinement does NOT hold (%zu of %zu probes succeeded)\n",
            worked, n);
    return 2;
}
