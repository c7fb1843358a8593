/* options.c - parse the command line (see options.h, SPEC §2). */
#include "config.h"

#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist_update.h"
#include "comma_list.h"
#include "confine.h"
#include "kind_docs.h"
#include "output.h"
#include "terminal.h"
#include "xalloc.h"

enum {
    OPT_ROOT = 256,
    OPT_CONFIG,
    OPT_SELECT,
    OPT_IGNORE,
    OPT_PLUGIN,
    OPT_PLUGIN_DIR,
    OPT_NO_DEFAULT_PLUGINS,
    OPT_LIST_RULES,
    OPT_LIST_PLUGINS,
    OPT_EXPLAIN,
    OPT_COLOR,
    OPT_MAX_FILE_SIZE,
    OPT_MAX_NODES,
    OPT_MAX_MEMORY,
    OPT_TIMEOUT,
    OPT_NO_ISOLATION,
    OPT_CONFINE,
    OPT_SANDBOX_CHECK,
    OPT_EXTEND_SELECT,
    OPT_SHOW_ACCEPTED,
    OPT_STRICT,
    OPT_EXIT_ZERO,
    OPT_STDIN_FILENAME,
    OPT_UPDATE_ALLOWLIST,
    OPT_ALLOWLIST_SCOPE,
    OPT_NARROW,
    OPT_ALLOWLIST_SUPPRESSED,
    OPT_UNTRUSTED,
    OPT_ALLOW_NO_FILES,
};

