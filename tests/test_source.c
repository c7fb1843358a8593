/* Unit tests for reading files and checking their encoding (core/read/source.c). */
#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

static void expect_problem(const char *data, size_t length, unsigned line,
                           unsigned column, const char *problem)
{
    unsigned got_line = 0, got_column = 0;
    const char *got = NULL;
    assert_int_equal(source_check_encoding(data, length, &got_line, &got_column, &got), -1);
    assert_int_equal(got_line, line);
    assert_int_equal(got_column, column);
    assert_non_null(strstr(got, problem));
}

static void expect_fine(const char *data, size_t length)
{
    unsigned line, column;
    const char *problem;
    assert_int_equal(source_check_encoding(data, length, &line, &column, &problem), 0);
}

static void test_encoding(void **state)
{
    (void)state;
    expect_fine("a: b\n", 5);
    expect_fine("a: \xc3\xa9\xe2\x82\xac\xf0\x9f\x90\xb3\n", 13);
    expect_fine("\xef\xbb\xbf" "a: b\n", 8);                   /* UTF-8 BOM */
    expect_problem("a: b\nc: \0\n", 10, 2, 4, "NUL byte");
    expect_problem("ab\r\ncd\xff", 7, 2, 3, "not valid UTF-8");
    expect_problem("x\ry\xc0\xaf", 5, 2, 2, "not valid UTF-8");    /* overlong */
    expect_problem("\xed\xa0\x80", 3, 1, 1, "not valid UTF-8");     /* surrogate */
    expect_problem("\xf4\x90\x80\x80", 4, 1, 1, "not valid UTF-8"); /* > U+10FFFF */
    expect_problem("\xe2\x82", 2, 1, 1, "not valid UTF-8");         /* truncated */
    expect_problem("\xc3\xa9\xc3", 3, 1, 2, "not valid UTF-8");
}

/* Text longer than the eight bytes the check takes at a time: problems
 * just after, across and at the end of such blocks. */
static void test_encoding_across_blocks(void **state)
{
    (void)state;
    expect_fine("0123456789abcdef\xc3\xa9" "0123456\xe2\x82\xac" "89\n", 31);
    expect_fine("abcdefg\xf0\x9f\x90\xb3" "abcdefgh", 19);
    expect_problem("0123456789abcdef\xff", 17, 1, 17, "not valid UTF-8");
    expect_problem("abcdefg\xe2\x82" "abcdefgh", 17, 1, 8, "not valid UTF-8");
    expect_problem("aaaaaaa\naaaaaaaaaaa\0aaaaaaaaaa", 30, 2, 12, "NUL byte");
    expect_problem("aaaaaaaaaaaaaaa\xc3", 16, 1, 16, "not valid UTF-8");
    /* The NUL is reported even after an invalid byte on an earlier line:
     * the first problem in the text wins. */
    expect_problem("abcdefgh\xff\n\0", 11, 1, 9, "not valid UTF-8");
}

/* Whether data is free of NUL bytes and valid UTF-8, byte by byte: what
 * the check must agree with. */
static bool reference_valid(const unsigned char *p, size_t length)
{
    size_t i = 0;
    while (i < length) {
        unsigned c = p[i];
        size_t need = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1
                      : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 9;
        if (c == 0 || need == 9 || length - i - 1 < need)
            return false;
        uint32_t value = need == 0 ? c : c & (0x3F >> need);
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            value = (value << 6) | (p[i + k] & 0x3F);
        }
        if ((need == 2 && value < 0x800) || (need == 3 && value < 0x10000) ||
            (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF)
            return false;
        i += need + 1;
    }
    return true;
}

/* Random texts from bytes that make and break UTF-8, against the
 * reference (a fixed seed: the same texts every run). */
