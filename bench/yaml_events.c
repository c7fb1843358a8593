/*
 * yaml_events.c - the physical limit of sandlint's design, for bench/run:
 * find the same Compose files sandlint would, read each, and run libyaml's
 * event parser over it, doing nothing else.
 *     yaml_events DIR...
 *     yaml_events --all-yaml DIR...   every *.yaml and *.yml file, as
 *                                     sandlint reads a tree under a
 *                                     'kubernetes = **' glob, and the
 *                                     floor of its search by content
 *                                     (SPEC §15: every YAML file read)
 */
#define _GNU_SOURCE 1

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

static unsigned long files, events, bytes_total;
static int all_yaml;        /* --all-yaml: not only Compose names */
static char *buffer;
static size_t capacity;

/* (docker-)?compose*.y{a,}ml, and since 0.3 *-compose, *_compose and
 * *.compose (SPEC §15 "Names"). */
static int compose_name(const char *name)
{
    size_t length = strlen(name);
    size_t stem = length > 5 && strcmp(name + length - 5, ".yaml") == 0 ? length - 5
                  : length > 4 && strcmp(name + length - 4, ".yml") == 0 ? length - 4 : 0;
    if (stem == 0)
        return 0;
    if (stem >= 9 && strncmp(name + stem - 7, "compose", 7) == 0 &&
        strchr("-_.", name[stem - 8]) != NULL)
        return 1;
    if (strncmp(name, "docker-", 7) == 0) {
        name += 7;
        stem -= 7;
    }
    return stem >= 7 && strncmp(name, "compose", 7) == 0;
}

static int yaml_name(const char *name)
{
    size_t length = strlen(name);
    return (length > 4 && strcmp(name + length - 4, ".yml") == 0) ||
           (length > 5 && strcmp(name + length - 5, ".yaml") == 0);
}

static void parse(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        if (fd >= 0)
            close(fd);
        return;
    }
    size_t size = (size_t)info.st_size;
    if (size + 1 > capacity) {
        capacity = size + 1;
        buffer = realloc(buffer, capacity);
    }
    size_t got = 0;
    ssize_t r;
    while (got < size && (r = read(fd, buffer + got, size - got)) > 0)
        got += (size_t)r;
    close(fd);
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (unsigned char *)buffer, got);
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
            break;
        events++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done)
            break;
    }
    yaml_parser_delete(&parser);
    files++;
    bytes_total += got;
}

static int visit(const char *path, const struct stat *info, int type, struct FTW *where)
{
    (void)info;
    if (type == FTW_D && strcmp(path + where->base, ".git") == 0)
        return FTW_SKIP_SUBTREE;
    if (type == FTW_F && (all_yaml ? yaml_name(path + where->base)
                                   : compose_name(path + where->base)))
        parse(path);
    return FTW_CONTINUE;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (strcmp(argv[i], "--all-yaml") == 0) {
            all_yaml = 1;
            continue;
        }
        if (stat(argv[i], &info) == 0 && S_ISREG(info.st_mode))
            parse(argv[i]);
        else
            nftw(argv[i], visit, 64, FTW_PHYS | FTW_ACTIONRETVAL);
    }
    fprintf(stderr, "%lu files, %lu bytes, %lu events\n", files, bytes_total, events);
    free(buffer);
    return 0;
}
