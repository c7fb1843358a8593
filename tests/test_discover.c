/* Unit tests for discovery (core/discover/discover.c): which files, how they are
 * handed on (a directory descriptor and a relative path), exclude globs. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "discover.h"
#include "file_kind.h"
#include "paths.h"
#include "source.h"
#include "string_list.h"

static char root[64];
static char *saved_cwd;

static void make_file(const char *relative, const char *text)
{
    char *path = path_join(root, relative);
    char *cursor = path + strlen(root);
    while ((cursor = strchr(cursor + 1, '/')) != NULL) {
        *cursor = '\0';
        mkdir(path, 0755);
        *cursor = '/';
    }
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
    free(path);
}

static void make_link(const char *target, const char *relative)
{
    char *path = path_join(root, relative);
    assert_int_equal(symlink(target, path), 0);
    free(path);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/sandlint-discover-XXXXXX");
    if (mkdtemp(root) == NULL)
        return -1;
    saved_cwd = path_absolute(".");
    make_file("tree/compose.yaml", "top: 1\n");
    make_file("tree/a/compose.yml", "a: 1\n");
    make_file("tree/a/notes.yaml", "no: 1\n");
    make_file("tree/vendor/compose.yaml", "vendor: 1\n");
    make_file("tree/vendor/deep/compose.yaml", "vendor: 2\n");
    make_file("tree/b/docker-compose.yml", "b: 1\n");
    make_file("tree/b/compose.override.yml", "b: 2\n");
    make_file("tree/.git/compose.yaml", "git: 1\n");
    make_file("outside/compose.yaml", "outside: 1\n");
    make_link("../b/docker-compose.yml", "tree/a/compose.override.yaml");
    make_link("../../outside/compose.yaml", "tree/a/docker-compose.yaml");
    make_link("../vendor", "tree/a/compose-dir.yml");
    make_link("../vendor", "tree/a/linked");
    make_link("../../tree/b/compose.override.yml", "tree/b/compose-back.yml");
    make_link("../a/compose.yml", "tree/b/compose-a.yml");
    char *fifo = path_join(root, "tree/b/compose.yaml");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    free(fifo);
    return 0;
}

/* The walks below are about names, links and operands: content discovery
 * (every YAML file, SPEC §15) is off, as `kubernetes = none` turns it off;
 * test_content_discovery has it on. */
static struct discovery_walk *open_by_name(const char *const *operands, size_t count,
                                           const char *top,
                                           const struct string_list *exclude,
                                           char **error)
{
    static struct string_list none = STRING_LIST_INIT;
    if (none.count == 0)
        string_list_add(&none, "none");
    struct discovery_walk *walk = discovery_open(operands, count, top, exclude, error);
    if (walk != NULL)
        discovery_set_kubernetes(walk, &none);
    return walk;
}

static int remove_tree(void **state)
{
    (void)state;
    assert_int_equal(chdir(saved_cwd), 0);
    free(saved_cwd);
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", root);
    return system(command) == 0 ? 0 : -1;
}

/* Everything a walk yields, one "display|problem-or-text" line each. */
static char *walk_all(const char *const *operands, size_t count,
                      const struct string_list *exclude, size_t *excluded,
                      size_t *excluded_directories, bool wander)
{
    char *error = NULL;
    struct discovery_walk *walk = open_by_name(operands, count, root, exclude, &error);
    assert_non_null(walk);
    discovery_want_identity(walk);
    size_t size = 4096, used = 0;
    char *listing = calloc(1, size);
    struct discovered_file *file;
    while ((file = discovery_next(walk)) != NULL) {
        if (wander)
            assert_int_equal(chdir("/"), 0);   /* as a plugin might */
        const char *what = file->problem;
        struct source_text text = { NULL, 0 };
        char *read_error = NULL;
        if (what == NULL) {
            /* Handed on as a descriptor and a plain relative path. */
            assert_true(file->base_fd >= 0);
            assert_non_null(file->relative);
            assert_true(file->relative[0] != '/');
            assert_null(strstr(file->relative, ".."));
            assert_true(file->inode != 0);
            struct stat info;
            assert_int_equal(fstatat(file->base_fd, file->relative, &info,
                                     AT_SYMLINK_NOFOLLOW), 0);
            assert_true(S_ISREG(info.st_mode));
            assert_int_equal(info.st_ino, file->inode);
            assert_int_equal(info.st_dev, file->device);
            if (source_read_at(file->base_fd, file->relative, 0, &text, &read_error) != 0)
                fail_msg("%s: %s", file->display, read_error);
            what = text.data;
        }
        size_t needed = strlen(file->display) + strlen(what) + 3;
        if (size - used < needed) {
            size = (size + needed) * 2;
            listing = realloc(listing, size);
            assert_non_null(listing);
        }
        used += (size_t)snprintf(listing + used, size - used, "%s|%s", file->display, what);
        if (what == text.data)
            used--;                                 /* the text's newline */
        listing[used++] = '\n';
        source_release(&text);
        discovered_file_free(file);
    }
    listing[used] = '\0';
    if (excluded != NULL)
        *excluded = discovery_excluded(walk);
    if (excluded_directories != NULL)
        *excluded_directories = discovery_excluded_directories(walk);
    discovery_close(walk);
    return listing;
}