static void test_encoding_agrees_with_reference(void **state)
{
    (void)state;
    static const unsigned char alphabet[] = { 'a', '\n', '\r', 0, 0xC3, 0xA9, 0xE2,
                                              0x82, 0xAC, 0xFF, 0xF0, 0x9F, 0x90,
                                              0xB3, 0xED, 0xA0, 0xC0 };
    uint32_t seed = 12345;
    unsigned char text[48];
    for (int round = 0; round < 200000; round++) {
        seed = seed * 1103515245u + 12345u;
        size_t length = (seed >> 16) % sizeof(text);
        for (size_t i = 0; i < length; i++) {
            seed = seed * 1103515245u + 12345u;
            /* Mostly ASCII, so that whole blocks of eight occur. */
            unsigned pick = (seed >> 16) % (sizeof(alphabet) * 3);
            text[i] = pick >= sizeof(alphabet) ? 'a' : alphabet[pick];
        }
        unsigned line, column;
        const char *problem;
        int got = source_check_encoding((const char *)text, length, &line, &column, &problem);
        if ((got == 0) != reference_valid(text, length))
            fail_msg("round %d: the check says %s", round, got == 0 ? "valid" : "invalid");
    }
}

static void test_yaml_line_breaks(void **state)
{
    (void)state;
    /* libyaml ends lines at NEL, LS and PS too; positions must agree. */
    expect_problem("a\xc2\x85" "b\xe2\x80\xa8" "c\xe2\x80\xa9" "d\r\ne\rf\0", 20, 6, 2,
                   "NUL byte");
}

static struct source_text utf16(const unsigned char *bytes, size_t length)
{
    struct source_text text;
    text.data = malloc(length + 1);
    memcpy(text.data, bytes, length);
    text.data[length] = '\0';
    text.length = length;
    return text;
}

static void test_utf16_is_converted(void **state)
{
    (void)state;
    unsigned line, column;
    const char *problem;
    static const unsigned char little[] = { 0xFF, 0xFE, 'a', 0, ':', 0, ' ', 0,
                                            0xE9, 0, 0x3D, 0xD8, 0x33, 0xDC,
                                            '\n', 0 };
    struct source_text text = utf16(little, sizeof(little));
    assert_int_equal(source_utf16_to_utf8(&text, &line, &column, &problem), 0);
    assert_int_equal(text.length, 10);
    assert_memory_equal(text.data, "a: \xc3\xa9\xf0\x9f\x90\xb3\n", 10);
    source_release(&text);
    static const unsigned char big[] = { 0xFE, 0xFF, 0, 'x', 0, '\n', 0, 'y',
                                         0xDC, 0x00 };
    text = utf16(big, sizeof(big));
    assert_int_equal(source_utf16_to_utf8(&text, &line, &column, &problem), -1);
    assert_int_equal(line, 2);
    assert_int_equal(column, 2);
    assert_non_null(strstr(problem, "not valid UTF-16"));
    source_release(&text);
    static const unsigned char plain[] = { 'a', ':', ' ', '1' };
    text = utf16(plain, sizeof(plain));
    assert_int_equal(source_utf16_to_utf8(&text, &line, &column, &problem), 0);
    assert_int_equal(text.length, 4);
    source_release(&text);
}

static void test_read_regular_file(void **state)
{
    (void)state;
    char path[] = "/tmp/sandlint-source-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "a: 1\n", 5), 5);
    close(fd);
    struct source_text text;
    char *error = NULL;
    assert_int_equal(source_read(path, 0, &text, &error), 0);
    assert_int_equal(text.length, 5);
    assert_string_equal(text.data, "a: 1\n");
    source_release(&text);
    assert_int_equal(source_read(path, 4, &text, &error), -1);
    assert_non_null(strstr(error, "size limit of 4 bytes"));
    free(error);
    unlink(path);
    assert_int_equal(source_read(path, 0, &text, &error), -1);
    assert_non_null(strstr(error, "No such file"));
    free(error);
}

