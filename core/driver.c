/* driver.c - the sandlint program (see driver.h). */
#include "config.h"

#include "driver.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allowlist.h"
#include "confine.h"
#include "config_file.h"
#include "discover.h"
#include "host.h"
#include "options.h"
#include "output.h"
#include "packages.h"
#include "paths.h"
#include "plugin_path.h"
#include "registry.h"
#include "rule_docs.h"
#include "report_stream.h"
#include "scan.h"
#include "worker_pool.h"
#include "xalloc.h"

/* --color beats the environment; NO_COLOR (a person's standing preference)
 * beats FORCE_COLOR (often set for a whole CI system), as in Python and
 * CMake; FORCE_COLOR=0 means "not forced". */
static bool want_color(const struct options *options, FILE *out)
{
    if (options->color == COLOR_ALWAYS)
        return true;
    if (options->color == COLOR_NEVER)
        return false;
    const char *no_color = getenv("NO_COLOR");
    if (no_color != NULL && no_color[0] != '\0')
        return false;
    const char *force_color = getenv("FORCE_COLOR");
    if (force_color != NULL && force_color[0] != '\0' && strcmp(force_color, "0") != 0)
        return true;
    return isatty(fileno(out)) != 0;
}

/* Opens the report stream before any work, so a bad --output fails fast. */
static FILE *open_output(const struct options *options)
{
    if (options->output == NULL || strcmp(options->output, "-") == 0)
        return stdout;
    FILE *out = fopen(options->output, "w");
    if (out == NULL)
        fprintf(stderr, "sandlint: cannot write %s: %s\n", options->output,
                strerror(errno));
    return out;
}

static int close_output(FILE *out, const struct options *options)
{
    int failed = fflush(out) != 0 || ferror(out);
    if (out != stdout)
        failed |= fclose(out) != 0;
    if (failed) {
        fprintf(stderr, "sandlint: error writing %s: %s\n",
                options->output ? options->output : "standard output",
                strerror(errno));
        return -1;
    }
    return 0;
}

static unsigned online_cpus(void)
{
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    return count < 1 ? 1 : count > 64 ? 64 : (unsigned)count;
}

static bool has_plugin_rules(const struct registry *registry)
{
    return registry->rule_count > CORE_RULE_COUNT;
}

/* The informational modes: --list-rules, --list-plugins, --explain. */
static int run_information(const struct options *options,
                           const struct registry *registry)
{
    if (options->list_plugins)
        rule_docs_list_plugins(stdout, registry);
    if (options->list_rules)
        rule_docs_list_rules(stdout, registry);
    if (options->explain != NULL &&
        rule_docs_explain(stdout, registry, options->explain) != 0) {
        fprintf(stderr, "sandlint: no rule with code or name '%s' (see "
                        "--list-rules)\n", options->explain);
        return EXIT_TROUBLE;
    }
    return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
}

/* Everything a run needs besides the options. */
struct run {
    struct registry registry;
    struct config config;
    char *root;                 /* absolute */
    char *config_display;       /* config path relative to the root */
};

/* Files flow from the search, through the pool, into the report. */
struct file_flow {
    struct discovery_walk *walk;
    const struct package_directories *packages;
    struct report_stream *stream;
};

static struct discovered_file *next_file(void *data)
{
    struct file_flow *flow = data;
    struct discovered_file *file = discovery_next(flow->walk);
    if (file != NULL)
        packages_assign(file, flow->packages);
    return file;
}

static void deliver_file(void *data, const struct discovered_file *file,
                         struct file_result *result)
{
    struct file_flow *flow = data;
    report_stream_file(flow->stream, file, result);
}