static void expect_listing(const char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fail_msg("walk gave:\n%s\nexpected:\n%s", got, want);
}

static const char tree_listing[] =
    "tree/a/compose.override.yaml|b: 1\n"
    "tree/a/compose.yml|a: 1\n"
    "tree/a/docker-compose.yaml|symbolic link to '%s/outside/compose.yaml' leaves "
        "the scanned tree; not read\n"
    "tree/b/compose-a.yml|a: 1\n"
    "tree/b/compose-back.yml|b: 2\n"
    "tree/b/compose.override.yml|b: 2\n"
    "tree/b/compose.yaml|a FIFO, not a regular file; not read\n"
    "tree/b/docker-compose.yml|b: 1\n"
    "tree/compose.yaml|top: 1\n"
    "tree/vendor/compose.yaml|vendor: 1\n"
    "tree/vendor/deep/compose.yaml|vendor: 2\n";

static void test_walk_hands_on_descriptor_and_relative_path(void **state)
{
    (void)state;
    char *tree = path_join(root, "tree");
    const char *const operands[] = { tree };
    char want[2048];
    snprintf(want, sizeof(want), tree_listing, root);
    char *got = walk_all(operands, 1, NULL, NULL, NULL, false);
    expect_listing(got, want);
    free(got);
    /* The walk never depends on the current directory once open. */
    assert_int_equal(chdir(root), 0);
    const char *const relative[] = { "tree" };
    got = walk_all(relative, 1, NULL, NULL, NULL, true);
    expect_listing(got, want);
    free(got);
    assert_int_equal(chdir(saved_cwd), 0);
    free(tree);
}

/* Without discovery_want_identity() a regular file is not looked at: its
 * device and inode stay 0, and it is read all the same. */
static void test_identity_only_when_asked(void **state)
{
    (void)state;
    char *tree = path_join(root, "tree/vendor");
    const char *const operands[] = { tree };
    for (int asked = 0; asked <= 1; asked++) {
        char *error = NULL;
        struct discovery_walk *walk = open_by_name(operands, 1, root, NULL, &error);
        assert_non_null(walk);
        if (asked)
            discovery_want_identity(walk);
        struct discovered_file *file = discovery_next(walk);
        assert_non_null(file);
        assert_string_equal(file->display, "tree/vendor/compose.yaml");
        assert_null(file->problem);
        struct stat info;
        assert_int_equal(fstatat(file->base_fd, file->relative, &info,
                                 AT_SYMLINK_NOFOLLOW), 0);
        if (asked) {
            assert_true(file->inode == info.st_ino);
            assert_true(file->device == info.st_dev);
        } else {
            assert_true(file->inode == 0);
            assert_true(file->device == 0);
        }
        struct source_text text = { NULL, 0 };
        char *read_error = NULL;
        assert_int_equal(source_read_at(file->base_fd, file->relative, 0, &text,
                                        &read_error), 0);
        assert_string_equal(text.data, "vendor: 1\n");
        source_release(&text);
        discovered_file_free(file);
        discovery_close(walk);
    }
    free(tree);
}

