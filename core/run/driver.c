/* driver.c - the sandlint program (see driver.h). */
#include "config.h"

#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allowlist.h"
#include "config_file.h"
#include "confine.h"
#include "discover.h"
#include "file_kind.h"
#include "finding.h"
#include "loader.h"
#include "options.h"
#include "output.h"
#include "packages.h"
#include "paths.h"
#include "registry.h"
#include "report_output.h"
#include "references.h"
#include "report_stream.h"
#include "rule_docs.h"
#include "rule_options.h"
#include "scan.h"
#include "scanned_trees.h"
#include "stdin_file.h"
#include "terminal.h"
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

static unsigned online_cpus(void)
{
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    return count < 1 ? 1 : count > 64 ? 64 : (unsigned)count;
}

static bool has_plugin_rules(const struct registry *registry)
{
    return registry->rule_count > CORE_RULE_COUNT;
}

/* Flushes standard output; a write error (a full disk, a closed pipe)
 * is exit status 2 with a message, never a silent success. */
static int flush_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_CLEAN;
    terminal_error("sandlint: error writing standard output: %s\n", strerror(errno));
    return EXIT_TROUBLE;
}

/* The informational modes: --list-rules, --list-plugins, --explain. */
static int run_information(const struct options *options,
                           const struct registry *registry)
{
    bool json = options->format == FORMAT_JSON;
    if (options->list_plugins)
        rule_docs_list_plugins(stdout, registry, json);
    if (options->list_rules)
        rule_docs_list_rules(stdout, registry, json);
    if (options->explain != NULL &&
        rule_docs_explain(stdout, registry, options->explain,
                          rule_docs_width(stdout)) != 0) {
        terminal_error("sandlint: no rule with code or name '%s' (see "
                       "--list-rules)\n", options->explain);
        return EXIT_TROUBLE;
    }
    return flush_stdout();
}

/* Everything a run needs besides the options. */
struct run {
    struct registry registry;
    struct config config;
    char *root;                 /* absolute */
    char *config_display;       /* config path relative to the root */
    struct string_list plugin_files;    /* to load, found before confining */
};

/* Prints a configuration error as "file:line:col: message". */
static void print_config_error(const char *path, const struct config_error *error)
{
    char *absolute = path ? path_absolute(path) : NULL;
    char *cwd = path_absolute(".");
    char *shown = absolute ? path_relative(cwd, absolute) : NULL;
    const char *note = error->redact ? " (the configuration lies outside the root, so "
                                       "its text is not quoted)" : "";
    if (shown == NULL)
        terminal_error("sandlint: %s%s\n", error->message, note);
    else if (error->pos.line == 0)
        terminal_error("%s: %s%s\n", shown, error->message, note);
    else
        terminal_error("%s:%u:%u: %s%s\n", shown, error->pos.line,
                error->pos.column, error->message, note);
    free(absolute);
    free(cwd);
    free(shown);
}

/* The texts of config list items. */
static void config_strings(const struct config_list *list, struct string_list *out)
{
    for (size_t i = 0; i < list->count; i++)
        string_list_add(out, list->items[i].text);
}

/* Checks config selectors, allowlist groups and rule options against the
 * loaded rules, with the position of each in the config file. */
static int validate_config(struct run *run)
{
    const struct config *config = &run->config;
    struct config_error error = { NULL, { 0, 0 }, config->outside_root };
    const struct config_list *lists[] = { &config->select, &config->ignore,
                                          &config->extend_select };
    for (size_t l = 0; l < 3; l++) {
        for (size_t i = 0; i < lists[l]->count && error.message == NULL; i++) {
            const struct config_item *item = &lists[l]->items[i];
            if (registry_selector_known(&run->registry, item->text))
                continue;
            char *shown = config_quote(&error, item->text, item->length);
            config_fail(&error, item->pos, "unknown rule selector '%s' (no loaded rule "
                        "has that code, code prefix, name or group)", shown);
            free(shown);
        }
    }
    for (size_t i = 0; i < config->groups.count && error.message == NULL; i++) {
        const struct config_item *item = &config->groups.items[i];
        if (allowlist_group_name(&run->registry, item->text) != NULL)
            continue;
        char *shown = config_quote(&error, item->text, item->length);
        config_fail(&error, item->pos, "allowlist group '%s' is not the group of any "
                    "loaded rule", shown);
        free(shown);
    }
    if (error.message == NULL)
        rule_options_apply(&run->registry, config, &error);
    if (error.message == NULL)
        return 0;
    print_config_error(config->path, &error);
    config_error_release(&error);
    return -1;
}

