/* seccomp_filter.c - system-call filters (see seccomp_filter.h). */
#include "config.h"

#include "seccomp_filter.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#ifdef HAVE_SECCOMP

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* Signals: the pid is an int, so compare the low 32 bits. */
#define PID_LOW(value) ((uint64_t)(uint32_t)(value))
/* Argument n has all of bits set. */
#define HAS_BITS(n, bits) SCMP_CMP((n), SCMP_CMP_MASKED_EQ, (bits), (bits))
/* The low 32 bits of argument n equal value. */
#define LOW32_IS(n, value) SCMP_CMP((n), SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, (value))


bool seccomp_filter_available(const char **why)
{
    /* PR_GET_SECCOMP fails with EINVAL on kernels without seccomp. */
    if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL) {
        if (why != NULL)
            *why = "this kernel has no seccomp";
        return false;
    }
    return true;
}

/* Calls denied outright (EPERM), by name so that a call unknown to this
 * libseccomp or architecture is simply skipped. */
static const char *const denied[] = {
    /* networking: every socket family */
    "socket", "socketpair", "socketcall",
    /* starting programs */
    "execve", "execveat",
    /* other processes' memory */
    "ptrace", "process_vm_readv", "process_vm_writev",
    /* io_uring bypasses the filters of the calls it performs */
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    /* namespaces and mounts */
    "unshare", "setns", "mount", "umount", "umount2", "pivot_root", "chroot",
    "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    "mount_setattr",
    /* kernel attack surface a linter never needs */
    "bpf", "keyctl", "add_key", "request_key", "perf_event_open",
    "userfaultfd", "kexec_load", "kexec_file_load", "init_module",
    "finit_module", "delete_module", "reboot", "swapon", "swapoff",
    "acct", "quotactl", "name_to_handle_at", "open_by_handle_at",
    /* permissions, owners, extended attributes, times */
    "chmod", "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown",
    "fchownat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
    "lremovexattr", "fremovexattr", "utime", "utimes", "utimensat",
    "futimesat",
    /* changing the file system (Landlock forbids these too) */
    "creat", "unlink", "unlinkat", "rename", "renameat", "renameat2",
    "mkdir", "mkdirat", "rmdir", "link", "linkat", "symlink", "symlinkat",
    "mknod", "mknodat", "truncate",
    /* nor a file already open: the report, a descriptor a plugin found */
    "ftruncate", "fallocate",
    /* opening the parent or another process by pid */
    "pidfd_open", "pidfd_getfd",
};

/* Calls that fail with ENOSYS so libc falls back to a filtered one. */
static const char *const not_implemented[] = { "clone3", "openat2" };

static int rule(scmp_filter_ctx filter, uint32_t action, const char *name,
                unsigned count, const struct scmp_arg_cmp *args)
{
    int call = seccomp_syscall_resolve_name(name);
    if (call == __NR_SCMP_ERROR)
        return 0;   /* unknown here: nothing to filter */
    int result = seccomp_rule_add_array(filter, action, call, count, args);
    /* -EEXIST: the call is already covered; -EINVAL/-EOPNOTSUPP: no such
     * call on one of the architectures. */
    return result == -EEXIST || result == -EINVAL || result == -EOPNOTSUPP ? 0 : result;
}

static int deny_if(scmp_filter_ctx filter, const char *name, struct scmp_arg_cmp arg)
{
    return rule(filter, SCMP_ACT_ERRNO(EPERM), name, 1, &arg);
}

static int add_base_rules(scmp_filter_ctx filter)
{
    int result = 0;
    for (size_t i = 0; i < sizeof(denied) / sizeof(*denied) && result == 0; i++)
        result = rule(filter, SCMP_ACT_ERRNO(EPERM), denied[i], 0, NULL);
    for (size_t i = 0; i < sizeof(not_implemented) / sizeof(*not_implemented) && result == 0; i++)
        result = rule(filter, SCMP_ACT_ERRNO(ENOSYS), not_implemented[i], 0, NULL);
    /* Opens that could write: any of these flags. */
    static const unsigned long write_flags[] = { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC };
    for (size_t i = 0; i < 4 && result == 0; i++) {
        result = deny_if(filter, "open", HAS_BITS(1, write_flags[i]));
        if (result == 0)
            result = deny_if(filter, "openat", HAS_BITS(2, write_flags[i]));
    }
    /* Typing into the terminal: the request is an int, so only the low 32
     * bits count. */
    if (result == 0)
        result = deny_if(filter, "ioctl", LOW32_IS(1, TIOCSTI));
    if (result == 0)
        result = deny_if(filter, "ioctl", LOW32_IS(1, TIOCLINUX));
    /* New namespaces through clone(). */
    static const unsigned long namespaces[] = {
        CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID,
        CLONE_NEWNET, CLONE_NEWCGROUP,
    };
    for (size_t i = 0; i < sizeof(namespaces) / sizeof(*namespaces) && result == 0; i++)
        result = deny_if(filter, "clone", HAS_BITS(0, namespaces[i]));
    return result;
}