/* A link inside the tree is handed on as its resolved, link-free path. */
static void test_links_resolve_to_plain_paths(void **state)
{
    (void)state;
    char *tree = path_join(root, "tree/a");
    const char *const operands[] = { tree };
    char *error = NULL;
    struct discovery_walk *walk = open_by_name(operands, 1, root, NULL, &error);
    assert_non_null(walk);
    struct discovered_file *file = discovery_next(walk);
    assert_non_null(file);
    /* tree/a's own tree ends at tree/a: ../b leaves it. */
    assert_string_equal(file->display, "tree/a/compose.override.yaml");
    assert_non_null(file->problem);
    assert_non_null(strstr(file->problem, "leaves the scanned tree"));
    discovered_file_free(file);
    discovery_close(walk);
    free(tree);
    tree = path_join(root, "tree");
    {
        const char *const whole[] = { tree };
        walk = open_by_name(whole, 1, root, NULL, &error);
        file = discovery_next(walk);
        assert_string_equal(file->display, "tree/a/compose.override.yaml");
        assert_null(file->problem);
        assert_string_equal(file->relative, "b/docker-compose.yml");
        discovered_file_free(file);
        file = discovery_next(walk);                        /* tree/a/compose.yml */
        discovered_file_free(file);
        file = discovery_next(walk);                        /* leaves */
        discovered_file_free(file);
        file = discovery_next(walk);
        assert_string_equal(file->display, "tree/b/compose-a.yml");
        assert_string_equal(file->relative, "a/compose.yml");
        discovered_file_free(file);
        file = discovery_next(walk);
        assert_string_equal(file->display, "tree/b/compose-back.yml");
        assert_string_equal(file->relative, "b/compose.override.yml");
        discovered_file_free(file);
        discovery_close(walk);
    }
    free(tree);
}

/* Overlapping operands: each file once, in order, and the same whatever
 * the operands' order - tree/b/compose-a.yml leaves tree/b's tree but not
 * tree's, and is read either way. */
static void test_operands_merge_once_in_order(void **state)
{
    (void)state;
    char *tree = path_join(root, "tree");
    char *b = path_join(root, "tree/b");
    char *file = path_join(root, "tree/compose.yaml");
    const char *const operands[] = { b, file, tree, b };
    const char *const reversed[] = { tree, b, file };
    char want[2048];
    snprintf(want, sizeof(want), tree_listing, root);
    char *got = walk_all(operands, 4, NULL, NULL, NULL, false);
    expect_listing(got, want);
    free(got);
    got = walk_all(reversed, 3, NULL, NULL, NULL, false);
    expect_listing(got, want);
    free(got);
    const char *const alone[] = { b };
    got = walk_all(alone, 1, NULL, NULL, NULL, false);
    assert_non_null(strstr(got, "tree/b/compose-a.yml|symbolic link to '"));
    free(got);
    free(tree);
    free(b);
    free(file);
}

static void test_exclude_skips_and_counts(void **state)
{
    (void)state;
    struct string_list exclude = STRING_LIST_INIT;
    string_list_add(&exclude, "tree/vendor");           /* a directory */
    string_list_add(&exclude, "**/compose.override.y*ml");
    string_list_add(&exclude, "tree/b/compose.yaml");    /* the FIFO */
    char *tree = path_join(root, "tree");
    const char *const operands[] = { tree };
    size_t files = 0, directories = 0;
    char *got = walk_all(operands, 1, &exclude, &files, &directories, false);
    char want[2048];
    snprintf(want, sizeof(want),
             "tree/a/compose.yml|a: 1\n"
             "tree/a/docker-compose.yaml|symbolic link to '%s/outside/compose.yaml' "
                 "leaves the scanned tree; not read\n"
             "tree/b/compose-a.yml|a: 1\n"
             "tree/b/compose-back.yml|b: 2\n"
             "tree/b/docker-compose.yml|b: 1\n"
             "tree/compose.yaml|top: 1\n", root);
    expect_listing(got, want);
    free(got);
    assert_int_equal(files, 3);         /* two overrides, the FIFO */
    assert_int_equal(directories, 1);   /* vendor, not looked into */
    /* A directory-only glob does not match a file, and vice versa. */
    string_list_release(&exclude);
    string_list_add(&exclude, "tree/compose.yaml/");
    string_list_add(&exclude, "tree/a/compose.yml");
    got = walk_all(operands, 1, &exclude, &files, &directories, false);
    assert_non_null(strstr(got, "tree/compose.yaml|top: 1\n"));
    assert_null(strstr(got, "tree/a/compose.yml|"));
    assert_int_equal(files, 1);
    assert_int_equal(directories, 0);
    free(got);
    string_list_release(&exclude);
    free(tree);
}