static int run_checks(const struct options *options, struct run *run)
{
    const struct registry *registry = &run->registry;
    const char *root = run->root;
    static const char *const default_operands[] = { "." };
    const char *const *operands = options->operands;
    size_t operand_count = options->operand_count;
    if (operand_count == 0) {
        operands = default_operands;
        operand_count = 1;
    }

    /* A missing operand is a usage error, reported before anything else. */
    for (size_t i = 0; i < operand_count; i++) {
        struct stat info;
        if (stat(operands[i], &info) != 0) {
            fprintf(stderr, "sandlint: %s: %s\n", operands[i], strerror(errno));
            return EXIT_TROUBLE;
        }
    }
    /* Everything that needs files outside the scanned trees happens before
     * confinement: package globs, the report stream, libc's lazy loads. */
    struct package_directories packages;
    packages_find(&run->config, root, &packages);
    FILE *out = open_output(options);
    if (out == NULL) {
        packages_release(&packages);
        return EXIT_TROUBLE;
    }
    confine_warm_libc();
    if (confine_apply(options->confine, operands, operand_count,
                      options->no_isolation) != 0) {
        packages_release(&packages);
        if (out != stdout)
            fclose(out);
        return EXIT_TROUBLE;
    }

    char *error = NULL;
    struct discovery_walk *walk = discovery_open(operands, operand_count, root,
                                                 &error);
    if (walk == NULL) {
        fprintf(stderr, "sandlint: %s\n", error);
        free(error);
        packages_release(&packages);
        if (out != stdout)
            fclose(out);
        return EXIT_TROUBLE;
    }

    struct scan_settings settings = {
        .registry = registry,
        .host = host_services(),
        .max_file_size = options->max_file_size,
        .limits = { options->max_nodes, MODEL_DEFAULT_MAX_DEPTH },
    };
    struct report_stream stream;
    struct file_flow flow = { walk, &packages, &stream };
    report_stream_begin(&stream, out, options->format, registry, &run->config,
                        run->config_display, root, want_color(options, out));
    int pool_status = 0;
    if (options->no_isolation) {
        pool_run_in_process(&settings, next_file, &flow, deliver_file, &flow);
    } else {
        struct pool_settings pool = {
            .scan = &settings,
            .jobs = options->jobs ? options->jobs : online_cpus(),
            .timeout_seconds = options->timeout,
            .worker_setup = confine_worker,
        };
        pool_status = pool_run(&pool, next_file, &flow, deliver_file, &flow);
    }
    /* Even after a failure the report stays well-formed. */
    report_stream_end(&stream, discovery_count(walk));
    const struct report *report = &stream.report;
    int status = close_output(out, options) != 0 ? EXIT_TROUBLE
                 : pool_status != 0               ? EXIT_TROUBLE
                 : stream.plugin_failed           ? EXIT_TROUBLE
                 : report->errors > 0             ? EXIT_FINDINGS
                                                  : EXIT_CLEAN;
    if (!options->quiet) {
        char *summary = report_summary(report);
        fprintf(stderr, "%s\n", summary);
        free(summary);
    }
    report_stream_release(&stream);
    discovery_close(walk);
    packages_release(&packages);
    return status;
}

/* Prints a configuration error as "file:line:col: message". */
static void print_config_error(const char *path, const struct config_error *error)
{
    char *absolute = path ? path_absolute(path) : NULL;
    char *cwd = path_absolute(".");
    char *shown = absolute ? path_relative(cwd, absolute) : NULL;
    if (shown == NULL)
        fprintf(stderr, "sandlint: %s\n", error->message);
    else if (error->pos.line == 0)
        fprintf(stderr, "%s: %s\n", shown, error->message);
    else
        fprintf(stderr, "%s:%u:%u: %s\n", shown, error->pos.line,
                error->pos.column, error->message);
    free(absolute);
    free(cwd);
    free(shown);
}

/* Joins config list items into a comma-separated string (NULL if none). */
static char *join_items(const struct config_list *list)
{
    if (list->count == 0)
        return NULL;
    char *joined = xstrdup(list->items[0].text);
    for (size_t i = 1; i < list->count; i++) {
        char *longer = xasprintf("%s,%s", joined, list->items[i].text);
        free(joined);
        joined = longer;
    }
    return joined;
}

/* Checks config selectors and allowlist groups against the loaded rules,
 * with the position of each in the config file. */