/* What to load: the command line's plugins and directories first, then
 * the configuration's (its directories relative to the root). */
static void plugin_request_build(const struct options *options,
                                 const struct run *run,
                                 struct plugin_request *request)
{
    request->default_plugins = !options->no_default_plugins;
    for (size_t i = 0; i < options->plugins.count; i++)
        string_list_add(&request->named, options->plugins.items[i]);
    for (size_t i = 0; i < options->plugin_dirs.count; i++)
        string_list_add(&request->search, options->plugin_dirs.items[i]);
    for (size_t i = 0; i < run->config.plugin_dirs.count; i++) {
        const char *dir = run->config.plugin_dirs.items[i].text;
        char *full = dir[0] == '/' ? xstrdup(dir) : path_join(run->root, dir);
        string_list_add(&request->search, full);
        free(full);
    }
    for (size_t i = 0; i < run->config.plugins.count; i++) {
        const char *plugin = run->config.plugins.items[i].text;
        char *full = strchr(plugin, '/') == NULL || plugin[0] == '/'
                         ? xstrdup(plugin) : path_join(run->root, plugin);
        string_list_add(&request->named, full);
        free(full);
    }
}

/* Which rules run: the command line's --select and --ignore replace the
 * configuration's; --extend-select and the configuration's extend-select
 * both add to the selection. */
static int apply_selection(const struct options *options, struct run *run)
{
    struct string_list select = STRING_LIST_INIT, ignore = STRING_LIST_INIT;
    struct string_list extend = STRING_LIST_INIT;
    if (!options->select_given)
        config_strings(&run->config.select, &select);
    if (!options->ignore_given)
        config_strings(&run->config.ignore, &ignore);
    config_strings(&run->config.extend_select, &extend);
    for (size_t i = 0; i < options->extend_select.count; i++)
        string_list_add(&extend, options->extend_select.items[i]);
    bool has_select = options->select_given || run->config.select.count > 0;
    struct rule_selection selection = {
        has_select ? (options->select_given ? &options->select : &select) : NULL,
        &extend,
        options->ignore_given ? &options->ignore : &ignore,
    };
    char *error = NULL;
    int status = registry_apply_selection(&run->registry, &selection, &error);
    if (status != 0) {
        terminal_error("sandlint: %s\n", error);
        free(error);
    }
    string_list_release(&select);
    string_list_release(&ignore);
    string_list_release(&extend);
    return status;
}

/* Files flow from the search, through the pool, into the report.  What
 * a check run holds, from before confinement to the end. */
struct check_run {
    const char *const *operands;
    size_t operand_count;
    char **absolute;                    /* the operands, absolute; owned */
    bool from_stdin;                    /* the operand is "-" */
    struct package_directories packages;
    struct report_output output;
    int null_fd;                        /* /dev/null for the workers */
    struct string_list exclude;         /* the exclude globs */
    struct string_list kubernetes;      /* the kubernetes globs */
    struct discovery_walk *walk;        /* NULL when checking standard input */
    struct discovered_file *stdin_file; /* handed out first; then owned by
                                           the pool */
    struct reference_resolver references;   /* files include/extends name */
    struct discovered_file **round;     /* a round of such files, owned */
    size_t round_count, round_at;
    size_t round_files;                 /* files checked in rounds */
    size_t skipped_files;               /* candidates of no kind */
    struct report_stream stream;
    struct allowlist_update update;     /* --update-allowlist */
    bool updating;
    struct scanned_trees trees;         /* the root and the operands: where
                                           the repository's author writes */
    struct allowlist_coverage coverage; /* what the run checks fully */
    char *overwritten;                  /* a checked file the report would
                                           replace */
    struct scan_settings scan;          /* what check_files set */
    struct pool *pool;                  /* the workers, from the first
                                           check_files on; owned */
    struct pool_settings pool_settings; /* the pool's, borrowed by it */
    int *keep;                          /* descriptors workers keep; owned */
    size_t keep_count;
};

