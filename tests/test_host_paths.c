/* Unit tests for where a host path lies (core/kinds/host_paths.c): SPEC §7,
 * SBX003 (0.2). */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "host_paths.h"

static enum host_path_place place(const char *path)
{
    return host_path_system_place(path, strlen(path));
}

static void test_system_directories(void **state)
{
    (void)state;
    static const char *const directories[] = {
        "/", "//", "/proc", "/sys", "/dev", "/etc", "/etc/", "/boot", "/run",
        "/var/run", "/root", "/var/lib/docker", "/home", "/home/alice",
        "/home/alice/.ssh", "~", "~/", "$HOME", "${HOME}", "~/.ssh", "~/.aws",
        "~/.kube", "~/.docker", "~/.config/gcloud", "${HOME}/.ssh", "$HOME/.aws/",
        "/srv/../etc", "/./etc/.", "/..", "~/..", "~/../..", "/home/${USER}",
    };
    for (size_t i = 0; i < sizeof(directories) / sizeof(*directories); i++) {
        if (place(directories[i]) != HOST_PATH_SYSTEM_DIRECTORY)
            fail_msg("'%s' is a host system directory", directories[i]);
    }
}

static void test_under_system_directories(void **state)
{
    (void)state;
    static const char *const under[] = {
        "/proc/1/root", "/sys/fs/cgroup", "/dev/kvm", "/etc/localtime",
        "/etc/ssl/certs/", "/boot/grub", "/run/dbus", "/var/run/utmp",
        "/root/data", "/var/lib/docker/volumes", "/home/alice/.ssh/id_rsa",
        "~/.ssh/id_ed25519", "~/.config/gcloud/credentials.db",
        "~/.docker/config.json", "/etc/${APP}", "/etc/${APP}/../..",
        "/home/${USER}/.kube/config", "~/../bob/.aws/config", "/srv/../etc/x",
    };
    for (size_t i = 0; i < sizeof(under) / sizeof(*under); i++) {
        if (place(under[i]) != HOST_PATH_IN_SYSTEM_DIRECTORY)
            fail_msg("'%s' lies under a host system directory", under[i]);
    }
}

static void test_ordinary_paths(void **state)
{
    (void)state;
    static const char *const ordinary[] = {
        "/srv/data", "/etcetera", "/home/alice/project", "~/project",
        "~/.config", "~/.config/other", "/var/lib", "/var/lib/dockerx",
        "/var", "/opt/etc", "./etc", "etc/x", "data", "${DATA}", "/${DIR}",
        "${HOME}x/.ssh", "$HOMEDIR/.ssh", "~alice/.ssh", "C:\\Windows",
        "/proc/../srv", "/home/alice/project/../code", "",
    };
    for (size_t i = 0; i < sizeof(ordinary) / sizeof(*ordinary); i++) {
        if (place(ordinary[i]) != HOST_PATH_ORDINARY)
            fail_msg("'%s' is an ordinary host path", ordinary[i]);
    }
}

/* Deep paths are normalised exactly, however many segments they have. */
static void test_deep_paths(void **state)
{
    (void)state;
    char path[4096] = "/srv";
    for (int i = 0; i < 100; i++)
        strncat(path, "/x", sizeof(path) - strlen(path) - 1);
    for (int i = 0; i < 101; i++)
        strncat(path, "/..", sizeof(path) - strlen(path) - 1);
    strncat(path, "/etc", sizeof(path) - strlen(path) - 1);
    assert_int_equal(place(path), HOST_PATH_SYSTEM_DIRECTORY);
    assert_int_equal(place("/etc/a/b/c/d/e/f/g/h/i/j/k"), HOST_PATH_IN_SYSTEM_DIRECTORY);
}

static void test_climbs_out(void **state)
{
    (void)state;
    static const char *const out[] = {
        "..", "../", "../x", "./..", "./a/../../b", "a/b/../../..", "..\\x",
        ".\\a\\..\\..\\b", "../${DIR}", "./../data",
    };
    static const char *const in[] = {
        ".", "./", "./x", "x/y", "./a/../b", "a/..", "/abs/../../x",
        "~/../x", "\\\\server\\share", "C:\\x\\..\\..", "${DIR}/../..",
        "$PWD/..", "./${DIR}/../..", "...", "..x/y", "",
    };
    for (size_t i = 0; i < sizeof(out) / sizeof(*out); i++) {
        if (!host_path_climbs_out(out[i], strlen(out[i])))
            fail_msg("'%s' climbs out of the Compose file's directory", out[i]);
    }
    for (size_t i = 0; i < sizeof(in) / sizeof(*in); i++) {
        if (host_path_climbs_out(in[i], strlen(in[i])))
            fail_msg("'%s' does not climb out", in[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_system_directories),
        cmocka_unit_test(test_under_system_directories),
        cmocka_unit_test(test_ordinary_paths),
        cmocka_unit_test(test_deep_paths),
        cmocka_unit_test(test_climbs_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