static int add_coordinator_rules(scmp_filter_ctx filter)
{
    /* The coordinator signals its workers; never its parent or a whole
     * process group (pid 0 or negative).  Landlock's signal scope, where
     * the kernel has it, confines this fully. */
    static const char *const calls[] = { "kill", "rt_sigqueueinfo" };
    int result = 0;
    for (size_t i = 0; i < 2 && result == 0; i++) {
        result = deny_if(filter, calls[i], LOW32_IS(0, PID_LOW(getppid())));
        if (result == 0)
            result = deny_if(filter, calls[i], LOW32_IS(0, 0));
        if (result == 0)
            result = deny_if(filter, calls[i], HAS_BITS(0, 0x80000000u));
    }
    for (size_t i = 0; i < 3 && result == 0; i++) {
        static const char *const thread_calls[] = { "tgkill", "tkill", "rt_tgsigqueueinfo" };
        result = deny_if(filter, thread_calls[i], LOW32_IS(0, PID_LOW(getppid())));
    }
    return result;
}

static int add_worker_rules(scmp_filter_ctx filter, int writable_fd)
{
    /* A worker signals nothing but itself (abort() and raise() do that). */
    uint64_t self = PID_LOW(getpid());
    static const char *const calls[] = { "kill", "tgkill", "tkill",
                                         "rt_sigqueueinfo", "rt_tgsigqueueinfo" };
    int result = 0;
    for (size_t i = 0; i < sizeof(calls) / sizeof(*calls) && result == 0; i++)
        result = deny_if(filter, calls[i], SCMP_CMP(0, SCMP_CMP_NE, self, 0));
    if (result == 0)
        result = rule(filter, SCMP_ACT_ERRNO(EPERM), "pidfd_send_signal", 0, NULL);
    /* Workers start no processes and no threads (libc's fork() is clone()). */
    static const char *const spawning[] = { "fork", "vfork", "clone" };
    for (size_t i = 0; i < 3 && result == 0; i++)
        result = rule(filter, SCMP_ACT_ERRNO(EPERM), spawning[i], 0, NULL);
    if (writable_fd < 0)
        return result;
    /* A worker writes its results to its pipe and nothing else: not the
     * report, not a descriptor a plugin got hold of. */
    static const char *const writing[] = { "write", "writev", "pwrite64",
                                           "pwritev", "pwritev2" };
    for (size_t i = 0; i < sizeof(writing) / sizeof(*writing) && result == 0; i++)
        result = deny_if(filter, writing[i], SCMP_CMP(0, SCMP_CMP_NE, (uint64_t)writable_fd, 0));
    static const char *const changing[] = { "sendfile", "splice", "tee",
                                            "vmsplice", "copy_file_range" };
    for (size_t i = 0; i < sizeof(changing) / sizeof(*changing) && result == 0; i++)
        result = rule(filter, SCMP_ACT_ERRNO(EPERM), changing[i], 0, NULL);
    return result;
}

int seccomp_filter_install(enum seccomp_layer layer, int writable_fd, char **why)
{
    *why = NULL;
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) {
        *why = xstrdup("cannot create a seccomp filter");
        return -1;
    }
    /* Calls made through another ABI of this CPU (i386's int 0x80 on
     * x86-64) would slip past rules written for the native one: the filter
     * holds the native architecture alone, and any other architecture's
     * call kills the process (on x86-64 libseccomp treats x32's call
     * numbers so as well).  Nothing sandlint or a plugin needs uses them,
     * and filtering them with the same rules instead tripled the filter:
     * compiling it took 3 ms of every run, twice with workers. */
    seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    int result = layer == SECCOMP_WORKER ? add_worker_rules(filter, writable_fd)
                                         : add_coordinator_rules(filter);
    /* The base layer is installed once, by the coordinator (or the only
     * process); a worker inherits it and only adds its own. */
    if (result == 0 && layer == SECCOMP_COORDINATOR)
        result = add_base_rules(filter);
    if (result == 0)
        result = seccomp_load(filter);
    seccomp_release(filter);
    if (result != 0) {
        *why = xasprintf("cannot install the seccomp filter: %s", strerror(-result));
        return -1;
    }
    return 0;
}

#else /* !HAVE_SECCOMP */

bool seccomp_filter_available(const char **why)
{
    if (why != NULL)
        *why = "sandlint was built without libseccomp";
    return false;
}

int seccomp_filter_install(enum seccomp_layer layer, int writable_fd, char **why)
{
    (void)layer;
    (void)writable_fd;
    *why = xstrdup("sandlint was built without libseccomp");
    return -1;
}

#endif