static struct discovered_file *next_file(void *data)
{
    struct check_run *flow = data;
    if (flow->overwritten != NULL)
        return NULL;
    struct discovered_file *file = flow->stdin_file;
    flow->stdin_file = NULL;
    if (flow->round != NULL) {
        /* A round of files named by include or extends. */
        if (file == NULL && flow->round_at < flow->round_count) {
            file = flow->round[flow->round_at];
            flow->round[flow->round_at++] = NULL;
            flow->round_files++;
        }
    } else if (file == NULL && flow->walk != NULL) {
        file = discovery_next(flow->walk);
    }
    if (file == NULL)
        return NULL;
    if (file->content == NULL && report_output_is(&flow->output, file->device, file->inode)) {
        /* Stop: the report must not replace a file it checks. */
        flow->overwritten = xstrdup(file->display);
        discovered_file_free(file);
        return NULL;
    }
    packages_assign(file, &flow->packages);
    if (file->problem == NULL && file->absolute != NULL &&
        packages_in_refused_directory(&flow->packages, file->absolute))
        /* A package directory that discovery found but the package search
         * did not (checked at the start): never a package of its own. */
        file->problem = xstrdup("its package directory is named like a wildcard (it holds a "
                                "'*'); not checked");
    return file;
}

/* Which packages this run checks fully: the operands cover the package's
 * directories (packages.h).  Standard input never checks a whole package. */
static bool fully_checked(void *data, const char *package)
{
    const struct check_run *flow = data;
    return !flow->from_stdin &&
           packages_fully_checked(&flow->packages, package,
                                  (const char *const *)flow->absolute,
                                  flow->operand_count);
}

/* Whether the operands cover a path relative to the root: a file, or a
 * directory ending in '/' ("" is the root).  Standard input covers none. */
static bool path_checked(void *data, const char *path)
{
    const struct check_run *flow = data;
    if (flow->from_stdin)
        return false;
    char *joined = path[0] != '\0' ? path_join(flow->packages.root, path)
                                    : xstrdup(flow->packages.root);
    char *absolute = path_absolute(joined);
    bool covered = packages_covered((const char *const *)flow->absolute,
                                    flow->operand_count, absolute);
    free(joined);
    free(absolute);
    return covered;
}

static void deliver_file(void *data, const struct discovered_file *file,
                         struct file_result *result)
{
    struct check_run *flow = data;
    /* A candidate of no kind (file_kind.h) is neither counted nor
     * reported - only one that may be skipped, and only when it found
     * nothing: a worker cannot make a Compose file vanish. */
    if (result->skipped && result->findings.count == 0 && file->candidates != 0 &&
        (file->candidates & (CANDIDATE_COMPOSE | CANDIDATE_NAMED)) == 0) {
        flow->skipped_files++;
        return;
    }
    result->skipped = false;
    references_resolve(&flow->references, file, result);
    report_stream_file(&flow->stream, result);
}

/* Files outside the scanned trees that the confined process still reads:
 * the plugins it loads, and the system's shared libraries and their cache,
 * which a plugin may need (none of them is secret). */
static void also_readable(const struct run *run, struct string_list *paths)
{
    static const char *const libraries[] = {
        "/etc/ld.so.cache", "/lib", "/lib64", "/usr/lib", "/usr/lib64",
        "/usr/local/lib",
    };
    for (size_t i = 0; i < run->plugin_files.count; i++)
        string_list_add(paths, run->plugin_files.items[i]);
    for (size_t i = 0; i < sizeof(libraries) / sizeof(*libraries); i++)
        if (access(libraries[i], F_OK) == 0)
            string_list_add(paths, libraries[i]);
}

