/*
 * fuzz_compose.c - libFuzzer target: one Compose file through the whole
 * per-file pipeline (encoding checks, YAML model, every built-in rule
 * plugin, suppression comments), exactly as a worker runs it.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "registry.h"
#include "scan.h"

static struct registry registry;
static struct scan_settings settings;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    registry_init(&registry);
    const char *directory = getenv("SANDLINT_FUZZ_PLUGIN_DIR");
    if (directory == NULL)
        directory = FUZZ_PLUGIN_DIR;
    DIR *handle = opendir(directory);
    if (handle == NULL) {
        fprintf(stderr, "fuzz_compose: no plugin directory %s\n", directory);
        abort();
    }
    struct dirent *entry;
    while ((entry = readdir(handle)) != NULL) {
        size_t length = strlen(entry->d_name);
        if (length < 4 || strcmp(entry->d_name + length - 3, ".so") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", directory, entry->d_name);
        char *error = NULL;
        if (loader_load_file(&registry, path, &error) != 0) {
            fprintf(stderr, "fuzz_compose: %s\n", error);
            abort();
        }
    }
    closedir(handle);
    if (registry.rule_count <= CORE_RULE_COUNT) {
        fprintf(stderr, "fuzz_compose: no plugins in %s\n", directory);
        abort();
    }
    settings.registry = &registry;
    settings.max_file_size = 0;
    /* Smaller than the defaults so each input stays fast. */
    settings.limits.max_nodes = 200000;
    settings.limits.max_depth = 512;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct file_check check;
    scan_text(&settings, (const char *)data, size, "fuzz/compose.yaml", "fuzz",
              &check);
    file_check_release(&check);
    return 0;
}