/* An operand that an exclude glob matches, or that lies in an excluded
 * directory, is excluded too: a pre-commit run naming files checks what a
 * full run checks. */
static void test_excluded_operands(void **state)
{
    (void)state;
    struct string_list exclude = STRING_LIST_INIT;
    string_list_add(&exclude, "tree/vendor");
    string_list_add(&exclude, "tree/a/compose.yml");
    char *vendor_file = path_join(root, "tree/vendor/deep/compose.yaml");
    char *a_file = path_join(root, "tree/a/compose.yml");
    char *vendor = path_join(root, "tree/vendor");
    char *kept = path_join(root, "tree/compose.yaml");
    const char *const operands[] = { vendor_file, a_file, vendor, kept };
    size_t files = 0, directories = 0;
    char *got = walk_all(operands, 4, &exclude, &files, &directories, false);
    expect_listing(got, "tree/compose.yaml|top: 1\n");
    assert_int_equal(files, 2);
    assert_int_equal(directories, 1);
    free(got);
    /* Globs are relative to the root: outside it only absolute ones apply. */
    string_list_release(&exclude);
    string_list_add(&exclude, "**/compose.yaml");
    char *outside = path_join(root, "outside/compose.yaml");
    char *absolute = path_join(root, "outside/*.yaml");
    const char *const outside_operands[] = { outside };
    char *error = NULL;
    char *tree = path_join(root, "tree");
    struct discovery_walk *walk = open_by_name(outside_operands, 1, tree, &exclude, &error);
    struct discovered_file *file = discovery_next(walk);
    assert_non_null(file);
    assert_string_equal(file->display, "../outside/compose.yaml");
    discovered_file_free(file);
    discovery_close(walk);
    string_list_add(&exclude, absolute);
    walk = open_by_name(outside_operands, 1, tree, &exclude, &error);
    assert_null(discovery_next(walk));
    assert_int_equal(discovery_excluded(walk), 1);
    discovery_close(walk);
    string_list_release(&exclude);
    free(outside);
    free(absolute);
    free(tree);
    free(vendor_file);
    free(a_file);
    free(vendor);
    free(kept);
}

/* Special files named directly are reported without being opened. */
static void test_special_operands(void **state)
{
    (void)state;
    char *fifo = path_join(root, "tree/b/compose.yaml");
    const char *const operands[] = { fifo, "/dev/null" };
    char *got = walk_all(operands, 2, NULL, NULL, NULL, false);
    assert_non_null(strstr(got, "tree/b/compose.yaml|a FIFO, not a regular file; not read\n"));
    assert_non_null(strstr(got, "|a character device, not a regular file; not read\n"));
    free(got);
    free(fifo);
    char *error = NULL;
    const char *const missing[] = { "/nonexistent/compose.yaml" };
    assert_null(open_by_name(missing, 1, root, NULL, &error));
    assert_non_null(strstr(error, "No such file"));
    free(error);
}

/* Deep trees keep few descriptors open and come back up through ".." or,
 * when that is not the directory it was, by name from the operand; a
 * directory replaced meanwhile is reported, not searched. */