/* The .env beside each file operand: Compose interpolates the file with
 * its project directory's .env (SPEC §13), which a file operand alone does
 * not open to the confined process.  Only a regular file (not a link) is
 * added; any other is refused when read, as an SL010 error. */
static void operand_env_files(const char *const *trees, size_t tree_count,
                              struct string_list *paths)
{
    for (size_t i = 0; i < tree_count; i++) {
        struct stat info;
        if (stat(trees[i], &info) != 0 || !S_ISREG(info.st_mode))
            continue;
        char *directory = path_dirname(trees[i]);
        char *env = path_join(directory, ".env");
        if (lstat(env, &info) == 0 && S_ISREG(info.st_mode))
            string_list_add(paths, env);
        free(env);
        free(directory);
    }
}

/* Confines this process to reading trees (and what plugins need), then
 * loads the plugins - so no plugin code ever runs unconfined when
 * confinement is on - and applies the configuration to them.  Returns 0,
 * or -1 after printing why. */
static int confine_and_load(const struct options *options, struct run *run,
                            const char *const *trees, size_t tree_count)
{
    struct string_list readable = STRING_LIST_INIT;
    also_readable(run, &readable);
    operand_env_files(trees, tree_count, &readable);
    confine_warm_libc();
    int status = confine_apply(options->confine, trees, tree_count, &readable,
                               options->no_isolation);
    string_list_release(&readable);
    if (status != 0 || loader_load_files(&run->registry, &run->plugin_files) != 0)
        return -1;
    if (!has_plugin_rules(&run->registry) && !options->list_plugins &&
        !options->list_rules) {
        terminal_error("sandlint: no rule plugins loaded (default plugin "
                       "directory: %s)\n", loader_default_directory());
        return -1;
    }
    if (validate_config(run) != 0 || apply_selection(options, run) != 0)
        return -1;
    /* Before any worker forks: findings are made with these severities. */
    finding_use_configured_severities(&run->registry);
    return 0;
}

/* Checks what the command line names before anything is opened: "-"
 * alone, operands that exist.  Returns 0, or -1 after printing why. */
static int check_operands(const struct options *options, struct check_run *flow)
{
    static const char *const default_operands[] = { "." };
    flow->operands = options->operands;
    flow->operand_count = options->operand_count;
    if (flow->operand_count == 0) {
        flow->operands = default_operands;
        flow->operand_count = 1;
    }
    for (size_t i = 0; i < flow->operand_count; i++)
        flow->from_stdin |= strcmp(flow->operands[i], "-") == 0;
    if (flow->from_stdin && flow->operand_count > 1) {
        terminal_error("sandlint: '-' (standard input) cannot be combined with "
                       "other operands\n");
        return -1;
    }
    if (options->stdin_filename != NULL && !flow->from_stdin) {
        terminal_error("sandlint: --stdin-filename needs '-' as the operand\n");
        return -1;
    }
    /* A missing operand is a usage error, reported before anything else. */
    for (size_t i = 0; i < flow->operand_count && !flow->from_stdin; i++) {
        struct stat info;
        if (stat(flow->operands[i], &info) != 0) {
            terminal_error("sandlint: %s: %s\n", flow->operands[i], strerror(errno));
            return -1;
        }
    }
    flow->absolute = xcalloc(flow->operand_count + 1, sizeof(*flow->absolute));
    for (size_t i = 0; i < flow->operand_count && !flow->from_stdin; i++)
        flow->absolute[i] = path_absolute(flow->operands[i]);
    return 0;
}

/* --untrusted: the configuration must come from outside what the run
 * scans (the root and the operands), or the tree's author wrote it too.
 * Returns 0, or -1 after printing why. */
