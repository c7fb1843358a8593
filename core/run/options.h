/*
 * options.h - the command line (SPEC §2).
 */
#ifndef SANDLINT_OPTIONS_H
#define SANDLINT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "string_list.h"

enum color_mode { COLOR_AUTO = 0, COLOR_ALWAYS, COLOR_NEVER };

struct options {
    int format;                 /* enum output_format */
    const char *output;         /* borrowed from argv; NULL = stdout */
    const char *root;
    const char *config;
    struct string_list select;  /* selectors of every --select */
    bool select_given;          /* --select was given (maybe naming none) */
    struct string_list extend_select;   /* selectors of --extend-select */
    bool extend_given;
    struct string_list ignore;  /* selectors of every --ignore */
    bool ignore_given;
    bool show_accepted;         /* print accepted findings too */
    bool strict;                /* warnings fail the run */
    bool exit_zero;             /* failing findings exit 0 */
    const char *stdin_filename; /* borrowed from argv; NULL: compose.yaml */
    bool update_allowlist;      /* edit the configuration at the end */
    int allowlist_scope;        /* enum update_scope: what new entries name */
    bool allowlist_scope_given; /* --allowlist-scope was given */
    bool narrow;                /* --narrow: '*' and package entries become
                                   file entries */
    bool allowlist_suppressed;  /* findings comments accept get entries */
    bool untrusted;             /* --untrusted or SANDLINT_UNTRUSTED: no
                                   configuration or comment from the tree */
    bool allow_no_files;        /* no sandbox file is no error (SPEC §17):
                                   exit 0, and named files of no known
                                   kind are skipped silently */
    struct string_list plugins;
    struct string_list plugin_dirs;
    bool no_default_plugins;
    bool list_rules;
    bool list_plugins;
    const char *explain;
    bool quiet;
    int color;                  /* enum color_mode */
    size_t max_file_size;       /* bytes */
    size_t max_nodes;
    size_t max_memory;          /* address space per worker, bytes */
    unsigned jobs;              /* worker processes; 0 = online CPUs */
    unsigned timeout;           /* seconds per file; 0 = none */
    bool no_isolation;          /* check in this process */
    int confine;                /* enum confine_mode */
    bool sandbox_check;
    bool help;
    bool version;
    const char *const *operands;  /* borrowed from argv */
    size_t operand_count;
};

/* Parses argv.  Returns 0, or -1 after printing a usage error to stderr. */
int options_parse(struct options *options, int argc, char **argv);
void options_release(struct options *options);
void options_print_help(FILE *out);

#endif