static const struct option long_options[] = {
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "root", required_argument, NULL, OPT_ROOT },
    { "config", required_argument, NULL, OPT_CONFIG },
    { "select", required_argument, NULL, OPT_SELECT },
    { "ignore", required_argument, NULL, OPT_IGNORE },
    { "plugin", required_argument, NULL, OPT_PLUGIN },
    { "plugin-dir", required_argument, NULL, OPT_PLUGIN_DIR },
    { "no-default-plugins", no_argument, NULL, OPT_NO_DEFAULT_PLUGINS },
    { "list-rules", no_argument, NULL, OPT_LIST_RULES },
    { "list-plugins", no_argument, NULL, OPT_LIST_PLUGINS },
    { "explain", required_argument, NULL, OPT_EXPLAIN },
    { "quiet", no_argument, NULL, 'q' },
    { "color", required_argument, NULL, OPT_COLOR },
    { "colour", required_argument, NULL, OPT_COLOR },
    { "max-file-size", required_argument, NULL, OPT_MAX_FILE_SIZE },
    { "max-nodes", required_argument, NULL, OPT_MAX_NODES },
    { "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
    { "jobs", required_argument, NULL, 'j' },
    { "timeout", required_argument, NULL, OPT_TIMEOUT },
    { "no-isolation", no_argument, NULL, OPT_NO_ISOLATION },
    { "confine", required_argument, NULL, OPT_CONFINE },
    { "sandbox-check", no_argument, NULL, OPT_SANDBOX_CHECK },
    { "extend-select", required_argument, NULL, OPT_EXTEND_SELECT },
    { "show-accepted", no_argument, NULL, OPT_SHOW_ACCEPTED },
    { "strict", no_argument, NULL, OPT_STRICT },
    { "exit-zero", no_argument, NULL, OPT_EXIT_ZERO },
    { "stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME },
    { "update-allowlist", no_argument, NULL, OPT_UPDATE_ALLOWLIST },
    { "allowlist-scope", required_argument, NULL, OPT_ALLOWLIST_SCOPE },
    { "narrow", no_argument, NULL, OPT_NARROW },
    { "allowlist-suppressed", no_argument, NULL, OPT_ALLOWLIST_SUPPRESSED },
    { "untrusted", no_argument, NULL, OPT_UNTRUSTED },
    { "allow-no-files", no_argument, NULL, OPT_ALLOW_NO_FILES },
    { "version", no_argument, NULL, 'V' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

void options_print_help(FILE *out)
{
    fputs(
"Usage: sandlint [OPTION]... [PATH]...\n"
"Report the settings of sandbox definitions (Docker Compose, Helm values,\n"
"Kubernetes objects) that give sandboxed processes host access.\n"
"\n"
"PATHs are files or directories (default: the current directory); - reads one\n"
"file from standard input.  A directory is searched at any depth (.git is\n"
"skipped, symbolic links to directories are not entered, .gitignore is not\n"
"honoured: exclude in the configuration skips files) for these kinds of file:\n",
          out);
    /* Generated from the kinds' own table, as sandlint(1) is from this. */
    kind_docs_print(out, 79);
    fputs(
"A file named as a PATH is checked whatever its name (with --allow-no-files,\n"
"only when a directory search would check it).\n"
"\n"
"Output:\n"
"  -f, --format FMT         text (default), json, sarif, github or gitlab\n"
"  -o, --output FILE        write the report to FILE instead of stdout\n"
"  -q, --quiet              no summary line on stderr\n"
"      --stdin-filename PATH  the name of the file read from standard input,\n"
"                           for packages, allowlists and the report\n"
"                           (default: compose.yaml)\n"
"      --color WHEN         auto (default; honours NO_COLOR), always, never\n"
"      --show-accepted      also print allowlisted and suppressed findings\n"
"                           (text and github; json and sarif always have them)\n"
"\n"
"Configuration:\n"
"      --root DIR           repository root (config, paths, packages)\n"
"      --config FILE        use FILE instead of discovering the configuration\n"
"      --select LIST        run only these rules (codes, code prefixes,\n"
"                           names or groups, comma-separated)\n"
"      --extend-select LIST run these rules too, besides the selection\n"
"      --ignore LIST        do not run these rules\n"
"      --update-allowlist   write the configuration so that this run passes:\n"
"                           entries for failing findings, stale ones removed\n"
"      --allowlist-scope file|package\n"
"                           what new entries cover: their file (default) or\n"
"                           their package (needs packages)\n"
"      --narrow             with --update-allowlist: rewrite '*' and package\n"
"                           entries into one entry per file\n"
"      --allowlist-suppressed  with --update-allowlist: also write entries for\n"
"                           findings that suppression comments accept\n"
"      --untrusted          the scanned tree may be hostile (a pull request):\n"
"                           no configuration from it (only --config), its\n"
"                           suppression comments reported, not honoured\n"
"                           (also SANDLINT_UNTRUSTED=1)\n"
"\n"
"Exit status:\n"
"      --strict             warnings fail too (stale entries, unused\n"
"                           suppressions, values that cannot be checked)\n"
"      --exit-zero          exit 0 even when findings fail (2 still means\n"
"                           that sandlint could not do its work)\n"
"      --allow-no-files     no sandbox file to check is no error: exit 0 with\n"
"                           one line (for hooks given every changed file)\n"
"\n"
"Plugins and rules:\n"
"      --plugin NAME|PATH   load an extra plugin (repeatable)\n"
"      --plugin-dir DIR     look up --plugin names in DIR first (repeatable;\n"
"                           also SANDLINT_PLUGIN_PATH, colon-separated)\n"
"      --no-default-plugins load only the plugins named with --plugin\n"
"      --list-rules         list every loaded rule and exit (--format json:\n"
"                           with kinds, severities and documentation URLs)\n"
"      --list-plugins       list every loaded plugin and exit (--format json)\n"
"      --explain RULE       show a rule's documentation and exit (wrapped to\n"
"                           COLUMNS, or the terminal, or 80 columns)\n"
"\n"
"Execution:\n"
"  -j, --jobs N             check files in N worker processes (default: the\n"
"                           number of online CPUs); the report is the same\n"
"      --timeout SECONDS    give up on a file after SECONDS (default 60; 0:\n"
"                           never); the file gets an SL006 error\n"
"      --no-isolation       check in the sandlint process itself, one file at\n"
"                           a time (a crashing plugin then stops the run)\n"
"      --confine WHEN       confine the scan with Landlock and seccomp: auto\n"
"                           (default; notes when impossible), require, off\n"
"      --sandbox-check      report the kernel's confinement features, test\n"
"                           that confinement holds, and exit\n"
"\n"
"Limits (a file over a limit is not checked and fails the run):\n"
"      --max-file-size N    files larger than N bytes (suffixes K, M, G;\n"
"                           default 64M)\n"
"      --max-nodes N        files with more than N YAML nodes, merged keys\n"
"                           included (default 10000000)\n"
"      --max-memory N       memory of each worker process (default 1G)\n"
"\n"
"  -V, --version            print the version and exit\n"
"  -h, --help               print this help and exit\n"
"\n"
"Exit status: 0 when no finding fails, 1 when one does, 2 for a usage,\n"
"configuration or plugin error.  See sandlint(1).\n", out);
}

/* Adds each comma-separated selector of items to list. */
static int add_selector(void *data, const char *item, size_t length, size_t offset)
{
    (void)offset;
    char *selector = xstrndup(item, length);
    string_list_add(data, selector);
    free(selector);
    return 0;
}

static void add_selectors(struct string_list *list, bool *given, const char *items)
{
    *given = true;
    comma_list_each(items, strlen(items), add_selector, list);
}

/* Parses a byte or count with an optional K/M/G suffix (powers of 1024). */
static int parse_size(const char *text, size_t *out)
{
    errno = 0;
    char *end = NULL;
    if (text[0] == '-' || text[0] == '\0')
        return -1;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text)
        return -1;
    unsigned long long scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = 1024ULL, end++;
    else if (*end == 'M' || *end == 'm')
        scale = 1024ULL * 1024, end++;
    else if (*end == 'G' || *end == 'g')
        scale = 1024ULL * 1024 * 1024, end++;
    if (*end != '\0' || value == 0 || value > SIZE_MAX / scale)
        return -1;
    *out = (size_t)(value * scale);
    return 0;
}

static int parse_count(const char *text, unsigned low, unsigned high,
                       unsigned *out)
{
    char *end = NULL;
    errno = 0;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    unsigned long value = strtoul(text, &end, 10);
    if (errno != 0 || *end != '\0' || value < low || value > high)
        return -1;
    *out = (unsigned)value;
    return 0;
}

static int usage_error(const char *format, const char *detail)
{
    /* The detail is what the user typed: shown, never obeyed. */
    char *escaped = terminal_escape(detail, strlen(detail));
    fputs("sandlint: ", stderr);
    fprintf(stderr, format, escaped);
    fputs("\nTry 'sandlint --help' for more information.\n", stderr);
    free(escaped);
    return -1;
}

int options_parse(struct options *options, int argc, char **argv)
{
    memset(options, 0, sizeof(*options));
    options->format = FORMAT_TEXT;
    options->max_file_size = 64u * 1024 * 1024;
    options->max_nodes = 10000000u;
    options->max_memory = (size_t)1 << 30;
    options->timeout = 60;
    const char *confine = getenv("SANDLINT_CONFINE");
    if (confine != NULL && confine[0] != '\0') {
        options->confine = confine_parse_mode(confine);
        if (options->confine < 0)
            return usage_error("SANDLINT_CONFINE must be auto, require or off, "
                               "not '%s'", confine);
    }
    opterr = 0;
    optind = 1;
    int option;
    while ((option = getopt_long(argc, argv, ":f:o:j:qVh", long_options, NULL)) != -1) {
        switch (option) {
        case 'f':
            options->format = output_parse_format(optarg);
            if (options->format < 0)
                return usage_error("unknown format '%s' (text, json, sarif, "
                                   "github, gitlab)", optarg);
            break;
        case 'o':
            options->output = optarg;
            break;
        case OPT_ROOT:
            options->root = optarg;
            break;
        case OPT_CONFIG:
            options->config = optarg;
            break;
        case OPT_SELECT:
            add_selectors(&options->select, &options->select_given, optarg);
            break;
        case OPT_IGNORE:
            add_selectors(&options->ignore, &options->ignore_given, optarg);
            break;
        case OPT_PLUGIN:
            string_list_add(&options->plugins, optarg);
            break;
        case OPT_PLUGIN_DIR:
            string_list_add(&options->plugin_dirs, optarg);
            break;
        case OPT_NO_DEFAULT_PLUGINS:
            options->no_default_plugins = true;
            break;
        case OPT_LIST_RULES:
            options->list_rules = true;
            break;
        case OPT_LIST_PLUGINS:
            options->list_plugins = true;
            break;
        case OPT_EXPLAIN:
            options->explain = optarg;
            break;
        case 'q':
            options->quiet = true;
            break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") == 0)
                options->color = COLOR_AUTO;
            else if (strcmp(optarg, "always") == 0)
                options->color = COLOR_ALWAYS;
            else if (strcmp(optarg, "never") == 0)
                options->color = COLOR_NEVER;
            else
                return usage_error("--color takes auto, always or never, not "
                                   "'%s'", optarg);
            break;
        case OPT_MAX_FILE_SIZE:
            if (parse_size(optarg, &options->max_file_size) != 0)
                return usage_error("--max-file-size needs a positive size "
                                   "such as 64M, not '%s'", optarg);
            break;
        case OPT_MAX_MEMORY:
            if (parse_size(optarg, &options->max_memory) != 0 ||
                options->max_memory < ((size_t)64 << 20))
                return usage_error("--max-memory needs a size of at least 64M, "
                                   "such as 1G, not '%s'", optarg);
            break;
        case OPT_MAX_NODES:
            if (parse_size(optarg, &options->max_nodes) != 0)
                return usage_error("--max-nodes needs a positive count, not "
                                   "'%s'", optarg);
            break;
        case 'j':
            if (parse_count(optarg, 1, 1024, &options->jobs) != 0)
                return usage_error("--jobs needs a number from 1 to 1024, not "
                                   "'%s'", optarg);
            break;
        case OPT_TIMEOUT:
            if (parse_count(optarg, 0, 86400, &options->timeout) != 0)
                return usage_error("--timeout needs a number of seconds from 0 "
                                   "to 86400, not '%s'", optarg);
            break;
        case OPT_NO_ISOLATION:
            options->no_isolation = true;
            break;
        case OPT_CONFINE:
            options->confine = confine_parse_mode(optarg);
            if (options->confine < 0)
                return usage_error("--confine takes auto, require or off, not "
                                   "'%s'", optarg);
            break;
        case OPT_EXTEND_SELECT:
            add_selectors(&options->extend_select, &options->extend_given, optarg);
            break;
        case OPT_SHOW_ACCEPTED:
            options->show_accepted = true;
            break;
        case OPT_STRICT:
            options->strict = true;
            break;
        case OPT_EXIT_ZERO:
            options->exit_zero = true;
            break;
        case OPT_STDIN_FILENAME:
            options->stdin_filename = optarg;
            break;
        case OPT_UPDATE_ALLOWLIST:
            options->update_allowlist = true;
            break;
        case OPT_ALLOWLIST_SCOPE:
            if (strcmp(optarg, "file") == 0)
                options->allowlist_scope = UPDATE_SCOPE_FILE;
            else if (strcmp(optarg, "package") == 0)
                options->allowlist_scope = UPDATE_SCOPE_PACKAGE;
            else
                return usage_error("--allowlist-scope takes file or package, not '%s' "
                                   "(entries are never written for every package)", optarg);
            options->allowlist_scope_given = true;
            break;
        case OPT_NARROW:
            options->narrow = true;
            break;
        case OPT_ALLOWLIST_SUPPRESSED:
            options->allowlist_suppressed = true;
            break;
        case OPT_UNTRUSTED:
            options->untrusted = true;
            break;
        case OPT_ALLOW_NO_FILES:
            options->allow_no_files = true;
            break;
        case OPT_SANDBOX_CHECK:
            options->sandbox_check = true;
            break;
        case 'V':
            options->version = true;
            break;
        case 'h':
            options->help = true;
            break;
        case ':':
            return usage_error("option '%s' needs an argument", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    options->operands = (const char *const *)(argv + optind);
    options->operand_count = (size_t)(argc - optind);
    /* Set by a CI system for a whole job: no option turns it off. */
    const char *untrusted = getenv("SANDLINT_UNTRUSTED");
    if (untrusted != NULL && untrusted[0] != '\0' && strcmp(untrusted, "0") != 0)
        options->untrusted = true;
    if (!options->update_allowlist) {
        const char *needs_update = options->allowlist_scope_given ? "--allowlist-scope"
                                   : options->narrow              ? "--narrow"
                                   : options->allowlist_suppressed ? "--allowlist-suppressed"
                                                                  : NULL;
        if (needs_update != NULL)
            return usage_error("%s only goes with --update-allowlist", needs_update);
    }
    if (options->update_allowlist && options->untrusted)
        return usage_error("--update-allowlist writes the exceptions of a tree you trust; "
                           "it cannot run %s", "with --untrusted (or SANDLINT_UNTRUSTED)");
    /* The listings print text or JSON; any other --format is refused, not
     * silently answered in text.  One JSON document per run. */
    int listings = options->list_rules + options->list_plugins + (options->explain != NULL);
    if (listings > 0 && options->format != FORMAT_TEXT &&
        (options->format != FORMAT_JSON || options->explain != NULL))
        return usage_error(options->explain != NULL
                               ? "--explain prints text only, not %s"
                               : "--list-rules and --list-plugins print text or "
                                 "json, not %s",
                           output_format_name(options->format));
    if (listings > 1 && options->format == FORMAT_JSON)
        return usage_error("--format json prints one listing per run; %s", "give "
                           "--list-rules or --list-plugins alone");
    if (options->update_allowlist) {
        /* The edit must follow from a complete, plain run. */
        for (size_t i = 0; i < options->operand_count; i++)
            if (strcmp(options->operands[i], "-") == 0)
                return usage_error("--update-allowlist cannot take standard input "
                                   "('%s')", "-");
        if (options->exit_zero)
            return usage_error("--update-allowlist and %s go against each other",
                               "--exit-zero");
        if (options->format != FORMAT_TEXT)
            return usage_error("--update-allowlist prints a text report, not %s",
                               output_format_name(options->format));
        /* An edit must follow from files checked, never from none. */
        if (options->allow_no_files)
            return usage_error("--update-allowlist and %s go against each other",
                               "--allow-no-files");
    }
    return 0;
}

void options_release(struct options *options)
{
    string_list_release(&options->select);
    string_list_release(&options->extend_select);
    string_list_release(&options->ignore);
    string_list_release(&options->plugins);
    string_list_release(&options->plugin_dirs);
}