static int check_config_outside(const struct options *options, const struct run *run,
                                const struct check_run *flow)
{
    if (!options->untrusted || run->config.path == NULL)
        return 0;
    char *real = realpath(options->config, NULL);
    char *lexical = path_absolute(options->config);
    char *lexical_root = path_absolute(run->root);
    bool inside = (real != NULL && scanned_trees_contain(&flow->trees, real)) ||
                  path_is_within(lexical_root, lexical);
    for (size_t i = 0; i < flow->operand_count && !flow->from_stdin && !inside; i++)
        inside = path_is_within(flow->absolute[i], lexical);
    free(real);
    free(lexical);
    free(lexical_root);
    if (!inside)
        return 0;
    terminal_error("sandlint: --config %s lies inside the tree that --untrusted scans (the "
                   "root or an operand), whose author may have written it; use a "
                   "configuration from outside, such as the base branch's: git show "
                   "\"$BASE_SHA:.sandlint.ini\" > \"$RUNNER_TEMP/sandlint.ini\"\n",
                   options->config);
    return -1;
}

/* Everything that needs files outside the scanned trees, opened before
 * confinement: package directories, the report, /dev/null for the
 * workers, standard input.  Returns 0, or -1 after printing why. */
static int open_outside(const struct options *options, struct run *run,
                        struct check_run *flow)
{
    scanned_trees_init(&flow->trees, run->root, flow->from_stdin ? NULL : flow->operands,
                       flow->from_stdin ? 0 : flow->operand_count);
    if (check_config_outside(options, run, flow) != 0)
        return -1;
    packages_find(&run->config, run->root, &flow->packages);
    char *problem = NULL;
    if (packages_check_names(&flow->packages, &problem) != 0) {
        terminal_error("sandlint: %s\n", problem);
        free(problem);
        return -1;
    }
    if (options->allowlist_scope == UPDATE_SCOPE_PACKAGE && !flow->packages.configured) {
        terminal_error("sandlint: --allowlist-scope package needs packages in the "
                       "configuration (without them every file is in the package '*', "
                       "and entries for it would apply everywhere)\n");
        return -1;
    }
    config_strings(&run->config.exclude, &flow->exclude);
    config_strings(&run->config.kubernetes, &flow->kubernetes);
    if (report_output_open(&flow->output, options->output, &flow->trees) != 0)
        return -1;
    for (size_t i = 0; i < flow->operand_count && !flow->from_stdin; i++) {
        struct stat info;
        if (stat(flow->operands[i], &info) == 0 &&
            report_output_is(&flow->output, info.st_dev, info.st_ino)) {
            terminal_error("sandlint: refusing to write the report over %s, "
                           "which is checked\n", flow->operands[i]);
            return -1;
        }
    }
    flow->updating = options->update_allowlist;
    struct allowlist_update_settings settings = {
        .scope = options->allowlist_scope,
        .strict = options->strict,
        .suppressed = options->allowlist_suppressed,
        .narrow = options->narrow,
    };
    if (flow->updating && allowlist_update_prepare(&flow->update, &settings, &run->config,
                                                   run->root, &flow->trees) != 0)
        return -1;
    flow->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (flow->from_stdin)
        flow->stdin_file = stdin_file_read(options->stdin_filename, run->root,
                                           options->max_file_size);
    return 0;
}

static void check_run_release(struct check_run *flow)
{
    pool_close(flow->pool);
    free(flow->keep);
    for (size_t i = 0; flow->absolute != NULL && i < flow->operand_count; i++)
        free(flow->absolute[i]);
    free(flow->absolute);
    packages_release(&flow->packages);
    report_output_abort(&flow->output);
    if (flow->null_fd >= 0)
        close(flow->null_fd);
    string_list_release(&flow->exclude);
    string_list_release(&flow->kubernetes);
    if (flow->updating)
        allowlist_update_release(&flow->update);
    scanned_trees_release(&flow->trees);
    reference_resolver_release(&flow->references);
    for (size_t i = 0; i < flow->round_count; i++)
        discovered_file_free(flow->round[i]);
    free(flow->round);
    discovery_close(flow->walk);
    discovered_file_free(flow->stdin_file);
    free(flow->overwritten);
}

/* Checks every file of the walk, or of the current round, in worker
 * processes unless --no-isolation.  The workers of the first call stay for
 * the rounds after it (check_run_release ends them). */