static void test_fifo_and_devices_are_not_read(void **state)
{
    (void)state;
    char directory[] = "/tmp/sandlint-fifo-XXXXXX";
    assert_non_null(mkdtemp(directory));
    char fifo[64];
    snprintf(fifo, sizeof(fifo), "%s/compose.yaml", directory);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    struct source_text text;
    char *error = NULL;
    /* Must return at once: nobody ever writes to this FIFO. */
    assert_int_equal(source_read(fifo, 0, &text, &error), -1);
    assert_non_null(strstr(error, "a FIFO, not a regular file"));
    free(error);
    unlink(fifo);
    rmdir(directory);
    assert_int_equal(source_read("/dev/zero", 0, &text, &error), -1);
    assert_non_null(strstr(error, "a character device"));
    free(error);
}

/* ---- source_read_at: relative to a directory, following nothing ------- */

static char scratch[64];
static int scratch_fd = -1;

static int make_scratch(void **state)
{
    (void)state;
    snprintf(scratch, sizeof(scratch), "/tmp/sandlint-read-at-XXXXXX");
    if (mkdtemp(scratch) == NULL)
        return -1;
    scratch_fd = open(scratch, O_RDONLY | O_DIRECTORY);
    return scratch_fd >= 0 ? 0 : -1;
}

static int remove_scratch(void **state)
{
    (void)state;
    close(scratch_fd);
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", scratch);
    return system(command) == 0 ? 0 : -1;
}

