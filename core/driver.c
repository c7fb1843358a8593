/* driver.c - the sandlint program (see driver.h). */
#include "config.h"

#include "driver.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover.h"
#include "host.h"
#include "options.h"
#include "output.h"
#include "paths.h"
#include "plugin_path.h"
#include "registry.h"
#include "rule_docs.h"
#include "scan.h"
#include "xalloc.h"

static bool want_color(const struct options *options, FILE *out)
{
    if (options->color == COLOR_ALWAYS)
        return true;
    if (options->color == COLOR_NEVER)
        return false;
    const char *no_color = getenv("NO_COLOR");
    if (no_color != NULL && no_color[0] != '\0')
        return false;
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

static const struct registry *sort_registry;

static const char *sort_rule_code(size_t rule)
{
    return registry_rule_code(sort_registry, rule);
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

static int run_checks(const struct options *options,
                      const struct registry *registry, const char *root)
{
    static const char *const default_operands[] = { "." };
    const char *const *operands = options->operands;
    size_t operand_count = options->operand_count;
    if (operand_count == 0) {
        operands = default_operands;
        operand_count = 1;
    }

    struct discovery discovery;
    char *error = NULL;
    if (discover_files(operands, operand_count, root, &discovery, &error) != 0) {
        fprintf(stderr, "sandlint: %s\n", error);
        free(error);
        return EXIT_TROUBLE;
    }
    FILE *out = open_output(options);
    if (out == NULL) {
        discovery_release(&discovery);
        return EXIT_TROUBLE;
    }

    struct scan_settings settings = {
        .registry = registry,
        .host = host_services(),
        .max_file_size = options->max_file_size,
        .limits = { options->max_nodes, MODEL_DEFAULT_MAX_DEPTH },
    };
    struct finding_list findings;
    finding_list_init(&findings);
    size_t services = 0;
    bool plugin_failed = false;
    for (size_t i = 0; i < discovery.count; i++) {
        struct file_check check;
        scan_file(&settings, &discovery.files[i], &check);
        services += check.services;
        plugin_failed |= check.plugin_failed;
        finding_list_take(&findings, &check.findings);
        file_check_release(&check);
    }

    sort_registry = registry;
    finding_list_sort(&findings, sort_rule_code);
    struct report report = {
        .registry = registry,
        .findings = &findings,
        .files = discovery.count,
        .services = services,
        .root = root,
        .color = want_color(options, out),
    };
    report_count(&report);
    switch (options->format) {
    case FORMAT_JSON:
        output_json(out, &report);
        break;
    default:
        output_text(out, &report);
        break;
    }
    int status = close_output(out, options) != 0 ? EXIT_TROUBLE
                 : plugin_failed                  ? EXIT_TROUBLE
                 : report.errors > 0              ? EXIT_FINDINGS
                                                  : EXIT_CLEAN;
    if (!options->quiet) {
        char *summary = report_summary(&report);
        fprintf(stderr, "%s\n", summary);
        free(summary);
    }
    finding_list_release(&findings);
    discovery_release(&discovery);
    return status;
}

int sandlint_main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    struct options options;
    if (options_parse(&options, argc, argv) != 0) {
        options_release(&options);
        return EXIT_TROUBLE;
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

    char *root = path_absolute(options.root ? options.root : ".");
    struct registry registry;
    registry_init(&registry);
    int status = EXIT_TROUBLE;
    char *error = NULL;
    if (plugin_load_all(&registry, &options, NULL, NULL) != 0)
        goto done;
    if (!has_plugin_rules(&registry) && !options.list_plugins &&
        !options.list_rules) {
        fprintf(stderr, "sandlint: no rule plugins loaded (default plugin "
                        "directory: %s)\n", plugin_default_directory());
        goto done;
    }
    if (registry_apply_selection(&registry, options.select, options.ignore,
                                 &error) != 0) {
        fprintf(stderr, "sandlint: %s\n", error);
        free(error);
        goto done;
    }
    if (options.list_rules || options.list_plugins || options.explain)
        status = run_information(&options, &registry);
    else
        status = run_checks(&options, &registry, root);
done:
    registry_release(&registry);
    free(root);
    options_release(&options);
    return status;
}