static int validate_config(const struct run *run)
{
    const struct config *config = &run->config;
    struct config_error error = { NULL, { 0, 0 } };
    const struct config_list *lists[] = { &config->select, &config->ignore };
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < lists[l]->count; i++)
            if (!registry_selector_known(&run->registry, lists[l]->items[i].text))
                config_fail(&error, lists[l]->items[i].pos, "unknown rule "
                            "selector '%s' (no loaded rule has that code, "
                            "code prefix, name or group)",
                            lists[l]->items[i].text);
    for (size_t i = 0; i < config->groups.count; i++)
        if (allowlist_group_name(&run->registry, config->groups.items[i].text) == NULL)
            config_fail(&error, config->groups.items[i].pos, "allowlist group "
                        "'%s' is not the group of any loaded rule",
                        config->groups.items[i].text);
    if (error.message == NULL)
        return 0;
    print_config_error(config->path, &error);
    config_error_release(&error);
    return -1;
}

/* Config plugin directories are relative to the root. */
static void resolve_config_plugins(const struct run *run,
                                   struct string_list *plugins,
                                   struct string_list *directories)
{
    for (size_t i = 0; i < run->config.plugin_dirs.count; i++) {
        const char *dir = run->config.plugin_dirs.items[i].text;
        char *full = dir[0] == '/' ? xstrdup(dir) : path_join(run->root, dir);
        string_list_add(directories, full);
        free(full);
    }
    for (size_t i = 0; i < run->config.plugins.count; i++) {
        const char *plugin = run->config.plugins.items[i].text;
        char *full = strchr(plugin, '/') == NULL || plugin[0] == '/'
                         ? xstrdup(plugin) : path_join(run->root, plugin);
        string_list_add(plugins, full);
        free(full);
    }
}

int sandlint_main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    struct options options;
    if (options_parse(&options, argc, argv) != 0) {
        options_release(&options);
        return EXIT_TROUBLE;
    }
    if (options.confine != CONFINE_OFF)
        confine_prepare();
    if (options.sandbox_check) {
        char *tree = path_absolute(options.operand_count ? options.operands[0] : ".");
        int result = confine_sandbox_check(stdout, tree);
        free(tree);
        options_release(&options);
        return result;
    }
    if (options.help || options.version) {
        if (options.help)
            options_print_help(stdout);
        else
            printf("sandlint %s (plugin ABI %d.%d)\n", PACKAGE_VERSION,
                   SL_ABI_MAJOR, SL_ABI_MINOR);
        options_release(&options);
        return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
    }

    struct run run;
    memset(&run, 0, sizeof(run));
    registry_init(&run.registry);
    int status = EXIT_TROUBLE;
    char *error = NULL;
    struct string_list config_plugins = { NULL, 0, 0 }, config_dirs = { NULL, 0, 0 };
    char *select = NULL, *ignore = NULL;

    struct config_error config_error = { NULL, { 0, 0 } };
    char *error_path = NULL;
    if (config_discover(options.root, options.config, &run.root, &run.config,
                        &config_error, &error_path) != 0) {
        print_config_error(error_path, &config_error);
        config_error_release(&config_error);
        free(error_path);
        goto done;
    }
    if (run.config.path != NULL)
        run.config_display = path_relative(run.root, run.config.path);

    resolve_config_plugins(&run, &config_plugins, &config_dirs);
    if (plugin_load_all(&run.registry, &options, &config_plugins, &config_dirs) != 0)
        goto done;
    if (!has_plugin_rules(&run.registry) && !options.list_plugins &&
        !options.list_rules) {
        fprintf(stderr, "sandlint: no rule plugins loaded (default plugin "
                        "directory: %s)\n", plugin_default_directory());
        goto done;
    }
    if (validate_config(&run) != 0)
        goto done;
    /* Command-line selections replace those of the configuration. */
    select = options.select ? xstrdup(options.select) : join_items(&run.config.select);
    ignore = options.ignore ? xstrdup(options.ignore) : join_items(&run.config.ignore);
    if (registry_apply_selection(&run.registry, select, ignore, &error) != 0) {
        fprintf(stderr, "sandlint: %s\n", error);
        free(error);
        goto done;
    }
    if (options.list_rules || options.list_plugins || options.explain)
        status = run_information(&options, &run.registry);
    else
        status = run_checks(&options, &run);
done:
    free(select);
    free(ignore);
    string_list_release(&config_plugins);
    string_list_release(&config_dirs);
    registry_release(&run.registry);
    config_release(&run.config);
    free(run.root);
    free(run.config_display);
    options_release(&options);
    return status;
}
