/*
 * bench/interpolation - what resolving interpolation costs on real Compose
 * files, against the YAML model's parse of the same files.
 *
 *     make bench-interpolation      (or: bench/interpolation DIR...)
 *
 * Finds the Compose-named files under each DIR, parses each into the YAML
 * model, then resolves every scalar value (never a key, as Compose; a node
 * that aliases name again once) with the variables of the .env beside the
 * file, read as Compose reads it.
 * Prints the best of BENCH_RUNS passes (default 5) of each step and how
 * the values resolved.  Not part of make check: numbers, not pass/fail.
 */
#include "config.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compose_interpolation.h"
#include "sandlint/plugin.h"
#include "dotenv.h"
#include "yaml_model.h"

struct file {
    char *text, *env_text;
    size_t length, env_length;
    char *env_name;
};

static struct file *files;
static size_t file_count, file_capacity, total_bytes;

static char *slurp(const char *path, size_t *length)
{
    FILE *stream = fopen(path, "rb");
    if (stream == NULL)
        return NULL;
    size_t capacity = 4096, used = 0;
    char *text = malloc(capacity);
    size_t got;
    while ((got = fread(text + used, 1, capacity - used, stream)) > 0) {
        used += got;
        if (used == capacity)
            text = realloc(text, capacity *= 2);
    }
    fclose(stream);
    *length = used;
    return text;
}

static int compose_name(const char *name)
{
    const char *base = strrchr(name, '/');
    base = base != NULL ? base + 1 : name;
    if (strncmp(base, "docker-", 7) == 0)
        base += 7;
    size_t length = strlen(base);
    return strncmp(base, "compose", 7) == 0 &&
           ((length > 4 && strcmp(base + length - 4, ".yml") == 0) ||
            (length > 5 && strcmp(base + length - 5, ".yaml") == 0));
}

static int visit(const char *path, const struct stat *info, int type, struct FTW *walk)
{
    (void)info;
    (void)walk;
    if (type != FTW_F || !compose_name(path))
        return 0;
    if (file_count == file_capacity)
        files = realloc(files, (file_capacity = file_capacity ? file_capacity * 2 : 256) *
                                   sizeof(*files));
    struct file *file = &files[file_count];
    memset(file, 0, sizeof(*file));
    file->text = slurp(path, &file->length);
    if (file->text == NULL)
        return 0;
    size_t directory = (size_t)(strrchr(path, '/') - path);
    file->env_name = malloc(directory + 6);
    snprintf(file->env_name, directory + 6, "%.*s/.env", (int)directory, path);
    file->env_text = slurp(file->env_name, &file->env_length);
    total_bytes += file->length;
    file_count++;
    return 0;
}

static double now(void)
{
    struct timespec clock;
    clock_gettime(CLOCK_MONOTONIC, &clock);
    return (double)clock.tv_sec + (double)clock.tv_nsec / 1e9;
}

struct tally {
    size_t values, with_dollar, statuses[4], envs, envs_refused;
};

/* Nodes already resolved: an alias names the same node again, and a
 * front-end resolves a node once however often it is used. */
struct node_set {
    const struct sl_node **slots;
    size_t size, used;
};

static int node_set_add(struct node_set *set, const struct sl_node *node)
{
    if ((set->used + 1) * 2 > set->size) {
        struct node_set grown = { calloc(set->size ? set->size * 2 : 1024, sizeof(void *)),
                                  set->size ? set->size * 2 : 1024, 0 };
        for (size_t i = 0; i < set->size; i++)
            if (set->slots[i] != NULL)
                node_set_add(&grown, set->slots[i]);
        free(set->slots);
        *set = grown;
    }
    size_t i = ((size_t)node >> 4) * 0x9e3779b97f4a7c15u % set->size;
    while (set->slots[i] != NULL) {
        if (set->slots[i] == node)
            return 0;
        i = (i + 1) % set->size;
    }
    set->slots[i] = node;
    set->used++;
    return 1;
}