static void test_directory_moved_while_searched(void **state)
{
    (void)state;
    make_file("moving/d1/d2/d3/d4/d5/d6/compose.yaml", "deep: 1\n");
    make_file("moving/d1/z/compose.yaml", "after: 1\n");
    make_file("moving/z/compose.yaml", "last: 1\n");
    char *moving = path_join(root, "moving");
    const char *const operands[] = { moving };
    char *error = NULL;
    char *d1 = path_join(root, "moving/d1");
    char *d2 = path_join(root, "moving/d1/d2");
    char *moved = path_join(root, "moving/moved");
    char *old_d1 = path_join(root, "moving/old");
    /* d2 moved out of d1: ".." leads elsewhere, d1 is found by name. */
    struct discovery_walk *walk = open_by_name(operands, 1, root, NULL, &error);
    struct discovered_file *file = discovery_next(walk);
    assert_string_equal(file->display, "moving/d1/d2/d3/d4/d5/d6/compose.yaml");
    discovered_file_free(file);
    assert_int_equal(rename(d2, moved), 0);
    file = discovery_next(walk);
    assert_string_equal(file->display, "moving/d1/z/compose.yaml");
    assert_null(file->problem);
    discovered_file_free(file);
    file = discovery_next(walk);
    assert_string_equal(file->display, "moving/z/compose.yaml");
    discovered_file_free(file);
    assert_null(discovery_next(walk));
    discovery_close(walk);
    /* ... and d1 replaced by another directory: given up, and said so. */
    assert_int_equal(rename(moved, d2), 0);
    walk = open_by_name(operands, 1, root, NULL, &error);
    file = discovery_next(walk);
    discovered_file_free(file);
    assert_int_equal(rename(d2, moved), 0);
    assert_int_equal(rename(d1, old_d1), 0);
    assert_int_equal(mkdir(d1, 0755), 0);
    file = discovery_next(walk);
    assert_string_equal(file->display, "moving/d1");
    assert_string_equal(file->problem, "directory moved while it was being searched; "
                                       "the rest of this operand was not searched");
    discovered_file_free(file);
    assert_null(discovery_next(walk));
    discovery_close(walk);
    /* Untouched, the same tree is walked whole. */
    assert_int_equal(rmdir(d1), 0);
    assert_int_equal(rename(old_d1, d1), 0);
    assert_int_equal(rename(moved, d2), 0);
    char *got = walk_all(operands, 1, NULL, NULL, NULL, false);
    expect_listing(got, "moving/d1/d2/d3/d4/d5/d6/compose.yaml|deep: 1\n"
                        "moving/d1/z/compose.yaml|after: 1\n"
                        "moving/z/compose.yaml|last: 1\n");
    free(got);
    free(d1);
    free(d2);
    free(moved);
    free(old_d1);
    free(moving);
}

/* Many directory operands share a few descriptors: each waits with its
 * directories closed and reopens them when its turn comes. */
static void test_many_directory_operands(void **state)
{
    (void)state;
    enum { COUNT = 150 };
    char *operands[COUNT];
    for (int i = 0; i < COUNT; i++) {
        char relative[64];
        snprintf(relative, sizeof(relative), "many/%03d/x/y/compose.yaml", i);
        make_file(relative, "n: 1\n");
        snprintf(relative, sizeof(relative), "many/%03d", COUNT - 1 - i);
        operands[i] = path_join(root, relative);
    }
    /* After the first file, every operand has looked ahead to its own
     * first: 150 bases, 3 directories deep each, in 64 descriptors. */
    char *error = NULL;
    struct discovery_walk *walk = open_by_name((const char *const *)operands, COUNT,
                                                 root, NULL, &error);
    discovered_file_free(discovery_next(walk));
    size_t open_now = 0;
    DIR *fds = opendir("/proc/self/fd");
    assert_non_null(fds);
    while (readdir(fds) != NULL)
        open_now++;
    closedir(fds);
    if (open_now > COUNT + 64 + 16 + 16)
        fail_msg("%zu descriptors open for %d operands", open_now, (int)COUNT);
    discovery_close(walk);
    char *got = walk_all((const char *const *)operands, COUNT, NULL, NULL, NULL, false);
    size_t lines = 0;
    for (const char *p = got; (p = strstr(p, "|n: 1\n")) != NULL; p++)
        lines++;
    assert_int_equal(lines, COUNT);
    assert_non_null(strstr(got, "many/000/x/y/compose.yaml|n: 1\nmany/001/"));
    free(got);
    for (int i = 0; i < COUNT; i++)
        free(operands[i]);
}