static int check_files(const struct options *options, const struct run *run,
                       struct check_run *flow)
{
    flow->scan = (struct scan_settings){
        .registry = &run->registry,
        .max_file_size = options->max_file_size,
        .max_memory = options->no_isolation ? 0 : options->max_memory,
        .limits = { options->max_nodes, MODEL_DEFAULT_MAX_DEPTH },
        .untrusted = options->untrusted,
    };
    if (options->no_isolation) {
        pool_run_in_process(&flow->scan, next_file, flow, deliver_file, flow);
        return 0;
    }
    if (flow->pool == NULL) {
        /* Workers open files under the walk's directories, which they
         * keep. */
        flow->keep_count = flow->walk != NULL
                               ? discovery_descriptors(flow->walk, &flow->keep) : 0;
        flow->pool_settings = (struct pool_settings){
            .scan = &flow->scan,
            .jobs = options->jobs ? options->jobs : online_cpus(),
            .adaptive = options->jobs == 0,
            .timeout_seconds = options->timeout,
            .max_memory = options->max_memory,
            .null_fd = flow->null_fd,
            .keep_fds = flow->keep,
            .keep_count = flow->keep_count,
            .worker_setup = confine_worker,
        };
        flow->pool = pool_open(&flow->pool_settings);
        if (flow->pool == NULL)
            return -1;
    }
    return pool_run(flow->pool, next_file, flow, deliver_file, flow);
}

