/* landlock.c - read-only filesystem confinement (see landlock.h). */
#include "config.h"

#include "landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "xalloc.h"

#ifdef __linux__

/* Syscall numbers are the same on every architecture (since Linux 5.13). */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

#define CREATE_RULESET_VERSION (1u << 0)
#define RULE_PATH_BENEATH 1

/* Filesystem rights, with the ABI that introduced them. */
#define FS_EXECUTE      (1ull << 0)   /* 1 */
#define FS_WRITE_FILE   (1ull << 1)   /* 1 */
#define FS_READ_FILE    (1ull << 2)   /* 1 */
#define FS_READ_DIR     (1ull << 3)   /* 1 */
#define FS_REMOVE_DIR   (1ull << 4)   /* 1 */
#define FS_REMOVE_FILE  (1ull << 5)   /* 1 */
#define FS_MAKE_CHAR    (1ull << 6)   /* 1 */
#define FS_MAKE_DIR     (1ull << 7)   /* 1 */
#define FS_MAKE_REG     (1ull << 8)   /* 1 */
#define FS_MAKE_SOCK    (1ull << 9)   /* 1 */
#define FS_MAKE_FIFO    (1ull << 10)  /* 1 */
#define FS_MAKE_BLOCK   (1ull << 11)  /* 1 */
#define FS_MAKE_SYM     (1ull << 12)  /* 1 */
#define FS_REFER        (1ull << 13)  /* 2 */
#define FS_TRUNCATE     (1ull << 14)  /* 3 */
#define FS_IOCTL_DEV    (1ull << 15)  /* 5 */
/* Network rights (ABI 4). */
#define NET_BIND_TCP    (1ull << 0)
#define NET_CONNECT_TCP (1ull << 1)
/* Scopes (ABI 6). */
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0)
#define SCOPE_SIGNAL               (1ull << 1)

struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;    /* ABI 4 */
    uint64_t scoped;                /* ABI 6 */
};

struct path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int landlock_abi(const char **why)
{
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
    if (abi >= 1)
        return (int)abi;
    if (why != NULL)
        *why = errno == ENOSYS ? "this kernel has no Landlock"
               : errno == EOPNOTSUPP ? "Landlock is disabled in this kernel"
                                     : "Landlock is unavailable";
    return 0;
}

/* Every filesystem right the ABI knows. */
static uint64_t fs_rights(int abi)
{
    uint64_t rights = (FS_MAKE_SYM << 1) - 1;   /* ABI 1: bits 0..12 */
    if (abi >= 2)
        rights |= FS_REFER;
    if (abi >= 3)
        rights |= FS_TRUNCATE;
    if (abi >= 5)
        rights |= FS_IOCTL_DEV;
    return rights;
}

int landlock_restrict(const char *const *paths, size_t count, char **why)
{
    *why = NULL;
    const char *unavailable = NULL;
    int abi = landlock_abi(&unavailable);
    if (abi == 0) {
        *why = xstrdup(unavailable);
        return -1;
    }
    struct ruleset_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.handled_access_fs = fs_rights(abi);
    size_t attr_size = sizeof(attr.handled_access_fs);
    if (abi >= 4) {
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
        attr_size += sizeof(attr.handled_access_net);
    }
    if (abi >= 6) {
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        attr_size += sizeof(attr.scoped);
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
    if (ruleset < 0) {
        *why = xasprintf("cannot create a Landlock ruleset: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        int fd = open(paths[i], O_PATH | O_CLOEXEC);
        struct stat info;
        if (fd < 0 || fstat(fd, &info) != 0) {
            *why = xasprintf("cannot open %s for a Landlock rule: %s", paths[i],
                             strerror(errno));
            if (fd >= 0)
                close(fd);
            close(ruleset);
            return -1;
        }
        struct path_beneath_attr rule;
        /* Files take file rights only; directories also READ_DIR. */
        rule.allowed_access = S_ISDIR(info.st_mode) ? FS_READ_FILE | FS_READ_DIR
                                                    : FS_READ_FILE;
        rule.parent_fd = fd;
        long added = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
        int saved = errno;
        close(fd);
        if (added != 0) {
            *why = xasprintf("cannot add a Landlock rule for %s: %s", paths[i],
                             strerror(saved));
            close(ruleset);
            return -1;
        }
    }
    if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        *why = xasprintf("cannot enforce the Landlock ruleset: %s", strerror(errno));
        close(ruleset);
        return -1;
    }
    close(ruleset);
    return abi;
}

#else /* !__linux__ */

int landlock_abi(const char **why)
{
    if (why != NULL)
        *why = "Landlock exists on Linux only";
    return 0;
}

int landlock_restrict(const char *const *paths, size_t count, char **why)
{
    (void)paths;
    (void)count;
    *why = xstrdup("Landlock exists on Linux only");
    return -1;
}

#endif