/* SPEC §15 "Names": the names projects give Compose and values files. */
static void test_names(void **state)
{
    (void)state;
    static const char *const compose[] = {
        "compose.yaml", "docker-compose.yml", "compose-dev.yml", "sandbox-compose.yaml",
        "test_compose.yaml", "ctf.compose.yml", "docker-compose.prod.yaml",
    };
    static const char *const values[] = {
        "values.yaml", "helm-values.yml", "prod-values.yaml", "values-prod.yaml",
        "values.prod.yml", "example_values.yaml", "ci.values.yaml",
    };
    static const char *const neither[] = {
        "composer.json", "compose.json", "mycompose.yaml", "compose_x", "decompose.yml",
        "values.json", "myvalues.yaml", "valuesprod.yaml", "values", ".yaml", "x.yaml",
        "compose.yaml.bak", "values-prod.txt", "-compose.yml", ".compose.yaml", "_values.yml",
        "actions.yml", "my-action.yml", "action.json", "action.yml.bak",
    };
    /* A GitHub Actions action's metadata, whose content decides. */
    static const char *const actions[] = { "action.yml", "action.yaml" };
    for (size_t i = 0; i < sizeof(compose) / sizeof(*compose); i++)
        if (file_name_candidates(compose[i]) != CANDIDATE_COMPOSE)
            fail_msg("%s is not a Compose name", compose[i]);
    for (size_t i = 0; i < sizeof(values) / sizeof(*values); i++)
        if (file_name_candidates(values[i]) != CANDIDATE_VALUES)
            fail_msg("%s is not a values name", values[i]);
    for (size_t i = 0; i < sizeof(neither) / sizeof(*neither); i++)
        /* A name without an extension may still be a script (#!). */
        if ((file_name_candidates(neither[i]) & ~(unsigned)CANDIDATE_MAYBE_SCRIPT) != 0)
            fail_msg("%s is a candidate name", neither[i]);
    for (size_t i = 0; i < sizeof(actions) / sizeof(*actions); i++)
        if (file_name_candidates(actions[i]) != CANDIDATE_GITHUB_ACTION)
            fail_msg("%s is not an action's name", actions[i]);
}

/* The byte scan that decides whether a file found by content is parsed. */
static void test_sniff(void **state)
{
    (void)state;
    static const char *const objects[] = {
        "apiVersion: v1\nkind: Pod\n", "# c\n---\napiVersion: v1\n",
        "kind: Pod\napiVersion : v1\n", "\"apiVersion\": \"v1\"\n",
        "'apiVersion': v1\n", "x: 1\r\napiVersion:\n",
        /* a byte order mark before the first line */
        ("\xef\xbb\xbf" "apiVersion: v1\n"),
        /* a top-level mapping written indented, alone or after others */
        "  apiVersion: v1\n",
        "\n  # c\n  kind: Pod\n  metadata:\n    name: a\n  apiVersion: v1\n",
        "x: 1\n---\n  kind: Pod\n  apiVersion: v1\n",
        "x:\n  y: 1\n---\n  apiVersion: v1\n", ("\xef\xbb\xbf" "  apiVersion: v1\n"),
    };
    static const char *const others[] = {
        "", "x: 1\n", "xapiVersion: v1\n", "apiVersionX: 1\n",
        "# apiVersion: v1\n", "apiVersion", "\"apiVersion': v1\n", "{apiVersion: v1}\n",
        /* nested under a key of the document */
        "x:\n  apiVersion: v1\n", "x:\n  y:\n    apiVersion: v1\n  apiVersion: v1\n",
        "a: [\n  apiVersion: v1]\n", "x:\n\tapiVersion: v1\n",
        ("x: 1\xef\xbb\xbf" "apiVersion: v1\n"),
    };
    for (size_t i = 0; i < sizeof(objects) / sizeof(*objects); i++)
        if (!file_kind_sniff_objects(objects[i], strlen(objects[i])))
            fail_msg("missed: %s", objects[i]);
    for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
        if (file_kind_sniff_objects(others[i], strlen(others[i])))
            fail_msg("taken: %s", others[i]);
}

/* Without a kubernetes setting every YAML file is a candidate by content;
 * a chart's templates are counted, not yielded; globs narrow the search;
 * an excluded YAML file is not an excluded sandbox file. */