static void write_at(int dir_fd, const char *name, const char *text)
{
    int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void expect_read(int dir_fd, const char *relative, const char *want)
{
    struct source_text text;
    char *error = NULL;
    if (source_read_at(dir_fd, relative, 0, &text, &error) != 0)
        fail_msg("source_read_at(%s): %s", relative, error);
    assert_string_equal(text.data, want);
    source_release(&text);
}

static void expect_refused(int dir_fd, const char *relative, const char *problem)
{
    struct source_text text;
    char *error = NULL;
    assert_int_equal(source_read_at(dir_fd, relative, 0, &text, &error), -1);
    assert_null(text.data);
    if (strstr(error, problem) == NULL)
        fail_msg("source_read_at(%s): '%s' lacks '%s'", relative, error, problem);
    free(error);
}

static void test_read_at_reads_below_the_directory(void **state)
{
    (void)state;
    assert_int_equal(mkdirat(scratch_fd, "a", 0755), 0);
    assert_int_equal(mkdirat(scratch_fd, "a/b", 0755), 0);
    write_at(scratch_fd, "a/b/compose.yaml", "a: 1\n");
    expect_read(scratch_fd, "a/b/compose.yaml", "a: 1\n");
    /* An O_PATH descriptor is enough. */
    int path_fd = open(scratch, O_PATH | O_DIRECTORY);
    assert_true(path_fd >= 0);
    expect_read(path_fd, "a/b/compose.yaml", "a: 1\n");
    /* The directories of the last path are kept open: a descriptor number
     * reused for another directory must not reach the old ones. */
    char other[] = "/tmp/sandlint-read-at-other-XXXXXX";
    assert_non_null(mkdtemp(other));
    int other_fd = open(other, O_RDONLY | O_DIRECTORY);
    assert_int_equal(mkdirat(other_fd, "a", 0755), 0);
    assert_int_equal(mkdirat(other_fd, "a/b", 0755), 0);
    write_at(other_fd, "a/b/compose.yaml", "other: 1\n");
    close(other_fd);
    close(path_fd);
    int reused = open(other, O_PATH | O_DIRECTORY);
    assert_int_equal(reused, path_fd);
    expect_read(reused, "a/b/compose.yaml", "other: 1\n");
    expect_read(scratch_fd, "a/b/compose.yaml", "a: 1\n");
    expect_read(reused, "a/b/compose.yaml", "other: 1\n");
    close(reused);
    source_forget_directories();
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", other);
    assert_int_equal(system(command), 0);
    struct source_text text;
    char *error = NULL;
    assert_int_equal(source_read_at(scratch_fd, "a/b/compose.yaml", 3, &text, &error), -1);
    assert_non_null(strstr(error, "size limit of 3 bytes (--max-file-size)"));
    free(error);
}

/* A file swapped for a symbolic link after discovery, or a directory on
 * its path swapped for one, is refused: never followed. */
static void test_read_at_follows_no_symlink(void **state)
{
    (void)state;
    write_at(scratch_fd, "target.yaml", "secret: 1\n");
    assert_int_equal(mkdirat(scratch_fd, "real", 0755), 0);
    write_at(scratch_fd, "real/compose.yaml", "a: 1\n");
    assert_int_equal(symlinkat("target.yaml", scratch_fd, "compose.yaml"), 0);
    assert_int_equal(symlinkat("/etc/passwd", scratch_fd, "compose.yml"), 0);
    assert_int_equal(symlinkat("real", scratch_fd, "linked"), 0);
    expect_refused(scratch_fd, "compose.yaml", "it is a symbolic link now (not followed)");
    expect_refused(scratch_fd, "compose.yml", "symbolic link");
    expect_refused(scratch_fd, "linked/compose.yaml", "not a directory now");
    expect_read(scratch_fd, "real/compose.yaml", "a: 1\n");
    /* A file where a directory was expected. */
    expect_refused(scratch_fd, "target.yaml/compose.yaml", "not a directory now");
}

static void test_read_at_refuses_paths_that_leave(void **state)
{
    (void)state;
    write_at(scratch_fd, "compose.yaml", "a: 1\n");
    static const char *const bad[] = {
        "", "/etc/passwd", "../compose.yaml", "x/../compose.yaml", "./compose.yaml",
        "a//compose.yaml", "compose.yaml/", ".", "..",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        expect_refused(scratch_fd, bad[i], "not a plain relative path");
}

/* Special files are never read; a FIFO never blocks. */
static void test_read_at_refuses_special_files(void **state)
{
    (void)state;
    assert_int_equal(mkfifoat(scratch_fd, "compose.yaml", 0600), 0);
    expect_refused(scratch_fd, "compose.yaml", "a FIFO, not a regular file; not read");
    assert_int_equal(mkdirat(scratch_fd, "compose.yml", 0755), 0);
    expect_refused(scratch_fd, "compose.yml", "a directory, not a regular file");
    int dev = open("/dev", O_PATH | O_DIRECTORY);
    assert_true(dev >= 0);
    expect_refused(dev, "null", "a character device, not a regular file; not read");
    close(dev);
}

/* Paths longer than PATH_MAX are read: nothing builds or opens them whole. */
static void test_read_at_beyond_path_max(void **state)
{
    (void)state;
    char name[201];
    memset(name, 'd', 200);
    name[200] = '\0';
    size_t levels = PATH_MAX / 200 + 4;
    char *relative = malloc(levels * 201 + 16);
    size_t used = 0;
    int fd = dup(scratch_fd);
    for (size_t i = 0; i < levels; i++) {
        assert_int_equal(mkdirat(fd, name, 0755), 0);
        int next = openat(fd, name, O_RDONLY | O_DIRECTORY);
        assert_true(next >= 0);
        close(fd);
        fd = next;
        memcpy(relative + used, name, 200);
        used += 200;
        relative[used++] = '/';
    }
    write_at(fd, "compose.yaml", "deep: 1\n");
    close(fd);
    memcpy(relative + used, "compose.yaml", 13);
    assert_true(strlen(relative) > PATH_MAX);
    expect_read(scratch_fd, relative, "deep: 1\n");
    free(relative);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encoding),
        cmocka_unit_test(test_encoding_across_blocks),
        cmocka_unit_test(test_encoding_agrees_with_reference),
        cmocka_unit_test(test_yaml_line_breaks),
        cmocka_unit_test(test_utf16_is_converted),
        cmocka_unit_test(test_read_regular_file),
        cmocka_unit_test(test_fifo_and_devices_are_not_read),
        cmocka_unit_test_setup_teardown(test_read_at_reads_below_the_directory,
                                        make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(test_read_at_follows_no_symlink,
                                        make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(test_read_at_refuses_paths_that_leave,
                                        make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(test_read_at_refuses_special_files,
                                        make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(test_read_at_beyond_path_max,
                                        make_scratch, remove_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