/* Resolves every scalar value under root once (an explicit stack). */
static void resolve_values(const struct sl_node *root, const struct interpolation_variables *vars,
                           struct interpolation_budget *budget, struct tally *tally)
{
    enum { STACK = 4096 };
    const struct sl_node *stack[STACK];
    struct node_set seen = { NULL, 0, 0 };
    size_t depth = 0;
    stack[depth++] = root;
    while (depth > 0) {
        const struct sl_node *node = stack[--depth];
        if (node == NULL || !node_set_add(&seen, node))
            continue;
        if (node->kind == SL_NODE_SCALAR) {
            struct interpolation_result result;
            enum interpolation_status status = compose_interpolate(
                node->u.scalar.text, node->u.scalar.length, vars, budget, &result);
            tally->values++;
            tally->statuses[status]++;
            if (memchr(node->u.scalar.text, '$', node->u.scalar.length) != NULL)
                tally->with_dollar++;
            interpolation_result_release(&result);
        } else if (node->kind == SL_NODE_SEQUENCE) {
            for (size_t i = 0; i < node->u.sequence.count && depth < STACK; i++)
                stack[depth++] = node->u.sequence.items[i];
        } else if (node->kind == SL_NODE_MAPPING) {
            for (size_t i = 0; i < node->u.mapping.count && depth < STACK; i++)
                stack[depth++] = node->u.mapping.pairs[i].value;
        }
    }
    free(seen.slots);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        nftw(argv[i], visit, 64, FTW_PHYS);
    const char *runs_text = getenv("BENCH_RUNS");
    int runs = runs_text != NULL && atoi(runs_text) > 0 ? atoi(runs_text) : 5;
    double best_parse = 1e9, best_resolve = 1e9;
    struct tally tally = { 0 };
    for (int run = 0; run < runs; run++) {
        memset(&tally, 0, sizeof(tally));
        double parse = 0, resolve = 0;
        for (size_t f = 0; f < file_count; f++) {
            struct yaml_model model;
            double start = now();
            enum model_status status = model_parse(&model, files[f].text, files[f].length,
                                                   NULL);
            double parsed = now();
            parse += parsed - start;
            if (status == MODEL_OK) {
                struct dotenv env;
                dotenv_init(&env, NULL);
                if (files[f].env_text != NULL) {
                    struct dotenv_error error;
                    tally.envs++;
                    if (dotenv_parse(&env, files[f].env_name, files[f].env_text,
                                     files[f].env_length, &error) != 0)
                        tally.envs_refused++;
                    dotenv_error_release(&error);
                }
                struct interpolation_variables vars = dotenv_variables(&env);
                struct interpolation_budget budget;
                interpolation_budget_init(&budget, INTERPOLATION_FILE_WORK);
                for (size_t d = 0; d < model.document_count; d++)
                    resolve_values(model.documents[d], &vars, &budget, &tally);
                dotenv_release(&env);
                resolve += now() - parsed;
            }
            model_release(&model);
        }
        if (parse < best_parse)
            best_parse = parse;
        if (resolve < best_resolve)
            best_resolve = resolve;
    }
    printf("%zu Compose files, %.1f MiB, %zu .env files (%zu refused), best of %d runs\n",
           file_count, (double)total_bytes / 1048576, tally.envs, tally.envs_refused, runs);
    printf("values %zu, with '$' %zu: fixed %zu, resolved %zu, unset %zu, refused %zu\n",
           tally.values, tally.with_dollar, tally.statuses[INTERPOLATION_FIXED],
           tally.statuses[INTERPOLATION_RESOLVED], tally.statuses[INTERPOLATION_UNSET],
           tally.statuses[INTERPOLATION_ERROR]);
    printf("YAML model parse %.1f ms, interpolation of every value %.1f ms (%.1f%% of the "
           "parse)\n", best_parse * 1e3, best_resolve * 1e3,
           best_parse > 0 ? 100 * best_resolve / best_parse : 0);
    return 0;
}