static void test_content_discovery(void **state)
{
    (void)state;
    make_file("content/app/notes.yml", "no: 1\n");
    make_file("content/app/sandbox-compose.yaml", "c: 1\n");
    make_file("content/app/README.md", "no\n");
    make_file("content/chart/Chart.yaml", "apiVersion: v2\n");
    make_file("content/chart/values.yaml", "v: 1\n");
    make_file("content/chart/templates/pod.yaml", "{{ .x }}\n");
    make_file("content/chart/templates/sub/job.yml", "{{ .y }}\n");
    make_file("content/chart/templates/compose.yaml", "t: 1\n");
    make_file("content/deploy/pod.yaml", "p: 1\n");
    make_file("content/templates/pod.yaml", "not a chart: 1\n");
    char *tree = path_join(root, "content");
    const char *const operands[] = { tree };
    static const char *const want[] = {
        "content/app/notes.yml", "16", "content/app/sandbox-compose.yaml", "17",
        "content/chart/Chart.yaml", "16", "content/chart/templates/compose.yaml", "17",
        "content/chart/values.yaml", "18", "content/deploy/pod.yaml", "16",
        "content/templates/pod.yaml", "16",
    };
    struct string_list exclude = STRING_LIST_INIT;
    string_list_add(&exclude, "content/app/notes.yml");
    string_list_add(&exclude, "content/app/sandbox-compose.yaml");
    char *error = NULL;
    for (int round = 0; round < 2; round++) {
        struct discovery_walk *walk =
            discovery_open(operands, 1, root, round == 0 ? NULL : &exclude, &error);
        assert_non_null(walk);
        size_t at = round == 0 ? 0 : 4;
        struct discovered_file *file;
        while ((file = discovery_next(walk)) != NULL) {
            assert_true(at < sizeof(want) / sizeof(*want));
            assert_string_equal(file->display, want[at]);
            char candidates[16];
            snprintf(candidates, sizeof(candidates), "%u", file->candidates);
            assert_string_equal(candidates, want[at + 1]);
            at += 2;
            discovered_file_free(file);
        }
        assert_int_equal(at, sizeof(want) / sizeof(*want));
        assert_int_equal(discovery_helm_templates(walk), 2);
        /* The Compose-named file counts as excluded, the other YAML not. */
        assert_int_equal(discovery_excluded(walk), round == 0 ? 0 : 1);
        discovery_close(walk);
    }
    string_list_release(&exclude);
    struct string_list globs = STRING_LIST_INIT;
    string_list_add(&globs, "content/deploy/**");
    struct discovery_walk *walk = discovery_open(operands, 1, root, NULL, &error);
    discovery_set_kubernetes(walk, &globs);
    static const char *const narrowed[] = {
        "content/app/sandbox-compose.yaml", "content/chart/templates/compose.yaml",
        "content/chart/values.yaml", "content/deploy/pod.yaml",
    };
    struct discovered_file *file;
    size_t at = 0;
    while ((file = discovery_next(walk)) != NULL) {
        assert_true(at < 4);
        assert_string_equal(file->display, narrowed[at]);
        assert_int_equal(file->candidates, at == 3 ? CANDIDATE_KUBERNETES
                                           : at == 2 ? CANDIDATE_VALUES : CANDIDATE_COMPOSE);
        at++;
        discovered_file_free(file);
    }
    assert_int_equal(at, 4);
    discovery_close(walk);
    string_list_release(&globs);
    /* The chart's templates/ named as the operand: counted too. */
    char *templates = path_join(root, "content/chart/templates");
    const char *const inside[] = { templates };
    walk = discovery_open(inside, 1, root, NULL, &error);
    file = discovery_next(walk);
    assert_non_null(file);
    assert_string_equal(file->display, "content/chart/templates/compose.yaml");
    discovered_file_free(file);
    assert_null(discovery_next(walk));
    assert_int_equal(discovery_helm_templates(walk), 2);
    discovery_close(walk);
    free(templates);
    free(tree);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk_hands_on_descriptor_and_relative_path),
        cmocka_unit_test(test_identity_only_when_asked),
        cmocka_unit_test(test_links_resolve_to_plain_paths),
        cmocka_unit_test(test_operands_merge_once_in_order),
        cmocka_unit_test(test_exclude_skips_and_counts),
        cmocka_unit_test(test_excluded_operands),
        cmocka_unit_test(test_special_operands),
        cmocka_unit_test(test_directory_moved_while_searched),
        cmocka_unit_test(test_many_directory_operands),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_content_discovery),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