static int run_checks(const struct options *options, struct run *run)
{
    struct check_run flow;
    memset(&flow, 0, sizeof(flow));
    flow.null_fd = -1;
    report_output_init(&flow.output);
    allowlist_update_init(&flow.update);
    if (check_operands(options, &flow) != 0 || open_outside(options, run, &flow) != 0 ||
        confine_and_load(options, run, flow.operands,
                         flow.from_stdin ? 0 : flow.operand_count) != 0) {
        check_run_release(&flow);
        return EXIT_TROUBLE;
    }
    if (!flow.from_stdin) {
        char *error = NULL;
        flow.walk = discovery_open(flow.operands, flow.operand_count, run->root,
                                   &flow.exclude, &error);
        if (flow.walk == NULL) {
            terminal_error("sandlint: %s\n", error);
            free(error);
            check_run_release(&flow);
            return EXIT_TROUBLE;
        }
        discovery_set_kubernetes(flow.walk, &flow.kubernetes);
        if (options->allow_no_files)
            discovery_name_files_as_found(flow.walk);
        if (flow.output.exists)     /* next_file() must recognise it */
            discovery_want_identity(flow.walk);
    }

    report_stream_begin(&flow.stream, flow.output.stream, options->format,
                        &run->registry, &run->config, run->config_display, run->root,
                        want_color(options, flow.output.stream), options->show_accepted,
                        flow.updating ? &flow.update : NULL);
    /* Under --untrusted no entry is called stale: a pull request cannot
     * edit the base branch's configuration. */
    flow.coverage = (struct allowlist_coverage){ fully_checked, path_checked, &flow };
    if (!options->untrusted)
        report_stream_set_coverage(&flow.stream, &flow.coverage);
    reference_resolver_init(&flow.references, flow.walk, &run->registry);
    int pool_status = check_files(options, run, &flow);
    /* Then, round by round, the files that include and extends name. */
    while (pool_status == 0 && flow.overwritten == NULL &&
           (flow.round_count = references_next_round(&flow.references, &flow.round)) > 0) {
        flow.round_at = 0;
        pool_status = check_files(options, run, &flow);
        for (size_t i = 0; i < flow.round_count; i++)
            discovered_file_free(flow.round[i]);
        free(flow.round);
        flow.round = NULL;
        flow.round_count = 0;
    }
    /* The workers' last round is over. */
    pool_close(flow.pool);
    flow.pool = NULL;
    /* Even after a failure the report stays well-formed. */
    size_t files = (flow.from_stdin ? 1 : discovery_count(flow.walk)) + flow.round_files -
                   flow.skipped_files;
    size_t excluded = flow.from_stdin ? 0 : discovery_excluded(flow.walk);
    flow.stream.report.excluded = excluded;
    flow.stream.report.helm_templates =
        flow.from_stdin ? 0 : discovery_helm_templates(flow.walk);
    report_stream_end(&flow.stream, files);
    const struct report *report = &flow.stream.report;
    bool nothing_to_check = false;
    bool failing = report->errors > 0 || (options->strict && report->warnings > 0);
    int status = pool_status != 0 || flow.stream.plugin_failed ? EXIT_TROUBLE
                 : failing && !options->exit_zero              ? EXIT_FINDINGS
                                                               : EXIT_CLEAN;
    if (flow.overwritten != NULL) {
        terminal_error("sandlint: refusing to write the report over %s, which "
                       "is checked; nothing written\n", flow.overwritten);
        status = EXIT_TROUBLE;
    } else if (files == 0 && excluded == 0 && options->allow_no_files &&
               (flow.from_stdin || discovery_excluded_directories(flow.walk) == 0)) {
        /* A hook in a repository without sandbox files (SPEC §17): one
         * line, and the status of a run that found nothing wrong. */
        terminal_error("sandlint: no sandbox files found under %s%s; nothing to "
                       "check (--allow-no-files)\n", flow.operands[0],
                       flow.operand_count > 1 ? " and the other operands" : "");
        nothing_to_check = true;
    } else if (files == 0 && excluded == 0 &&
               (flow.from_stdin || discovery_excluded_directories(flow.walk) == 0)) {
        /* A check that checked nothing must not pass (files left out on
         * purpose by exclude are not nothing). */
        terminal_error("sandlint: no sandbox files found under %s%s\n",
                       flow.operands[0],
                       flow.operand_count > 1 ? " and the other operands" : "");
        status = EXIT_TROUBLE;
    }
    if (flow.overwritten == NULL && report_output_commit(&flow.output) != 0)
        status = EXIT_TROUBLE;
    if (flow.updating && (flow.stream.update_failed || status == EXIT_TROUBLE ||
                          allowlist_update_commit(&flow.update) != 0))
        /* The report shows the run after the edit, so its status is this
         * run's: only what no entry can accept (unchecked files, and
         * without --strict nothing else) still fails. */
        status = EXIT_TROUBLE;
    if (!options->quiet && flow.overwritten == NULL && !nothing_to_check) {
        char *summary = report_summary(report);
        terminal_error("%s\n", summary);
        free(summary);
    }
    report_stream_release(&flow.stream);
    check_run_release(&flow);
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
    if (options.confine != CONFINE_OFF)
        confine_prepare();
    if (options.sandbox_check) {
        char *tree = path_absolute(options.operand_count ? options.operands[0] : ".");
        int result = confine_sandbox_check(stdout, tree);
        if (flush_stdout() != EXIT_CLEAN)
            result = EXIT_TROUBLE;
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
        return flush_stdout();
    }

    struct run run;
    memset(&run, 0, sizeof(run));
    registry_init(&run.registry);
    int status = EXIT_TROUBLE;
    struct plugin_request request = PLUGIN_REQUEST_INIT;

    struct config_error config_error = { NULL, { 0, 0 }, false };
    char *error_path = NULL;
    if (config_discover(options.root, options.config, options.untrusted, &run.root,
                        &run.config, &config_error, &error_path) != 0) {
        print_config_error(error_path, &config_error);
        config_error_release(&config_error);
        free(error_path);
        goto done;
    }
    if (run.config.path != NULL)
        run.config_display = path_relative(run.root, run.config.path);

    /* Which plugin files to load is decided now; they are loaded only once
     * the process is confined. */
    plugin_request_build(&options, &run, &request);
    if (loader_resolve(&request, &run.plugin_files) != 0)
        goto done;
    if (options.list_rules || options.list_plugins || options.explain) {
        if (confine_and_load(&options, &run, NULL, 0) == 0)
            status = run_information(&options, &run.registry);
    } else {
        status = run_checks(&options, &run);
    }
done:
    plugin_request_release(&request);
    string_list_release(&run.plugin_files);
    registry_release(&run.registry);
    config_release(&run.config);
    free(run.root);
    free(run.config_display);
    options_release(&options);
    return status;
}
