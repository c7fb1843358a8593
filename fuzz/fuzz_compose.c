/*
 * fuzz_compose.c - libFuzzer target: one Compose file, agent-env values
 * file or Kubernetes manifest through the whole per-file pipeline
 * (encoding checks, YAML model, the file's kind, every built-in rule
 * plugin, suppression comments), exactly as a worker runs it.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_kind.h"
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
    /* Opt-in rules too (sandbox_hardening reads the most settings of the
     * container model), not only the ones a default run enables. */
    for (size_t i = CORE_RULE_COUNT; i < registry.rule_count; i++)
        registry.rules[i].enabled = true;
    settings.registry = &registry;
    settings.max_file_size = 0;
    /* Smaller than the defaults so each input stays fast. */
    settings.limits.max_nodes = 200000;
    settings.limits.max_depth = 512;
    return 0;
}

/* The first byte picks how the file was found, so every kind's code (the
 * Compose model, agent-env values, Kubernetes objects and pod specs) is
 * reached; inputs without it are Compose files, as the seeds are. */
static const struct {
    const char *display;
    unsigned candidates;
} fuzz_places[] = {
    { "fuzz/compose.yaml", CANDIDATE_COMPOSE },
    { "fuzz/values.yaml", CANDIDATE_VALUES },
    { "fuzz/deploy/sandbox.yaml", CANDIDATE_KUBERNETES },
    { "fuzz/named.yaml", CANDIDATE_NAMED },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t place = 0;
    if (size > 0 && data[0] >= 0xf8 && data[0] < 0xf8 + 4) {
        place = data[0] - 0xf8;   /* bytes never valid in UTF-8 */
        data++;
        size--;
    }
    struct file_check check;
    scan_text(&settings, (const char *)data, size, fuzz_places[place].display, "fuzz",
              fuzz_places[place].candidates, &check);
    file_check_release(&check);
    return 0;
}
